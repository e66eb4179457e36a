"""GRPO end to end on CPU: TRL's GRPOTrainer, the tiny random-weight model, our reward.

One short CLI run of ``rl/tiny.yaml`` (module fixture, 4 optimisation steps over generated
training rows) is shared by the checks on its record, its logged rewards, its adapter under
``eval run``, and resuming.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("trl")
peft = pytest.importorskip("peft")

from click.testing import CliRunner
from llm_fixtures import demo_rows, eval_run_argv, write_eval_config, write_rows

from planetarium.cli import main
from planetarium.finetune.data import rows_hash
from planetarium.llm.prompts import prompt_template_hash
from planetarium.llm.store import read_jsonl
from planetarium.rl.cli import rl_command

ROOT = Path(__file__).resolve().parents[1]
TINY_YAML = ROOT / "rl" / "tiny.yaml"
N_ROWS = 12
STEPS = 4  # rl/tiny.yaml's max_steps: each step is one prompt's group of 4 completions
NAME = "planetarium_correct"


def invoke(*args: str):
    """``planetarium rl`` on the tiny config as shipped."""
    return CliRunner().invoke(rl_command, ["--config", str(TINY_YAML), *args])


def common(out: Path, model: Path, data: Path, *extra: str) -> tuple[str, ...]:
    return ("--out", str(out), "--set", f"model={model}", "--set", f"data.source={data}", *extra)


@pytest.fixture(scope="module")
def trained(tmp_path_factory, tiny_model):  # noqa: F811 (fixture)
    """The shipped tiny config's 4 steps over 12 generated training rows."""
    tmp = tmp_path_factory.mktemp("rl")
    rows = [dict(row, split_random="train", split_heldout="train") for row in demo_rows(N_ROWS)]
    data = write_rows(tmp / "train.jsonl", rows)
    out = tmp / "run"
    threads = torch.get_num_threads()
    result = invoke(*common(out, tiny_model, data))
    torch.set_num_threads(threads)  # the run capped them (cpu_threads); leave the session as found
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    record = json.loads((out / "rl_record.json").read_text())
    return {"out": out, "rows": rows, "data": data, "summary": summary, "record": record}


def test_four_real_grpo_steps_on_the_tiny_model(trained, tiny_model):  # noqa: F811
    record, summary = trained["record"], trained["summary"]
    assert summary["trained"] and summary["steps"] == STEPS
    train = record["train"]
    assert (train["steps"], train["max_steps"], train["steps_this_run"]) == (STEPS, STEPS, STEPS)
    assert train["resumed_from"] is None and train["cpu_threads"] == 1
    assert train["seconds_per_step"] > 0
    steps = [entry for entry in train["log_history"] if "loss" in entry]
    assert [entry["step"] for entry in steps] == [1, 2, 3, 4]
    assert all(math.isfinite(entry["loss"]) for entry in steps)
    # every step sampled a whole group of 4 completions for one prompt
    assert all(entry["num_tokens"] > 0 and entry["completions/mean_length"] > 0 for entry in steps)
    assert sorted(p.name for p in (trained["out"] / "checkpoints").iterdir()
                  if p.name.startswith("checkpoint-")) == ["checkpoint-2", "checkpoint-4"]


def test_logged_reward_statistics_come_from_our_reward(trained):
    """The trainer's per-step ``reward`` and ``rewards/planetarium_correct/mean`` are the means
    of what PlanetariumReward itself returned on that step's call (its ``last_details``)."""
    record = trained["record"]
    calls = record["reward"]["calls"]
    assert [c["step"] for c in calls] == [1, 2, 3, 4] and [c["call"] for c in calls] == [1, 2, 3, 4]
    assert all(c["items"] == 4 and sum(c["statuses"].values()) == 4 for c in calls)
    logged = {e["step"]: e for e in record["train"]["log_history"] if f"rewards/{NAME}/mean" in e}
    assert sorted(logged) == [1, 2, 3, 4]
    for call in calls:
        entry = logged[call["step"]]
        assert entry[f"rewards/{NAME}/mean"] == pytest.approx(call["mean"])
        assert entry["reward"] == pytest.approx(call["mean"])  # our reward is the only one
    metrics = record["reward"]["metrics"]
    assert record["reward"]["name"] == NAME
    assert (metrics["calls"], metrics["items"]) == (STEPS, 4 * STEPS)
    # a group shares its ground truth: read once, then served from the cache 3 times
    assert metrics["cache_hits"] == 3 * STEPS and metrics["cache_hit_rate"] == pytest.approx(0.75)
    assert metrics["timeouts"] == metrics["internal_errors"] == 0


def test_record_names_config_data_prompt_and_versions(trained, tiny_model):  # noqa: F811
    record = trained["record"]
    assert record["config"]["training"]["max_steps"] == STEPS
    assert record["config"]["reward"] == {
        "scheme": "correct", "timeout_s": 5.0, "workers": 1, "call_budget_s": None,
        "undecided_reward": 0.0, "think_marker": "</think>", "weights": None}
    assert record["base_model"] == str(tiny_model)
    assert record["data"]["rows"] == N_ROWS and record["data"]["split"] == "heldout:train"
    assert record["data"]["data_hash"] == rows_hash(trained["rows"])
    assert record["prompt_template_hash"] == prompt_template_hash()
    assert record["versions"]["trl"] and record["versions"]["peft"]
    assert record["quantization"]["mode"] == "none"


def test_the_adapter_is_a_lora_adapter_on_the_tiny_model(trained, tiny_model):  # noqa: F811
    adapter = trained["out"] / "adapter"
    config = json.loads((adapter / "adapter_config.json").read_text())
    assert (config["r"], config["lora_alpha"], config["peft_type"]) == (16, 32, "LORA")
    assert config["base_model_name_or_path"] == str(tiny_model)
    assert (adapter / "adapter_model.safetensors").is_file() and (adapter / "tokenizer.json").is_file()


def test_eval_run_loads_the_adapter_like_a_qlora_one(trained, tiny_model, tmp_path, one_thread):  # noqa: F811
    adapter = trained["out"] / "adapter"
    config = write_eval_config(tmp_path, 2, model=str(tiny_model), adapter=str(adapter),
                               backend="transformers", device="cpu", max_new_tokens=4)
    run_dir = tmp_path / "eval"
    done = CliRunner().invoke(main, eval_run_argv(config, run_dir))
    assert done.exit_code == 0, done.output
    assert "2 items, 0 already done, 2 generated" in done.output
    records = read_jsonl(run_dir / "completions.jsonl")
    assert len(records) == 2 and all(r["adapter"] == str(adapter) for r in records)


def test_a_used_run_folder_is_refused_before_any_model_loads(trained, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(trained["out"], out)
    refused = invoke(*common(out, tmp_path / "no-such-model", trained["data"]))
    assert refused.exit_code != 0 and "already holds a run" in refused.output
    assert "pass --resume" in refused.output


def test_resuming_a_finished_run_does_nothing_and_says_so(trained, tiny_model, tmp_path):  # noqa: F811
    out = tmp_path / "run"
    shutil.copytree(trained["out"], out)
    before = (out / "rl_record.json").read_text()
    done = invoke(*common(out, tiny_model, trained["data"], "--resume"))
    assert done.exit_code == 0, done.output
    assert f"the run finished at step {STEPS}; nothing to resume" in done.output
    assert json.loads(done.output.strip().splitlines()[-1])["trained"] is False
    assert (out / "rl_record.json").read_text() == before


def test_an_interrupted_run_resumes_from_its_last_checkpoint(trained, tiny_model, tmp_path):  # noqa: F811
    """A run stopped after step 2 (checkpoint-2, no record) continues to step 4."""
    out = tmp_path / "run"
    shutil.copytree(trained["out"], out)
    for done in ("rl_record.json", "adapter", "checkpoints/checkpoint-4"):
        path = out / done
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    threads = torch.get_num_threads()
    resumed = invoke(*common(out, tiny_model, trained["data"], "--resume"))
    torch.set_num_threads(threads)
    assert resumed.exit_code == 0, resumed.output
    record = json.loads((out / "rl_record.json").read_text())
    train = record["train"]
    assert train["resumed_from"].endswith("checkpoint-2")
    assert (train["steps"], train["steps_this_run"]) == (STEPS, STEPS - 2)
    assert [c["step"] for c in record["reward"]["calls"]] == [3, 4]
    assert (out / "adapter" / "adapter_model.safetensors").is_file()
