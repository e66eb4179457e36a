"""Ground truths read once: the process's one memo of prepared ground truths.

A ground truth meets many answers: 8-16 completions per prompt in training, three grading modes
per answer and many runs in evaluation, every pair of a batch that shares it.  Reading it (and
fully specifying its goal, deciding its solvability, building its graphs) once per process is
what :data:`TRUTHS` is for: every grader of many answers — ``grade --batch``
(:func:`planetarium.batch.grade_item`), ``eval grade`` (the benchmarks), the reward, the
adapters' :class:`ItemGrader <planetarium.benchmarks.grader.ItemGrader>` — takes its
:class:`PreparedTruth` from it (:func:`prepared_truth`), and the prepared truth's ``memo`` keeps
what grading derives from the ground truth alone.  A single :func:`~planetarium.grading.grade`
of a text reads it without keeping it (a one-off call costs no memory and no collector time).

The memo is keyed by content (the text, and whether typing is relaxed: the one read option that
changes the result), bounded (least recently used out first, by count and by characters), and
counts its hits and misses.  A process forked from one holding it (a worker) starts with it
empty, so what a worker reads is its own.  A read cut short by the time limit is not kept (it
says nothing about the text).

Typing relaxed needs no second read when the strict read succeeded: relaxing only stops the
reader from checking types, so a text it read with types checked reads the same with them
relaxed, except that every object and quantified variable is then of type ``object``
(:func:`relaxed_typing`; in an untyped domain that is already so).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace

from ..domains import get_domain
from ..domains.base import Domain
from ..errors import PlanetariumError, ResourceLimitError
from ..pddl.domain import DomainDef
from ..pddl.problem import Formula, Problem, read_problem
from .options import GradeOptions

#: Ground truths kept per process, and the characters they may hold together.
CACHE_ENTRIES = 1024
CACHE_CHARS = 32_000_000


def load_ground_truth(gt: str, *, relax_typing: bool = False,
                      domain: Domain | None = None) -> tuple[Domain, Problem]:
    """Parse a ground-truth problem, taking its domain from its ``(:domain ...)``: ``domain``
    when it has that name (a domain that is not registered), else the registered one."""
    found: list[Domain] = []
    problem = _read_into(found, gt, relax_typing, domain)
    return found[0], problem


def _read_into(found: list[Domain], gt: str, relax_typing: bool,
               domain: Domain | None = None) -> Problem:
    """Read ``gt``, appending the domain its ``(:domain ...)`` names to ``found`` once it is
    known (so a caller knows it even when reading fails later)."""

    def lookup(name: str) -> DomainDef:
        found.append(domain if domain is not None and domain.name == name.lower()
                     else get_domain(name))
        if found[0].compiles_adl:
            raise _ReadByDomain
        return found[0].definition

    try:
        return read_problem(gt, lookup, relax_typing=relax_typing)
    except _ReadByDomain:
        return found[0].read_problem(gt, relax_typing=relax_typing)


class _ReadByDomain(Exception):
    """Raised by :func:`_read_into`'s look-up when the domain its ground truth names reads its
    problems itself (an ADL domain, :meth:`Domain.read_problem`): the plain reader stops there
    and the domain reads the text."""


@dataclass(frozen=True, eq=False)
class PreparedTruth:
    """A ground truth read once, to grade many predictions against it.

    ``memo`` keeps what grading derives from it alone (its fully specified goal, its
    solvability, its graphs), so none of it is computed again.  ``error`` says why the ground
    truth could not be read (then ``problem`` is ``None``, and ``domain`` too unless its
    ``(:domain ...)`` was found); ``timed_out``: because the time limit ran out, which says
    nothing about the text (do not keep it).
    """

    text: str
    relax_typing: bool
    domain: Domain | None = None
    problem: Problem | None = None
    error: str | None = None
    timed_out: bool = False
    memo: dict = field(default_factory=dict, repr=False)

    def serves(self, relax_typing: bool) -> bool:
        """Whether grading with ``relax_typing`` may use it: read with that option, or read
        with types checked in an untyped domain (relaxing then changes nothing)."""
        return self.relax_typing == relax_typing or (
            relax_typing and self.error is None and self.domain is not None
            and not self.domain.definition.typed)


def prepare_ground_truth(gt: str, options: GradeOptions | None = None, *,
                         domain: Domain | None = None) -> PreparedTruth:
    """Read ``gt`` now, for :func:`~planetarium.grading.grade` with ``options`` (only
    ``relax_typing`` matters), without the memo; an unreadable ground truth is recorded, never
    raised.  ``domain``: a domain that is not registered, used when the ground truth names it."""
    return _read(gt, (options or GradeOptions()).relax_typing, domain)


def _read(gt: str, relax_typing: bool, domain: Domain | None = None) -> PreparedTruth:
    found: list[Domain] = []
    try:
        problem = _read_into(found, gt, relax_typing, domain)
    except ResourceLimitError as err:
        return PreparedTruth(gt, relax_typing, found[0] if found else None,
                             error=f"ground truth: {err}", timed_out=True)
    except (PlanetariumError, RecursionError) as err:
        return PreparedTruth(gt, relax_typing, found[0] if found else None,
                             error=f"ground truth: {err}")
    return PreparedTruth(gt, relax_typing, found[0], problem)


def relaxed_typing(problem: Problem) -> Problem:
    """``problem`` (read with types checked) as the reader gives it with typing relaxed: every
    object and quantified variable of type ``object``, nothing else changed."""
    return replace(problem, object_types=("object",) * len(problem.objects),
                   goal_formula=_untyped(problem.goal_formula))


def _untyped(formula: Formula | None) -> Formula | None:
    if formula is None or formula[0] == "atom":
        return formula
    if formula[0] in ("forall", "exists"):
        return (formula[0], tuple((var, "object") for var, _ in formula[1]),
                _untyped(formula[2]))
    return (formula[0], *(_untyped(part) for part in formula[1:]))


class TruthCache:
    """Prepared ground truths by (text, relax_typing), least recently used evicted first;
    ``hits`` and ``misses`` count the look-ups.  Safe to share between threads."""

    def __init__(self, entries: int = CACHE_ENTRIES, chars: int = CACHE_CHARS) -> None:
        self.entries, self.chars = entries, chars
        self._kept: OrderedDict[tuple[str, bool], PreparedTruth] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, gt: str, relax_typing: bool = False) -> tuple[PreparedTruth, bool]:
        """The prepared ``gt`` and whether it was kept already (read now if not)."""
        with self._lock:
            kept = self._find(gt, relax_typing)
            if kept is not None:
                self.hits += 1
                return kept, True
            self.misses += 1
        prepared = _read(gt, relax_typing)
        # kept unless cut short, or unread for want of its domain (a plug-in may add it)
        if not prepared.timed_out and prepared.domain is not None:
            with self._lock:
                self._keep((gt, relax_typing), prepared)
        return prepared, False

    def _find(self, gt: str, relax: bool) -> PreparedTruth | None:
        kept = self._kept.get((gt, relax))
        if kept is None and relax:  # the strict read, relaxed without reading again
            strict = self._kept.get((gt, False))
            if strict is not None and strict.error is None and _current(strict):
                assert strict.domain is not None and strict.problem is not None
                kept = strict if strict.serves(True) else PreparedTruth(
                    gt, True, strict.domain, relaxed_typing(strict.problem))
                self._keep((gt, True), kept)
        if kept is None or not _current(kept):
            return None
        self._kept.move_to_end((gt, relax))
        return kept

    def _keep(self, key: tuple[str, bool], prepared: PreparedTruth) -> None:
        if len(key[0]) > self.chars or key in self._kept:
            return
        self._kept[key] = prepared
        self._size += len(key[0])
        while len(self._kept) > self.entries or self._size > self.chars:
            (evicted, _), _ = self._kept.popitem(last=False)
            self._size -= len(evicted)

    def clear(self) -> None:
        """Forget every ground truth and reset the counts."""
        with self._lock:
            self._forget()

    def _forget(self) -> None:
        self._kept = OrderedDict()
        self._size = 0
        self.hits = self.misses = 0

    def _start_afresh(self) -> None:
        """In a forked child: empty, with a new lock (another thread of the parent may have
        held the old one at the fork, and nothing in the child would ever release it)."""
        self._lock = threading.Lock()
        self._forget()

    def __len__(self) -> int:
        return len(self._kept)


def _current(prepared: PreparedTruth) -> bool:
    """Whether its domain is still the one registered under its name (a plug-in replaced or
    removed since makes it stale)."""
    if prepared.domain is None:
        return True
    try:
        return get_domain(prepared.domain.name) is prepared.domain
    except PlanetariumError:
        return False


#: The process's memo; a forked child starts with it empty (its reads are its own).
TRUTHS = TruthCache()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=TRUTHS._start_afresh)


def prepared_truth(gt: str, relax_typing: bool = False) -> PreparedTruth:
    """``gt`` prepared for grading, through the process's memo (:data:`TRUTHS`)."""
    return TRUTHS.get(gt, relax_typing)[0]
