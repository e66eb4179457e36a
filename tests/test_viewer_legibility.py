"""The run viewer's rover pictures are legible (issue 31.8: waypoint labels were about 6 px).

Every label of a rover picture is at least 10 drawing units high — the pictures are shown 1.4
times larger and shrink to about 1:1 in the narrowest layout (two runs side by side in a
1400-pixel window; ``tests/test_viewer_browser.py`` measures that in Chromium) — and each
waypoint's label fits inside its node, whose neighbours do not touch it.
"""

from __future__ import annotations

import itertools
import math
import re

from planetarium.dataset import load_rows
from planetarium.grading import load_ground_truth
from planetarium.viewer.markup import SCALE
from planetarium.viewer.scenes import Scene, draw
from planetarium.viewer.scenes.rover import NODE_R

#: A generous width of one character of a sans-serif font, in font sizes.
CHAR_WIDTH = 0.6


def _rover_svgs():
    rows = load_rows("data/rover.yaml", split=None)
    for row in sorted(rows, key=lambda r: len(r["problem_pddl"]))[::max(1, len(rows) // 25)]:
        _, problem = load_ground_truth(row["problem_pddl"])
        scene = Scene("rover-single", problem.objects,
                      dict(zip(problem.objects, problem.object_types, strict=True)),
                      problem.init | problem.goal)
        yield problem, draw(scene).svg


def test_every_rover_label_is_at_least_10_units_and_fits_its_node():
    checked = 0
    for problem, svg in _rover_svgs():
        texts = re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*font-size="([\d.]+)"[^>]*>([^<]*)<',
                           svg)
        assert texts and all(float(size) >= 10 for _, _, size, _ in texts), svg[:300]
        assert all(float(size) * SCALE >= 14 for _, _, size, _ in texts)
        nodes = [(float(x), float(y)) for x, y in
                 re.findall(rf'<circle cx="([\d.]+)" cy="([\d.]+)" r="{NODE_R}"', svg)]
        waypoints = [o for o, t in zip(problem.objects, problem.object_types, strict=True)
                     if t == "waypoint"]
        labels = [(text, float(size)) for _, _, size, text in texts if text in waypoints]
        assert len(labels) == len(waypoints) == len(nodes)
        for text, size in labels:
            assert len(text) * size * CHAR_WIDTH <= 2 * NODE_R, text
        for (x1, y1), (x2, y2) in itertools.combinations(nodes, 2):
            assert math.hypot(x1 - x2, y1 - y2) >= 2 * NODE_R + 8
        checked += 1
    assert checked >= 20
