"""Fine-tuning configs: the paper's recipe, strict keys, double quantization really on."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from planetarium.config import ConfigError
from planetarium.finetune.cli import finetune_command
from planetarium.finetune.config import load_config

ROOT = Path(__file__).resolve().parents[1]
GEMMA_CONFIGS = sorted((ROOT / "finetune").glob("gemma-2-*.yaml"))


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cfg.yaml"
    path.write_text(text)
    return path


MINIMAL = "model: m\nout_dir: o\ndata: {source: s}\n"


@pytest.mark.parametrize("path", GEMMA_CONFIGS, ids=lambda p: p.stem)
def test_gemma_configs_are_the_appendix_f_recipe(path):
    cfg = load_config(path)
    assert cfg.model == f"google/{path.stem}"
    assert cfg.attn_implementation == "eager"
    q, lora, t = cfg.quantization, cfg.lora, cfg.training
    assert (q.load_in_4bit, q.quant_type, q.double_quant, q.compute_dtype) == (
        True,
        "nf4",
        True,
        "bfloat16",
    )
    assert (lora.r, lora.alpha, lora.dropout, lora.target_modules) == (16, 32, 0.05, "all-linear")
    assert (t.optimizer, t.learning_rate, t.adam_beta1, t.adam_beta2, t.adam_epsilon) == (
        "adamw_torch",
        2e-5,
        0.9,
        0.999,
        1e-8,
    )
    assert (t.weight_decay, t.batch_size, t.max_seq_length, t.epochs) == (0.01, 1, 1500, 1.0)
    assert t.drop_longest_fraction == 0.05 and t.gradient_checkpointing


def test_bitsandbytes_config_has_double_quant_on():
    pytest.importorskip("transformers")
    import torch

    from planetarium.finetune.model import bnb_config

    bnb = bnb_config(load_config(GEMMA_CONFIGS[0]).quantization)
    assert bnb.load_in_4bit and not bnb.load_in_8bit
    assert bnb.bnb_4bit_use_double_quant is True
    assert bnb.bnb_4bit_quant_type == "nf4"
    assert bnb.bnb_4bit_compute_dtype == torch.bfloat16


def test_the_originals_misnamed_key_is_rejected_with_a_hint(tmp_path):
    path = write(tmp_path, MINIMAL + "quantization: {use_double_quant: true}\n")
    with pytest.raises(
        ConfigError,
        match=r"quantization.use_double_quant: unknown key; did you mean 'double_quant'",
    ):
        load_config(path)


@pytest.mark.parametrize(
    "extra, message",
    [
        ("lora: {rank: 8}\n", "lora.rank: unknown key"),
        ("learning_rate: 0.1\n", "learning_rate: unknown key"),
        ("training: {batch_size: '1'}\n", r"training.batch_size: expected an integer"),
        ("training: {batch_size: true}\n", r"training.batch_size: expected an integer"),
        ("training: {gradient_checkpointing: 1}\n", r"expected true or false"),
        ("training: {learning_rate: fast}\n", r"expected a number"),
        ("training: {drop_longest_fraction: 1.5}\n", r"drop_longest_fraction: expected a value between"),
        ("quantization: {quant_type: int4}\n", r"expected one of nf4, fp4, got 'int4'"),
        ("lora: 16\n", r"lora: expected a mapping"),
        ("data: {source: d, split: 7}\n", r"data.split: expected a string"),
    ],
)
def test_bad_configs_fail_loudly(tmp_path, extra, message):
    with pytest.raises(ConfigError, match=message):
        load_config(write(tmp_path, MINIMAL + extra))


def test_missing_required_key(tmp_path):
    with pytest.raises(ConfigError, match="data.source: missing"):
        load_config(write(tmp_path, "model: m\nout_dir: o\ndata: {split: random:train}\n"))


def test_yaml_exponent_without_dot_is_a_float(tmp_path):
    # PyYAML reads 2e-5 as the string "2e-5"; it must still mean the number.
    cfg = load_config(write(tmp_path, MINIMAL + "training: {learning_rate: 2e-5, epochs: 2}\n"))
    assert cfg.training.learning_rate == 2e-5 and cfg.training.epochs == 2.0


def test_tiny_config_builds_a_local_model_from_the_demo_data():
    cfg = load_config(ROOT / "finetune" / "tiny.yaml")
    assert cfg.model.startswith("tiny:") and cfg.quantization.load_in_4bit  # 4-bit on a GPU, skipped on a CPU
    assert (cfg.data.source, cfg.data.split) == ("data/demo.yaml", "heldout:train")


def test_overrides_are_validated_like_yaml(tmp_path):
    path = write(tmp_path, MINIMAL)
    cfg = load_config(path, ["training.max_steps=5", "lora.r=8", "data.split=heldout:train"])
    assert (cfg.training.max_steps, cfg.lora.r, cfg.data.split) == (5, 8, "heldout:train")
    with pytest.raises(ConfigError, match="training.max_step: unknown key"):
        load_config(path, ["training.max_step=5"])
    with pytest.raises(ConfigError, match="must look like key.path=value"):
        load_config(path, ["training.max_steps"])


def test_cli_reports_config_errors_cleanly(tmp_path):
    path = write(tmp_path, MINIMAL + "quantization: {double_quant_typo: true}\n")
    result = CliRunner().invoke(finetune_command, ["--config", str(path)])
    assert result.exit_code != 0
    assert "quantization.double_quant_typo: unknown key" in result.output
    assert "Traceback" not in result.output


def _eval_configs_on(source: str) -> list[Path]:
    """Shipped eval configs that test on the dataset a fine-tuning config trains on."""
    from planetarium.llm.config import load_config as load_eval_config

    return [path for path in sorted((ROOT / "eval").glob("*.yaml"))
            if load_eval_config(path).benchmark.dataset == source]


@pytest.mark.parametrize("path", sorted((ROOT / "finetune").glob("*.yaml")), ids=lambda p: p.stem)
def test_shipped_training_never_sees_a_shipped_test_item(path, monkeypatch):
    """Each finetune config's rows and the rows of every eval config on the same dataset share
    no id and no problem or description (a fine-tuned model is never graded on its training)."""
    from planetarium.benchmarks import get_benchmark
    from planetarium.dataset import load_rows
    from planetarium.llm.config import load_config as load_eval_config

    monkeypatch.chdir(ROOT)  # dataset paths are relative to the checkout
    cfg = load_config(path)
    if not Path(cfg.data.source).exists():
        pytest.skip(f"{cfg.data.source} is not generated in this checkout")
    train = load_rows(cfg.data.source, split=cfg.data.split)
    evals = _eval_configs_on(cfg.data.source)
    assert train and evals
    for eval_path in evals:
        config = load_eval_config(eval_path).benchmark
        test = get_benchmark(config.name).load_items(config)
        for field in ("id", "problem_pddl", "natural_language"):
            overlap = {row[field] for row in train} & {row[field] for row in test}
            assert not overlap, f"{path.name} trains on {len(overlap)} {field}s of {eval_path.name}"
