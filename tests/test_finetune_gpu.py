"""The real QLoRA path: 4-bit NF4 with double quantization on a CUDA GPU (skipped on CPU)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from llm_fixtures import demo_rows, tiny_model, write_rows  # noqa: F401 (fixture)

from planetarium.finetune.config import load_config

TINY_YAML = Path(__file__).resolve().parents[1] / "finetune" / "tiny.yaml"


@pytest.mark.gpu
def test_qlora_run_loads_nf4_double_quant_and_trains(tiny_model, tmp_path):  # noqa: F811
    torch = pytest.importorskip("torch")
    bnb = pytest.importorskip("bitsandbytes")
    from planetarium.finetune.model import load_base, use_4bit
    from planetarium.finetune.train import run

    rows = [dict(row, split_random="train") for row in demo_rows(20)]
    data = write_rows(tmp_path / "train.jsonl", rows)
    cfg = load_config(
        TINY_YAML,
        [
            f"model={tiny_model}",
            f"data.source={data}",
            f"out_dir={tmp_path / 'run'}",
            "training.max_steps=20",
        ],
    )
    assert use_4bit(cfg)

    _, model = load_base(cfg, str(tiny_model), quantize=True)
    quant = model.config.quantization_config  # read back from the loaded model
    quant = quant if isinstance(quant, dict) else quant.to_dict()
    assert quant["load_in_4bit"] is True and quant["bnb_4bit_quant_type"] == "nf4"
    assert quant["bnb_4bit_use_double_quant"] is True
    assert quant["bnb_4bit_compute_dtype"] == "bfloat16"
    linear4 = [m for m in model.modules() if isinstance(m, bnb.nn.Linear4bit)]
    assert linear4 and all(m.weight.quant_state.nested for m in linear4)  # double quant on
    del model
    torch.cuda.empty_cache()

    record = run(cfg)
    assert record["quantized_4bit"] is True
    assert record["config"]["quantization"]["double_quant"] is True
    losses = [e["loss"] for e in record["train"]["log_history"] if "loss" in e]
    assert losses and losses[-1] < losses[0]
    adapter = json.loads((tmp_path / "run" / "adapter" / "adapter_config.json").read_text())
    assert adapter["r"] == 16
