"""Grading many responses: match them to questions and write one result row per question.

Published ids repeat across tasks (the same id can be a landmark and a reachability question),
so a response may carry ``task`` to say which question it answers; a bare ``id`` that matches
questions of several tasks is refused with the line that holds it rather than guessed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

from ..errors import PlanetariumError, ResourceLimitError
from ..jsonl import JsonLineError, decode, numbered_lines
from ..limits import collector_paused, time_limit
from .data import AcpDataError, AcpItem
from .gen import Verdict, score_gen
from .model import Budget


def read_rows(path: str | Path, required: tuple[str, ...], what: str) -> list[dict]:
    """The JSON objects of a JSON-lines file, each with the keys ``required`` and its line
    number as ``_line``; every error names the file and line (``what``: what a line should be)."""
    rows = []
    path = Path(path)
    try:
        with open(path, "rb") as stream:
            lines = list(numbered_lines(stream, str(path)))
    except (OSError, JsonLineError) as err:
        raise AcpDataError(f"{path}: cannot read: {err}") from err
    for number, line in lines:
        try:
            row = decode(line)
        except JsonLineError as err:  # bad JSON, or an integer past Python's digit limit
            raise AcpDataError(f"{path}: line {number}: not valid JSON: {err}") from err
        if not isinstance(row, dict) or any(key not in row for key in required):
            keys = " and ".join(f"'{key}'" for key in required)
            raise AcpDataError(f"{path}: line {number}: expected {what} with keys {keys}")
        row["_line"] = number
        rows.append(row)
    return rows


def read_responses(path: str | Path) -> list[dict]:
    """``{"id", "response"[, "task"]}`` per line; errors name the file and line."""
    return read_rows(path, ("id", "response"), "an object")


def match_responses(items: list[AcpItem], responses: list[dict],
                    source: str = "responses") -> dict[tuple[str, str, str], object]:
    """Map each question's ``(kind, task, id)`` to its response text."""
    by_id: dict[str, list[AcpItem]] = {}
    for item in items:
        by_id.setdefault(item.id, []).append(item)
    out: dict[tuple[str, str, str], object] = {}
    for row in responses:
        rid = str(row["id"])
        candidates = by_id.get(rid, [])
        if "task" in row:
            candidates = [i for i in candidates if i.task == row["task"]]
        if "kind" in row:
            candidates = [i for i in candidates if i.kind == row["kind"]]
        if len(candidates) > 1:
            tasks = ", ".join(sorted({f"{i.kind}/{i.task}" for i in candidates}))
            raise AcpDataError(f"{source}: line {row['_line']}: id {rid} names questions of "
                               f"several tasks ({tasks}); add \"task\" (and \"kind\") to the line")
        if candidates:
            item = candidates[0]
            out[(item.kind, item.task, item.id)] = row["response"]
    return out


#: The hard wall-clock cap of one answer, as a multiple of its CPU budget (``Budget.seconds``):
#: the CPU budget decides verdicts the same way on a busy machine and an idle one; the wall cap
#: only bounds the call when other work starves it (``acp score --seconds 20`` returns within
#: 60 s + 1 s whatever the load).
WALL_FACTOR = 3.0


def grade_item(item: AcpItem, response: object, semantics: str = "paper",
               budget: Budget | None = None, just_rule: str = "subsequence") -> dict:
    """One result row: id, task, kind, score, status, reason, seconds.

    ``semantics`` and ``just_rule``: the definitions (:mod:`.gen`'s docstring).
    """
    from .choice import score_choice
    from .model import AcpTask

    start = time.perf_counter()
    seconds = (budget or Budget()).seconds
    wall = WALL_FACTOR * seconds
    try:
        with time_limit(wall), collector_paused():  # searches below look at the limit
            if item.kind == "gen":
                task = None
                if budget is not None:
                    try:
                        task = AcpTask.from_item(item, budget)
                    except ResourceLimitError:
                        raise
                    except PlanetariumError:  # score_gen reports an unreadable question itself
                        task = None
                verdict = score_gen(item, response, task, semantics, just_rule)
            else:
                verdict = score_choice(item, response)
    except ResourceLimitError as err:
        verdict = Verdict(None, "undecided", f"no verdict within {wall:g} s of wall time: {err}")
    return _row(item, verdict, time.perf_counter() - start)


def _row(item: AcpItem, verdict: Verdict, seconds: float) -> dict:
    return {"id": item.id, "task": item.task, "kind": item.kind, "score": verdict.score,
            "status": verdict.status, "reason": verdict.reason, "seconds": round(seconds, 4)}


def _grade_job(job: tuple) -> dict:
    item, answered, response, semantics, budget, just_rule = job
    if not answered:
        return _row(item, Verdict(0.0, "missing", "no response for this question"), 0.0)
    return grade_item(item, response, semantics, budget, just_rule)


def grade_all(items: list[AcpItem], responses: dict[tuple[str, str, str], object],
              semantics: str = "paper", budget: Budget | None = None,
              workers: int = 1, just_rule: str = "subsequence",
              progress: bool = False) -> Iterator[dict]:
    """A row per question, in order; a question without a response scores 0 (``missing``).

    With ``workers`` > 1 questions are graded in a process pool: the exact searches are
    CPU-bound and independent, and each keeps its own per-answer time budget.  ``progress``
    shows a labelled bar on standard error.
    """
    from tqdm import tqdm

    keys = [(item.kind, item.task, item.id) for item in items]
    jobs = [(item, key in responses, responses.get(key), semantics, budget, just_rule)
            for item, key in zip(items, keys, strict=True)]
    with tqdm(total=len(jobs), desc="acp score", unit="question", disable=not progress) as bar:
        if workers <= 1:
            for row in map(_grade_job, jobs):
                bar.update()
                yield row
            return
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=workers) as pool:
            for row in pool.map(_grade_job, jobs, chunksize=4):
                bar.update()
                yield row
