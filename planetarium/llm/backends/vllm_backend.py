"""Offline batch inference with vLLM: the paper's setup for the Gemma 2 models.

Prompts are rendered to token ids here (same rendering as the transformers backend) and handed
to ``LLM.generate``, so vLLM never re-applies a template or adds a second BOS.  A LoRA adapter is
served through ``LoRARequest``; ``max_lora_rank`` must be at least the adapter's rank and one of
the values vLLM accepts, so it is read from the adapter's ``adapter_config.json``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from collections.abc import Sequence

from ...errors import require
from ..config import ConfigError, EvalConfig
from .base import Completion, Messages, ids_hash, render_prompt_ids

# vllm.config.lora.MaxLoRARanks (v0.26.0)
VLLM_LORA_RANKS = (1, 8, 16, 32, 64, 128, 256, 320, 512)


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


class VLLMBackend:
    """One ``vllm.LLM`` engine for the whole run; batches are scheduled by vLLM itself."""

    def __init__(self, config: EvalConfig, model: str) -> None:
        vllm = require("vllm", "vllm")
        engine_args = {
            "model": model,
            "tensor_parallel_size": config.tensor_parallel_size,
            "dtype": "bfloat16" if config.dtype == "auto" else config.dtype,
            "seed": config.seed,
            "gpu_memory_utilization": config.gpu_memory_utilization,
            "max_model_len": config.max_model_len,
        }
        self.lora = None
        if config.adapter:
            engine_args.update(enable_lora=True, max_lora_rank=max_lora_rank(config.adapter))
            lora_module = require("vllm.lora.request", "vllm")
            self.lora = lora_module.LoRARequest("adapter", 1, str(config.adapter))
        self.llm = vllm.LLM(**engine_args)
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
        start = time.perf_counter()
        outputs = self.llm.generate(prompts, self.params, lora_request=self.lora, use_tqdm=False)
        per_item = (time.perf_counter() - start) / len(prompts)
        return [
            Completion(
                text=out.outputs[0].text,
                finish_reason=out.outputs[0].finish_reason,
                prompt_tokens=len(out.prompt_token_ids),
                prompt_ids_hash=ids_hash(out.prompt_token_ids),
                completion_tokens=len(out.outputs[0].token_ids),
                latency_s=per_item,
            )
            for out in outputs
        ]

    def close(self) -> None:
        del self.llm
