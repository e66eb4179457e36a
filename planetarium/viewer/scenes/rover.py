"""Rover (single rover, single lander): the waypoint map and what is where.

Waypoints sit on a circle (in a row when there are at most three); each ``can_traverse`` is an
arrow and each ``visible`` a dotted line, the two directions of a pair drawn slightly apart so a
difference in one direction is visible on its own.  Samples, the rover, the lander and the
analyses and data a goal asks for are badges under their waypoint; objectives (with their images)
and cameras (with the modes they support) are listed on the right, linked to the waypoints they
are visible from.
"""

from __future__ import annotations

import math

from ..markup import label
from .canvas import INK, Canvas, Fact, Scene

RADIUS, NODE_R = 120, 16
#: Badges under a waypoint: predicate -> short word.
BADGES = {"at_rover": "rover", "at_lander": "lander", "at_rock_sample": "rock",
          "at_soil_sample": "soil", "have_rock_analysis": "rock analysed",
          "have_soil_analysis": "soil analysed", "communicated_rock_data": "rock sent",
          "communicated_soil_data": "soil sent"}
FLAGS = ("available", "channel_free")


def _waypoints(scene: Scene) -> list[str]:
    typed = scene.of_type("waypoint")
    used = {arg for fact in scene.facts if fact[0] in BADGES or fact[0] in {"can_traverse", "visible"}
            for arg in fact[1:]}
    used |= {f[2] for f in scene.with_predicate("visible_from", 2)}
    return sorted(set(typed) | used, key=_natural)


def _natural(name: str) -> tuple:
    digits = "".join(ch for ch in name if ch.isdigit())
    return (name.rstrip("0123456789"), int(digits[:18]) if digits else -1, name)


def positions(waypoints: list[str]) -> dict[str, tuple[float, float]]:
    if len(waypoints) <= 3:
        return {w: (40 + i * 120, 70) for i, w in enumerate(waypoints)}
    step = 2 * math.pi / len(waypoints)
    return {w: (40 + RADIUS + RADIUS * math.cos(-math.pi / 2 + i * step),
                40 + RADIUS + RADIUS * math.sin(-math.pi / 2 + i * step))
            for i, w in enumerate(waypoints)}


def draw(scene: Scene, canvas: Canvas) -> None:
    waypoints = _waypoints(scene)
    where = positions(waypoints)
    canvas.parts.append(_ARROW)
    for predicate, offset, style in (("visible", -4, {"stroke": "#90a4ae",
                                                      "stroke_dasharray": "2 3"}),
                                     ("can_traverse", 4, {"stroke": INK,
                                                          "marker_end": "url(#rover-arrow)"})):
        for fact in scene.with_predicate(predicate, 2):
            _link(canvas, fact, where, offset, style)
    for waypoint, (x, y) in where.items():
        canvas.shape("circle", {"cx": x, "cy": y, "r": NODE_R, "fill": "#e3f2fd", "stroke": INK},
                     objects=[waypoint], tooltip=waypoint)
        canvas.text(x, y + 4, label(waypoint)[:10], font_size=9)
        badges = [f for f in scene.facts if f[0] in BADGES and f[1:] == (waypoint,)]
        for row, fact in enumerate(sorted(badges)):
            _badge(canvas, fact, BADGES[fact[0]], x - 34, y + NODE_R + 4 + row * 15)
    right = max((x for x, _ in where.values()), default=0) + 90
    _flags(canvas, scene, right)
    _objectives(canvas, scene, where, right)


def _link(canvas: Canvas, fact: Fact, where: dict[str, tuple[float, float]], offset: float,
          style: dict[str, object]) -> None:
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
    canvas.shape("rect", {"x": x, "y": y, "width": 68, "height": 13, "rx": 3, "fill": "#fff8e1",
                          "stroke": "#bcaaa4"}, facts=[fact])
    canvas.text(x + 34, y + 10, words, font_size=9)


def _flags(canvas: Canvas, scene: Scene, x: float) -> None:
    for row, flag in enumerate(f for f in FLAGS if (f,) in scene.facts):
        _badge(canvas, (flag,), flag, x, 10 + row * 16)


def _objectives(canvas: Canvas, scene: Scene, where: dict[str, tuple[float, float]],
                x: float) -> None:
    """Objectives and cameras in a column, each with its image / mode badges."""
    y = 50
    things = [(o, "objective") for o in sorted({f[1] for f in scene.facts if f[0] in
              {"visible_from", "have_image", "communicated_image_data"}} | set(
              scene.of_type("objective")))]
    things += [(c, "camera") for c in sorted({f[1] for f in scene.with_predicate("supports", 2)}
                                             | set(scene.of_type("camera")))]
    for name, kind in things:
        canvas.shape("rect", {"x": x, "y": y, "width": 90, "height": 18, "rx": 4,
                              "fill": "#ede7f6" if kind == "objective" else "#e0f2f1",
                              "stroke": INK}, objects=[name], tooltip=f"{kind} {name}")
        canvas.text(x + 45, y + 13, label(name)[:14], font_size=9)
        if kind == "objective":
            for fact in scene.with_predicate("visible_from", 2):
                if fact[1] == name and fact[2] in where:
                    wx, wy = where[fact[2]]
                    canvas.shape("line", {"x1": x, "y1": y + 9, "x2": wx + NODE_R, "y2": wy,
                                          "stroke": "#b39ddb", "stroke_dasharray": "4 3"},
                                 facts=[fact])
        details = [(f, f"image {f[2]}") for f in scene.with_predicate("have_image", 2)
                   if f[1] == name]
        details += [(f, f"sent {f[2]}") for f in scene.with_predicate("communicated_image_data", 2)
                    if f[1] == name]
        details += [(f, f"mode {f[2]}") for f in scene.with_predicate("supports", 2) if f[1] == name]
        for row, (fact, words) in enumerate(details):
            _badge(canvas, fact, label(words)[:14], x + 96 + (row % 2) * 72, y + 2 + (row // 2) * 15)
        y += 24 + max(0, (len(details) - 1) // 2) * 15


_ARROW = ('<defs><marker id="rover-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
          'markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
          f'fill="{INK}"/></marker></defs>')
