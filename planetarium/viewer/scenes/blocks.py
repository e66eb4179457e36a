"""Blocks World: towers on a table, the arm and what it holds.

A hostile or partial state (a goal that says only ``(on b1 b2)``, two blocks on one, a cycle)
still draws: each block is placed once, towers are followed upwards without revisiting a block,
and every fact the picture cannot show (the second of two ``on`` facts for one block) is left
for the list under it.
"""

from __future__ import annotations

from ..markup import label
from .canvas import INK, Canvas, Scene, SceneDrawer

BLOCK_W, BLOCK_H, GAP, BAR = 54, 26, 16, 5
TOP = 70  # room for the arm above the tallest tower


def _blocks(scene: Scene) -> list[str]:
    named = {arg for fact in scene.facts if fact[0] in {"on", "on-table", "clear", "holding"}
             for arg in fact[1:]}
    return sorted(named | set(scene.objects))


def _towers(blocks: list[str], scene: Scene, held: set[str]) -> list[list[str]]:
    """Columns of blocks, bottom first; every block in at most one column."""
    below: dict[str, str] = {}
    above: dict[str, str] = {}
    for _, upper, lower in scene.with_predicate("on", 2):
        if upper not in below and lower not in above and upper != lower:
            below[upper], above[lower] = lower, upper
    placed: set[str] = set(held)
    towers = []
    # bases first (on nothing), then whatever a cycle left out
    for start in [b for b in blocks if b not in below] + blocks:
        if start in placed:
            continue
        tower: list[str] = []
        block: str | None = start
        while block is not None and block not in placed:
            tower.append(block)
            placed.add(block)
            block = above.get(block)
        towers.append(tower)
    return towers


def draw(scene: Scene, canvas: Canvas) -> None:
    blocks = _blocks(scene)
    held = {f[1] for f in scene.with_predicate("holding", 1)}
    held_block = min(held) if held else None
    towers = _towers(blocks, scene, {held_block} if held_block else set())
    height = max((len(t) for t in towers), default=0)
    table_y = TOP + max(height, 1) * (BLOCK_H + BAR) + BAR
    width = max(len(towers), 1) * (BLOCK_W + GAP) + GAP
    canvas.shape("rect", {"x": 0, "y": table_y, "width": max(width, 2 * BLOCK_W + 2 * GAP),
                          "height": 8, "fill": "#a1887f"}, tooltip="table")
    on_table = set(scene.with_predicate("on-table", 1))
    for column, tower in enumerate(towers):
        x = GAP + column * (BLOCK_W + GAP)
        y = table_y
        for level, block in enumerate(tower):
            y -= BAR
            contact = ("on-table", block) if level == 0 else ("on", block, tower[level - 1])
            if level > 0 or contact in on_table:
                canvas.shape("rect", {"x": x, "y": y, "width": BLOCK_W, "height": BAR,
                                      "fill": "#90a4ae"}, facts=[contact], fill_mark=True)
            y -= BLOCK_H
            _block(canvas, scene, block, x, y)
    _arm(canvas, scene, held_block, width)


def _block(canvas: Canvas, scene: Scene, block: str, x: float, y: float) -> None:
    canvas.shape("rect", {"x": x, "y": y, "width": BLOCK_W, "height": BLOCK_H, "rx": 3,
                          "fill": "#ffe0b2", "stroke": INK}, objects=[block], tooltip=block)
    canvas.text(x + BLOCK_W / 2, y + BLOCK_H / 2 + 4, label(block))
    clear = ("clear", block)
    if clear in scene.facts:  # a small open lid on top of the block: "nothing on it"
        canvas.shape("circle", {"cx": x + BLOCK_W - 6, "cy": y - 7, "r": 5, "fill": "#fff",
                                "stroke": "#2e7d32"}, facts=[clear], fill_mark=True)


def _arm(canvas: Canvas, scene: Scene, held: str | None, width: float) -> None:
    """The arm at the right of the towers; an empty arm draws the ``(arm-empty)`` fact."""
    x = width + 10
    facts = [("arm-empty",)] if ("arm-empty",) in scene.facts else []
    canvas.shape("rect", {"x": x, "y": 4, "width": BLOCK_W, "height": 10, "fill": "#b0bec5"},
                 facts=facts, tooltip="arm" + (" (arm-empty)" if facts else ""))
    canvas.shape("line", {"x1": x + BLOCK_W / 2, "y1": 14, "x2": x + BLOCK_W / 2, "y2": 26,
                          "stroke": INK, "stroke_width": 2})
    if held is not None:
        canvas.shape("rect", {"x": x, "y": 26, "width": BLOCK_W, "height": BLOCK_H, "rx": 3,
                              "fill": "#ffe0b2", "stroke": INK},
                     facts=[("holding", held)], objects=[held])
        canvas.text(x + BLOCK_W / 2, 26 + BLOCK_H / 2 + 4, label(held))
    else:
        canvas.text(x + BLOCK_W / 2, 40, "empty" if facts else "arm")


DRAWER = SceneDrawer("blocksworld", draw)
