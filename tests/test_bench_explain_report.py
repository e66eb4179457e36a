"""``python bench/bench_explain_report.py --out DIR`` runs as the README documents (issue 31.4).

It builds a run of synthetic answers from dataset rows, grades it with explanations and writes
the report with the error-category table and figure.  Checked on a small run: the renamed
ground truths (right answers by construction) are graded correct, every wrong answer gets a
category, and a refused setting leaves no folder behind.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "bench_explain_report.py"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def test_the_bench_builds_grades_and_reports_a_small_run(tmp_path):
    out = tmp_path / "explain-run"
    done = _run("--out", str(out), "--rows", "16", "--workers", "1")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "## Error categories" in done.stdout
    report = out / "report"
    assert (report / "categories.png").stat().st_size > 0
    assert "categories.png" in (report / "report.md").read_text()
    made = {str(m["id"]): m["mutation"]
            for m in map(json.loads, (out / "answers.jsonl").read_text().splitlines())}
    verdicts = {str(v["id"]): v
                for v in map(json.loads, (out / "run" / "verdicts.jsonl").read_text().splitlines())}
    assert len(made) == len(verdicts) == 16
    for item, mutation in made.items():
        strict = verdicts[item]["strict"]
        if mutation == "renamed":  # the ground truth under other names: right by construction
            assert strict["correct"] is True, item
        elif strict["correct"] is False:
            assert strict["explanation"]["categories"], item
    assert "renamed" in made.values() and set(made.values()) - {"renamed"}


def test_a_refused_dataset_config_leaves_no_folder(tmp_path):
    out = tmp_path / "explain-run"
    done = _run("--out", str(out), "--config", str(tmp_path / "missing.yaml"), "--rows", "4")
    assert done.returncode != 0
    assert not out.exists()
