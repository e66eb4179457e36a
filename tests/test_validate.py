"""Plan reading/writing and the validator (our VAL): exact messages, no crash on any plan."""

from __future__ import annotations

import random
from collections import deque

import pytest

from planetarium.domains import get_domain
from planetarium.errors import PDDLSyntaxError
from planetarium.pddl.problem import Problem
from planetarium.strips.grounding import ground_actions
from planetarium.strips.plan_io import format_plan, parse_plan
from planetarium.strips.validate import validate_plan

BW = get_domain("blocksworld").definition
FT = get_domain("floor-tile").definition


def _bw(init, goal, objects=("a", "b", "c")) -> Problem:
    return Problem("p", "blocksworld", tuple(objects), ("object",) * len(objects),
                   frozenset(init), frozenset(goal))


TABLE = {("on-table", "a"), ("on-table", "b"), ("on-table", "c"), ("clear", "a"),
         ("clear", "b"), ("clear", "c"), ("arm-empty",)}


# ------------------------------------------------------------------------------------ plan_io

def test_parse_plan_accepts_common_dialects():
    text = """; plan found by some planner
    1: (PICKUP A)
    (stack a b)   ; comment after an action

    0.002: (unstack a b) [1.000]
    (putdown a) [1]
    ; cost = 4 (unit cost)
    """
    assert parse_plan(text) == [("pickup", "a"), ("stack", "a", "b"), ("unstack", "a", "b"),
                                ("putdown", "a")]
    assert parse_plan("") == []
    assert parse_plan("(arm-empty-noop)") == [("arm-empty-noop",)]


@pytest.mark.parametrize("bad,line", [
    ("(pickup a)\npickup b", 2),
    ("(pickup a", 1),
    ("(pickup (a))", 1),
    ("\n\n(pickup a) (putdown a)", 3),
    ("()", 1),
    ("(pickup a) [x]", 1),
])
def test_parse_plan_names_the_bad_line(bad, line):
    with pytest.raises(PDDLSyntaxError) as err:
        parse_plan(bad)
    assert err.value.pddl_line == line
    assert f"line {line}" in str(err.value)


def test_format_plan_round_trips():
    plan = [("pickup", "a"), ("stack", "a", "b")]
    assert format_plan(plan) == "(pickup a)\n(stack a b)\n"
    assert parse_plan(format_plan(plan)) == plan


# ----------------------------------------------------------------------------------- validate

def test_valid_plan():
    result = validate_plan(BW, _bw(TABLE, {("on", "a", "b")}), [("pickup", "a"), ("stack", "a", "b")])
    assert result.ok and result.step is None and result.kind is None


def test_failing_precondition_names_step_action_and_atoms():
    result = validate_plan(BW, _bw(TABLE, {("on", "a", "b")}),
                           [("pickup", "a"), ("pickup", "b")])
    assert not result.ok
    assert result.step == 1 and result.kind == "precondition"
    assert result.unsatisfied == (("arm-empty",),)
    assert "step 2 (pickup b)" in result.message and "(arm-empty)" in result.message


def test_unmet_goal_is_listed():
    result = validate_plan(BW, _bw(TABLE, {("on", "a", "b"), ("on", "b", "c")}),
                           [("pickup", "a"), ("stack", "a", "b")])
    assert not result.ok and result.kind == "goal" and result.step is None
    assert result.unsatisfied == (("on", "b", "c"),)
    assert "(on b c)" in result.message


@pytest.mark.parametrize("plan,kind,fragment", [
    ([("fly", "a")], "unknown-action", "no action 'fly'"),
    ([("pickup",)], "arity", "takes 1 argument"),
    ([("pickup", "z")], "unknown-object", "'z' is not declared"),
    ([42], "malformed", "not an action"),
    ([()], "malformed", "not an action"),
    ([("pickup", "")], "malformed", "not an action"),
    ("(pickup a)\n(stack a", "syntax", "line 2"),
])
def test_malformed_plans_are_reported_not_raised(plan, kind, fragment):
    result = validate_plan(BW, _bw(TABLE, {("on", "a", "b")}), plan)
    assert not result.ok and result.kind == kind
    assert fragment in result.message


def test_plan_text_is_read():
    assert validate_plan(BW, _bw(TABLE, {("holding", "a")}), "; x\n1: (PICKUP a)\n").ok


def test_wrong_argument_type():
    problem = Problem("p", "floor-tile", ("r", "t1", "t2", "red"), ("robot", "tile", "tile", "color"),
                      frozenset({("robot-at", "r", "t1"), ("up", "t2", "t1")}),
                      frozenset({("robot-at", "r", "t2")}))
    result = validate_plan(FT, problem, [("up", "r", "t1", "red")])
    assert result.kind == "type" and "needs a 'tile'" in result.message
    assert validate_plan(FT, problem, [("up", "r", "t1", "t2")]).ok
    relaxed = Problem("p", "floor-tile", problem.objects, ("object",) * 4, problem.init, problem.goal)
    assert validate_plan(FT, relaxed, [("up", "r", "t1", "t2")]).ok  # relaxed typing


def test_weird_but_legal_semantics():
    # delete-then-add: move with ?from = ?to keeps the robot where it is
    gr = get_domain("gripper").definition
    init = {("room", "r"), ("at-robby", "r")}
    problem = Problem("p", "gripper", ("r",), ("object",), frozenset(init),
                      frozenset({("at-robby", "r")}))
    assert validate_plan(gr, problem, [("move", "r", "r")]).ok
    # holding and arm-empty together: pickup still applies and deletes arm-empty
    both = TABLE | {("holding", "c")}
    assert validate_plan(BW, _bw(both, {("holding", "a"), ("holding", "c")}), [("pickup", "a")]).ok


def test_validator_agrees_with_bruteforce_on_small_problems():
    """Every path of a breadth-first enumeration validates to the state it reaches, and any
    action the enumeration finds inapplicable there fails with exactly its missing atoms."""
    rng = random.Random(7)
    for domain_name, objects in (("blocksworld", ("a", "b", "c")),
                                 ("gripper", ("r1", "r2", "x", "g"))):
        definition = get_domain(domain_name).definition
        if domain_name == "blocksworld":
            init = frozenset(TABLE)
        else:
            init = frozenset({("room", "r1"), ("room", "r2"), ("ball", "x"), ("gripper", "g"),
                              ("at-robby", "r1"), ("at", "x", "r1"), ("free", "g")})
        problem = Problem("p", domain_name, objects, ("object",) * len(objects), init, frozenset())
        actions = list(ground_actions(definition, problem))
        paths = {init: []}
        queue = deque([init])
        while queue:
            state = queue.popleft()
            for action in actions:
                if action.applicable(state):
                    succ = action.apply(state)
                    if succ not in paths:
                        paths[succ] = paths[state] + [(action.name, *action.args)]
                        queue.append(succ)
        for state, path in paths.items():
            target = Problem("p", domain_name, objects, problem.object_types, init, state)
            assert validate_plan(definition, target, path).ok
            blocked = [a for a in actions if not a.applicable(state)]
            if blocked:
                bad = rng.choice(blocked)
                result = validate_plan(definition, target, path + [(bad.name, *bad.args)])
                assert result.step == len(path)
                assert set(result.unsatisfied) == bad.pre - state
