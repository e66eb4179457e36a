"""Floor Tile: the tile grid laid out from ``up`` / ``right``, paint, robots and their colours.

Positions are found by walking the ``up`` and ``right`` facts from each unplaced tile (``(up a
b)``: a is just above b; ``(right a b)``: a is just right of b); each connected patch is drawn
below the previous one, and a tile no fact places gets a cell of its own in a last row.  A fact
that contradicts the layout already found (a hostile answer) is simply not drawn, and listed.
"""

from __future__ import annotations

from collections import deque

from ..markup import label
from .canvas import INK, Canvas, Scene, SceneDrawer

CELL, GAP, TOP = 56, 12, 8
#: Colour names a drawing may show as themselves; any other colour object gets a palette colour.
NAMED = {"white": "#ffffff", "black": "#212121", "red": "#e53935", "green": "#43a047",
         "blue": "#1e88e5", "yellow": "#fdd835", "orange": "#fb8c00", "pink": "#f06292",
         "grey": "#9e9e9e", "gray": "#9e9e9e", "purple": "#8e24aa", "brown": "#6d4c41"}
PALETTE = ("#ef9a9a", "#90caf9", "#a5d6a7", "#fff59d", "#ce93d8", "#ffcc80", "#80cbc4", "#bcaaa4")
_STEP = {"up": (-1, 0), "right": (0, 1)}  # (row, column) of the first argument from the second


def _kinds(scene: Scene) -> tuple[list[str], list[str], list[str]]:
    """Tiles, robots and colours: by declared type, else by how the facts use them."""
    found: dict[str, set[str]] = {"tile": set(), "robot": set(), "color": set()}
    for obj in scene.objects:
        if scene.types.get(obj) in found:
            found[scene.types[obj]].add(obj)
    # a goal is drawn on its initial state's grid
    found["tile"].update(a for p in _STEP for f in scene.layout_facts(p, 2) for a in f[1:])
    uses = {"up": ("tile", "tile"), "right": ("tile", "tile"), "painted": ("tile", "color"),
            "robot-at": ("robot", "tile"), "robot-has": ("robot", "color"),
            "available-color": ("color",)}
    for fact in scene.facts:
        for kind, arg in zip(uses.get(fact[0], ()), fact[1:], strict=False):
            if not any(arg in members for members in found.values()):
                found[kind].add(arg)
    return sorted(found["tile"]), sorted(found["robot"]), sorted(found["color"])


def layout(tiles: list[str], scene: Scene) -> dict[str, tuple[int, int]]:
    """(row, column) per tile; patches stacked top to bottom, isolated tiles in a last row."""
    neighbours: dict[str, list[tuple[str, int, int]]] = {t: [] for t in tiles}
    for predicate, (dr, dc) in _STEP.items():
        for _, a, b in scene.layout_facts(predicate, 2):
            if a in neighbours and b in neighbours and a != b:
                neighbours[b].append((a, dr, dc))
                neighbours[a].append((b, -dr, -dc))
    cells: dict[str, tuple[int, int]] = {}
    next_row = 0
    alone = [t for t in tiles if not neighbours[t]]
    for start in tiles:
        if start in cells or not neighbours[start]:
            continue
        patch = {start: (0, 0)}
        taken = {(0, 0)}
        queue = deque([start])
        while queue:
            tile = queue.popleft()
            row, col = patch[tile]
            for other, dr, dc in neighbours[tile]:
                spot = (row + dr, col + dc)
                if other not in patch and other not in cells and spot not in taken:
                    patch[other] = spot
                    taken.add(spot)
                    queue.append(other)
        top = min(r for r, _ in patch.values())
        left = min(c for _, c in patch.values())
        for tile, (row, col) in patch.items():
            cells[tile] = (row - top + next_row, col - left)
        next_row += max(r for r, _ in patch.values()) - top + 2
    for index, tile in enumerate(alone):
        cells[tile] = (next_row + index // 8, index % 8)
    return cells


def colours(names: list[str]) -> dict[str, str]:
    spare = iter(PALETTE * (len(names) // len(PALETTE) + 1))
    return {name: NAMED.get(name) or next(spare) for name in names}


def _xy(cell: tuple[int, int]) -> tuple[float, float]:
    return GAP + cell[1] * (CELL + GAP), TOP + cell[0] * (CELL + GAP)


def draw(scene: Scene, canvas: Canvas) -> None:
    tiles, robots, colour_names = _kinds(scene)
    fill = colours(colour_names)
    cells = layout(tiles, scene)
    for tile, cell in cells.items():
        x, y = _xy(cell)
        canvas.shape("rect", {"x": x, "y": y, "width": CELL, "height": CELL, "fill": "#fafafa",
                              "stroke": INK}, objects=[tile], tooltip=tile)
        paints = [f for f in scene.with_predicate("painted", 2) if f[1] == tile]
        for index, fact in enumerate(paints):  # several paints (a hostile goal): stripes
            width = (CELL - 8) / len(paints)
            canvas.shape("rect", {"x": x + 4 + index * width, "y": y + 4, "width": width,
                                  "height": CELL - 8, "fill": fill.get(fact[2], "#eeeeee"),
                                  "stroke": "#bdbdbd"}, facts=[fact])
        canvas.text(x + CELL / 2, y + 12, label(tile)[:9], font_size=9)
    _adjacency(canvas, scene, cells)
    _robots(canvas, scene, robots, cells, fill)
    bottom = max((_xy(c)[1] + CELL for c in cells.values()), default=TOP) + 18
    _palette(canvas, scene, colour_names, fill, bottom)


def _adjacency(canvas: Canvas, scene: Scene, cells: dict[str, tuple[int, int]]) -> None:
    """A short bar across the gap between two tiles for each ``up`` / ``right`` fact."""
    for predicate, (dr, dc) in _STEP.items():
        for fact in scene.with_predicate(predicate, 2):
            a, b = cells.get(fact[1]), cells.get(fact[2])
            if a is None or b is None or (a[0] - b[0], a[1] - b[1]) != (dr, dc):
                continue
            bx, by = _xy(b)
            if predicate == "right":
                attrs = {"x": bx + CELL, "y": by + CELL / 2 - 3, "width": GAP, "height": 6}
            else:
                attrs = {"x": bx + CELL / 2 - 3, "y": by - GAP, "width": 6, "height": GAP}
            canvas.shape("rect", {**attrs, "fill": "#78909c"}, facts=[fact], fill_mark=True)


def _robots(canvas: Canvas, scene: Scene, robots: list[str], cells: dict[str, tuple[int, int]],
            fill: dict[str, str]) -> None:
    crowd: dict[str, int] = {}
    for robot in robots:
        where = next((f for f in scene.with_predicate("robot-at", 2)
                      if f[1] == robot and f[2] in cells), None)
        if where is None:
            continue
        x, y = _xy(cells[where[2]])
        slot = crowd[where[2]] = crowd.get(where[2], -1) + 1
        cx, cy = x + 18 + (slot % 2) * 20, y + 34 + (slot // 2) * 14
        canvas.shape("circle", {"cx": cx, "cy": cy, "r": 9, "fill": "#37474f", "stroke": INK},
                     facts=[where], objects=[robot], tooltip=f"{robot} at {where[2]}")
        has = next((f for f in scene.with_predicate("robot-has", 2) if f[1] == robot), None)
        if has is not None:
            canvas.shape("circle", {"cx": cx, "cy": cy, "r": 4, "fill": fill.get(has[2], "#fff"),
                                    "stroke": "#fff"}, facts=[has])


def _palette(canvas: Canvas, scene: Scene, names: list[str], fill: dict[str, str],
             y: float) -> None:
    """One swatch per colour; solid outline when ``(available-color c)`` holds."""
    canvas.text(GAP, y - 4, "colours (solid outline: available)", text_anchor="start")
    for index, name in enumerate(names):
        x = GAP + index * 74
        fact = ("available-color", name)
        available = fact in scene.facts
        canvas.shape("rect", {"x": x, "y": y + 2, "width": 16, "height": 16, "fill": fill[name],
                              "stroke": INK, "stroke_dasharray": None if available else "2 2"},
                     facts=[fact] if available else [], objects=[name], tooltip=name)
        canvas.text(x + 20, y + 14, label(name)[:8], text_anchor="start", font_size=9)


DRAWER = SceneDrawer("floor-tile", draw)
