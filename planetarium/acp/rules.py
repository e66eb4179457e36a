"""How each ACPBench domain's generator writes a state in English: clauses and implicit facts.

Written from the generative records (which pair each English context with its PDDL problem) and
never trusted on that basis alone: :mod:`.english` re-reads every generative record of a domain
with these rules and uses a domain only when no reading differs from the record's own problem.
Each rule names the sentence it reads; what the English leaves out is added in ``complete``:

* ferry: ``not-eq`` between distinct locations (the PDDL's static inequality);
* blocksworld: ``clear`` for every block with nothing on it that the arm does not hold;
* grid: the grid's 4-neighbour ``conn`` and ``open`` for every place not locked;
* floortile: ``left``/``up`` as the inverses of the stated ``right``/``down``; both colours
  available (and "; is clear;", a list whose tile names the generator dropped, is refused);
* grippers: a robot's two grippers are ``left1``/``right1`` (robot N: ``leftN``/``rightN``);
* logistics: the airport of city N is location ``lN-0``;
* rovers: every lander's channel is free; the modes are colour, high_res and low_res;
* visitall: every available grid cell and the 4-neighbour ``connected`` between them.

Numbered objects ("There are 2 locations and 20 cars, numbered consecutively") are generated
from the counts, since an empty location is named nowhere else.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

from ..pddl.domain import DomainDef
from .reader import DIGITED, Clause, DomainText, ReadError, Reading


@dataclass(frozen=True)
class _Numbered:
    """A handler declaring, per ``(group, prefix, start, type)``, as many objects
    ``prefix{start}``, ``prefix{start + 1}``, ... as the match's group counts (a class, not a
    closure, so that readers pickle into worker processes)."""

    groups: tuple[tuple[str, str, int, str], ...]

    def __call__(self, match: re.Match, reading: Reading) -> None:
        for key, prefix, start, type_name in self.groups:
            for i in range(start, start + int(match.group(key))):
                reading.declare(f"{prefix}{i}", type_name)


def _numbered(*groups: tuple[str, str, int, str]) -> _Numbered:
    return _Numbered(groups)


def _grid_cells(match: re.Match) -> list[tuple[int, int]]:
    return list(itertools.product(range(int(match.group("x"))), range(int(match.group("y")))))


def _cell(pattern: str, name: str) -> tuple[int, int]:
    """The grid coordinates in a cell's name (``f2-3f``: (2, 3)); :class:`ReadError` when the
    name is not one of the pattern's."""
    match = re.fullmatch(pattern, name)
    if match is None:
        raise ReadError(f"{name} is not a grid cell name")
    return int(match.group(1)), int(match.group(2))


def _neighbours(cells: list[tuple[int, int]], name: Callable[[int, int], str], predicate: str,
                reading: Reading) -> None:
    present = set(cells)
    for x, y in cells:
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if (x + dx, y + dy) in present:
                reading.facts.add((predicate, name(x, y), name(x + dx, y + dy)))


def _ferry_complete(reading: Reading, domain: DomainDef) -> None:
    places = [o for o, t in reading.types.items() if t == "location"]
    for a, b in itertools.permutations(places, 2):
        reading.facts.add(("not-eq", a, b))


FERRY = DomainText("ferry", (
    Clause(r"There are (?P<l>\d+) locations? and (?P<c>\d+) cars?, numbered consecutively\.",
           handler=_numbered(("l", "l", 0, "location"), ("c", "c", 0, "car"))),
    Clause(r"Currently, the ferry is at {l} location and it is empty",
           ("at-ferry {l}", "empty-ferry")),
    Clause(r"Currently, the ferry is at {l}, with the car {c} on board", ("at-ferry {l}", "on {c}")),
    Clause(r"The cars are at locations as follows:"),
    Clause(r"{cars+} (?:is|are) at {l}", ("at {cars} {l}",)),
), complete=_ferry_complete)


def _blocks_complete(reading: Reading, domain: DomainDef) -> None:
    covered = {a[2] for a in reading.facts if a[0] == "on"}
    covered |= {a[1] for a in reading.facts if a[0] == "holding"}
    for block in reading.types:
        if block not in covered:
            reading.facts.add(("clear", block))


BLOCKSWORLD = DomainText("blocksworld-4ops", (
    Clause(r"There (?:are|is) (?P<n>\d+) blocks?\.", handler=_numbered(("n", "block_", 1, "object"))),
    Clause(r"Currently, the robotic arm is empty", ("handempty",)),
    Clause(r"Currently, the robotic arm is holding {b}", ("holding {b}",)),
    Clause(r"The following block\(s\) (?:are|is) on the table: {bs+}", ("ontable {bs}",)),
    Clause(r"The following block\(s\) (?:are|is) stacked on top of another block:"),
    Clause(r"{a} is on {b}", ("on {a} {b}",)),
), complete=_blocks_complete)


def _grid_places(match: re.Match, reading: Reading) -> None:
    for x, y in _grid_cells(match):
        reading.declare(f"f{x}-{y}f", "place")


def _grid_complete(reading: Reading, domain: DomainDef) -> None:
    places = [o for o, t in reading.types.items() if t == "place"]
    cells = [_cell(r"f(\d+)-(\d+)f", p) for p in places]
    _neighbours(cells, lambda x, y: f"f{x}-{y}f", "conn", reading)
    locked = {a[1] for a in reading.facts if a[0] == "locked"}
    for place in places:
        if place not in locked:
            reading.facts.add(("open", place))


GRID = DomainText("grid", (
    Clause(r"The grid size is (?P<x>\d+)x(?P<y>\d+), and the locations are of the form fi-jf "
           r"\(e\.g\., {e1} or {e2}\)\.", handler=_grid_places),
    Clause(r"The grid cells are connected to their neighbors \(e\.g\., {a} is connected to the "
           r"four neighbors {bs+}\)\."),
    Clause(r"Some positions on the grid are locked and can be opened with a key of a matching "
           r"shape\. The robot has an arm that can pick up a key when the key is in same location "
           r"as the robot and the arm is empty\."),
    Clause(r"There (?:are|is) \d+ keys? in \d+ different shapes?[:.]"),
    Clause(r"Key {k} is of shape {s}", ("key-shape {k} {s}",)),
    Clause(r"Currently, the robot is at position {p} and its arm is empty",
           ("at-robot {p}", "arm-empty")),
    Clause(r"Currently, the robot is at position {p} and is holding {k}",
           ("at-robot {p}", "holding {k}")),
    Clause(r"All the positions are open except the following:"),
    Clause(r"{p} has {s} shaped lock", ("lock-shape {p} {s}", "locked {p}")),
    Clause(r"Key {k} is at position {p}", ("at {k} {p}",)),
), complete=_grid_complete)


def _nameless(match: re.Match, reading: Reading) -> None:
    raise ReadError("'is clear' names no tile: the generator dropped the names (in the one "
                    "generative record like this, its PDDL has a clear tile)")


def _floortile_complete(reading: Reading, domain: DomainDef) -> None:
    for atom in list(reading.facts):
        if atom[0] in ("right", "down"):
            inverse = "left" if atom[0] == "right" else "up"
            reading.facts.add((inverse, atom[2], atom[1]))
    for colour in ("black", "white"):
        reading.declare(colour, "color")
        reading.facts.add(("available-color", colour))


FLOORTILE = DomainText("floor-tile", (
    Clause(r"There (?:are|is) (?P<t>\d+) tiles? and (?P<r>\d+) robots?\.",
           handler=_numbered(("t", "tile_", 1, "tile"), ("r", "robot", 1, "robot"))),
    Clause(r"There (?:are|is) (?P<r>\d+) robots? and (?P<t>\d+) tiles?\.",
           handler=_numbered(("t", "tile_", 1, "tile"), ("r", "robot", 1, "robot"))),
    Clause(r"The tiles locations are:"),
    Clause(r"{a} is to the right of {b}", ("right {a} {b}",)),
    Clause(r"Further,"),
    Clause(r"{a} is down from {b}", ("down {a} {b}",)),
    Clause(r"Currently,"),
    Clause(r"robot {r} is at {t} and holding color (?P<c>black|white)",
           ("robot-at {r} {t}", "robot-has {r} {c}")),
    Clause(r"{ts+} (?:is|are) clear", ("clear {ts}",)),
    Clause(r";\s*is clear;", handler=_nameless),
    Clause(r"{t} is painted (?P<c>black|white)", ("painted {t} {c}",)),
), complete=_floortile_complete)


def _grippers(match: re.Match, reading: Reading) -> None:
    """The robot's two grippers: free, or carrying a ball; gripper names follow the robot's."""
    robot = match.group("r")
    number = re.fullmatch(r"robot(\d+)", robot)
    if number is None:
        raise ReadError(f"robot {robot} is not named robotN, so its grippers have no known names")
    if match.group("both"):
        sides: list[tuple[str, str | None]] = [("left", None), ("right", None)]
    else:
        sides = [(match.group("s1"), match.group("b1")), (match.group("s2"), match.group("b2"))]
    for side, ball in sides:
        gripper = f"{side}{number.group(1)}"
        reading.declare(gripper, "gripper")
        if ball is None:
            reading.facts.add(("free", robot, gripper))
        else:
            reading.facts.add(("carry", robot, ball, gripper))


GRIPPERS = DomainText("gripper-strips", (
    Clause(r"There (?:are|is) (?P<r>\d+) robots?, (?P<m>\d+) rooms?, and (?P<b>\d+) balls?, "
           r"numbered consecutively\.",
           handler=_numbered(("r", "robot", 1, "robot"), ("m", "room", 1, "room"),
                             ("b", "ball", 1, "ball"))),
    Clause(r"Currently, the robot {r} is at {m}(?:(?P<both> and both grippers are free)|, "
           r"(?P<s1>left|right) gripper is (?:free|carrying the ball {b1}), and "
           r"(?P<s2>left|right) gripper is (?:free|carrying the ball {b2}))",
           ("at-robby {r} {m}",), handler=_grippers),
    Clause(r"Additionally,"),
    Clause(r"{bs+} (?:is|are) at {m}", ("at {bs} {m}",)),
))


def _logistics_complete(reading: Reading, domain: DomainDef) -> None:
    for name in {x for atom in reading.facts for x in atom[1:]}:
        if re.fullmatch(r"l\d+-0", name):
            reading.declare(name, "airport")


LOGISTICS = DomainText("logistics-strips", (
    Clause(r"There (?:are|is) (?P<t>\d+) trucks? and (?P<a>\d+) airplanes?, as well as "
           r"(?P<p>\d+) packages?\.",
           handler=_numbered(("t", "t", 0, "truck"), ("a", "a", 0, "airplane"),
                             ("p", "p", 0, "package"))),
    Clause(r"There (?:are|is) \d+ locations? across (?P<c>\d+) cit(?:y|ies)\.",
           handler=_numbered(("c", "c", 0, "city"))),
    Clause(r"The locations are in cities as follows:"),
    Clause(r"{ls+} (?:is|are) in (?P<c>c\d+)", ("in-city {ls} {c}",)),
    Clause(r"Currently,"),
    Clause(r"{xs+} (?:is|are) at {l}", ("at {xs} {l}",)),
    Clause(r"{ps+} (?:is|are) in (?P<v>[at]\d+)", ("in {ps} {v}",)),
), complete=_logistics_complete)


def _traverse(match: re.Match, reading: Reading) -> None:
    for a, b in re.findall(r"(\S+) to (\S+?)(?:,|$)", match.group("pairs")):
        reading.facts.add(("can_traverse", match.group("r"), a, b))


def _rovers_complete(reading: Reading, domain: DomainDef) -> None:
    for atom in list(reading.facts):
        if atom[0] == "at_lander":
            reading.facts.add(("channel_free", atom[1]))


_MODES = ("colour", "high_res", "low_res")


def _modes(match: re.Match, reading: Reading) -> None:
    for mode in _MODES:
        reading.declare(mode, "mode")


ROVERS = DomainText("rover", (
    Clause(r"There are (?P<r>\d+) rovers?, (?P<w>\d+) waypoints?, (?P<s>\d+) stores?, "
           r"(?P<c>\d+) cameras?, (?P<o>\d+) objectives? numbered consecutively\.",
           handler=_numbered(("r", "rover", 0, "rover"), ("w", "waypoint", 0, "waypoint"),
                             ("s", "store", 0, "store"), ("c", "camera", 0, "camera"),
                             ("o", "objective", 0, "objective"))),
    Clause(r"Further, there is 1 lander and 3 modes for the camera namely colour, high "
           r"resolution, and low resolution\.",
           handler=_modes),
    Clause(r"Rover\(s\) {rs+} (?:is|are) equipped for soil analysis",
           ("equipped_for_soil_analysis {rs}",)),
    Clause(r"Rover\(s\) {rs+} (?:is|are) equipped for rock analysis",
           ("equipped_for_rock_analysis {rs}",)),
    Clause(r"Rover\(s\) {rs+} (?:is|are) equipped for imaging", ("equipped_for_imaging {rs}",)),
    Clause(r"No rovers are equipped for (?:soil analysis|rock analysis|imaging)"),
    Clause(r"Rover {r} has store {s}", ("store_of {s} {r}",)),
    Clause(r"Rover {r} has {cs+} on board", ("on_board {cs} {r}",)),
    Clause(r"Camera {c} can be calibrated on {o}", ("calibration_target {c} {o}",)),
    Clause(r"Camera {c} supports {ms+}", ("supports {c} {ms}",)),
    Clause(r"Rover {r} can traverse from (?P<pairs>{w} to {w2}(?:, {w3} to {w4})*)",
           handler=_traverse),
    Clause(r"Waypoint\(s\) are visible from {w}: {ws+}", ("visible {w} {ws}",)),
    Clause(r"Objective {o} is visible from {ws+}", ("visible_from {o} {ws}",)),
    Clause(r"Lander {l} is at waypoint {w}", ("at_lander {l} {w}",)),
    Clause(r"Currently,"),
    Clause(r"Rover {r} is at {w}", ("at {r} {w}",)),
    Clause(r"Rocks can be sampled at the following location\(s\): {ws+}", ("at_rock_sample {ws}",)),
    Clause(r"Soil can be sampled at the following location\(s\): {ws+}", ("at_soil_sample {ws}",)),
    Clause(r"Rovers? {rs+} (?:is|are) available", ("available {rs}",)),
    Clause(r"Soil data (?:was|were) communicated from (?:waypoint|the following waypoints:) "
           r"{ws+};?", ("communicated_soil_data {ws}",)),
    Clause(r"Rock data (?:was|were) communicated from (?:waypoint|the following waypoints:) "
           r"{ws+};?", ("communicated_rock_data {ws}",)),
    Clause(r"Image {o} was communicated in mode {m}", ("communicated_image_data {o} {m}",)),
    Clause(r"Rover {r} has soil analyzed in waypoint {w}", ("have_soil_analysis {r} {w}",)),
    Clause(r"Rover {r} has rock analyzed in waypoint {w}", ("have_rock_analysis {r} {w}",)),
    Clause(r"Rover {r} has image {o} in mode {m}", ("have_image {r} {o} {m}",)),
    Clause(r"Rover {r} has its camera {c} calibrated", ("calibrated {c} {r}",)),
    Clause(r"Store\(s\) {ss+} (?:is|are) empty", ("empty {ss}",)),
    Clause(r"Store\(s\) {ss+} (?:is|are) full", ("full {ss}",)),
), objects=rf"(?:{DIGITED}|general|{'|'.join(_MODES)})", complete=_rovers_complete)


def _visitall_cells(match: re.Match, reading: Reading) -> None:
    for x, y in _grid_cells(match):
        reading.declare(f"loc-x{x}-y{y}", "place")


def _visitall_unavailable(match: re.Match, reading: Reading) -> None:
    for cell in re.findall(r"loc-x\d+-y\d+", match.group(0)):
        if reading.types.pop(cell, None) is None:
            raise ReadError(f"unavailable cell {cell} is not in the grid")


def _visitall_complete(reading: Reading, domain: DomainDef) -> None:
    cells = [_cell(r"loc-x(\d+)-y(\d+)", p) for p in reading.types]
    _neighbours(cells, lambda x, y: f"loc-x{x}-y{y}", "connected", reading)


VISITALL = DomainText("grid-visit-all", (
    Clause(r"The grid size is (?P<x>\d+)x(?P<y>\d+), and the location cell names are of the form "
           r"loc-xi-yj \(e\.g\., {e1} or {e2}\)\.", handler=_visitall_cells),
    Clause(r"The grid cells are connected to their available neighbors\."),
    Clause(r"The unavailable cells are {cs+}\.", handler=_visitall_unavailable),
    Clause(r"The only unavailable cell is {c}\.", handler=_visitall_unavailable),
    Clause(r"There are no unavailable cells\."),
    Clause(r"Currently, the robot is in place {p}\.", ("at-robot {p}",)),
    Clause(r"The following places have been visited: {ps+}", ("visited {ps}",)),
    Clause(r"Place {p} has been visited", ("visited {p}",)),
), complete=_visitall_complete)

#: The readers, by the PDDL domain name of the generative records.
READERS: dict[str, DomainText] = {t.domain: t for t in (
    FERRY, BLOCKSWORLD, GRID, FLOORTILE, GRIPPERS, LOGISTICS, ROVERS, VISITALL)}
