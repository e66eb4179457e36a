"""Writing and resuming a results file: the one module every command that resumes goes through.

``grade --batch``, ``eval grade``, ``acp score`` and ``arb score`` write their results the same
way: one whole JSON row per line, in the order of their items, flushed as each is graded, into
a file they hold an exclusive lock on (:func:`open_output`), so a second command writing the
same file is refused before it can empty or interleave the first one's rows.  A kill can then
leave at worst a torn last line.  Resuming is reading the whole rows and cutting the torn one
off (:func:`done_rows`; ``eval run`` reads its completions back the same way), checking that
row k answers item k, and running only the items after them: :func:`kept_rows` where the items
are known up front (a selection of questions, a run's answers), :func:`skip_done` where they
stream in (a batch read line by line, each row checked against its line's digest too).  An
output that fails the check is refused in one line naming the first row that differs, and left
as it was.
"""

from __future__ import annotations

import fcntl
import json
import os
import stat
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple, Protocol, TypeVar

from .errors import PlanetariumError
from .jsonl import JsonLineError, decode, numbered_lines


class OutputBusyError(PlanetariumError, RuntimeError):
    """Another command holds the lock on the results file."""


def open_output(path: str | Path, resume: bool, writer: str) -> BinaryIO:
    """``path`` opened for appending and locked (``flock``, exclusive): emptied first unless
    ``resume`` (a device such as ``/dev/null`` is never truncated).

    The file is opened without truncating and locked before anything is cut, so a second
    command on the same file (``writer`` names it in the message: "another ``writer`` is
    writing it") is refused with :class:`OutputBusyError` and the first one's rows stay whole.
    """
    sink = open(path, "ab")  # noqa: SIM115 (returned to the caller, who closes it)
    try:
        fcntl.flock(sink, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as err:
        sink.close()
        raise OutputBusyError(f"cannot write {path}: another {writer} is writing it") from err
    try:
        if not resume and stat.S_ISREG(os.fstat(sink.fileno()).st_mode):
            sink.truncate(0)
    except OSError:
        sink.close()
        raise
    return sink


def id_key(item_id: Any) -> str:
    """Ids compare by their JSON text, so ``1`` and ``"1"`` stay different items."""
    return json.dumps(item_id, sort_keys=True)


def done_rows(path: str | Path, is_row: Callable[[Any], bool]) -> Iterator[tuple[int, dict]]:
    """The rows already in a results file, numbered by line, in order (none if it is missing).

    Each complete line must decode to a value ``is_row`` accepts, else a ``ValueError`` naming
    the line ("not a result row; cannot resume": the file is another command's output).  A torn
    last line (a kill mid-write: it runs to the end of the file without a line end) is cut off
    the file once every row before it has been read; a caller that stops early or raises cuts
    nothing.
    """
    path = Path(path)
    if not path.exists():
        return
    torn = None
    with open(path, "rb") as handle:  # line by line, each line capped (the shared reader)
        for number, line in numbered_lines(handle, str(path)):
            if not line.endswith((b"\n", b"\r")):
                torn = handle.seek(0, os.SEEK_END) - len(line)
                break
            try:
                row = decode(line)
            except JsonLineError:
                row = None
            if not isinstance(row, dict) or not is_row(row):
                raise ValueError(f"{path}, line {number}: not a result row; cannot resume")
            yield number, row
    if torn is not None:
        with open(path, "r+b") as handle:
            handle.truncate(torn)


def has_keys(*keys: str) -> Callable[[dict], bool]:
    """An ``is_row`` for :func:`done_rows`: a row holds every one of ``keys``."""
    return lambda row: all(key in row for key in keys)


def kept_rows(path: str | Path, keys: Sequence[Hashable], key_of: Callable[[dict], Hashable],
              is_row: Callable[[Any], bool]) -> list[dict]:
    """The rows a killed command left in ``path`` for ``--resume`` to keep: row k must be the
    result of the item whose key is ``keys[k]`` (``key_of(row)``).

    More rows than items, or a row of another item, is a ``ValueError`` saying "cannot resume"
    and naming the first such row: the file is another input's or selection's output, and
    nothing is kept, cut or appended.
    """
    rows: list[dict] = []
    for number, row in done_rows(path, is_row):
        at = len(rows)
        if at == len(keys):
            raise ValueError(f"{path} has more rows than the {len(keys)} items selected; it is "
                             "not their output, cannot resume")
        if key_of(row) != keys[at]:
            raise ValueError(f"{path}, line {number} answers {key_of(row)!r}, not item {at + 1} "
                             f"({keys[at]!r}): cannot resume; run again without --resume")
        rows.append(row)
    return rows


class DoneRow(NamedTuple):
    """What :func:`skip_done` checks of a row already written: its item's id key (see
    :func:`id_key`; ``None`` for an item without an id) and ``input_sha256`` (``None`` in rows
    written before rows had one)."""

    key: str | None
    digest: str | None


class StreamedLine(Protocol):
    """An input line as a streamed input yields it: its line ``number`` and ``digest``."""

    @property
    def number(self) -> int: ...

    @property
    def digest(self) -> str: ...


Line = TypeVar("Line", bound=StreamedLine)


def skip_done(lines: Iterable[Line], done: Sequence[DoneRow], out: str,
              key_of: Callable[[Line], str | None]) -> Iterator[Line]:
    """The input lines after the first ``len(done)``, which must carry the id keys of those rows
    (``key_of(line)``) and, where a row records one, the same digest.

    The check runs before the first remaining line is handed out, so an output that belongs to
    another input, or to lines edited since they were graded, is refused (``ValueError``, one
    line naming the first row that differs) before anything is graded or appended.
    """
    lines = iter(lines)
    for row_number, row in enumerate(done, 1):
        line = next(lines, None)
        if line is None:
            raise ValueError(f"{out} has {len(done)} rows but the input has only "
                             f"{row_number - 1} items; it is not this batch's output")
        key = key_of(line)
        if key != row.key:
            raise ValueError(f"{out}, row {row_number}: id {row.key} where the input's item "
                             f"{row_number} has id {key}; it is not this batch's output")
        if row.digest is not None and row.digest != line.digest:
            raise ValueError(f"{out}, row {row_number}: input line {line.number} changed since "
                             "it was graded (its input_sha256 differs); grade the batch again "
                             "without --resume")
    return lines
