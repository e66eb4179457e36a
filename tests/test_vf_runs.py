"""``python -m planetarium.integrations.vf_runs``: a vf-eval run whose rollouts failed (vf-eval
still exits 0) ends in one line and exit status 1, naming the fix for the failures met in
practice; a run whose rollouts ran says so.  The traces have the shape verifiers 0.4 writes
(the form a real run without uv on PATH wrote, before the taskset checked for uv)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

UV = ("harness setup: RuntimeError: failed to prepare uv script: curl: (6) Could not resolve "
      "host: astral.sh")


def _run(folder: Path, episodes: list[dict]) -> subprocess.CompletedProcess:
    run = folder / "planetarium-verifiers--scripted--null--0"
    run.mkdir(parents=True)
    (run / "traces.jsonl").write_text("".join(json.dumps(e) + "\n" for e in episodes))
    return subprocess.run([sys.executable, "-m", "planetarium.integrations.vf_runs", str(folder)],
                          capture_output=True, text=True, timeout=120)


def _episode(ok: bool, reward: float, errors: list[str] = ()) -> dict:
    failures = [{"type": "HarnessError", "message": m, "traceback": "..."} for m in errors]
    return {"ok": ok, "errors": [], "traces": [
        {"rewards": {"planetarium": {"score": reward, "weight": 1.0}}, "errors": failures}]}


def test_failed_rollouts_are_one_line_with_the_fix_and_exit_1(tmp_path: Path):
    done = _run(tmp_path, [_episode(False, 0.0, [UV]), _episode(False, 0.0, [UV])])
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip() == (f"Error: 2 of 2 rollouts failed: {UV}: put uv on PATH (pip "
                                   "install uv): the null harness runs its chat program with it, "
                                   "and its first run fetches the program's packages (later runs "
                                   "use uv's cache)")


def test_rollouts_that_ran_are_counted_with_their_mean_reward(tmp_path: Path):
    done = _run(tmp_path, [_episode(True, 1.0), _episode(True, 0.0)])
    assert done.returncode == 0
    assert done.stdout.strip() == "2 rollouts, all ran, mean reward 0.500"


def test_no_traces_is_a_failure(tmp_path: Path):
    done = _run(tmp_path, [])
    assert done.returncode == 1 and "no traces.jsonl with rollouts" in done.stderr
