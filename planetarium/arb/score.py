"""Scoring one ARB question against one response: the truth decides, the label is checked.

:func:`score_record` is a plain function of (record, response, deadline): it recomputes the
question's answer by simulation (:mod:`.truth`), reads the response (:mod:`.answers`) and
compares, and reads the record's stored label the same way to say whether it agrees.  The row
it returns speaks the shared vocabulary (:class:`planetarium.grading.Status`), with how the
answer read kept beside it as a detail:

- ``status``: ``decided`` (the answer was right, wrong, or did not read: scored 1 or 0, never
  dropped), ``unsupported`` (nothing can be decided: null, never a silent 0), ``timeout`` (the
  time limit ran out) or ``internal-error`` (the grader failed on this question);
- ``correct`` and ``score``: true/false and 1/0 when decided, null otherwise;
- ``arb_outcome``: the reading, one word: ``correct`` / ``wrong``; ``unparsed`` (no
  ``[ANSWER]``, or an answer that does not read: decided, 0); ``ambiguous`` (the question's or
  the answer's wording names more than one thing) and ``unsupported`` (a question this grader
  cannot take: not ARB's template, a false premise, an unknown domain), both ``unsupported``;
  else the status itself;
- ``label_agrees``: whether the stored label equals the recomputed answer (null when either is
  unknown), and when it does not, ``label_why`` with the certificate (state, fact, action);
- ``ill_posed``: for a question whose text does not say what the generator asked
  (:data:`~.questions.ILL_POSED`) and whose readings differ, the family and both readings; the
  score follows the text as written, and the label is not checked (it answers the other
  reading).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import ResourceLimitError
from ..grading import Status
from ..jsonl import JsonLineError, decode, numbered_lines
from ..limits import Clock, Deadline, Stopwatch
from .answers import Reading, answer_section, arb_keyword, read_value
from .catalog import BUILTIN, Catalog
from .instance import Instance, InstanceError, instance_for
from .questions import ILL_POSED, Question, QuestionNotUnderstood, parse_question
from .records import ArbDataError, ArbRecord
from .truth import Truth, asp, recompute

#: ARB is scored by simulation that never searches: a CPU deadline keeps verdicts the same on a
#: loaded machine (only a pathological answer could come near it).  The benchmark's one clock
#: (:attr:`planetarium.benchmarks.arb.ArbBenchmark.clock` is this constant).
CLOCK = Clock.CPU
DEFAULT_TIMEOUT_S = 10.0


def to_json(value: Any) -> Any:
    """A truth or answer value as JSON: sets become sorted lists of ASP text."""
    if isinstance(value, frozenset):
        return sorted(asp(x) for x in value)
    return value


def _lists(question: Question, truth: Any, answer: Any) -> dict[str, Any]:
    """Precision, recall and F1 of a list answer, and its missing and extra items."""
    if not (isinstance(truth, frozenset) and isinstance(answer, frozenset)):
        return {}
    hit = len(truth & answer)
    precision = hit / len(answer) if answer else (1.0 if not truth else 0.0)
    recall = hit / len(truth) if truth else (1.0 if not answer else 0.0)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4),
            "missing": sorted(asp(x) for x in truth - answer),
            "extra": sorted(asp(x) for x in answer - truth)}


def _base(record: ArbRecord, question: Question | None) -> dict[str, Any]:
    return {"id": record.id, "domain": record.domain, "instance": record.instance,
            "category": record.category, "question_name": record.name,
            "frame": question.frame if question else None,
            "answer_type": record.answer_type, "plan_length": record.plan_length,
            "fluent_type": record.fluent_type or "all", "sign": record.sign or "pos_neg",
            "layout": record.layout}


def _ill_posed(truth: Truth) -> dict[str, Any]:
    """An ill-posed question's family and both readings (empty for a well-posed one)."""
    if truth.ill_posed is None:
        return {}
    family, meant = truth.ill_posed
    return {"ill_posed": {"family": family, "why": ILL_POSED[family],
                          "readings": {"as written": to_json(truth.value),
                                       "as generated": to_json(meant)}}}


def _label_check(question: Question, truth: Truth, instance: Instance,
                 record: ArbRecord) -> dict[str, Any]:
    if truth.ill_posed is not None:  # the label answers a question the text does not ask
        return {"label_agrees": None, "label_why": f"ill-posed question ({truth.ill_posed[0]}): "
                "the text does not say what the generator asked"}
    label = read_value(question, instance, record.answer, lines=False, use_fallback=False)
    if not truth.decided or label.status != "read":
        reason = (truth.reason if not truth.decided
                  else f"the stored label does not read: {label.reason}")
        return {"label_agrees": None, "label_why": reason}
    if label.value == truth.value:
        return {"label_agrees": True}
    why = {"recomputed": to_json(truth.value), "stored": to_json(label.value),
           "reason": truth.reason, "certificate": truth.certificate}
    return {"label_agrees": False, "label_why": why}


def grade_question(record: ArbRecord, catalog: Catalog = BUILTIN
                   ) -> tuple[Question | None, Any, Truth]:
    """The question's meaning, instance and recomputed truth (a :class:`Truth` with status
    "unsupported" when the question or its instance cannot be read)."""
    try:
        question = parse_question(record)
    except QuestionNotUnderstood as err:
        return None, None, Truth("unsupported", reason=str(err))
    lists = tuple(t for t in (question.sequence, question.items, question.action) if t)
    try:
        instance, record = instance_for(record, catalog, lists)
    except InstanceError as err:
        return question, None, Truth("unsupported", reason=str(err))
    return question, instance, recompute(record, question, instance)


def score_record(record: ArbRecord, response: str | None, deadline: Deadline,
                 catalog: Catalog = BUILTIN, *, check_label: bool = True
                 ) -> dict[str, Any]:
    """One result row (see the module docstring); never raises on a hostile response: a limit
    is ``timeout``, a grader failure ``internal-error``."""
    watch = Stopwatch()
    row: dict[str, Any] = {}
    try:
        with deadline.applied():
            row = _score(record, response, deadline, catalog, check_label)
    except ResourceLimitError as err:
        row = unscored_row(record, Status.TIMEOUT, str(err))
    except Exception as err:  # a grader bug costs one question (null), never the run
        row = unscored_row(record, Status.INTERNAL_ERROR,
                           f"internal error: {type(err).__name__}: {err}")
    row["seconds"] = round(watch.seconds, 4)
    return row


def unscored_row(record: ArbRecord, status: Status, reason: str) -> dict[str, Any]:
    """The row of a question no reading was reached on: the time ran out (``timeout``), or
    the grader failed or its worker died (``internal-error``)."""
    return {**_base(record, None), "truth": None, "label": record.answer, "score": None,
            "status": status.value, "correct": None, "arb_outcome": status.value,
            "label_agrees": None, "label_why": reason, "reason": reason}


def unanswered_row(record: ArbRecord) -> dict[str, Any]:
    """The row of a question without a response, made without grading: 0, ``unparsed`` (no
    truth is recomputed and no label checked for it: ``arb check-labels`` checks them all)."""
    return _read({**_base(record, None), "truth": None, "label": record.answer,
                  "label_agrees": None, "seconds": 0.0}, "unparsed", 0, "no response")


def _read(row: dict[str, Any], outcome: str, score: int | None, reason: str) -> dict[str, Any]:
    """``row`` with the verdict of a reading: decided exactly when it is scored (1 or 0); a
    reading without a score (``ambiguous``, ``unsupported``) decides nothing."""
    decided = score is not None
    return {**row, "score": score, "status": (Status.DECIDED if decided
                                              else Status.UNSUPPORTED).value,
            "correct": bool(score) if decided else None, "arb_outcome": outcome,
            "reason": reason}


def _score(record: ArbRecord, response: str | None, deadline: Deadline, catalog: Catalog,
           check_label: bool) -> dict[str, Any]:
    question, instance, truth = grade_question(record, catalog)
    row = _base(record, question)
    row.update({"truth": to_json(truth.value), "label": record.answer, **_ill_posed(truth)})
    if check_label and question is not None and instance is not None:
        row.update(_label_check(question, truth, instance, record))
    else:
        row.setdefault("label_agrees", None)
    if truth.context:
        row["context"] = truth.context
    deadline.check("reading the answer")
    if not truth.decided and not truth.alternatives:
        return _read(row, truth.status, None, truth.reason)
    if response is None:
        return _read(row, "unparsed", 0, "no response")
    if question is not None and question.answer == "bool":
        row["arb_keyword"] = arb_keyword(response)
    section = answer_section(response)
    assert question is not None and instance is not None
    reading: Reading = read_value(question, instance, section)
    row["read_by_fallback"] = reading.fallback
    if reading.status == "unparsed":
        return _read(row, "unparsed", 0, reading.reason)
    truths = (truth.value,) if truth.decided else truth.alternatives
    answers = (reading.value,) if reading.status == "read" else reading.alternatives
    outcome = judge(truths, answers)
    if outcome is None:
        reason = reading.reason if reading.status == "ambiguous" else truth.reason
        return _read(row, "ambiguous", None, reason)
    value = next((a for a in answers if a in truths), answers[0])
    expected = value if value in truths else truths[0]
    row["answer"] = to_json(value)
    row.update(_lists(question, expected, value))
    reason = ((truth.reason if truth.decided else "right under every reading: " + truth.reason)
              if outcome else _why_wrong(Truth("decided", expected, truth.reason), value))
    return _read(row, "correct" if outcome else "wrong", int(outcome), reason)


def judge(truths: tuple, answers: tuple) -> bool | None:
    """Whether an answer is right when the question or the answer reads several ways: right if
    the answer's readings meet every reading of the question (an answer that repeats the
    question's open wording is right whichever is meant); wrong if no reading of the answer is
    any reading's truth; otherwise it depends on which is meant (None)."""
    if not answers or not truths:
        return None
    if len(truths) == 1 and len(answers) > 1:
        hits = {a == truths[0] for a in answers}
        return hits.pop() if len(hits) == 1 else None
    if all(t in answers for t in truths):
        return True
    if not any(a in truths for a in answers):
        return False
    return None


def _why_wrong(truth: Truth, value: Any) -> str:
    if isinstance(truth.value, frozenset) and isinstance(value, frozenset):
        missing, extra = truth.value - value, value - truth.value
        parts = []
        if missing:
            parts.append(f"{len(missing)} missing (e.g. {asp(sorted(missing, key=asp)[0])})")
        if extra:
            parts.append(f"{len(extra)} extra (e.g. {asp(sorted(extra, key=asp)[0])})")
        return "; ".join(parts)
    return f"the answer is {to_json(value)}, the truth {to_json(truth.value)}: {truth.reason}"


def label_row(record: ArbRecord, catalog: Catalog = BUILTIN,
              deadline: Deadline | None = None) -> dict[str, Any]:
    """The label check of one question within ``deadline`` (default: :data:`DEFAULT_TIMEOUT_S`
    of :data:`CLOCK` time): its row with ``label_agrees`` and, when false, ``label_why`` (and
    ``arb_outcome``: the truth's, when it cannot be recomputed)."""
    watch = Stopwatch()
    deadline = deadline_for_item() if deadline is None else deadline
    try:
        with deadline.applied():
            question, instance, truth = grade_question(record, catalog)
            row = {**_base(record, question), "truth": to_json(truth.value),
                   "label": record.answer, "status": (Status.DECIDED if truth.decided
                                                      else Status.UNSUPPORTED).value,
                   "arb_outcome": truth.status, "reason": truth.reason, **_ill_posed(truth)}
            if question is not None and instance is not None:
                row.update(_label_check(question, truth, instance, record))
            else:
                row.update({"label_agrees": None, "label_why": truth.reason})
    except ResourceLimitError as err:
        row = unscored_row(record, Status.TIMEOUT, str(err))
    except Exception as err:  # a grader bug costs one question, never the run
        row = unscored_row(record, Status.INTERNAL_ERROR,
                           f"internal error: {type(err).__name__}: {err}")
    row["seconds"] = round(watch.seconds, 4)
    return row


def read_responses(path: str | Path) -> dict[str, str]:
    """``{"id", "response"}`` per line -> id -> response; a repeated id, a line without both
    keys or a response that is not text is refused naming the line."""
    out: dict[str, str] = {}
    lines: dict[str, int] = {}
    try:
        with open(path, "rb") as stream:
            for number, line in numbered_lines(stream, str(path)):
                where = f"{path}: line {number}"
                try:
                    row = decode(line)
                except JsonLineError as err:
                    raise ArbDataError(f"{where}: {err}") from err
                if not isinstance(row, dict) or "id" not in row or "response" not in row:
                    raise ArbDataError(f"{where}: expected an object with 'id' and 'response'")
                if not isinstance(row["response"], str):
                    raise ArbDataError(f"{where}: 'response' must be text")
                ident = str(row["id"])
                if ident in out:
                    raise ArbDataError(f"{where}: id {ident} was already answered on line "
                                       f"{lines[ident]}")
                out[ident], lines[ident] = row["response"], number
    except JsonLineError as err:
        raise ArbDataError(str(err)) from err
    return out


def deadline_for_item(seconds: float = DEFAULT_TIMEOUT_S) -> Deadline:
    return Deadline.start(seconds, CLOCK)

