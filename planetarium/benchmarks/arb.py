"""ActionReasoningBench as a benchmark: questions about action sequences, graded by simulation.

Items are ARB question records (:mod:`planetarium.arb.records`; either released layout, a file
or a folder), selected by ``split`` (a file or folder name on the record's path; null: all),
``categories``, ``domain_names``, ``answer_types`` and ``limit``.  Prompts are ARB's zero-shot
shape or the variant that constrains the answer (:mod:`planetarium.arb.prompts`).  Each answer
is scored by :func:`planetarium.arb.score.score_record` against the answer recomputed by
simulation, which gives the shared status itself; how the answer read (correct, wrong,
unparsed, ambiguous, ...) stays in ``arb_outcome``.  Results break down by category, domain,
plan length, fluent type and sign.

``grade`` grades one answer under the item's deadline (CPU time: :attr:`ArbBenchmark.clock`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from ..arb.score import CLOCK
from ..config import Check, setting
from ..grading import Status
from ..limits import Clock, Deadline
from ..presentation import pages
from ..presentation.pages import AnswerView, Fields, ItemView, Section, Text
from .base import Benchmark, BenchmarkConfig, ItemResult, Messages, Row

if TYPE_CHECKING:
    from ..arb.records import ArbRecord

CATEGORIES = ("fluent_tracking", "state_tracking", "action_executability", "effects",
              "numerical_reasoning", "composite", "object_tracking", "hallucination")
#: The result-row keys kept beside the shared ones (what the report and the viewer read).
_DETAILS = ("arb_outcome", "label", "label_agrees", "label_why", "truth", "answer", "precision", "recall",
            "f1", "missing", "extra", "frame", "read_by_fallback", "arb_keyword", "seconds")


def _subset(allowed: tuple[str, ...]) -> Check:
    return lambda values: next((f"names from {', '.join(allowed)}" for v in values
                                if v not in allowed), None)


@dataclass(frozen=True)
class ArbConfig(BenchmarkConfig):
    """``dataset``: a question file or folder; ``split``: names of files or folders on the
    records' paths (null: every record); ``prompt``: ``zero_shot`` or ``one_per_line``;
    ``paraphrased``: ask ARB's paraphrased question where a record has one (grading always reads
    the templated one); ``domains`` / ``instances``: folders as ``arb score`` takes them."""

    split: tuple[str | None, ...] = setting((None,), check=lambda v: None if v else
                                            "at least one split (null selects every record)")
    prompt: Literal["zero_shot", "one_per_line"] = "zero_shot"
    paraphrased: bool = False
    categories: tuple[str, ...] = setting((), check=_subset(CATEGORIES))
    domain_names: tuple[str, ...] = ()
    answer_types: tuple[str, ...] = setting((), check=_subset(("true_false_answer",
                                                                "free_answer")))
    domains: str | None = None
    instances: str | None = None


def _selected(record: ArbRecord, config: ArbConfig) -> bool:
    if None not in config.split:
        parts = {p for p in Path(record.source.split(":")[0]).parts}
        stems = {Path(record.source.split(":")[0]).name.split(".")[0]}
        if not (parts | stems) & set(config.split):
            return False
    return ((not config.categories or record.category in config.categories)
            and (not config.domain_names or record.domain in config.domain_names)
            and (not config.answer_types or record.answer_type in config.answer_types))


def result_from_row(item_id: str, row: dict[str, Any]) -> ItemResult:
    """The shared result of one ARB row (how the answer read kept in ``arb_outcome``)."""
    status, correct = Status(row["status"]), row["correct"]
    groups = {"category": row["category"], "domain": row["domain"],
              "plan_length": str(row["plan_length"]), "fluent_type": row["fluent_type"],
              "sign": row["sign"], "answer_type": row["answer_type"]}
    details = {k: row[k] for k in _DETAILS if k in row}
    context = row.get("context") or {}
    details["view"] = {"question": row.get("question_text"), "state_before": context.get("before"),
                       "state_after": context.get("state"), "steps": context.get("steps"),
                       "truth": row.get("truth"), "answer": row.get("answer"),
                       "missing": row.get("missing"), "extra": row.get("extra"),
                       "label": row.get("label"), "label_agrees": row.get("label_agrees")}
    parseable = None if status is not Status.DECIDED else row["arb_outcome"] != "unparsed"
    return ItemResult(item_id, status, correct, str(row.get("reason", "")),
                      score=row.get("score"), metrics={"parseable": parseable,
                                                       "correct": correct},
                      groups=groups, details=details)


class ArbBenchmark(Benchmark[ArbConfig]):
    name = "arb"
    config_type = ArbConfig
    metrics = ("parseable", "correct")
    breakdowns = (("category",), ("domain",), ("plan_length",), ("fluent_type",), ("sign",),
                  ("category", "domain"),
                  ("category", "domain", "plan_length", "fluent_type", "sign"))
    #: Verdicts must not depend on load: the item's time is counted in CPU seconds (ARB's one
    #: clock constant, :data:`planetarium.arb.score.CLOCK`).
    clock: ClassVar[Clock] = CLOCK

    def load_items(self, config: ArbConfig) -> list[Row]:
        from ..arb.records import load_records

        rows = [r.to_row() for r in load_records([config.dataset]) if _selected(r, config)]
        return rows[:config.limit] if config.limit else rows

    def item_from_record(self, record: dict[str, Any]) -> Row:
        """One question record of ARB's files (either released layout), or a row
        :meth:`load_items` gave (``layout``: an eval run's ``items.jsonl``, a GRPO dataset)."""
        from ..arb.records import ArbRecord, record_from_raw

        if "layout" in record:
            return ArbRecord.from_row(record).to_row()
        return record_from_raw(record, "the record").to_row()

    def messages(self, config: ArbConfig, item: Row) -> Messages:
        from ..arb.prompts import build_prompt, describe
        from ..arb.questions import QuestionNotUnderstood, parse_question
        from ..arb.records import ArbRecord
        from ..arb.runner import catalog_for

        record = ArbRecord.from_row(item)
        domain, book = catalog_for(config.domains, config.instances).domains(record.domain,
                                                                          record.layout)
        try:
            kind = parse_question(record).answer
        except QuestionNotUnderstood:
            kind = "bool" if record.is_true_false else "text"
        question = (record.paraphrased if config.paraphrased and record.paraphrased
                    else record.question)
        state = (record.init_paraphrased if config.paraphrased and record.init_paraphrased
                 else record.init_nl) or ""
        return [{"role": "user", "content": build_prompt(describe(domain, book), state, question,
                                                         kind, config.prompt)}]

    def prompt_fingerprint(self, config: ArbConfig) -> str:
        from ..arb.prompts import fingerprint

        return fingerprint(config.prompt + (":paraphrased" if config.paraphrased else ""))

    def grade(self, config: ArbConfig, item: Row, answer: str, deadline: Deadline, *,
              explain: bool = False) -> ItemResult:
        """One answer against the recomputed truth (never raises on a hostile answer)."""
        from ..arb.records import ArbRecord
        from ..arb.runner import catalog_for
        from ..arb.score import score_record

        try:
            record = ArbRecord.from_row(item)
            row = score_record(record, answer, deadline,
                               catalog_for(config.domains, config.instances))
            row["question_text"] = record.question
            return result_from_row(str(item["id"]), row)
        except Exception as err:  # a grader bug must cost one item, not the run
            return ItemResult(str(item.get("id")), Status.INTERNAL_ERROR, None,
                              f"{type(err).__name__}: {err}")

    def reference_answer(self, item: Row) -> str:
        """The stored answer (the recomputed one, which decides, is on each answer's view)."""
        answer = item.get("answer")
        return "" if answer is None else str(answer)

    def view_item(self, config: ArbConfig, item: Row, groups: Any) -> ItemView:
        """The default page (facets, prompt, stored answer) with the question on top."""
        view = super().view_item(config, item, groups)
        return ItemView(view.facets, view.search + " " + str(item.get("question", "")),
                        fields=(("instance", str(item.get("instance", ""))),
                                ("layout", str(item.get("layout", "")))),
                        question=(Text("Question", str(item.get("question", ""))), *view.question),
                        reference=view.reference)

    def view_answer(self, row: Row, answer: str) -> AnswerView:
        """Status in the shared words (ARB's own where it says why nothing was decided:
        ``undecided (ambiguous)``); the actions taken, the states before and after, the
        recomputed answer and the answer's missing and extra items."""
        base = pages.default_answer_view(row, self.metrics)
        view = row.get("view") or {}
        sections: list[Section] = list(base.sections)

        def listed(value: Any) -> str:
            if isinstance(value, (list, tuple)):
                return ", ".join(map(str, value)) or "none"
            return "—" if value is None else str(value)

        if view.get("steps"):
            sections.append(Text("Actions taken", listed(view["steps"])))
        if view.get("state_before") is not None:
            sections.append(Text("State before the action", listed(view["state_before"])))
        if view.get("state_after") is not None:
            sections.append(Text("State the question is about", listed(view["state_after"])))
        sections.append(Fields("Answer", (
            ("recomputed answer", listed(view.get("truth"))),
            ("read from the answer", listed(view.get("answer"))),
            ("missing", listed(view.get("missing"))), ("extra", listed(view.get("extra"))),
            ("stored label", listed(view.get("label"))),
            ("stored label agrees", pages.yes_no(view.get("label_agrees"))))))
        status = base.status  # the shared words ("not parseable"), as every benchmark's
        if row.get("status") != Status.DECIDED.value and row.get("arb_outcome"):
            status = f"undecided ({row['arb_outcome']})"  # ARB's reason: ambiguous, unsupported
        return AnswerView(status, base.tone, base.categories, tuple(sections))

    def summary(self, results: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """ARB's own true/false accuracy (its keyword rule; both/neither dropped), the stored
        labels that disagree with the recomputed answers, and how the answers read."""
        from collections import Counter

        keyword = [r for r in results if r.get("arb_keyword") in ("True", "False")]
        tf = [r for r in results if "arb_keyword" in r]
        return {"arb_outcomes": dict(Counter(r.get("arb_outcome") for r in results)),
                "label_disagreements": sum(r.get("label_agrees") is False for r in results),
                "arb_keyword_accuracy": {
                    "note": "ARB's own reading: keyword 'true'/'false', both or neither dropped, "
                            "compared with the stored label",
                    "n": len(keyword), "dropped": len(tf) - len(keyword),
                    "accuracy": round(sum(r["arb_keyword"] == r["view"]["label"]
                                          for r in keyword) / len(keyword), 4)
                    if keyword else None}}


BENCHMARK = ArbBenchmark()
