"""ACPBench and ACPBench Hard as a benchmark: yes/no, multiple-choice and generative questions.

Items come from the published question files (:func:`planetarium.acp.data.load_items`), one
file per task, kind and split (``<task>/<split>.<kind>.json``); ``split`` picks the files by
their split name.  Prompts are the published 2-shot configs (:mod:`planetarium.acp.prompts`),
read from ``prompts`` or found next to the data (``configs/tasks`` in the ACPBench layout).
Answers are graded by :func:`planetarium.acp.score.grade_answer`, which gives the shared
status itself: a right answer is ``decided`` and correct; a wrong or unreadable one ``decided``
and not correct (``parseable`` says which); a search that ran out of its deadline ``timeout``;
a question whose own PDDL cannot be read, or whose premise is false, ``invalid-input``.  The
grader's one-word outcome (correct, wrong, bad-question, ...) stays in ``acp_outcome``.
``timeout_s`` counts CPU seconds (:attr:`AcpBenchmark.clock`): the exact searches then decide the
same questions on a busy machine as on an idle one.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..acp.score import CLOCK
from ..config import Check, at_least, setting
from ..grading import Status
from ..limits import Deadline
from ..presentation.pages import Code, Fields, ItemView, Section
from .base import Benchmark, BenchmarkConfig, ItemResult, Messages, Row

if TYPE_CHECKING:
    from ..acp.data import AcpItem
    from ..acp.prompts import PromptConfig

TASKS = ("app", "prog", "reach", "areach", "val", "just", "land", "nexta")
KINDS = ("gen", "bool", "mcq")
_PROMPT_FOLDERS = (Path("configs") / "tasks", Path("configs"))


def _subset(allowed: tuple[str, ...]) -> Check:
    return lambda values: next((f"names from {', '.join(allowed)}" for v in values
                                if v not in allowed), None)


@dataclass(frozen=True)
class AcpConfig(BenchmarkConfig):
    """``dataset``: a question file or folder; ``split``: file split names (``dev``,
    ``test``; null: every file); ``prompts``: the published prompt configs folder (default: found next to the
    data); ``tasks`` / ``kinds``: only these (empty: all); ``semantics`` and ``max_states``:
    how generative answers are graded (paper definitions or the published lookups; the exact
    search budget per answer, beside ``timeout_s``); ``just_rule``: which plans with steps removed
``just`` counts (``acp score --just-rule``)."""

    prompts: str | None = None
    tasks: tuple[str, ...] = setting((), check=_subset(TASKS))
    kinds: tuple[str, ...] = setting((), check=_subset(KINDS))
    semantics: Literal["paper", "published"] = setting("paper", affects_output=False)
    just_rule: Literal["subsequence", "one-or-two-consecutive"] = setting(
        "subsequence", affects_output=False)
    max_states: int = setting(200_000, check=at_least(1), affects_output=False)


def find_prompts(data: str | Path) -> Path:
    """The published prompt configs (the folder holding ``acp_gen_chat``) next to ``data``:
    ``configs/tasks`` (the ACPBench repository's layout) or ``configs`` in it or a parent."""
    from ..acp.data import AcpDataError

    start = Path(data).resolve()
    for folder in [start, *start.parents]:
        for sub in _PROMPT_FOLDERS:
            if (folder / sub / "acp_gen_chat").is_dir():
                return folder / sub
    raise AcpDataError(f"{data}: no configs/tasks/acp_gen_chat in it or above it; set "
                       "benchmark.prompts to the published prompt configs folder")


@functools.lru_cache(maxsize=8)
def _prompts_dir(config: AcpConfig) -> Path:
    return Path(config.prompts) if config.prompts else find_prompts(config.dataset)


@functools.lru_cache(maxsize=64)
def _prompt(folder: Path, kind: str, task: str) -> PromptConfig:
    """One task's prompt config, read once per run rather than once per question."""
    from ..acp.prompts import load_prompt_config

    return load_prompt_config(folder, kind, task)


def _to_item(row: Row) -> AcpItem:
    from ..acp.data import AcpItem

    names = {f.name for f in dataclasses.fields(AcpItem)}
    return AcpItem(**{k: v for k, v in row.items() if k in names and k != "id"},
                   id=row["question_id"])


def item_row(item: AcpItem) -> Row:
    """A question as the benchmark's item: its fields, the published id as ``question_id``
    and ``KIND/TASK/ID`` as ``id`` (published ids repeat across tasks)."""
    return {**dataclasses.asdict(item), "question_id": item.id,
            "id": f"{item.kind}/{item.task}/{item.id}"}


class AcpBenchmark(Benchmark[AcpConfig]):
    name = "acpbench"
    config_type = AcpConfig
    metrics = ("parseable", "correct")
    breakdowns = (("kind",), ("kind", "task"))
    #: The exact searches decide the same questions on a busy machine as on an idle one: CPU
    #: time (ACP's one clock constant, :data:`planetarium.acp.score.CLOCK`).
    clock = CLOCK

    def load_items(self, config: AcpConfig) -> list[Row]:
        from ..acp.data import load_items, select_items, task_files

        items = [item for path in task_files(config.dataset)
                 if None in config.split or path.name.split(".")[0] in config.split
                 for item in load_items(path)]  # a null split selects every file
        return [item_row(item) for item in select_items(items, config.tasks, config.kinds,
                                                     config.limit)]

    def item_from_record(self, record: dict[str, Any]) -> Row:
        """One question object of a published file (``id``, ``group``, ``context``,
        ``question``, ``answer``, and ``PDDL_domain`` / ``PDDL_problem`` for generative ones),
        or a row :meth:`load_items` gave (``question_id``: an eval run's ``items.jsonl``, a
        GRPO dataset), checked as its published form."""
        from ..acp.data import item_from_record

        if "question_id" in record:  # a row: back to its published form
            record = {"id": record["question_id"], "group": record.get("group"),
                      "context": record.get("context"), "question": record.get("question"),
                      "answer": record.get("answer"), "PDDL_domain": record.get("domain_pddl"),
                      "PDDL_problem": record.get("problem_pddl"), "choices": record.get("choices")}
        return item_row(item_from_record(record, "the record"))

    def split_names(self, config: AcpConfig) -> tuple[str, ...]:
        """The split names of the question files (``<task>/<split>.<kind>.json``)."""
        from ..acp.data import task_files

        return tuple(sorted({path.name.split(".")[0] for path in task_files(config.dataset)}))

    def messages(self, config: AcpConfig, item: Row) -> Messages:
        return _prompt(_prompts_dir(config), item["kind"], item["task"]).messages(_to_item(item))

    def prompt_fingerprint(self, config: AcpConfig) -> str:
        """A hash over every prompt config file (their paths and bytes)."""
        folder = _prompts_dir(config)
        digest = hashlib.sha256()
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
        return digest.hexdigest()[:16]

    def grade(self, config: AcpConfig, item: Row, answer: str, deadline: Deadline, *,
              explain: bool = False) -> ItemResult:
        """One answer by :func:`planetarium.acp.score.grade_answer` under the item's deadline (on
        :attr:`clock`, CPU time); whatever the answer holds, a result comes back."""
        from ..acp.gen import Rules
        from ..acp.grades import outcome
        from ..acp.score import answer_row, grade_answer
        from ..limits import Stopwatch

        groups = {"kind": item["kind"], "task": item["task"]}
        watch = Stopwatch()
        try:
            question = _to_item(item)
            graded = grade_answer(question, answer, deadline,
                                  rules=Rules(config.semantics, config.just_rule),
                                  max_states=config.max_states)
        except Exception as err:  # a grader bug must cost one item, not the run
            return ItemResult(item["id"], Status.INTERNAL_ERROR, None,
                              f"{type(err).__name__}: {err}", groups=groups)
        seconds = watch.seconds
        return ItemResult(item["id"], graded.status, graded.correct, graded.reason,
                          score=graded.score,
                          metrics={"parseable": graded.parseable, "correct": graded.correct},
                          groups=groups,
                          details={"acp_outcome": outcome(answer_row(question, graded, seconds)),
                                   "seconds": round(seconds, 4)})

    def ungraded(self, config: AcpConfig, item: Row, status: Status, reason: str) -> ItemResult:
        """A worker killed past the deadline counts in the published table like a search that
        ran out (``timeout``); a worker that died is an internal error."""
        details = {"acp_outcome": str(status), "seconds": None}
        return ItemResult(item["id"], status, None, reason,
                          metrics={"parseable": None, "correct": None},
                          groups={"kind": item["kind"], "task": item["task"]}, details=details)

    def reference_answer(self, item: Row) -> str:
        """The stored answer as a model is asked to write it: ``yes``/``no``, the option's
        letter, or the generative gold in the prompt's format (:func:`.acp.gold.render_gold`;
        "" where the stored gold does not render)."""
        if item.get("kind") != "gen":
            return str(item.get("answer", ""))
        from ..acp.gold import render_gold
        from ..errors import PlanetariumError

        try:
            return render_gold(_to_item(item))
        except (PlanetariumError, ValueError, KeyError, TypeError, IndexError):
            return ""

    def view_item(self, config: AcpConfig, item: Row, groups: Any) -> ItemView:
        """The default page with the expected answer in words below the answers: the chosen
        option's text, and for a generative question every stored answer (one of several may
        be right; the reference shows one)."""
        view = super().view_item(config, item, groups)
        expected: list[Section] = list(view.reference)
        options = (item.get("choices") or {}) if isinstance(item.get("choices"), dict) else {}
        labels, texts = options.get("label") or [], options.get("text") or []
        if item.get("kind") == "mcq" and str(item.get("answer")) in labels:
            chosen = texts[labels.index(str(item.get("answer")))]
            expected.append(Fields("Expected option", ((str(item.get("answer")), str(chosen)),)))
        elif item.get("kind") == "gen":
            expected.append(Code("Stored gold answer (JSON)",
                                 json.dumps(item.get("answer"), indent=1, ensure_ascii=False)))
        return ItemView(view.facets, view.search, view.fields, view.question, tuple(expected))

    def summary(self, results: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """The published harness's table: mean score and standard error per kind and task."""
        from ..acp.report import summarize

        return {"by_task": summarize([{**r, **r["groups"], **r.get("metrics", {})}
                                      for r in results if "acp_outcome" in r])}


BENCHMARK = AcpBenchmark()
