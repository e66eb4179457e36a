"""planetarium.strips.relaxed against brute force on small real tasks (ACPBench dev fixtures)."""

from pathlib import Path

import pytest

from planetarium.acp.data import load_items
from planetarium.acp.questions import question_task
from planetarium.errors import ResourceLimitError
from planetarium.strips.grounding import ground_actions, reachable_states
from planetarium.strips.relaxed import (
    LMCut,
    astar_length,
    h2_mutex,
    h2_reachable_pairs,
    optimal_length,
    relaxed_closure,
)
from planetarium.strips.search import bit_task

FIXTURES = Path(__file__).parent / "fixtures" / "acp"
SMALL = [i for i in load_items(FIXTURES) if i.kind == "gen"
         and question_task(i).domain.name in ("blocksworld-4ops", "ferry")
         and len(question_task(i).problem.objects) <= 8]


def _states(task):
    return list(reachable_states(list(ground_actions(task.domain, task.problem)), task.state,
                                 200_000))


@pytest.mark.parametrize("item", SMALL[:4], ids=lambda i: f"{i.task}-{i.id}")
def test_relaxation_and_h2_over_approximate_the_reachable_states(item):
    task = question_task(item)
    states = _states(task)
    closure = relaxed_closure(task.relaxed()[0], task.state)
    pairs = h2_reachable_pairs(task.relaxed()[0], task.state)
    for state in states:
        assert state <= closure
        assert h2_mutex(pairs, state) is None  # no two atoms of a reachable state are mutex


def test_h2_finds_a_mutex_the_relaxation_misses():
    item = next(i for i in SMALL if question_task(i).domain.name == "blocksworld-4ops")
    task = question_task(item)
    pairs = h2_reachable_pairs(task.relaxed()[0], task.state)
    block = task.problem.objects[0]
    both = [("holding", block), ("clear", block)]
    assert set(both) <= relaxed_closure(task.relaxed()[0], task.state)
    assert h2_mutex(pairs, both) is not None


@pytest.mark.parametrize("item", [i for i in SMALL if i.task == "nexta"][:3] or SMALL[:2],
                         ids=lambda i: f"{i.task}-{i.id}")
def test_astar_lmcut_equals_breadth_first_and_lmcut_is_admissible(item):
    task = question_task(item)
    ground = bit_task(task.relaxed()[0], task.state, task.problem.goal)
    exact = optimal_length(ground, 500_000)
    assert astar_length(ground, 500_000) == exact
    assert LMCut(ground)(ground.init) <= exact
    if exact:
        assert optimal_length(ground, 500_000, bound=exact - 1) is None
        assert astar_length(ground, 500_000, bound=exact - 1) is None


def test_forbidding_every_goal_achiever_makes_the_goal_relaxed_unreachable():
    task = question_task(SMALL[0])
    missing = next(iter(task.problem.goal - task.state))
    closure = relaxed_closure(task.relaxed()[0], task.state, [missing])
    assert missing not in closure


@pytest.mark.parametrize("item", [i for i in load_items(FIXTURES) if i.kind == "gen"
                                  and i.task in ("nexta", "land")][:8],
                         ids=lambda i: f"{i.task}-{i.id}")
def test_merging_symmetric_states_keeps_the_optimal_length(item):
    from planetarium.strips.symmetry import StateMerger, interchangeable, schema_constants

    task = question_task(item)
    ground = bit_task(task.relaxed()[0], task.state, task.problem.goal)
    static = [a for a in task.state if a[0] in task.domain.static_predicates]
    classes = interchangeable(task.types, static, task.problem.goal,
                              schema_constants(task.domain))
    merge = StateMerger(ground.atoms, classes)
    try:
        exact = optimal_length(ground, 300_000)
    except ResourceLimitError:  # too big to enumerate without merging: compare with A*
        exact = astar_length(ground, 300_000)
    assert optimal_length(ground, 300_000, merge=merge) == exact
    assert astar_length(ground, 300_000, merge=merge) == exact


def test_interchangeable_objects_of_a_ferry_task():
    from planetarium.strips.symmetry import interchangeable

    objects = {"c1": "car", "c2": "car", "c3": "car", "l0": "location", "l1": "location"}
    static = [("not-eq", "l0", "l1"), ("not-eq", "l1", "l0")]
    goal = [("at", "c1", "l1"), ("at", "c2", "l1"), ("at", "c3", "l0")]
    assert interchangeable(objects, static, goal) == [["c1", "c2"]]
    assert interchangeable(objects, static, goal, fixed={"c1"}) == []


def test_h2_stops_at_its_deadline():
    from planetarium.limits import Clock, Deadline, wall_now

    task = question_task(SMALL[0])
    spent = Deadline(1.0, Clock.CPU, Clock.CPU.read() - 1, wall_now() + 60)  # CPU time is up
    with pytest.raises(ResourceLimitError, match="h\\^2"):
        h2_reachable_pairs(task.relaxed()[0], task.state, spent)
