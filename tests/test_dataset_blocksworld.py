"""Blocks World dataset layouts: states, texts, published parameter lists and row counts."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from planetarium.dataset.config import load_config
from planetarium.dataset.generator import generate
from planetarium.dataset.report import PUBLISHED
from planetarium.tasks import DoesNotFit
from planetarium.domains.blocksworld import tasks as bw

FULL = Path(__file__).resolve().parents[1] / "data" / "full.yaml"
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


def test_published_parameter_list_sizes():
    assert len(bw.stack_lists()) == 55
    assert [sum(h) for h in bw.staircase_lists()] == [k * (k + 1) // 2 for k in range(1, 11)]
    assert len(bw.swap_lists()) == 378
    assert len(bw.equal_tower_lists()) == 39
    towers = bw.tower_lists()
    assert abs(len(towers) - 2119) / 2119 < 0.02
    assert max(map(sum, towers)) == 25 and max(map(len, towers)) == 10
    assert len({tuple(t) for t in towers}) == len(towers)


def test_states_have_the_shapes_their_names_promise():
    heights = [1, 2, 3]
    assert [len(c) for c in _columns(_build("tower", "tower", heights).init)] == heights
    assert [len(c) for c in _columns(_build("stack", "stack", heights).init)] == [6]
    assert [len(c) for c in _columns(_build("staircase", "staircase", heights).init)] == [1, 2, 3]
    assert [len(c) for c in _columns(_build("equal_towers", "on_table", [2, 2, 2]).init)] == [2, 2, 2]
    # an unequal borrowed list uses its block count in towers of the tallest height <= 5 dividing it
    assert [len(c) for c in _columns(_build("on_table", "equal_towers", [2, 4]).goal)] == [3, 3]
    on_table = _build("on_table", "stack", [4]).init
    assert [len(c) for c in _columns(on_table)] == [1, 1, 1, 1] and ("arm-empty",) in on_table
    holding = _build("holding_one", "stack", [4]).init
    assert ("holding", "b1") in holding and ("arm-empty",) not in holding
    with pytest.raises(DoesNotFit):
        _build("tower", "staircase", [2, 2])


def test_swap_trades_the_upper_parts_and_invert_reverses_every_tower():
    swap = _build("swap", "swap", [2, 3])
    start, end = _columns(swap.init), _columns(swap.goal)
    assert [c[0] for c in start] == [c[0] for c in end] == ["b1", "b2"]
    assert end[0][1:] == start[1][1:] and end[1][1:] == start[0][1:]
    with pytest.raises(DoesNotFit):
        _build("swap", "swap", [1, 3])
    invert = _build("invert", "invert", [1, 3, 2])
    assert sorted(map(tuple, _columns(invert.goal))) == sorted(tuple(c[::-1]) for c in _columns(invert.init))
    with pytest.raises(DoesNotFit):
        _build("invert", "tower", [2])


def test_abstract_texts_count_right():
    text = _build("equal_towers", "equal_towers", [2, 2, 2])
    assert "3 towers of equal height 2" in text.init_abstract
    assert "3 towers of equal height 2" in text.goal_abstract
    one = _build("stack", "on_table", [1])
    assert one.init_abstract.startswith("You have 1 block, b1,") and "1 blocks" not in one.init_explicit
    tower = _build("tower", "tower", [1, 2])
    assert "2 towers of heights 1 and 2" in tower.init_abstract
    stair = _build("staircase", "staircase", [1, 2, 3])
    assert "staircase of 3 towers of heights 1 through 3" in stair.init_abstract


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
                result = grade(row["problem_pddl"], row["problem_pddl"], is_placeholder=row["is_placeholder"])
                assert result.correct, (row["name"], result)


def _rows_for(init: str, goal: str, heights) -> list[dict]:
    from planetarium.dataset.config import parse_config

    config = parse_config({"domains": [{"name": "blocksworld",
                                        "layouts": {init: {"params": [heights]}, goal: {"params": [heights]}}}]})
    return [r for r in generate(config, workers=1) if r["init"] == init and r["goal"] == goal]


def test_full_config_reproduces_the_published_blocksworld_counts():
    config = load_config(FULL)
    only_bw = type(config)(domains=tuple(d for d in config.domains if d.name == "blocksworld"),
                           seed=config.seed, folds=config.folds, test_fold=config.test_fold,
                           size_bins=config.size_bins)
    rows = generate(only_bw)
    total, combinations, test, _, _ = PUBLISHED["blocksworld"]
    assert abs(len(rows) - total) / total < 0.02
    combos = Counter((r["init"], r["goal"]) for r in rows)
    assert len(combos) == combinations
    assert not {("on_table", "on_table"), ("holding_one", "holding_one"),
                ("on_table", "holding_one"), ("holding_one", "on_table")} & set(combos)
    held = [r for r in rows if r["split_heldout"] == "test"]
    assert {(r["init"], r["goal"]) for r in held} == {("invert", "invert"), ("swap", "swap")}
    assert abs(len(held) - test) / test < 0.02
    assert len({r["natural_language"] for r in rows}) == len(rows)
