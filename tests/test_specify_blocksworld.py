"""Blocks World fully_specify on hand-picked problems, checked against facts worked out by hand
and the brute force (random problems: tests/test_specify_random.py)."""

from __future__ import annotations

from functools import partial

import pytest
from strategies import SpecifyCheck

from planetarium.domains import get_domain
from planetarium.domains.blocksworld import specify
from planetarium.domains.blocksworld.specify import fully_specify
from planetarium.testing.conformance import small_problem

BW = get_domain("blocksworld")
read = partial(small_problem, BW)
CHECK = SpecifyCheck(BW, specify)

TOWER = "(arm-empty) (on-table a) (on b a) (clear b) (on-table c) (clear c)"

# (objects, init, goal, facts fully_specify must add to the goal; None = unsatisfiable)
CASES = [
    ("a b c", TOWER, "", set()),  # nothing forced: every block is free
    ("a", "(arm-empty) (on-table a) (clear a)", "", set()),  # a may be held
    ("a", "(arm-empty) (on-table a) (clear a)", "(arm-empty)", {"(on-table a)", "(clear a)"}),
    ("a b", "(arm-empty) (on-table a) (on-table b) (clear a) (clear b)", "(on a b)",
     {"(on-table b)", "(clear a)", "(arm-empty)"}),
    # closed tops everywhere: the open bottom has nowhere to go but the table
    ("a b c", TOWER, "(clear c) (clear b) (on c a)",
     {"(on-table a)", "(on-table b)", "(arm-empty)"}),
    # b's fragment could rest on c's open top, and vice versa
    ("a b c", TOWER, "(on b a) (clear b) (on-table c)", {"(arm-empty)"}),
    # every block mentioned, nothing held: the arm is empty
    ("a b", "(arm-empty) (on-table a) (on-table b) (clear a) (clear b)",
     "(clear a) (on-table b)", {"(arm-empty)"}),
    ("a b", "(holding a) (on-table b) (clear b)", "(holding b)", {"(clear a)", "(on-table a)"}),
    ("a b c", TOWER, "(on a b) (on b c) (on c a)", None),  # cycle
    ("a b c", TOWER, "(on a a)", None),
    ("a b c", TOWER, "(on a c) (on b c)", None),  # two blocks on one
    ("a b c", TOWER, "(clear c) (on a c)", None),
    ("a b c", TOWER, "(holding a) (holding b)", None),
    ("a b c", TOWER, "(holding a) (arm-empty)", None),
    ("a b c", TOWER, "(holding a) (on b a)", None),  # nothing rests on a held block
    ("a b c", TOWER, "(on-table a) (on a b)", None),
]


@pytest.mark.parametrize("objects,init,goal,added", CASES)
def test_regressions(objects: str, init: str, goal: str, added: set[str] | None) -> None:
    p = read(objects, init, goal)
    CHECK(p, well_formed=True)
    expected = None if added is None else p.goal | {
        tuple(fact.strip("()").split()) for fact in added}
    assert fully_specify(BW, p) == expected


def test_ill_formed_init_uses_brute_force() -> None:
    """A block resting nowhere can never be picked up, yet blocks can be stacked on it."""
    p = read("a b", "(arm-empty) (clear a) (on-table b) (clear b)", "(on b a)")
    assert not BW.closed_form_covers(p)
    assert fully_specify(BW, p) == {("on", "b", "a"), ("clear", "b"), ("arm-empty",)}
