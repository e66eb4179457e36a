"""GRPO on ACPBench Hard on CPU: the shipped ``rl/acpbench-hard-tiny.yaml`` (the toy model built
locally, ACPBench Hard's generative test-split fixtures, the published 2-shot prompt) trains
with ACPBench's exact grader as the reward, through the same reward as Planetarium's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("trl")
pytest.importorskip("peft")

from click.testing import CliRunner

from planetarium.benchmarks import get_benchmark
from planetarium.config import build
from planetarium.rl.cli import rl_command
from planetarium.rl.config import load_config

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "rl" / "acpbench-hard-tiny.yaml"


def test_grpo_on_acpbench_hard_with_the_exact_grader_as_reward(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the config names the fixtures relative to the checkout
    cfg = load_config(CONFIG)
    done = CliRunner().invoke(rl_command, ["--config", str(CONFIG), "--out", str(tmp_path)])
    assert done.exit_code == 0, done.output + repr(done.exception)
    record = json.loads((tmp_path / "rl_record.json").read_text())
    steps = cfg.training.max_steps
    group = cfg.generation.num_generations
    assert record["train"]["steps"] == steps
    assert record["data"]["benchmark"] == "acpbench" and record["data"]["rows"] == 7
    acp = get_benchmark("acpbench")
    settings = {**cfg.data.settings, "name": "acpbench", "dataset": cfg.data.source,
                "split": [cfg.data.split]}
    assert record["prompt_template_hash"] == acp.prompt_fingerprint(
        build(acp.config_type, settings))
    reward = record["reward"]
    assert reward["name"] == "acpbench_staged"
    assert reward["metrics"]["items"] == steps * group == sum(c["items"] for c in reward["calls"])
    assert reward["metrics"]["internal_errors"] == reward["metrics"]["invalid_inputs"] == 0
    statuses = {s for call in reward["calls"] for s in call["statuses"]}
    assert statuses <= {"decided", "timeout", "unsupported"}
    assert (tmp_path / "adapter" / "adapter_config.json").is_file()
