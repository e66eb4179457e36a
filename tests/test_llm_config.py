"""Evaluation configs: every shipped YAML loads, the two sections are typed per backend and per
benchmark, nonsense combinations are one-line errors, overrides are typed, the hash means
something."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from planetarium.config import ConfigError
from planetarium.llm.config import load_config, make_config

EVAL_DIR = Path(__file__).resolve().parents[1] / "eval"
MODEL = {"backend": "transformers", "model": "tiny:"}
BENCH = {"name": "planetarium", "dataset": "d.jsonl"}


def config(model=None, benchmark=None, **top):
    return make_config({"name": "n", "model": {**MODEL, **(model or {})},
                        "benchmark": {**BENCH, **(benchmark or {})}, **top})


@pytest.mark.parametrize("path", sorted(EVAL_DIR.glob("*.yaml")), ids=lambda p: p.name)
def test_shipped_configs_load(path):
    loaded = load_config(path)
    assert loaded.name == path.stem
    assert loaded.model.temperature in (0.0, None)  # greedy, or a reasoning model that takes none


def test_paper_configs_follow_the_protocol():
    o1 = load_config(EVAL_DIR / "o1-mini.yaml")
    assert o1.model.use_max_completion_tokens and o1.model.temperature is None
    assert o1.benchmark.sample_per_domain == 250
    gemma = load_config(EVAL_DIR / "gemma-2-27b-it-finetuned.yaml")
    assert gemma.model.backend == "vllm" and gemma.model.dtype == "bfloat16" and gemma.model.adapter
    assert load_config(EVAL_DIR / "tiny-acpbench.yaml").benchmark.kinds == ("bool", "mcq")


def test_overrides_win_and_none_means_keep(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("name: n\nmodel: {backend: transformers, model: 'tiny:'}\n"
                    "benchmark: {name: planetarium, dataset: d.jsonl, limit: 4}\n")
    loaded = load_config(path, ["model.max_new_tokens=7",
                                "benchmark.split=[random:test, heldout:test]"],
                         limit=None, batch_size=3, model="tiny:2")
    assert (loaded.model.max_new_tokens, loaded.benchmark.limit, loaded.model.batch_size) == (7, 4, 3)
    assert loaded.benchmark.split == ("random:test", "heldout:test")
    assert loaded.model.model == "tiny:2"
    assert config({"backend": "openai", "base_url": "u", "backoff_s": 2}).model.backoff_s == 2.0


def test_invalid_model_and_benchmark_combinations_are_one_line_errors():
    """Refused while the config is read: nothing is loaded, built or written."""
    cases = [
        ({"backend": "openai", "base_url": "u", "adapter": "a"}, None,
         "model.adapter: backend openai cannot load an adapter (backends that can: "
         "transformers, vllm)"),
        ({"tensor_parallel_size": 2}, None,
         "model.tensor_parallel_size: an option of backend vllm; backend transformers does not"),
        ({"data_parallel_size": 2}, None, "model.data_parallel_size: an option of backend vllm"),
        ({"backend": "vllm", "api_key_env": "KEY"}, None, "model.api_key_env: an option of backend openai"),
        ({"backend": "llama.cpp"}, None, "model.backend: unknown backend 'llama.cpp'"),
        (None, {"name": "acpbench", "sample_per_domain": 5},
         "benchmark.sample_per_domain: unknown key"),
        (None, {"kinds": ["bool"]}, "benchmark.kinds: unknown key"),
        (None, {"name": "acpbench", "kinds": ["essay"]}, "benchmark.kinds: expected names from"),
        (None, {"name": "mmlu"}, "benchmark.name: unknown benchmark 'mmlu'"),
        ({"backend": "openai"}, None, "model.base_url: the openai backend needs base_url"),
    ]
    for model, benchmark, message in cases:
        with pytest.raises(ConfigError, match=re.escape(message)) as caught:
            config(model, benchmark)
        assert "\n" not in str(caught.value)


def test_a_flat_config_of_the_old_layout_shows_the_new_one(tmp_path):
    old = tmp_path / "old.yaml"
    old.write_text("name: n\nbackend: transformers\nmodel: 'tiny:'\ndataset: d.jsonl\n")
    with pytest.raises(ConfigError) as caught:
        load_config(old, ["max_new_tokens=3"], model="tiny:1")
    message = str(caught.value)
    assert message.startswith(f"{old}: the flat layout of old eval configs is gone")
    assert "model: {backend: BACKEND" in message and "benchmark: {name: planetarium" in message
    assert "\n" not in message


def test_unknown_keys_and_unsafe_yaml_are_rejected(tmp_path):
    with pytest.raises(ConfigError, match="model.max_new_token: unknown key; did you mean "
                                          "'max_new_tokens'"):
        config({"max_new_token": 5})
    with pytest.raises(ConfigError, match="splits: unknown key"):
        make_config({"name": "n", "model": MODEL, "benchmark": BENCH, "splits": []})
    unsafe = tmp_path / "unsafe.yaml"
    unsafe.write_text("name: !!python/object/apply:os.system ['true']\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(unsafe)


@pytest.mark.parametrize("override, message", [
    ("benchmark.limit='3'", "benchmark.limit: expected an integer or null, got '3'"),
    ("model.model=42", "model.model: expected a string, got 42"),
    ("model.model=tiny:abc", "model.model: expected tiny: followed by nothing or an integer seed"),
    ("benchmark.sample_per_domain=-1", "benchmark.sample_per_domain: expected a value >= 1"),
    ("model.temperature=hot", "model.temperature: expected a number or null, got 'hot'"),
    ("benchmark.split=[[bad]]", r"benchmark.split\[0\]: expected a string or null"),
    ("benchmark.split=[heldout:tset]", "benchmark.split: expected known splits"),
    ("name=[1, 2]", "name: expected a non-empty run name"),
    ("model.batch_size=true", "model.batch_size: expected an integer, got True"),
    ("benchmark.timeout_s=.nan", "benchmark.timeout_s: expected a value between"),
    ("model=3", "model: expected a mapping"),
    ("limit", "must look like key.path=value"),
])
def test_wrongly_typed_values_name_file_key_and_expectation(override, message):
    with pytest.raises(ConfigError, match=message) as caught:
        load_config(EVAL_DIR / "tiny.yaml", [override])
    assert str(caught.value).count("\n") == 0


def test_hash_ignores_speed_settings_only():
    base = config().config_hash()
    assert config({"batch_size": 99}, {"timeout_s": 3}).config_hash() == base
    assert config({"max_new_tokens": 99}).config_hash() != base
    assert config({"adapter": "a"}).config_hash() != base
    assert config(None, {"limit": 2}).config_hash() != base


def test_eval_run_refuses_a_nonsense_combination_before_loading_anything(tmp_path):
    """The CLI prints the one line and exits 1; no run folder, no model, no dataset read."""
    from click.testing import CliRunner

    from planetarium.cli import main

    for config, extra in (("gpt-4o.yaml", ["--adapter", "finetune/runs/x/adapter"]),
                          ("tiny.yaml", ["--set", "model.tensor_parallel_size=2"])):
        out = tmp_path / config
        result = CliRunner().invoke(main, ["eval", "run", "--config", str(EVAL_DIR / config),
                                           "--out", str(out), *extra])
        assert result.exit_code == 1 and not out.exists()
        [line] = result.output.splitlines()
        assert line.startswith(f"Error: {EVAL_DIR / config}: model.")
        assert "cannot load an adapter" in line or "an option of backend vllm" in line
