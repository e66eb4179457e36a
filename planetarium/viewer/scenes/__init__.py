"""Inline SVG pictures of problem states, one drawer per domain and a generic one.

:func:`draw` picks the drawer registered for the scene's domain (:data:`REGISTRY`: the
built-in domains' drawers, plug-ins of the ``planetarium.scene_drawers`` entry-point group, and
:func:`register_drawer` at run time), else the generic drawer; states too large to draw usefully
(or cheaply: the input is model output) are refused with a note instead.
"""

from __future__ import annotations

from ...plugins import Registry
from . import generic
from .canvas import (
    EXTRA,
    MARK_COLOUR,
    MISSING,
    Canvas,
    Drawing,
    Fact,
    Scene,
    SceneDrawer,
    fact_text,
    parse_fact,
)

__all__ = ["EXTRA", "MARK_COLOUR", "MISSING", "Drawing", "Fact", "Scene", "SceneDrawer",
           "available_drawers", "draw", "fact_text", "parse_fact", "register_drawer"]

ENTRY_POINT_GROUP = "planetarium.scene_drawers"
#: domain -> "module:attribute", exactly as pyproject's entry points declare them.
BUILTINS = {
    "blocksworld": "planetarium.viewer.scenes.blocks:DRAWER",
    "gripper": "planetarium.viewer.scenes.gripper:DRAWER",
    "floor-tile": "planetarium.viewer.scenes.floortile:DRAWER",
    "rover-single": "planetarium.viewer.scenes.rover:DRAWER",
}
REGISTRY: Registry[SceneDrawer] = Registry("scene drawer", ENTRY_POINT_GROUP, SceneDrawer,
                                           BUILTINS, lambda drawer: drawer.domain,
                                           normalize=str.lower)
#: Beyond these sizes a state is listed, not drawn.
MAX_OBJECTS, MAX_FACTS = 150, 800


def register_drawer(drawer: SceneDrawer, *, replace: bool = False) -> SceneDrawer:
    return REGISTRY.register(drawer, replace=replace)


def available_drawers() -> dict[str, SceneDrawer]:
    return REGISTRY.available()


def draw(scene: Scene) -> Drawing | None:
    """The scene's picture, or None when it is too large to draw."""
    if len(scene.objects) > MAX_OBJECTS or len(scene.facts) > MAX_FACTS:
        return None
    canvas = Canvas(scene)
    drawer = available_drawers().get(scene.domain.lower())
    (drawer.draw if drawer else generic.draw)(scene, canvas)
    return canvas.finish()
