"""Persistent worker processes that run one task per item under a hard deadline.

Batch grading and the training reward both hand untrusted model output to code that may, on a
pathological input, run far past its own time limit.  Cooperative limits cannot stop that, so the
work runs in worker processes and the parent keeps the clock: each worker reports every result as
soon as it has it, and a worker silent for longer than the per-item deadline is killed, its current
item reported :class:`Lost` (``timeout``) and the rest of its chunk handed out again.  A worker
that dies is replaced the same way (``died``); workers start as work needs them.  An optional
budget bounds a whole run: when it is spent, every unfinished item is reported lost (``budget``)
and busy workers are replaced, so the next run starts clean.

The pool outlives a run (:meth:`WorkerPool.run` may be called again and again), so a task may keep
caches in its worker.  Workers die with the parent: on Linux the kernel kills them when it exits
(``PR_SET_PDEATHSIG``), and everywhere a worker waiting for work notices that its parent is gone
within a second.
"""

from __future__ import annotations

import ctypes
import math
import multiprocessing as mp
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sized
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import Enum
from itertools import islice
from multiprocessing.connection import Connection, wait
from typing import Any

from .limits import wall_now

#: Items handed to a worker at once (fewer when a run has few items left per worker).
CHUNK_SIZE = 16
#: How often an idle worker checks that its parent still exists.
_PARENT_POLL_S = 1.0


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask: ``taskset``, container limits), not
    the machine's: the one count every pool and thread cap sizes itself by."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


class LostKind(str, Enum):
    """Why an item got no result from its task."""

    TIMEOUT = "timeout"  # its worker stayed silent past the deadline and was killed
    DIED = "died"        # its worker exited (crashed, was killed from outside)
    ERROR = "error"      # the task raised, or its result could not be sent back
    BUDGET = "budget"    # the run's budget was spent before the item was done

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Lost:
    """The outcome of an item whose task gave no result; ``why`` is one line for people."""

    kind: LostKind
    why: str


def _die_with_parent() -> int:
    """Ask Linux to SIGKILL this worker when its parent exits (no-op elsewhere); the parent pid."""
    parent = os.getppid()
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
    except OSError:
        return parent
    pr_set_pdeathsig = 1
    libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)
    return parent


def _serve(conn: Connection, task: Callable[[Any], Any]) -> None:
    """A worker's life: run ``task`` on every item of every chunk, reporting each result."""
    parent = _die_with_parent()
    # Ctrl-C reaches the whole process group: the parent reports it once and stops the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        while not conn.poll(_PARENT_POLL_S):
            if os.getppid() != parent:
                return
        try:
            chunk = conn.recv()
        except (EOFError, OSError):
            return
        if chunk is None:
            return
        for item in chunk:
            try:
                outcome = task(item)
            except Exception as err:  # noqa: BLE001 - a task's bug must not end the worker
                outcome = Lost(LostKind.ERROR, f"{type(err).__name__}: {err}")
            try:
                conn.send(outcome)
            except (EOFError, OSError):
                return
            except Exception as err:  # noqa: BLE001 - e.g. a result that cannot be pickled
                conn.send(Lost(LostKind.ERROR, f"result not sent back: {err}"))


@dataclass
class _Worker:
    process: mp.process.BaseProcess
    conn: Connection
    pending: deque = field(default_factory=deque)  # (index, item) sent but not reported yet
    started: float = 0.0  # when the item at the head of ``pending`` began (last report or send)


class _Feed:
    """The items of one run not handed out yet: those handed back first, then the source's."""

    def __init__(self, items: Iterable[Any], workers: int) -> None:
        self.source = iter(enumerate(items))
        self.left = len(items) if isinstance(items, Sized) else None  # not yet taken from source
        self.queue: deque = deque()
        self.exhausted = False
        self.workers = workers

    def take(self, chunk_size: int) -> list[tuple[int, Any]]:
        """The next chunk; near the end of a sized run, an equal share per worker at most."""
        size = chunk_size
        if self.left is not None:
            size = max(1, min(size, math.ceil((self.left + len(self.queue)) / self.workers)))
        chunk = [self.queue.popleft() for _ in range(min(size, len(self.queue)))]
        if not chunk and not self.exhausted:
            chunk = list(islice(self.source, size))
            self.exhausted = len(chunk) < size
            if self.left is not None:
                self.left -= len(chunk)
        return chunk

    def give_back(self, pairs: Iterable[tuple[int, Any]]) -> None:
        self.queue.extendleft(reversed(list(pairs)))

    @property
    def drained(self) -> bool:
        return self.exhausted and not self.queue

    def rest(self) -> Iterator[tuple[int, Any]]:
        while self.queue:
            yield self.queue.popleft()
        yield from self.source


class WorkerPool:
    """Up to ``workers`` processes that run ``task(item)``; reusable across :meth:`run` calls.

    Workers start as work needs them (a run of three items starts at most three) and a killed or
    dead one is replaced the same way.  ``task`` must be picklable unless the start method is
    ``fork`` (the default where it exists: a worker starts in milliseconds).  Not thread-safe:
    one run at a time.
    """

    def __init__(self, workers: int, task: Callable[[Any], Any], *,
                 start_method: str | None = None) -> None:
        if workers < 1:
            raise ValueError(f"a pool needs at least one worker, got {workers}")
        methods = mp.get_all_start_methods()
        self.size = workers
        self.task = task
        self.ctx = mp.get_context(start_method or ("fork" if "fork" in methods else "spawn"))
        self.workers: list[_Worker] = []
        self._owner = os.getpid()  # a forked copy of the pool does not own its workers
        self._spawner: ThreadPoolExecutor | None = None
        self._stillborn = 0  # workers in a row found dead before their first chunk
        #: Workers killed (hung) or found dead, over the pool's life.
        self.replaced = 0

    def _idle_worker(self) -> _Worker | None:
        """A worker with nothing to do, started now if all are busy and there is room."""
        for worker in self.workers:
            if not worker.pending:
                return worker
        if len(self.workers) >= self.size:
            return None
        if self._spawner is None:
            self._spawner = ThreadPoolExecutor(1, thread_name_prefix="planetarium-pool")
        # PR_SET_PDEATHSIG fires when the *thread* that started a process ends, and callers such
        # as verl's reward manager call from short-lived executor threads: the pool's own thread
        # starts every worker and lives until close() (or the process).
        self.workers.append(self._spawner.submit(self._start).result())
        return self.workers[-1]

    def _start(self) -> _Worker:
        parent, child = self.ctx.Pipe()
        process = self.ctx.Process(target=_serve, args=(child, self.task), daemon=True)
        process.start()
        child.close()
        return _Worker(process, parent)

    def _retire(self, worker: _Worker) -> None:
        """Kill a hung or dead worker; a fresh one starts when work needs it."""
        worker.process.kill()
        worker.process.join()
        worker.conn.close()
        self.workers.remove(worker)
        self.replaced += 1

    def run(self, items: Iterable[Any], *, deadline_s: float, budget_s: float | None = None,
            chunk_size: int = CHUNK_SIZE) -> Iterator[tuple[int, Any, Any]]:
        """Yield ``(index, item, task(item) or Lost)`` for every item, in completion order.

        An item costs at most ``deadline_s`` of its worker's time; with ``budget_s`` the whole run
        ends within about that many seconds.  ``items`` is read lazily, a chunk at a time; when it
        is a sized collection, chunks shrink near its end so every worker keeps an equal share
        (one slow item then never holds up work another worker could take).
        """
        if self._owner != os.getpid():
            self.workers, self._spawner, self._owner = [], None, os.getpid()
        feed = _Feed(items, self.size)
        end = None if budget_s is None else wall_now() + budget_s
        try:
            while True:
                self._hand_out(feed, chunk_size)
                busy = [w for w in self.workers if w.pending]
                if not busy:
                    if feed.drained:
                        return
                    continue  # the idle workers were found dead and retired: hand out again
                now = wall_now()
                if end is not None and now >= end:
                    yield from self._abandon(busy, feed, budget_s)
                    return
                wake = min(w.started for w in busy) + deadline_s
                if end is not None:
                    wake = min(wake, end)
                ready = wait([w.conn for w in busy], timeout=max(0.0, wake - now) + 0.001)
                now = wall_now()
                for worker in busy:
                    if worker.conn in ready:
                        yield self._receive(worker, feed, now)
                    elif now - worker.started > deadline_s:
                        index, item = worker.pending.popleft()
                        feed.give_back(worker.pending)
                        worker.pending.clear()
                        self._retire(worker)
                        yield index, item, Lost(LostKind.TIMEOUT,
                                                f"no result within {deadline_s:g} s (worker killed)")
        finally:
            for worker in list(self.workers):  # a run left early must not leave work behind
                if worker.pending:
                    worker.pending.clear()
                    self._retire(worker)

    def _hand_out(self, feed: _Feed, chunk_size: int) -> None:
        """Give every idle worker (starting them as needed) a chunk, while there are items."""
        while True:
            chunk = feed.take(chunk_size)
            if not chunk:
                return
            worker = self._idle_worker()
            if worker is None:
                feed.give_back(chunk)
                return
            try:
                worker.conn.send([item for _, item in chunk])
            except OSError:  # it died idle, e.g. killed from outside
                feed.give_back(chunk)
                self._retire(worker)
                self._stillborn += 1
                if self._stillborn > 2 * self.size + 2:
                    raise RuntimeError("worker processes die as soon as they start") from None
                continue
            self._stillborn = 0
            worker.pending.extend(chunk)
            worker.started = wall_now()

    def _receive(self, worker: _Worker, feed: _Feed, now: float) -> tuple[int, Any, Any]:
        try:
            outcome = worker.conn.recv()
        except (EOFError, OSError):
            index, item = worker.pending.popleft()
            feed.give_back(worker.pending)
            worker.pending.clear()
            self._retire(worker)
            return index, item, Lost(LostKind.DIED, "the worker process died")
        index, item = worker.pending.popleft()  # a worker reports its chunk in order
        worker.started = now
        return index, item, outcome

    def _abandon(self, busy: list[_Worker], feed: _Feed,
                 budget_s: float | None) -> Iterator[tuple[int, Any, Any]]:
        """Report every unfinished item of a run whose budget is spent; retire busy workers."""
        lost = Lost(LostKind.BUDGET, f"the call's budget of {budget_s:g} s was spent first")
        for worker in busy:
            unfinished = list(worker.pending)
            worker.pending.clear()
            self._retire(worker)
            for index, item in unfinished:
                yield index, item, lost
        for index, item in feed.rest():
            yield index, item, lost

    def close(self) -> None:
        """Stop every worker (asking first, killing stragglers after a second)."""
        if self._owner != os.getpid():
            self.workers, self._spawner = [], None
        for worker in self.workers:
            try:
                worker.conn.send(None)
            except OSError:
                pass
        for worker in self.workers:
            worker.process.join(timeout=1)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()
        self.workers = []
        if self._spawner is not None:
            self._spawner.shutdown()
            self._spawner = None
