"""The goal-independent tables of the exact engine against slower references of their own.

Indexed semi-naive grounding (planetarium.strips.joins) must find exactly the action instances
whose preconditions are delete-relaxed reachable, as the cross product of the objects filtered
by the relaxed closure does; the h^2 fixpoint over bit sets with its worklist
(planetarium.strips.mutex) must equal the plain set version in planetarium.strips.relaxed.
(The tables kept per objects and initial state are checked in test_forced and test_shared_task.)
"""

from __future__ import annotations

import random

import pytest

from planetarium.domains.base import Domain
from planetarium.strips.forced import GoalStates
from planetarium.strips.grounding import ground_actions
from planetarium.strips.joins import FactIndex, bindings
from planetarium.strips.relaxed import h2_reachable_pairs, relaxed_closure
from planetarium.strips.search import relaxed_ground
from planetarium.testing.acp_problems import GENERATORS

NAMES = sorted(GENERATORS)

# The engine's tables are built under the item's deadline (the deadline rule).
pytestmark = pytest.mark.usefixtures("item_deadline")


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
