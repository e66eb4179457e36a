"""The generic fully specified goal (planetarium.strips.forced): exact where brute force can check
it, and deciding at sizes brute force cannot reach.

Brute force (every reachable state enumerated) is the referee on small random problems of the
built-in domains' files under other names (so no closed form applies) and of ACPBench domain
files the project has no code for; F+ and, for goals with negative literals, F- are compared.
Past the referee's reach, the issue's cases must be decided (equivalent or not) well within the
default deadline.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from planetarium.domains import get_domain
from planetarium.domains.base import Domain
from planetarium.equivalence import compare
from planetarium.equivalence.closure import GENERIC, literal_closure
from planetarium.limits import Deadline
from planetarium.pddl import read_problem
from planetarium.strips.forced import forget_ground_tasks, fully_specified
from planetarium.testing.acp_problems import GENERATORS
from planetarium.testing.conformance import (
    check_fully_specify,
    check_literal_closure,
    random_problems,
)
from planetarium.testing.generators import random_problem

FIXTURES = Path(__file__).parent / "fixtures"
BUILTINS = ["blocksworld", "gripper", "floor-tile", "rover-single"]


def renamed(name: str) -> Domain:
    """A built-in domain's own file under another name: only the generic path applies."""
    text = get_domain(name).pddl.replace(f"(domain {name})", f"(domain other-{name})")
    return Domain(f"other-{name}", text)


@cache
def acp_domains() -> dict[str, str]:
    """ACPBench's STRIPS domain files, by name, from the records kept as test fixtures."""
    texts: dict[str, str] = {}
    for path in sorted(FIXTURES.glob("acp*/**/*.json")):
        records = json.loads(path.read_text())
        for record in records if isinstance(records, list) else ():
            text = record.get("PDDL_domain") if isinstance(record, dict) else None
            if text and ":adl" not in text:
                texts.setdefault(re.search(r"\(domain\s+([^)\s]+)", text).group(1), text)
    return texts


@pytest.mark.parametrize("name", BUILTINS)
def test_agrees_with_brute_force_on_renamed_builtin_domains(name):
    domain = renamed(name)
    rng = random.Random(37)
    problems = [random_problem(name, rng, scale=3, arbitrary_init=rng.random() < 0.3,
                               walk_steps=rng.choice([0, 3, 6]))
                for _ in range(40)]
    problems = [replace(p, domain=domain.name) for p in problems]
    problems += random_problems(domain, count=20, seed=37, negative=True)
    report = check_fully_specify(domain, problems)
    assert report.mismatches == []
    assert report.checked >= 50
    closures = check_literal_closure(domain, problems[-20:])
    assert closures.mismatches == [] and closures.checked >= 15


def test_agrees_with_brute_force_on_acpbench_domains():
    """At least ten domains the project has no code for: F+ and the closures with F-."""
    domains = acp_domains()
    assert len(domains) >= 10, sorted(domains)
    for name, text in sorted(domains.items()):
        domain = Domain(name, text)
        problems = random_problems(domain, count=8, seed=37, negative=True)
        report = check_fully_specify(domain, problems, max_states=5_000)
        closures = check_literal_closure(domain, problems, max_states=5_000)
        assert report.mismatches == [] and closures.mismatches == [], name
        assert report.checked >= 5 and closures.checked >= 5, name


@pytest.mark.usefixtures("item_deadline")
def test_generic_closure_is_the_one_used_where_no_closed_form_covers():
    domain = renamed("gripper")
    problem = read_problem(
        "(define (problem p) (:domain other-gripper) (:objects r1 r2 b1 left)"
        " (:init (room r1) (room r2) (ball b1) (gripper left) (at-robby r1) (at b1 r1)"
        " (free left)) (:goal (and (at b1 r2) (not (at-robby r2)))))", domain.definition)
    closure = literal_closure(domain, problem)
    assert closure is not None and closure.how == GENERIC
    assert ("at-robby", "r1") in closure.positive and ("free", "left") in closure.positive
    assert ("carry", "b1", "left") in closure.negative
    assert closure.positive_only  # F+ holds at-robby(r1): the negative literal cuts nothing


def _gripper(goal: str, balls: int = 4, rooms: int = 10) -> str:
    objects = [f"room{i}" for i in range(rooms)] + [f"ball{i}" for i in range(balls)]
    init = ([f"(room room{i})" for i in range(rooms)]
            + [f"(ball ball{i}) (at ball{i} room0)" for i in range(balls)]
            + ["(gripper left) (gripper right) (free left) (free right) (at-robby room0)"])
    return (f"(define (problem g) (:domain other-gripper) (:objects {' '.join(objects)} left"
            f" right) (:init {' '.join(init)}) (:goal (and {goal})))")


def test_ipc_gripper_goals_extended_by_forced_and_by_unforced_facts():
    """The issue's case: 4 balls and 10 rooms, both grippers free added (equivalent) and the
    robot's final room added (not equivalent); the brute force gave up on both."""
    domain = renamed("gripper")
    goal = " ".join(f"(at ball{i} room{i + 3})" for i in range(4))
    truth = read_problem(_gripper(goal), domain.definition)
    free = read_problem(_gripper(goal + " (free left) (free right)"), domain.definition)
    robot = read_problem(_gripper(goal + " (at-robby room6)"), domain.definition)
    with Deadline.start(60).applied():
        assert compare(truth, free, domain).equivalent
        assert not compare(truth, robot, domain).equivalent


def test_blocks_world_tower_under_another_name():
    """The issue's case: a 9-block tower against the same tower with what every goal state
    holds added (``clear``, ``on-table``, ``arm-empty``)."""
    domain = renamed("blocksworld")
    blocks = [f"b{i}" for i in range(1, 10)]
    init = " ".join(f"(on-table {b}) (clear {b})" for b in blocks) + " (arm-empty)"
    tower = " ".join(f"(on {a} {b})" for a, b in zip(blocks, blocks[1:], strict=False))

    def problem(goal: str):
        return read_problem(f"(define (problem t) (:domain other-blocksworld) (:objects"
                            f" {' '.join(blocks)}) (:init {init}) (:goal (and {goal})))",
                            domain.definition)

    truth = problem(tower)
    with Deadline.start(60).applied():
        forced = fully_specified(domain.definition, truth)
        assert forced - truth.goal - truth.init == {("arm-empty",), ("clear", "b1"),
                                                    ("on-table", "b9")} - truth.init
        assert compare(truth, problem(tower + " (clear b1) (on-table b9) (arm-empty)"),
                       domain).equivalent
        assert not compare(truth, problem(tower + " (holding b9)"), domain).equivalent


@pytest.mark.usefixtures("item_deadline")
def test_unsolvable_goal_is_none():
    domain = renamed("blocksworld")
    problem = read_problem("(define (problem t) (:domain other-blocksworld) (:objects a b)"
                           " (:init (on-table a) (on-table b) (clear a) (clear b) (arm-empty))"
                           " (:goal (and (on a b) (on b a))))", domain.definition)
    assert fully_specified(domain.definition, problem) is None


def test_goals_sharing_an_initial_state_are_answered_as_if_alone():
    """One ground task serves every goal over the same objects and initial state (kept per
    process): asked in turn, from a cold start, the goals still get brute force's answers (the
    goal states found for one goal never stand in for another's)."""
    forget_ground_tasks()
    for name in ("depots", "swap", "gripper-strips", "ferry"):
        gen = GENERATORS[name]
        for seed in range(2):
            base = gen.problem(random.Random(seed), gen.small, negative=True)
            goals = sorted(base.goal)
            problems = [base, replace(base, negative_goal=frozenset())]
            problems += [replace(base, goal=frozenset(goals[:i]), negative_goal=frozenset())
                         for i in range(1, len(goals))]
            problems += [replace(base, goal=base.goal - {atom},
                                 negative_goal=base.negative_goal | {atom}) for atom in goals]
            report = check_fully_specify(gen.domain, problems, max_states=20_000)
            closures = check_literal_closure(gen.domain, problems, max_states=20_000)
            assert report.mismatches == [] and closures.mismatches == [], (name, seed)
            assert report.checked == closures.checked == len(problems), (name, seed)


def test_depots_witness_that_brings_another_crate():
    """Crate 0 asked at distributor 1, where it starts on pallet 2 under three crates: a goal
    state with crate 0 elsewhere than on pallet 2 needs a truck to carry the crates away and a
    crate put back on the pallet first.  FF guides no search towards "not on pallet 2" (10 s
    were not enough); a positive stand-in mutex with it ("on crate 1") leads there at once."""
    domain = Domain("depots", GENERATORS["depots"].domain.pddl)
    places = "depot0 - depot distributor0 distributor1 - distributor"
    problem = read_problem(
        f"(define (problem d) (:domain depots) (:objects {places} truck0 truck1 - truck"
        " pallet0 pallet1 pallet2 - pallet crate0 crate1 crate2 crate3 crate4 - crate"
        " hoist0 hoist1 hoist2 - hoist) (:init (at pallet0 depot0) (at pallet1 distributor0)"
        " (at pallet2 distributor1) (at hoist0 depot0) (at hoist1 distributor0)"
        " (at hoist2 distributor1) (at truck0 depot0) (at truck1 distributor0)"
        " (available hoist0) (available hoist1) (available hoist2)"
        " (at crate0 distributor1) (on crate0 pallet2) (at crate1 distributor1) (on crate1 crate0)"
        " (at crate3 distributor1) (on crate3 crate1) (at crate4 distributor1) (on crate4 crate3)"
        " (clear crate4) (at crate2 depot0) (on crate2 pallet0) (clear crate2) (clear pallet1))"
        " (:goal (at crate0 distributor1)))", domain.definition)
    forget_ground_tasks()
    with Deadline.start(5).applied():
        forced = fully_specified(domain.definition, problem)
    assert forced is not None
    moving = {a for a in forced - problem.goal if a[0] not in domain.definition.static_predicates}
    assert moving == {("at", "hoist0", "depot0"), ("at", "hoist1", "distributor0"),
                      ("at", "hoist2", "distributor1"), ("at", "pallet0", "depot0"),
                      ("at", "pallet1", "distributor0"), ("at", "pallet2", "distributor1")}


def test_the_plan_to_a_goal_state_found_validates_and_an_unreachable_goal_stays_known(
        item_deadline):
    """What the solvability check reads off a kept ground task (``GoalStates.plan_found``,
    ``known_unreachable``): the plan to the goal state the engine found passes the validator;
    a goal the engine proved unreachable is known so, and so is any goal that adds to it."""
    from planetarium.strips.forced import goal_states
    from planetarium.strips.validate import validate_plan

    domain = renamed("blocksworld")
    text = ("(define (problem t) (:domain other-blocksworld) (:objects a b c) (:init"
            " (on-table b) (on a c) (clear b) (clear a) (on-table c) (arm-empty))"
            " (:goal (and {})))")
    solvable = read_problem(text.format("(on c b) (on b a)"), domain.definition)
    states = goal_states(domain.definition, solvable)
    assert states.plan_found(states.mask(solvable.goal)) is None  # nothing searched yet
    assert domain.fully_specify(solvable) is not None
    plan = states.plan_found(states.mask(solvable.goal))
    assert plan and validate_plan(domain.definition, solvable, plan).ok
    impossible = read_problem(text.format("(on a b) (on b a)"), domain.definition)
    assert not states.known_unreachable(states.mask(impossible.goal))
    assert domain.fully_specify(impossible) is None
    assert states.known_unreachable(states.mask(impossible.goal))
    assert states.known_unreachable(states.mask(impossible.goal | {("clear", "c")}))
