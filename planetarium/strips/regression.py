"""Backward search over partial states: proves a conjunction of literals unreachable.

Forward search proves "no reachable state satisfies these literals" only by visiting every
reachable state, which is hopeless on a nine-block tower.  Regression starts from the literals
instead: a partial state is a pair of bit sets (atoms that must be true, atoms that must be
false), and regressing it through an action that achieves one of its literals gives the partial
state that must hold before.  A partial state that holds an h^2 mutex pair (or an atom that is
never reachable) describes no reachable state, so it is dropped; when nothing is left, no
reachable state satisfies the literals.  Blocks World's "tower with its top block covered" dies
in a few steps: every action that could have made it true needs a block held while another sits
on it.

Complete, not only sound: if some plan from the initial state reaches the literals, the chain of
its last actions that achieve something regresses, state by state, to partial states that the
plan's own (reachable, hence mutex-free) states satisfy, ending in one the initial state
satisfies (an action that achieves no literal of a partial state can be dropped from the end of
the plan).  So the search answers both ways: reached the initial state, or exhausted.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from itertools import count

from ..errors import ResourceLimitError
from ..limits import check_deadline

#: A ground action over bit sets: (precondition, add, delete).
BitOp = tuple[int, int, int]
#: Partial states expanded between two looks at the deadline.
_CLOCK_EVERY = 128


class RegressionBudgetExceeded(ResourceLimitError):
    """More partial states than the caller allowed (not the clock running out)."""


def consistent(atoms: int, compatible: Sequence[int]) -> bool:
    """Whether no two atoms of ``atoms`` are mutex (``compatible[i]``: the atoms that may hold
    together with atom ``i``; an unreachable atom is compatible with nothing, itself included)."""
    rest = atoms
    while rest:
        low = rest & -rest
        if atoms & ~compatible[low.bit_length() - 1]:
            return False
        rest ^= low
    return True


def regress(ops: Sequence[BitOp], deleters: dict[int, list[int]], adders: dict[int, list[int]],
            init: int, positive: int, negative: int, compatible: Sequence[int],
            max_states: int) -> bool:
    """Whether some state reachable from ``init`` holds every atom of ``positive`` and none of
    ``negative`` (bit sets over the atoms of ``ops``).

    ``adders`` / ``deleters``: atom index -> the ops that add / delete it (delete without adding).
    Raises :class:`RegressionBudgetExceeded` after ``max_states`` partial states, and
    :class:`ResourceLimitError` past the deadline in force.
    """
    if positive & negative:
        return False
    start = (positive, negative)
    if not consistent(positive, compatible):
        return False
    if not positive & ~init and not negative & init:
        return True
    seen = {start}
    tie = count()
    queue = [(_distance(start, init), next(tie), start)]
    while queue:
        _, _, (pos, neg) = heapq.heappop(queue)
        if not next(tie) % _CLOCK_EVERY:
            check_deadline("regression search")
        for index in _achievers(pos, neg, adders, deleters):
            pre, add, delete = ops[index]
            lost = delete & ~add
            if add & neg or lost & pos:
                continue  # the action would undo a literal it is meant to lead to
            before_pos = (pos & ~add) | pre
            before_neg = neg & ~delete
            if before_pos & before_neg or not consistent(before_pos, compatible):
                continue
            state = (before_pos, before_neg)
            if state in seen:
                continue
            if not before_pos & ~init and not before_neg & init:
                return True
            if len(seen) >= max_states:
                raise RegressionBudgetExceeded(f"regression gave up after {max_states} partial states")
            seen.add(state)
            heapq.heappush(queue, (_distance(state, init), next(tie), state))
    return False


def _distance(state: tuple[int, int], init: int) -> int:
    """Literals the initial state does not satisfy: fewest first finds a plan's start soonest."""
    return (state[0] & ~init).bit_count() + (state[1] & init).bit_count()


def _achievers(pos: int, neg: int, adders: dict[int, list[int]],
               deleters: dict[int, list[int]]) -> set[int]:
    """The ops that make some literal of the partial state true (each once)."""
    found: set[int] = set()
    for mask, table in ((pos, adders), (neg, deleters)):
        while mask:
            low = mask & -mask
            found.update(table.get(low.bit_length() - 1, ()))
            mask ^= low
    return found
