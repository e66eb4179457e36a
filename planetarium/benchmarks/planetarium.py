"""The Planetarium benchmark (paper, Section 5): write the problem PDDL a description states.

Items are dataset rows (CONTRACTS.md), selected by split selectors and optionally sampled per
domain with a seed (the paper's 250 per domain for o1-mini).  The prompt is the pinned one of
:mod:`.prompts`.  Every answer is graded three times: with strict typing, with typing relaxed
(the paper's Figure 4: models add ``:typing`` to untyped domains), and *anchored* (strict
typing, and every ground-truth object the description names keeps its name); the shared
``status`` / ``correct`` of a result are the strict verdict's, the three verdicts are kept
under ``strict``, ``relaxed`` and ``anchored``.
"""

from __future__ import annotations

import functools
import random
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..config import ConfigError, at_least, setting
from ..grading import GradeOptions, GradeResult, Status
from .base import Benchmark, BenchmarkConfig, ItemResult, Messages, Row
from .planetarium_hooks import PlanetariumPresentation
from .planetarium_verdicts import ALL_MODES, ANCHORED, STAGES, VERDICT_KEYS, passed, undecided
from .prompts import build_messages, prompt_template_hash


def _splits(value: tuple[str | None, ...]) -> str | None:
    """Each entry a split selector (``heldout:test``, ``random:3+domain:gripper``) or null."""
    from ..dataset.splits import split_problem

    if not value:
        return "at least one split (null selects every row)"
    return next((f"known splits ({problem})" for problem in map(split_problem, value)
                 if problem), None)


@dataclass(frozen=True)
class PlanetariumConfig(BenchmarkConfig):
    """``split`` takes the dataset's selectors; ``sample_per_domain`` picks at most that many
    rows of each domain (seeded by ``seed``) before ``limit`` cuts the list."""

    split: tuple[str | None, ...] = setting(("heldout:test",), check=_splits)
    sample_per_domain: int | None = setting(None, check=at_least(1))


def text_anchors(problem_pddl: str, text: str) -> list[str]:
    """Ground-truth objects that the description names (whole words, any letter case): an
    explicit description pins them, so the anchored score keeps their names."""
    from ..errors import PlanetariumError
    from ..grading import load_ground_truth

    try:
        _, truth = load_ground_truth(problem_pddl)
    except PlanetariumError:
        return []  # grading reports the broken ground truth itself
    words = set(re.findall(r"[\w\-]+", text.lower()))
    return sorted(o for o in truth.objects if o in words)


def _verdict(result: GradeResult) -> dict[str, Any]:
    """The part of a grade result a verdict keeps (``correct``: None counts as not passed),
    with the explanation when one was computed."""
    row = result.to_dict()
    return {key: row[key] for key in (*VERDICT_KEYS, "explanation") if key in row}


@functools.cache
def _domain_pddl(name: str) -> str:
    from ..domains import get_domain

    return get_domain(name).pddl


def _sample_per_domain(rows: list[Row], k: int, seed: int) -> list[Row]:
    """At most ``k`` rows per domain, as the paper did for o1-mini (250 per domain)."""
    rng = random.Random(seed)
    by_domain: dict[str, list[int]] = {}
    for index, row in enumerate(rows):
        by_domain.setdefault(row["domain"], []).append(index)
    picked = [i for indices in by_domain.values()
              for i in rng.sample(indices, min(k, len(indices)))]
    return [rows[i] for i in sorted(picked)]


def _item_result(item_id: str, item: Row, verdicts: dict[str, dict[str, Any]]) -> ItemResult:
    """The shared result row of one answer, from its verdicts per grading mode (strict decides)."""
    strict = verdicts["strict"]
    status = Status(strict["status"])
    return ItemResult(
        id=item_id, status=status,
        correct=passed(strict, "correct") if status is Status.DECIDED else None,
        reason=strict["reason"],
        metrics={stage: passed(strict, stage) for stage in STAGES},
        groups={"domain": item["domain"]},
        details={"domain": item["domain"], **verdicts},
    )


class PlanetariumBenchmark(PlanetariumPresentation, Benchmark):
    name = "planetarium"
    config_type = PlanetariumConfig
    metrics = STAGES
    breakdowns = (("domain",),)

    def load_items(self, config: PlanetariumConfig) -> list[Row]:
        """The rows of the configured splits, in dataset order, sampled and limited if asked."""
        from ..dataset import load_rows

        rows: dict[str, Row] = {}
        for split in config.split:
            try:
                loaded = load_rows(config.dataset, split=split)
            except FileNotFoundError as err:
                raise ConfigError(f"{config.dataset}: {err.strerror or err} (write it with "
                                  "'planetarium data generate --out DIR')", key="benchmark.dataset"
                                  ) from err
            except OSError as err:  # DatasetSourceError included: unreadable, offline
                raise ConfigError(str(err), key="benchmark.dataset") from err
            for row in loaded:  # kept as loaded: the dataset hash of older runs stays valid
                rows.setdefault(str(row["id"]), row)
        selected = list(rows.values())
        if config.sample_per_domain is not None:
            selected = _sample_per_domain(selected, config.sample_per_domain, config.seed)
        return selected[: config.limit] if config.limit is not None else selected

    def messages(self, config: PlanetariumConfig, item: Row) -> Messages:
        return build_messages(item["natural_language"], _domain_pddl(item["domain"]))

    def prompt_fingerprint(self, config: PlanetariumConfig) -> str:
        return prompt_template_hash()

    def grade(self, config: PlanetariumConfig, items: Sequence[Row], answers: Sequence[str], *,
              timeout_s: float, workers: int | None = None, progress: bool = False,
              explain: bool = False) -> Iterator[ItemResult]:
        from ..batch import grade_batch

        jobs = [{"id": str(item["id"]), "gt": item["problem_pddl"], "pred": answer,
                 "is_placeholder": bool(item.get("is_placeholder", False))}
                for item, answer in zip(items, answers, strict=True)]
        anchored = [{**job, "anchored_objects": text_anchors(item["problem_pddl"],
                                                            item.get("natural_language", ""))}
                    for job, item in zip(jobs, items, strict=True)]
        graded: dict[str, dict[str, dict[str, Any]]] = {}
        for number, (mode, relax) in enumerate(ALL_MODES.items(), start=1):
            if progress:  # one bar per pass; say which pass it is
                print(f"grading {len(jobs)} answers: {mode} ({number}/{len(ALL_MODES)})",
                      file=sys.stderr, flush=True)
            graded[mode] = {
                result.id: _verdict(result)
                for result in grade_batch(anchored if mode == ANCHORED else jobs,
                                          options=GradeOptions(timeout_s=timeout_s,
                                                               relax_typing=relax,
                                                               explain=explain),
                                          workers=workers, progress=progress, total=len(jobs))
            }
        for job, item in zip(jobs, items, strict=True):
            yield _item_result(job["id"], item, {mode: graded[mode][job["id"]] for mode in ALL_MODES})

    def grade_one(self, config: PlanetariumConfig, item: Row, answer: str) -> ItemResult:
        """One answer, strict typing only: what the lm-eval and Inspect adapters score per answer
        (the strict metrics of :meth:`grade` with one grading pass, not three).  It still runs
        in a worker the batch's watchdog can kill, so a framework's loop never hangs on it."""
        from ..batch import grade_batch

        job = {"id": str(item["id"]), "gt": item["problem_pddl"], "pred": answer,
               "is_placeholder": bool(item.get("is_placeholder", False))}
        [result] = grade_batch([job], options=GradeOptions(timeout_s=config.timeout_s),
                               workers=1, progress=False)
        return _item_result(job["id"], item, {"strict": _verdict(result)})

    def summary(self, results: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Counts and rates of each stage per grading mode, plus undecided items."""
        total = len(results)
        summary = {}
        for mode in ALL_MODES:
            counts = {stage: sum(passed(v[mode], stage) for v in results) for stage in STAGES}
            summary[mode] = {
                "n": total, **counts,
                **{f"{stage}_rate": counts[stage] / total if total else 0.0 for stage in STAGES},
                "undecided": sum(undecided(v[mode]) for v in results),
            }
        return summary


BENCHMARK = PlanetariumBenchmark()
