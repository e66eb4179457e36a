"""planetarium.reasoning against brute force: every reachable state enumerated explicitly
(strips.grounding) on small tasks, including ones only an exhaustive search can settle."""

from __future__ import annotations

import random
from collections import deque
from pathlib import Path

import pytest

from planetarium.acp.data import load_items
from planetarium.acp.questions import question_task
from planetarium.errors import ResourceLimitError
from planetarium.limits import Clock, Deadline
from planetarium.reasoning import (
    FalsePremise,
    GroundedTask,
    Method,
    NotAnAction,
    Planner,
    action_reachable,
    all_actions_reachable,
    all_atoms_reachable,
    check_plan,
    is_landmark,
    next_action,
    nontrivial_landmark,
    optimal_cost,
    reachable,
    read_task,
)
from planetarium.strips.grounding import ground_actions, reachable_states

FIXTURES = Path(__file__).parent / "fixtures"

#: Three switches, each set action turning its switch on and the next one off: any two can be
#: on together, all three never (h^2 sees pairs only).  ``win`` needs all three; ``win-alt``
#: needs a key.  So (key) is a landmark only an exhaustive search can prove, and without
#: ``get-key`` the goal is unreachable only by search.
SWITCHES = """(define (domain switches)
  (:requirements :strips)
  (:predicates (on1) (on2) (on3) (off1) (off2) (off3) (key) (won))
  (:action set1 :parameters () :precondition (and (off1))
    :effect (and (on1) (not (off1)) (off2) (not (on2))))
  (:action set2 :parameters () :precondition (and (off2))
    :effect (and (on2) (not (off2)) (off3) (not (on3))))
  (:action set3 :parameters () :precondition (and (off3))
    :effect (and (on3) (not (off3)) (off1) (not (on1))))
  (:action win :parameters () :precondition (and (on1) (on2) (on3)) :effect (and (won)))
  (:action win-alt :parameters () :precondition (and (key)) :effect (and (won)))
  (:action get-key :parameters () :precondition (and (off1) (off2)) :effect (and (key))))"""
SWITCHES_PROBLEM = """(define (problem s) (:domain switches)
  (:init (off1) (off2) (off3)) (:goal (and (won))))"""


def _deadline() -> Deadline:
    return Deadline.start(20.0, Clock.CPU)


def _task(domain: str, problem: str) -> GroundedTask:
    return GroundedTask(*read_task(domain, problem))


def _small_tasks() -> list[GroundedTask]:
    items = [i for i in load_items(FIXTURES / "acp") if i.kind == "gen"]
    tasks = [question_task(i) for i in items]
    return [t for t in tasks if t.domain.name in ("blocksworld-4ops", "ferry", "grid")
            and len(t.problem.objects) <= 8][:6] + [_task(SWITCHES, SWITCHES_PROBLEM)]


SMALL = _small_tasks()


class Brute:
    """Every state reachable from the current state, and each one's distance to the goal."""

    def __init__(self, task: GroundedTask, without: tuple = ()) -> None:
        self.actions = [a for a in ground_actions(task.domain, task.problem)
                        if not set(without) & a.add]
        self.states = list(reachable_states(self.actions, task.state, 100_000))
        self.goal = task.problem.goal

    def goal_reachable(self) -> bool:
        return any(self.goal <= s for s in self.states)

    def distances(self) -> dict:
        """Goal distance of every reachable state (absent: the goal is unreachable from it)."""
        back: dict = {}
        for s in self.states:
            for a in self.actions:
                if a.pre <= s:
                    back.setdefault(a.apply(s), set()).add(s)
        dist = {s: 0 for s in self.states if self.goal <= s}
        queue = deque(dist)
        while queue:
            s = queue.popleft()
            for p in back.get(s, ()):
                if p not in dist:
                    dist[p] = dist[s] + 1
                    queue.append(p)
        return dist


@pytest.mark.parametrize("task", SMALL, ids=lambda t: t.domain.name)
def test_applicability_progression_and_runs_match_the_ground_actions(task):
    rng = random.Random(0)
    actions = {(a.name,) + a.args: a for a in ground_actions(task.domain, task.problem)}
    state = task.state
    for _ in range(6):
        truth = {s for s, a in actions.items() if a.pre <= state}
        assert task.applicable_actions(state) == truth
        for step, action in actions.items():
            assert task.unmet(state, step) == action.pre - state
        if not truth:
            break
        step = rng.choice(sorted(truth))
        after = task.progress(state, step)
        assert after == actions[step].apply(state)
        assert task.effects(state, step) == (after - state, state - after)
        state = after


@pytest.mark.parametrize("task", SMALL, ids=lambda t: t.domain.name)
def test_a_task_over_the_objects_alone_answers_as_the_problems_task(task):
    bare = GroundedTask.over_objects(task.domain, task.types, task.state)
    actions = {(a.name,) + a.args: a for a in ground_actions(task.domain, task.problem)}
    assert bare.applicable_actions() == {s for s, a in actions.items() if a.pre <= task.state}
    for step, action in actions.items():
        assert bare.unmet(task.state, step) == action.pre - task.state
        assert bare.action(step) is bare.action(step)  # grounded once


def test_run_stops_at_the_first_inexecutable_step_and_says_why():
    task = _task(SWITCHES, SWITCHES_PROBLEM)
    trace = task.run(task.state, [("set1",), ("set2",), ("set1",), ("set3",)])
    assert len(trace.states) == 3 and trace.final == {("on1",), ("on2",), ("off3",)}
    failure = trace.failure
    assert failure is not None and failure.index == 2 and failure.missing == {("off1",)}
    assert failure.is_action and "(off1)" in failure.reason
    for bad, why in ((("fly",), "not an action"), (("set1", "x"), "takes 0 argument")):
        failure = task.run(task.state, [("set1",), bad]).failure
        assert failure is not None and failure.index == 1 and not failure.is_action
        assert why in failure.reason
    with pytest.raises(NotAnAction, match="false precondition"):
        task.progress(task.state, ("win",))
    assert check_plan(task, [("get-key",), ("win-alt",)]).ok
    assert check_plan(task, [("get-key",)]).unmet == {("won",)}


def test_objects_and_types_are_checked():
    item = next(i for i in load_items(FIXTURES / "acp") if i.kind == "gen"
                and question_task(i).domain.name == "ferry")
    task = question_task(item)
    car = next(o for o, t in task.types.items() if t == "car")
    where = next(o for o, t in task.types.items() if t == "location")
    assert "not in the problem" in task.why_not_action(("board", "c999", where))
    assert "needs a" in task.why_not_action(("board", where, car))
    assert task.why_not_action(("board", car, where)) is None


@pytest.mark.parametrize("task", SMALL, ids=lambda t: t.domain.name)
def test_reachability_matches_brute_force(task):
    brute = Brute(task)
    held = set().union(*brute.states)
    planner = Planner(task)
    for atom in task.universe_atoms()[:60]:
        assert reachable(planner, [atom], _deadline()).holds == (atom in held), atom
    applicable = {(a.name,) + a.args for s in brute.states for a in brute.actions
                  if a.pre <= s}
    for step in list(task.universe_actions())[:60]:
        assert action_reachable(planner, step, _deadline()).holds == (step in applicable), step
    every_atom = all_atoms_reachable(Planner(task), _deadline())
    assert every_atom.holds == all(a in held for a in task.universe_atoms())
    if not every_atom.holds:
        assert every_atom.about not in held
    every_action = all_actions_reachable(Planner(task), _deadline())
    assert every_action.holds == all(s in applicable for s in task.universe_actions())


@pytest.mark.parametrize("task", SMALL, ids=lambda t: t.domain.name)
def test_landmarks_match_brute_force(task):
    planner = Planner(task)
    brute = Brute(task)
    assert brute.goal_reachable()
    candidates = sorted(set().union(*brute.states) - task.state - task.goal)
    found = []
    for atom in candidates[:40]:
        truth = not Brute(task, without=(atom,)).goal_reachable()
        proof = is_landmark(planner, atom, _deadline())
        assert proof.holds == truth, (atom, proof)
        if truth:
            found.append(atom)
        elif proof.plan is not None:  # the witness: a plan that never makes the atom true
            assert check_plan(task, proof.plan).ok
            assert atom not in planner.visited(proof.plan)
    some = nontrivial_landmark(Planner(task), _deadline())
    if found:
        assert some.holds and not Brute(task, without=(some.about,)).goal_reachable()


def test_a_landmark_only_an_exhaustive_search_proves():
    task = _task(SWITCHES, SWITCHES_PROBLEM)
    proof = is_landmark(Planner(task), ("key",), _deadline())
    assert proof.holds and proof.method is Method.SEARCH, proof
    assert not Brute(task, without=(("key",),)).goal_reachable()
    assert not is_landmark(Planner(task), ("on1",), _deadline()).holds  # get-key needs off1
    assert nontrivial_landmark(Planner(task), _deadline()).about == ("key",)


def test_a_false_premise_is_reported_with_its_proof():
    no_key = SWITCHES.replace(":precondition (and (off1) (off2)) :effect (and (key))",
                              ":precondition (and (won)) :effect (and (key))")
    task = _task(no_key, SWITCHES_PROBLEM)
    assert not Brute(task).goal_reachable()
    for question in (lambda p: is_landmark(p, ("on1",), _deadline()),
                     lambda p: nontrivial_landmark(p, _deadline()),
                     lambda p: optimal_cost(p, _deadline()),
                     lambda p: next_action(p, ("set1",), _deadline())):
        with pytest.raises(FalsePremise) as info:
            question(Planner(task))
        assert info.value.proof.method is Method.SEARCH and not info.value.proof.holds
    relaxed = _task(no_key.replace("(and (on1) (on2) (on3))", "(and (key))"), SWITCHES_PROBLEM)
    with pytest.raises(FalsePremise) as info:
        optimal_cost(Planner(relaxed), _deadline())
    assert info.value.proof.method is Method.RELAXED


@pytest.mark.parametrize("task", SMALL, ids=lambda t: t.domain.name)
def test_optimal_cost_and_next_actions_match_brute_force(task):
    dist = Brute(task).distances()
    planner = Planner(task)
    assert optimal_cost(planner, _deadline()) == dist[task.state]
    for step in sorted(task.applicable_actions()):
        after = task.progress(task.state, step)
        truth = dist.get(after) == dist[task.state] - 1
        assert next_action(Planner(task), step, _deadline()).holds == truth, step
        hinted = next_action(Planner(task), step, _deadline(), hint=dist[task.state])
        assert hinted.holds == truth, step
        wrong_hint = next_action(Planner(task), step, _deadline(), hint=dist[task.state] + 2)
        assert wrong_hint.holds == truth, step


def test_searches_stop_at_the_deadline_and_the_state_budget():
    item = next(i for i in load_items(FIXTURES / "acp-hard") if i.id == "9001")
    task = question_task(item)
    with pytest.raises(ResourceLimitError):
        nontrivial_landmark(Planner(task), Deadline.start(0.05, Clock.CPU))
    with pytest.raises(ResourceLimitError, match="states"):
        Planner(task, max_states=50).goal(_deadline())
