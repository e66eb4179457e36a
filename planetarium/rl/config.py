"""Typed GRPO configuration, loaded strictly from YAML like fine-tuning's.

The model, data, quantization and LoRA sections are fine-tuning's own dataclasses
(:mod:`planetarium.finetune.config`), so a key means the same in both recipes; ``reward``,
``generation`` and ``training`` hold what only reinforcement learning has.  The shared loader
(:mod:`planetarium.config`) rejects unknown keys and wrong types, in the file and in ``--set``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from planetarium.config import ConfigError, at_least, between, load, setting
from planetarium.finetune.config import (
    DataConfig,
    LoraConfig,
    QuantizationConfig,
    RunConfig,
    max_steps_check,
)

_POSITIVE = at_least(1e-9)


def _registered_scheme(name: str) -> str | None:
    """A reward scheme's registered name (:mod:`planetarium.reward.schemes`)."""
    from planetarium.reward.schemes import available_schemes

    names = available_schemes()
    return None if name in names else f"one of {', '.join(names)}"


def _registered_benchmark(name: str) -> str | None:
    from planetarium.benchmarks import available_benchmarks

    names = available_benchmarks()
    return None if name in names else f"one of {', '.join(names)}"


@dataclass(frozen=True)
class RLDataConfig(DataConfig):
    """Fine-tuning's data section, plus the benchmark whose items are the prompts and whose
    grader is the reward.  ``planetarium`` (default) reads ``source`` and ``split`` as dataset
    rows (fine-tuning's meaning); another registered benchmark reads them as the ``dataset`` and
    the one ``split`` of its eval config's ``benchmark:`` section, ``settings`` holding the rest
    of that section (e.g. ACPBench's ``prompts`` folder, ``tasks``, ``kinds``)."""

    split: str = "heldout:train"  # checked in __post_init__: its form is the benchmark's
    benchmark: str = setting("planetarium", check=_registered_benchmark)
    settings: dict[str, Any] = setting(factory=dict)

    def __post_init__(self) -> None:
        from planetarium.dataset.splits import split_problem

        problem = split_problem(self.split) if self.benchmark == "planetarium" else None
        if problem:
            raise ConfigError(f"expected a known split ({problem}), got {self.split!r}",
                              key="split")
        if self.benchmark == "planetarium" and self.settings:
            raise ConfigError("Planetarium's rows take no settings (they are data.source and "
                              "data.split)", key="settings")


@dataclass(frozen=True)
class RLQuantizationConfig(QuantizationConfig):
    """Fine-tuning's quantization section, off unless asked for: to hand vLLM the current policy,
    TRL merges the adapter into the base and unmerges it every step, and on a 4-bit base each
    merge re-quantizes the weights, so the frozen base drifts by rounding error step after step."""

    load_in_4bit: bool = False


@dataclass(frozen=True)
class RewardConfig:
    """How :class:`planetarium.reward.PlanetariumReward` scores each completion.

    ``scheme`` ``correct`` pays 1 for a correct problem, 0 otherwise; ``staged`` gives partial
    credit per stage passed (``weights`` for ``parseable``, ``solvable``, ``equivalent``; the
    reward's defaults when null).  ``workers`` grading processes (null: up to 4; 0: in the
    trainer's process, without the hard deadline).  ``undecided_reward`` is what a timeout or an
    unsupported problem earns (never counted as correct); ``timeout_s`` bounds one completion,
    ``call_budget_s`` one whole batch.  The reward checks these values when the run starts,
    before any model loads.
    """

    scheme: str = setting("correct", check=_registered_scheme)
    timeout_s: float = setting(5.0, check=_POSITIVE)
    workers: int | None = setting(None, check=at_least(0))  # null: up to 4; 0: in process
    call_budget_s: float | None = setting(None, check=_POSITIVE)
    undecided_reward: float = 0.0
    think_marker: str = "</think>"
    weights: dict[str, float] | None = None


@dataclass(frozen=True)
class GenerationConfig:
    """Sampling the group of completions per prompt: with ``model.generate`` or with vLLM.

    ``use_vllm`` generates with vLLM on the GPU: ``colocate`` runs it inside the training
    processes (``vllm_gpu_memory_utilization`` of each GPU), ``server`` talks to a separate
    ``trl vllm-serve`` at ``vllm_server_base_url``.
    """

    num_generations: int = setting(8, check=at_least(2))  # the group GRPO normalises within
    max_completion_length: int = setting(512, check=at_least(1))
    temperature: float = setting(1.0, check=_POSITIVE)
    top_p: float = setting(1.0, check=between(1e-9, 1.0))
    use_vllm: bool = False
    vllm_mode: Literal["colocate", "server"] = "colocate"
    vllm_gpu_memory_utilization: float = setting(0.3, check=between(0.01, 1.0))
    vllm_tensor_parallel_size: int = setting(1, check=at_least(1))
    vllm_server_base_url: str | None = None


@dataclass(frozen=True)
class GRPOTrainingConfig:
    """Optimiser and loop settings for TRL's ``GRPOTrainer``.

    ``batch_size`` counts completions per device and step; over all processes and accumulation
    steps they must make whole groups of ``generation.num_generations`` (TRL checks it).
    ``beta`` > 0 adds a KL penalty against the frozen base (the adapter switched off).
    """

    optimizer: str = "adamw_torch"
    learning_rate: float = setting(1e-5, check=between(0.0, 1.0))
    weight_decay: float = setting(0.0, check=at_least(0.0))
    batch_size: int = setting(8, check=at_least(1))
    gradient_accumulation_steps: int = setting(1, check=at_least(1))
    epochs: float = setting(1.0, check=at_least(0.0))
    max_steps: int = setting(-1, check=max_steps_check)
    beta: float = setting(0.0, check=at_least(0.0))
    epsilon: float = setting(0.2, check=between(0.0, 1.0))
    loss_type: Literal["grpo", "dapo", "dr_grpo", "bnpo"] = "dapo"
    scale_rewards: Literal["group", "batch", "none"] = "group"
    gradient_checkpointing: bool = True
    logging_steps: int = setting(10, check=at_least(1))
    save_steps: int = setting(100, check=at_least(1))
    save_total_limit: int = setting(2, check=at_least(1))
    seed: int = 0


@dataclass(frozen=True)
class RLConfig(RunConfig):
    """One GRPO run."""

    data: RLDataConfig
    quantization: RLQuantizationConfig = field(default_factory=RLQuantizationConfig)
    lora: LoraConfig = field(default_factory=LoraConfig)
    reward: RewardConfig = field(default_factory=RewardConfig)
    generation: GenerationConfig = field(default_factory=GenerationConfig)
    training: GRPOTrainingConfig = field(default_factory=GRPOTrainingConfig)
    cpu_threads: int | None = setting(None, check=at_least(1))  # null: the shared CPU cap (llm.threads)

    def __post_init__(self) -> None:
        if self.generation.use_vllm and self.quantization.load_in_4bit:
            raise ConfigError(
                "vLLM generation needs a full-precision base (set quantization.load_in_4bit: "
                "false): the adapter is merged into the base and unmerged every step, and on a "
                "4-bit base each merge re-quantizes it, so the base drifts",
                key="generation.use_vllm",
            )


def load_config(path: str | Path, overrides: Iterable[str] = ()) -> RLConfig:
    """Read a GRPO YAML config, apply ``dotted.key=value`` overrides, and check it strictly."""
    return load(RLConfig, path, overrides)
