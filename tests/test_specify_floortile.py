"""Floor-tile fully_specify agrees with brute-force state enumeration.

Random grids up to 2x3 with 1-2 robots and 1-3 colours, including inits that are not
well-formed (a robot on two tiles or none, holding two colours or none, missing grid edges,
self-loops), plus hand-picked cases for the rules that are easy to get wrong.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planetarium.domains import get_domain
from planetarium.pddl.domain import Atom
from planetarium.pddl.problem import Problem
from planetarium.testing.conformance import check_fully_specify, small_problem
from planetarium.testing.generators_floortile_rover import floortile_problem

FLOORTILE = get_domain("floor-tile")


@st.composite
def floortile_problems(draw) -> Problem:
    rows, cols = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    tiles = [f"t{r}{c}" for r in range(rows) for c in range(cols)]
    robots = [f"r{i}" for i in range(draw(st.integers(1, 2)))]
    colors = [f"c{i}" for i in range(draw(st.integers(1, 3)))]
    init: set[Atom] = set()
    for r in range(rows):
        for c in range(cols):
            if r + 1 < rows and draw(st.integers(0, 9)) > 0:
                init.add(("up", f"t{r + 1}{c}", f"t{r}{c}"))
            if c + 1 < cols and draw(st.integers(0, 9)) > 0:
                init.add(("right", f"t{r}{c + 1}", f"t{r}{c}"))
    if draw(st.integers(0, 9)) == 0:
        tile = draw(st.sampled_from(tiles))
        init.add((draw(st.sampled_from(["up", "right"])), tile, tile))
    well_formed = draw(st.integers(0, 4)) > 0
    for robot in robots:
        sizes = st.just(1) if well_formed else st.integers(0, 2)
        init.update(("robot-at", robot, t)
                    for t in draw(st.lists(st.sampled_from(tiles), min_size=1, max_size=1)
                                  if well_formed else st.sets(st.sampled_from(tiles), max_size=2)))
        n_colours = draw(sizes)
        init.update(("robot-has", robot, c)
                    for c in draw(st.sets(st.sampled_from(colors), min_size=min(n_colours, 1),
                                          max_size=n_colours)))
    init.update(("available-color", c) for c in draw(st.sets(st.sampled_from(colors))))
    init.update(("painted", t, draw(st.sampled_from(colors)))
                for t in draw(st.sets(st.sampled_from(tiles), max_size=2)))
    goal_atoms = st.one_of(
        st.tuples(st.just("painted"), st.sampled_from(tiles), st.sampled_from(colors)),
        st.tuples(st.just("robot-at"), st.sampled_from(robots), st.sampled_from(tiles)),
        st.tuples(st.just("robot-has"), st.sampled_from(robots), st.sampled_from(colors)),
        st.tuples(st.just("available-color"), st.sampled_from(colors)),
        st.tuples(st.just("up"), st.sampled_from(tiles), st.sampled_from(tiles)),
    )
    goal = draw(st.sets(goal_atoms, min_size=1, max_size=4))
    objects = tiles + robots + colors
    types = ["tile"] * len(tiles) + ["robot"] * len(robots) + ["color"] * len(colors)
    return Problem("p", "floor-tile", tuple(objects), tuple(types), frozenset(init),
                   frozenset(goal))


@settings(max_examples=250, derandomize=True, deadline=None)
@given(floortile_problems())
def test_matches_brute_force(problem: Problem) -> None:
    assert check_fully_specify(FLOORTILE, [problem], max_states=5_000) == []


ROW = "a b c - tile r s - robot black white - color"
ROW_EDGES = "(right b a) (right c b)"

# (objects, init, goal, facts fully_specify adds beyond init statics, init paint and goal)
CASES = [
    # The original implementation's false positive: keeping black is as good as switching.
    (ROW, ROW_EDGES + " (robot-at r a) (robot-has r black) (available-color white)"
     " (painted b white)", "(painted c black)", set()),
    # Holding only an unavailable colour, the robot must switch to paint white; white is the
    # single available colour, so it ends holding white.
    (ROW, ROW_EDGES + " (robot-at r a) (robot-has r black) (available-color white)",
     "(painted c white)", {"(robot-has r white)"}),
    # Two available colours: it may end on either.
    (ROW, ROW_EDGES + " (robot-at r a) (robot-has r black) (available-color white)"
     " (available-color black)", "(painted c white)", set()),
    # s already holds white and can reach c: r is not forced to switch.  s can only ever
    # hold the single available colour.
    (ROW, ROW_EDGES + " (robot-at r a) (robot-has r black) (robot-at s b) (robot-has s white)"
     " (available-color white)", "(painted c white)", {"(robot-has s white)"}),
    # s holds white but stands on an isolated tile, so r must switch; s never moves or changes.
    ("a b c d - tile r s - robot black white - color", ROW_EDGES
     + " (robot-at r a) (robot-has r black) (robot-at s d) (robot-has s white)"
     " (available-color white)", "(painted c white)",
     {"(robot-has r white)", "(robot-has s white)", "(robot-at s d)"}),
    # No available colour: colours never change.
    (ROW, ROW_EDGES + " (robot-at r a) (robot-has r black)", "(painted b black)",
     {"(robot-has r black)"}),
    # The robot paints neighbours, never its own tile: a lone tile cannot be painted.
    ("a - tile r - robot black - color", "(robot-at r a) (robot-has r black)",
     "(painted a black)", None),
    # r roams a and b, so its tile is free; s stands on the isolated tile c and stays there.
    ("a b c - tile r s - robot black - color",
     "(up b a) (robot-at r a) (robot-has r black) (robot-at s c)",
     "(painted b black)", {"(robot-has r black)", "(robot-at s c)"}),
    # A robot on two tiles of one row keeps at most two positions, at least one.
    (ROW, ROW_EDGES + " (robot-at r a) (robot-at r c)", "(robot-at r b)", set()),
    (ROW, ROW_EDGES + " (robot-at r a)", "(robot-at r a) (robot-at r b)", None),
    # Two held colours, one available: switching either away still leaves white.
    (ROW, ROW_EDGES + " (robot-at r a) (robot-has r black) (robot-has r white)"
     " (available-color white)", "(painted b black)", {"(robot-has r white)"}),
    # Goal demands a colour the robot cannot get.
    (ROW, ROW_EDGES + " (robot-at r a) (robot-has r black)", "(robot-has r white)", None),
    # Statics cannot be added.
    (ROW, ROW_EDGES + " (robot-at r a)", "(right a b)", None),
]


@pytest.mark.parametrize("objects, init, goal, added", CASES)
def test_hand_picked(objects: str, init: str, goal: str, added: set[str] | None) -> None:
    problem = small_problem(FLOORTILE, objects, init, goal)
    got = FLOORTILE.fully_specify(problem)
    if added is None:
        assert got is None
    else:
        base = {a for a in problem.init if a[0] in ("up", "right", "available-color", "painted")}
        expected = base | problem.goal | {tuple(f.strip("()").split()) for f in added}
        assert got == expected
    assert check_fully_specify(FLOORTILE, [problem]) == []


def test_large_grids() -> None:
    """30-tile grids with up to three robots are specified (timings live in bench/, not here)."""
    rng = random.Random(0)
    for _ in range(20):
        problem = floortile_problem(rng, 30)
        facts = FLOORTILE.fully_specify(problem)
        assert facts is not None and problem.goal <= facts
