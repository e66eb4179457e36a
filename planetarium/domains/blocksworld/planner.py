"""Exact, linear-time planner for Blocksworld.

An initial state is *well-formed* when the hand is either empty (``arm-empty``, no ``holding``)
or holds exactly one block, every block mentioned anywhere sits in exactly one place (the table,
one block, or the hand), no block carries two blocks, the ``on`` relation has no cycle and no
self-loop, and ``clear`` holds exactly for the unheld blocks with nothing on them.  Blocks that
no initial atom mentions are *inert*: every action that adds an atom about a block needs an atom
about it first, so nothing about them can ever become true.

From a well-formed state every well-formed arrangement of the same blocks is reachable (put
everything on the table, then build), and the actions keep well-formedness, so the problem is
solvable iff the goal is *consistent*: no atom about an inert block, at most one place per block
and one block per place, no self-loop or cycle, nothing on or clear about a held block, at most one
held block and not together with ``arm-empty``, no ``clear`` under a block.  The plan keeps
well-placed towers (every block down to the table already where the goal wants it), moves the
rest to the table and builds the goal towers bottom-up: at most four actions per block.

Anything else (two blocks on one block, ``holding`` with ``arm-empty``, a block on itself, ...)
goes to the generic complete search, which answers or raises ResourceLimitError.
"""

from __future__ import annotations

from ...pddl.problem import Problem
from ..base import Domain, Plan

#: Places that are not blocks; parentheses cannot occur in a PDDL name, so no object clashes.
TABLE, HAND = "(table)", "(hand)"


def _places(atoms) -> dict[str, list[str]]:
    """Each block's places (table, hand, or the block under it) in ``atoms``."""
    places: dict[str, list[str]] = {}
    for atom in atoms:
        if atom[0] == "on-table":
            places.setdefault(atom[1], []).append(TABLE)
        elif atom[0] == "holding":
            places.setdefault(atom[1], []).append(HAND)
        elif atom[0] == "on":
            places.setdefault(atom[1], []).append(atom[2])
    return places


def _read_state(problem: Problem) -> tuple[dict[str, str], set[str]] | None:
    """The place of every mentioned block, and the inert blocks; None if malformed."""
    init = problem.init
    mentioned = {x for atom in init for x in atom[1:]}
    places = _places(init)
    held = [b for b, ps in places.items() if HAND in ps]
    if (("arm-empty",) in init) == bool(held) or len(held) > 1:
        return None
    where: dict[str, str] = {}
    for block in mentioned:
        ps = places.get(block, [])
        if len(ps) != 1 or ps[0] == block:
            return None
        where[block] = ps[0]
    below = {b: p for b, p in where.items() if p not in (TABLE, HAND)}
    on_top = {under: b for b, under in below.items()}
    if len(on_top) != len(below) or _has_cycle(below):
        return None  # two blocks on one block, or a tower standing on itself
    for block, place in where.items():
        if block in on_top and place == HAND:
            return None
        if (("clear", block) in init) != (place != HAND and block not in on_top):
            return None
    return where, {o for o in problem.objects if o not in mentioned}


def _has_cycle(below: dict[str, str]) -> bool:
    for start in below:
        seen = {start}
        x = start
        while x in below:
            x = below[x]
            if x in seen:
                return True
            seen.add(x)
    return False


def _target(goal, blocks: set[str], inert: set[str]) -> dict[str, str] | None:
    """A goal arrangement (block -> TABLE, HAND or the block under it), or None if inconsistent."""
    if any(x in inert for atom in goal for x in atom[1:]):
        return None
    places = _places(goal)
    target: dict[str, str] = {}
    for block in blocks:
        ps = set(places.get(block, [TABLE]))
        if len(ps) != 1 or block in ps:
            return None
        target[block] = ps.pop()
    held = [b for b, p in target.items() if p == HAND]
    if len(held) > 1 or (held and ("arm-empty",) in goal):
        return None
    on_top: dict[str, str] = {}
    for block, under in target.items():
        if under in (TABLE, HAND):
            continue
        if under in on_top or target[under] == HAND or ("clear", under) in goal:
            return None
        on_top[under] = block
    if any(("clear", b) in goal for b in held):
        return None
    if _has_cycle({b: u for b, u in target.items() if u not in (TABLE, HAND)}):
        return None
    return target


def solve(domain: Domain, problem: Problem, timeout_s: float | None) -> Plan | None:
    """A plan, ``None`` if none exists; malformed states go to the bounded generic search."""
    state = _read_state(problem)
    if state is None:
        from ...planning import generic_solve

        return generic_solve(domain.definition, problem, timeout_s)
    where, inert = state
    target = _target(problem.goal, set(where), inert)
    if target is None:
        return None
    return _plan(where, target)


def _plan(where: dict[str, str], target: dict[str, str]) -> Plan:
    """Dismantle what is misplaced, then build the goal towers bottom-up."""
    plan: Plan = []
    for block, place in list(where.items()):
        if place == HAND:
            plan.append(("putdown", block))
            where[block] = TABLE
    build = {b: (TABLE if t == HAND else t) for b, t in target.items()}
    placed: dict[str, bool] = {}

    def well_placed(block: str) -> bool:
        if block not in placed:
            here, want = where[block], build[block]
            placed[block] = here == want and (want == TABLE or well_placed(want))
        return placed[block]

    on_top = {under: b for b, under in where.items() if under != TABLE}
    tops = [b for b in where if b not in on_top]
    for block in tops:  # misplaced blocks form the top of each tower: take them off
        while block is not None and where[block] != TABLE and not well_placed(block):
            under = where[block]
            plan += [("unstack", block, under), ("putdown", block)]
            where[block] = TABLE
            block = under
    for block in sorted(build, key=lambda b: _height(b, build)):
        if build[block] != TABLE and not well_placed(block):
            plan += [("pickup", block), ("stack", block, build[block])]
            where[block] = build[block]
            placed[block] = True
    plan += [("pickup", b) for b, t in target.items() if t == HAND]
    return plan


def _height(block: str, below: dict[str, str]) -> int:
    height = 0
    while below[block] != TABLE:
        block = below[block]
        height += 1
    return height

