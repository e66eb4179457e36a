"""Blocks World dataset layouts: the published states (numbering, atom order, the equal_towers
rule), our texts, and what the published texts said (the de-duplication keys)."""

from __future__ import annotations

import random

import pytest

from planetarium.dataset.config import parse_config
from planetarium.dataset.generator import generate
from planetarium.domains.blocksworld import tasks as bw
from planetarium.tasks import DoesNotFit

LAYOUTS = bw.TASKS.layout_by_name


def _columns(atoms) -> list[list[str]]:
    """Towers (bottom to top) of a state given as atoms."""
    above = {a[2]: a[1] for a in atoms if a[0] == "on"}
    towers = []
    for bottom in sorted((a[1] for a in atoms if a[0] == "on-table"), key=lambda b: int(b[1:])):
        column = [bottom]
        while column[-1] in above:
            column.append(above[column[-1]])
        towers.append(column)
    return towers


def _build(init: str, goal: str, heights):
    return bw.build(LAYOUTS[init], LAYOUTS[goal], list(heights))


def test_states_are_the_published_ones_atoms_in_its_order():
    """tower, staircase and invert number each tower from its top; stack and equal_towers from
    the bottom (the published generator's states, in its atom order)."""
    assert _build("tower", "tower", [1, 2]).init == (
        ("arm-empty",), ("clear", "b1"), ("on-table", "b1"),
        ("clear", "b2"), ("on", "b2", "b3"), ("on-table", "b3"))
    assert _build("stack", "stack", [3]).init == (
        ("arm-empty",), ("on", "b2", "b1"), ("on", "b3", "b2"), ("clear", "b3"), ("on-table", "b1"))
    assert _build("equal_towers", "on_table", [4]).init == (
        ("arm-empty",), ("on-table", "b1"), ("on", "b2", "b1"), ("on", "b3", "b2"), ("on", "b4", "b3"),
        ("clear", "b4"))
    assert _build("on_table", "stack", [2]).init == (
        ("arm-empty",), ("clear", "b1"), ("on-table", "b1"), ("clear", "b2"), ("on-table", "b2"))
    holding = _build("holding_one", "stack", [2]).init
    assert holding == (("holding", "b1"), ("clear", "b2"), ("on-table", "b2"))
    assert [len(c) for c in _columns(_build("staircase", "stack", [6]).init)] == [1, 2, 3]
    with pytest.raises(DoesNotFit):
        _build("staircase", "stack", [4])


def test_equal_towers_follows_the_published_rule():
    """[n]: towers of the tallest height of 5, 4, 3, 2, 1 dividing n; unequal heights: so by their
    sum; several equal heights: no problem at all (the published list's [2, 2] built nothing)."""
    shape = lambda heights: [len(c) for c in _columns(_build("equal_towers", "on_table", heights).init)]  # noqa: E731
    assert shape([6]) == [3, 3] and shape([10]) == [5, 5] and shape([7]) == [1] * 7
    assert shape([1, 2]) == [3] and shape([2, 4]) == [3, 3]
    for heights in ([2, 2], [1, 1, 1]):
        with pytest.raises(DoesNotFit):
            _build("equal_towers", "on_table", heights)
        with pytest.raises(DoesNotFit):
            _build("tower", "equal_towers", heights)


def test_swap_trades_the_upper_parts_and_invert_reverses_every_tower():
    swap = _build("swap", "swap", [2, 3])
    start, end = _columns(swap.init), _columns(swap.goal)
    assert [c[0] for c in start] == [c[0] for c in end] == ["b1", "b2"]
    assert end[0][1:] == start[1][1:] and end[1][1:] == start[0][1:]
    assert swap.goal[:3] == (("arm-empty",), ("on-table", "b2"), ("on-table", "b1"))
    with pytest.raises(DoesNotFit):
        _build("swap", "swap", [1, 3])
    invert = _build("invert", "invert", [1, 3, 2])
    assert sorted(map(tuple, _columns(invert.goal))) == sorted(tuple(c[::-1]) for c in _columns(invert.init))
    with pytest.raises(DoesNotFit):
        _build("invert", "tower", [2])


def test_abstract_texts_say_what_the_state_is():
    text = _build("tower", "equal_towers", [2, 4])
    assert "2 towers of equal height 3" in text.goal_abstract  # the published text said "2 towers" too
    assert "here a single tower of height 3" in _build("tower", "equal_towers", [1, 2]).goal_abstract
    one = _build("stack", "on_table", [1])
    assert one.init_abstract.startswith("You have 1 block, b1,") and "1 blocks" not in one.init_explicit
    tower = _build("tower", "tower", [1, 2])
    assert "2 towers of heights 1 and 2" in tower.init_abstract
    stair = _build("staircase", "staircase", [6])
    assert "staircase of 3 towers of heights 1 through 3" in stair.init_abstract


def test_keys_are_what_the_published_abstract_texts_stated():
    """Its equal_towers texts gave the number of listed heights; tower and invert shared one
    initial text; holding_one's goal gave the block count."""
    assert _build("tower", "equal_towers", [1, 2]).goal_abstract_key == ("equal_towers", 2)
    assert _build("tower", "equal_towers", [3]).goal_abstract_key == ("equal_towers", 1)
    assert (_build("tower", "stack", [1, 2]).init_abstract_key
            == _build("invert", "invert", [1, 2]).init_abstract_key)
    assert _build("stack", "holding_one", [4]).goal_abstract_key == ("holding_one", 4)
    fixed = _build("stack", "on_table", [4]).goal_abstract_key
    assert fixed == _build("stack", "on_table", [5]).goal_abstract_key == ("on_table",)


def test_malformed_parameters_are_errors_not_skipped():
    with pytest.raises(ValueError, match="list of tower heights") as info:
        _build("tower", "tower", [2, 0])
    assert not isinstance(info.value, DoesNotFit)


def test_every_combination_grades_correct_on_small_problems():
    """Every combination's ground truth, in both modes, is parseable, solvable and equivalent
    to itself (the dataset's ``check`` command does this for every row)."""
    from planetarium.grading import grade

    rng = random.Random(1)
    small = bw.tower_lists(max_blocks=6) + bw.swap_lists(max_blocks=6)
    for init, goal in bw.TASKS.combinations():
        fitting = []
        for heights in small:
            try:
                _build(init.name, goal.name, heights)
            except DoesNotFit:
                continue
            fitting.append(heights)
        for heights in rng.sample(fitting, min(2, len(fitting))):
            for row in _rows_for(init.name, goal.name, heights):
                pddl = row["problem_pddl"]
                result = grade(pddl, pddl, is_placeholder=row["is_placeholder"])
                assert result.correct, (row["name"], result)


def _rows_for(init: str, goal: str, heights) -> list[dict]:
    layouts = {init: {"params": [heights]}, goal: {"params": [heights]}}
    config = parse_config({"domains": [{"name": "blocksworld", "layouts": layouts}]})
    return [r for r in generate(config, workers=1) if r["init"] == init and r["goal"] == goal]
