"""Reading ARB question files in both released layouts.

- The 2024 generation (``id``, ``initial_state_asp`` with the initial fluents and the objects by
  type, ``action_sequence``: the *whole* plan in ASP names, ``is_pos_fluent_question``), as in
  the question files of ARB's repository history.
- The final ICLR-2025 release (``question_id``, ``fluent_sign_question`` ``pos``/``neg``/
  ``pos_neg``, ``question_subcategories``, ``question_paraphrased``, composite questions; no
  initial state in ASP and no plan: the initial state is read back from ``initial_state_nl``).

Files are JSON lines or a JSON list, plain or gzip-compressed (by content, not name); a folder
is read whole (its ``*.jsonl``, ``*.json`` and their ``.gz`` forms, sorted).  A record that is
not ARB's is refused with one line naming the file, the line and the key.
"""

from __future__ import annotations

import gzip
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..errors import PlanetariumError
from ..jsonl import MAX_LINE_BYTES, JsonLineError, decode, numbered_lines

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

Atom = tuple

CATEGORIES = ("fluent_tracking", "state_tracking", "action_executability", "effects",
              "numerical_reasoning", "composite", "object_tracking", "hallucination")
#: Category names as files spell them -> the names used here.
_CATEGORY_ALIASES = {"composite_questions": "composite", "numerical_rac": "numerical_reasoning",
                     "effects_of_actions": "effects"}
_SIGNS_2024 = {True: "pos", False: "neg", None: "pos_neg"}
_ASP_ATOM = re.compile(r"\s*(-?)\s*([a-z][a-z0-9_]*)\s*(?:\(([^()]*)\))?\s*$")
_SUFFIXES = (".jsonl", ".json", ".jsonl.gz", ".json.gz")


class ArbDataError(PlanetariumError, ValueError):
    """A question file or record that is not ARB's (the message names file, line and key)."""


def parse_asp_atom(text: str) -> tuple[bool, Atom]:
    """``"on(b1,b2)"`` -> ``(True, ("on", "b1", "b2"))``; ``"-clear(b1)"`` -> negative."""
    match = _ASP_ATOM.match(text) if isinstance(text, str) else None
    if not match:
        raise ValueError(f"not an ASP atom: {text!r}")
    args = tuple(a.strip() for a in match.group(3).split(",")) if match.group(3) else ()
    if any(not a for a in args):
        raise ValueError(f"not an ASP atom: {text!r}")
    return match.group(1) != "-", (match.group(2), *args)


def parse_asp_action(text: str) -> tuple[str, tuple[str, ...]]:
    """``"action_stack(b1,b2)"`` (or without ``action_``) -> ``("stack", ("b1", "b2"))``."""
    positive, atom = parse_asp_atom(text)
    name = atom[0][7:] if atom[0].startswith("action_") else atom[0]
    if not positive or not name:
        raise ValueError(f"not an ASP action: {text!r}")
    return name, tuple(atom[1:])


@dataclass(frozen=True)
class ArbRecord:
    """One question.  ``layout`` is "2024" or "final" (which also selects the generator's
    English); ``init``/``objects``/``plan`` are known for 2024 records only (None otherwise)."""

    id: str
    domain: str
    instance: str
    category: str
    name: str
    answer_type: str  # "true_false_answer" or "free_answer"
    question: str
    answer: str
    plan_length: int
    fluent_type: str | None
    sign: str | None  # "pos", "neg", "pos_neg"
    layout: str
    init_nl: str | None = None
    init: tuple[Atom, ...] | None = None
    objects: dict[str, tuple[str, ...]] | None = None
    plan: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    paraphrased: str | None = None
    init_paraphrased: str | None = None
    subcategories: tuple[str, ...] = ()
    source: str = field(default="", compare=False)

    @property
    def is_true_false(self) -> bool:
        return self.answer_type == "true_false_answer"

    def to_row(self) -> dict[str, Any]:
        """A JSON-ready row (what ``eval run`` writes to items.jsonl)."""
        return {"id": self.id, "domain": self.domain, "instance": self.instance,
                "category": self.category, "name": self.name, "answer_type": self.answer_type,
                "question": self.question, "answer": self.answer,
                "plan_length": self.plan_length, "fluent_type": self.fluent_type,
                "sign": self.sign, "layout": self.layout, "init_nl": self.init_nl,
                "init": [list(a) for a in self.init] if self.init is not None else None,
                "objects": {t: list(o) for t, o in self.objects.items()}
                if self.objects is not None else None,
                "plan": [[n, list(a)] for n, a in self.plan] if self.plan is not None else None,
                "paraphrased": self.paraphrased, "init_paraphrased": self.init_paraphrased,
                "subcategories": list(self.subcategories)}

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> ArbRecord:
        """Back from :meth:`to_row`."""
        return cls(
            id=str(row["id"]), domain=row["domain"], instance=row["instance"],
            category=row["category"], name=row["name"], answer_type=row["answer_type"],
            question=row["question"], answer=row["answer"], plan_length=row["plan_length"],
            fluent_type=row.get("fluent_type"), sign=row.get("sign"), layout=row["layout"],
            init_nl=row.get("init_nl"),
            init=tuple(tuple(a) for a in row["init"]) if row.get("init") is not None else None,
            objects={t: tuple(o) for t, o in row["objects"].items()}
            if row.get("objects") is not None else None,
            plan=tuple((n, tuple(a)) for n, a in row["plan"]) if row.get("plan") is not None
            else None,
            paraphrased=row.get("paraphrased"), init_paraphrased=row.get("init_paraphrased"),
            subcategories=tuple(row.get("subcategories", ())))


def _need(raw: dict, key: str, kind: type | tuple, where: str) -> Any:
    if key not in raw:
        raise ArbDataError(f"{where}: no '{key}' (is this an ARB question file?)")
    value = raw[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise ArbDataError(f"{where}: '{key}' has the wrong type ({type(value).__name__})")
    return value


def record_from_raw(raw: Any, where: str) -> ArbRecord:
    """One record of either layout (``where``: file and line, for errors)."""
    if not isinstance(raw, dict):
        raise ArbDataError(f"{where}: expected a JSON object")
    final = "question_id" in raw
    ident = raw["question_id"] if final else _need(raw, "id", (str, int), where)
    category = _need(raw, "question_category", str, where)
    category = _CATEGORY_ALIASES.get(category, category)
    if category not in CATEGORIES:
        raise ArbDataError(f"{where}: unknown question_category {category!r}")
    answer_type = _need(raw, "answer_type", str, where)
    if answer_type not in ("true_false_answer", "free_answer"):
        raise ArbDataError(f"{where}: unknown answer_type {answer_type!r}")
    plan_length = _need(raw, "plan_length", int, where)
    fluent_type = raw.get("fluent_type")
    if fluent_type is not None and not isinstance(fluent_type, str):
        raise ArbDataError(f"{where}: 'fluent_type' has the wrong type")
    if final:
        sign = raw.get("fluent_sign_question")
        if sign not in ("pos", "neg", "pos_neg", None):
            raise ArbDataError(f"{where}: unknown fluent_sign_question {sign!r}")
    else:
        flag = raw.get("is_pos_fluent_question")
        if flag not in (True, False, None):
            raise ArbDataError(f"{where}: 'is_pos_fluent_question' is not true/false/null")
        sign = _SIGNS_2024[flag]
    init = objects = plan = None
    state = raw.get("initial_state_asp")
    if state is not None:
        try:
            init = tuple(atom for positive, atom in map(parse_asp_atom, state["fluents"])
                         if positive)
            objects = {str(t): tuple(map(str, names)) for t, names in state["objects"].items()}
        except (KeyError, TypeError, AttributeError, ValueError) as err:
            raise ArbDataError(f"{where}: 'initial_state_asp' is not ARB's ({err})") from err
    if raw.get("action_sequence") is not None:
        try:
            plan = tuple(parse_asp_action(a) for a in raw["action_sequence"])
        except (TypeError, ValueError) as err:
            raise ArbDataError(f"{where}: 'action_sequence' is not ARB's ({err})") from err
    init_nl = raw.get("initial_state_nl")
    paraphrased = raw.get("question_paraphrased")
    init_paraphrased = raw.get("initial_state_nl_paraphrased")
    subcategories = raw.get("question_subcategories") or ()
    return ArbRecord(
        id=str(ident), domain=_need(raw, "domain_name", str, where),
        instance=str(raw.get("instance_id", "")), category=category,
        name=str(raw.get("question_name", "")), answer_type=answer_type,
        question=_need(raw, "question", str, where),
        answer=str(_need(raw, "answer", (str, int, bool), where)),
        plan_length=plan_length, fluent_type=fluent_type if fluent_type != "all_fluents" else None,
        sign=sign, layout="final" if final else "2024",
        init_nl=init_nl if isinstance(init_nl, str) else None, init=init, objects=objects,
        plan=plan, paraphrased=paraphrased if isinstance(paraphrased, str) else None,
        init_paraphrased=init_paraphrased if isinstance(init_paraphrased, str) else None,
        subcategories=tuple(map(str, subcategories)), source=where)


def _open_binary(path: Path) -> IO[bytes]:
    """The file's bytes as a stream, gzip or plain by its first two bytes."""
    with open(path, "rb") as handle:
        head = handle.read(2)
    if head == b"\x1f\x8b":
        return gzip.open(path, "rb")  # type: ignore[return-value]  # a GzipFile is IO[bytes]
    return open(path, "rb")


def _raw_records(path: Path) -> Iterator[tuple[Any, str]]:
    try:
        with _open_binary(path) as stream:
            first = stream.read(4096)
            if first.lstrip()[:1] == b"[":
                values = decode(first + stream.read(MAX_LINE_BYTES))
                if not isinstance(values, list):
                    raise ArbDataError(f"{path}: expected a JSON list of records")
                for number, value in enumerate(values, 1):
                    yield value, f"{path}: record {number}"
                return
            lines = io.BufferedReader(_Prefixed(first, stream))
            for number, line in numbered_lines(lines, str(path)):
                try:
                    value = decode(line)
                except JsonLineError as err:
                    raise ArbDataError(f"{path}: line {number}: {err}") from err
                yield value, f"{path}: line {number}"
    except JsonLineError as err:
        raise ArbDataError(f"{path}: {err}") from err
    except (OSError, EOFError) as err:  # a damaged gzip stream
        raise ArbDataError(f"{path}: cannot read: {err}") from err


class _Prefixed(io.RawIOBase):
    """A stream that first gives back the bytes already read from it."""

    def __init__(self, prefix: bytes, rest: IO[bytes]) -> None:
        self.prefix, self.rest = prefix, rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer).cast("B")
        if self.prefix:
            n = min(len(view), len(self.prefix))
            view[:n] = self.prefix[:n]
            self.prefix = self.prefix[n:]
            return n
        data = self.rest.read(len(view))
        view[:len(data)] = data
        return len(data)


def question_files(paths: Iterable[str | Path]) -> list[Path]:
    """The files named, folders expanded to their question files (sorted)."""
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            inside = sorted(p for p in path.rglob("*") if p.is_file()
                            and p.name.lower().endswith(_SUFFIXES))
            if not inside:
                raise ArbDataError(f"{path}: no ARB question files (*.jsonl, *.json, .gz) in it")
            found.extend(inside)
        elif path.is_file():
            found.append(path)
        else:
            raise ArbDataError(f"{path}: no such file or folder")
    return found


def load_records(paths: Iterable[str | Path]) -> list[ArbRecord]:
    """Every record of the files and folders given, in order; an id seen twice is refused
    (responses are matched by id)."""
    records: list[ArbRecord] = []
    seen: dict[str, str] = {}
    for path in question_files(paths):
        for raw, where in _raw_records(path):
            record = record_from_raw(raw, where)
            if record.id in seen:
                raise ArbDataError(f"{where}: id {record.id} was already read at {seen[record.id]}"
                                   " (score files with the same ids separately)")
            seen[record.id] = where
            records.append(record)
    return records
