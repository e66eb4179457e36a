"""Batched generation with plain transformers: CPU-friendly, optional peft adapter.

This is the reference path that runs anywhere (tests, laptops, the tiny model); on GPUs vLLM is
much faster.  Prompts are left-padded so every row's answer starts at the same column and can be
cut off after the prompt in one slice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ...errors import require
from ...limits import Stopwatch
from ..options import ModelConfig
from ..threads import cap_torch_threads
from .base import Completion, Messages, ids_hash, render_prompt_ids
from .hub import load_error
from .registry import BackendSpec

_DTYPES = {"float32": "float32", "bfloat16": "bfloat16", "float16": "float16"}


def _torch_dtype(torch: Any, name: str, device: str) -> Any:
    """``auto`` means bf16 on a GPU (as the paper ran) and float32 on a CPU."""
    if name == "auto":
        return torch.bfloat16 if device.startswith("cuda") else torch.float32
    return getattr(torch, _DTYPES[name])


def _stop_ids(generation_config: Any, tokenizer: Any) -> set[int]:
    """Every token id that ends an answer (Gemma stops on ``<end_of_turn>`` as well as EOS)."""
    eos = generation_config.eos_token_id
    ids = set(eos if isinstance(eos, list) else [eos] if eos is not None else [])
    ids.add(tokenizer.eos_token_id)
    return ids


@dataclass(frozen=True)
class TransformersOptions(ModelConfig):
    """``device``: ``cpu``, ``cuda``, ``cuda:1`` (default: a GPU when there is one);
    ``adapter``: a LoRA adapter directory applied with peft."""

    adapter: str | None = None
    dtype: Literal["auto", "bfloat16", "float16", "float32"] = "auto"
    device: str | None = None


class TransformersBackend:
    """``model.generate`` over left-padded batches, greedy unless a temperature is set."""

    def __init__(self, config: TransformersOptions, model: str) -> None:
        self.torch = require("torch", "train")
        transformers = require("transformers", "train")
        self.config = config
        self.device = config.device or ("cuda" if self.torch.cuda.is_available() else "cpu")
        if self.device == "cpu":
            cap_torch_threads(self.torch)
        dtype = _torch_dtype(self.torch, config.dtype, self.device)
        try:
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(model)
            net = transformers.AutoModelForCausalLM.from_pretrained(model, dtype=dtype)
        except (OSError, ValueError) as err:  # missing or unreadable files, the Hub out of reach
            raise load_error(model, err) from err
        self.tokenizer.padding_side = "left"
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        if config.adapter:
            peft = require("peft", "train")
            net = peft.PeftModel.from_pretrained(net, config.adapter)
        self.model = net.to(self.device).eval()
        self.stop_ids = _stop_ids(self.model.generation_config, self.tokenizer)
        self.torch.manual_seed(config.seed)

    def _sampling(self) -> dict[str, Any]:
        if self.config.temperature:
            return {"do_sample": True, "temperature": self.config.temperature}
        return {"do_sample": False, "temperature": None, "top_p": None, "top_k": None}

    def _finish(self, row: list[int]) -> tuple[str, int]:
        """Why a row stopped and how many tokens it produced, counting the stop token."""
        for index, token in enumerate(row):
            if token in self.stop_ids:
                return "stop", index + 1
        return "length", len(row)

    def generate(self, conversations: Sequence[Messages]) -> list[Completion]:
        ids = [render_prompt_ids(self.tokenizer, messages) for messages in conversations]
        batch = self.tokenizer.pad({"input_ids": ids}, padding=True, return_tensors="pt")
        batch = batch.to(self.device)
        watch = Stopwatch()
        with self.torch.inference_mode():
            out = self.model.generate(
                **batch,
                max_new_tokens=self.config.max_new_tokens,
                pad_token_id=self.tokenizer.pad_token_id,
                **self._sampling(),
            )
        per_item = watch.seconds / len(ids)
        answers = out[:, batch["input_ids"].shape[1] :].tolist()
        completions = []
        for prompt, row in zip(ids, answers, strict=True):
            reason, n_tokens = self._finish(row)
            completions.append(
                Completion(
                    text=self.tokenizer.decode(row[:n_tokens], skip_special_tokens=True),
                    finish_reason=reason,
                    prompt_tokens=len(prompt),
                    prompt_ids_hash=ids_hash(prompt),
                    completion_tokens=n_tokens,
                    latency_s=per_item,
                    token_ids=tuple(row[:n_tokens]),
                )
            )
        return completions

    def close(self) -> None:
        del self.model


BACKEND = BackendSpec("transformers", TransformersOptions, TransformersBackend,
                      requires=(("torch", "train"), ("transformers", "train")))
