"""Dataset layouts for Floor Tile: grids of tiles, robots with colours, patterns to paint.

Tiles are numbered row by row from the top-left corner (``tile1``); ``(up x y)`` says x is
directly above y and ``(right x y)`` says x is directly right of y.

Parameters (the published generator's, renamed and without its redundant counts):

* grid and rings: ``{"grid": [rows, cols], "colors": n, "robots": [{"at": [row, col],
  "color": k}, ...]}`` (0-based positions and colour indices); every colour is available.
* disconnected_rows: ``{"rows": [length, ...]}``: row i is joined by ``right`` only, robot i
  stands on its left end holding colour i, and no colour is available, so each robot must
  paint its own row's ends with its own colour.

Each layout builds the published generator's state, atoms in its order (the explicit texts
list them in that order, one sentence each, as the published ones did): a grid lists per tile
its ``right`` then its ``up`` fact, then per robot its colour and tile, then the available
colours (rings: colours, robots, tiles).  The published goals' rules, inferred where its code
is not public from its row counts: rings only from a rings start (a square grid with a colour
for each ring); checkerboard with exactly two colours; all_different with one colour per tile;
paint_all with two or three colours (all in color1); paint_x on a square grid with one or two
colours.  One departure: the published checkerboard laid its pattern out with rows and columns
swapped, so on a grid whose row length is even it painted neighbouring tiles alike; ours is a
checkerboard on every grid.  The published paint_x goal listed the centre tile of an odd grid
on both diagonals; ours states it once, and the size column counts it twice as published.

Every problem is solvable by construction: grids are connected and have at least two tiles (a
robot paints a neighbour, never its own tile), every colour is held or available, and a
disconnected row has at least two tiles (a one-tile row cannot be painted).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from ...tasks import Atom, DoesNotFit, DomainTasks, ExplicitTemplates, Instance, Layout, Param
from ...tasks.text import join_words, ordinal, plural


@dataclass(frozen=True)
class _Robot:
    row: int
    col: int
    color: int


@dataclass(frozen=True)
class _Grid:
    """A rows x cols grid with robots; ``tile(r, c)`` names the tile in row r, column c."""

    rows: int
    cols: int
    n_colors: int
    robots: tuple[_Robot, ...]

    @classmethod
    def parse(cls, param: Param) -> _Grid:
        if not isinstance(param, Mapping) or "grid" not in param:
            raise DoesNotFit("not a grid parameter")
        if set(param) != {"grid", "colors", "robots"}:
            raise ValueError(f"grid parameter needs exactly grid, colors, robots: {param!r}")
        rows, cols = param["grid"]
        grid = cls(rows, cols, param["colors"],
                   tuple(_Robot(r["at"][0], r["at"][1], r["color"]) for r in param["robots"]))
        if rows < 1 or cols < 1 or rows * cols < 2 or grid.n_colors < 1 or not grid.robots:
            raise ValueError(f"a grid needs two tiles, a colour and a robot: {param!r}")
        for robot in grid.robots:
            inside = 0 <= robot.row < rows and 0 <= robot.col < cols
            if not inside or not 0 <= robot.color < grid.n_colors:
                raise ValueError(f"robot outside the grid or its colours: {param!r}")
        return grid

    def tile(self, row: int, col: int) -> str:
        return f"tile{row * self.cols + col + 1}"

    @property
    def tiles(self) -> list[str]:
        return [self.tile(r, c) for r in range(self.rows) for c in range(self.cols)]

    @property
    def colors(self) -> list[str]:
        return [f"color{k}" for k in range(1, self.n_colors + 1)]

    @property
    def robot_names(self) -> list[str]:
        return [f"robot{k}" for k in range(1, len(self.robots) + 1)]

    @property
    def square(self) -> bool:
        return self.rows == self.cols

    def cells(self) -> list[tuple[int, int]]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols)]

    def ring(self, row: int, col: int) -> int:
        """0 for the outermost ring of a square grid."""
        return min(row, col, self.rows - 1 - row, self.cols - 1 - col)

    @property
    def n_rings(self) -> int:
        return (self.rows + 1) // 2

    def tile_atoms(self) -> list[Atom]:
        """Per tile, row by row: its ``right`` fact (it is right of its left neighbour), then
        its ``up`` fact (the tile above it is up of it)."""
        atoms: list[Atom] = []
        for r, c in self.cells():
            if c > 0:
                atoms.append(("right", self.tile(r, c), self.tile(r, c - 1)))
            if r > 0:
                atoms.append(("up", self.tile(r - 1, c), self.tile(r, c)))
        return atoms

    def robot_atoms(self) -> list[Atom]:
        return [atom for name, robot in zip(self.robot_names, self.robots, strict=True)
                for atom in (("robot-has", name, self.colors[robot.color]),
                             ("robot-at", name, self.tile(robot.row, robot.col)))]

    def color_atoms(self) -> list[Atom]:
        return [("available-color", color) for color in self.colors]

    def robots_key(self) -> tuple[tuple[int, int, int], ...]:
        return tuple((robot.row, robot.col, robot.color) for robot in self.robots)

    def where(self, row: int, col: int) -> str:
        """A tile and its place in words (row/column, or the corner it is)."""
        vertical = "top" if row == 0 else "bottom" if row == self.rows - 1 else ""
        horizontal = "left" if col == 0 else "right" if col == self.cols - 1 else ""
        place = f"row {row + 1}, column {col + 1}"
        if vertical and horizontal and self.rows > 1 and self.cols > 1:
            place = f"the {vertical}-{horizontal} corner"
        return f"{self.tile(row, col)} ({place})"

    def robots_text(self) -> str:
        return " ".join(
            f"{name} is at {self.where(robot.row, robot.col)} and has {self.colors[robot.color]}."
            for name, robot in zip(self.robot_names, self.robots, strict=True))

    def objects_text(self) -> str:
        return (f"You have {plural(len(self.robots), 'robot')} ({_names(self.robot_names)}), "
                f"{plural(self.n_colors, 'color')} ({_names(self.colors)}) and "
                f"{plural(self.rows * self.cols, 'unpainted tile')} ({_names(self.tiles)})")


def _names(names: Sequence[str]) -> str:
    return join_words(names) if len(names) <= 3 else f"{names[0]} to {names[-1]}"


_NUMBERING = "numbered row by row from the top-left corner"


def _init_grid(grid: _Grid) -> tuple[list[Atom], str, Hashable]:
    text = (f"{grid.objects_text()}, arranged in a grid of {plural(grid.rows, 'row')} and "
            f"{plural(grid.cols, 'column')}, {_NUMBERING}. {grid.robots_text()} "
            "Every color is available.")
    return (grid.tile_atoms() + grid.robot_atoms() + grid.color_atoms(), text,
            ("grid", grid.rows, grid.cols, grid.n_colors, grid.robots_key()))


def _init_rings(grid: _Grid) -> tuple[list[Atom], str, Hashable]:
    if not grid.square or grid.n_rings < 2 or grid.n_colors < grid.n_rings:
        raise DoesNotFit("rings is a square grid of two rings or more with a colour for each ring")
    text = (f"{grid.objects_text()}, arranged in a {grid.rows}x{grid.cols} grid, {_NUMBERING}, "
            f"that forms {grid.n_rings} concentric rings (the {ordinal(1)} ring is the border). "
            f"{grid.robots_text()} Every color is available.")
    return (grid.color_atoms() + grid.robot_atoms() + grid.tile_atoms(), text,
            ("rings", grid.rows, grid.n_colors, grid.robots_key()))


# --- goals on a grid: grid -> (atoms, abstract text) ------------------------------------------


def _painted(grid: _Grid, color_of: Callable[[int, int], int]) -> list[Atom]:
    return [("painted", grid.tile(r, c), grid.colors[color_of(r, c)]) for r, c in grid.cells()]


def _goal_rings(grid: _Grid) -> tuple[list[Atom], str]:
    order = join_words([f"the {ordinal(k + 1)} ring with {grid.colors[k]}" for k in range(grid.n_rings)])
    return (grid.color_atoms() + _painted(grid, grid.ring),
            "Your goal is to paint each ring in its own color, counting from the border "
            f"inwards: {order}.")


def _goal_checkerboard(grid: _Grid) -> tuple[list[Atom], str]:
    if grid.n_colors != 2:
        raise DoesNotFit("a checkerboard takes exactly two colors")
    return (_painted(grid, lambda r, c: (r + c) % 2),
            "Your goal is to paint the tiles in a checkerboard pattern of color1 and color2, "
            f"with the top-left tile ({grid.tile(0, 0)}) in color1 and every neighbouring pair of "
            "tiles in different colors.")


def _goal_all_different(grid: _Grid) -> tuple[list[Atom], str]:
    if grid.n_colors != grid.rows * grid.cols:
        raise DoesNotFit("one color per tile")
    return (_painted(grid, lambda r, c: r * grid.cols + c),
            "Your goal is to paint each tile with a different color: tile1 with color1, tile2 with "
            "color2, and so on.")


def _goal_paint_all(grid: _Grid) -> tuple[list[Atom], str]:
    if not 2 <= grid.n_colors <= 3:
        raise DoesNotFit("paint_all takes two or three colors (the published rule)")
    return _painted(grid, lambda r, c: 0), "Your goal is to paint every tile with color1."


def _goal_paint_x(grid: _Grid) -> tuple[list[Atom], str]:
    """The two diagonals row by row (each row's left then right one) in color1, then, with two
    colors, every other tile row by row in color2."""
    if not grid.square or grid.n_colors > 2:
        raise DoesNotFit("an X is painted on a square grid with one or two colors")
    side = grid.rows
    cross = list(dict.fromkeys((r, c) for r in range(side) for c in (r, side - 1 - r)))
    atoms: list[Atom] = [("painted", grid.tile(r, c), grid.colors[0]) for r, c in cross]
    if grid.n_colors == 1:
        return atoms, ("Your goal is to paint an X across the grid: every tile on the two "
                       "diagonals with color1.")
    atoms += [("painted", grid.tile(r, c), grid.colors[1]) for r, c in grid.cells() if (r, c) not in cross]
    return atoms, ("Your goal is to paint an X across the grid with color1 (every tile on the two "
                   "diagonals) and every other tile with color2.")


def _paint_x_size(grid: _Grid, goal: list[Atom]) -> int:
    """The published goal count: the centre of an odd grid once per diagonal."""
    return len(goal) + grid.rows % 2


# --- disconnected rows ---------------------------------------------------------------------


def _rows_problem(param: Param) -> tuple[list[str], list[Atom], list[Atom], str, str, Hashable]:
    """Objects, init, goal, both abstract texts and the published init text's key (the row
    lengths) of a disconnected-rows problem."""
    if not isinstance(param, Mapping) or "rows" not in param:
        raise DoesNotFit("not a disconnected-rows parameter")
    lengths = list(param["rows"])
    if set(param) != {"rows"} or len(lengths) < 2 or min(lengths) < 2:
        raise ValueError(f"disconnected rows need two rows of two or more tiles: {param!r}")
    tiles, rows = iter(f"tile{k}" for k in range(1, sum(lengths) + 1)), []
    for n in lengths:
        rows.append([next(tiles) for _ in range(n)])
    robots = [f"robot{k}" for k in range(1, len(rows) + 1)]
    colors = [f"color{k}" for k in range(1, len(rows) + 1)]
    init: list[Atom] = [("right", row[i + 1], row[i]) for row in rows for i in range(len(row) - 1)]
    for robot, color, row in zip(robots, colors, rows, strict=True):
        init += [("robot-has", robot, color), ("robot-at", robot, row[0])]
    goal: list[Atom] = [("painted", end, color)
                        for color, row in zip(colors, rows, strict=True) for end in (row[0], row[-1])]
    described = "; ".join(
        f"row {k} is {join_words(row) if len(row) <= 3 else f'{row[0]} to {row[-1]}'}, where "
        f"{robots[k - 1]} stands on {row[0]} holding {colors[k - 1]}"
        for k, row in enumerate(rows, 1))
    init_text = (
        f"You have {plural(len(robots), 'robot')}, {plural(len(colors), 'color')} and "
        f"{plural(sum(lengths), 'unpainted tile')} arranged in {len(rows)} rows that are not "
        "connected to each other. In each row every tile is directly to the right of the one "
        f"before it: {described}. No color is available.")
    goal_text = ("Your goal is to paint both ends of each row (its first and last tile) with the "
                 "color of that row's robot.")
    return (robots + [t for row in rows for t in row] + colors, init, goal, init_text, goal_text,
            ("rows", tuple(lengths)))


# --- explicit texts and the build entry point ----------------------------------------------


def _explicit_intro(objects: tuple[str, ...], types: tuple[str, ...] | None) -> str:
    count = {t: sum(1 for x in types or () if x == t) for t in ("robot", "tile", "color")}
    return (f"You have {plural(count['robot'], 'robot')}, {plural(count['tile'], 'tile')} and "
            f"{plural(count['color'], 'color')}.")


EXPLICIT = ExplicitTemplates(
    intro=_explicit_intro,
    sentences={
        "robot-at": ("{0} is at {1}.", "{0} should be at {1}."),
        "up": ("{0} is directly above {1}.", "{0} should be directly above {1}."),
        "right": ("{0} is directly to the right of {1}.", "{0} should be directly to the right of {1}."),
        "painted": ("{0} is painted with {1}.", "{0} should be painted with {1}."),
        "robot-has": ("{0} has {1}.", "{0} should have {1}."),
        "available-color": ("{0} is available.", "{0} should be available."),
    },
)

_GRID_INITS: dict[str, Callable[[_Grid], tuple[list[Atom], str, Hashable]]] = {
    "grid": _init_grid,
    "rings": _init_rings,
}
_GRID_GOALS: dict[str, Callable[[_Grid], tuple[list[Atom], str]]] = {
    "rings": _goal_rings,
    "checkerboard": _goal_checkerboard,
    "all_different": _goal_all_different,
    "paint_all": _goal_paint_all,
    "paint_x": _goal_paint_x,
}


def _kind(name: str) -> str:
    return name.rstrip("0123456789")


def build(init: Layout, goal: Layout, param: Param) -> Instance:
    """One Floor Tile problem for ``init -> goal`` sized by ``param`` (or :class:`DoesNotFit`)."""
    # The published goal texts were fixed sentences, but for paint_x's number of colours.
    goal_key: Hashable = (goal.name,)
    goal_size = None
    if init.name == "disconnected_rows":
        objects, init_atoms, goal_atoms, init_text, goal_text, init_key = _rows_problem(param)
    else:
        if goal.name == "rings" and init.name != "rings":
            raise DoesNotFit("painted rings need a rings layout")
        grid = _Grid.parse(param)
        init_atoms, init_text, init_key = _GRID_INITS[init.name](grid)
        goal_atoms, goal_text = _GRID_GOALS[goal.name](grid)
        objects = grid.robot_names + grid.tiles + grid.colors
        if goal.name == "paint_x":
            goal_key, goal_size = (goal.name, grid.n_colors), _paint_x_size(grid, goal_atoms)
    return EXPLICIT.instance(
        objects=objects, init=init_atoms, goal=goal_atoms,
        init_abstract=init_text, goal_abstract=goal_text,
        object_types=[_kind(o) for o in objects],
        init_abstract_key=init_key, goal_abstract_key=goal_key, goal_size=goal_size,
    )


# --- parameter spaces ----------------------------------------------------------------------


def _robot(row: int, col: int, color: int) -> dict[str, object]:
    return {"at": [row, col], "color": color}


def _grid_param(rows: int, cols: int, colors: int, robots: list[dict[str, object]]) -> Param:
    return {"grid": [rows, cols], "colors": colors, "robots": robots}


def _crews(rows: int, cols: int, colors: int) -> list[list[dict[str, object]]]:
    """One robot at the top-left, at the bottom-right (with the last color) or in the centre,
    or two robots at the two corners: where the published generator placed its robots."""
    last = colors - 1
    return [[_robot(0, 0, 0)], [_robot(rows - 1, cols - 1, last)], [_robot(rows // 2, cols // 2, 0)],
            [_robot(0, 0, 0), _robot(rows - 1, cols - 1, last)]]


def _space_grid(max_side: int = 6, max_colors: int = 3) -> list[Param]:
    """Every grid up to max_side x max_side (two tiles or more), 1..max_colors colors, four
    robot crews; plus, for all_different, the small grids with one color per tile."""
    params = []
    for rows, cols in product(range(1, max_side + 1), repeat=2):
        if rows * cols < 2:
            continue
        counts = sorted(set(range(1, max_colors + 1)) | ({rows * cols} if rows * cols <= 6 else set()))
        for colors in counts:
            params += [_grid_param(rows, cols, colors, crew) for crew in _crews(rows, cols, colors)]
    return params


def _space_rings(max_side: int = 8) -> list[Param]:
    """Square grids of 3..max_side tiles a side, one color per ring; one robot at the top-left
    corner of some ring or in the centre, or two robots (outer corner and centre, or opposite
    corners), each with the color of its ring."""
    params = []
    for side in range(3, max_side + 1):
        colors, mid, end = (side + 1) // 2, side // 2, side - 1
        crews = [[_robot(0, 0, 0)], [_robot(1, 1, 1)], [_robot(mid, mid, colors - 1)],
                 [_robot(0, end, 0)], [_robot(0, 0, 0), _robot(mid, mid, colors - 1)],
                 [_robot(0, 0, 0), _robot(end, end, 0)]]
        params += [_grid_param(side, side, colors, crew) for crew in crews]
    return params


def _space_rows(max_rows: int = 4, max_length: int = 7) -> list[Param]:
    """2..max_rows rows, each of 2..max_length tiles (every ordered combination)."""
    return [{"rows": list(lengths)}
            for k in range(2, max_rows + 1)
            for lengths in product(range(2, max_length + 1), repeat=k)]


TASKS = DomainTasks(
    domain="floor-tile",
    layouts=(
        Layout("disconnected_rows", "both", tied=True, space=_space_rows,
               summary="rows joined only left-to-right, one robot per row; paint both ends"),
        Layout("rings", "both", space=_space_rings,
               summary="a square grid seen as concentric rings; as a goal, each ring its own color"),
        Layout("grid", "init", space=_space_grid, summary="unpainted tiles in a rows x cols grid"),
        Layout("checkerboard", "goal", summary="two colors in a checkerboard"),
        Layout("all_different", "goal", summary="every tile its own color"),
        Layout("paint_all", "goal", summary="every tile in color1 (two or three colors)"),
        Layout("paint_x", "goal", summary="an X on the diagonals (and the rest in a second color)"),
    ),
    build=build,
    explicit=EXPLICIT,
    typed=True,
)
