"""Loading the base model (4-bit when the config asks for it) and wrapping it with a LoRA adapter.

4-bit loading is decided by the config alone: ``quantization.load_in_4bit: true`` (the default and
the paper's recipe) loads with bitsandbytes NF4 on a CUDA GPU *and* on a CPU (bitsandbytes has CPU
kernels), so the QLoRA path is the one exercised everywhere; only ``load_in_4bit: false`` trains
in full precision.  A missing bitsandbytes is an error naming the extra, never a silent fallback.

What the run actually used is read back from the loaded layers (:func:`quantization_used`), so the
record cannot claim 4-bit for a model that loaded in full precision.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from planetarium.errors import PlanetariumError, require

from .config import LoraConfig, QuantizationConfig


class ModelSettings(Protocol):
    """What loading a base model reads from a run config: fine-tuning's and GRPO's alike
    (read-only: the configs are frozen dataclasses)."""

    @property
    def model(self) -> str: ...
    @property
    def attn_implementation(self) -> str: ...
    @property
    def quantization(self) -> QuantizationConfig: ...


class LoopSettings(Protocol):
    """The optimiser and loop settings fine-tuning and GRPO share (their ``training`` sections)."""

    @property
    def optimizer(self) -> str: ...
    @property
    def learning_rate(self) -> float: ...
    @property
    def weight_decay(self) -> float: ...
    @property
    def batch_size(self) -> int: ...
    @property
    def gradient_accumulation_steps(self) -> int: ...
    @property
    def epochs(self) -> float: ...
    @property
    def max_steps(self) -> int: ...
    @property
    def logging_steps(self) -> int: ...
    @property
    def save_steps(self) -> int: ...
    @property
    def save_total_limit(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def gradient_checkpointing(self) -> bool: ...


def resolve_base(cfg: ModelSettings, out_dir: Path) -> str:
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


def train_dtype(cfg: ModelSettings) -> str:
    """The dtype unquantized weights are loaded and trained in: the compute dtype on a GPU,
    float32 on a CPU (CPU autocast to bf16 is slow and gains nothing on a toy model)."""
    torch = require("torch", "train")
    return cfg.quantization.compute_dtype if torch.cuda.is_available() else "float32"


def use_4bit(cfg: ModelSettings) -> bool:
    """Whether this run loads the base model in 4-bit: exactly what the config says.

    Checks up front that bitsandbytes is importable, so a missing extra fails before any data
    or model is loaded.
    """
    if not cfg.quantization.load_in_4bit:
        return False
    require("bitsandbytes", "train")
    return True


def _device_map() -> dict[str, Any]:
    """Where a 4-bit model lives: this process's GPU (one per rank), else the CPU."""
    torch = require("torch", "train")
    if torch.cuda.is_available():
        return {"": require("accelerate", "train").PartialState().process_index}
    return {"": "cpu"}


def load_base(cfg: ModelSettings, base: str, quantize: bool) -> tuple[Any, Any]:
    """Load tokenizer and model, 4-bit (bitsandbytes) when ``quantize``; a 4-bit load whose
    layers are not 4-bit is refused (a run must never be recorded as QLoRA on a full base)."""
    torch = require("torch", "train")
    transformers = require("transformers", "train")

    tokenizer = transformers.AutoTokenizer.from_pretrained(base)
    kwargs: dict[str, Any] = {
        "attn_implementation": cfg.attn_implementation,
        "dtype": getattr(torch, train_dtype(cfg)),
    }
    if quantize:
        kwargs["quantization_config"] = bnb_config(cfg.quantization)
        kwargs["device_map"] = _device_map()
    model = transformers.AutoModelForCausalLM.from_pretrained(base, **kwargs)
    if quantize and quantization_used(model)["mode"] == "none":
        raise PlanetariumError(f"{base}: asked for 4-bit but no layer loaded as Linear4bit")
    return tokenizer, model


def quantization_used(model: Any) -> dict[str, Any]:
    """The quantization of ``model`` as its layers report it (not as the config asked).

    ``linear_4bit`` counts bitsandbytes ``Linear4bit`` layers; ``quant_types`` and
    ``compute_dtypes`` are the distinct values over those layers; ``double_quant`` is true only
    when every one of them has a nested (quantized) absmax state.  ``mode`` sums it up:
    ``"4bit-nf4-double-quant"``, ``"4bit-nf4"``, ``"4bit-fp4"``... or ``"none"``.
    """
    layers = []
    try:
        bnb = require("bitsandbytes", "train")
    except ImportError:
        bnb = None
    if bnb is not None:
        layers = [m for m in model.modules() if isinstance(m, bnb.nn.Linear4bit)]
    if not layers:
        return {"mode": "none", "linear_4bit": 0}
    states = [layer.weight.quant_state for layer in layers]
    quant_types = sorted({state.quant_type for state in states})
    double_quant = all(state.nested for state in states)
    compute = sorted({str(layer.compute_dtype).removeprefix("torch.") for layer in layers})
    mode = "4bit-" + "+".join(quant_types) + ("-double-quant" if double_quant else "")
    return {
        "mode": mode,
        "linear_4bit": len(layers),
        "quant_types": quant_types,
        "double_quant": double_quant,
        "compute_dtypes": compute,
    }


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
