"""Every built-in fully_specify against the brute force, on hypothesis-drawn problems; and on
dataset-sized generated problems, beyond the brute force, at least a closure that holds the goal.

The brute force is the referee only: each example must be decided by the domain's closed form
and equal the enumeration.  An example the domain hands to its fallback — the very same
enumeration — is counted and not compared, and a well-formed one must never reach it; an
example beyond the referee's state budget is counted as skipped.  Each sweep prints its counts
and asserts a floor on the examples compared (hypothesis draws some problems more than once;
distinct ones are counted) and a ceiling on those skipped.

Strategies (tests/strategies.py): Blocks World and Gripper well-formed, or mutated (atoms
removed and added at random); Floor-tile grids up to 2x3 with holes, self-loops and, one in
five, robots on two tiles or none holding two colours or none; Rover maps up to 5 waypoints
with one-way roads, roads without line of sight, missing ``available``/``channel_free`` and,
one in six, the rover on no or two waypoints.
"""

from __future__ import annotations

import random
from typing import NamedTuple

import pytest
from hypothesis import strategies as st
from strategies import (
    SpecifyCheck,
    blocksworld_problems,
    floortile_problems,
    gripper_problems,
    rover_problems,
)

from planetarium.domains import get_domain
from planetarium.domains.blocksworld import specify as blocksworld_specify
from planetarium.domains.floortile import specify as floortile_specify
from planetarium.domains.gripper import specify as gripper_specify
from planetarium.domains.rover import specify as rover_specify
from planetarium.pddl.problem import Problem
from planetarium.testing.generators import dataset_problem


class Sweep(NamedTuple):
    domain: str
    specify: object
    strategy: st.SearchStrategy[Problem]
    examples: int
    well_formed: bool  # every example must be decided in closed form
    min_closed_form: int
    max_states: int = 100_000
    max_skipped: int = 0


#: Measured (distinct examples decided in closed form and compared / handed to the fallback /
#: skipped), with every planetarium module loaded first (tests/conftest.py: hypothesis mixes
#: constants of the loaded local modules into its draws, so before that the counts moved with the
#: tests that ran earlier, e.g. 285 to 311 for Blocks World): blocksworld 301/0/0 and 33/66/0,
#: gripper 364/0/0 and 34/84/0, floor-tile 177/0/23, rover-single 237/19/0.  The floors sit well
#: below the measurements: they catch a closed form that stopped deciding.  Before the fallback was
#: watched, the mutated sweeps compared the brute force with itself on 98 of 150 Blocks World and
#: 90 of 150 Gripper examples.
SWEEPS = {
    "blocksworld-well-formed": Sweep("blocksworld", blocksworld_specify, blocksworld_problems(),
                                     500, True, 250),
    "blocksworld-mutated": Sweep("blocksworld", blocksworld_specify,
                                 blocksworld_problems(well_formed=False), 150, False, 15),
    "gripper-well-formed": Sweep("gripper", gripper_specify, gripper_problems(), 500, True, 285),
    "gripper-mutated": Sweep("gripper", gripper_specify, gripper_problems(well_formed=False),
                             150, False, 25),
    # Painted tiles only accumulate, so a 2x3 grid with three colours has up to 2^18 states: the
    # largest examples are skipped rather than enumerated (a budget of 60,000 states skips 13
    # instead of 23 and takes six times longer).
    "floor-tile": Sweep("floor-tile", floortile_specify, floortile_problems(), 250, False, 150,
                        max_states=5_000, max_skipped=35),
    # 5,000 states would leave three examples undecided (one example beyond 20,000 was seen
    # before the draws were fixed, see above).
    "rover-single": Sweep("rover-single", rover_specify, rover_problems(), 300, False, 200,
                          max_states=20_000, max_skipped=5),
}


@pytest.mark.parametrize("name", SWEEPS)
def test_fully_specify_matches_brute_force(name: str) -> None:
    sweep = SWEEPS[name]
    check = SpecifyCheck(get_domain(sweep.domain), sweep.specify, max_states=sweep.max_states)
    check.run(sweep.strategy, examples=sweep.examples, well_formed=sweep.well_formed,
              min_closed_form=sweep.min_closed_form, max_skipped=sweep.max_skipped)


@pytest.mark.parametrize("domain, size", [("blocksworld", 30), ("gripper", 24), ("floor-tile", 30),
                                          ("rover-single", 12)])
def test_dataset_sized_problems_are_specified(domain: str, size: int) -> None:
    """Dataset-sized problems, solvable by construction, are decided in closed form and their
    closure holds the goal (far beyond the brute force; timings live in bench/)."""
    rng = random.Random(0)
    for _ in range(20):
        problem = dataset_problem(domain, rng, size)
        assert get_domain(domain).closed_form_covers(problem)
        facts = get_domain(domain).fully_specify(problem)
        assert facts is not None and problem.goal <= facts
