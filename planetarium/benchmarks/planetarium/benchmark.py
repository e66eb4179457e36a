"""The Planetarium benchmark (paper, Section 5): write the problem PDDL a description states.

Items are dataset rows (CONTRACTS.md), selected by split selectors and optionally sampled per
domain with a seed (the paper's 250 per domain for o1-mini).  The prompt is the pinned one of
:mod:`.prompts`.  Every answer is graded in three modes: with strict typing, *anchored* (strict
typing, and every ground-truth object the description names keeps its name) and with typing
relaxed (the paper's Figure 4: models add ``:typing`` to untyped domains); the three verdicts
are kept under ``strict``, ``anchored`` and ``relaxed``.

The rule: one :class:`~planetarium.limits.Deadline` (wall time) covers the item, and the modes
run in that order under it, so a mode that starts late has only what is left (it reports
``timeout`` when nothing is, never a guess).  The shared ``status`` / ``correct`` of a result
are the strict verdict's, so the time the other modes take never changes them.  A mode whose
verdict must equal one already computed is not graded again: anchored with no named object is
the strict grading; relaxed typing changes nothing when the domain is untyped and the answer
was read (:func:`typing_cannot_matter`).  The ground truth is read once for all three
(:mod:`planetarium.grading.truths`).
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...config import ConfigError, at_least, setting
from ...grading import GradeOptions, GradeResult, Stage, Status
from ...limits import Deadline
from ..base import Benchmark, BenchmarkConfig, ItemResult, Messages, Row
from .hooks import PlanetariumPresentation
from .prompts import build_messages, prompt_template_hash
from .verdicts import ALL_MODES, ANCHORED, STAGES, VERDICT_KEYS, passed, undecided


def _splits(value: tuple[str | None, ...]) -> str | None:
    """Each entry a split selector (``heldout:test``, ``random:3+domain:gripper``) or null."""
    from ...dataset.splits import split_problem

    if not value:
        return "at least one split (null selects every row)"
    return next((f"known splits ({problem})" for problem in map(split_problem, value)
                 if problem), None)


def _modes(value: tuple[str, ...]) -> str | None:
    if "strict" not in value or not set(value) <= set(ALL_MODES):
        return f"grading modes from {', '.join(ALL_MODES)}, strict among them"
    return None


@dataclass(frozen=True)
class PlanetariumConfig(BenchmarkConfig):
    """``split`` takes the dataset's selectors; ``sample_per_domain`` picks at most that many
    rows of each domain (seeded by ``seed``) before ``limit`` cuts the list.  ``modes``: the
    grading modes computed (strict always: it decides; reports read all three, the reward only
    strict); ``options``: the grading options every mode starts from (null: the defaults);
    ``headline_only``: only ``correct`` is read (the reward's ``correct`` scheme), so the
    strict mode is graded equivalence first (:func:`~planetarium.grading.grade_correct`)."""

    split: tuple[str | None, ...] = setting(("heldout:test",), check=_splits)
    sample_per_domain: int | None = setting(None, check=at_least(1))
    # How answers are graded, not what the model is asked: no part of the config hash.
    modes: tuple[str, ...] = setting(tuple(ALL_MODES), check=_modes, affects_output=False)
    options: GradeOptions | None = setting(None, affects_output=False)
    headline_only: bool = setting(False, affects_output=False)


def text_anchors(problem_pddl: object, text: str) -> list[str]:
    """Ground-truth objects that the description names (whole words, any letter case): an
    explicit description pins them, so the anchored score keeps their names."""
    from ...grading import prepared_truth

    if not isinstance(problem_pddl, str):
        return []  # grading reports the unusable ground truth itself
    truth = prepared_truth(problem_pddl).problem  # the read grading uses (the process's memo)
    if truth is None:
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
    from ...domains import get_domain

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


def typing_cannot_matter(strict: GradeResult) -> bool:
    """Whether grading with typing relaxed must give ``strict``'s verdict: the answer was read
    (with the ground truth) and the domain is untyped.  Relaxing only lets the reader accept
    type annotations; in an untyped domain every object and variable is read as ``object``
    either way, so a text read with strict typing reads the same with it relaxed
    (tests/test_truths.py checks this on every built-in domain), and nothing after
    reading looks at the option."""
    from ...domains import get_domain

    return (strict.parseable is True and strict.domain is not None
            and not get_domain(strict.domain).definition.typed)


def _item_result(item_id: str, domain: str, verdicts: dict[str, dict[str, Any]]) -> ItemResult:
    """The shared result row of one answer, from its verdicts per grading mode (strict decides)."""
    strict = verdicts["strict"]
    status = Status(strict["status"])
    return ItemResult(
        id=item_id, status=status,
        correct=passed(strict, "correct") if status is Status.DECIDED else None,
        reason=strict["reason"],
        metrics={stage: passed(strict, stage) for stage in STAGES},
        groups={"domain": domain},
        details={"domain": domain, **verdicts},
    )


class PlanetariumBenchmark(PlanetariumPresentation, Benchmark[PlanetariumConfig]):
    name = "planetarium"
    config_type = PlanetariumConfig
    metrics = STAGES
    breakdowns = (("domain",),)

    def load_items(self, config: PlanetariumConfig) -> list[Row]:
        """The rows of the configured splits, in dataset order, sampled and limited if asked."""
        from ...dataset import load_rows

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

    def grade(self, config: PlanetariumConfig, item: Row, answer: str, deadline: Deadline, *,
              explain: bool = False) -> ItemResult:
        """The configured modes under the item's one deadline (see the module docstring).  An
        item's ``is_placeholder`` (null: the options') and ``anchored_objects`` (a reward's
        rows carry them) hold in every mode."""
        from ...batch import grade_item

        job = {"id": str(item["id"]), "gt": item["problem_pddl"], "pred": answer,
               "anchored_objects": list(item.get("anchored_objects") or ())}
        if item.get("is_placeholder") is not None:
            job["is_placeholder"] = bool(item["is_placeholder"])
        options = replace(config.options or GradeOptions(), timeout_s=deadline.seconds,
                          explain=explain)
        strict = grade_item(job, options, deadline, headline_only=config.headline_only)
        results = {"strict": strict}
        if ANCHORED in config.modes:
            anchors = text_anchors(item["problem_pddl"], item.get("natural_language", ""))
            results[ANCHORED] = grade_item(
                {**job, "anchored_objects": [*job["anchored_objects"], *anchors]}, options,
                deadline) if anchors else strict
        if "relaxed" in config.modes:
            results["relaxed"] = strict if typing_cannot_matter(strict) else \
                grade_item(job, replace(options, relax_typing=True), deadline)
        domain = str(item.get("domain") or strict.domain or "")
        return _item_result(job["id"], domain, {mode: _verdict(results[mode])
                                                for mode in ALL_MODES if mode in results})

    def ungraded(self, config: PlanetariumConfig, item: Row, status: Status,
                 reason: str) -> ItemResult:
        """Every mode's verdict says what happened to the item (the report reads all three)."""
        verdict = _verdict(GradeResult.failed(Stage.GRADER, status, reason))
        return _item_result(str(item["id"]), str(item.get("domain") or ""),
                            dict.fromkeys(config.modes, verdict))

    def item_from_record(self, record: Row) -> Row:
        """A dataset row (``problem_pddl``; ``is_placeholder``, ``domain``, ... where present);
        the reward's rows need no ``id``."""
        if not isinstance(record.get("problem_pddl"), str):
            raise ValueError("the record has no 'problem_pddl' text")
        return {"id": "-", **record}

    def reward_config(self, timeout_s: float, *, headline_only: bool = False
                      ) -> PlanetariumConfig:
        """The strict mode only (the verdict that decides), equivalence first when only
        ``correct`` is read."""
        return PlanetariumConfig(name=self.name, dataset="(reward)", timeout_s=timeout_s,
                                 modes=("strict",), headline_only=headline_only)

    def summary(self, results: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Counts and rates of each stage per grading mode, plus undecided items."""
        total = len(results)
        summary = {}
        for mode in (m for m in ALL_MODES if all(m in v for v in results)):
            counts = {stage: sum(passed(v[mode], stage) for v in results) for stage in STAGES}
            summary[mode] = {
                "n": total, **counts,
                **{f"{stage}_rate": counts[stage] / total if total else 0.0 for stage in STAGES},
                "undecided": sum(undecided(v[mode]) for v in results),
            }
        return summary


BENCHMARK = PlanetariumBenchmark()
