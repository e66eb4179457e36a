"""The real QLoRA path on a CPU: bitsandbytes 4-bit NF4 with double quantization, then LoRA.

The quantization a run reports is read back from the loaded layers, so these tests also load
variants the config did not default to (fp4, no double quantization, no 4-bit) and check that
the read-back follows what was really loaded.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
bnb = pytest.importorskip("bitsandbytes")
transformers = pytest.importorskip("transformers")

from llm_fixtures import demo_rows

from planetarium.errors import MissingExtraError
from planetarium.finetune.config import load_config
from planetarium.finetune.data import CompletionCollator, tokenize_rows
from planetarium.finetune.model import (
    add_lora,
    load_base,
    quantization_used,
    use_4bit,
)
from planetarium.finetune.train import make_trainer

TINY_YAML = Path(__file__).resolve().parents[1] / "finetune" / "tiny.yaml"


def _cfg(tiny_model: Path, *overrides: str):  # noqa: F811
    return load_config(TINY_YAML, [f"model={tiny_model}", *overrides])


def test_shipped_tiny_config_loads_nf4_double_quant_on_cpu(tiny_model):  # noqa: F811
    cfg = _cfg(tiny_model)
    assert use_4bit(cfg)
    _, model = load_base(cfg, str(tiny_model), quantize=True)
    layers = [m for m in model.modules() if isinstance(m, bnb.nn.Linear4bit)]
    # 2 decoder layers x (q, k, v, o, gate, up, down); the tied LM head stays unquantized
    assert len(layers) == 14
    device = "cuda" if torch.cuda.is_available() else "cpu"  # the 4-bit path is the same on both
    assert all(m.weight.dtype == torch.uint8 and m.weight.device.type == device for m in layers)
    assert quantization_used(model) == {
        "mode": "4bit-nf4-double-quant",
        "linear_4bit": 14,
        "quant_types": ["nf4"],
        "double_quant": True,
        "compute_dtypes": ["bfloat16"],
    }


def test_read_back_follows_the_loaded_layers(tiny_model):  # noqa: F811
    cfg = _cfg(tiny_model, "quantization.quant_type=fp4", "quantization.double_quant=false")
    _, model = load_base(cfg, str(tiny_model), quantize=True)
    used = quantization_used(model)
    assert (used["mode"], used["double_quant"]) == ("4bit-fp4", False)

    full = _cfg(tiny_model, "quantization.load_in_4bit=false")
    assert not use_4bit(full)
    _, model = load_base(full, str(tiny_model), quantize=False)
    assert quantization_used(model) == {"mode": "none", "linear_4bit": 0}


def test_missing_bitsandbytes_is_an_error_not_a_fallback(tiny_model, monkeypatch):  # noqa: F811
    monkeypatch.setitem(sys.modules, "bitsandbytes", None)  # makes the import fail
    with pytest.raises(MissingExtraError, match=r"pip install .planetarium-pddl\[train\]."):
        use_4bit(_cfg(tiny_model))


def test_qlora_loss_on_a_fixed_batch_goes_down(tiny_model, tmp_path):  # noqa: F811
    cfg = _cfg(
        tiny_model,
        f"out_dir={tmp_path}",
        "training.learning_rate=2e-2",
        "training.max_steps=5",
        "training.gradient_checkpointing=false",
        "training.logging_steps=1",
        "training.save_steps=100",
    )
    tokenizer, base = load_base(cfg, str(tiny_model), quantize=True)
    examples = tokenize_rows(
        demo_rows(2), tokenizer, {"blocksworld": "(define)", "gripper": "(define)"}
    )
    batch = CompletionCollator(tokenizer.pad_token_id)(examples)
    transformers.set_seed(0)
    model = add_lora(base, cfg.lora, quantized=True)
    assert quantization_used(model)["mode"] == "4bit-nf4-double-quant"  # LoRA wraps, 4-bit stays
    trainable = {name: p for name, p in model.named_parameters() if p.requires_grad}
    assert trainable and all("lora_" in name for name in trainable)
    assert all(p.dtype == torch.float32 for p in trainable.values())

    def loss() -> float:
        model.eval()
        with torch.no_grad():
            return model(**{key: value.to(model.device) for key, value in batch.items()}).loss.item()

    before = loss()
    make_trainer(cfg, model, tokenizer, examples, tmp_path).train()
    after = loss()
    assert after < before - 0.1, (before, after)

