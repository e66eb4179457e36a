"""Evaluation configs: every shipped YAML loads, overrides are typed, the hash means something."""

from __future__ import annotations

from pathlib import Path

import pytest

from planetarium.config import ConfigError
from planetarium.llm.config import load_config, make_config

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


def test_overrides_win_and_none_means_keep(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("name: n\nbackend: transformers\nmodel: 'tiny:'\ndataset: d.jsonl\nlimit: 4\n")
    config = load_config(path, ["max_new_tokens=7", "splits=[random:test, heldout:test]"],
                         limit=None, batch_size=3)
    assert (config.max_new_tokens, config.limit, config.batch_size) == (7, 4, 3)
    assert config.splits == ("random:test", "heldout:test")
    assert make_config({**BASE, "backoff_s": 2}).backoff_s == 2.0


def test_unknown_keys_and_bad_values_are_rejected(tmp_path):
    with pytest.raises(ConfigError, match="max_new_token: unknown key; did you mean 'max_new_tokens'"):
        make_config({**BASE, "max_new_token": 5})
    with pytest.raises(ConfigError, match="backend: expected one of vllm, transformers, openai"):
        make_config({**BASE, "backend": "llama.cpp"})
    with pytest.raises(ConfigError, match="base_url"):
        make_config({**BASE, "backend": "openai"})
    unsafe = tmp_path / "unsafe.yaml"
    unsafe.write_text("name: !!python/object/apply:os.system ['true']\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(unsafe)


@pytest.mark.parametrize("override, message", [
    ("limit='3'", "limit: expected an integer or null, got '3'"),
    ("model=42", "model: expected a string, got 42"),
    ("model=tiny:abc", "model: expected tiny: followed by nothing or an integer seed"),
    ("sample_per_domain=-1", "sample_per_domain: expected a value >= 1, got -1"),
    ("temperature=hot", "temperature: expected a number or null, got 'hot'"),
    ("splits=[[bad]]", r"splits\[0\]: expected a string or null"),
    ("name=[1, 2]", "name: expected a string, got \\[1, 2\\]"),
    ("batch_size=true", "batch_size: expected an integer, got True"),
    ("grade_timeout_s=.nan", "grade_timeout_s: expected a value between"),
    ("limit", "must look like key.path=value"),
])
def test_wrongly_typed_values_name_file_key_and_expectation(override, message):
    with pytest.raises(ConfigError, match=message) as caught:
        load_config(EVAL_DIR / "tiny.yaml", [override])
    assert str(caught.value).count("\n") == 0


def test_hash_ignores_speed_settings_only():
    config = make_config(BASE)
    assert (
        make_config({**BASE, "batch_size": 99, "concurrency": 3}).config_hash()
        == config.config_hash()
    )
    assert make_config({**BASE, "max_new_tokens": 99}).config_hash() != config.config_hash()
    assert make_config({**BASE, "adapter": "a"}).config_hash() != config.config_hash()
