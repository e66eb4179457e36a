"""Grade many pairs in parallel without letting one bad item stop or stall the batch.

Each worker process grades chunks of items and reports every result as soon as it has it.  The
parent watches the time since each worker last reported: a worker silent for longer than the
per-item limit (plus a grace period) is killed, its current item is reported as ``timeout`` and
the rest of its chunk is handed out again.  Results come back in input order.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, Iterable, Iterator

from .grading import ERROR, TIMEOUT, grade

#: Seconds a worker may overrun the per-item limit before it is killed.
GRACE_S = 5.0
CHUNK_SIZE = 16

#: A reader marks an item it could not decode with this key (value: why), so the item still gets
#: a result row in its place instead of stopping the batch.
BAD_INPUT_KEY = "__bad_input__"

_FIELDS = ("parseable", "solvable", "equivalent", "status", "reason")


def _bad_item(item_id: Any, why: str) -> dict:
    return {"id": item_id, "parseable": None, "solvable": None, "equivalent": None,
            "status": ERROR, "reason": f"bad input item: {why}"}


def grade_item(item: Any, options: dict) -> dict:
    """Grade one ``{"id", "gt", "pred", "is_placeholder", "anchored_objects"}`` mapping into a
    flat result row (the item's anchors add to any given in ``options``)."""
    if not isinstance(item, dict):
        return _bad_item(None, f"expected a JSON object, got {type(item).__name__}")
    item_id = item.get("id")
    if BAD_INPUT_KEY in item:
        return _bad_item(item_id, item[BAD_INPUT_KEY])
    for key in ("gt", "pred"):
        if not isinstance(item.get(key), str):
            return _bad_item(item_id, f"'{key}' must be a string of PDDL")
    placeholder = item.get("is_placeholder", False)
    if not isinstance(placeholder, bool):
        return _bad_item(item_id, "'is_placeholder' must be true or false")
    anchors = item.get("anchored_objects", [])
    if not isinstance(anchors, list) or not all(isinstance(a, str) for a in anchors):
        return _bad_item(item_id, "'anchored_objects' must be a list of object names")
    if anchors:
        options = {**options, "anchored_objects": [*options.get("anchored_objects", ()), *anchors]}
    result = grade(item["gt"], item["pred"], is_placeholder=placeholder, **options)
    row = {"id": item_id}
    row.update({k: getattr(result, k) for k in _FIELDS})
    return row


def _worker(conn: Connection, options: dict) -> None:
    while True:
        chunk = conn.recv()
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
    def __init__(self, workers: int, options: dict) -> None:
        self.options = options
        self.ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        self.workers = [self._spawn() for _ in range(workers)]

    def _spawn(self) -> _Worker:
        parent, child = self.ctx.Pipe()
        process = self.ctx.Process(target=_worker, args=(child, self.options), daemon=True)
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


def grade_batch(items: Iterable[Any], *, workers: int | None = None, timeout_s: float = 10.0,
                progress: bool = True, total: int | None = None, grace_s: float = GRACE_S,
                **options) -> Iterator[dict]:
    """Grade every item; yields one result row per item, in input order.

    ``options`` are passed to :func:`planetarium.grading.grade` (``relax_typing``,
    ``check_solvable``, ...).  A worker silent for ``timeout_s + grace_s`` is killed and its item
    reported as ``timeout``.  ``progress`` shows a tqdm bar.
    """
    from tqdm import tqdm

    workers = max(1, workers or os.cpu_count() or 1)
    options = dict(options, timeout_s=timeout_s)
    pool = _Pool(workers, options)
    source = iter(enumerate(items))
    queue: deque = deque()  # chunks handed back after a worker was killed
    done: dict[int, dict] = {}
    next_out = 0
    exhausted = False
    bar = tqdm(total=total, unit="pair", disable=not progress, smoothing=0.05)
    try:
        while True:
            for worker in pool.workers:
                if worker.pending:
                    continue
                if queue:
                    chunk = queue.popleft()
                elif not exhausted:
                    chunk = [pair for _, pair in zip(range(CHUNK_SIZE), source)]
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
                        index, row = worker.conn.recv()
                    except (EOFError, OSError):
                        index, row = _lost(worker, ERROR, "the grading worker died")
                        pool.replace(worker)
                        queue.append(list(worker.pending))
                    else:
                        worker.pending.popleft()
                        worker.last_report = now
                    done[index] = row
                elif now - worker.last_report > timeout_s + grace_s:
                    index, row = _lost(worker, TIMEOUT,
                                       f"no verdict within {timeout_s:g} s (worker killed)")
                    done[index] = row
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


def _lost(worker: _Worker, status: str, why: str) -> tuple[int, dict]:
    """Report the item a worker was on when it hung or died."""
    index, item = worker.pending.popleft()
    item_id = item.get("id") if isinstance(item, dict) else None
    return index, {"id": item_id, "parseable": None, "solvable": None, "equivalent": None,
                   "status": status, "reason": why}

