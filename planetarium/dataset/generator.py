"""Generate dataset rows from a :class:`~planetarium.dataset.config.DatasetConfig`.

For every domain, every allowed (init layout, goal layout) combination is built for the
parameters of both its layouts, and every built problem yields one row per abstractness class
(see :mod:`planetarium.tasks`).  Rows are de-duplicated by their text within a domain,
first row wins (the published rule); two rows with one text but different problems would make
the text ambiguous, so that stops generation.

Speed matters (the full dataset is ~146k rows): combinations are built in a process pool, PDDL
is written with string templates, and nothing is parsed or graded here — ``planetarium data
check`` does that as a separate step.
"""

from __future__ import annotations

import multiprocessing
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import PlanetariumError
from ..config import ConfigError
from .config import DatasetConfig, DomainConfig
from .problem_text import problem_pddl, shape_key
from .splits import assign_splits
from ..tasks import (
    DoesNotFit,
    DomainTasks,
    Layout,
    is_placeholder,
    param_key,
    same_kind_only,
)

#: (init_is_abstract, goal_is_abstract), in the order rows are emitted.
CLASSES = ((True, True), (True, False), (False, True), (False, False))

#: Columns of a row, in file order (splits.py adds the split columns).
COLUMNS = (
    "id", "name", "domain", "init", "goal", "num_objects", "problem_pddl", "natural_language",
    "init_is_abstract", "init_num_propositions", "goal_is_abstract", "goal_num_propositions",
    "is_placeholder",
)


class GenerationError(PlanetariumError, RuntimeError):
    """A task module produced something the dataset cannot contain (e.g. an ambiguous text)."""


@dataclass(frozen=True)
class Job:
    """One combination to build: picklable, so it can go to a worker process."""

    domain: str
    init: str
    goal: str
    params: tuple[Any, ...]


def domain_tasks(name: str) -> DomainTasks:
    """The registered domain's task layouts (a domain without them is a configuration error)."""
    from ..domains import get_domain

    tasks = get_domain(name).dataset_tasks()
    if not isinstance(tasks, DomainTasks):
        raise ConfigError(f"domain '{name}' contributes no dataset tasks")
    return tasks


def _layout_params(layout: Layout, chosen) -> list[Any]:
    if chosen is not None and chosen.params is not None:
        return list(chosen.params)
    if layout.space is None:
        if chosen is not None and chosen.space:
            raise ConfigError(f"layout '{layout.name}' has no parameter space to configure")
        return []
    return list(layout.space(**(chosen.space if chosen is not None else {})))


def plan_jobs(domain: DomainConfig) -> list[Job]:
    """The combinations of one domain, each with its parameter list (init's, then goal's)."""
    tasks = domain_tasks(domain.name)
    known = tasks.layout_by_name
    selected = domain.layouts if domain.layouts is not None else {name: None for name in known}
    unknown = sorted(set(selected) - set(known))
    for rule in domain.heldout:
        unknown += [n for n in (rule.init, rule.goal) if n is not None and n not in known]
    if unknown:
        raise ConfigError(
            f"{domain.name}: unknown layout(s) {sorted(set(unknown))}; known: {sorted(known)}")
    params = {name: _layout_params(known[name], chosen) for name, chosen in selected.items()}
    jobs = []
    for init, goal in tasks.combinations():
        if init.name not in params or goal.name not in params:
            continue
        seen: dict[str, Any] = {}
        for param in params[init.name] + params[goal.name]:
            seen.setdefault(param_key(param), param)
        if seen:
            jobs.append(Job(domain.name, init.name, goal.name, tuple(seen.values())))
    return jobs


def param_slug(param: Any) -> str:
    """A parameter as a PDDL-name-safe suffix: ``[2, 3] -> "2_3"``."""
    return re.sub(r"[^A-Za-z0-9]+", "_", param_key(param)).strip("_")


_TASKS_CACHE: dict[str, DomainTasks] = {}


def build_job(job: Job) -> list[dict]:
    """All rows of one combination (without ids, de-duplication or splits)."""
    tasks = _TASKS_CACHE.get(job.domain)
    if tasks is None:
        tasks = _TASKS_CACHE[job.domain] = domain_tasks(job.domain)
    init, goal = tasks.layout_by_name[job.init], tasks.layout_by_name[job.goal]
    classes = [c for c in CLASSES if c[0] == c[1]] if same_kind_only(init, goal) else CLASSES
    rows = []
    for param in job.params:
        try:
            instance = tasks.build(init, goal, param)
        except DoesNotFit:
            continue
        problem = f"{init.name}_to_{goal.name}_{param_slug(param)}"
        pddl = problem_pddl(problem, job.domain, instance, tasks.typed)
        texts = {
            (True, True): (instance.init_abstract, instance.goal_abstract),
            (False, False): (instance.init_explicit, instance.goal_explicit),
            (True, False): (instance.init_abstract, instance.goal_explicit),
            (False, True): (instance.init_explicit, instance.goal_abstract),
        }
        for init_abs, goal_abs in classes:
            init_text, goal_text = texts[(init_abs, goal_abs)]
            rows.append({
                "id": 0,
                "name": f"{job.domain}_{problem}",
                "domain": job.domain,
                "init": init.name,
                "goal": goal.name,
                "num_objects": len(instance.objects),
                "problem_pddl": pddl,
                "natural_language": f"{init_text}\n{goal_text}",
                "init_is_abstract": init_abs,
                "init_num_propositions": len(instance.init),
                "goal_is_abstract": goal_abs,
                "goal_num_propositions": len(instance.goal),
                "is_placeholder": is_placeholder(init, goal, init_abs, goal_abs),
            })
    return rows


def _run_jobs(jobs: list[Job], workers: int) -> Iterator[list[dict]]:
    if workers <= 1 or len(jobs) <= 1:
        yield from map(build_job, jobs)
        return
    # Largest combinations first keeps both workers busy to the end; results are re-ordered.
    order = sorted(range(len(jobs)), key=lambda i: -len(jobs[i].params))
    results: dict[int, list[dict]] = {}
    next_out = 0
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for index, rows in pool.imap_unordered(_indexed_build, [(i, jobs[i]) for i in order]):
            results[index] = rows
            while next_out in results:
                yield results.pop(next_out)
                next_out += 1


def _indexed_build(item: tuple[int, Job]) -> tuple[int, list[dict]]:
    return item[0], build_job(item[1])


def generate(config: DatasetConfig, *, workers: int | None = None, progress: bool = False) -> list[dict]:
    """Every row of the dataset, with ids (from 1, in generation order) and split columns."""
    per_domain = [(domain, plan_jobs(domain)) for domain in config.domains]
    jobs = [job for _, domain_jobs in per_domain for job in domain_jobs]
    workers = workers if workers is not None else min(len(jobs), os.cpu_count() or 1)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(jobs), desc="combinations", unit="comb")
    rows: list[dict] = []
    results = _run_jobs(jobs, workers)
    for domain, domain_jobs in per_domain:
        texts: dict[str, dict] = {}
        domain_rows = []
        for _ in domain_jobs:
            for row in next(results):
                text = row["natural_language"]
                first = texts.get(text)
                if first is not None:
                    if ((row["init_is_abstract"] or row["goal_is_abstract"])
                            and shape_key(first["problem_pddl"]) != shape_key(row["problem_pddl"])):
                        raise GenerationError(
                            f"{domain.name}: two different problems share one text "
                            f"(second: {row['name']}):\n{row['natural_language']}")
                    continue
                texts[text] = row
                row["id"] = len(rows) + len(domain_rows) + 1
                domain_rows.append(row)
            if bar is not None:
                bar.update()
        assign_splits(domain_rows, domain, config)
        rows.extend(domain_rows)
    if bar is not None:
        bar.close()
    return rows
