"""At-least-one invariants: a cheap proof that an atom holds in every goal state.

If every reachable state holds some atom of a set ``S``, and every atom of ``S`` but ``p`` is
known false in every goal state (mutex with a goal atom, or a negative goal), then ``p`` holds in
every goal state.  Gripper's "the left gripper is free" is proven so when the goal places every
ball: ``S = {free(left)} + {carry(b, left)}``, each ``carry`` mutex with its ball's goal room.

``S`` is grown from ``{p}`` the way Fast Downward's invariant synthesis refines a candidate, on
ground atoms: an action that can empty ``S`` (deletes members, adds none) is harmless when it
needs a member it keeps or when the members it deletes never hold while it applies (h^2 mutex
with its precondition); otherwise its added atoms that are known false in goal states join ``S``
and the check starts over.  When no such atom exists the proof fails (nothing is claimed); when
nothing threatens ``S`` any more and the initial state holds a member, ``S`` is an invariant by
induction over any plan.
"""

from __future__ import annotations

from collections.abc import Sequence

from .regression import BitOp

#: Rounds of growing ``S`` before giving up on the proof (each round adds atoms).
_MAX_ROUNDS = 64


def forced_by_invariant(atom: int, ops: Sequence[BitOp], deleters: dict[int, list[int]],
                        init: int, false_in_goals: int, compatible: Sequence[int]) -> bool:
    """Whether atom ``atom`` (an index) is proven true in every goal state.

    ``deleters``: atom index -> the ops that delete it without adding it; ``false_in_goals``:
    a bit set of atoms false in every goal state; ``compatible[i]``: the atoms that may hold
    together with atom ``i`` (h^2).
    """
    members = 1 << atom
    for _ in range(_MAX_ROUNDS):
        grown = members
        for index in _threats(members, deleters):
            pre, add, delete = ops[index]
            if add & members or pre & members & ~delete:
                continue
            if _never_with(delete & members, pre, compatible):
                continue
            helpers = add & false_in_goals
            if not helpers:
                return False
            grown |= helpers
        if grown == members:
            return bool(init & members)
        members = grown
    return False


def _threats(members: int, deleters: dict[int, list[int]]) -> set[int]:
    found: set[int] = set()
    rest = members
    while rest:
        low = rest & -rest
        found.update(deleters.get(low.bit_length() - 1, ()))
        rest ^= low
    return found


def _never_with(deleted: int, pre: int, compatible: Sequence[int]) -> bool:
    """Whether every atom of ``deleted`` is mutex with some atom of ``pre`` (so none of them
    holds when the action applies)."""
    rest = deleted
    while rest:
        low = rest & -rest
        if not pre & ~compatible[low.bit_length() - 1]:
            return False
        rest ^= low
    return True
