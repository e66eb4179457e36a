"""eval run -> grade -> report with the tiny Gemma 2 model on CPU, through the real CLI.

The resume test kills the run process with a real SIGKILL mid-run, then reruns it and checks
that nothing written before the kill was lost or altered and that no item was answered twice.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from llm_fixtures import demo_rows, eval_run_argv, write_eval_config, write_rows

from planetarium.cli import main
from planetarium.llm.store import read_jsonl

REPO = Path(__file__).resolve().parents[1]
CPU = {"backend": "transformers", "device": "cpu"}


def _env() -> dict[str, str]:
    """Offline, and one CPU thread (see ``llm_fixtures.one_thread``)."""
    return {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false",
            "OMP_NUM_THREADS": "1"}


def test_run_grade_report(tmp_path, tiny_model, one_thread):  # noqa: F811
    config = write_eval_config(tmp_path, 6, model=str(tiny_model), max_new_tokens=6,
                               batch_size=4, **CPU)
    run_dir = tmp_path / "run"
    runner = CliRunner()
    done = runner.invoke(main, eval_run_argv(config, run_dir))
    assert done.exit_code == 0, done.output
    assert "6 items, 0 already done, 6 generated" in done.output
    records = read_jsonl(run_dir / "completions.jsonl")
    assert len(records) == 6 and all(r["completion_tokens"] <= 6 for r in records)
    assert {r["finish_reason"] for r in records} <= {"stop", "length"}

    graded = runner.invoke(main, ["eval", "grade", str(run_dir), "--workers", "1", "--no-progress"])
    assert graded.exit_code == 0, graded.output
    assert "planetarium: n=6: parseable" in graded.output
    reported = runner.invoke(main, ["eval", "report", str(run_dir)])
    assert reported.exit_code == 0, reported.output
    assert "| tiny-test | 6 |" in reported.output
    written = {p.name for p in (run_dir / "report").iterdir()}
    assert written == {"report.md", "tables", "overall.png", "domains.png", "abstractness.png",
                       "size.png", "funnel.png", "categories.png"}
    # six tokens of a random-weight model never make a problem: every answer is not parseable
    report = (run_dir / "report" / "report.md").read_text()
    assert "| tiny-test | 6 | 0.0% [0.0, 39.0] (0/6) | 100.0% [61.0, 100.0] (6/6) |" in report


def _wait_for_lines(path: Path, count: int, process: subprocess.Popen, limit_s: float) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline and process.poll() is None:
        if path.exists() and path.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.02)
    raise AssertionError(f"no {count} completions within {limit_s}s (exit {process.poll()})")


def test_sigkill_mid_run_then_resume(tmp_path, one_thread):  # noqa: F811
    n_rows = 12
    config = write_eval_config(tmp_path, n_rows, model="tiny:", max_new_tokens=8, batch_size=1,
                               **CPU)
    run_dir = tmp_path / "run"
    log = run_dir / "completions.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "planetarium.cli", *eval_run_argv(config, run_dir)],
        cwd=REPO, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_lines(log, 2, process, limit_s=240)
        process.send_signal(signal.SIGKILL)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == -signal.SIGKILL
    before = log.read_bytes()
    finished = before[: before.rfind(b"\n") + 1]
    n_finished = finished.count(b"\n")
    assert 2 <= n_finished < n_rows, "the run must be killed mid-way"
    with open(log, "ab") as handle:  # what a write cut short by the kill would leave behind
        handle.write(b'{"id": "gripper-0')

    resumed = CliRunner().invoke(main, eval_run_argv(config, run_dir))  # in process: faster
    assert resumed.exit_code == 0, resumed.output
    assert f"{n_finished} already done" in resumed.output
    assert log.read_bytes().startswith(finished)  # nothing written before the kill changed
    ids = [record["id"] for record in read_jsonl(log)]
    assert len(ids) == len(set(ids)) == n_rows
    assert sorted(ids) == sorted(row["id"] for row in demo_rows(n_rows))
    assert (run_dir / "tiny-model" / "model.safetensors").exists()


@pytest.mark.skipif(not (REPO / "data" / "demo.yaml").exists(), reason="data/demo.yaml not shipped")
def test_shipped_tiny_config_runs(tmp_path, monkeypatch, one_thread):  # noqa: F811
    monkeypatch.chdir(REPO)  # the config's dataset path is relative to the checkout
    run_dir = tmp_path / "run"
    argv = eval_run_argv(Path("eval/tiny.yaml"), run_dir, "--limit", "2", "--max-new-tokens", "4")
    done = CliRunner().invoke(main, argv)
    assert done.exit_code == 0, done.output
    assert len(read_jsonl(run_dir / "completions.jsonl")) == 2


def test_report_over_two_tiny_models_and_a_refused_third(tmp_path, tiny_model, one_thread):  # noqa: F811
    """Two real runs of one config, told apart only by --model, share their items and are
    compared; a run over another dataset is refused with the datasets named."""
    config = write_eval_config(tmp_path, 4, model=str(tiny_model), max_new_tokens=4, **CPU)
    other_rows = write_rows(tmp_path / "other.jsonl", demo_rows(5))
    runner = CliRunner()
    runs = {
        "a": [],
        "b": ["--model", "tiny:1"],
        "other": ["--set", f"benchmark.dataset={other_rows}"],
    }
    for name, extra in runs.items():
        done = runner.invoke(main, eval_run_argv(config, tmp_path / name, *extra))
        assert done.exit_code == 0, done.output
        graded = runner.invoke(main, ["eval", "grade", str(tmp_path / name), "--workers", "1",
                                      "--no-progress"])
        assert graded.exit_code == 0, graded.output

    reported = runner.invoke(main, ["eval", "report", str(tmp_path / "a"), str(tmp_path / "b"),
                                    "--out", str(tmp_path / "report")])
    assert reported.exit_code == 0, reported.output
    assert f"| tiny-test [model {tiny_model}] | 4 | 0.0% [0.0, 49.0] (0/4) |" in reported.output
    assert "| tiny-test [model tiny:1] | 4 |" in reported.output
    assert "| tiny-test [model tiny:1] | correct | 4 |" in reported.output  # paired, 4 shared
    assert "random-weight test model" in reported.output  # why tiny:1 scores nothing

    refused = runner.invoke(main, ["eval", "report", str(tmp_path / "a"), str(tmp_path / "other")])
    assert refused.exit_code == 1
    assert "these runs were not graded on the same items" in refused.output
    assert f"dataset {other_rows}" in refused.output
