"""Local backends: transformers on CPU (batching, adapters), vLLM's guards, and vLLM on a GPU."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from llm_fixtures import demo_rows, eval_run_argv, sections, write_eval_config

from planetarium.benchmarks.planetarium.prompts import build_messages
from planetarium.config import ConfigError
from planetarium.domains import get_domain
from planetarium.errors import MissingExtraError
from planetarium.llm.backends import make_backend
from planetarium.llm.backends.vllm_backend import max_lora_rank
from planetarium.llm.config import make_config

CHATS = [
    build_messages(row["natural_language"], get_domain(row["domain"]).pddl) for row in demo_rows(3)
]


def _config(backend: str = "transformers", **extra):
    """The ``model:`` section of an eval config (what a backend is built from)."""
    return make_config(sections("t", backend=backend, dataset="d", device="cpu",
                                max_new_tokens=6, **extra)).model


@pytest.fixture(scope="module")
def lora_adapter(tiny_model, tmp_path_factory) -> Path:
    """A rank-4 LoRA on the tiny model with random (non-zero) weights, so it changes answers."""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    torch.manual_seed(0)
    base = AutoModelForCausalLM.from_pretrained(tiny_model)
    config = LoraConfig(r=4, lora_alpha=64, target_modules="all-linear", init_lora_weights=False)
    out = tmp_path_factory.mktemp("adapter")
    get_peft_model(base, config).save_pretrained(out)
    return out


def test_batched_greedy_matches_one_by_one(tiny_model, one_thread):
    backend = make_backend(_config(), str(tiny_model))
    batched = backend.generate(CHATS)
    single = [backend.generate([chat])[0] for chat in CHATS]
    assert [c.text for c in batched] == [c.text for c in single]  # left padding is harmless
    assert [c.prompt_ids_hash for c in batched] == [c.prompt_ids_hash for c in single]
    assert len({c.prompt_ids_hash for c in batched}) == len(CHATS)
    assert all(c.completion_tokens <= 6 and c.finish_reason in ("stop", "length") for c in batched)


def test_peft_adapter_is_applied(tiny_model, lora_adapter, one_thread):
    base = make_backend(_config(), str(tiny_model)).generate(CHATS[:1])
    adapted_backend = make_backend(_config(adapter=str(lora_adapter)), str(tiny_model))
    assert isinstance(adapted_backend.model, __import__("peft").PeftModel)
    assert adapted_backend.generate(CHATS[:1])[0].text != base[0].text


def test_max_lora_rank_rounds_up_to_what_vllm_accepts(tmp_path):
    for rank, expected in ((16, 16), (12, 16), (1, 1), (300, 320)):
        (tmp_path / "adapter_config.json").write_text(json.dumps({"r": rank}))
        assert max_lora_rank(tmp_path) == expected
    (tmp_path / "adapter_config.json").write_text(json.dumps({"r": 1000}))
    with pytest.raises(ConfigError, match="exceeds"):
        max_lora_rank(tmp_path)
    with pytest.raises(ConfigError, match="adapter_config.json"):
        max_lora_rank(tmp_path / "missing")


def test_missing_vllm_names_the_extra():
    pytest.importorskip("torch")
    try:
        import vllm  # noqa: F401
    except ImportError:
        with pytest.raises(MissingExtraError, match=r"pip install .planetarium-pddl\[vllm\]."):
            make_backend(_config("vllm"), "m")
    else:
        pytest.skip("vllm is installed here")


@pytest.mark.gpu
def test_vllm_backend_with_lora_on_gpu(tiny_model, lora_adapter, tmp_path):
    """The real vLLM path (bf16, LoRARequest, token-id prompts) on the tiny model."""
    pytest.importorskip("vllm")
    config = write_eval_config(tmp_path, 4, backend="vllm", model=str(tiny_model),
                               adapter=str(lora_adapter), max_new_tokens=8, max_model_len=2048,
                               gpu_memory_utilization=0.3)
    run_dir = tmp_path / "run"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "VLLM_NO_USAGE_STATS": "1"}
    done = subprocess.run(  # vLLM spawns its engine: run it as a program, not inside pytest
        [sys.executable, "-m", "planetarium.cli", *eval_run_argv(config, run_dir)],
        capture_output=True, text=True, timeout=900, env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = (run_dir / "completions.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) == 4 and all(0 < r["completion_tokens"] <= 8 for r in records)
