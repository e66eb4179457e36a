"""Issue 21, as a hostile user and a new user try it: no batch row lost or duplicated, hostile
values as verdicts or one-line errors, the rules said out loud, and the new-user edges."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from planetarium.cli import main

GT = """(define (problem p) (:domain blocksworld) (:objects b1 b2)
  (:init (arm-empty) (on-table b1) (on b2 b1) (clear b2))
  (:goal (and (on-table b2) (on b1 b2))))"""
ROOT = Path(__file__).resolve().parents[1]
HUGE = "1" * 5000  # longer than Python's int-string limit (4,300 digits)


def run(*args, **kwargs):
    return CliRunner().invoke(main, [str(a) for a in args], **kwargs)


def cli(*args, **kwargs) -> subprocess.CompletedProcess:
    """The real command in a subprocess (for file descriptors, signals and pipes)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kwargs}
    return subprocess.run([sys.executable, "-m", "planetarium.cli", *map(str, args)], env=env,
                          text=True, timeout=120, **streams)


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _one_line_error(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    return len(lines) == 1 and lines[0].startswith("Error: ") and "Traceback" not in text


def _batch(path: Path, ids: list) -> None:
    """Pairs with the given ids (``...``: a line that is not JSON)."""
    path.write_text("".join("nonsense\n" if i is ... else json.dumps(
        {"gt": GT, "pred": GT} if i is None else {"id": i, "gt": GT, "pred": GT}) + "\n"
        for i in ids))


# --- 1. no batch row lost or duplicated ------------------------------------------------------

def test_results_never_overwrite_the_batch_being_read(tmp_path):
    batch = tmp_path / "b.jsonl"
    _batch(batch, [1, 2])
    before = batch.read_text()
    (tmp_path / "link.jsonl").symlink_to(batch)
    for out in (batch, tmp_path / "link.jsonl"):
        result = run("grade", "--batch", batch, "--out", out)
        assert result.exit_code == 1 and "would overwrite the batch" in result.output
    with batch.open("a") as appended:  # `grade --batch b.jsonl >> b.jsonl`
        redirected = cli("grade", "--batch", batch, stdout=appended)
    assert redirected.returncode == 1 and _one_line_error(redirected.stderr)
    assert batch.read_text() == before


def test_resume_is_exact_by_position_with_repeated_missing_and_bad_ids(tmp_path):
    """Rows are in input order, so the k-th row answers the k-th line whatever its id."""
    batch, full, part = tmp_path / "b.jsonl", tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    _batch(batch, [1, 1, None, ..., 2, 1, None, ..., 3])
    assert run("grade", "--batch", batch, "--out", full, "--workers", 1).exit_code == 1
    complete = full.read_text()
    assert len(complete.splitlines()) == 9
    for keep in range(10):
        lines = complete.splitlines(keepends=True)
        torn = lines[keep][:7] if keep < 9 else ""  # a batch killed mid-write
        part.write_text("".join(lines[:keep]) + torn)
        result = run("grade", "--batch", batch, "--out", part, "--resume", "--workers", 1)
        assert result.exit_code in (0, 1) and "Traceback" not in result.output
        assert part.read_text() == complete, f"resuming after {keep} row(s)"
    _batch(batch, [1, 2, 3, 4, 5, 6, 7, 8, 9])  # another input: the rows are not its output
    part.write_text("".join(complete.splitlines(keepends=True)[:3]))
    refused = run("grade", "--batch", batch, "--out", part, "--resume")
    assert refused.exit_code == 1 and "cannot resume" in refused.output


def test_a_second_batch_writing_the_same_output_is_refused(tmp_path):
    batch, out = tmp_path / "b.jsonl", tmp_path / "out.jsonl"
    _batch(batch, [1])
    out.write_text("rows of the batch that holds the lock\n")
    with out.open("a") as holder:
        fcntl.flock(holder, fcntl.LOCK_EX)
        for extra in ([], ["--resume"]):
            result = run("grade", "--batch", batch, "--out", out, *extra)
            assert result.exit_code == 1 and "another batch is writing it" in result.output
    assert out.read_text() == "rows of the batch that holds the lock\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_write_failures_are_one_line_errors_naming_the_output(tmp_path):
    batch = tmp_path / "b.jsonl"
    _batch(batch, list(range(40)))
    full = cli("grade", "--batch", batch, "--out", "/dev/full", "--no-progress")
    assert full.returncode == 1 and _one_line_error(full.stderr), full.stderr
    assert "cannot write /dev/full: No space left on device" in full.stderr
    with open("/dev/full", "w") as disk_full:
        stdout_full = cli("grade", "--batch", batch, stdout=disk_full)
    assert stdout_full.returncode == 1 and _one_line_error(stdout_full.stderr)
    assert "cannot write standard output" in stdout_full.stderr
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    reader = subprocess.Popen([sys.executable, "-m", "planetarium.cli", "grade", "--batch",
                               str(batch)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    assert reader.stdout.readline().startswith("{")
    reader.stdout.close()  # `| head -1`: a broken pipe
    stderr = reader.stderr.read()
    assert reader.wait(timeout=60) == 1
    assert _one_line_error(stderr) and "cannot write standard output: Broken pipe" in stderr
