"""GRPO configs: strict keys, the shipped GPU recipes load and map onto TRL's GRPOConfig."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from planetarium.config import ConfigError
from planetarium.rl.cli import rl_command
from planetarium.rl.config import load_config

ROOT = Path(__file__).resolve().parents[1]
GPU_CONFIGS = sorted((ROOT / "rl").glob("gemma-2-*.yaml"))
MINIMAL = "model: m\nout_dir: o\ndata: {source: s}\n"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cfg.yaml"
    path.write_text(text)
    return path


def test_two_gpu_recipes_are_shipped():
    assert [p.stem for p in GPU_CONFIGS] == ["gemma-2-2b", "gemma-2-9b"]


@pytest.mark.parametrize("path", GPU_CONFIGS, ids=lambda p: p.stem)
def test_gpu_configs_generate_with_vllm_on_a_bf16_base(path):
    cfg = load_config(path)
    assert cfg.model == f"google/{path.stem}-it" and cfg.attn_implementation == "eager"
    assert (cfg.data.source, cfg.data.split) == ("data/planetarium", "heldout:train")
    g = cfg.generation
    assert g.use_vllm and g.vllm_mode == "colocate" and g.num_generations == 8
    assert not cfg.quantization.load_in_4bit and cfg.quantization.compute_dtype == "bfloat16"
    assert (cfg.reward.scheme, cfg.reward.timeout_s) == ("correct", 5.0)
    assert cfg.reward.call_budget_s is not None  # no step may wait on the grader unbounded
    t = cfg.training
    assert (t.batch_size * t.gradient_accumulation_steps) % g.num_generations == 0


@pytest.mark.parametrize("path", GPU_CONFIGS, ids=lambda p: p.stem)
def test_gpu_configs_map_onto_trls_grpo_config(path, tmp_path):
    pytest.importorskip("trl")
    from planetarium.rl.train import grpo_arguments

    cfg = load_config(path)
    args = grpo_arguments(cfg, tmp_path)
    g, t = cfg.generation, cfg.training
    assert (args.use_vllm, args.vllm_mode) == (True, "colocate")
    assert args.vllm_gpu_memory_utilization == g.vllm_gpu_memory_utilization
    assert (args.num_generations, args.max_completion_length) == (8, g.max_completion_length)
    assert (args.per_device_train_batch_size, args.gradient_accumulation_steps) == (
        t.batch_size,
        t.gradient_accumulation_steps,
    )
    assert args.learning_rate == t.learning_rate and args.beta == 0.0
    assert args.remove_unused_columns is False  # the reward reads the dataset's columns
    assert args.output_dir == str(tmp_path / "checkpoints")


def test_tiny_config_runs_four_real_steps_on_a_cpu():
    cfg = load_config(ROOT / "rl" / "tiny.yaml")
    assert cfg.model == "tiny:" and cfg.data.split == "heldout:train"
    assert cfg.training.max_steps >= 4 and not cfg.generation.use_vllm
    assert cfg.cpu_threads == 1 and cfg.reward.workers == 1


def test_quantization_stays_off_unless_asked_for(tmp_path):
    """A partial quantization section must not switch fine-tuning's 4-bit default back on."""
    cfg = load_config(write(tmp_path, MINIMAL + "quantization: {compute_dtype: float16}\n"))
    assert cfg.quantization.load_in_4bit is False
    assert load_config(write(tmp_path, MINIMAL)).quantization.load_in_4bit is False


def test_vllm_with_a_4bit_base_is_refused(tmp_path):
    path = write(tmp_path, MINIMAL + "quantization: {load_in_4bit: true}\n"
                 "generation: {use_vllm: true}\n")
    with pytest.raises(ConfigError, match=r"generation.use_vllm: vLLM generation needs a full"):
        load_config(path)


@pytest.mark.parametrize(
    "extra, message",
    [
        ("reward: {scheme: partial}\n", r"reward.scheme: expected one of correct, staged"),
        ("reward: {timeout_s: 0}\n", r"reward.timeout_s: expected a value >= "),
        ("reward: {workers: -1}\n", r"reward.workers: expected a value >= 0"),
        ("generation: {num_generations: 1}\n", r"generation.num_generations: expected a value >= 2"),
        ("generation: {vllm_mode: remote}\n", r"expected one of colocate, server"),
        ("training: {num_generations: 4}\n", r"training.num_generations: unknown key"),
        ("training: {loss_type: ppo}\n", r"training.loss_type: expected one of"),
    ],
)
def test_bad_configs_fail_loudly(tmp_path, extra, message):
    with pytest.raises(ConfigError, match=message):
        load_config(write(tmp_path, MINIMAL + extra))


def test_trls_own_checks_become_a_clean_cli_error(tmp_path):
    """4 completions per step cannot hold whole groups of 8: TRL refuses, the CLI says why."""
    pytest.importorskip("trl")
    from planetarium.errors import PlanetariumError
    from planetarium.rl.train import grpo_arguments

    cfg = load_config(write(tmp_path, MINIMAL + "training: {batch_size: 4}\n"))
    with pytest.raises(PlanetariumError, match=r"must be divisible by num_generations \(8\)"):
        grpo_arguments(cfg, tmp_path)


def test_cli_reports_config_errors_cleanly(tmp_path):
    path = write(tmp_path, MINIMAL + "reward: {sheme: correct}\n")
    result = CliRunner().invoke(rl_command, ["--config", str(path)])
    assert result.exit_code != 0
    assert "reward.sheme: unknown key; did you mean 'scheme'" in result.output
    assert "Traceback" not in result.output


def test_rl_is_a_planetarium_command():
    from planetarium.cli import main

    result = CliRunner().invoke(main, ["rl", "--help"])
    assert result.exit_code == 0 and "GRPO" in result.output


def test_an_unreadable_record_is_a_clean_error_on_resume(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / "rl_record.json").write_text("{not json")
    result = CliRunner().invoke(
        rl_command, ["--config", str(ROOT / "rl" / "tiny.yaml"), "--out", str(out), "--resume"]
    )
    assert result.exit_code != 0 and "unreadable run record" in result.output
    assert "Traceback" not in result.output


def test_a_bad_split_or_data_source_is_a_clean_error(tmp_path):
    tiny = ["--config", str(ROOT / "rl" / "tiny.yaml"), "--out", str(tmp_path / "run")]
    bad_split = CliRunner().invoke(rl_command, [*tiny, "--set", "data.split=bogus"])
    assert bad_split.exit_code == 1 and "data.split: expected a known split" in bad_split.output
    source = tmp_path / "rows.json"
    source.write_text("{not json\n")
    bad_source = CliRunner().invoke(rl_command, [*tiny, "--set", f"data.source={source}"])
    assert bad_source.exit_code == 1 and "line 1: not a dataset row" in bad_source.output
    assert "Traceback" not in bad_source.output


def test_a_bad_reward_weight_is_refused_before_any_model_loads(tmp_path):
    """The reward checks its own options; ``model`` names nothing loadable, so reaching the
    weights' message shows nothing was loaded first."""
    path = write(tmp_path, "model: /no/such/model\nout_dir: o\ndata: {source: s}\n"
                 "reward: {scheme: staged, weights: {parsable: 0.5}}\n")
    result = CliRunner().invoke(rl_command, ["--config", str(path), "--out", str(tmp_path / "r")])
    assert result.exit_code == 1 and "parsable" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("path", sorted((ROOT / "rl").glob("*.yaml")), ids=lambda p: p.stem)
def test_grpo_trains_on_rows_fine_tuning_trains_on(path):
    """Each GRPO config reads a data source and split that a shipped fine-tuning config reads,
    so test_finetune_config's check (no shipped eval item among them) covers GRPO too."""
    from planetarium.finetune.config import DataConfig
    from planetarium.finetune.config import load_config as load_finetune_config

    trained = {load_finetune_config(p).data for p in (ROOT / "finetune").glob("*.yaml")}
    data = load_config(path).data
    if data.benchmark != "planetarium":  # another benchmark's example: its test fixtures only
        assert data.source.startswith("tests/fixtures/")
        return
    assert DataConfig(data.source, data.split) in trained
