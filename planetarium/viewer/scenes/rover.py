"""Rover (single rover, single lander): the waypoint map and what is where.

Waypoints sit on a circle (in a row when there are at most three); each ``can_traverse`` is an
arrow and each ``visible`` a dotted line, the two directions of a pair drawn slightly apart so a
difference in one direction is visible on its own.  Samples, the rover, the lander and the
analyses and data a goal asks for are badges under their waypoint; objectives (with their images)
and cameras (with the modes they support) are listed under the map, each objective with the
waypoints it is visible from.  A goal is drawn on its initial state's map (faint).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ..markup import label
from .canvas import INK, Canvas, Fact, Scene, SceneDrawer

RADIUS, NODE_R = 120, 36
#: Font sizes in drawing units.  Drawings are shown 1.4 times larger and shrink to fit their
#: column: two runs side by side in a 1400-pixel window leave a map ~310 px of its ~350 units
#: (measured in Chromium, tests/test_viewer_browser.py), so 12 units stay >= 10 px.
LABEL_FONT = BADGE_FONT = 12
#: A badge fits "from waypoint12" (14 characters) at BADGE_FONT; badges stack BADGE_PITCH apart.
BADGE_W, BADGE_H, BADGE_PITCH = 96, 16, 18
#: Nodes in a row (at most three waypoints) are this far apart: a badge's width and a gap.
ROW_STEP = BADGE_W + 20
#: The widest waypoint label drawn inside its node (longer names end in an ellipsis).
LABEL_CHARS = 10
#: Badges under a waypoint: predicate -> short word.
BADGES = {"at_rover": "rover", "at_lander": "lander", "at_rock_sample": "rock",
          "at_soil_sample": "soil", "have_rock_analysis": "rock analysed",
          "have_soil_analysis": "soil analysed", "communicated_rock_data": "rock sent",
          "communicated_soil_data": "soil sent"}
FLAGS = ("available", "channel_free")


def _waypoints(scene: Scene) -> list[str]:
    """Declared waypoints, those the facts place things at, and (a goal) its initial map's."""
    typed = scene.of_type("waypoint")
    used = {arg for fact in scene.facts | scene.context
            if fact[0] in BADGES or fact[0] in {"can_traverse", "visible"} for arg in fact[1:]}
    used |= {f[2] for f in scene.layout_facts("visible_from", 2)}
    return sorted(set(typed) | used, key=_natural)


def _natural(name: str) -> tuple:
    digits = "".join(ch for ch in name if ch.isdigit())
    return (name.rstrip("0123456789"), int(digits[:18]) if digits else -1, name)


def positions(waypoints: list[str]) -> dict[str, tuple[float, float]]:
    """Node centres: a row for up to three waypoints, else a circle wide enough that
    neighbouring nodes keep 24 units apart."""
    if len(waypoints) <= 3:
        return {w: (BADGE_W / 2 + 6 + i * ROW_STEP, NODE_R + 14) for i, w in enumerate(waypoints)}
    step = 2 * math.pi / len(waypoints)
    radius = max(RADIUS, (NODE_R + 12) / math.sin(step / 2))
    centre = BADGE_W / 2 + 6 + radius
    return {w: (centre + radius * math.cos(-math.pi / 2 + i * step),
                centre + radius * math.sin(-math.pi / 2 + i * step))
            for i, w in enumerate(waypoints)}


def draw(scene: Scene, canvas: Canvas) -> None:
    waypoints = _waypoints(scene)
    where = positions(waypoints)
    canvas.parts.append(_ARROW)
    for fact in scene.layout_facts("can_traverse", 2):  # a goal's map, faint, from its init
        if fact not in scene.facts:
            _link(canvas, fact, where, 4, {"stroke": "#eceff1"})
    for predicate, offset, style in (("visible", -4, {"stroke": "#90a4ae",
                                                      "stroke_dasharray": "2 3"}),
                                     ("can_traverse", 4, {"stroke": INK,
                                                          "marker_end": "url(#rover-arrow)"})):
        for fact in scene.with_predicate(predicate, 2):
            _link(canvas, fact, where, offset, style)
    for waypoint, (x, y) in where.items():
        canvas.shape("circle", {"cx": x, "cy": y, "r": NODE_R, "fill": "#e3f2fd", "stroke": INK},
                     objects=[waypoint], tooltip=waypoint)
        canvas.text(x, y + 4, label(waypoint)[:LABEL_CHARS], font_size=LABEL_FONT)
        badges = [f for f in scene.facts if f[0] in BADGES and f[1:] == (waypoint,)]
        for row, fact in enumerate(sorted(badges)):
            _badge(canvas, fact, BADGES[fact[0]], x - BADGE_W / 2,
                   y + NODE_R + 4 + row * BADGE_PITCH)
    # flags, then objectives and cameras, under the map
    below = max((y + NODE_R + 4 + BADGE_PITCH * _n_badges(scene, w)
                 for w, (_, y) in where.items()), default=0) + 14
    below = _flags(canvas, scene, below)
    _objectives(canvas, scene, below)


def _n_badges(scene: Scene, waypoint: str) -> int:
    return sum(1 for f in scene.facts if f[0] in BADGES and f[1:] == (waypoint,))


def _link(canvas: Canvas, fact: Fact, where: dict[str, tuple[float, float]], offset: float,
          style: Mapping[str, object]) -> None:
    a, b = where.get(fact[1]), where.get(fact[2])
    if a is None or b is None:
        return
    if a == b:  # a waypoint visible from itself: a ring around it
        canvas.shape("circle", {"cx": a[0], "cy": a[1], "r": NODE_R + 4, "fill": "none",
                                **style, "marker_end": None}, facts=[fact])
        return
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    # start and end at the node rims, shifted sideways so a -> b and b -> a do not overlap
    nx, ny = -uy * offset, ux * offset
    canvas.shape("line", {"x1": a[0] + ux * NODE_R + nx, "y1": a[1] + uy * NODE_R + ny,
                          "x2": b[0] - ux * (NODE_R + 3) + nx, "y2": b[1] - uy * (NODE_R + 3) + ny,
                          "stroke_width": 1.5, **style}, facts=[fact])


def _badge(canvas: Canvas, fact: Fact, words: str, x: float, y: float) -> None:
    canvas.shape("rect", {"x": x, "y": y, "width": BADGE_W, "height": BADGE_H, "rx": 3,
                          "fill": "#fff8e1", "stroke": "#bcaaa4"}, facts=[fact])
    canvas.text(x + BADGE_W / 2, y + 12, words, font_size=BADGE_FONT)


def _flags(canvas: Canvas, scene: Scene, y: float) -> float:
    """``(available)`` and ``(channel_free)`` side by side; returns the next free height."""
    flags = [f for f in FLAGS if (f,) in scene.facts]
    for column, flag in enumerate(flags):
        _badge(canvas, (flag,), flag, 10 + column * (BADGE_W + 6), y)
    return y + (BADGE_PITCH + 4 if flags else 0)


def _objectives(canvas: Canvas, scene: Scene, y: float) -> None:
    """Objectives and cameras in rows under the map, each with its image / mode badges."""
    x = 10
    things = [(o, "objective") for o in sorted({f[1] for f in scene.facts if f[0] in
              {"visible_from", "have_image", "communicated_image_data"}} | set(
              scene.of_type("objective")))]
    things += [(c, "camera") for c in sorted({f[1] for f in scene.with_predicate("supports", 2)}
                                             | set(scene.of_type("camera")))]
    for name, kind in things:
        canvas.shape("rect", {"x": x, "y": y, "width": BADGE_W, "height": BADGE_PITCH + 2, "rx": 4,
                              "fill": "#ede7f6" if kind == "objective" else "#e0f2f1",
                              "stroke": INK}, objects=[name], tooltip=f"{kind} {name}")
        canvas.text(x + BADGE_W / 2, y + 14, label(name)[:14], font_size=BADGE_FONT)
        details = [(f, f"from {f[2]}") for f in scene.with_predicate("visible_from", 2)
                   if f[1] == name]
        details += [(f, f"image {f[2]}") for f in scene.with_predicate("have_image", 2)
                    if f[1] == name]
        details += [(f, f"sent {f[2]}") for f in scene.with_predicate("communicated_image_data", 2)
                    if f[1] == name]
        details += [(f, f"mode {f[2]}") for f in scene.with_predicate("supports", 2) if f[1] == name]
        for row, (fact, words) in enumerate(details):
            _badge(canvas, fact, label(words)[:14], x + BADGE_W + 6 + (row % 2) * (BADGE_W + 4),
                   y + 2 + (row // 2) * BADGE_PITCH)
        y += BADGE_PITCH + 8 + max(0, (len(details) - 1) // 2) * BADGE_PITCH


_ARROW = ('<defs><marker id="rover-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
          'markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
          f'fill="{INK}"/></marker></defs>')


DRAWER = SceneDrawer("rover-single", draw)
