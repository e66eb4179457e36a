"""The held-out leak check's invariant is an isomorphism invariant, and the finder finds the
known ways combinations meet."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from planetarium.dataset.config import load_config
from planetarium.dataset.generator import generate
from planetarium.dataset.leaks import LeakFinder, problem_invariant
from planetarium.dataset.problem_text import read_generated
from planetarium.domains import get_domain
from planetarium.tasks import DoesNotFit

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo.yaml"


@pytest.fixture(scope="module")
def problems():
    rows = generate(load_config(DEMO), workers=1)
    return [read_generated(pddl) for pddl in dict.fromkeys(r["problem_pddl"] for r in rows)]


def _renamed(problem, rng: random.Random):
    """The same problem with its objects renamed at random (types kept)."""
    names = list(problem.objects)
    rng.shuffle(names)
    to = dict(zip(problem.objects, names, strict=True))
    move = lambda atoms: frozenset((a[0], *(to[x] for x in a[1:])) for a in atoms)  # noqa: E731
    order = sorted(range(len(names)), key=lambda i: to[problem.objects[i]])
    return replace(problem, objects=tuple(to[problem.objects[i]] for i in order),
                   object_types=tuple(problem.object_types[i] for i in order),
                   init=move(problem.init), goal=move(problem.goal))


def test_renaming_objects_or_stating_implied_goal_facts_keeps_the_invariant(problems):
    rng = random.Random(7)
    checked = 0
    for problem in problems:
        domain = get_domain(problem.domain)
        invariant = problem_invariant(problem, domain)
        assert invariant is not None
        for _ in range(3):
            assert problem_invariant(_renamed(problem, rng), domain) == invariant, problem.name
        full = domain.fully_specify(problem)
        assert problem_invariant(replace(problem, goal=full), domain) == invariant, problem.name
        checked += 1
    assert checked > 150


def test_the_invariant_tells_a_goal_from_its_inverse(problems):
    tower = next(p for p in problems if p.name == "tower_to_tower_1_2")
    invert = next(p for p in problems if p.name == "invert_to_invert_1_2")
    domain = get_domain("blocksworld")
    assert problem_invariant(tower, domain) != problem_invariant(invert, domain)


def _problem(domain: str, init: str, goal: str, param):
    tasks = get_domain(domain).dataset_tasks()
    instance = tasks.build(tasks.layout_by_name[init], tasks.layout_by_name[goal], param)
    from planetarium.pddl.problem import Problem

    types = instance.object_types or ("object",) * len(instance.objects)
    return Problem(f"{init}_to_{goal}", domain, instance.objects, types, frozenset(instance.init),
                   frozenset(instance.goal))


def test_the_finder_finds_where_combinations_meet():
    """Carrying every ball from one room with as many grippers is dropping nothing and picking
    everything up; inverting two stacked blocks is a stack made a tower."""
    gripper = get_domain("gripper")
    counted = {"balls_in_grippers": [0, 0], "balls_in_rooms": [2, 0]}
    test = _problem("gripper", "one_room", "drop_and_pickup", counted)
    finder = LeakFinder(gripper, [(test, problem_invariant(test, gripper))])
    pickup = _problem("gripper", "one_room", "pickup", counted)
    assert finder.is_test_problem(pickup, problem_invariant(pickup, gripper))
    holding = _problem("gripper", "one_room", "holding", counted)  # nothing held: grippers free
    invariant = problem_invariant(holding, gripper)
    assert not (finder.may_be_test_problem(invariant) and finder.is_test_problem(holding, invariant))

    blocks = get_domain("blocksworld")
    inverted = _problem("blocksworld", "invert", "invert", [2])
    finder = LeakFinder(blocks, [(inverted, problem_invariant(inverted, blocks))])
    made_tower = _problem("blocksworld", "stack", "tower", [2])
    assert finder.is_test_problem(made_tower, problem_invariant(made_tower, blocks))
    with pytest.raises(DoesNotFit):
        _problem("blocksworld", "invert", "tower", [2])
