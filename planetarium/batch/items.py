"""The items of a batch file: one per JSONL line, a line that is no item kept as a
:class:`BadItem` (so it still gets a result row in its place), each with its line number and
digest (what its result row records as ``input_sha256``, and what resuming checks)."""

from __future__ import annotations

import hashlib
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..jsonl import JsonLineError, decode, numbered_lines
from ..resume import id_key


@dataclass(frozen=True)
class BadItem:
    """An input line that could not be decoded: it still gets a result row in its place."""

    why: str
    id: Any = None


@dataclass(frozen=True)
class InputLine:
    """One item of a batch file, its line number and the SHA-256 of its line (stripped of
    surrounding white space), which its result row records as ``input_sha256``."""

    item: dict | BadItem
    number: int
    digest: str


def read_lines(path: str | Path) -> Iterator[InputLine]:
    """The items of a JSONL file (``-``: standard input), one per non-blank line, with their
    line numbers and digests.

    A line that is not a JSON object — invalid JSON, a list, nesting too deep for the JSON
    decoder, a number too long for Python's int — becomes a :class:`BadItem` naming its line
    number, so the batch goes on.  Lines end at LF, CRLF or a lone CR, and a UTF-8 byte order
    mark is ignored (:func:`~planetarium.jsonl.numbered_lines`).  A line over
    :data:`~planetarium.jsonl.MAX_LINE_BYTES` ends the reading with a
    :class:`~planetarium.jsonl.JsonLineError` (no end of line in sight).
    """
    name = "standard input" if str(path) == "-" else str(path)
    stream = sys.stdin.buffer if str(path) == "-" else open(path, "rb")
    with stream:
        for number, line in numbered_lines(stream, name):
            digest = hashlib.sha256(line.strip()).hexdigest()
            try:
                item = decode(line)
            except JsonLineError as err:
                yield InputLine(BadItem(f"line {number}: {err}"), number, digest)
                continue
            yield InputLine(item if isinstance(item, dict) else BadItem(
                f"line {number}: expected a JSON object, got {type(item).__name__}"), number, digest)


def read_items(path: str | Path) -> Iterator[dict | BadItem]:
    """The items of a JSONL file, as :func:`read_lines` reads them."""
    return (line.item for line in read_lines(path))


def recording_digests(lines: Iterable[InputLine], digests: deque[str]
                      ) -> Iterator[dict | BadItem]:
    """The items of ``lines``, each one's digest appended to ``digests`` as it is read: results
    come back in input order, so the k-th result takes the k-th digest."""
    for line in lines:
        digests.append(line.digest)
        yield line.item


def item_key(item: dict | BadItem) -> str | None:
    """What resuming matches a row's id against (:func:`planetarium.resume.id_key`); ``None``
    for items without an id."""
    item_id = item.id if isinstance(item, BadItem) else item.get("id")
    return None if item_id is None else id_key(item_id)
