"""Grade many pairs in parallel without letting one bad item stop or stall the batch.

Each worker process grades chunks of items and reports every result as soon as it has it.  The
parent watches the time since each worker last reported: a worker silent for longer than the
per-item limit (plus a grace period) is killed, its current item is reported as ``timeout`` and
the rest of its chunk is handed out again.  Results come back in input order.

Workers die with the parent: on Linux the kernel kills them when it exits (``PR_SET_PDEATHSIG``),
and everywhere a worker waiting for work notices that its parent is gone within a second.  A
killed batch therefore leaves nothing behind, and :func:`resume_output` lets a rerun skip the
ids its partial output already holds.
"""

from __future__ import annotations

import ctypes
import json
import multiprocessing as mp
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from itertools import islice
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from .grading import GradeOptions, GradeResult, Stage, Status, grade

#: Seconds a worker may overrun the per-item limit before it is killed.  Grading honours its
#: limit in process (planetarium.limits), so this only catches a call stuck where no deadline is
#: looked at; one second keeps every row within the limit plus one second.
GRACE_S = 1.0
CHUNK_SIZE = 16
#: How often an idle worker checks that its parent still exists.
_PARENT_POLL_S = 1.0


@dataclass(frozen=True)
class BadItem:
    """An input line that could not be decoded: it still gets a result row in its place."""

    why: str
    id: Any = None


def read_items(path: str | Path) -> Iterator[dict | BadItem]:
    """The items of a JSONL file (``-``: standard input), one per non-blank line.

    A line that is not a JSON object — invalid JSON, a list, nesting too deep for the JSON
    decoder — becomes a :class:`BadItem` naming its line number, so the batch goes on.
    """
    stream = sys.stdin if str(path) == "-" else open(path, encoding="utf-8", errors="replace")
    with stream:
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as err:
                yield BadItem(f"line {number}: invalid JSON ({err.msg}, column {err.colno})")
                continue
            except RecursionError:
                yield BadItem(f"line {number}: JSON nested too deeply to read")
                continue
            yield item if isinstance(item, dict) else BadItem(
                f"line {number}: expected a JSON object, got {type(item).__name__}")


def resume_output(path: str | Path) -> set[Any]:
    """The ids already graded in a partial output file, which is made safe to append to.

    A batch killed mid-write can leave a truncated last line; it is cut off (its item is graded
    again).  Lines that are not result rows are an error: that file is not this command's output.
    """
    path = Path(path)
    if not path.exists():
        return set()
    data = path.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]
    if len(complete) != len(data):
        with open(path, "r+b") as handle:
            handle.truncate(len(complete))
    done = set()
    for number, line in enumerate(complete.decode("utf-8", errors="replace").splitlines(), 1):
        try:
            row = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            row = None
        if not isinstance(row, dict) or "id" not in row or "status" not in row:
            raise ValueError(f"{path}, line {number}: not a grading result row; cannot resume")
        done.add(_id_key(row["id"]))
    return done


def _id_key(item_id: Any) -> str:
    """Ids compare by their JSON text, so ``1`` and ``"1"`` stay different items."""
    return json.dumps(item_id, sort_keys=True)


def item_key(item: dict | BadItem) -> str | None:
    """What :func:`resume_output` matches against; ``None`` for items without an id."""
    item_id = item.id if isinstance(item, BadItem) else item.get("id")
    return None if item_id is None else _id_key(item_id)


def grade_item(item: dict | BadItem, options: GradeOptions) -> GradeResult:
    """Grade one ``{"id", "gt", "pred", "is_placeholder", "anchored_objects"}`` item.

    ``options`` are the batch's defaults: an item's ``is_placeholder`` replaces the default, its
    ``anchored_objects`` add to the default anchors.
    """
    if isinstance(item, BadItem):
        return _bad(item.id, item.why)
    item_id = item.get("id")
    for key in ("gt", "pred"):
        if not isinstance(item.get(key), str):
            return _bad(item_id, f"'{key}' must be a string of PDDL")
    placeholder = item.get("is_placeholder", options.is_placeholder)
    if not isinstance(placeholder, bool):
        return _bad(item_id, "'is_placeholder' must be true or false")
    anchors = item.get("anchored_objects", [])
    if not isinstance(anchors, list) or not all(isinstance(a, str) for a in anchors):
        return _bad(item_id, "'anchored_objects' must be a list of object names")
    options = replace(options, is_placeholder=placeholder,
                      anchored_objects=(*options.anchored_objects, *anchors))
    return replace(grade(item["gt"], item["pred"], options=options), id=item_id)


def _bad(item_id: Any, why: str) -> GradeResult:
    return GradeResult.failed(Stage.INPUT, Status.INVALID_INPUT, f"bad input item: {why}",
                              id=item_id)


def _die_with_parent(parent_pid: int) -> None:
    """Ask Linux to SIGKILL this worker when its parent exits (no-op elsewhere)."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
    except OSError:
        return
    pr_set_pdeathsig = 1
    libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent_pid:  # the parent died before the request took effect
        os._exit(1)


def _worker(conn: Connection, options: GradeOptions, parent_pid: int) -> None:
    _die_with_parent(parent_pid)
    while True:
        while not conn.poll(_PARENT_POLL_S):
            if os.getppid() != parent_pid:
                return
        try:
            chunk = conn.recv()
        except (EOFError, OSError):
            return
        if chunk is None:
            return
        for index, item in chunk:
            conn.send((index, grade_item(item, options)))


@dataclass
class _Worker:
    process: mp.Process
    conn: Connection
    pending: deque = field(default_factory=deque)  # (index, item) not yet reported
    last_report: float = 0.0


class _Pool:
    def __init__(self, workers: int, options: GradeOptions) -> None:
        self.options = options
        self.ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        self.workers = [self._spawn() for _ in range(workers)]

    def _spawn(self) -> _Worker:
        parent, child = self.ctx.Pipe()
        process = self.ctx.Process(target=_worker, args=(child, self.options, os.getpid()),
                                   daemon=True)
        process.start()
        child.close()
        return _Worker(process, parent)

    def replace(self, worker: _Worker) -> _Worker:
        worker.process.kill()
        worker.process.join()
        worker.conn.close()
        fresh = self._spawn()
        self.workers[self.workers.index(worker)] = fresh
        return fresh

    def close(self) -> None:
        for worker in self.workers:
            try:
                worker.conn.send(None)
            except OSError:
                pass
        for worker in self.workers:
            worker.process.join(timeout=1)
            if worker.process.is_alive():
                worker.process.kill()


def grade_batch(items: Iterable[dict | BadItem], *, options: GradeOptions | None = None,
                workers: int | None = None, progress: bool = True, total: int | None = None,
                grace_s: float = GRACE_S) -> Iterator[GradeResult]:
    """Grade every item; yields one :class:`GradeResult` (with the item's ``id``) per item, in
    input order.

    ``options`` are the defaults for every item (see :func:`grade_item`).  A worker silent for
    ``options.timeout_s + grace_s`` is killed and its item reported as ``timeout``.
    ``progress`` shows a tqdm bar on standard error.
    """
    from tqdm import tqdm

    options = options or GradeOptions()
    workers = max(1, workers or os.cpu_count() or 1)
    pool = _Pool(workers, options)
    source = iter(enumerate(items))
    queue: deque = deque()  # chunks handed back after a worker was killed
    done: dict[int, GradeResult] = {}
    next_out = 0
    exhausted = False
    limit = options.timeout_s + grace_s
    bar = tqdm(total=total, unit="pair", disable=not progress, smoothing=0.05)
    try:
        while True:
            for worker in pool.workers:
                if worker.pending:
                    continue
                if queue:
                    chunk = queue.popleft()
                elif not exhausted:
                    chunk = list(islice(source, CHUNK_SIZE))
                    exhausted = len(chunk) < CHUNK_SIZE
                else:
                    chunk = []
                if chunk:
                    worker.pending.extend(chunk)
                    worker.last_report = time.monotonic()
                    worker.conn.send(chunk)
            busy = [w for w in pool.workers if w.pending]
            if not busy:
                break
            ready = wait([w.conn for w in busy], timeout=0.5)
            now = time.monotonic()
            for worker in busy:
                if worker.conn in ready:
                    try:
                        index, result = worker.conn.recv()
                    except (EOFError, OSError):
                        index, result = _lost(worker, Status.INTERNAL_ERROR,
                                              "the grading worker died")
                        queue.append(list(worker.pending))
                        pool.replace(worker)
                    else:
                        worker.pending.popleft()
                        worker.last_report = now
                    done[index] = result
                elif now - worker.last_report > limit:
                    index, result = _lost(worker, Status.TIMEOUT,
                                          f"no verdict within {options.timeout_s:g} s "
                                          "(worker killed)")
                    done[index] = result
                    if worker.pending:
                        queue.append(list(worker.pending))
                    pool.replace(worker)
            while next_out in done:
                bar.update(1)
                yield done.pop(next_out)
                next_out += 1
    finally:
        bar.close()
        pool.close()


def _lost(worker: _Worker, status: Status, why: str) -> tuple[int, GradeResult]:
    """Report the item a worker was on when it hung or died."""
    index, item = worker.pending.popleft()
    item_id = item.id if isinstance(item, BadItem) else item.get("id")
    return index, GradeResult.failed(Stage.GRADER, status, why, id=item_id)
