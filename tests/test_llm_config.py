"""Evaluation configs: every shipped YAML loads, overrides are typed, the hash means something."""

from __future__ import annotations

from pathlib import Path

import pytest

from planetarium.llm.config import ConfigError, load_config, make_config, parse_override

EVAL_DIR = Path(__file__).resolve().parents[1] / "eval"
BASE = {"name": "n", "backend": "transformers", "model": "tiny:", "dataset": "d.jsonl"}


@pytest.mark.parametrize("path", sorted(EVAL_DIR.glob("*.yaml")), ids=lambda p: p.name)
def test_shipped_configs_load(path):
    config = load_config(path)
    assert config.name == path.stem
    assert config.temperature in (0.0, None)  # greedy, or a reasoning model that takes none


def test_paper_configs_follow_the_protocol():
    o1 = load_config(EVAL_DIR / "o1-mini.yaml")
    assert o1.use_max_completion_tokens and o1.temperature is None and o1.sample_per_domain == 250
    gemma = load_config(EVAL_DIR / "gemma-2-27b-it-finetuned.yaml")
    assert gemma.backend == "vllm" and gemma.dtype == "bfloat16" and gemma.adapter


def test_overrides_win_and_none_means_keep():
    config = make_config(BASE, {"max_new_tokens": 7, "limit": None})
    assert config.max_new_tokens == 7 and config.limit is None
    assert parse_override("splits=[random:test, heldout:test]") == (
        "splits",
        ["random:test", "heldout:test"],
    )
    assert make_config(BASE, dict([parse_override("splits=random:test")])).splits == (
        "random:test",
    )
    assert make_config(BASE, {"backoff_s": 2}).backoff_s == 2.0


def test_unknown_keys_and_bad_values_are_rejected(tmp_path):
    with pytest.raises(ConfigError, match="max_new_token"):
        make_config({**BASE, "max_new_token": 5})
    with pytest.raises(ConfigError, match="backend"):
        make_config({**BASE, "backend": "llama.cpp"})
    with pytest.raises(ConfigError, match="base_url"):
        make_config({**BASE, "backend": "openai"})
    with pytest.raises(ConfigError, match="key=value"):
        parse_override("limit")
    unsafe = tmp_path / "unsafe.yaml"
    unsafe.write_text("name: !!python/object/apply:os.system ['true']\n")
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(unsafe)


def test_hash_ignores_speed_settings_only():
    config = make_config(BASE)
    assert (
        make_config(BASE, {"batch_size": 99, "concurrency": 3}).config_hash()
        == config.config_hash()
    )
    assert make_config(BASE, {"max_new_tokens": 99}).config_hash() != config.config_hash()
    assert make_config(BASE, {"adapter": "a"}).config_hash() != config.config_hash()
