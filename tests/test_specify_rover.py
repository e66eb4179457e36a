"""Rover fully_specify agrees with brute-force state enumeration.

Random maps of up to 5 waypoints with one-way roads, roads without line of sight, missing
``available``/``channel_free``, and inits with the rover on no or two waypoints; plus
hand-picked cases on where the rover must end.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planetarium.domains import get_domain
from planetarium.domains.rover import specify
from planetarium.errors import ResourceLimitError
from planetarium.pddl.domain import Atom
from planetarium.pddl.problem import Problem
from planetarium.testing.conformance import check_fully_specify, small_problem
from planetarium.testing.generators_floortile_rover import rover_problem

ROVER = get_domain("rover-single")


@st.composite
def rover_problems(draw) -> Problem:
    waypoints = [f"w{i}" for i in range(draw(st.integers(1, 5)))]
    objectives = [f"o{i}" for i in range(draw(st.integers(1, 2)))]
    modes = [f"m{i}" for i in range(draw(st.integers(1, 2)))]
    pairs = st.tuples(st.sampled_from(waypoints), st.sampled_from(waypoints))
    roads = draw(st.sets(pairs, max_size=8))
    two_way = draw(st.booleans())
    init: set[Atom] = set()
    for a, b in roads:
        init.update({("can_traverse", a, b), ("visible", a, b)})
        if two_way:
            init.update({("can_traverse", b, a), ("visible", b, a)})
    init.update(("visible", a, b) for a, b in draw(st.sets(pairs, max_size=3)))
    init.update(("can_traverse", a, b) for a, b in draw(st.sets(pairs, max_size=2)))
    init.update(draw(st.sets(st.sampled_from([("available",), ("channel_free",)]), min_size=0))
                if draw(st.integers(0, 5)) == 0 else {("available",), ("channel_free",)})
    rover_count = st.just(1) if draw(st.integers(0, 5)) > 0 else st.integers(0, 2)
    n = min(draw(rover_count), len(waypoints))
    init.update(("at_rover", w)
                for w in draw(st.sets(st.sampled_from(waypoints), min_size=n, max_size=n)))
    init.add(("at_lander", draw(st.sampled_from(waypoints))))
    init.update(("at_soil_sample", w) for w in draw(st.sets(st.sampled_from(waypoints))))
    init.update(("at_rock_sample", w) for w in draw(st.sets(st.sampled_from(waypoints))))
    init.update(("supports", "cam", m) for m in draw(st.sets(st.sampled_from(modes))))
    init.update(("visible_from", o, w) for o, w in draw(st.sets(
        st.tuples(st.sampled_from(objectives), st.sampled_from(waypoints)), max_size=4)))
    init.update(("have_soil_analysis", w)
                for w in draw(st.sets(st.sampled_from(waypoints), max_size=1)))
    w, o, m = st.sampled_from(waypoints), st.sampled_from(objectives), st.sampled_from(modes)
    goal_atoms = st.one_of(
        st.tuples(st.just("communicated_soil_data"), w),
        st.tuples(st.just("communicated_rock_data"), w),
        st.tuples(st.just("communicated_image_data"), o, m),
        st.tuples(st.just("have_image"), o, m),
        st.tuples(st.just("have_rock_analysis"), w),
        st.tuples(st.just("at_rover"), w),
        st.tuples(st.just("visible"), w, w),
        st.just(("available",)),
    )
    goal = draw(st.sets(goal_atoms, min_size=1, max_size=4))
    objects = waypoints + ["cam"] + modes + objectives
    types = (["waypoint"] * len(waypoints) + ["camera"] + ["mode"] * len(modes)
             + ["objective"] * len(objectives))
    return Problem("p", "rover-single", tuple(objects), tuple(types), frozenset(init),
                   frozenset(goal))


@settings(max_examples=300, derandomize=True, deadline=None)
@given(rover_problems())
def test_matches_brute_force(problem: Problem) -> None:
    assert check_fully_specify(ROVER, [problem], max_states=5_000) == []


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
    assert check_fully_specify(ROVER, [problem]) == []


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
    assert check_fully_specify(ROVER, [small], max_states=50_000) == []
    monkeypatch.setattr(specify, "MAX_VISITS", 50)
    with pytest.raises(ResourceLimitError):
        ROVER.fully_specify(_branching_map(12))


def test_twelve_waypoint_maps() -> None:
    """Generated 12-waypoint maps are specified (timings live in bench/, not here)."""
    rng = random.Random(0)
    for _ in range(20):
        problem = rover_problem(rng, 12)
        facts = ROVER.fully_specify(problem)
        assert facts is not None and problem.goal <= facts
