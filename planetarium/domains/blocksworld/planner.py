"""Exact, linear-time planner for Blocksworld, floating blocks included.

An initial state is *well-formed* when the hand is either empty (``arm-empty``, no ``holding``)
or holds exactly one block, every block sits in at most one place (the table, one block, or the
hand), no block carries two blocks, ``on`` has no cycle and no self-loop, and ``clear`` holds
exactly for the unheld blocks with nothing on them — except on *floating* blocks, those in no
place at all (an object no atom mentions is one).  No action can ever move a floating block
(``pickup`` needs ``on-table``, ``unstack`` needs ``on``, ``stack``/``putdown`` need
``holding``): a clear one is a fixed pedestal that takes one tower, an unclear one with nothing
on it is *blocked* for ever.  Models write such states (a block with only ``(clear b)``), so they
are decided exactly rather than searched: with thousands of objects no search would finish.

From a well-formed state every well-formed arrangement with the same floating blocks is
reachable (put every movable block on the table, then build), and the actions keep
well-formedness, so the problem is solvable iff the goal is *consistent*: floating blocks stay
where they are, nothing on or ``clear`` about a blocked block, at most one place per block and one
block per place, no self-loop or cycle, nothing on or clear about a held block, at most one held
block and not together with ``arm-empty``, no ``clear`` under a block.  The plan keeps
well-placed towers (every block down to its base already where the goal wants it), moves the
rest to the table and builds the goal towers bottom-up: at most four actions per block.

Anything else (two blocks on one block, ``holding`` with ``arm-empty``, a block on itself, ...)
is first taken apart by actions (see :func:`_repair`); if that does not lead to a plan, the
generic complete search answers or raises ResourceLimitError.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ...limits import Deadline, check_deadline
from ...pddl.domain import Atom
from ...pddl.problem import Problem
from ..base import Domain, Plan

#: Places that are not blocks; parentheses cannot occur in a PDDL name, so no object clashes.
TABLE, HAND, NOWHERE = "(table)", "(hand)", "(nowhere)"
_BASES = (TABLE, NOWHERE)  # what a tower can stand on without being on a block


def _places(atoms: Iterable[Atom]) -> dict[str, list[str]]:
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
    """The place of every block and the blocked floating blocks; None if malformed."""
    init = problem.init
    places = _places(init)
    held = [b for b, ps in places.items() if HAND in ps]
    if (("arm-empty",) in init) == bool(held) or len(held) > 1:
        return None
    where: dict[str, str] = {}
    for block in problem.objects:
        ps = places.get(block, [NOWHERE])
        if len(ps) != 1 or ps[0] == block:
            return None
        where[block] = ps[0]
    below = {b: p for b, p in where.items() if p not in (TABLE, HAND, NOWHERE)}
    on_top = {under: b for b, under in below.items()}
    if len(on_top) != len(below) or _has_cycle(below):
        return None  # two blocks on one block, or a tower standing on itself
    blocked = set()
    for block, place in where.items():
        clear = ("clear", block) in init
        if block in on_top and place == HAND:
            return None
        if place == NOWHERE and block not in on_top:
            if not clear:
                blocked.add(block)
        elif clear != (place != HAND and block not in on_top):
            return None
    return where, blocked


def _has_cycle(below: dict[str, str]) -> bool:
    """Whether following ``below`` from some block comes back to a block already on the walk.

    Each block is walked from once: a walk stops at a block an earlier walk finished (its chain
    is known to end), so the cost is linear however tall the towers are.
    """
    finished: set[str] = set()
    for start in below:
        walk = []
        on_walk: set[str] = set()
        x = start
        while x in below and x not in finished:
            if x in on_walk:
                return True
            on_walk.add(x)
            walk.append(x)
            x = below[x]
        finished.update(walk)
    return False


def _target(goal: Iterable[Atom], where: dict[str, str], blocked: set[str]) -> dict[str, str] | None:
    """A goal arrangement (block -> TABLE, HAND, NOWHERE or the block under it), or None if
    no reachable state satisfies the goal."""
    places = _places(goal)
    target: dict[str, str] = {}
    for block, now in where.items():
        if now == NOWHERE:
            if block in places:
                return None  # a floating block never moves
            target[block] = NOWHERE
            continue
        ps = set(places.get(block, [TABLE]))
        if len(ps) != 1 or block in ps:
            return None
        target[block] = ps.pop()
    held = [b for b, p in target.items() if p == HAND]
    if len(held) > 1 or (held and ("arm-empty",) in goal):
        return None
    on_top: dict[str, str] = {}
    for block, under in target.items():
        if under in (TABLE, HAND, NOWHERE):
            continue
        if (under in on_top or under in blocked or target[under] == HAND
                or ("clear", under) in goal):
            return None
        on_top[under] = block
    if any(("clear", b) in goal for b in held + sorted(blocked)):
        return None
    if _has_cycle({b: u for b, u in target.items() if u not in (TABLE, HAND, NOWHERE)}):
        return None
    return target


def solve(domain: Domain, problem: Problem, deadline: Deadline | None) -> Plan | None:
    """A plan, ``None`` if none exists; malformed states go to the bounded generic search."""
    state = _read_state(problem)
    check_deadline("the blocksworld planner")  # each step is linear: thousands of blocks take ms
    if state is None:
        prefix, repaired = _repair(domain, problem)
        state = _read_state(repaired)
        if state is not None:
            target = _target(problem.goal, *state)
            if target:
                return prefix + _plan(state[0], target)
        from ...strips.generic import generic_solve

        return generic_solve(domain.definition, problem, deadline)
    target = _target(problem.goal, *state)
    check_deadline("the blocksworld planner")
    if target is None:
        return None
    return _plan(state[0], target)


def _repair(domain: Domain, problem: Problem) -> tuple[Plan, Problem]:
    """Put down what is held and take every tower apart, as far as the actions allow.

    Model-written initial states are often malformed only in ways these moves undo (a held
    block with ``arm-empty``, ``clear`` on a covered block): if the state reached is well-formed
    and the goal consistent, the moves plus the exact plan are a plan.  Otherwise nothing is
    concluded — a malformed state may reach goals no well-formed state satisfies — and the
    generic search decides.
    """
    from ...strips.grounding import ground_action

    actions = domain.definition.actions
    state = set(problem.init)
    prefix: Plan = []

    def apply(*step: str) -> None:
        ground = ground_action(actions[step[0]], step[1:])
        state.difference_update(ground.delete)
        state.update(ground.add)
        prefix.append(step)

    while True:
        check_deadline("the blocksworld planner")  # each move rescans the state
        held = sorted(a[1] for a in state if a[0] == "holding")
        tops = sorted(a[1:] for a in state if a[0] == "on" and ("clear", a[1]) in state)
        if held:
            apply("putdown", held[0])
        elif tops and ("arm-empty",) in state:
            apply("unstack", *tops[0])
            apply("putdown", tops[0][0])
        else:
            return prefix, replace(problem, init=frozenset(state))


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
        """Whether ``block`` and everything under it already stand as the goal wants (memoised,
        and iterative: a tower of 20,000 blocks is deeper than Python's recursion limit)."""
        chain = []
        while block not in placed:
            here, want = where[block], build[block]
            if here != want or want in _BASES:
                placed[block] = here == want
                break
            chain.append(block)
            block = want
        for below in reversed(chain):
            placed[below] = placed[block]
            block = below
        return placed[block]

    on_top = {under: b for b, under in where.items() if under not in _BASES}
    for block in [b for b in where if b not in on_top]:
        # misplaced blocks form the top of each tower: take them off, top first
        while where[block] not in _BASES and not well_placed(block):
            under = where[block]
            plan += [("unstack", block, under), ("putdown", block)]
            where[block] = TABLE
            block = under
    for block in sorted(build, key=_heights(build).__getitem__):
        if build[block] not in _BASES and not well_placed(block):
            plan += [("pickup", block), ("stack", block, build[block])]
            where[block] = build[block]
            placed[block] = True
    plan += [("pickup", b) for b, t in target.items() if t == HAND]
    return plan


def _heights(below: dict[str, str]) -> dict[str, int]:
    """Each block's number of blocks under it in ``below`` (acyclic), in linear time."""
    heights: dict[str, int] = {}
    for start in below:
        chain = []
        block = start
        while block not in heights and below[block] not in _BASES:
            chain.append(block)
            block = below[block]
        height = heights.setdefault(block, 0)
        for upper in reversed(chain):
            height += 1
            heights[upper] = height
    return heights
