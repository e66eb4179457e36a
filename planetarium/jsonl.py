"""The one safe way to read JSON lines (and whole small files) from untrusted places.

``json.loads`` alone lets hostile input escape as the wrong exception: a number longer than
Python's int-string limit raises a bare ``ValueError``, deep nesting a ``RecursionError``, and a
file with no newline (``/dev/zero``) is read into memory forever.  Every reader of batch pairs,
run directories, ACP responses and dataset rows goes through here, so each of those cases is
one :class:`JsonLineError` naming the file and line.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .errors import PlanetariumError

#: The longest line (and the largest whole file) a reader accepts.  A batch line holds two PDDL
#: texts, each refused by grading beyond 2,000,000 characters, so real lines are far shorter.
MAX_LINE_BYTES = 64 * 1024 * 1024


class JsonLineError(PlanetariumError, ValueError):
    """A line that is not JSON, or a file that is not JSON lines at all (the message says which)."""


def decode(text: str | bytes) -> Any:
    """One JSON value, or :class:`JsonLineError` with a short reason (no file or line in it).

    Bytes that are not UTF-8 are replaced, so a binary line is "invalid JSON", not a crash; a
    UTF-8 byte order mark in front is dropped.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8-sig", errors="replace")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise JsonLineError(f"invalid JSON ({err.msg}, column {err.colno})") from err
    except RecursionError as err:
        raise JsonLineError("JSON nested too deeply to read") from err
    except ValueError as err:  # int() refusing a number over sys.get_int_max_str_digits()
        raise JsonLineError(f"a JSON number longer than {sys.get_int_max_str_digits()} digits"
                            ) from err


#: Bytes read from a stream at a time (less when less is there: a pipe yields lines as they come).
READ_BYTES = 1 << 20
_BOM = b"\xef\xbb\xbf"


def numbered_lines(stream: IO[bytes], name: str, max_line_bytes: int = MAX_LINE_BYTES
                   ) -> Iterator[tuple[int, bytes]]:
    """``(line number, line)`` for each non-blank line of a binary stream, in bounded memory.

    A line ends at LF, CRLF or a lone CR, and keeps its ending (a last line without one was cut
    off).  A UTF-8 byte order mark before the first line is dropped.  A line longer than
    ``max_line_bytes`` ends the reading with a :class:`JsonLineError`: its end cannot be found in
    bounded memory (``/dev/zero`` has none), so the file is refused from there rather than read
    forever.
    """
    for number, line in enumerate(_lines(stream, name, max_line_bytes), 1):
        if number == 1 and line.startswith(_BOM):
            line = line[len(_BOM):]
        if line.strip():
            yield number, line


def _lines(stream: IO[bytes], name: str, max_line_bytes: int) -> Iterator[bytes]:
    """Every line of the stream with its ending (``bytes.splitlines`` over blocks, joined where
    a line spans blocks); a CRLF split between two blocks ends its line at the CR."""
    read = getattr(stream, "read1", stream.read)
    head: list[bytes] = []  # the start of a line that has not ended yet
    size, number = 0, 1
    after_cr = False  # the last block ended with CR: an LF opening the next one belongs to it
    while block := read(READ_BYTES):
        if after_cr and block.startswith(b"\n"):
            block = block[1:]
        after_cr = block.endswith(b"\r")
        pieces = block.splitlines(keepends=True)
        last = pieces.pop() if pieces and not pieces[-1].endswith((b"\n", b"\r")) else b""
        for piece in pieces:
            if head:
                piece = b"".join([*head, piece])
                head, size = [], 0
            if len(piece) - _ending(piece) > max_line_bytes:
                raise _too_long(name, number, max_line_bytes)
            yield piece
            number += 1
        if last:
            size += len(last)
            if size > max_line_bytes:
                raise _too_long(name, number, max_line_bytes)
            head.append(last)
    if head:
        yield b"".join(head)


def _ending(line: bytes) -> int:
    """How many bytes of ``line`` are its line ending."""
    return 2 if line.endswith(b"\r\n") else 1 if line.endswith((b"\n", b"\r")) else 0


def _too_long(name: str, number: int, max_line_bytes: int) -> JsonLineError:
    return JsonLineError(f"{name}, line {number}: longer than {max_line_bytes:,} bytes; "
                         "is this a JSON-lines file?")


def read_capped(path: str | Path, max_bytes: int = MAX_LINE_BYTES) -> bytes:
    """The bytes of a whole file, refused (:class:`JsonLineError`) beyond ``max_bytes``.

    The size comes from reading, not ``stat``: a device such as ``/dev/zero`` reports size 0.
    """
    with open(path, "rb") as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise JsonLineError(f"{path}: larger than {max_bytes:,} bytes; refusing to read it")
    return data
