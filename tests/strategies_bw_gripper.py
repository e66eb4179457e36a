"""Hypothesis strategies for small Blocks World and Gripper problems.

Shared by the fully_specify tests and the graph-vs-brute-force equivalence tests.  Every
strategy returns :class:`~planetarium.pddl.problem.Problem` objects small enough for the brute
force (blocksworld <= 5 blocks; gripper <= 3 rooms, 4 balls, 2 grippers).  Object names are drawn
from pools that include names of predicates and kinds (``table``, ``on``, ``room``, ``free``...)
so nothing may confuse a name with a keyword.

Initial states are well-formed (states the dataset could write) or *mutated* (up to two atoms
removed and two random atoms added: blocks resting nowhere, stuck grippers, two robot
positions, ...).  Goals are random subsets of a random well-formed state, sometimes with random
extra atoms that often make them unsatisfiable.

Also here: :func:`specify_checker` (fully_specify must equal the brute force) and
:func:`read_small` (a problem from three strings of PDDL facts), shared by both domains' tests.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from types import ModuleType
from unittest import mock

from hypothesis import strategies as st

from planetarium.domains import Domain
from planetarium.pddl import read_problem
from planetarium.pddl.domain import Atom, DomainDef
from planetarium.pddl.problem import Problem
from planetarium.strips.exact import reachable_goal_intersection

BLOCK_NAMES = ("b1", "b2", "b3", "b4", "b5", "table", "clear", "arm", "on", "holding")
ROOM_NAMES = ("rooma", "roomb", "room", "at", "free")
BALL_NAMES = ("ball1", "ball2", "ball3", "ball4", "ball", "carry")
GRIPPER_NAMES = ("left", "right", "gripper", "robby")

BW_ARITY = {"clear": 1, "on-table": 1, "arm-empty": 0, "holding": 1, "on": 2}
GRIPPER_ARITY = {"room": 1, "ball": 1, "gripper": 1, "at-robby": 1, "at": 2, "free": 1,
                 "carry": 2}


def _problem(domain: str, objects: list[str], init: set[Atom], goal: set[Atom]) -> Problem:
    return Problem(name="p", domain=domain, objects=tuple(objects),
                   object_types=("object",) * len(objects),
                   init=frozenset(init), goal=frozenset(goal))


def random_atoms(objects: list[str], arity: dict[str, int], min_size: int = 0,
                 max_size: int = 2) -> st.SearchStrategy[list[Atom]]:
    """A few atoms of any predicate over ``objects`` (possibly absurd, like ``(on b1 b1)``)."""
    preds = [p for p, n in arity.items() if n == 0 or objects]
    if not preds:
        return st.just([])
    atom = st.sampled_from(preds).flatmap(
        lambda pred: st.tuples(st.just(pred), *[st.sampled_from(objects)] * arity[pred]))
    return st.lists(atom, min_size=min_size, max_size=max_size)


@st.composite
def blocksworld_state(draw, blocks: list[str]) -> set[Atom]:
    """A random well-formed configuration: random towers, maybe one block in the hand."""
    order = draw(st.permutations(blocks))
    held = order[0] if order and draw(st.booleans()) else None
    towers: list[list[str]] = []
    for block in order[1 if held else 0:]:
        if towers and draw(st.booleans()):
            draw(st.sampled_from(towers)).append(block)
        else:
            towers.append([block])
    state: set[Atom] = {("holding", held)} if held else {("arm-empty",)}
    for tower in towers:
        state.add(("on-table", tower[0]))
        state.update(("on", upper, lower) for lower, upper in pairwise(tower))
        state.add(("clear", tower[-1]))
    return state


@st.composite
def gripper_state(draw, rooms: list[str], balls: list[str], grippers: list[str]) -> set[Atom]:
    """A random placement: robot in a room, each ball in a room or a gripper, free iff empty."""
    state: set[Atom] = set()
    if rooms:
        state.add(("at-robby", draw(st.sampled_from(rooms))))
    empty = list(grippers)
    for ball in balls:
        if empty and (not rooms or draw(st.booleans())):
            state.add(("carry", ball, empty.pop(draw(st.integers(0, len(empty) - 1)))))
        elif rooms:
            state.add(("at", ball, draw(st.sampled_from(rooms))))
    state.update(("free", g) for g in empty)
    return state


@st.composite
def mutated(draw, state: set[Atom], objects: list[str], arity: dict[str, int]) -> set[Atom]:
    """``state`` with up to two atoms removed and up to two random atoms added."""
    out = set(state)
    for atom in draw(st.lists(st.sampled_from(sorted(state)), max_size=2)) if state else ():
        out.discard(atom)
    out.update(draw(random_atoms(objects, arity)))
    return out


@st.composite
def partial_goal(draw, target: set[Atom], objects: list[str], arity: dict[str, int]) -> set[Atom]:
    """A random subset of ``target``, sometimes with random extra atoms."""
    keep = draw(st.floats(0.0, 1.0))
    flags = draw(st.lists(st.floats(0.0, 1.0), min_size=len(target), max_size=len(target)))
    goal = {a for a, f in zip(sorted(target), flags) if f < keep}
    if draw(st.integers(0, 3)) == 0:
        goal.update(draw(random_atoms(objects, arity, min_size=1)))
    return goal


@st.composite
def blocksworld_problems(draw, max_blocks: int = 5, well_formed: bool = True) -> Problem:
    """A blocksworld problem; ``well_formed=False`` mutates the initial state."""
    blocks = draw(st.lists(st.sampled_from(BLOCK_NAMES), max_size=max_blocks, unique=True))
    init = draw(blocksworld_state(blocks))
    if not well_formed:
        init = draw(mutated(init, blocks, BW_ARITY))
    goal = draw(partial_goal(draw(blocksworld_state(blocks)), blocks, BW_ARITY))
    return _problem("blocksworld", blocks, init, goal)


@st.composite
def gripper_problems(draw, max_rooms: int = 3, max_balls: int = 4, max_grippers: int = 2,
                     well_formed: bool = True) -> Problem:
    """A gripper problem; ``well_formed=False`` mutates the initial state (kinds included)."""
    rooms = draw(st.lists(st.sampled_from(ROOM_NAMES), max_size=max_rooms, unique=True))
    balls = draw(st.lists(st.sampled_from(BALL_NAMES), max_size=max_balls, unique=True))
    grippers = draw(st.lists(st.sampled_from(GRIPPER_NAMES), max_size=max_grippers, unique=True))
    objects = rooms + balls + grippers
    kinds = ({("room", r) for r in rooms} | {("ball", b) for b in balls}
             | {("gripper", g) for g in grippers})
    init = kinds | draw(gripper_state(rooms, balls, grippers))
    if not well_formed:
        init = draw(mutated(init, objects, GRIPPER_ARITY))
    target = kinds | draw(gripper_state(rooms, balls, grippers))
    goal = draw(partial_goal(target, objects, GRIPPER_ARITY))
    return _problem("gripper", draw(st.permutations(objects)), init, goal)



def specify_checker(domain: Domain, specify: ModuleType) -> Callable[[Problem], None]:
    """An assertion: ``specify.fully_specify`` equals the brute force on a problem.

    fully_specify hands ill-formed initial states to this very brute force, so the check patches
    in a cache: such problems are enumerated once, not twice.
    """
    cache: dict[Problem, frozenset[Atom] | None] = {}

    def oracle(definition: DomainDef, problem: Problem, max_states: int) -> frozenset[Atom] | None:
        assert definition is domain.definition
        if problem not in cache:
            cache[problem] = reachable_goal_intersection(definition, problem, max_states)
        return cache[problem]

    def check(problem: Problem) -> None:
        expected = oracle(domain.definition, problem, 100_000)
        with mock.patch.object(specify, "reachable_goal_intersection", oracle):
            assert specify.fully_specify(domain, problem) == expected

    return check


def read_small(domain: Domain, objects: str, init: str, goal: str) -> Problem:
    """A problem of ``domain`` from its objects, init facts and goal facts as PDDL text."""
    return read_problem(f"(define (problem p) (:domain {domain.name}) (:objects {objects})"
                        f" (:init {init}) (:goal (and {goal})))", domain.definition)
