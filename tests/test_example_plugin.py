"""The newcomer's path: examples/plugin, an outside package with a benchmark, a domain and a
reward scheme, installed the way pip would (its pyproject's entry points in a dist-info folder:
no pip, no network) and run through the CLI and the API as its README says."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import tomllib

from planetarium.config import build
from planetarium.testing.extensions import check_benchmark

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "examples" / "plugin"
sys.path.insert(0, str(PACKAGE))  # the benchmark's own tests below import it in process
from planetarium_example.arith import BENCHMARK  # noqa: E402


def _installed(tmp_path: Path) -> dict[str, str]:
    """An environment in which the example package is installed: its entry points, read from
    its pyproject.toml, in a dist-info folder on the path."""
    project = tomllib.loads((PACKAGE / "pyproject.toml").read_text())["project"]
    dist = tmp_path / "planetarium_example-0.1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\n"
                                   f"Version: {project['version']}\n")
    (dist / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{name} = {target}\n" for name, target in points.items())
        for group, points in project["entry-points"].items()))
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tmp_path), str(PACKAGE), str(REPO), os.environ.get("PYTHONPATH", "")])}


def _run(env: dict[str, str], *argv: str) -> str:
    done = subprocess.run([sys.executable, *argv], env=env, capture_output=True, text=True,
                          timeout=300, cwd=REPO)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    return done.stdout


def test_installed_example_registers_its_three_plugins(tmp_path):
    listing = _run(_installed(tmp_path), "-m", "planetarium.cli", "plugins").splitlines()
    ours = sorted(" ".join(line.split()) for line in listing if "planetarium-example" in line)
    assert ours == [
        "benchmark toy-arith entry point planetarium_example.arith:BENCHMARK of planetarium-example",
        "domain switches entry point planetarium_example.switches:DOMAIN of planetarium-example",
        "reward scheme signed entry point planetarium_example.schemes:SIGNED of planetarium-example",
    ], listing


def test_installed_example_domain_grades_through_the_cli(tmp_path):
    shown = json.loads(_run(_installed(tmp_path), "-m", "planetarium.cli", "grade",
                            "examples/switches-truth.pddl", "examples/switches-answer.pddl",
                            "--json"))
    assert shown["domain"] == "switches" and shown["correct"] is True, shown


def test_installed_example_scheme_rewards_a_verdict(tmp_path):
    script = textwrap.dedent("""
        from pathlib import Path
        from planetarium.grading import grade
        from planetarium.reward.schemes import scheme_of
        truth = Path("examples/switches-truth.pddl").read_text()
        signed = scheme_of("signed")
        print(signed.reward(grade(truth, truth), {}), signed.reward(grade(truth, "x"), {}))
    """)
    assert _run(_installed(tmp_path), "-c", script).split() == ["1.0", "-1.0"]


def test_example_benchmark_conforms_and_selects_as_its_contract_says():
    config = build(BENCHMARK.config_type, {"name": "toy-arith",
                                           "dataset": str(PACKAGE / "sums.jsonl")})
    assert check_benchmark(BENCHMARK, config, max_items=3, timeout_s=2.0) == []
    assert [row["id"] for row in BENCHMARK.items(config)] == ["q1", "q2", "q3"]  # split test
    every = build(BENCHMARK.config_type, {"name": "toy-arith", "split": [None], "limit": 4,
                                          "dataset": str(PACKAGE / "sums.jsonl")})
    assert [row["id"] for row in BENCHMARK.items(every)] == ["q1", "q2", "q3", "q4"]
