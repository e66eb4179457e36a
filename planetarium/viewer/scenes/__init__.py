"""Inline SVG pictures of problem states, one drawer per built-in domain and a generic one.

:func:`draw` picks the drawer by domain name; states too large to draw usefully (or cheaply:
the input is model output) are refused with a note instead.
"""

from __future__ import annotations

from collections.abc import Callable

from . import blocks, floortile, generic, gripper, rover
from .canvas import EXTRA, MARK_COLOUR, MISSING, Canvas, Drawing, Fact, Scene, fact_text, parse_fact

__all__ = ["EXTRA", "MARK_COLOUR", "MISSING", "Drawing", "Fact", "Scene", "draw", "fact_text",
           "parse_fact"]

DRAWERS: dict[str, Callable[[Scene, Canvas], None]] = {
    "blocksworld": blocks.draw,
    "gripper": gripper.draw,
    "floor-tile": floortile.draw,
    "rover-single": rover.draw,
}
#: Beyond these sizes a state is listed, not drawn.
MAX_OBJECTS, MAX_FACTS = 150, 800


def draw(scene: Scene) -> Drawing | None:
    """The scene's picture, or None when it is too large to draw."""
    if len(scene.objects) > MAX_OBJECTS or len(scene.facts) > MAX_FACTS:
        return None
    canvas = Canvas(scene)
    DRAWERS.get(scene.domain, generic.draw)(scene, canvas)
    return canvas.finish()
