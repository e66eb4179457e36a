"""Dataset task modules of Gripper, Floor Tile and Rover: sizes, texts, parseability, solvability.

Rows are produced with the dataset generator's own job planner and builder and de-duplicated by
text (first row wins), so the counts checked here are the counts ``planetarium data generate``
writes.  Every Rover problem and a fixed sample of the Gripper and Floor Tile ones (``EVERY``)
is parsed, solved and its plan replayed, which keeps the module under a minute.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from planetarium.dataset.config import DomainConfig
from planetarium.dataset.generator import build_job, plan_jobs
from planetarium.dataset.problem_text import problem_key
from planetarium.tasks import DoesNotFit
from planetarium.domains import get_domain
from planetarium.pddl import read_problem
from planetarium.strips.validate import validate_plan

#: Published per-domain row counts (Planetarium paper, Table 1) and combinations with rows.
PUBLISHED_ROWS = {"gripper": 54_141, "floor-tile": 6_172}
#: Combinations with rows: the published Gripper dataset has 30, Floor Tile 9.
COMBINATIONS_WITH_ROWS = {"gripper": 30, "floor-tile": 9, "rover-single": 25}
#: The Gripper (init, goal) pairs the layouts allow that have no rows, and why: evenly spread
#: balls have no room with the most or fewest balls and no empty room to drop balls in, and
#: always outnumber the grippers.  34 allowed pairs less these 4 are the published 30 (whose
#: names include holding -> n_room_distributed, a holding start with nothing held).
GRIPPER_EMPTY = {("evenly_distributed", "focus_max"), ("evenly_distributed", "focus_min"),
                 ("evenly_distributed", "drop_and_pickup"), ("evenly_distributed", "pickup")}
#: Gripper parameter list sizes: published for swap, juggle and evenly_distributed; the other
#: three are sized for the published row count (see the task module).
GRIPPER_LIST_SIZES = {"evenly_distributed": 42, "holding": 1_050, "juggle": 1_575,
                      "n_room_distributed": 234, "one_room": 1_250, "swap": 300}
#: Problems checked per domain: every k-th (all of Rover; samples keep the module fast).
EVERY = {"gripper": 8, "floor-tile": 2, "rover-single": 1}


def _rows(domain: str) -> list[dict]:
    """The domain's rows as the generator emits them (first row per text wins)."""
    texts: dict[str, str] = {}
    rows = []
    for job in plan_jobs(DomainConfig(domain)):
        for row in build_job(job):
            body = problem_key(row["problem_pddl"])
            first = texts.setdefault(row["natural_language"], body)
            assert first == body, f"one text, two problems:\n{row['natural_language']}"
            if first is body:
                rows.append(row)
    return rows


@pytest.fixture(scope="module")
def rows() -> dict[str, list[dict]]:
    return {domain: _rows(domain) for domain in ("gripper", "floor-tile", "rover-single")}


def _tasks(domain: str):
    return get_domain(domain).dataset_tasks()


def _instances(domain: str, every: int = 1):
    """(init layout, goal layout, param, instance) for every ``every``-th parameter that fits."""
    tasks = _tasks(domain)
    for init, goal in tasks.combinations():
        seen = {}
        for layout in (init, goal):
            for param in layout.space() if layout.space else ():
                seen.setdefault(repr(param), param)
        for param in list(seen.values())[::every]:
            try:
                yield init, goal, param, tasks.build(init, goal, param)
            except DoesNotFit:
                continue


def test_gripper_parameter_list_sizes():
    sizes = {layout.name: len(layout.space()) for layout in _tasks("gripper").layouts if layout.space}
    assert sizes == GRIPPER_LIST_SIZES


@pytest.mark.parametrize("domain", sorted(PUBLISHED_ROWS))
def test_row_counts_are_within_two_percent_of_the_published(rows, domain):
    assert abs(len(rows[domain]) - PUBLISHED_ROWS[domain]) <= 0.02 * PUBLISHED_ROWS[domain]


@pytest.mark.parametrize("domain", sorted(COMBINATIONS_WITH_ROWS))
def test_combinations_with_rows(rows, domain):
    combos = Counter((r["init"], r["goal"]) for r in rows[domain])
    assert len(combos) == COMBINATIONS_WITH_ROWS[domain]


def test_gripper_combinations_without_rows_are_the_impossible_ones(rows):
    allowed = {(i.name, g.name) for i, g in _tasks("gripper").combinations()}
    with_rows = {(r["init"], r["goal"]) for r in rows["gripper"]}
    assert allowed - with_rows == GRIPPER_EMPTY


def test_same_kind_only_combinations_get_two_identity_classes(rows):
    for row in rows["gripper"] + rows["floor-tile"]:
        if {row["init"], row["goal"]} & {"swap", "juggle", "drop_and_pickup", "disconnected_rows"}:
            assert row["init_is_abstract"] == row["goal_is_abstract"]
            assert not row["is_placeholder"]


@pytest.mark.parametrize("domain", ["gripper", "floor-tile", "rover-single"])
def test_problems_parse_and_are_solvable(rows, domain):
    """Parse with the domain's reader, plan with its planner, replay the plan with our VAL."""
    definition = get_domain(domain)
    problems = sorted({r["problem_pddl"] for r in rows[domain]})[::EVERY[domain]]
    for text in problems:
        problem = read_problem(text, definition.definition)
        assert problem.domain == domain
        plan = definition.solve(problem, 10.0)
        assert plan is not None, f"unsolvable:\n{text}"
        verdict = validate_plan(definition.definition, problem, plan)
        assert verdict.ok, f"{verdict.message}\n{text}"


@pytest.mark.parametrize("domain", ["gripper", "floor-tile", "rover-single"])
def test_explicit_texts_give_one_sentence_per_atom(domain):
    """The intro, then one sentence per atom; distinct atoms give distinct sentences, so the
    text determines the atoms; every object is named."""
    templates = _tasks(domain).explicit
    for _, _, param, inst in _instances(domain, EVERY[domain]):
        for atoms, text, is_init in ((inst.init, inst.init_explicit, True),
                                     (inst.goal, inst.goal_explicit, False)):
            head = templates.intro(inst.objects, inst.object_types) if is_init else templates.goal_intro
            sentences = [templates.sentence(atom, is_init) for atom in atoms]
            assert text == f"{head} {' '.join(sentences)}", param
            assert len(set(sentences)) == len(set(atoms)) == len(atoms), param
        named = set(re.findall(r"\b[a-z]+\d+\b", inst.init_explicit + " " + inst.goal_explicit))
        assert named == set(inst.objects), param


@pytest.mark.parametrize("domain", ["gripper", "floor-tile", "rover-single"])
def test_each_text_part_determines_its_state(rows, domain):
    """An init text (abstract or explicit) always stands for one initial state, and a goal text
    read against one initial state always stands for one goal: no text is ambiguous."""
    init_of: dict[str, set[str]] = {}
    goal_of: dict[tuple[str, str], set[str]] = {}
    for row in rows[domain]:
        init_text, goal_text = row["natural_language"].split("\n")
        body = row["problem_pddl"].split("(:init", 1)[1]
        init, goal = body.split("(:goal", 1)
        init_of.setdefault(init_text, set()).add(init)
        goal_of.setdefault((init, goal_text), set()).add(goal)
    assert all(len(states) == 1 for states in init_of.values())
    assert all(len(states) == 1 for states in goal_of.values())


_ONE_PLURAL = re.compile(r"\b1 (rooms|balls|grippers|robots|tiles|unpainted tiles|colors|"
                         r"waypoints|cameras|modes|objectives|rows|columns)\b")


@pytest.mark.parametrize("domain", ["gripper", "floor-tile", "rover-single"])
def test_counts_are_pluralised(rows, domain):
    for row in rows[domain]:
        assert not _ONE_PLURAL.search(row["natural_language"]), row["natural_language"]


def _build(domain: str, init: str, goal: str, param):
    tasks = _tasks(domain)
    return tasks.build(tasks.layout_by_name[init], tasks.layout_by_name[goal], param)


def test_gripper_texts_state_robbys_room_and_the_object_kinds():
    inst = _build("gripper", "n_room_distributed", "one_room",
                  {"balls_in_grippers": [0, 0], "balls_in_rooms": [1, 0, 2]})
    assert "The robby is in room1." in inst.init_explicit
    assert "room3 is a room." in inst.init_explicit and "ball3 is a ball." in inst.init_explicit
    assert "gripper2 is a gripper." in inst.init_explicit
    assert "which is in room1" in inst.init_abstract
    assert "room1 has 1 ball (ball1), room2 has no balls and room3 has 2 balls" in inst.init_abstract


def test_gripper_relative_goals_follow_the_state_actually_built():
    """one_room puts every ball in room1 whatever the counts say, so room1 has the most."""
    inst = _build("gripper", "one_room", "focus_max",
                  {"balls_in_grippers": [0], "balls_in_rooms": [1, 3]})
    assert set(inst.goal) == {("at", "ball1", "room1"), ("at", "ball2", "room1"),
                              ("at", "ball3", "room1"), ("at", "ball4", "room1"), ("free", "gripper1")}
    assert "(room1)" in inst.goal_abstract


def test_gripper_identity_layouts_name_their_objects():
    juggle = _build("gripper", "juggle", "juggle",
                    {"balls_in_grippers": [1, 1, 0], "balls_in_rooms": [1]})
    assert {("carry", "ball2", "gripper1"), ("carry", "ball1", "gripper2")} <= set(juggle.goal)
    assert "gripper1 holds ball1 and gripper2 holds ball2" in juggle.init_abstract
    assert "gripper1 should hold the ball gripper2 holds now" in juggle.goal_abstract
    drop = _build("gripper", "holding", "drop_and_pickup",
                  {"balls_in_grippers": [1, 0], "balls_in_rooms": [1, 0]})
    assert set(drop.goal) == {("at", "ball1", "room2"), ("carry", "ball2", "gripper1")}
    assert "in room2" in drop.goal_abstract


def test_gripper_lists_only_consecutive_names_as_ranges():
    inst = _build("gripper", "holding", "holding",
                  {"balls_in_grippers": [1, 0, 1, 0, 0, 0], "balls_in_rooms": [2, 0]})
    assert "gripper2, gripper4, gripper5 and gripper6 are free." in inst.init_abstract
    assert "room1 has 2 balls (ball3 and ball4)" in inst.init_abstract
    assert inst.goal_abstract.startswith("Your goal is that gripper1 and gripper3 should each carry")


def test_gripper_holding_with_nothing_held():
    """The published n_room_distributed -> holding and holding -> n_room_distributed rows come
    from parameters that mark no gripper: every gripper free as a goal, and as a start an
    n_room_distributed state described in the holding layout's own words."""
    nothing_held = {"balls_in_grippers": [0, 0], "balls_in_rooms": [1, 2]}
    inst = _build("gripper", "n_room_distributed", "holding", nothing_held)
    assert set(inst.goal) == {("free", "gripper1"), ("free", "gripper2")}
    assert inst.goal_abstract == ("Your goal is that every gripper should be free; "
                                  "the balls may be in any room.")
    start = _build("gripper", "holding", "n_room_distributed", nothing_held)
    assert set(start.init) == set(_build("gripper", "n_room_distributed", "n_room_distributed",
                                          nothing_held).init)
    assert ("No gripper holds a ball and every gripper is free. room1 has 1 ball (ball1) and "
            "room2 has 2 balls") in start.init_abstract


def test_floor_tile_checkerboard_is_not_transposed_on_a_non_square_grid():
    param = {"grid": [2, 3], "colors": 2, "robots": [{"at": [0, 0], "color": 0}]}
    inst = _build("floor-tile", "grid", "checkerboard", param)
    painted = {a[1]: a[2] for a in inst.goal}
    assert [painted[f"tile{k}"] for k in range(1, 7)] == ["color1", "color2", "color1",
                                                          "color2", "color1", "color2"]
    assert ("up", "tile1", "tile4") in inst.init and ("right", "tile2", "tile1") in inst.init


def test_floor_tile_disconnected_rows_have_two_tiles_and_no_available_color():
    for param in _tasks("floor-tile").layout_by_name["disconnected_rows"].space():
        assert min(param["rows"]) >= 2
    inst = _build("floor-tile", "disconnected_rows", "disconnected_rows", {"rows": [2, 3]})
    assert not any(a[0] in ("available-color", "up") for a in inst.init)
    assert set(inst.goal) == {("painted", "tile1", "color1"), ("painted", "tile2", "color1"),
                              ("painted", "tile3", "color2"), ("painted", "tile5", "color2")}
    assert inst.init_explicit.startswith("You have 2 robots, 5 tiles and 2 colors.")
    with pytest.raises(ValueError):
        _build("floor-tile", "disconnected_rows", "disconnected_rows", {"rows": [1, 3]})


def test_floor_tile_one_robot_is_singular():
    inst = _build("floor-tile", "grid", "paint_all",
                  {"grid": [1, 2], "colors": 1, "robots": [{"at": [0, 0], "color": 0}]})
    assert inst.init_explicit.startswith("You have 1 robot, 2 tiles and 1 color.")
    assert "1 robot (robot1), 1 color (color1) and 2 unpainted tiles" in inst.init_abstract


def test_rover_maps_are_symmetric_and_ready_to_communicate():
    for _, _, param, inst in _instances("rover-single"):
        init = set(inst.init)
        assert {("available",), ("channel_free",)} <= init, param
        for atom in init:
            if atom[0] in ("can_traverse", "visible"):
                assert (atom[0], atom[2], atom[1]) in init, param
        lander = next(a[1] for a in init if a[0] == "at_lander")
        assert ("visible", lander, lander) in init, param
