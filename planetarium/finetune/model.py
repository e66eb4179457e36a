"""Loading the base model (4-bit on a GPU when asked) and wrapping it with a LoRA adapter.

Quantization is applied only when the config asks for it *and* a CUDA GPU is present: bitsandbytes
4-bit layers cannot run on a CPU, and the CPU path exists so the whole recipe can be exercised
without a GPU.  Skipping it is logged as a warning, never silent.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from planetarium.errors import require

from .config import FinetuneConfig, LoraConfig, QuantizationConfig

log = logging.getLogger(__name__)


def resolve_base(cfg: FinetuneConfig, out_dir: Path) -> str:
    """The hub id or local path to load; ``tiny:`` builds the toy model under ``out_dir``."""
    from planetarium.llm.tiny import resolve_model_name

    return resolve_model_name(cfg.model, out_dir / "tiny-base")


def bnb_config(quant: QuantizationConfig) -> Any:
    """The transformers ``BitsAndBytesConfig`` for 4-bit loading (QLoRA: NF4, double quant)."""
    torch = require("torch", "train")
    transformers = require("transformers", "train")
    return transformers.BitsAndBytesConfig(
        load_in_4bit=True,
        bnb_4bit_quant_type=quant.quant_type,
        bnb_4bit_use_double_quant=quant.double_quant,
        bnb_4bit_compute_dtype=getattr(torch, quant.compute_dtype),
    )


def train_dtype(cfg: FinetuneConfig) -> str:
    """The dtype weights are loaded and trained in: the compute dtype on a GPU, float32 on a CPU."""
    torch = require("torch", "train")
    return cfg.quantization.compute_dtype if torch.cuda.is_available() else "float32"


def use_4bit(cfg: FinetuneConfig) -> bool:
    """Whether this run loads the base model in 4-bit (asked for, and a CUDA GPU is present)."""
    if not cfg.quantization.load_in_4bit:
        return False
    torch = require("torch", "train")
    if torch.cuda.is_available():
        require("bitsandbytes", "train")
        return True
    log.warning("no CUDA GPU: training without 4-bit quantization (full-precision LoRA on CPU)")
    return False


def load_base(cfg: FinetuneConfig, base: str, quantize: bool) -> tuple[Any, Any]:
    """Load tokenizer and model; a 4-bit model is pinned to this process's GPU (one per rank)."""
    torch = require("torch", "train")
    transformers = require("transformers", "train")
    accelerate = require("accelerate", "train")

    tokenizer = transformers.AutoTokenizer.from_pretrained(base)
    kwargs: dict[str, Any] = {
        "attn_implementation": cfg.attn_implementation,
        "dtype": getattr(torch, train_dtype(cfg)),
    }
    if quantize:
        kwargs["quantization_config"] = bnb_config(cfg.quantization)
        kwargs["device_map"] = {"": accelerate.PartialState().process_index}
    model = transformers.AutoModelForCausalLM.from_pretrained(base, **kwargs)
    return tokenizer, model


def add_lora(model: Any, lora: LoraConfig, *, quantized: bool) -> Any:
    """Wrap ``model`` with a fresh LoRA adapter on every linear layer except the LM head.

    Gradient checkpointing is left to the Trainer (``TrainingArguments``), in one place for both
    paths; it is non-reentrant, so the inputs need no ``requires_grad`` hook.
    """
    peft = require("peft", "train")
    if quantized:  # freezes the 4-bit base and upcasts its remaining small weights to fp32
        model = peft.prepare_model_for_kbit_training(model, use_gradient_checkpointing=False)
    config = peft.LoraConfig(
        r=lora.r,
        lora_alpha=lora.alpha,
        lora_dropout=lora.dropout,
        target_modules=lora.target_modules,
        bias="none",
        task_type="CAUSAL_LM",
    )
    return peft.get_peft_model(model, config)
