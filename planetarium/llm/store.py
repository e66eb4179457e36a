"""Crash-safe files for a run directory.

``completions.jsonl`` is append-only: each batch goes out as whole lines in one ``os.write`` on
an ``O_APPEND`` descriptor, then ``fsync``.  A SIGKILL can therefore only leave a torn *last*
line, which the next writer truncates away; finished lines are never lost or duplicated.
Whole files that are rewritten (manifest, verdicts, results) go through a temporary file and
``os.replace`` so readers never see half a file.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import PlanetariumError
from ..jsonl import JsonLineError, decode, read_capped


class RunDirError(PlanetariumError, RuntimeError):
    """The run directory is busy, damaged, or belongs to a different run."""


def _encode(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")


def _decode_lines(data: bytes, path: Path, required: tuple[str, ...] = ()
                  ) -> list[dict[str, Any]]:
    """Parse complete lines; a bad complete line is damage we must not paper over."""
    records = []
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = decode(line)
        except JsonLineError as err:
            raise RunDirError(f"{path}:{number}: damaged: {err}") from err
        if not isinstance(record, dict) or any(key not in record for key in required):
            keys = " with " + ", ".join(repr(key) for key in required) if required else ""
            raise RunDirError(f"{path}:{number}: damaged: not a JSON object{keys}")
        records.append(record)
    return records


def read_jsonl(path: str | Path, required: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """All complete lines of a JSONL file (a torn last line is ignored, the file untouched);
    each must be an object with the ``required`` keys, or the run directory is damaged."""
    path = Path(path)
    if not path.exists():
        return []
    data = path.read_bytes()
    return _decode_lines(data[: data.rfind(b"\n") + 1], path, required)


def read_json(path: str | Path, required: tuple[str, ...]) -> dict[str, Any]:
    """A whole JSON object file of a run directory, with the ``required`` keys."""
    try:
        data = decode(read_capped(path))
    except JsonLineError as err:
        raise RunDirError(f"{path}: damaged: {err}") from err
    if not isinstance(data, dict) or any(key not in data for key in required):
        raise RunDirError(f"{path}: damaged: expected an object with "
                          + ", ".join(repr(key) for key in required))
    return data


def write_jsonl(path: str | Path, records: Iterable[dict[str, Any]]) -> None:
    """Replace a JSONL file atomically."""
    _replace(Path(path), b"".join(_encode(record) for record in records))


def write_json(path: str | Path, data: Any) -> None:
    """Replace a JSON file atomically."""
    text = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    _replace(Path(path), text.encode("utf-8"))


def _replace(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


class CompletionLog:
    """Append-only completions file, repaired on open, holding an exclusive lock while open."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = open(self.path.with_name(".lock"), "w")  # noqa: SIM115 (held until close)
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as err:
            self._lock.close()
            raise RunDirError(f"{self.path.parent}: another run is writing here") from err
        self._fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        self.records = self._recover()

    def _recover(self) -> list[dict[str, Any]]:
        """The finished lines, a torn last line left by a killed writer cut off: what
        ``eval run`` resumes from, read like every resumed output
        (:func:`planetarium.resume.done_rows`)."""
        from ..resume import done_rows, has_keys

        try:
            records = [row for _, row in done_rows(self.path, has_keys("id"))]
        except ValueError as err:  # a bad complete line is damage we must not paper over
            raise RunDirError(f"{self.path} is damaged: {err}") from err
        os.fsync(self._fd)
        return records

    def finished_ids(self) -> set[str]:
        return {record["id"] for record in self.records}

    def append(self, records: list[dict[str, Any]]) -> None:
        """Write the batch as whole lines in one system call, then make it durable."""
        view = memoryview(b"".join(_encode(record) for record in records))
        while view:  # a regular file takes it all at once; the loop covers a short write
            view = view[os.write(self._fd, view) :]
        os.fsync(self._fd)
        self.records.extend(records)

    def close(self) -> None:
        os.close(self._fd)
        self._lock.close()

    def __enter__(self) -> CompletionLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ResultLog:
    """A results file written one line per graded item as grading goes, so a killed grading
    keeps what it finished; an exclusive lock while open (:func:`planetarium.resume.open_output`).

    ``resume``: keep the rows already there (a torn last line is cut off) and return their
    count from :meth:`resume`, which checks that they answer the first items of ``ids``, in
    order (rows are written in input order); otherwise the file starts empty.
    """

    def __init__(self, path: str | Path, *, resume: bool = False) -> None:
        from ..resume import OutputBusyError, open_output

        self.path = Path(path)
        try:
            self._sink = open_output(self.path, resume, "grading")
        except OutputBusyError as err:
            raise RunDirError(str(err)) from err
        self._fd = self._sink.fileno()

    def resume(self, ids: list[str]) -> int:
        """How many rows the file holds, after checking they are the results of ``ids[:n]``
        (:func:`planetarium.resume.kept_rows`)."""
        from ..batch import is_result_row
        from ..resume import kept_rows

        try:
            return len(kept_rows(self.path, ids, lambda row: str(row["id"]), is_result_row))
        except ValueError as err:
            raise RunDirError(f"cannot resume: {err}") from err

    def append(self, record: dict[str, Any]) -> None:
        """Write one row as a whole line in one system call (a kill leaves no partial row
        behind but, at worst, a torn last line that resuming cuts off)."""
        view = memoryview(_encode(record))
        while view:
            view = view[os.write(self._fd, view):]

    def close(self) -> None:
        os.fsync(self._fd)
        self._sink.close()

    def __enter__(self) -> ResultLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
