"""One ground task for the ground truth and a renamed prediction
(planetarium.equivalence.shared_task), kept answers that settle a goal with implied facts added
(planetarium.strips.forced), and the cheap proofs of "no plan" run first on a kept ground task
(planetarium.strips.refuting).

The prediction is asked in the ground truth's names and its answer renamed back: the result must
be what asking it as written gives, and the ground task must be the ground truth's.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial

import pytest

from planetarium.equivalence.closure import literal_closure
from planetarium.equivalence.shared_task import (
    asked_in_truth_names,
    onto_truth,
    renamed_closure,
    renamed_goal,
)
from planetarium.graph import INIT, problem_graph
from planetarium.limits import Deadline
from planetarium.pddl.problem import Problem
from planetarium.strips.forced import forget_ground_tasks, goal_states
from planetarium.strips.refuting import solve_or_refute
from planetarium.testing.acp_problems import GENERATORS
from planetarium.testing.pairs import renamed

# Engine calls below the entry points need the item's deadline (the deadline rule).
pytestmark = pytest.mark.usefixtures("item_deadline")


def init_graph(p: Problem):
    return problem_graph(p.objects, p.object_types, [(INIT, p.init)])


def test_renamed_prediction_is_answered_on_the_truths_ground_task():
    for name in ("depots", "swap", "ferry", "grid"):
        gen = GENERATORS[name]
        domain, definition = gen.domain, gen.domain.definition
        for seed in range(2):
            rng = random.Random(seed)
            truth = gen.problem(rng, gen.small, negative=seed == 1)
            prediction = renamed(truth, rng)
            forget_ground_tasks()
            expected_goal = domain.fully_specify(replace(prediction, negative_goal=frozenset()))
            expected_closure = literal_closure(domain, prediction)
            renaming = onto_truth(truth, prediction, init_graph(truth), init_graph(prediction))
            assert renaming is not None and set(renaming.values()) == set(truth.objects)
            forget_ground_tasks()
            shared = goal_states(definition, truth)
            got_goal = asked_in_truth_names(
                truth, replace(prediction, negative_goal=frozenset()), init_graph(truth),
                init_graph(prediction), domain.fully_specify, renamed_goal)
            got_closure = asked_in_truth_names(
                truth, prediction, init_graph(truth), init_graph(prediction),
                partial(literal_closure, domain), renamed_closure)
            assert got_goal == expected_goal, (name, seed)
            assert got_closure == expected_closure, (name, seed)
            assert goal_states(definition, truth) is shared  # nothing grounded anew


def test_initial_states_that_differ_give_no_renaming():
    gen = GENERATORS["ferry"]
    truth = gen.problem(random.Random(0), gen.small)
    other = replace(truth, init=truth.init - {min(truth.init)})
    assert onto_truth(truth, other, init_graph(truth), init_graph(other)) is None


def test_implied_facts_added_reuse_the_answer_and_an_unreachable_goal_stays_so():
    """A goal plus atoms forced there has the same goal states; adding literals to a goal no
    state reaches reaches none.  Each kept answer equals the one computed from cold."""
    gen = GENERATORS["depots"]
    definition = gen.domain.definition
    truth = gen.problem(random.Random(3), gen.small)
    unreachable = gen.problem(random.Random(3), gen.small, goal="unreachable")
    forced = gen.domain.fully_specify(truth)
    assert forced is not None
    fuller = replace(truth, goal=frozenset(sorted(forced - truth.goal)[:3]) | truth.goal)
    more = replace(unreachable, goal=unreachable.goal | truth.goal)
    answers = [gen.domain.fully_specify(p) for p in (fuller, unreachable, more)]
    forget_ground_tasks()
    assert answers == [gen.domain.fully_specify(p) for p in (fuller, unreachable, more)]
    assert answers[0] == forced and answers[1] is None and answers[2] is None
    states = goal_states(definition, truth)
    assert states.forced(states.mask(fuller.goal), 0) == states.mask(forced)


def test_unsolvable_answer_on_a_kept_ground_task_is_refuted_before_the_planner_runs():
    """Swap with one role asked of two agents: the planner alone needs more than the 0.3 s
    given (8! states), h^2 on the ground truth's kept ground task refutes it at once."""
    gen = GENERATORS["swap"]
    truth = gen.problem(random.Random(1), gen.acp)
    (_, first, role), (_, second, _) = sorted(a for a in truth.init if a[0] == "assigned")[:2]
    wrong = replace(truth, goal=frozenset({("assigned", first, role), ("assigned", second, role)}))
    forget_ground_tasks()
    assert goal_states(gen.domain.definition, truth).compatible  # grading the truth keeps it
    assert solve_or_refute(gen.domain.definition, wrong, Deadline.start(0.3)) is None


def test_a_renaming_that_maps_the_truths_goal_into_the_predictions_is_preferred():
    """Swap's agents look alike in the initial state: any renaming of them keeps it, but only
    one that also maps the goal lets the kept answer of the truth settle a prediction that adds
    implied facts (the prediction's own answer is then not searched for)."""
    gen = GENERATORS["swap"]
    for seed in range(4):
        rng = random.Random(seed)
        truth = gen.problem(rng, gen.acp)
        statics = sorted(a for a in truth.init if a[0] == "not-eq")[:3]
        prediction = renamed(replace(truth, goal=truth.goal | frozenset(statics)), rng)
        renaming = onto_truth(truth, prediction, init_graph(truth), init_graph(prediction))
        assert renaming is not None
        assert {(a[0], *(renaming[x] for x in a[1:])) for a in prediction.goal} >= truth.goal
        forget_ground_tasks()
        expected = gen.domain.fully_specify(prediction)
        forget_ground_tasks()
        states = goal_states(gen.domain.definition, truth)
        gen.domain.fully_specify(truth)
        asked = len(states._answers)
        got = asked_in_truth_names(truth, prediction, init_graph(truth), init_graph(prediction),
                                   gen.domain.fully_specify, renamed_goal)
        assert got == expected
        assert len(states._answers) == asked + 1  # read off the truth's answer: no new search


def test_a_goal_state_found_is_a_plan_and_a_goal_known_unreachable_needs_no_search():
    """The solvability check after the equivalence check: the plan to the goal state the
    engine found is returned (replayed by the validator in grading), and a goal the engine
    proved unreachable is refuted from the kept answer, without a planner run."""
    gen = GENERATORS["swap"]
    definition = gen.domain.definition
    truth = gen.problem(random.Random(1), gen.acp)
    (_, first, role), (_, second, _) = sorted(a for a in truth.init if a[0] == "assigned")[:2]
    wrong = replace(truth, goal=frozenset({("assigned", first, role), ("assigned", second, role)}))
    forget_ground_tasks()
    assert gen.domain.fully_specify(truth) is not None
    assert gen.domain.fully_specify(wrong) is None
    states = goal_states(definition, truth)
    plan = states.plan_found(states.mask(truth.goal))
    assert plan  # the goal does not hold initially: a plan of one step or more
    state = states.init
    for step in plan:
        pre, add, delete = states.ops[states.tables.by_step[tuple(step)]]
        assert state & pre == pre
        state = (state & ~delete) | add
    assert state & states.mask(truth.goal) == states.mask(truth.goal)
    assert states.known_unreachable(states.mask(wrong.goal))
    assert solve_or_refute(definition, wrong, Deadline.start(0.5)) is None
