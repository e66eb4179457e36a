"""Dataset task modules of Gripper, Floor Tile and Rover: the published states, our texts,
parseability and solvability.

Rows come from each domain's own parameter spaces (the defaults), generated as ``planetarium
data generate`` would; data/full.yaml's published parameters are tested against the published
dataset in test_dataset_published.py.  Every Rover problem and a fixed sample of the Gripper and
Floor Tile ones (``EVERY``) is parsed, solved and its plan replayed.
"""

from __future__ import annotations

import re

import pytest

from planetarium.dataset.config import parse_config
from planetarium.dataset.generator import generate
from planetarium.domains import get_domain
from planetarium.limits import Deadline
from planetarium.pddl import read_problem
from planetarium.strips.validate import validate_plan
from planetarium.tasks import DoesNotFit

#: Problems checked per domain: every k-th (all of Rover; samples keep the module fast).
EVERY = {"gripper": 8, "floor-tile": 2, "rover-single": 1}


@pytest.fixture(scope="module")
def rows() -> dict[str, list[dict]]:
    return {domain: generate(parse_config({"domains": [{"name": domain}]}), workers=1)
            for domain in ("gripper", "floor-tile", "rover-single")}


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


def test_same_kind_only_combinations_get_two_identity_classes(rows):
    """The published tied and strict layouts: their rows are graded with object identity."""
    strict = {"swap", "juggle", "drop_and_pickup", "focus_max", "focus_min", "disconnected_rows"}
    assert {r["goal"] for r in rows["gripper"]} >= {"focus_max", "focus_min", "drop_and_pickup"}
    for row in rows["gripper"] + rows["floor-tile"]:
        if {row["init"], row["goal"]} & strict:
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
        plan = definition.solve(problem, Deadline.start(10.0))
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


def test_gripper_states_are_the_published_ones():
    """one_room gathers every ball in room1 whatever the counts say; evenly_distributed and swap
    deal the balls out in turn (swap: two rooms, an even number of balls); the first grippers
    hold the first balls; at-robby is not counted in the init's size."""
    inst = _build("gripper", "one_room", "holding", {"balls_in_grippers": [1, 1], "balls_in_rooms": [1, 2]})
    assert [a for a in inst.init if a[0] in ("at", "free")] == [
        ("free", "gripper1"), ("free", "gripper2")] + [("at", f"ball{i}", "room1") for i in range(1, 6)]
    assert inst.goal == (("carry", "ball1", "gripper1"), ("carry", "ball2", "gripper2"))
    assert inst.init[0] == ("at-robby", "room1") and inst.init_size == len(inst.init) - 1
    swap = _build("gripper", "swap", "swap", {"balls_in_grippers": [0, 0], "balls_in_rooms": [1, 3]})
    assert [a for a in swap.init if a[0] == "at"] == [("at", "ball1", "room1"), ("at", "ball3", "room1"),
                                                     ("at", "ball2", "room2"), ("at", "ball4", "room2")]
    assert {a[1]: a[2] for a in swap.goal if a[0] == "at"} == {
        "ball1": "room2", "ball3": "room2", "ball2": "room1", "ball4": "room1"}
    with pytest.raises(DoesNotFit):
        _build("gripper", "swap", "swap", {"balls_in_grippers": [0, 0], "balls_in_rooms": [1, 2]})
    one_room = _build("gripper", "evenly_distributed", "one_room",
                      {"balls_in_grippers": [0, 0], "balls_in_rooms": [3]})
    assert "the only room" in one_room.init_abstract
    with pytest.raises(ValueError, match="1s then 0s"):
        _build("gripper", "holding", "holding", {"balls_in_grippers": [0, 1], "balls_in_rooms": [1]})


def test_gripper_goals_reading_the_start_need_it_as_counted():
    """focus_max reads the counts: after one_room gathered the balls elsewhere its text could
    not be true, so the parameter does not fit (never the case in the published lists)."""
    with pytest.raises(DoesNotFit):
        _build("gripper", "one_room", "focus_max", {"balls_in_grippers": [0], "balls_in_rooms": [1, 3]})
    inst = _build("gripper", "one_room", "focus_min", {"balls_in_grippers": [0, 0], "balls_in_rooms": [3, 0]})
    assert [a for a in inst.goal if a[0] == "at"] == [("at", f"ball{i}", "room2") for i in (1, 2, 3)]
    assert "fewest balls (room2)" in inst.goal_abstract


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


def test_gripper_names_the_held_balls_and_free_grippers():
    inst = _build("gripper", "holding", "holding",
                  {"balls_in_grippers": [1, 1, 0, 0, 0, 0], "balls_in_rooms": [2, 0]})
    assert "gripper1 holds ball1 and gripper2 holds ball2." in inst.init_abstract
    assert "gripper3 to gripper6 are free." in inst.init_abstract
    assert "room1 has 2 balls (ball3 and ball4)" in inst.init_abstract
    assert inst.goal_abstract.startswith("Your goal is that gripper1 and gripper2 should each carry")


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
    same = _build("gripper", "n_room_distributed", "n_room_distributed", nothing_held)
    assert set(start.init) == set(same.init)
    assert ("No gripper holds a ball and every gripper is free. room1 has 1 ball (ball1) and "
            "room2 has 2 balls") in start.init_abstract
    # one state, two layouts' words: the published texts differed too (its holding text was wrong)
    assert start.init_abstract != same.init_abstract
    assert start.init_abstract_key == ("held", (2, 3, 2), 1)


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


def test_floor_tile_states_are_the_published_ones():
    """A grid lists per tile its right then its up fact, then each robot's colour and tile, then
    the colours (rings: colours, robots, tiles); paint_x lists the diagonals row by row."""
    param = {"grid": [2, 2], "colors": 2, "robots": [{"at": [1, 0], "color": 1}]}
    grid = _build("floor-tile", "grid", "paint_x", param)
    assert grid.init == (("right", "tile2", "tile1"), ("up", "tile1", "tile3"), ("right", "tile4", "tile3"),
                         ("up", "tile2", "tile4"), ("robot-has", "robot1", "color2"),
                         ("robot-at", "robot1", "tile3"), ("available-color", "color1"),
                         ("available-color", "color2"))
    assert [a[1] for a in grid.goal] == ["tile1", "tile2", "tile4", "tile3"]
    rings = _build("floor-tile", "rings", "rings",
                   {"grid": [3, 3], "colors": 2, "robots": [{"at": [0, 0], "color": 0}]})
    assert rings.init[:4] == (("available-color", "color1"), ("available-color", "color2"),
                              ("robot-has", "robot1", "color1"), ("robot-at", "robot1", "tile1"))
    assert rings.goal[:2] == (("available-color", "color1"), ("available-color", "color2"))
    six = {"grid": [6, 6], "colors": 4, "robots": [{"at": [0, 0], "color": 0}]}
    assert {a[2] for a in _build("floor-tile", "rings", "rings", six).goal if a[0] == "painted"} == {
        "color1", "color2", "color3"}  # the published 6x6 grids have a colour to spare


def test_floor_tile_goal_rules_and_sizes():
    """paint_x's centre tile is stated once but counted twice (the published count);
    paint_all takes two or three colours (the published rule)."""
    one = {"grid": [3, 3], "colors": 1, "robots": [{"at": [0, 0], "color": 0}]}
    x = _build("floor-tile", "grid", "paint_x", one)
    assert len(x.goal) == len(set(x.goal)) == 5 and x.goal_size == 6
    two = _build("floor-tile", "grid", "paint_x", {**one, "colors": 2})
    assert len(two.goal) == 9 and two.goal_size == 10
    even = _build("floor-tile", "grid", "paint_x", {**one, "grid": [4, 4]})
    assert even.goal_size == len(even.goal) == 8
    with pytest.raises(DoesNotFit):
        _build("floor-tile", "grid", "paint_all", one)
    assert _build("floor-tile", "grid", "paint_all", {**one, "colors": 3}).goal_size is None


def test_floor_tile_one_robot_is_singular():
    inst = _build("floor-tile", "grid", "paint_x",
                  {"grid": [2, 2], "colors": 1, "robots": [{"at": [0, 0], "color": 0}]})
    assert inst.init_explicit.startswith("You have 1 robot, 4 tiles and 1 color.")
    assert "1 robot (robot1), 1 color (color1) and 4 unpainted tiles" in inst.init_abstract


def test_rover_maps_are_symmetric_and_ready_to_communicate():
    for _, _, param, inst in _instances("rover-single"):
        init = set(inst.init)
        assert {("available",), ("channel_free",)} <= init, param
        for atom in init:
            if atom[0] in ("can_traverse", "visible"):
                assert (atom[0], atom[2], atom[1]) in init, param
        lander = next(a[1] for a in init if a[0] == "at_lander")
        assert ("visible", lander, lander) in init, param
