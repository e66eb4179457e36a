"""Blocks World fully_specify agrees with the brute force on random and hand-picked problems."""

from __future__ import annotations

from functools import partial

import pytest
from hypothesis import given, settings
from strategies_bw_gripper import blocksworld_problems, read_small, specify_checker

from planetarium.domains import get_domain
from planetarium.domains.blocksworld import specify
from planetarium.domains.blocksworld.specify import fully_specify
from planetarium.pddl.problem import Problem

BW = get_domain("blocksworld")
check = specify_checker(BW, specify)
read = partial(read_small, BW)


@settings(max_examples=500, derandomize=True, deadline=None)
@given(blocksworld_problems())
def test_well_formed_matches_brute_force(problem: Problem) -> None:
    check(problem)


@settings(max_examples=150, derandomize=True, deadline=None)
@given(blocksworld_problems(well_formed=False))
def test_mutated_init_matches_brute_force(problem: Problem) -> None:
    check(problem)


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
    check(p)
    expected = None if added is None else p.goal | {
        tuple(fact.strip("()").split()) for fact in added}
    assert fully_specify(BW, p) == expected


def test_ill_formed_init_uses_brute_force() -> None:
    """A block resting nowhere can never be picked up, yet blocks can be stacked on it."""
    p = read("a b", "(arm-empty) (clear a) (on-table b) (clear b)", "(on b a)")
    check(p)
    assert fully_specify(BW, p) == {("on", "b", "a"), ("clear", "b"), ("arm-empty",)}
