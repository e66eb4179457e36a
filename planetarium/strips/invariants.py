"""At-least-one invariants: a cheap proof that an atom holds in every goal state.

If every reachable state holds some atom of a set ``S``, and every atom of ``S`` but ``p`` is
known false in every goal state (mutex with a goal atom, or a negative goal), then ``p`` holds in
every goal state.  Gripper's "the left gripper is free" is proven so when the goal places every
ball: ``S = {free(left)} + {carry(b, left)}``, each ``carry`` mutex with its ball's goal room.

``S`` is grown from ``{p}`` the way Fast Downward's invariant synthesis refines a candidate, on
ground atoms: an action that can empty ``S`` (deletes members, adds none) is harmless when it
needs a member it keeps or when the members it deletes never hold while it applies (h^2 mutex
with its precondition); otherwise one of its added atoms that is known false in goal states
joins ``S`` and the check goes on.  When no such atom exists the branch fails (nothing is
claimed); when nothing threatens ``S`` any more and the initial state holds ``p``, ``S`` is an
invariant by induction over any plan.
"""

from __future__ import annotations

from collections.abc import Sequence

from .bits import indices as bit_indices
from .regression import BitOp

#: Sets ``S`` tried (each a node of the backtracking over which helper joins) before giving up.
_MAX_NODES = 64


def forced_by_invariant(atom: int, ops: Sequence[BitOp], deleters: dict[int, list[int]],
                        init: int, false_in_goals: int, compatible: Sequence[int]) -> bool:
    """Whether atom ``atom`` (an index) is proven true in every goal state.

    ``deleters``: atom index -> the ops that delete it without adding it; ``false_in_goals``:
    a bit set of atoms false in every goal state; ``compatible[i]``: the atoms that may hold
    together with atom ``i`` (h^2).  A threatening action may add several atoms false in goal
    states; one joins ``S`` at a time, the one that brings the fewest new threats first, and
    the others are tried on backtracking (within :data:`_MAX_NODES` sets).
    """
    nodes = [0]

    def grow(members: int) -> bool:
        nodes[0] += 1
        if nodes[0] > _MAX_NODES:
            return False
        threat = _first_threat(members, ops, deleters, compatible)
        if threat is None:
            return bool(init & members)
        helpers = ops[threat][1] & false_in_goals
        order = sorted(bit_indices(helpers),
                       key=lambda i: _new_threats(members | (1 << i), i, ops, deleters))
        return any(grow(members | (1 << i)) for i in order)

    return grow(1 << atom)


def _first_threat(members: int, ops: Sequence[BitOp], deleters: dict[int, list[int]],
                  compatible: Sequence[int]) -> int | None:
    """An op that may leave no member of ``members`` true, or ``None`` when none does."""
    for atom in bit_indices(members):
        for index in deleters.get(atom, ()):
            pre, add, delete = ops[index]
            if add & members or pre & members & ~delete:
                continue
            if not _never_with(delete & members, pre, compatible):
                return index
    return None


def _new_threats(members: int, atom: int, ops: Sequence[BitOp],
                 deleters: dict[int, list[int]]) -> int:
    """How many deleters of ``atom`` add no member (the threats its joining brings)."""
    return sum(1 for index in deleters.get(atom, ()) if not ops[index][1] & members)


def _never_with(deleted: int, pre: int, compatible: Sequence[int]) -> bool:
    """Whether every atom of ``deleted`` is mutex with some atom of ``pre`` (so none of them
    holds when the action applies)."""
    for atom in bit_indices(deleted):
        if not pre & ~compatible[atom]:
            return False
    return True
