"""Gripper fully_specify on hand-picked problems, checked against facts worked out by hand and
the brute force (random problems: tests/test_specify_random.py)."""

from __future__ import annotations

from functools import partial

import pytest
from strategies import SpecifyCheck

from planetarium.domains import get_domain
from planetarium.domains.gripper import specify
from planetarium.domains.gripper.specify import fully_specify
from planetarium.testing.conformance import small_problem

GRIPPER = get_domain("gripper")
read = partial(small_problem, GRIPPER)
CHECK = SpecifyCheck(GRIPPER, specify)

OBJS = "r1 r2 b1 b2 left right"
KINDS = "(room r1) (room r2) (ball b1) (ball b2) (gripper left) (gripper right)"
INIT = KINDS + " (at-robby r1) (at b1 r1) (at b2 r1) (free left) (free right)"
ONE_ROOM = "r1 b1 b2 left"
ONE_ROOM_INIT = "(room r1) (ball b1) (ball b2) (gripper left) (at-robby r1) (at b1 r1) (at b2 r1)" \
                " (free left)"

# (objects, init, goal, facts fully_specify must add to the goal and the kinds; None = no goal state)
CASES = [
    (OBJS, INIT, "", set()),
    (OBJS, INIT, "(at b1 r2) (at b2 r2)", {"(free left)", "(free right)"}),
    (OBJS, INIT, "(at b1 r2) (carry b2 left)", {"(free right)"}),
    (OBJS, INIT, "(at b1 r2) (ball b1) (room r2)", set()),  # restated kinds change nothing
    (ONE_ROOM, ONE_ROOM_INIT, "", {"(at-robby r1)"}),
    (ONE_ROOM, ONE_ROOM_INIT, "(free left)", {"(at-robby r1)", "(at b1 r1)", "(at b2 r1)"}),
    (ONE_ROOM, ONE_ROOM_INIT, "(carry b2 left)", {"(at-robby r1)", "(at b1 r1)"}),
    (OBJS, INIT, "(ball r1)", None),  # a kind the init does not give
    (OBJS, INIT, "(at b1 r1) (at b1 r2)", None),
    (OBJS, INIT, "(carry b1 left) (carry b2 left)", None),
    (OBJS, INIT, "(carry b1 left) (free left)", None),
    (OBJS, INIT, "(at-robby r1) (at-robby r2)", None),
    (OBJS, INIT, "(at-robby b1)", None),
    (OBJS, INIT, "(at b1 left)", None),
    # no gripper: the balls never move, only the robot does
    ("r1 r2 b1", "(room r1) (room r2) (ball b1) (at-robby r1) (at b1 r1)", "(at-robby r2)",
     {"(at b1 r1)"}),
    ("r1 r2 b1", "(room r1) (room r2) (ball b1) (at-robby r1) (at b1 r1)", "(at b1 r2)", None),
    # no room: nothing ever happens
    ("b1 left", "(ball b1) (gripper left) (carry b1 left)", "", {"(carry b1 left)"}),
    # a gripper neither free nor carrying is stuck; a ball in no place stays nowhere
    ("r1 b1 b2 left", "(room r1) (ball b1) (ball b2) (gripper left) (at-robby r1) (at b1 r1)", "",
     {"(at-robby r1)", "(at b1 r1)"}),
]


@pytest.mark.parametrize("objects,init,goal,added", CASES)
def test_regressions(objects: str, init: str, goal: str, added: set[str] | None) -> None:
    p = read(objects, init, goal)
    CHECK(p, well_formed=True)
    kinds = {a for a in p.init if a[0] in ("room", "ball", "gripper")}
    expected = None if added is None else p.goal | kinds | {
        tuple(fact.strip("()").split()) for fact in added}
    assert fully_specify(GRIPPER, p) == expected


def test_ill_formed_init_uses_brute_force() -> None:
    """A gripper both free and carrying can hold two balls: outside the closed form."""
    p = read(ONE_ROOM, ONE_ROOM_INIT.replace("(at b1 r1)", "(carry b1 left)"),
                "(carry b1 left) (carry b2 left)")
    assert not GRIPPER.closed_form_covers(p)
    assert fully_specify(GRIPPER, p) == p.init - {("at", "b2", "r1"), ("free", "left")} | p.goal
