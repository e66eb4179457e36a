"""Floor-tile fully_specify on hand-picked cases for the rules that are easy to get wrong,
checked against facts worked out by hand and the brute force (random problems:
tests/test_specify_random.py).
"""

from __future__ import annotations

import pytest
from strategies import SpecifyCheck

from planetarium.domains import get_domain
from planetarium.domains.floortile import specify
from planetarium.testing.conformance import small_problem

FLOORTILE = get_domain("floor-tile")
CHECK = SpecifyCheck(FLOORTILE, specify)

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
    assert CHECK(problem, well_formed=True) == "closed form"
