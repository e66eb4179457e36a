"""Any other domain: objects on a circle, binary facts as labelled arrows, unary facts as badges.

Good enough to see which facts differ in a domain the viewer has no picture for (a plug-in
domain); facts of three or more arguments are listed under the drawing.
"""

from __future__ import annotations

import math

from ..markup import label
from .canvas import INK, Canvas, Fact, Scene

NODE_R = 18


def draw(scene: Scene, canvas: Canvas) -> None:
    names = sorted({arg for fact in scene.facts if len(fact) in (2, 3) for arg in fact[1:]}
                   | set(scene.objects))
    radius = max(60.0, 14.0 * len(names))
    centre = radius + 70
    where = {name: (centre + radius * math.cos(2 * math.pi * i / max(len(names), 1) - math.pi / 2),
                    centre + radius * math.sin(2 * math.pi * i / max(len(names), 1) - math.pi / 2))
             for i, name in enumerate(names)}
    fact: Fact  # one name for facts of every arity below
    for row, fact in enumerate(f for f in sorted(scene.facts) if len(f) == 1):
        canvas.shape("rect", {"x": 10, "y": 8 + row * 16, "width": 110, "height": 13,
                              "fill": "#fff8e1", "stroke": "#bcaaa4"}, facts=[fact])
        canvas.text(65, 18 + row * 16, label(fact[0]), font_size=9)
    for fact in sorted(f for f in scene.facts if len(f) == 3 and f[1] != f[2]):
        (x1, y1), (x2, y2) = where[fact[1]], where[fact[2]]
        canvas.shape("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "stroke": "#90a4ae",
                              "stroke_width": 1.5}, facts=[fact])
        canvas.text((x1 + x2) / 2, (y1 + y2) / 2 - 3, label(fact[0]), font_size=8)
    for name, (x, y) in where.items():
        canvas.shape("circle", {"cx": x, "cy": y, "r": NODE_R, "fill": "#e8eaf6", "stroke": INK},
                     objects=[name], tooltip=name)
        canvas.text(x, y + 4, label(name)[:10], font_size=9)
        unary: list[Fact] = sorted(f for f in scene.facts if len(f) == 2 and f[1] == name)
        loops: list[Fact] = sorted(f for f in scene.facts if len(f) == 3 and f[1] == f[2] == name)
        for row, fact in enumerate(unary + loops):
            canvas.shape("rect", {"x": x - 40, "y": y + NODE_R + 3 + row * 14, "width": 80,
                                  "height": 12, "fill": "#fff8e1", "stroke": "#bcaaa4"},
                         facts=[fact])
            canvas.text(x, y + NODE_R + 12 + row * 14, label(fact[0]), font_size=8)
