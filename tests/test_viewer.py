"""The run viewer without a browser: pictures of each domain, the answer drawn in the ground
truth's names, escaping of hostile text, the pages written, ``eval view`` and ``--serve``.

The browser half (filters, item pages, screenshots) is tests/test_viewer_browser.py.
"""

from __future__ import annotations

import http.client
import re
import threading
import urllib.request
from html import unescape
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from viewer_fixtures import (
    BIDI_CONTROLS,
    HOSTILE,
    graded_runs,
    page_policy_breaches,
    parsed_page,
)

from planetarium.cli import main
from planetarium.presentation import pages
from planetarium.presentation.pages import Scenes
from planetarium.viewer import build_viewer
from planetarium.viewer.cli import make_server
from planetarium.viewer.load import load_runs
from planetarium.viewer.scenes import EXTRA, MISSING, Scene, available_drawers, draw
from planetarium.viewer.scenes.floortile import layout
from planetarium.viewer.states import build_states


def _scene(domain: str, facts: list[tuple[str, ...]], marks=None, **kw) -> Scene:
    objects = tuple(sorted({a for f in facts for a in f[1:]}))
    return Scene(domain, objects, kw.pop("types", {}), frozenset(facts), marks or {}, **kw)


def _marked(svg: str) -> dict[str, str]:
    """Fact text -> mark, from the tooltips of marked shapes."""
    return {m[1]: m[0] for m in re.findall(r'data-mark="(\w+)"><title>(\([^<]*?\)) — ', svg)}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    return graded_runs(tmp_path_factory.mktemp("runs"))


# ------------------------------------------------------------------------------ pictures


def test_blocks_towers_bottom_up_with_marks():
    facts = [("on-table", "b1"), ("on", "b2", "b1"), ("on", "b3", "b2"), ("clear", "b3"),
             ("holding", "b4"), ("on-table", "b5"), ("clear", "b5")]
    drawing = draw(_scene("blocksworld", facts, {("on", "b3", "b2"): MISSING,
                                                 ("holding", "b4"): EXTRA}))
    assert drawing.undrawn == ()  # every fact has a shape
    y = {name: float(re.search(rf'y="([\d.]+)"[^>]*><title>{name}</title>', drawing.svg)[1])
         for name in ("b1", "b2", "b3")}
    assert y["b3"] < y["b2"] < y["b1"]  # b3 on b2 on b1, drawn upwards
    assert _marked(drawing.svg) == {"(on b3 b2)": MISSING, "(holding b4)": EXTRA}


def test_blocks_contradictions_are_listed_not_drawn():
    facts = [("on", "a", "b"), ("on", "a", "c"), ("on", "b", "a"), ("on-table", "c")]
    drawing = draw(_scene("blocksworld", facts))
    # a cycle a-b and a block on two others: one placement each, the rest listed
    assert len(drawing.undrawn) >= 1 and ("on", "a", "c") in dict(drawing.undrawn)


def test_floor_tile_grid_from_up_and_right():
    facts = [("right", "t2", "t1"), ("up", "t1", "t3"), ("right", "t4", "t3"),
             ("up", "t2", "t4"), ("painted", "t4", "red"), ("robot-at", "r1", "t3"),
             ("robot-has", "r1", "red"), ("available-color", "red")]
    scene = _scene("floor-tile", facts, types={"r1": "robot", "red": "color"})
    assert layout(["t1", "t2", "t3", "t4"], scene) == {"t1": (0, 0), "t2": (0, 1),
                                                        "t3": (1, 0), "t4": (1, 1)}
    drawing = draw(scene)
    assert drawing.undrawn == ()
    assert 'fill="#e53935"' in drawing.svg  # "red" paints red


def test_goal_drawn_on_its_initial_grid():
    init = frozenset({("right", "t2", "t1"), ("up", "t1", "t3")})
    goal = Scene("floor-tile", ("t2", "t3"), {}, frozenset({("painted", "t2", "c1"),
                                                          ("painted", "t3", "c1")}),
                 context=init)
    assert layout(["t1", "t2", "t3"], goal) == {"t1": (0, 0), "t2": (0, 1), "t3": (1, 0)}


def test_gripper_balls_in_rooms_and_grippers():
    facts = [("room", "r1"), ("room", "r2"), ("ball", "b1"), ("ball", "b2"), ("gripper", "g1"),
             ("at-robby", "r2"), ("at", "b1", "r1"), ("carry", "b2", "g1")]
    drawing = draw(_scene("gripper", facts, {("at", "b1", "r1"): MISSING}))
    assert drawing.undrawn == ()
    assert _marked(drawing.svg) == {"(ball b1) (at b1 r1)": MISSING}


def test_unknown_domain_gets_the_generic_picture():
    facts = [("likes", "ann", "bob"), ("happy", "ann"), ("sunny",), ("between", "a", "b", "c")]
    drawing = draw(_scene("my-plugin-domain", facts, {("likes", "ann", "bob"): EXTRA}))
    assert [f for f, _ in drawing.undrawn] == [("between", "a", "b", "c")]
    assert _marked(drawing.svg) == {"(likes ann bob)": EXTRA}


NAMES = st.sampled_from(["a", "b", "c", "t1", "t2", "<script>", 'x"y', "&amp"])


@pytest.mark.parametrize("domain", [*available_drawers(), "generic"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_facts_draw_or_are_listed(domain, data):
    """Hostile states (contradictions, cycles, odd names) never crash a drawer; each fact is
    drawn or listed, and no name reaches the SVG unescaped."""
    from planetarium.domains import get_domain

    predicates = ([(name, len(types)) for name, types in get_domain(domain).definition.predicates.items()]
                  if domain in available_drawers() else [("p", 0), ("q", 1), ("r", 2), ("s", 3)])
    facts = data.draw(st.lists(st.sampled_from(predicates).flatmap(
        lambda p: st.tuples(st.just(p[0]), *[NAMES] * p[1])), max_size=25))
    marks = {f: data.draw(st.sampled_from([MISSING, EXTRA])) for f in facts[:3]}
    scene = _scene(domain, facts, marks)
    drawing = draw(scene)
    drawn = scene.facts - {f for f, _ in drawing.undrawn}
    assert drawn | {f for f, _ in drawing.undrawn} == scene.facts
    assert "<script>" not in drawing.svg and 'x"y' not in drawing.svg


def test_too_large_a_state_is_not_drawn():
    facts = [("clear", f"b{i}") for i in range(1000)]
    assert draw(_scene("blocksworld", facts)) is None


# ------------------------------------------------------------------------------ states


def test_answer_drawn_in_ground_truth_names(runs):
    viewer_runs = load_runs(list(runs))
    item = next(i for i in viewer_runs.items if i.id == "601")
    answer = item.answers[0]
    [scenes] = [s for s in answer.view.sections if isinstance(s, Scenes)]
    assert (scenes.truth, scenes.answer) == (item.row["problem_pddl"], answer.output)
    states = build_states(scenes.truth, scenes.answer, scenes.explanation)
    # zone/orb/hand became room/ball/gripper; the misplaced ball is the one extra fact
    assert ("at", "ball1", "room2") in states.answer_init.facts
    assert states.answer_init.marks == {("at", "ball1", "room2"): EXTRA}
    assert states.truth_init.marks == {("at", "ball1", "room1"): MISSING}
    assert not {a for f in states.answer_init.facts for a in f[1:]} - set(states.truth_init.objects)


def test_unmatched_answer_objects_keep_their_names():
    truth = ("(define (problem p) (:domain blocksworld) (:objects b1 b2) (:init (arm-empty) "
             "(on-table b1) (on-table b2) (clear b1) (clear b2)) (:goal (and (on b1 b2))))")
    answer = truth.replace("(:objects b1 b2)", "(:objects b1 b2 b3)").replace(
        "(clear b2))", "(clear b2) (on-table b3) (clear b3))")
    explanation = {"renaming": {"b1": "b1", "b2": "b2"}, "objects": {"extra": ["b3"]},
                   "init": {"extra": ["(on-table b3)", "(clear b3)"]}}
    states = build_states(truth, answer, explanation)
    assert states.answer_init.object_marks == {"b3": EXTRA}
    assert draw(states.answer_init).undrawn == ()
    unexplained = build_states(truth, answer, None)  # drawn in its own names
    assert unexplained.answer_init.facts == unexplained.truth_init.facts | {
        ("on-table", "b3"), ("clear", "b3")} and not unexplained.answer_init.marks
    broken = build_states(truth, "(define (problem", explanation)
    assert broken.answer_init is None and "does not read" in broken.answer_error
    assert build_states("not pddl", answer, None) is None


def test_clashing_unmatched_name_is_prefixed_as_the_explanation_writes_it():
    truth = ("(define (problem p) (:domain blocksworld) (:objects b1 b2) (:init (arm-empty) "
             "(on-table b1) (on b2 b1) (clear b2)) (:goal (and (on-table b2))))")
    answer = ("(define (problem p) (:domain blocksworld) (:objects b1 b2 b3) (:init (arm-empty) "
              "(on-table b2) (on b3 b2) (clear b3) (on-table b1) (clear b1)) "
              "(:goal (and (on-table b3))))")
    explanation = {"renaming": {"b2": "b1", "b3": "b2"}, "objects": {"extra": ["pred:b1"]},
                   "init": {"extra": ["(on-table pred:b1)", "(clear pred:b1)"]}}
    scene = build_states(truth, answer, explanation).answer_init
    assert scene.facts == {("arm-empty",), ("on-table", "b1"), ("on", "b2", "b1"),
                           ("clear", "b2"), ("on-table", "pred:b1"), ("clear", "pred:b1")}
    assert _marked(draw(scene).svg) == {"(on-table pred:b1)": EXTRA, "(clear pred:b1)": EXTRA}


# ------------------------------------------------------------------------------ pages


def test_pages_are_offline_escaped_and_linked(runs, tmp_path):
    index = build_viewer(list(runs), tmp_path / "view")
    pages = [index, *sorted((tmp_path / "view" / "items").glob("*.html"))]
    assert len(pages) == 1 + 7
    for path in pages:
        html = path.read_text(encoding="utf-8")
        assert "Content-Security-Policy" in html and "default-src 'none'" in unescape(html)
        # no URL but the SVG namespace, no script but ours, no page outside the folder
        assert set(re.findall(r"https?://[^\s\"'<>]+", html)) <= {"http://www.w3.org/2000/svg"}
        assert html.count("<script") == (path == index)  # the filter script, on the index only
        assert "<img" not in html and 'onerror="' not in html
        for link in re.findall(r'href="([^"#]+)"', html):
            assert (path.parent / link).resolve().is_file(), (path, link)
    hostile = next(p for p in pages if "-541" in p.name).read_text(encoding="utf-8")
    assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt;&lt;img src=x onerror=" in hostile
    assert HOSTILE not in hostile
    table = index.read_text(encoding="utf-8")
    assert table.count("<tr data-domain=") == 7
    assert 'data-status-0="not parseable"' in table and 'data-status-1="correct"' in table


def test_eval_view_command(runs, tmp_path):
    runner = CliRunner()
    done = runner.invoke(main, ["eval", "view", *map(str, runs), "--out", str(tmp_path / "v"),
                                "--label", "first", "--label", "second"])
    assert done.exit_code == 0, done.output
    assert "first: status" in (tmp_path / "v" / "index.html").read_text(encoding="utf-8")
    stale = tmp_path / "v" / "items" / "00099-gone.html"  # a page an earlier build wrote
    stale.write_text("old", encoding="utf-8")
    again = runner.invoke(main, ["eval", "view", str(runs[0]), "--out", str(tmp_path / "v")])
    assert again.exit_code == 0, again.output
    assert not stale.exists() and len(list((tmp_path / "v" / "items").iterdir())) == 7
    not_a_run = tmp_path / "not-a-run"
    not_a_run.mkdir()
    (not_a_run / "answers.jsonl").write_text("{}\n")
    failed = runner.invoke(main, ["eval", "view", str(not_a_run)])
    assert failed.exit_code == 1 and failed.output.strip().endswith(
        f"{not_a_run}: not a run folder (no run.json; it holds answers.jsonl): give a folder "
        "'planetarium eval run --out' wrote")
    ungraded = tmp_path / "ungraded"
    ungraded.mkdir()
    (ungraded / "run.json").write_text("{}")
    failed = runner.invoke(main, ["eval", "view", str(ungraded)])
    assert failed.exit_code == 1 and "not graded yet" in failed.output


def test_pages_forbid_inline_script_and_show_bidi_controls(runs, tmp_path):
    """Script and style are files beside the pages, and the policy forbids them inline (and
    event-handler attributes): a slip in escaping could add markup, never code.  Bidi control
    characters from a model show as visible markers, never raw."""
    index = build_viewer(list(runs), tmp_path / "view")
    assert page_policy_breaches(tmp_path / "view") == []
    assert [t for t, a in parsed_page(index).tags if t == "script"] == ["script"]
    pages = sorted((tmp_path / "view" / "items").glob("*.html"))
    hostile = next(p for p in pages if "-541" in p.name).read_text(encoding="utf-8")
    assert "oops ⟨U+202E⟩(on b1 b2)⟨U+202C⟩ ⟨U+2067⟩rtl⟨U+2069⟩" in hostile
    assert '<pre class="answer" dir="auto">' in hostile


def _shown(text: str) -> str:
    """``text`` as the page must show it: bidi controls as markers (spelt out here)."""
    return "".join(f"⟨U+{ord(c):04X}⟩" if c in BIDI_CONTROLS else c for c in text)


#: One of each section type a benchmark's pages are made of, every string the hostile answer.
SECTIONS = (
    pages.Text("t", HOSTILE), pages.Note(HOSTILE), pages.Code("c", HOSTILE),
    pages.Fields("f", (("k", HOSTILE),)), pages.Grid("g", ("k", "v"), (("k", (
        pages.Cell("v", HOSTILE),)),)), pages.Chat("p", (("user", HOSTILE),)),
)


@pytest.mark.parametrize("part", SECTIONS, ids=lambda part: type(part).__name__)
def test_every_section_type_shows_model_text_as_isolated_text(part):
    """Whatever a benchmark's page holds (ACPBench's, ARB's, an outside benchmark's), model text
    is escaped, its bidi controls shown as markers, in an element with its own direction."""
    from html import escape

    from planetarium.viewer.html import section

    html = section(part, "h3")
    assert not set(html) & set(BIDI_CONTROLS) and "<script" not in html and "<img" not in html
    assert f'dir="auto">{escape(_shown(HOSTILE))}<' in html, html


def test_explanation_names_are_isolated():
    """Renamings name model objects inline among other text: each in its own ``<bdi>``."""
    from planetarium.viewer.html import section

    html = section(pages.Explanation("e", {"kind": "not-equivalent",
                                           "renaming": {"\u202eevil": "b1"}}), "h3")
    assert "<bdi>⟨U+202E⟩evil</bdi> → <bdi>b1</bdi>" in html
    assert "\u202e" not in html


def _get(port: int, path: str, host: str | None = None) -> tuple[int, dict[str, str], bytes]:
    """A GET with the ``Host`` header a browser would send (or ``host``, as a rebinding page's
    request would carry)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", f"127.0.0.1:{port}" if host is None else host)
        connection.endheaders()
        reply = connection.getresponse()
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()
    finally:
        connection.close()


def test_serve_on_localhost_only(runs, tmp_path):
    """--serve: 127.0.0.1 only, requests for this machine only (DNS rebinding), files only (no
    listings), the policy as a header with no sniffing, framing or referrers."""
    build_viewer(list(runs), tmp_path)
    server = make_server(tmp_path, 0)
    host, port = server.server_address[:2]
    assert host == "127.0.0.1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/index.html", timeout=10) as reply:
            assert reply.status == 200 and b"Planetarium run viewer" in reply.read()
        status, headers, body = _get(port, "/")
        assert status == 200 and b"Planetarium run viewer" in body
        policy = headers["content-security-policy"]
        assert "'unsafe-inline'" not in policy and "frame-ancestors 'none'" in policy
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY" and headers["referrer-policy"] == "no-referrer"
        status, headers, _ = _get(port, "/viewer.js")
        assert status == 200 and "javascript" in headers["content-type"]
        assert _get(port, "/", f"localhost:{port}")[0] == 200
        assert _get(port, "/", "LOCALHOST")[0] == 200
        for rebound in ("evil.example", f"evil.example:{port}", f"127.0.0.1:{port + 1}",
                        f"127.0.0.1.evil.example:{port}", f"localhost:{port}@evil.example", ""):
            status, headers, body = _get(port, "/index.html", rebound)
            assert status == 421 and b"Planetarium" not in body, rebound
            assert headers["x-content-type-options"] == "nosniff"
        for folder in ("/items/", "/items"):
            status, _, body = _get(port, folder)
            assert status in (301, 404) and b"<a href=" not in body, folder
        assert _get(port, "/items/")[0] == 404
    finally:
        server.shutdown()
        server.server_close()
