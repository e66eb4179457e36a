"""Reading ACPBench / ACPBench Hard question files: JSON, JSON.gz and Hugging Face Parquet.

The published layout is ``dataset/<task>/<split>.{bool,mcq,gen}.json[.gz]`` (a JSON list of
question objects); the Hugging Face copy stores the same records as Parquet.  A file that is not
what we expect is refused with one line naming the file, the record and the key, never a
traceback, so a user pointing the CLI at the wrong folder learns what is wrong at once.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import PlanetariumError
from ..jsonl import JsonLineError, decode

#: ``group`` field of a record -> (short task name, question kind).
GROUPS: dict[str, tuple[str, str]] = {}
for _task, _stem in (("app", "applicable_actions"), ("prog", "progression"),
                     ("reach", "reachable_atom"), ("areach", "reachable_action"),
                     ("val", "validation"), ("just", "action_justification"),
                     ("land", "landmarks"), ("nexta", "goal_closer")):
    GROUPS[f"{_stem}_gen"] = (_task, "gen")
    GROUPS[f"{_stem}_bool"] = (_task, "bool")
    GROUPS[f"{_stem}_mc"] = (_task, "mcq")
    GROUPS[f"{_stem}_mcq"] = (_task, "mcq")

_SUFFIXES = (".json", ".json.gz", ".parquet")


class AcpDataError(PlanetariumError, ValueError):
    """A question file that is not in the ACPBench layout (names file, record and key)."""


@dataclass(frozen=True)
class AcpItem:
    """One question.  ``answer`` is the stored gold exactly as published (its shape depends on
    the task); ``domain_pddl`` and ``problem_pddl`` are present for generative questions."""

    id: str
    task: str
    kind: str  # "gen", "bool" or "mcq"
    group: str
    context: str
    question: str
    answer: Any
    domain_pddl: str | None = None
    problem_pddl: str | None = None
    choices: dict | None = field(default=None, compare=False)


_STR_LIST = "a list of strings"


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def check_gold_shape(task: str, answer: Any) -> str | None:
    """Why ``answer`` does not have the stored shape of ``task``'s gold (``None`` if it does)."""
    if task in ("app", "reach", "areach"):
        return None if _is_str_list(answer) else f"expected {_STR_LIST}"
    if task == "prog":
        ok = isinstance(answer, dict) and all(_is_str_list(answer.get(k)) for k in ("pos", "neg"))
        return None if ok else "expected {'pos': [...], 'neg': [...]} of strings"
    if task == "val":
        ok = isinstance(answer, int) or (isinstance(answer, str) and answer.strip().isdigit())
        return None if ok else "expected a non-negative integer index"
    if task == "just":
        ok = isinstance(answer, list) and all(_is_str_list(a) and len(a) in (2, 3) for a in answer)
        return None if ok else "expected a list of [action, action, '-1'] or [action, count] lists"
    if task == "land":
        ok = isinstance(answer, dict) and all(_is_str_list(answer.get(k)) for k in ("yes", "no"))
        return None if ok else "expected {'yes': [...], 'no': [...]} of strings"
    if task == "nexta":
        ok = (isinstance(answer, dict) and all(_is_str_list(answer.get(k))
                                               for k in ("yes", "no", "maybe"))
              and str(answer.get("opt", "")).strip().isdigit())
        return None if ok else "expected {'yes', 'no', 'maybe': [...], 'opt': int}"
    return f"unknown task '{task}'"


def as_step(text: str) -> tuple[str, ...]:
    """A stored action or atom string (``'(at c1 l0)'`` or ``'at c1 l0'``) as a lower-case step."""
    return tuple(text.strip().strip("()").lower().split())


def _records(path: Path) -> list[Any]:
    name = path.name.lower()
    try:
        if name.endswith(".parquet"):
            from ..errors import require

            pq = require("pyarrow.parquet", "data")
            return pq.read_table(path).to_pylist()
        if name.endswith(".gz"):
            with gzip.open(path, "rt", encoding="utf-8") as handle:
                text = handle.read()
        else:
            text = path.read_text(encoding="utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as err:
        raise AcpDataError(f"{path}: cannot read: {err}") from err
    except Exception as err:  # pyarrow raises its own hierarchy (ArrowInvalid, ...)
        if type(err).__module__.startswith("pyarrow"):
            raise AcpDataError(f"{path}: not a readable Parquet file: {err}") from err
        raise
    try:
        data = decode(text)
    except JsonLineError as err:
        cause = err.__cause__
        where = f"line {cause.lineno}: " if isinstance(cause, json.JSONDecodeError) else ""
        raise AcpDataError(f"{path}: {where}not valid JSON: {err}") from err
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        data = data["data"]
    if not isinstance(data, list):
        raise AcpDataError(f"{path}: expected a JSON list of question objects, "
                           f"found {type(data).__name__}")
    return data


def _text(record: dict, key: str, where: str) -> str:
    value = record.get(key)
    if not isinstance(value, str):
        found = "nothing" if value is None else type(value).__name__
        raise AcpDataError(f"{where}: key '{key}' must be a string, found {found}")
    return value


def _optional_text(record: dict, key: str, where: str, required: bool) -> str | None:
    return None if record.get(key) is None and not required else _text(record, key, where)


def item_from_record(record: Any, where: str) -> AcpItem:
    """One published question record (``where``: its place, for errors), checked."""
    if not isinstance(record, dict):
        raise AcpDataError(f"{where}: expected a question object, found {type(record).__name__}")
    if "id" not in record or isinstance(record["id"], (dict, list)):
        raise AcpDataError(f"{where}: key 'id' is missing or not a scalar")
    group = _text(record, "group", where)
    if group not in GROUPS:
        raise AcpDataError(f"{where}: unknown group '{group}' (expected one of "
                           f"{', '.join(sorted(GROUPS))})")
    task, kind = GROUPS[group]
    if "answer" not in record:
        raise AcpDataError(f"{where}: key 'answer' is missing")
    item = AcpItem(
        id=str(record["id"]), task=task, kind=kind, group=group,
        context=_text(record, "context", where), question=_text(record, "question", where),
        answer=record["answer"],
        domain_pddl=_optional_text(record, "PDDL_domain", where, required=kind == "gen"),
        problem_pddl=_optional_text(record, "PDDL_problem", where, required=kind == "gen"),
        choices=record.get("choices"),
    )
    if kind == "gen":
        problem = check_gold_shape(task, item.answer)
        if problem:
            raise AcpDataError(f"{where}: key 'answer': {problem}")
    return item


def read_file(path: str | Path) -> list[AcpItem]:
    """Every question of one file, checked; raises :class:`AcpDataError` on a malformed one."""
    path = Path(path)
    records = _records(path)
    return [item_from_record(r, f"{path}: record {i}") for i, r in enumerate(records)]


def task_files(path: str | Path) -> list[Path]:
    """``path`` itself when it is a file, else every question file below the folder (sorted)."""
    path = Path(path)
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise AcpDataError(f"{path}: no such file or folder")
    files = sorted(p for p in path.rglob("*") if p.is_file()
                   and p.name.lower().endswith(_SUFFIXES))
    if not files:
        raise AcpDataError(f"{path}: no question files (*.json, *.json.gz, *.parquet) in it")
    return files


def load_items(path: str | Path) -> list[AcpItem]:
    """Every question in a file or a folder of files; ids must be unique within a group."""
    items: list[AcpItem] = []
    seen: dict[tuple[str, str], str] = {}
    for file in task_files(path):
        for item in read_file(file):
            key = (item.group, item.id)  # published ids repeat across tasks, not within one
            if key in seen:
                raise AcpDataError(f"{file}: question id {item.id} ({item.group}) also appears "
                                   f"in {seen[key]}")
            seen[key] = str(file)
            items.append(item)
    return items


def select_items(items: list[AcpItem], tasks: tuple[str, ...] = (), kinds: tuple[str, ...] = (),
                 limit: int | None = None) -> list[AcpItem]:
    """The questions ``benchmark: {tasks, kinds, limit}`` asks in ``eval run``, in file order: the
    one selection rule shared by asking (the acpbench benchmark) and grading (``acp score
    --task/--kind/--limit``)."""
    chosen = [i for i in items if (not tasks or i.task in tasks) and (not kinds or i.kind in kinds)]
    return chosen[:limit] if limit is not None else chosen
