"""Viewer pages and reports of every registered benchmark, not only Planetarium (issue 40.5).

ACPBench and ARB runs, graded for real: each index names every filter and column once and
leaves out a column no answer fills; a status reads in the same words on the badge, the index
and the page (no raw ``decided`` beside ``not parseable``); an ACPBench item page shows its
expected answer; every benchmark's report draws at least one figure.
"""

import re
from collections import Counter

import pytest
from viewer_fixtures import graded_acp_run, graded_arb_run

from planetarium.benchmarks import available_benchmarks, get_benchmark
from planetarium.viewer import build_viewer

#: The badge's words for an answer in every benchmark but Planetarium (its stages add
#: "unsolvable" and "not equivalent").
SHARED_WORDS = re.compile(r"correct|not parseable|not correct|undecided \([\w -]+\)")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runs")
    return {"acpbench": graded_acp_run(folder), "arb": graded_arb_run(folder)}


@pytest.fixture(scope="module")
def views(runs, tmp_path_factory):
    return {name: build_viewer([run], tmp_path_factory.mktemp(f"view-{name}"))
            for name, run in runs.items()}


def _index(path):
    text = path.read_text(encoding="utf-8")
    labels = re.findall(r"<label><span>([^<]*)</span>", text)
    ids = re.findall(r' id="([^"]+)"', text)
    head = re.findall(r"<th>([^<]*)</th>", text)
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", row)
            for row in re.findall(r"<tr data-[^>]*>(.*?)</tr>", text)]
    return labels, ids, head, rows


@pytest.mark.parametrize("name", ["acpbench", "arb"])
def test_filters_and_columns_are_named_once_and_never_empty(views, name):
    labels, ids, head, rows = _index(views[name])
    assert not [k for k, n in Counter(labels).items() if n > 1], labels
    assert not [k for k, n in Counter(ids).items() if n > 1], ids
    assert not [k for k, n in Counter(head).items() if n > 1], head
    assert rows and all(len(row) == len(head) for row in rows)
    empty = [head[i] for i in range(len(head)) if not any(row[i].strip() for row in rows)]
    assert not empty, f"columns no row fills: {empty}"
    assert "error category" not in " ".join(labels + head)  # no grader categories here


@pytest.mark.parametrize("name", ["acpbench", "arb"])
def test_one_status_vocabulary_on_badges_and_pages(views, name):
    folder = views[name].parent
    pages = [p.read_text(encoding="utf-8") for p in sorted((folder / "items").glob("*.html"))]
    badges = re.findall(r'class="status status-[^"]*">([^<]*)<', "".join(pages))
    assert badges and all(SHARED_WORDS.fullmatch(b) for b in badges), set(badges)
    assert not any("<dt>status</dt>" in page for page in pages)  # no raw "decided" beside it
    assert "not parseable" in badges


def test_acpbench_item_pages_show_the_expected_answer(views):
    pages = {p.name: p.read_text(encoding="utf-8")
             for p in (views["acpbench"].parent / "items").glob("*.html")}
    assert pages and all("Reference answer" in page for page in pages.values())
    mcq = next(page for name, page in pages.items() if "-mcq_app_-6575941946410689765" in name)
    assert "<dt>B</dt><dd dir=\"auto\">sail from location l1 to location l0</dd>" in mcq
    gen = next(page for name, page in pages.items() if "-gen_" in name)
    assert "Stored gold answer (JSON)" in gen


def test_the_reference_is_what_a_model_is_asked_to_write():
    acp = get_benchmark("acpbench")
    assert acp.reference_answer({"kind": "bool", "answer": "yes"}) == "yes"
    assert acp.reference_answer({"kind": "mcq", "answer": "C"}) == "C"


@pytest.mark.parametrize("name", ["acpbench", "arb"])
def test_every_benchmark_report_draws_a_figure(runs, name, tmp_path):
    pytest.importorskip("matplotlib")
    from planetarium.llm.report import write_report

    report = write_report([runs[name]], tmp_path)
    assert report.figures and all((tmp_path / f).stat().st_size > 5_000 for f in report.figures)
    assert "![breakdowns](breakdowns.png)" in (tmp_path / "report.md").read_text()


def test_every_registered_benchmark_has_a_figure():
    assert all(bench.report_figures() for bench in available_benchmarks().values())
