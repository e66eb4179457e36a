"""Which problems outside the held-out combinations are held-out problems up to renaming objects.

"The same problem" is what the grader calls it in identity mode: one renaming of objects maps
one initial state onto the other and one fully specified goal onto the other (Algorithm 1 with
a single bijection, :func:`planetarium.equivalence.compare`).  Inverting towers of height 1
leaves them as they are, a stack of two blocks numbered one way is a tower numbered the other
way, carrying every ball with spare grippers forces those grippers free: combinations meet on
such problems, and a model trained on one has seen the other's test problem.

Comparing every training problem with every test problem would take hours, so each problem
first gets an isomorphism invariant (:func:`problem_invariant`: per object, its type and the
multiset of (scene, predicate, argument position) it appears at, in the initial state and the
fully specified goal, plus the nullary facts, hashed); only a training problem whose invariant
is a test problem's is compared for real.  The generator computes invariants where it builds
the problems, in its worker processes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cache

from ..domains.base import Domain
from ..equivalence import Limits, compare
from ..graph import GOAL, INIT
from ..limits import Deadline
from ..pddl.domain import Atom
from ..pddl.problem import Problem

_MASK = (1 << 64) - 1


@cache
def _labels(scene: str, predicate: str, arity: int) -> tuple[int, ...]:
    """Stable 64-bit values (the same in every process and run) for a fact of ``predicate`` in
    ``scene``: one per argument position, or one for the fact itself when it has none."""
    return tuple(int.from_bytes(hashlib.blake2b(repr((scene, predicate, pos)).encode(),
                                                digest_size=8).digest(), "big")
                 for pos in range(max(arity, 1)))


def _mix(x: int) -> int:
    """splitmix64's finaliser: a sum of mixed values is a multiset hash that is not merely the
    sum of its elements' parts."""
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def _add(sums: dict[str, int], scene: str, atoms: Iterable[Atom]) -> int:
    """Add each fact's label to its arguments' sums; returns the nullary facts' labels' sum."""
    nullary = 0
    for atom in atoms:
        labels = _labels(scene, atom[0], len(atom) - 1)
        if len(atom) == 1:
            nullary += labels[0]
        for pos in range(1, len(atom)):
            sums[atom[pos]] += labels[pos - 1]
    return nullary


#: Per initial state (one starts many problems: one per goal layout), its sums; emptied when it
#: reaches _INIT_SUMS_LIMIT entries (the full dataset has ~20,000 initial states).
_INIT_SUMS: dict[tuple[tuple[str, ...], frozenset], tuple[dict[str, int], int]] = {}
_INIT_SUMS_LIMIT = 50_000


def problem_invariant(problem: Problem, domain: Domain) -> int | None:
    """Equal for two problems that are the same up to renaming objects (identity mode); None
    when no goal state is reachable (such a problem is nobody's test problem);
    ResourceLimitError when fully specifying its goal runs past :data:`COMPARE_TIMEOUT_S`."""
    with Deadline.start(COMPARE_TIMEOUT_S).applied():  # an item of its own, like a comparison
        goal = domain.fully_specify(problem)
    if goal is None:
        return None
    key = (problem.objects, problem.init)
    cached = _INIT_SUMS.get(key)
    if cached is None:
        if len(_INIT_SUMS) >= _INIT_SUMS_LIMIT:
            _INIT_SUMS.clear()
        init_sums = dict.fromkeys(problem.objects, 0)
        cached = _INIT_SUMS[key] = init_sums, _add(init_sums, INIT, problem.init)
    sums = dict(cached[0])
    total = cached[1] + _add(sums, GOAL, goal)
    for obj, kind in zip(problem.objects, problem.object_types, strict=True):
        total += _mix(_labels("object", kind, 1)[0] ^ (sums[obj] & _MASK))
    return total & _MASK


#: The limit of one comparison of a generated problem with a held-out one, and of fully
#: specifying one problem's goal for its invariant (each is an item of its own: the generator
#: is its entry point).  Running out raises
#: :class:`~planetarium.errors.ResourceLimitError`: a leak is never assumed away.
COMPARE_TIMEOUT_S = 10.0


class LeakFinder:
    """The held-out problems of one domain, bucketed by invariant; :meth:`is_test_problem`
    answers for any other problem of the domain."""

    def __init__(self, domain: Domain, test: Iterable[tuple[Problem, int | None]]) -> None:
        self.domain = domain
        self._by_invariant: dict[int, list[Problem]] = {}
        for problem, invariant in test:
            if invariant is not None:
                self._by_invariant.setdefault(invariant, []).append(problem)

    def may_be_test_problem(self, invariant: int | None) -> bool:
        """False proves a problem with this invariant is no held-out problem."""
        return invariant in self._by_invariant

    def is_test_problem(self, problem: Problem, invariant: int | None) -> bool:
        """Whether ``problem`` (with its :func:`problem_invariant`) is a held-out problem up to
        renaming objects."""
        return any(compare(test, problem, self.domain, is_placeholder=False,
                           limits=Limits(Deadline.start(COMPARE_TIMEOUT_S))).equivalent
                   for test in (() if invariant is None else self._by_invariant.get(invariant, ())))
