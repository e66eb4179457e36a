"""The goal-independent tables of the exact engine against slower references of their own.

Indexed semi-naive grounding (planetarium.strips.joins) must find exactly the action instances
whose preconditions are delete-relaxed reachable, as the cross product of the objects filtered
by the relaxed closure does; the h^2 fixpoint over bit sets with its worklist
(planetarium.strips.mutex) must equal the plain set version in planetarium.strips.relaxed; and
the tables kept per initial state (planetarium.strips.bitground), also for a renamed copy
(planetarium.strips.renaming), must change no answer.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from planetarium.domains.base import Domain
from planetarium.strips import bitground, renaming
from planetarium.strips.forced import GoalStates, fully_specified
from planetarium.strips.grounding import ground_actions
from planetarium.strips.joins import FactIndex, bindings
from planetarium.strips.relaxed import h2_reachable_pairs, relaxed_closure
from planetarium.strips.renaming import rename_atoms, rename_problem
from planetarium.strips.search import relaxed_ground
from planetarium.testing.acp_problems import GENERATORS

NAMES = sorted(GENERATORS)


def problems(name: str, count: int = 3):
    gen = GENERATORS[name]
    rng = random.Random(name)
    return gen.domain, [gen.problem(rng, size) for size in (gen.small, gen.acp)[:count]
                        for _ in range(2)]


@pytest.mark.parametrize("name", NAMES)
def test_relaxed_grounding_equals_the_filtered_cross_product(name: str) -> None:
    domain, cases = problems(name)
    for problem in cases:
        full = {(g.name, *g.args): ((g.name, *g.args), g.pre, g.add, g.delete)
                for g in ground_actions(domain.definition, problem)}
        closure = relaxed_closure(full.values(), problem.init)
        expected = {step for step, inst in full.items() if inst[1] <= closure}
        instances, reached = relaxed_ground(domain.definition, problem)
        assert {inst[0] for inst in instances} == expected
        assert len(instances) == len(expected)  # each instance once
        assert all(inst == full[inst[0]] for inst in instances)
        assert reached == closure


def test_bindings_of_a_state_match_brute_force() -> None:
    """Repeated variables, constants and typing: every binding, each once."""
    domain = GENERATORS["grid"].domain
    problem = problems("grid")[1][0]
    facts = FactIndex(problem.init)
    for action in domain.definition.actions.values():
        found = [tuple(b[v] for v, _ in action.parameters)
                 for b in bindings(action, facts, _pools(domain, problem, action))]
        expected = [g.args for g in ground_actions(domain.definition, problem)
                    if g.name == action.name and g.pre <= problem.init]
        assert sorted(found) == sorted(expected)


def _pools(domain: Domain, problem, action) -> dict[str, dict[str, None]]:
    from planetarium.strips.grounding import candidates_for

    return {v: dict.fromkeys(candidates_for(domain.definition, problem, t))
            for v, t in action.parameters}


@pytest.mark.parametrize("name", NAMES)
def test_h2_masks_equal_the_set_fixpoint(name: str) -> None:
    domain, cases = problems(name)
    for problem in cases:
        states = GoalStates(domain.definition, problem)
        instances, _ = relaxed_ground(domain.definition, problem)
        pairs = h2_reachable_pairs(instances, problem.init)
        for i, p in enumerate(states.atoms):
            mates = {states.atoms[j] for j in range(states.n) if states.compatible[i] >> j & 1}
            assert mates == pairs.get(p, set()), p


def test_kept_tables_are_shared_per_domain_and_initial_state_and_change_no_answer() -> None:
    gen = GENERATORS["gripper-strips"]
    rng = random.Random(3)
    problem = gen.problem(rng, gen.acp)
    definition = gen.domain.definition
    bitground._kept.clear()
    cold = fully_specified(definition, problem)
    first = GoalStates(definition, problem).tables
    assert GoalStates(definition, problem).tables is first
    assert fully_specified(definition, problem) == cold
    other = Domain(gen.domain.name, gen.domain.pddl).definition  # an equal domain, not the same
    assert GoalStates(other, problem).tables is not first
    bitground._kept.clear()
    assert fully_specified(definition, problem) == cold


def shuffled_renaming(problem, rng: random.Random):
    """``problem`` with its objects renamed and declared in another order."""
    names = list(problem.objects)
    fresh = dict(zip(names, rng.sample([f"z{i}" for i in range(len(names))], len(names)),
                     strict=True))
    order = rng.sample(range(len(problem.objects)), len(problem.objects))
    other = rename_problem(problem, fresh)
    return replace(other, objects=tuple(other.objects[i] for i in order),
                   object_types=tuple(other.object_types[i] for i in order)), fresh


@pytest.mark.parametrize("name", NAMES)
def test_a_renamed_problem_is_answered_through_the_kept_tables(name: str) -> None:
    """Renamed onto the kept problem when its objects are told apart, and the fully specified
    goal is the kept problem's renamed back, as computed from scratch."""
    domain, cases = problems(name, count=1)  # brute-force sizes: decided at once everywhere
    definition = domain.definition
    rng = random.Random(7)
    shared = 0
    for problem in cases:
        other, fresh = shuffled_renaming(problem, rng)
        bitground._kept.clear()
        bitground._shapes.clear()
        of_other = fully_specified(definition, other)  # keeps the tables of ``other``
        renamed_problem, back = bitground.in_kept_names(definition, problem)
        if back is not None:
            shared += 1
            assert renamed_problem.init == other.init
            assert back == {image: o for o, image in fresh.items()}
        through_kept = fully_specified(definition, problem)
        bitground._kept.clear()
        bitground._shapes.clear()
        cold = fully_specified(definition, problem)
        assert through_kept == cold
        assert of_other == (None if cold is None else rename_atoms(cold, fresh))
    if name in ("floor-tile", "gold-miner-typed"):
        assert shared  # asymmetric enough that colour refinement tells every object apart


def test_a_renaming_never_moves_a_constant_of_the_domain() -> None:
    domain = Domain("hub", """(define (domain hub) (:requirements :strips :typing)
      (:types place) (:constants home - place)
      (:predicates (at ?x - place) (link ?x - place ?y - place))
      (:action go :parameters (?x - place ?y - place)
        :precondition (and (at ?x) (link ?x ?y)) :effect (and (at ?y) (not (at ?x))))
      (:action back :parameters (?x - place) :precondition (at ?x)
        :effect (and (at home) (not (at ?x)))))""")
    text = """(define (problem p) (:domain hub) (:objects a b - place)
      (:init (at {0}) (link {0} {1}) (link {1} {2})) (:goal (and (at {2}))))"""
    one = domain.read_problem(text.format("a", "b", "home"))
    moved = domain.read_problem(text.format("home", "b", "a"))  # the same graph, home moved
    same = domain.read_problem(text.format("b", "a", "home"))  # a and b swapped: a renaming
    definition = domain.definition
    assert renaming.schema_constants(definition) == {"home"}
    target = renaming.shape_of(definition, one)
    assert target is not None
    for problem, expected in ((moved, None), (same, {"a": "b", "b": "a", "home": "home"})):
        shape = renaming.shape_of(definition, problem)
        assert shape is not None
        assert renaming.renaming_onto(definition, problem, one, shape, target) == expected
