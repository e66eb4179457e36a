"""``categories.png`` is readable (issue 31.8: its tick labels were 6 points and overlapped).

The figure is drawn from a small graded run of synthetic answers, two runs side by side; its
axes are inspected before saving: every category tick label is at least 9 points and no two
neighbouring labels overlap once laid out.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("matplotlib")

from llm_fixtures import demo_rows, make_answered_run  # noqa: E402

from planetarium.benchmarks.planetarium import figures  # noqa: E402
from planetarium.benchmarks.planetarium.figures import plot_categories  # noqa: E402
from planetarium.grading import load_ground_truth  # noqa: E402
from planetarium.llm.grade import grade_run  # noqa: E402
from planetarium.llm.report import build_report  # noqa: E402
from planetarium.pddl.writer import problem_to_pddl  # noqa: E402
from planetarium.testing.wrong_answers import wrong_answers  # noqa: E402

ROWS = demo_rows(8)


def _run(folder, name: str, seed: int):
    rng = random.Random(seed)
    answers = []
    for row in ROWS:
        _, truth = load_ground_truth(row["problem_pddl"])
        answers.append(problem_to_pddl(next(wrong_answers(truth, rng, per_problem=1))[1]))
    make_answered_run(folder, name, ROWS, answers)
    grade_run(folder, workers=1, progress=False)
    return folder


@pytest.mark.parametrize("n_runs", [1, 2])
def test_category_tick_labels_are_9_points_and_do_not_overlap(tmp_path, monkeypatch, n_runs):
    runs = [_run(tmp_path / f"run{i}", f"run{i}", i) for i in range(n_runs)]
    report_runs = build_report(runs).runs
    captured = []
    real_save = figures.save

    def keep(fig, path, plt, colours):
        fig.tight_layout()  # lay the labels out, as saving does
        fig.canvas.draw()
        captured.append([[(label.get_fontsize(), label.get_window_extent())
                          for label in axis.get_xticklabels()] for axis in fig.axes
                         if axis.get_visible() and axis.get_xticklabels()])
        real_save(fig, path, plt, colours)

    monkeypatch.setattr(figures, "save", keep)
    plot_categories(report_runs, tmp_path / "categories.png")
    assert (tmp_path / "categories.png").stat().st_size > 0
    panels, = captured
    assert panels
    for labels in panels:
        assert len(labels) >= 10 and all(size >= 9 for size, _ in labels)
        boxes = sorted((box for _, box in labels), key=lambda box: box.x0)
        for left, right in zip(boxes, boxes[1:], strict=False):
            assert left.x1 <= right.x0, "neighbouring tick labels overlap"
