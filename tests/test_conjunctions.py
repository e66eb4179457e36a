"""Atoms that never hold with a pair of atoms (planetarium.strips.conjunctions: h^2 on the task
with the pair compiled into an atom), and the proofs of three-atom facts it gives the exact
engine (planetarium.strips.forced).

Soundness is checked against every reachable state of small problems of ACPBench's domains;
Depots shows what it is for: "crate 2 on crate 1" and "crate 1 at depot 0" make "crate 2 at
depot 0" true in every goal state, which no pair of atoms excludes.
"""

from __future__ import annotations

import random

import pytest

from planetarium.strips.bits import indices
from planetarium.strips.conjunctions import pair_mutexes
from planetarium.strips.forced import forget_ground_tasks, goal_states
from planetarium.strips.grounding import ground_actions, reachable_states
from planetarium.testing.acp_problems import GENERATORS
from planetarium.testing.bruteforce import reachable_goal_states

# The engine's tables are built under the item's deadline (the deadline rule).
pytestmark = pytest.mark.usefixtures("item_deadline")


@pytest.mark.parametrize("name", ["depots", "blocksworld-4ops", "gripper-strips", "ferry",
                                  "logistics-strips", "grid"])
def test_no_reachable_state_holds_a_pair_and_an_atom_mutex_with_it(name):
    gen = GENERATORS[name]
    rng = random.Random(name)
    stronger = 0  # pairs where the compilation excludes more than h^2 does: not vacuous
    for _ in range(2):
        problem = gen.problem(rng, gen.small)
        definition = gen.domain.definition
        states = goal_states(definition, problem)
        reachable = list(reachable_states(list(ground_actions(definition, problem)),
                                          frozenset(problem.init), 200_000))
        masks = [states.mask(s) for s in reachable]
        changing = indices(states.changing)
        for _ in range(25):
            x, y = rng.sample(changing, 2)
            excluded = pair_mutexes(states.ops, states.init, states.changing, states.n, x, y)
            pair = (1 << x) | (1 << y)
            together = [m for m in masks if m & pair == pair]
            assert all(not m & excluded for m in together), (name, states.atoms[x],
                                                              states.atoms[y])
            stronger += bool(excluded & ~states.mutex_with(pair))
    assert stronger or name in ("ferry", "gripper-strips"), name


DEPOTS = ("(define (problem p) (:domain depots) (:objects depot0 - depot distributor0 - "
          "distributor truck0 - truck hoist0 hoist1 - hoist pallet0 pallet1 - pallet crate0 "
          "crate1 crate2 - crate) (:init (at hoist0 depot0) (available hoist0) (at pallet0 depot0)"
          " (at hoist1 distributor0) (available hoist1) (at pallet1 distributor0) (at truck0 "
          "depot0) (at crate0 depot0) (on crate0 pallet0) (at crate1 distributor0) (on crate1 "
          "pallet1) (at crate2 distributor0) (on crate2 crate1) (clear crate0) (clear crate2))"
          " (:goal (and (on crate2 crate0) (at crate0 depot0))))")


def test_a_fact_of_three_atoms_is_proven_and_agrees_with_brute_force():
    gen = GENERATORS["depots"]
    problem = gen.domain.read_problem(DEPOTS)
    forget_ground_tasks()
    states = goal_states(gen.domain.definition, problem)
    goal = states.mask(problem.goal)
    elsewhere = states.mask({("at", "crate2", "distributor0")})
    assert not states.mutex_with(goal) & elsewhere  # h^2 alone pairs it with each goal atom
    assert states.pair_mutex_with(goal) & elsewhere
    expected = frozenset.intersection(*reachable_goal_states(gen.domain.definition, problem,
                                                             200_000))
    assert gen.domain.fully_specify(problem) == expected
    assert ("at", "crate2", "depot0") in expected
