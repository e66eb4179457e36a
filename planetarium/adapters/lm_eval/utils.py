"""Hooks the task YAML files name with ``!function utils.NAME``: lm-eval loads this file by its
path, so it imports Planetarium absolutely.

A document is one item of the task's benchmark, carried as JSON with the benchmark's name and
settings (``doc``: ``id``, ``benchmark``, ``config``, ``item``), so every hook knows which
benchmark, settings and item it is about without state of its own.  The settings are the task's
``--metadata`` keys that name fields of the benchmark's config (:mod:`..common`).

:class:`BenchmarkTask` is lm-eval's configurable task with two additions: the prompt is the
benchmark's chat exactly (a few-shot chat stays a chat under ``--apply_chat_template``), and
the generation budget fits the model: unless ``--gen_kwargs max_gen_toks=N`` says otherwise it
is the benchmark's answer budget, cut to half the model's context where that can be read from
the model's arguments (``max_length``, or the model folder's or Hub cache's ``config.json``); a
budget that leaves no room for the prompt stops the run with one line saying what to pass.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lm_eval.api.task import ConfigurableTask

from planetarium.adapters import common
from planetarium.benchmarks import Benchmark, BenchmarkConfig
from planetarium.config import build
from planetarium.jsonl import JsonLineError, decode

__all__ = ["BenchmarkTask", "doc_to_target", "doc_to_text", "load_dataset", "process_results"]

#: How a setting is passed to an lm-eval task (for error messages).
HOW = "--metadata '{\"KEY\": \"VALUE\"}'"
#: The model arguments and config.json fields that give a model's context, in lm-eval's order.
_CONTEXT_ARGUMENTS = ("max_length", "max_model_len")
_CONTEXT_FIELDS = ("n_positions", "max_position_embeddings", "n_ctx")


def _stop(message: str) -> SystemExit:
    """What ends an lm-eval run that cannot start: one line, no traceback."""
    return SystemExit(f"Error: {message}")


def _settings(metadata: Mapping[str, Any]) -> tuple[Benchmark, BenchmarkConfig]:
    try:
        bench = common.benchmark(str(metadata.get("_benchmark")))
        return bench, common.benchmark_config(bench, metadata, HOW)
    except common.AdapterError as err:
        raise _stop(str(err)) from None


def load_dataset(_benchmark: str, _subset: str | None = None, **metadata: Any) -> dict[str, Any]:
    """``custom_dataset``: the benchmark's items (of one subset) as the task's ``test`` split.
    lm-eval passes the task's ``metadata`` (model arguments and ``--metadata`` JSON included)
    and ``dataset_kwargs``."""
    import datasets

    bench, config = _settings({**metadata, "_benchmark": _benchmark})
    subset = bench.harness_subsets().get(_subset) if _subset else None
    try:
        rows = common.load_items(bench, config, HOW, subset)
    except common.AdapterError as err:
        raise _stop(str(err)) from None
    settings = json.dumps(dataclasses.asdict(config), sort_keys=True)
    docs = [{"id": str(row["id"]), "benchmark": bench.name, "config": settings,
             "item": json.dumps(row, ensure_ascii=False)} for row in rows]
    return {"test": datasets.Dataset.from_list(docs)}


@functools.lru_cache(maxsize=16)
def _decoded(name: str, settings: str) -> tuple[Benchmark, BenchmarkConfig]:
    bench = common.benchmark(name)
    return bench, build(bench.config_type, decode(settings), source=name)


def _document(doc: Mapping[str, Any]) -> tuple[Benchmark, BenchmarkConfig, dict[str, Any]]:
    bench, config = _decoded(doc["benchmark"], doc["config"])
    return bench, config, decode(doc["item"])


def chat(doc: Mapping[str, Any]) -> list[dict[str, str]]:
    bench, config, item = _document(doc)
    return common.messages(bench, config, item)


def doc_to_text(doc: Mapping[str, Any]) -> str:
    """The last user turn (what lm-eval wraps as the one user turn of a single-turn chat)."""
    return chat(doc)[-1]["content"]


def doc_to_target(doc: Mapping[str, Any]) -> str:
    bench, _, item = _document(doc)
    return bench.reference_answer(item)


def process_results(doc: Mapping[str, Any], results: list[str]) -> dict[str, int]:
    """1 or 0 per metric of the chain, from the benchmark's verdict on the one answer."""
    bench, config, item = _document(doc)
    return common.scores(bench, common.grade(bench, config, item, results[0]))


def model_context(arguments: Mapping[str, Any]) -> int | None:
    """The model's context in tokens as lm-eval's local models take it: a ``max_length`` (or
    vLLM's ``max_model_len``) argument, else the context its ``config.json`` declares (in the
    ``pretrained`` folder or the Hub cache); None when it cannot be read here."""
    for name in _CONTEXT_ARGUMENTS:
        if str(arguments.get(name, "")).isdigit():
            return int(arguments[name])
    pretrained = arguments.get("pretrained")
    if not isinstance(pretrained, str):
        return None
    path: Path | None = Path(pretrained) / "config.json"
    if path is not None and not path.is_file():
        try:
            from huggingface_hub import try_to_load_from_cache

            cached = try_to_load_from_cache(pretrained, "config.json")
        except (ImportError, ValueError):
            cached = None
        path = Path(cached) if isinstance(cached, str) else None
    try:
        found = decode(path.read_bytes()) if path is not None else None
    except (OSError, JsonLineError):
        return None
    for config in (found, (found or {}).get("text_config")):
        if isinstance(config, dict):
            for field in _CONTEXT_FIELDS:
                if isinstance(config.get(field), int) and config[field] > 0:
                    return int(config[field])
    return None


class BenchmarkTask(ConfigurableTask):
    """lm-eval's configurable task, asking a benchmark (see the module docstring)."""

    def __init__(self, config: dict[str, Any]) -> None:
        config = {key: value for key, value in config.items() if key != "class"}
        metadata = config.get("metadata") or {}
        try:
            bench = common.benchmark(str((config.get("dataset_kwargs") or {}).get("_benchmark")))
        except common.AdapterError as err:
            raise _stop(str(err)) from None
        self.model_context = model_context(metadata)
        generation = dict(config.get("generation_kwargs") or {})
        if "max_gen_toks" not in generation:
            budget = bench.answer_tokens
            if self.model_context is not None and budget > self.model_context // 2:
                budget = max(1, self.model_context // 2)
                print(f"planetarium: task {config.get('task')}: max_gen_toks {budget}, half the "
                      f"model's {self.model_context}-token context (the benchmark's budget is "
                      f"{bench.answer_tokens}; --gen_kwargs max_gen_toks=N sets it)",
                      file=sys.stderr)
            generation["max_gen_toks"] = budget
        super().__init__(config={**config, "generation_kwargs": generation})

    def build_all_requests(self, *args: Any, **kwargs: Any) -> None:
        """Refuse, in one line, a generation budget that leaves the prompt no room (lm-eval's
        own check is an assertion deep inside generation)."""
        budget = int((self.config.generation_kwargs or {}).get("max_gen_toks", 0))
        if self.model_context is not None and budget >= self.model_context:
            raise _stop(f"task {self.config.task}: max_gen_toks {budget} leaves no room for the "
                        f"prompt in the model's {self.model_context}-token context: pass "
                        f"--gen_kwargs max_gen_toks=N with N well below {self.model_context}")
        super().build_all_requests(*args, **kwargs)

    def fewshot_context(self, doc: dict[str, Any], num_fewshot: int, *args: Any,
                        **kwargs: Any) -> Any:
        """The benchmark's chat as it is: lm-eval's own rendering for one user turn, the whole
        chat (through the model's template, or its turns one after another) otherwise."""
        turns = chat(doc)
        if [turn["role"] for turn in turns] == ["user"]:
            return super().fewshot_context(doc, num_fewshot, *args, **kwargs)
        template = kwargs.get("chat_template")
        if kwargs.get("apply_chat_template") and template is not None:
            return template(turns, add_generation_prompt=True)
        return "\n\n".join(turn["content"] for turn in turns)
