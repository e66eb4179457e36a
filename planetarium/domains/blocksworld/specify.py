"""Exact, linear-time ``fully_specify`` for Blocks World.

Vocabulary.  In a *well-formed* state every block rests on exactly one thing (the table, the
hand, or one other block), each block carries at most one block, the ``on`` relation has no
cycle, at most one block is held and nothing rests on it, ``(clear x)`` holds exactly when
nothing is on ``x`` and ``x`` is not held, and ``(arm-empty)`` exactly when nothing is held.

Why the closed form is exact.  The four operators keep those invariants, and from any
well-formed state the arm can put its block down and then unstack every tower onto the table;
every operator has an inverse (pickup/putdown, stack/unstack), so every well-formed state over
the same blocks reaches every other.  From a well-formed initial state the reachable states are
therefore exactly *all* well-formed configurations of its blocks, whatever the initial tower
layout is.  Initial states that are not well-formed (a block with no position, two blocks on one,
a cycle, ...) have no such description and go to the bounded brute force.

A positive conjunctive goal is then a partial configuration.  Its ``on`` atoms cut the blocks
into *fragments* (maximal chains; a block in no ``on`` atom is a fragment of one).  A fragment's
bottom is *open* unless the goal puts it on the table or in the hand; its top is *open* unless
the goal says it is clear or held.  Every completion of the goal is obtained by resting each
open-bottom fragment on the table, on the open top of another fragment, or -- for a block the
goal does not mention at all, when the goal neither holds a block nor requires an empty arm --
in the hand.  Putting every open-bottom fragment on the table always works, so the goal is
satisfiable iff it is locally consistent, and no ``on`` or ``holding`` atom beyond the goal is
ever forced.  What can be forced is exactly:

* ``(on-table b)`` for the open bottom ``b`` of fragment F: iff no *other* fragment has an open
  top (putting F on it is the only alternative; F on itself would be a cycle) and ``b`` cannot be
  the held block;
* ``(clear t)`` for the open top ``t`` of fragment F: iff no other fragment has an open bottom
  (the only thing that could be stacked on ``t``) and ``t`` cannot be the held block;
* ``(arm-empty)``: iff the goal holds nothing and mentions every block (only an unmentioned block
  can be picked up while the goal stays true).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ...pddl.domain import Atom
from ...pddl.problem import Problem
from ...strips.exact import reachable_goal_intersection
from ..base import DEFAULT_MAX_STATES, Domain


@dataclass
class _Partial:
    """A locally consistent partial configuration, read from a set of blocksworld atoms."""

    on: dict[str, str] = field(default_factory=dict)     # block -> the block it rests on
    under: dict[str, str] = field(default_factory=dict)  # block -> the block resting on it
    on_table: set[str] = field(default_factory=set)
    held: set[str] = field(default_factory=set)
    clear: set[str] = field(default_factory=set)
    arm_empty: bool = False

    def fragments(self, blocks: tuple[str, ...]) -> list[tuple[str, str]] | None:
        """``(bottom, top)`` of every maximal ``on`` chain, or ``None`` if ``on`` has a cycle.

        Each block is on at most one block and under at most one, so the ``on`` graph is a set
        of disjoint paths and cycles; a block on a cycle is never reached from a bottom.
        """
        out = []
        reached = 0
        for bottom in blocks:
            if bottom in self.on:
                continue
            top = bottom
            reached += 1
            while top in self.under:
                top = self.under[top]
                reached += 1
            out.append((bottom, top))
        return out if reached == len(blocks) else None


def _read(atoms: Iterable[Atom]) -> _Partial | None:
    """The partial configuration stated by ``atoms``; ``None`` if no well-formed state has them all.

    Refused: a block resting on two things, two blocks on one, ``clear`` or ``holding`` on a block
    with something on it, ``clear`` and ``holding`` together, two held blocks, holding with
    ``arm-empty``.  Cycles are found later by :meth:`_Partial.fragments`.
    """
    p = _Partial()
    below_seen: set[str] = set()
    for atom in atoms:
        pred = atom[0]
        if pred == "arm-empty":
            p.arm_empty = True
            continue
        x = atom[1]
        if pred == "clear":
            p.clear.add(x)
            continue
        if x in below_seen:
            return None  # atoms come from a set, so this is a second, different resting place
        below_seen.add(x)
        if pred == "on":
            y = atom[2]
            if y in p.under:
                return None
            p.on[x] = y
            p.under[y] = x
        elif pred == "on-table":
            p.on_table.add(x)
        else:  # holding
            p.held.add(x)
    if len(p.held) > 1 or (p.held and p.arm_empty):
        return None
    if any(x in p.under or x in p.held for x in p.clear) or any(x in p.under for x in p.held):
        return None
    return p


def _is_well_formed(blocks: tuple[str, ...], init: frozenset[Atom]) -> bool:
    """Whether ``init`` is a complete well-formed configuration of ``blocks`` (module docstring)."""
    p = _read(init)
    if p is None or p.fragments(blocks) is None:
        return False
    if len(p.on) + len(p.on_table) + len(p.held) != len(blocks):
        return False  # some block rests nowhere
    tops = {b for b in blocks if b not in p.under and b not in p.held}
    return p.clear == tops and p.arm_empty == (not p.held)


def fully_specify(domain: Domain, problem: Problem) -> frozenset[Atom] | None:
    """Every fact true in all goal states reachable from ``problem.init``; ``None`` if none is.

    Exact and linear for well-formed initial states (module docstring); any other initial state
    is handed to the brute force, which raises ResourceLimitError when it is too large.
    """
    blocks = problem.objects
    if not _is_well_formed(blocks, problem.init):
        return reachable_goal_intersection(domain.definition, problem, DEFAULT_MAX_STATES)
    goal = _read(problem.goal)
    if goal is None:
        return None
    fragments = goal.fragments(blocks)
    if fragments is None:
        return None
    arm_free = not goal.held and not goal.arm_empty
    open_bottom = [b not in goal.on_table and b not in goal.held for b, _ in fragments]
    open_top = [t not in goal.clear and t not in goal.held for _, t in fragments]
    n_open_bottom, n_open_top = sum(open_bottom), sum(open_top)
    forced: list[Atom] = []
    some_unmentioned = False
    for (bottom, top), ob, ot in zip(fragments, open_bottom, open_top, strict=True):
        unmentioned = ob and ot and bottom == top  # the block is in no goal atom
        some_unmentioned |= unmentioned
        may_be_held = arm_free and unmentioned
        if ob and n_open_top - ot == 0 and not may_be_held:
            forced.append(("on-table", bottom))
        if ot and n_open_bottom - ob == 0 and not may_be_held:
            forced.append(("clear", top))
    if not goal.held and not some_unmentioned:
        forced.append(("arm-empty",))
    return problem.goal.union(forced)


def closed_form_covers(problem: Problem) -> bool:
    """Whether :func:`fully_specify` uses the closed form (a well-formed initial state)."""
    return _is_well_formed(problem.objects, problem.init)


def reachability_signature(problem: Problem) -> frozenset[Atom] | None:
    """From a well-formed initial state every well-formed configuration of the blocks is
    reachable (module docstring): the reachable states depend on the blocks alone."""
    return frozenset() if _is_well_formed(problem.objects, problem.init) else None
