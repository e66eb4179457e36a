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

import contextlib
import ctypes
import math
import multiprocessing as mp
import os
import pickle
import queue
import signal
import threading
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sized
from dataclasses import dataclass, field
from enum import Enum
from itertools import islice
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from .limits import wall_now

T = TypeVar("T")

#: Items handed to a worker at once (fewer when a run has few items left per worker).
CHUNK_SIZE = 16
#: How often an idle worker checks that its parent still exists.
_PARENT_POLL_S = 1.0
#: How often a caller waiting for results checks that the dispatcher thread still runs.
_ALIVE_POLL_S = 1.0
#: Seconds a new worker may take to start (import the task's modules) before it is killed.
START_LIMIT_S = 120.0


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
    """A worker's life: run ``task`` on every item of every chunk, reporting each result.

    Items arrive pickled one by one and results leave the same way, so an item that cannot be
    read here or a result that cannot be pickled costs that item only (an ``error``), never the
    chunk or the worker."""
    parent = _die_with_parent()
    # Ctrl-C reaches the whole process group: the parent reports it once and stops the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        conn.send_bytes(b"")  # ready: the first item's clock starts now, not at the start
    except OSError:
        return
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
        for blob in chunk:
            try:
                conn.send_bytes(_pickled_outcome(task, blob))
            except (EOFError, OSError):
                return


def _pickled_outcome(task: Callable[[Any], Any], blob: bytes) -> bytes:
    """``task`` of the pickled item, pickled; whatever fails on the way is a :class:`Lost`."""
    try:
        item = pickle.loads(blob)
    except Exception as err:  # noqa: BLE001 - e.g. a class the worker cannot import
        outcome: Any = Lost(LostKind.ERROR, f"the item could not be read in the worker: {why(err)}")
    else:
        try:
            outcome = task(item)
        except Exception as err:  # noqa: BLE001 - a task's bug must not end the worker
            outcome = Lost(LostKind.ERROR, why(err))
    try:
        return pickle.dumps(outcome, pickle.HIGHEST_PROTOCOL)
    except Exception as err:  # noqa: BLE001 - e.g. a result that cannot be pickled
        return pickle.dumps(Lost(LostKind.ERROR, f"result not sent back: {why(err)}"))


def why(err: BaseException, limit: int = 300) -> str:
    """``"TypeName: message"`` of an exception, short, even when its ``str`` raises."""
    try:
        text = str(err)
    except Exception:  # noqa: BLE001 - a hostile exception must not hide the item's real fault
        text = ""
    line = f"{type(err).__name__}: {text}" if text else type(err).__name__
    return line if len(line) <= limit else line[: limit - 3] + "..."


@dataclass(eq=False)
class _Run:
    """One call of :meth:`WorkerPool.run`: its items, its limits and the queue its caller reads.

    Only the dispatcher thread touches a run after it is submitted, except ``cancelled``, which
    its caller sets (under the pool's lock) when it stops reading early."""

    feed: _Feed
    deadline_s: float
    budget_s: float | None
    end: float | None  # when the budget is spent (monotonic), None: no budget
    chunk_size: int
    results: queue.SimpleQueue = field(default_factory=queue.SimpleQueue)
    in_flight: int = 0  # items sent to workers and not reported yet
    error: BaseException | None = None  # the items' source raised: the run ends with it
    cancelled: bool = False

    def report(self, index: int, item: Any, outcome: Any) -> None:
        self.results.put((index, item, outcome))

    def finish(self, error: BaseException | None = None) -> None:
        self.results.put(_Failure(error) if error is not None else _END)


@dataclass(frozen=True)
class _Failure:
    """Ends a run by raising ``error`` in its caller."""

    error: BaseException


_END = object()  # ends a run normally


@dataclass(eq=False)
class _Worker:
    process: mp.process.BaseProcess
    conn: Connection
    started: float  # when the item at the head of ``pending`` began (last report or send), or
    #                 while not ``ready``, when the process started
    pending: deque = field(default_factory=deque)  # (run, index, item) sent, not reported yet
    ready: bool = False  # it said so: start-up (imports, a forkserver) is not an item's time

    def limit(self) -> float:
        """Seconds it may stay silent: its head item's deadline, or while starting up
        :data:`START_LIMIT_S`."""
        return self.pending[0][0].deadline_s if self.ready else START_LIMIT_S


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
                self.exhausted = self.exhausted or self.left == 0
        return chunk

    def give_back(self, pairs: Iterable[tuple[int, Any]]) -> None:
        self.queue.extendleft(reversed(list(pairs)))

    @property
    def drained(self) -> bool:
        return (self.exhausted or self.left == 0) and not self.queue

    def rest(self) -> Iterator[tuple[int, Any]]:
        while self.queue:
            yield self.queue.popleft()
        if not self.exhausted:
            self.exhausted = True
            yield from self.source


class WorkerPool:
    """Up to ``workers`` processes that run ``task(item)``; reusable across :meth:`run` calls.

    Workers start as work needs them (a run of three items starts at most three) and a killed or
    dead one is replaced the same way.  ``task`` must be picklable unless the start method is
    ``fork`` (the default where it exists: a worker starts in milliseconds).

    Thread-safe: runs from several threads at once share the workers, a chunk at a time in turn,
    each under its own deadline and budget (counted from its own start).  One dispatcher thread,
    started with the first run and stopped by :meth:`close`, owns the workers and their pipes;
    it also starts every worker, because ``PR_SET_PDEATHSIG`` fires when the *thread* that
    started a process ends, and callers such as verl's reward manager call from short-lived
    executor threads.  A process forked from this one starts with a fresh, empty pool (an
    at-fork handler): never the parent's workers, threads or locks.
    """

    def __init__(self, workers: int, task: Callable[[Any], Any], *,
                 start_method: str | None = None) -> None:
        if workers < 1:
            raise ValueError(f"a pool needs at least one worker, got {workers}")
        methods = mp.get_all_start_methods()
        self.size = workers
        self.task = task
        self.ctx = mp.get_context(start_method or ("fork" if "fork" in methods else "spawn"))
        #: Workers killed (hung) or found dead, over the pool's life.
        self.replaced = 0
        self._fresh_state()
        renew_after_fork(self, WorkerPool._forget_after_fork)

    def _fresh_state(self) -> None:
        """No workers, runs or dispatcher: a new pool, or this one in a forked child."""
        self.workers: list[_Worker] = []  # the dispatcher's (read elsewhere only for reports)
        self._lock = threading.Lock()  # guards _runs, _thread, _closing, _woken
        self._runs: list[_Run] = []
        self._thread: threading.Thread | None = None
        self._closing = False
        self._woken = False
        self._wake_reader, self._wake_writer = self.ctx.Pipe(duplex=False)
        self._stillborn = 0  # workers in a row found dead before they were ready

    def _forget_after_fork(self) -> None:
        """In a forked child: drop the parent's workers, runs and dispatcher (their pipes are
        the parent's; the locks may have been held by a thread the child does not have)."""
        for conn in [w.conn for w in self.workers] + [self._wake_reader, self._wake_writer]:
            with contextlib.suppress(OSError):
                conn.close()
        self._fresh_state()

    # --- the callers' side ------------------------------------------------------------------

    def run(self, items: Iterable[Any], *, deadline_s: float, budget_s: float | None = None,
            chunk_size: int = CHUNK_SIZE) -> Iterator[tuple[int, Any, Any]]:
        """Yield ``(index, item, task(item) or Lost)`` for every item, in completion order.

        An item costs at most ``deadline_s`` of its worker's time; with ``budget_s`` the whole run
        ends within about that many seconds of its start.  ``items`` is read lazily, a chunk at a
        time (by the dispatcher thread; an exception it raises ends the run, raised here, after
        the items already handed out); when it is a sized collection, chunks shrink near its end
        so every worker keeps an equal share (one slow item then never holds up work another
        worker could take).
        """
        end = None if budget_s is None else wall_now() + budget_s
        job = _Run(_Feed(items, self.size), deadline_s, budget_s, end, chunk_size)
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._dispatch, daemon=True,
                                                name="planetarium-pool")
                self._thread.start()
            self._runs.append(job)
            thread = self._thread
        self._wake()
        finished = False
        try:
            while True:
                try:
                    entry = job.results.get(timeout=_ALIVE_POLL_S)
                except queue.Empty:
                    if not thread.is_alive():  # closed, or this is a forked child
                        raise RuntimeError("the worker pool stopped during the run") from None
                    continue
                if entry is _END:
                    finished = True
                    return
                if isinstance(entry, _Failure):
                    finished = True
                    raise entry.error
                yield entry
        finally:
            if not finished:  # left early: its workers must not go on with abandoned work
                with self._lock:
                    job.cancelled = True
                self._wake()

    def close(self) -> None:
        """Stop the dispatcher and every worker (asking first, killing stragglers after a
        second); a run still going raises in its caller.  A later run starts them again."""
        with self._lock:
            thread = self._thread
            if thread is None:
                return
            self._closing = True
        self._wake()
        if thread is not threading.current_thread():  # (from a finalizer run by the dispatcher
            thread.join()                              # itself, it stops after this round)

    def _wake(self) -> None:
        """Make the dispatcher look at runs and the closing flag now."""
        with self._lock:
            if self._woken or self._thread is None:
                return
            self._woken = True
        with contextlib.suppress(OSError):
            self._wake_writer.send_bytes(b"")

    # --- the dispatcher thread --------------------------------------------------------------

    def _dispatch(self) -> None:
        """Hand out chunks, collect results, keep every run's deadline and budget, until
        :meth:`close`; anything unexpected fails the runs going on, never the thread."""
        while True:
            with self._lock:
                closing = self._closing
                if self._woken:
                    while self._wake_reader.poll():
                        self._wake_reader.recv_bytes()
                    self._woken = False
                runs = list(self._runs)
            if closing:
                break
            try:
                self._step(runs)
            except Exception as err:  # noqa: BLE001 - e.g. workers that die as they start
                for job in runs:
                    self._end(job, err)
        for job in runs:
            self._end(job, RuntimeError("the worker pool was closed during the run"))
        self._stop_workers()
        with self._lock:
            self._thread, self._closing, self._woken = None, False, False

    def _step(self, runs: list[_Run]) -> None:
        """One round: end cancelled, spent and finished runs, hand out, wait for results or a
        deadline."""
        now = wall_now()
        live = []
        for job in runs:
            if job.cancelled:
                self._end(job, None, report=False)
            elif job.end is not None and now >= job.end:
                self._abandon(job)
            else:
                live.append(job)
        self._hand_out(live)
        for job in list(live):
            if job.feed.drained and not job.in_flight:
                self._end(job, job.error)
                live.remove(job)
        busy = [w for w in self.workers if w.pending]
        wakes = [w.started + w.limit() for w in busy]
        wakes += [job.end for job in live if job.end is not None]
        timeout = None if not wakes else max(0.0, min(wakes) - now) + 0.001
        ready = wait([w.conn for w in busy] + [self._wake_reader], timeout=timeout)
        now = wall_now()
        for worker in busy:
            if worker.conn in ready:
                self._receive(worker, now)
            elif now - worker.started > worker.limit():
                job, index, item = worker.pending.popleft()
                started = worker.ready
                self._retire(worker)
                job.in_flight -= 1
                job.report(index, item, Lost(LostKind.TIMEOUT, f"no result within "
                                             f"{job.deadline_s:g} s (worker killed)") if started
                           else Lost(LostKind.DIED, f"the worker process did not start within "
                                                    f"{START_LIMIT_S:g} s"))

    def _hand_out(self, runs: list[_Run]) -> None:
        """Give idle workers (starting them as needed) a chunk each, the runs taking turns."""
        turns = deque(job for job in runs if not job.feed.drained)
        while turns and self._room():
            job = turns.popleft()
            try:
                chunk = job.feed.take(job.chunk_size)
            except Exception as err:  # noqa: BLE001 - the caller's iterator raised
                job.error, job.feed.exhausted, job.feed.left = err, True, 0
                continue
            if not chunk:
                continue
            sent, blobs = self._pickled(job, chunk)
            if not sent:  # none of them could be sent: on to its next chunk
                turns.append(job)
                continue
            worker = self._idle_worker()
            if worker is None:
                job.feed.give_back(sent)
                return
            if self._send(worker, job, blobs, sent):
                turns.append(job)
            else:  # the worker was dead: the chunk went back, to another worker now
                turns.appendleft(job)

    @staticmethod
    def _pickled(job: _Run, chunk: list[tuple[int, Any]]
                 ) -> tuple[list[tuple[int, Any]], list[bytes]]:
        """The chunk's items that pickle, and their bytes; the others are reported lost now,
        so one unsendable item (unpicklable, nested too deep) costs only itself."""
        sent, blobs = [], []
        for index, item in chunk:
            try:
                blobs.append(pickle.dumps(item, pickle.HIGHEST_PROTOCOL))
            except Exception as err:  # noqa: BLE001 - whatever pickling raises
                job.report(index, item, Lost(
                    LostKind.ERROR, f"the item could not be sent to a worker: {why(err)}"))
            else:
                sent.append((index, item))
        return sent, blobs

    def _send(self, worker: _Worker, job: _Run, blobs: list[bytes],
              sent: list[tuple[int, Any]]) -> bool:
        try:
            worker.conn.send(blobs)
        except OSError:  # it died idle, e.g. killed from outside
            job.feed.give_back(sent)
            self._retire(worker)
            self._count_stillborn()
            return False
        worker.pending.extend((job, index, item) for index, item in sent)
        if worker.ready:
            worker.started = wall_now()
        job.in_flight += len(sent)
        return True

    def _count_stillborn(self) -> None:
        """One more worker found dead before it did anything; too many in a row is an error."""
        self._stillborn += 1
        if self._stillborn > 2 * self.size + 2:
            raise RuntimeError("worker processes die as soon as they start")

    def _room(self) -> bool:
        """Whether a chunk could go out now (a worker is idle, or one more may start): items
        are taken and pickled only then, not once per round while every worker is busy."""
        return len(self.workers) < self.size or any(not w.pending for w in self.workers)

    def _idle_worker(self) -> _Worker | None:
        """A worker with nothing to do, started now if all are busy and there is room."""
        for worker in self.workers:
            if not worker.pending:
                return worker
        if len(self.workers) >= self.size:
            return None
        parent, child = self.ctx.Pipe()
        # typeshed's BaseContext lacks Process, which every concrete context has
        process = self.ctx.Process(target=_serve, args=(child, self.task),  # type: ignore[attr-defined]
                                   daemon=True)
        process.start()
        child.close()
        self.workers.append(_Worker(process, parent, wall_now()))
        return self.workers[-1]

    def _receive(self, worker: _Worker, now: float) -> None:
        try:
            blob = worker.conn.recv_bytes()
        except (EOFError, OSError):
            if not worker.ready:  # it died starting up: none of its items is to blame
                self._retire(worker)
                self._count_stillborn()
                return
            job, index, item = worker.pending.popleft()
            job.in_flight -= 1
            self._retire(worker)
            job.report(index, item, Lost(LostKind.DIED, "the worker process died"))
            return
        worker.started = now
        if not worker.ready:  # its first message says it is ready
            worker.ready = True
            self._stillborn = 0
            return
        job, index, item = worker.pending.popleft()  # a worker reports its chunk in order
        job.in_flight -= 1
        try:
            outcome = pickle.loads(blob)
        except Exception as err:  # noqa: BLE001 - the worker stays in step: one message each
            outcome = Lost(LostKind.ERROR, f"the result could not be read: {why(err)}")
        job.report(index, item, outcome)

    def _retire(self, worker: _Worker) -> None:
        """Kill a hung or dead worker, handing what it still holds back to its run; a fresh
        one starts when work needs it."""
        for job, index, item in worker.pending:
            job.in_flight -= 1
            job.feed.give_back([(index, item)])
        worker.pending.clear()
        worker.process.kill()
        worker.process.join()
        worker.conn.close()
        self.workers.remove(worker)
        self.replaced += 1

    def _abandon(self, job: _Run) -> None:
        """Report every unfinished item of a run whose budget is spent; retire its workers."""
        lost = Lost(LostKind.BUDGET, f"the call's budget of {job.budget_s:g} s was spent first")
        for worker in self._workers_of(job):
            unfinished = [(index, item) for _, index, item in worker.pending]
            worker.pending.clear()
            self._retire(worker)
            job.in_flight -= len(unfinished)
            for index, item in unfinished:
                job.report(index, item, lost)
        try:
            for index, item in job.feed.rest():
                job.report(index, item, lost)
        except Exception as err:  # noqa: BLE001 - the caller's iterator raised
            job.error = err
        self._end(job, job.error)

    def _end(self, job: _Run, error: BaseException | None, *, report: bool = True) -> None:
        """Take a run off the pool (retiring workers still busy with it) and tell its caller."""
        for worker in self._workers_of(job):
            worker.pending = deque(p for p in worker.pending if p[0] is not job)
            self._retire(worker)
        with self._lock:
            if job in self._runs:
                self._runs.remove(job)
        if report:
            job.finish(error)

    def _workers_of(self, job: _Run) -> list[_Worker]:
        return [w for w in self.workers if any(p[0] is job for p in w.pending)]

    def _stop_workers(self) -> None:
        """Ask every worker to stop, killing stragglers after a second."""
        for worker in self.workers:
            with contextlib.suppress(OSError):
                worker.conn.send(None)
        for worker in self.workers:
            worker.process.join(timeout=1)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()
        self.workers = []


#: What a forked child renews, per live object of this process (see :func:`renew_after_fork`).
_renewals: weakref.WeakKeyDictionary[Any, Callable[[Any], None]] = weakref.WeakKeyDictionary()


def renew_after_fork(obj: T, renew: Callable[[T], None]) -> None:
    """Call ``renew(obj)`` in every child this process forks while ``obj`` lives: a child must
    not inherit locks another thread held, nor the parent's workers and pipes.  ``renew`` is a
    plain function (e.g. the unbound method), so ``obj`` is not kept alive by it."""
    _renewals[obj] = renew


def _renew_after_fork() -> None:
    for obj, renew in list(_renewals.items()):
        renew(obj)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_renew_after_fork)
