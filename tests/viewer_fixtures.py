"""Two small graded runs for the viewer tests, built from real dataset rows.

The answers are the ground truths with one deliberate mistake each (a wrong goal, a wrong
initial fact, renamed objects, a wrong colour, the rover in the wrong place, an unsolvable
goal), one correct answer and one hostile non-answer; they go through the real ``eval grade``,
which records each verdict's explanation.
"""

from __future__ import annotations

from html.parser import HTMLParser
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


#: ActionReasoningBench's fixture records (another benchmark's pages in the viewer).
ARB_FIXTURES = Path(__file__).resolve().parent / "fixtures" / "arb"


def graded_arb_run(tmp_path: Path, n: int = 4) -> Path:
    """An ARB run over the first ``n`` fixture items, graded: the stored answers, the last
    replaced by :data:`HOSTILE`."""
    from planetarium.benchmarks import get_benchmark
    from planetarium.config import build
    from planetarium.llm.grade import grade_run

    arb = get_benchmark("arb")
    items = arb.load_items(build(arb.config_type, {"name": "arb", "dataset": str(ARB_FIXTURES),
                                                   "split": [None], "limit": n}))
    answers = [f"[ANSWER]\n{item['answer']}" for item in items[:-1]] + [HOSTILE]
    run_dir = tmp_path / "arb"
    make_answered_run(run_dir, "arb", items, answers, benchmark="arb",
                      dataset=str(ARB_FIXTURES), limit=n)
    grade_run(run_dir, workers=1, progress=False)
    return run_dir


#: ACPBench's fixture questions (a third benchmark's pages in the viewer).
ACP_FIXTURES = Path(__file__).resolve().parent / "fixtures" / "acp"


def graded_acp_run(tmp_path: Path) -> Path:
    """An ACPBench run over the yes/no, multiple-choice and generative questions of the
    landmarks and applicability tasks, graded: right, wrong and unreadable answers."""
    from planetarium.benchmarks import get_benchmark
    from planetarium.config import build
    from planetarium.llm.grade import grade_run

    acp = get_benchmark("acpbench")
    settings = {"dataset": str(ACP_FIXTURES), "split": [None], "tasks": ["land", "app"]}
    items = acp.load_items(build(acp.config_type, {"name": "acpbench", **settings}))
    answers = []
    for number, item in enumerate(items):
        gold = acp.reference_answer(item)
        answers.append(["The answer is " + gold + ".", "Yes and no.", "I would rather not say",
                        HOSTILE][number % 4] if item["kind"] != "gen" else gold)
    run_dir = tmp_path / "acpbench"
    make_answered_run(run_dir, "acpbench", items, answers, benchmark="acpbench",
                      **{k: v for k, v in settings.items() if k != "split"})
    grade_run(run_dir, workers=1, progress=False)
    return run_dir


#: Unicode's Bidi_Control characters (spelt out here, not taken from the code under test).
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


class PageTags(HTMLParser):
    """Every start tag of a page with its attributes, and the text inside ``<script>``s."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.script_text = ""
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.script_text += data


def parsed_page(path: Path) -> PageTags:
    parsed = PageTags()
    parsed.feed(path.read_text(encoding="utf-8"))
    return parsed


def page_policy_breaches(view: Path) -> list[str]:
    """What breaks the viewer's page policy in the viewer folder ``view`` (its index and every
    item page, whatever benchmark wrote them): one content security policy per page, with no
    ``'unsafe-inline'`` and scripts and styles from the folder only; no inline script, no
    ``<style>``, no ``style`` or event-handler attribute; every linked file there; no raw bidi
    control character.  Empty when all holds."""
    pages = [view / "index.html", *sorted((view / "items").glob("*.html"))]
    breaches = [] if len(pages) > 1 else [f"{view}: no item pages"]
    for path in pages:
        html = path.read_text(encoding="utf-8")
        parsed = PageTags()
        parsed.feed(html)
        policies = [a.get("content") or "" for t, a in parsed.tags
                    if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
        if len(policies) != 1 or "'unsafe-inline'" in policies[0] or not all(
                rule in policies[0] for rule in ("default-src 'none'", "script-src 'self'",
                                                 "style-src 'self'")):
            breaches.append(f"{path.name}: policy {policies}")
        if parsed.script_text.strip() or any(t == "style" for t, _ in parsed.tags):
            breaches.append(f"{path.name}: inline script or <style>")
        for tag, attrs in parsed.tags:
            if {a for a in attrs if a.startswith("on") or a == "style"}:
                breaches.append(f"{path.name}: <{tag}> {attrs}")
            for key in ("src", "href"):
                link = attrs.get(key)
                if link and not link.startswith("#") and not (path.parent / link).is_file():
                    breaches.append(f"{path.name}: {key}={link} is not a file there")
        if set(html) & set(BIDI_CONTROLS):
            breaches.append(f"{path.name}: raw bidi control characters")
    return breaches
