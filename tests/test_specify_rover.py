"""Rover fully_specify on hand-picked cases on where the rover must end, checked against facts
worked out by hand and the brute force, and the bounded search on branching maps (random
problems: tests/test_specify_random.py).
"""

from __future__ import annotations

import pytest
from strategies import SpecifyCheck

from planetarium.domains import get_domain
from planetarium.domains.rover import specify
from planetarium.errors import ResourceLimitError
from planetarium.pddl.domain import Atom
from planetarium.pddl.problem import Problem
from planetarium.testing.conformance import small_problem

ROVER = get_domain("rover-single")
CHECK = SpecifyCheck(ROVER, specify)

OBJECTS = "a b c - waypoint cam - camera hi lo - mode obj - objective"
ON = "(available) (channel_free) (supports cam hi)"
TWO_WAY_ab = "(can_traverse a b) (can_traverse b a) (visible a b) (visible b a)"
ONE_WAY_bc = "(can_traverse b c) (visible b c) (visible c b)"

# (init, goal, facts fully_specify adds beyond init and goal; None = no goal state)
CASES = [
    # Two-way road: the rover may end on either waypoint.
    (ON + " " + TWO_WAY_ab + " (at_rover a) (at_lander a) (at_soil_sample b)",
     "(communicated_soil_data b)", {"(have_soil_analysis b)"}),
    # The sample lies past a one-way road and the lander is seen from c: the rover ends at c.
    (ON + " " + TWO_WAY_ab + " " + ONE_WAY_bc + " (at_rover a) (at_lander a) (visible c a)"
     " (at_soil_sample c)", "(communicated_soil_data c)", {"(have_soil_analysis c)", "(at_rover c)"}),
    # ... but if only b sees the lander, the data can never be sent.
    (ON + " " + TWO_WAY_ab + " " + ONE_WAY_bc + " (at_rover a) (at_lander a)"
     " (at_soil_sample c)", "(communicated_soil_data c)", None),
    # An image visible only past the one-way road pins the rover too (the original ignored it).
    (ON + " " + TWO_WAY_ab + " " + ONE_WAY_bc + " (at_rover a) (at_lander c) (visible_from obj c)",
     "(have_image obj hi)", {"(at_rover c)"}),
    # Visible from both sides of the one-way road: no position is forced.
    (ON + " " + TWO_WAY_ab + " " + ONE_WAY_bc + " (at_rover a) (at_lander c) (visible_from obj c)"
     " (visible_from obj a)", "(have_image obj hi)", set()),
    # No camera supports the mode.
    (ON + " (at_rover a) (at_lander a) (visible_from obj a)", "(have_image obj lo)", None),
    # A road without line of sight cannot be driven.
    (ON + " (can_traverse a b) (at_rover a) (at_lander a)", "(at_rover b)", None),
    # Without (available) the rover cannot move; without (channel_free) it cannot talk.
    ("(channel_free) " + TWO_WAY_ab + " (at_rover a) (at_lander a)", "(at_rover b)", None),
    ("(available) (at_rover a) (at_lander a) (visible a a) (at_rock_sample a)",
     "(communicated_rock_data a)", None),
    # Data held from the start can be sent without sampling; nothing else is forced.
    (ON + " " + TWO_WAY_ab + " (at_rover a) (at_lander b) (have_rock_analysis c) (visible a b)",
     "(communicated_rock_data c)", set()),
    # The rover is on one waypoint at a time.
    (ON + " " + TWO_WAY_ab + " (at_rover a) (at_lander a)", "(at_rover a) (at_rover b)", None),
    # No rover: nothing can happen.
    (ON + " " + TWO_WAY_ab + " (at_lander a)", "(at_rover a)", None),
    # (available) can never be added.
    ("(channel_free) (at_rover a) (at_lander a)", "(available)", None),
]


@pytest.mark.parametrize("init, goal, added", CASES)
def test_hand_picked(init: str, goal: str, added: set[str] | None) -> None:
    problem = small_problem(ROVER, OBJECTS, init, goal)
    got = ROVER.fully_specify(problem)
    if added is None:
        assert got is None
    else:
        base = {a for a in problem.init if a[0] != "at_rover"} | problem.goal
        assert got == base | {tuple(f.strip("()").split()) for f in added}
    assert CHECK(problem, well_formed=True) == "closed form"


def _branching_map(depth: int) -> Problem:
    """A chain of diamonds (SAT-like branching) with one objective per level."""
    init: set[Atom] = {("available",), ("channel_free",), ("at_rover", "j0"),
                       ("at_lander", "j0"), ("supports", "cam", "hi")}
    objectives = []
    for i in range(depth):
        for side in ("l", "r"):
            arm = f"{side}{i}"
            init.update({("can_traverse", f"j{i}", arm), ("visible", f"j{i}", arm),
                         ("can_traverse", arm, f"j{i + 1}"), ("visible", arm, f"j{i + 1}")})
            init.add(("visible_from", f"o{i}{side}", arm))
            objectives.append(f"o{i}{side}")
    goal = {("have_image", o, "hi") for o in objectives}  # one arm per level: unsolvable
    waypoints = sorted({a[1] for a in init if a[0] == "can_traverse"} | {f"j{depth}"})
    objects = waypoints + ["cam", "hi"] + objectives
    types = ["waypoint"] * len(waypoints) + ["camera", "mode"] + ["objective"] * len(objectives)
    return Problem("p", "rover-single", tuple(objects), tuple(types), frozenset(init),
                   frozenset(goal))


def test_branching_maps_are_bounded_not_guessed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Alternative branches are tracked exactly; past the bound the answer is 'gave up'."""
    small = _branching_map(3)
    assert ROVER.fully_specify(small) is None
    assert SpecifyCheck(ROVER, specify, max_states=50_000)(small, well_formed=True) == "closed form"
    monkeypatch.setattr(specify, "MAX_VISITS", 50)
    with pytest.raises(ResourceLimitError):
        ROVER.fully_specify(_branching_map(12))
