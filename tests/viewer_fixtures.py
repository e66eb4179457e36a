"""Two small graded runs for the viewer tests, built from real dataset rows.

The answers are the ground truths with one deliberate mistake each (a wrong goal, a wrong
initial fact, renamed objects, a wrong colour, the rover in the wrong place, an unsolvable
goal), one correct answer and one hostile non-answer; they go through the real ``eval grade``,
which records each verdict's explanation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from llm_fixtures import make_answered_run

#: What the hostile answer tries: if any of it ran, ``window.__pwned`` would be set; its bidi
#: controls (an override, an isolate) would reorder what a reader sees if shown raw.
HOSTILE = ('<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'
           '(define (problem oops \u202e(on b1 b2)\u202c \u2067rtl\u2069')

#: Dataset rows (demo dataset, held-out test split) and how each answer differs from its truth.
MUTATIONS: dict[str, list[tuple[str, str]]] = {
    "529": [("(on b4 b1)", "(on b4 b3)"), ("(clear b3)\n      (on b4", "(on b4")],   # wrong goal
    "541": [],                                       # run A: the hostile answer; B: correct
    "575": [("(at ball3 room1)", "(at ball3 room2)")],                           # init differs
    "601": [],                                           # objects renamed, see rename_objects
    "821": [("(painted tile5 color2)", "(painted tile5 color1)")],                  # wrong paint
    "945": [("(at_rover waypoint2)", "(at_rover waypoint3)")],                # rover misplaced
    "537": [],                                                   # unsolvable: a goal cycle
}


def dataset_rows() -> list[dict[str, Any]]:
    from planetarium.dataset import load_rows

    demo = Path(__file__).resolve().parents[1] / "data" / "demo.yaml"
    # ids as strings, as completions record them
    rows = {str(r["id"]): {**r, "id": str(r["id"])}
            for r in load_rows(str(demo), split="heldout:test")}
    return [rows[key] for key in MUTATIONS]


def _mutated(row: dict[str, Any]) -> str:
    text = row["problem_pddl"]
    for old, new in MUTATIONS[str(row["id"])]:
        assert old in text, (row["id"], old)
        text = text.replace(old, new, 1)
    if str(row["id"]) == "601":  # every object renamed, and one ball dropped in the wrong room
        head, body = text.split("(:objects", 1)
        for old, new in (("ball", "orb"), ("room", "zone"), ("gripper", "hand")):
            body = body.replace(f" {old}", f" {new}")  # objects, not the type predicates
        text = (head + "(:objects" + body).replace("(at orb1 zone1)", "(at orb1 zone2)", 1)
    if str(row["id"]) == "537":
        text = text.replace("(:goal (and", "(:goal (and (on b1 b2) (on b2 b1)", 1)
    return text


def answers_a(rows: list[dict[str, Any]]) -> list[str]:
    """Run A: every mutation, and the hostile answer where B is right (row 541)."""
    return [HOSTILE if str(row["id"]) == "541" else _mutated(row) for row in rows]


def answers_b(rows: list[dict[str, Any]]) -> list[str]:
    """Run B: correct everywhere but the floor-tile row (same wrong paint as A)."""
    return [_mutated(r) if str(r["id"]) == "821" else r["problem_pddl"] for r in rows]


def graded_runs(tmp_path: Path) -> tuple[Path, Path]:
    """Run A and run B over the same rows, graded (with explanations)."""
    from planetarium.llm.grade import grade_run

    rows = dataset_rows()
    dirs = []
    for name, answers in (("run-a", answers_a(rows)), ("run-b", answers_b(rows))):
        run_dir = tmp_path / name
        make_answered_run(run_dir, name, rows, answers)
        grade_run(run_dir, workers=1, progress=False)
        dirs.append(run_dir)
    return dirs[0], dirs[1]
