"""Generate dataset rows from a :class:`~planetarium.dataset.config.DatasetConfig`.

How rows are formed (the published generator's rules; ``data/full.yaml`` reproduces its rows):

* per domain, the (init, goal) combinations of the configured layouts in their configured
  order (each init layout with every goal layout in turn); a combination no parameter fits is
  left out (it would have no rows);
* per combination, the parameters of the init layout's list and then of the goal layout's
  (a parameter that does not fit is skipped), each built problem giving one *candidate* row
  per abstractness class (see :mod:`planetarium.tasks`);
* candidates are numbered in that order, across all domains, and a candidate keeps its number
  as its row id: ids have gaps where candidates are dropped, and are the published ids;
* a candidate whose two texts say what an earlier candidate's of its domain said is dropped
  (the de-duplication of :mod:`planetarium.tasks`).  Rows left sharing a text must be the same
  problem up to what the grader forgives, else generation stops: the text would be ambiguous.

Speed matters (the full dataset has ~184,000 candidates): combinations are built in a process
pool, PDDL is written with string templates, and nothing is parsed or graded here — ``planetarium
data check`` does that as a separate step.
"""

from __future__ import annotations

import inspect
import multiprocessing
import re
import signal
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..config import ConfigError
from ..errors import PlanetariumError
from ..pddl.problem import Problem
from ..pool import usable_cpus
from ..tasks import (
    DoesNotFit,
    DomainTasks,
    Instance,
    Layout,
    is_placeholder,
    param_key,
    same_kind_only,
)
from .config import DatasetConfig, DomainConfig, LayoutConfig
from .leaks import problem_invariant
from .problem_text import problem_pddl, shape_key
from .splits import assign_splits

#: Sizes a configuration may ask for: every integer in a parameter or a space argument, and the
#: objects of one built problem.  The published dataset stays far below (at most 55 blocks); a
#: typo such as ``max_blocks: 100000`` must fail at once, not run for hours.
MAX_SIZE = 1_000
MAX_OBJECTS = 1_000

#: (init_is_abstract, goal_is_abstract), in the order candidates are numbered.
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
    params: tuple[Any, ...]  # the init layout's list, then the goal layout's
    invariants: bool = False  # give each row its problem's leak-check invariant (splits.py)


#: What one parameter of a job gave: its number of candidates, and the rows among them (none
#: when the parameter repeats an earlier one of the job: its candidates are all duplicates).
Built = tuple[int, list[dict]]


def domain_tasks(name: str) -> DomainTasks:
    """The registered domain's task layouts (a domain without them is a configuration error)."""
    from ..domains import get_domain

    tasks = get_domain(name).dataset_tasks()
    if not isinstance(tasks, DomainTasks):
        raise ConfigError(f"domain '{name}' contributes no dataset tasks")
    return tasks


def _size_problem(value: Any) -> str | None:
    """What is wrong with a JSON-like parameter value: sizes are integers in 0..MAX_SIZE."""
    if isinstance(value, bool) or isinstance(value, float):
        return f"{value!r} is not a count"
    if isinstance(value, int):
        return None if 0 <= value <= MAX_SIZE else f"{value} is not in 0..{MAX_SIZE}"
    if isinstance(value, (list, tuple)):
        return next(filter(None, map(_size_problem, value)), None)
    if isinstance(value, dict):
        return next(filter(None, map(_size_problem, value.values())), None)
    return None if isinstance(value, str) else f"{value!r} is not a size"


def _space_arguments(layout: Layout, space: dict[str, Any], where: str) -> None:
    """The configured ``space`` keywords exist on the layout's space function and have its
    defaults' types (and sizes within MAX_SIZE)."""
    assert layout.space is not None  # only layouts with a space get here (_layout_params)
    accepted = inspect.signature(layout.space).parameters
    for name, value in space.items():
        if name not in accepted:
            raise ConfigError(f"unknown argument; layout '{layout.name}' takes "
                              f"{', '.join(accepted) or 'none'}", key=f"{where}.space.{name}")
        default = accepted[name].default
        if default is not inspect.Parameter.empty and type(value) is not type(default):
            raise ConfigError(f"expected a {type(default).__name__} like the default "
                              f"{default!r}, got {value!r}", key=f"{where}.space.{name}")
        problem = _size_problem(value)
        if problem:
            raise ConfigError(problem, key=f"{where}.space.{name}")


def _layout_params(layout: Layout, chosen: LayoutConfig | None, where: str) -> list[Any]:
    if chosen is not None and chosen.params is not None:
        for index, param in enumerate(chosen.params):
            problem = _size_problem(param)
            if problem:
                raise ConfigError(problem, key=f"{where}.params[{index}]")
        return list(chosen.params)
    if layout.space is None:
        if chosen is not None and chosen.space:
            raise ConfigError(f"layout '{layout.name}' has no parameter space to configure",
                              key=f"{where}.space")
        return []
    space = chosen.space if chosen is not None else {}
    _space_arguments(layout, space, where)
    return list(layout.space(**space))


def build_checked(tasks: DomainTasks, init: Layout, goal: Layout, param: Any) -> Instance:
    """``tasks.build``, with a parameter the layout refuses (ValueError other than
    :class:`DoesNotFit`) or a problem over :data:`MAX_OBJECTS` reported as a config error."""
    where = f"{tasks.domain} {init.name} -> {goal.name}, parameter {param_key(param)}"
    try:
        instance = tasks.build(init, goal, param)
    except DoesNotFit:
        raise
    except (ValueError, TypeError) as err:
        raise ConfigError(f"{where}: {err}") from None
    if len(instance.objects) > MAX_OBJECTS:
        raise ConfigError(f"{where}: {len(instance.objects)} objects, over the limit of "
                          f"{MAX_OBJECTS}")
    return instance


def _fits(tasks: DomainTasks, init: Layout, goal: Layout, params: Sequence[Any]) -> bool:
    """Whether some parameter builds a problem (usually the first one tried)."""
    for param in {param_key(p): p for p in params}.values():
        try:
            build_checked(tasks, init, goal, param)
        except DoesNotFit:
            continue
        return True
    return False


def plan_jobs(domain: DomainConfig) -> list[Job]:
    """The combinations of one domain that have rows, in generation order."""
    tasks = domain_tasks(domain.name)
    known = tasks.layout_by_name
    selected = domain.layouts if domain.layouts is not None else {name: None for name in known}
    unknown = sorted(set(selected) - set(known))
    for rule in domain.heldout:
        unknown += [n for n in (rule.init, rule.goal) if n is not None and n not in known]
    if unknown:
        raise ConfigError(
            f"{domain.name}: unknown layout(s) {sorted(set(unknown))}; known: {sorted(known)}")
    params = {name: _layout_params(known[name], chosen, f"{domain.name}.layouts.{name}")
              for name, chosen in selected.items()}
    # Only a domain held out in part has training rows that may be test problems.
    invariants = bool(domain.heldout) and all(rule.init or rule.goal for rule in domain.heldout)
    jobs = []
    for init, goal in tasks.combinations(list(selected)):
        candidates = params[init.name] + params[goal.name]
        if _fits(tasks, init, goal, candidates):
            jobs.append(Job(domain.name, init.name, goal.name, tuple(candidates), invariants))
    return jobs


def param_slug(key: str) -> str:
    """A parameter (by its :func:`~planetarium.tasks.param_key`) as a PDDL-name-safe suffix:
    ``[2, 3] -> "2_3"``."""
    return _NOT_NAME.sub("_", key).strip("_")


_NOT_NAME = re.compile(r"[^A-Za-z0-9]+")


_TASKS_CACHE: dict[str, DomainTasks] = {}


def _candidates(job: Job, init: Layout, goal: Layout, key: str, instance: Instance,
                typed: bool) -> list[dict]:
    """One problem's candidate rows, each with its de-duplication key under ``"_key"``."""
    problem = f"{init.name}_to_{goal.name}_{param_slug(key)}"
    pddl = problem_pddl(problem, job.domain, instance, typed)
    sides = {
        # side -> abstract? -> (text, what it says)
        "init": {True: (instance.init_abstract, instance.init_abstract_key),
                 False: (instance.init_explicit, None)},
        "goal": {True: (instance.goal_abstract, instance.goal_abstract_key),
                 False: (instance.goal_explicit, None)},
    }
    init_size = instance.init_size if instance.init_size is not None else len(instance.init)
    goal_size = instance.goal_size if instance.goal_size is not None else len(instance.goal)
    invariant = _invariant(job.domain, instance) if job.invariants else None
    classes = [c for c in CLASSES if c[0] == c[1]] if same_kind_only(init, goal) else CLASSES
    rows = []
    for init_abs, goal_abs in classes:
        init_text, init_key = sides["init"][init_abs]
        goal_text, goal_key = sides["goal"][goal_abs]
        rows.append({
            "_key": (init_text if init_key is None else init_key,
                     goal_text if goal_key is None else goal_key),
            "_invariant": invariant,
            "id": 0,
            "name": f"{job.domain}_{problem}",
            "domain": job.domain,
            "init": init.name,
            "goal": goal.name,
            "num_objects": len(instance.objects),
            "problem_pddl": pddl,
            "natural_language": f"{init_text}\n{goal_text}",
            "init_is_abstract": init_abs,
            "init_num_propositions": init_size,
            "goal_is_abstract": goal_abs,
            "goal_num_propositions": goal_size,
            "is_placeholder": is_placeholder(init, goal, init_abs, goal_abs),
        })
    return rows


def _invariant(domain: str, instance: Instance) -> int | None:
    from ..domains import get_domain

    types = instance.object_types or ("object",) * len(instance.objects)
    problem = Problem("", domain, instance.objects, types, frozenset(instance.init),
                      frozenset(instance.goal))
    return problem_invariant(problem, get_domain(domain))


def build_job(job: Job) -> list[Built]:
    """Every parameter's candidates of one combination, in order (ids and de-duplication
    come later)."""
    tasks = _TASKS_CACHE.get(job.domain)
    if tasks is None:
        tasks = _TASKS_CACHE[job.domain] = domain_tasks(job.domain)
    init, goal = tasks.layout_by_name[job.init], tasks.layout_by_name[job.goal]
    built: list[Built] = []
    counts: dict[str, int] = {}
    for param in job.params:
        key = param_key(param)
        if key in counts:  # the same parameter again (e.g. swap -> swap lists it twice)
            built.append((counts[key], []))
            continue
        try:
            instance = build_checked(tasks, init, goal, param)
        except DoesNotFit:
            counts[key] = 0
            built.append((0, []))
            continue
        rows = _candidates(job, init, goal, key, instance, tasks.typed)
        counts[key] = len(rows)
        built.append((len(rows), rows))
    return built


def _run_jobs(jobs: list[Job], workers: int) -> Iterator[list[Built]]:
    if workers <= 1 or len(jobs) <= 1:
        yield from map(build_job, jobs)
        return
    # Largest combinations first keeps both workers busy to the end; results are re-ordered.
    order = sorted(range(len(jobs)), key=lambda i: -len(jobs[i].params))
    results: dict[int, list[Built]] = {}
    next_out = 0
    with multiprocessing.get_context("fork").Pool(workers, initializer=_default_signals) as pool:
        for index, built in pool.imap_unordered(_indexed_build, [(i, jobs[i]) for i in order]):
            results[index] = built
            while next_out in results:
                yield results.pop(next_out)
                next_out += 1


def _default_signals() -> None:
    """A pool worker ends on SIGTERM and SIGINT as a process does by default, whatever handlers
    the forking process had installed (vf-eval's swallows repeated signals, so the pool's
    ``terminate`` would wait on its workers forever)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _indexed_build(item: tuple[int, Job]) -> tuple[int, list[Built]]:
    return item[0], build_job(item[1])


class _TextCheck:
    """Candidates sharing one of our texts must share a shape (an abstract text leaves the
    numbering open, nothing more): else the text would not say which problem it means.
    Dropped candidates count too: ours may be told apart by keys while their texts are not."""

    def __init__(self, domain: str) -> None:
        self.domain = domain
        self.first: dict[str, dict] = {}

    def add(self, row: dict) -> None:
        earlier = self.first.setdefault(row["natural_language"], row)
        if (earlier is row or earlier["problem_pddl"] == row["problem_pddl"]
                or not (row["init_is_abstract"] or row["goal_is_abstract"])):
            return  # explicit texts state every atom: one text, one problem
        if shape_key(earlier["problem_pddl"]) != shape_key(row["problem_pddl"]):
            raise GenerationError(f"{self.domain}: two different problems share one text "
                                  f"({earlier['name']} and {row['name']}):\n{row['natural_language']}")


def generate(config: DatasetConfig, *, workers: int | None = None, progress: bool = False) -> list[dict]:
    """Every row of the dataset, with ids (the candidate numbers) and split columns."""
    bar = None
    if progress:  # planning takes seconds too: the bar is there from the start
        from tqdm import tqdm

        bar = tqdm(total=len(config.domains), desc="planning combinations", unit="domain")
    per_domain = []
    for domain in config.domains:
        per_domain.append((domain, plan_jobs(domain)))
        if bar is not None:
            bar.update()
    jobs = [job for _, domain_jobs in per_domain for job in domain_jobs]
    from ..batch import max_workers  # at most one process per combination, 4 per CPU, 64

    workers = min(workers if workers is not None else usable_cpus(), len(jobs), max_workers())
    if bar is not None:
        bar.reset(total=len(jobs))
        bar.set_description("building combinations")
        bar.unit = "comb"
    rows: dict[str, list[dict]] = {}
    results = _run_jobs(jobs, workers)
    next_id = 1
    for domain, domain_jobs in per_domain:
        said: set[tuple] = set()
        texts = _TextCheck(domain.name)
        kept = rows[domain.name] = []
        for _ in domain_jobs:
            for count, candidates in next(results):
                for offset, row in enumerate(candidates):
                    texts.add(row)
                    key = row.pop("_key")
                    if key not in said:
                        said.add(key)
                        row["id"] = next_id + offset
                        kept.append(row)
                next_id += count
            if bar is not None:
                bar.update()
    if bar is not None:
        bar.close()
    assign_splits(rows, config, progress=progress)
    return [row for domain_rows in rows.values() for row in domain_rows]
