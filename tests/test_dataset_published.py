"""data/full.yaml against the published dataset: every combination, Table 1, the held-out split,
the published rows themselves, and the grading modes of the rows.

The full dataset is generated once for the module (two worker processes, ~20 s on two cores).
``tests/fixtures/published/published-sample.jsonl`` holds 1,426 published rows (up to 20 per
combination) with their ids, which are our ids too (both number every candidate row).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner

from planetarium.dataset.cli import data_group
from planetarium.dataset.config import load_config
from planetarium.dataset.generator import generate
from planetarium.dataset.leaks import problem_invariant
from planetarium.dataset.problem_text import read_generated
from planetarium.dataset.report import compared_cells, differences
from planetarium.dataset.splits import size_bin
from planetarium.domains import get_domain
from planetarium.equivalence import Limits, compare
from planetarium.grading import grade, load_ground_truth
from planetarium.limits import Deadline


def _limits():
    """A comparison's own deadline: compare has no default limit."""
    return Limits(Deadline.start(10.0))


ROOT = Path(__file__).resolve().parents[1]
FULL = ROOT / "data" / "full.yaml"
SAMPLE = Path(__file__).parent / "fixtures" / "published" / "published-sample.jsonl"
#: The published size split's names for our bins.
PUBLISHED_SIZE = {"(0,20]": "0-20", "(20,40]": "20-40", "(40,60]": "40-60", "(60,80]": "60-80",
                  "(80,inf)": "80-inf"}


@pytest.fixture(scope="module")
def full_rows() -> list[dict]:
    return generate(load_config(FULL), workers=2)


@pytest.fixture(scope="module")
def by_id(full_rows) -> dict[int, dict]:
    return {row["id"]: row for row in full_rows}


@pytest.fixture(scope="module")
def sample() -> list[dict]:
    with open(SAMPLE, encoding="utf-8") as stream:
        return [json.loads(line) for line in stream]


def test_every_combination_and_table_1_cell_is_the_published_one(full_rows):
    cells = compared_cells(full_rows)
    combos = {(c.domain, c.what) for c in cells if c.what.endswith(": rows")}
    assert len(combos) == 73
    assert len({(r["domain"], r["init"], r["goal"]) for r in full_rows}) == 73
    assert any(c.what == "(80,inf)" for c in cells) and any(c.what == "heldout test" for c in cells)
    assert differences(full_rows) == []
    assert len(full_rows) == 145_918


def test_heldout_test_sizes_are_the_published_ones(full_rows):
    test = Counter(r["domain"] for r in full_rows if r["split_heldout"] == "test")
    assert test == {"blocksworld": 4_993, "gripper": 4_778, "floor-tile": 6_172}
    excluded = Counter(r["domain"] for r in full_rows if r["split_heldout"] == "excluded")
    assert excluded["floor-tile"] == 0 and excluded["blocksworld"] > 0 and excluded["gripper"] > 0


def test_report_strict_passes_on_the_full_dataset(full_rows, monkeypatch):
    import planetarium.dataset

    monkeypatch.setattr(planetarium.dataset, "load_rows", lambda source, split=None: full_rows)
    result = CliRunner().invoke(data_group, ["report", "full", "--strict"])
    assert result.exit_code == 0, result.output[-2000:]
    assert "gripper | n_room_distributed -> holding | 6,804 | 6,804 | 5,107 | 5,107 |" in result.output
    assert "0 differ" in result.output


def _checkerboard(problem, rows: int, cols: int) -> bool:
    """Whether the goal paints every pair of neighbouring tiles in different colours."""
    colour = {atom[1]: atom[2] for atom in problem.goal if atom[0] == "painted"}
    tile = lambda r, c: f"tile{r * cols + c + 1}"  # noqa: E731 - the layout's numbering
    return all(colour[tile(r, c)] != colour[tile(r + dr, c + dc)]
               for r in range(rows) for c in range(cols) for dr, dc in ((0, 1), (1, 0))
               if r + dr < rows and c + dc < cols)


def test_every_published_row_is_our_row_with_that_id(sample, by_id):
    """Same combination, classes, placeholder flag, size bin, random fold and held-out
    membership, and the same problem up to renaming objects (identity mode) — except where
    the published ground truth contradicts its own text: a 'checkerboard' whose neighbouring
    tiles share a colour, for which ours must be a checkerboard of the same grid."""
    assert len(sample) == 1_426
    departures = Counter()
    for published in sample:
        ours = by_id[published["id"]]
        for column in ("domain", "init", "goal", "init_is_abstract", "goal_is_abstract",
                       "is_placeholder", "num_objects", "init_num_propositions",
                       "goal_num_propositions"):
            assert ours[column] == published[column], (published["id"], column)
        assert PUBLISHED_SIZE[size_bin(ours)] == published["splits"]["size"]
        assert str(ours["random_fold"]) == published["splits"]["random"]
        assert (ours["split_heldout"] == "test") == (published["splits"]["heldout"] == "test")
        domain, theirs = load_ground_truth(published["problem_pddl"])
        _, mine = load_ground_truth(ours["problem_pddl"])
        if compare(theirs, mine, domain, limits=_limits(), is_placeholder=False).equivalent:
            continue
        assert published["goal"] == "checkerboard", published["name"]
        rows, cols = _grid_shape(theirs)
        assert not _checkerboard(theirs, rows, cols) and _checkerboard(mine, rows, cols)
        assert theirs.init == mine.init
        departures[published["goal"]] += 1
    assert departures == {"checkerboard": 8}


def _grid_shape(problem) -> tuple[int, int]:
    """Rows and columns of a generated grid: tiles are numbered row by row, so the tile below
    tile1 is the first of row two."""
    tiles = sum(1 for kind in problem.object_types if kind == "tile")
    below = [a[2] for a in problem.init if a[0] == "up" and a[1] == "tile1"]
    cols = int(below[0][len("tile"):]) - 1 if below else tiles
    return tiles // cols, cols


def test_departures_from_the_published_ground_truth_are_exactly_the_broken_checkerboards(full_rows):
    """Every grid -> checkerboard row is a checkerboard; the published ones were not on 24 grid
    shapes (96 problems, 384 rows: the README's count)."""
    broken = Counter()
    for row in full_rows:
        if row["goal"] != "checkerboard":
            continue
        problem = read_generated(row["problem_pddl"])
        rows, cols = _grid_shape(problem)
        assert _checkerboard(problem, rows, cols), row["name"]
        # the published pattern: laid out with rows and columns swapped
        swapped = {f"tile{i + 1}": (i // rows + i % rows) % 2 for i in range(rows * cols)}
        if any(swapped[t] == swapped[u] for t, u in _neighbours(rows, cols)):
            broken[row["init"], rows, cols] += 1
    assert sum(broken.values()) == 384 and len(broken) == 24


def _neighbours(rows: int, cols: int):
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                yield f"tile{r * cols + c + 1}", f"tile{r * cols + c + 2}"
            if r + 1 < rows:
                yield f"tile{r * cols + c + 1}", f"tile{(r + 1) * cols + c + 1}"


def _problems(rows: list[dict]) -> dict[str, list[dict]]:
    grouped: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        grouped[row["problem_pddl"]].append(row)
    return grouped


def _test_problems_by_invariant(rows: list[dict], domain) -> dict[int, list]:
    buckets: dict[int, list] = defaultdict(list)
    for pddl in _problems([r for r in rows if r["split_heldout"] == "test"]):
        problem = read_generated(pddl)
        buckets[problem_invariant(problem, domain)].append(problem)
    return buckets


@pytest.mark.parametrize("name", ["blocksworld", "gripper"])
def test_no_heldout_train_row_is_a_test_problem_up_to_renaming(full_rows, name):
    """Every training problem against every test problem with its isomorphism invariant
    (problem_invariant is checked to be one in test_dataset_leaks.py); and every excluded row
    really is a test problem."""
    rows = [r for r in full_rows if r["domain"] == name]
    domain = get_domain(name)
    buckets = _test_problems_by_invariant(rows, domain)
    checked = 0
    for split, expected in (("train", False), ("excluded", True)):
        for pddl in _problems([r for r in rows if r["split_heldout"] == split]):
            problem = read_generated(pddl)
            same = [t for t in buckets.get(problem_invariant(problem, domain), ())
                    if compare(t, problem, domain, limits=_limits(), is_placeholder=False).equivalent]
            assert bool(same) == expected, (split, pddl[:80])
            checked += 1
    assert checked > 10_000


def test_focus_rows_are_graded_with_object_identity(full_rows):
    """focus_max / focus_min name a room ("the room that started with the fewest balls"): a
    prediction sending the balls to another room is wrong, though it is the same up to
    renaming the goal's rooms."""
    focus = [r for r in full_rows if r["goal"] in ("focus_max", "focus_min")]
    assert focus and not any(r["is_placeholder"] for r in focus)
    assert {(r["init_is_abstract"], r["goal_is_abstract"]) for r in focus} == {(True, True), (False, False)}
    row = next(r for r in focus if r["goal"] == "focus_min" and r["init"] == "one_room"
               and r["init_is_abstract"] and "(at ball1 room2)" in r["problem_pddl"])
    assert "fewest balls (room2)" in row["natural_language"]
    head, goal = row["problem_pddl"].split("(:goal")
    wrong = head + "(:goal" + goal.replace(" room2)", " room1)")  # every ball to room1
    assert wrong != row["problem_pddl"]
    assert grade(row["problem_pddl"], row["problem_pddl"], is_placeholder=row["is_placeholder"]).correct
    verdict = grade(row["problem_pddl"], wrong, is_placeholder=row["is_placeholder"])
    assert verdict.parseable and verdict.solvable and not verdict.correct
    # the same wrong answer would pass in placeholder mode: identity is what rejects it
    assert grade(row["problem_pddl"], wrong, is_placeholder=True).correct


def test_texts_repeat_only_for_one_problem(full_rows):
    """Kept rows share a text only where the published texts differed by a parameter alone
    (equal_towers' count of listed heights): then they are the same problem."""
    by_text: dict[tuple, list[dict]] = defaultdict(list)
    for row in full_rows:
        by_text[row["domain"], row["natural_language"]].append(row)
    repeated = [rows for rows in by_text.values() if len(rows) > 1]
    assert sum(len(rows) for rows in repeated) == 16
    for rows in repeated:
        assert all("equal_towers" in (r["init"], r["goal"]) for r in rows)
        domain, first = load_ground_truth(rows[0]["problem_pddl"])
        for other in rows[1:]:
            assert compare(first, load_ground_truth(other["problem_pddl"])[1], domain,
                           limits=_limits()).equivalent
