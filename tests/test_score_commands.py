"""``acp score`` and ``arb score`` as thin commands over ``Benchmark.grade`` (issues 38.5, 39.2,
40.6): the same output guard as ``grade --batch`` (a second writer is refused), an ARB grading
exception is ``internal-error`` wherever ARB is graded, ``--answered-only`` scores a sample and
says so, and every error begins ``Error:``.
"""

from __future__ import annotations

import fcntl
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from llm_fixtures import make_answered_run

from planetarium.arb import score as arb_score
from planetarium.arb.records import load_records
from planetarium.benchmarks.arb import BENCHMARK as ARB
from planetarium.benchmarks.arb import ArbConfig
from planetarium.cli import main
from planetarium.llm.store import read_jsonl

ROOT = Path(__file__).parent / "fixtures"
DATA = {"acp": ROOT / "acp" / "app", "arb": ROOT / "arb" / "blocksworld-2024.jsonl"}
EXTRA = {"acp": ["--no-progress"], "arb": ["--workers", "1"]}


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def _gold(bench: str, tmp_path: Path, keep: int | None = None) -> Path:
    """The stored answers of the fixture as responses (the first ``keep`` of them)."""
    gold = tmp_path / f"{bench}-gold.jsonl"
    code, output = _run(bench, "gold", str(DATA[bench]), "--out", str(gold))
    assert code == 0, output
    if keep is not None:
        gold.write_text("".join(gold.read_text().splitlines(keepends=True)[:keep]))
    return gold


def _rows(path: Path) -> list[dict]:
    return [{k: v for k, v in json.loads(line).items() if k != "seconds"}
            for line in path.read_text().splitlines()]


def _score(bench: str, gold: Path, out: Path, *extra: str) -> tuple[int, str]:
    return _run(bench, "score", str(DATA[bench]), "--responses", str(gold), "--out", str(out),
                *EXTRA[bench], *extra)


@pytest.mark.parametrize("bench", ["acp", "arb"])
@pytest.mark.parametrize("resume", [[], ["--resume"]])
def test_a_second_writer_on_the_same_out_is_refused_and_the_rows_kept(bench, resume, tmp_path):
    gold = _gold(bench, tmp_path)
    out = tmp_path / "scores.jsonl"
    assert _score(bench, gold, out)[0] == 0
    before = out.read_bytes()
    with open(out, "ab") as first:  # the first writer, still running
        fcntl.flock(first, fcntl.LOCK_EX | fcntl.LOCK_NB)
        code, output = _score(bench, gold, out, *resume)
    assert code == 1, output
    assert output.strip() == f"Error: cannot write {out}: another {bench} score is writing it"
    assert out.read_bytes() == before
    assert _score(bench, gold, out, "--resume")[0] == 0  # once it is gone, it may go on
    assert out.read_bytes() == before


@pytest.mark.parametrize("bench", ["acp", "arb"])
def test_answered_only_scores_the_answered_ids_and_says_so_first(bench, tmp_path):
    gold = _gold(bench, tmp_path, keep=3)
    out, every = tmp_path / "sample.jsonl", tmp_path / "every.jsonl"
    code, output = _score(bench, gold, out, "--answered-only")
    assert code == 0, output
    first = output.splitlines()[0]
    assert first.startswith("answered only: 3 of the ") and "hold those 3 alone" in first, first
    rows = _rows(out)
    assert len(rows) == 3 and not any("no response" in r["reason"] for r in rows), rows
    assert "no response" not in output
    code, whole = _score(bench, gold, every)
    assert code == 0 and "no response" in whole and not whole.startswith("answered only")
    graded = _rows(every)
    assert len(graded) > 3 and [r for r in graded if "no response" not in r["reason"]] == rows
    # resuming a sample keeps its rows and adds nothing
    code, again = _score(bench, gold, out, "--answered-only", "--resume")
    assert code == 0 and again.splitlines()[0] == first and _rows(out) == rows


@pytest.mark.parametrize("bench", ["acp", "arb"])
def test_score_errors_begin_like_every_command(bench, tmp_path):
    bad = tmp_path / "responses.jsonl"
    bad.write_text("{not json\n")
    code, output = _score(bench, bad, tmp_path / "out.jsonl")
    assert code == 1 and output.startswith("Error: ") and len(output.splitlines()) == 1, output
    assert not output.startswith("error:")


def _failing_recompute(*_args, **_kwargs):
    raise RuntimeError("a grader bug")


def test_an_arb_grading_exception_is_internal_error_in_arb_score(tmp_path, monkeypatch):
    """Never ``timeout`` (nor ARB's old ``undecided``): workers fork after the patch."""
    monkeypatch.setattr(arb_score, "recompute", _failing_recompute)
    out = tmp_path / "scores.jsonl"
    code, output = _score("arb", _gold("arb", tmp_path, keep=4), out)
    assert code == 0, output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    answered, unanswered = rows[:4], rows[4:]
    assert all(r["status"] == "internal-error" and r["arb_outcome"] == "internal-error"
               and r["correct"] is None and r["score"] is None
               and "RuntimeError: a grader bug" in r["reason"] for r in answered), answered
    assert all(r["status"] == "decided" and r["arb_outcome"] == "unparsed" for r in unanswered)
    assert "internal-error" in output.splitlines()[0] and "timeout" in output.splitlines()[0]


def test_an_arb_grading_exception_is_internal_error_in_eval_grade(tmp_path, monkeypatch):
    monkeypatch.setattr(arb_score, "recompute", _failing_recompute)
    config = ArbConfig(name="arb", dataset=str(DATA["arb"]), split=(None,), limit=3)
    rows = ARB.load_items(config)
    records = {r.id: r for r in load_records([DATA["arb"]])}
    make_answered_run(tmp_path, "arb-bug", rows,
                      [f"[ANSWER] {records[row['id']].answer}" for row in rows],
                      benchmark="arb", dataset=str(DATA["arb"]), limit=3)
    code, output = _run("eval", "grade", str(tmp_path), "--workers", "1", "--no-progress")
    assert code == 0, output
    verdicts = read_jsonl(tmp_path / "verdicts.jsonl")
    assert [v["status"] for v in verdicts] == ["internal-error"] * 3, verdicts
    assert all(v["arb_outcome"] == "internal-error" and "a grader bug" in v["reason"]
               for v in verdicts)
