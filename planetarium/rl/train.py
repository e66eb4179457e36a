"""One GRPO run: prompts -> TRL's ``GRPOTrainer`` with a LoRA adapter and our reward -> record.

The prompt is the pinned evaluation prompt (:func:`planetarium.llm.prompts.build_messages`) as
chat messages, so TRL renders it with the model's own chat template exactly as ``eval run``
does; every other dataset column travels to the reward, which reads the ground truth and the
placeholder flag from them. With ``data.benchmark`` another registered benchmark (ACPBench,
ARB, a plug-in) supplies the items and the prompt of each (:meth:`Benchmark.messages
<planetarium.benchmarks.base.Benchmark.messages>`, as ``eval run`` asks it), and each item
travels to the reward as JSON in the ``item`` column. Model loading, LoRA placement, the run
folder's guard and the adapter's layout are fine-tuning's (:mod:`planetarium.finetune`), so
``eval run --adapter`` loads a GRPO adapter exactly like a QLoRA one. Data parallelism and vLLM
generation come from TRL: launch the same command under ``accelerate launch``.

Layout of ``out_dir``: ``checkpoints/`` (for ``--resume``), ``adapter/``, ``rl_record.json``,
and ``tiny-base/`` for ``tiny:``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from planetarium.benchmarks import Benchmark, get_benchmark
from planetarium.config import build
from planetarium.dataset import load_rows
from planetarium.domains import get_domain
from planetarium.errors import PlanetariumError, require
from planetarium.finetune.data import rows_hash
from planetarium.finetune.model import (
    add_lora,
    load_base,
    quantization_used,
    resolve_base,
    use_4bit,
)
from planetarium.finetune.train import (
    VERSIONED,
    Outcome,
    cap_threads,
    checkpoint_to_resume,
    clear_run,
    finished_record,
    loop_arguments,
    save_outputs,
)
from planetarium.llm.grade import package_versions
from planetarium.llm.prompts import build_messages, prompt_template_hash
from planetarium.llm.quiet import checkpointing_renames_silenced
from planetarium.reward import PlanetariumReward

from ..limits import Stopwatch
from .config import RewardConfig, RLConfig, RLDataConfig

log = logging.getLogger(__name__)

RECORD_NAME = "rl_record.json"
#: Dataset columns handed to the reward besides the prompt (what it and a reader of its
#: details need: the ground truth, the placeholder flag, and which item it was).
REWARD_COLUMNS = ("id", "domain", "problem_pddl", "is_placeholder")


def prompt_dataset(rows: list[dict[str, Any]]) -> Any:
    """A ``datasets.Dataset``: the pinned prompt as chat messages plus :data:`REWARD_COLUMNS`."""
    datasets = require("datasets", "rl")
    domain_pddl = {name: get_domain(name).pddl for name in {row["domain"] for row in rows}}
    return datasets.Dataset.from_list(
        [
            {
                "prompt": build_messages(row["natural_language"], domain_pddl[row["domain"]]),
                **{column: row[column] for column in REWARD_COLUMNS},
                "id": str(row["id"]),  # one Arrow type, whatever the source's ids are
            }
            for row in rows
        ]
    )


class Prompts:
    """The rows GRPO samples prompts from, as a ``datasets.Dataset`` (:meth:`dataset`), with
    the hashes of the rows and of what shapes the prompts (for the record)."""

    def __init__(self, data: RLDataConfig) -> None:
        self.data = data
        if data.benchmark == "planetarium":
            self.rows = load_rows(data.source, split=data.split)
            self.rows_hash = rows_hash(self.rows)
            self.fingerprint = prompt_template_hash()
            self.benchmark: Benchmark | None = None
            return
        self.benchmark = get_benchmark(data.benchmark)
        self.config = build(self.benchmark.config_type,
                            {**data.settings, "name": data.benchmark, "dataset": data.source,
                             "split": [data.split]}, key="data")
        self.rows = self.benchmark.load_items(self.config)
        blob = json.dumps(self.rows, sort_keys=True, default=str).encode("utf-8")
        self.rows_hash = hashlib.sha256(blob).hexdigest()
        self.fingerprint = self.benchmark.prompt_fingerprint(self.config)

    def dataset(self) -> Any:
        if self.benchmark is None:
            return prompt_dataset(self.rows)
        datasets = require("datasets", "rl")
        return datasets.Dataset.from_list(
            [{"prompt": self.benchmark.messages(self.config, row),
              "item": json.dumps(row), "id": str(row["id"])} for row in self.rows])


def make_reward(reward: RewardConfig, benchmark: str = "planetarium") -> PlanetariumReward:
    """The reward function TRL calls, configured from the ``reward`` section.

    Its grading processes are forked from the trainer (the pool's default, as torch's DataLoader
    workers are): they start in milliseconds and run only the grader.  A fork server or spawn
    would re-import the training script's main module (torch, trl...) in every new worker, and
    that start-up counts against the per-item deadline: on a busy machine every item then timed
    out (measured: 16 of 16, each worker replaced).
    """
    return PlanetariumReward(**dataclasses.asdict(reward), benchmark=benchmark)  # the same names


def grpo_arguments(cfg: RLConfig, out_dir: Path) -> Any:
    """Map the typed config onto ``trl.GRPOConfig`` (loop settings as fine-tuning maps them)."""
    trl = require("trl", "rl")
    t, g = cfg.training, cfg.generation
    vllm = (
        {
            "vllm_mode": g.vllm_mode,
            "vllm_gpu_memory_utilization": g.vllm_gpu_memory_utilization,
            "vllm_tensor_parallel_size": g.vllm_tensor_parallel_size,
            "vllm_server_base_url": g.vllm_server_base_url,
        }
        if g.use_vllm
        else {}
    )
    try:
        return trl.GRPOConfig(
            **loop_arguments(cfg, t, out_dir),
            beta=t.beta,
            epsilon=t.epsilon,
            loss_type=t.loss_type,
            scale_rewards=t.scale_rewards,
            num_generations=g.num_generations,
            max_completion_length=g.max_completion_length,
            temperature=g.temperature,
            top_p=g.top_p,
            use_vllm=g.use_vllm,
            **vllm,
        )
    except ValueError as err:  # TRL's cross-checks, e.g. batch vs. num_generations
        raise PlanetariumError(f"GRPO settings rejected by TRL: {err}") from err


class RewardLog:
    """A ``TrainerCallback`` that keeps, after each optimisation step that called the reward,
    what the reward function itself returned on its latest call: the count, mean and verdict
    statuses of its rewards, to set beside the statistics the trainer logged."""

    def __init__(self, reward: PlanetariumReward) -> None:
        self.reward = reward
        self.calls: list[dict[str, Any]] = []
        self._seen = 0

    def callback(self) -> Any:
        transformers = require("transformers", "rl")
        owner = self

        # Ignored on the class line: its base is an attribute of the module require() imported at
        # run time, which mypy cannot resolve; a static import would make mypy read all of
        # transformers (minutes) for this one class.
        class _Callback(transformers.TrainerCallback):  # type: ignore[name-defined]
            def on_step_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
                owner.record(state.global_step)

        return _Callback()

    def record(self, step: int) -> None:
        calls = self.reward.metrics()["calls"]
        if calls == self._seen or not self.reward.last_details:
            return
        self._seen = calls
        rewards = [d["reward"] for d in self.reward.last_details]
        statuses = Counter(d["status"] for d in self.reward.last_details)
        self.calls.append({"step": step, "call": calls, "items": len(rewards),
                           "mean": sum(rewards) / len(rewards), "statuses": dict(statuses)})


def make_trainer(
    cfg: RLConfig, model: Any, tokenizer: Any, dataset: Any, reward: Any, out_dir: Path,
    callbacks: Sequence[Any] = (),
) -> Any:
    """TRL's ``GRPOTrainer`` on a LoRA-wrapped model with ``reward`` as its only reward."""
    trl = require("trl", "rl")
    return trl.GRPOTrainer(
        model=model,
        reward_funcs=[reward],
        args=grpo_arguments(cfg, out_dir),
        train_dataset=dataset,
        processing_class=tokenizer,
        callbacks=list(callbacks),
    )


def run(cfg: RLConfig, *, resume: bool = False, overwrite: bool = False) -> Outcome:
    """Train one adapter with GRPO as configured; returns the record written next to it."""
    out_dir = Path(cfg.out_dir)
    done = finished_record(cfg.to_dict(), out_dir, RECORD_NAME) if resume and not overwrite \
        else None
    if done is not None:
        log.info("%s finished at step %d; nothing to resume", out_dir, done["train"]["steps"])
        return Outcome(done, trained=False)
    checkpoint = checkpoint_to_resume(out_dir, resume, RECORD_NAME, overwrite=overwrite)

    started = Stopwatch()
    reward = make_reward(cfg.reward, cfg.data.benchmark)  # fails here, before any model loads
    try:
        threads = cap_threads(cfg.cpu_threads)
        require("transformers", "rl").set_seed(cfg.training.seed)  # LoRA init is random too
        prompts = Prompts(cfg.data)
        rows = prompts.rows
        if not rows:
            raise PlanetariumError(f"{cfg.data.source}: no rows in split {cfg.data.split}")
        quantize = use_4bit(cfg)
        base = resolve_base(cfg, out_dir)
        tokenizer, model = load_base(cfg, base, quantize)
        quantization = quantization_used(model)
        with checkpointing_renames_silenced():  # peft reads the renamed property
            model = add_lora(model, cfg.lora, quantized=quantize)
        if overwrite:
            clear_run(out_dir, RECORD_NAME)
        reward_log = RewardLog(reward)
        trainer = make_trainer(
            cfg, model, tokenizer, prompts.dataset(), reward, out_dir, [reward_log.callback()]
        )
        train_watch = Stopwatch()
        with checkpointing_renames_silenced():  # trl, peft and the Trainer read it
            result = trainer.train(resume_from_checkpoint=checkpoint)
        train_seconds = train_watch.seconds
        reward_metrics = reward.metrics()
    finally:
        reward.close()
    steps_run = result.global_step - _step_of(checkpoint)
    record = {
        "config": cfg.to_dict(),
        "base_model": base,
        "quantization": quantization,
        "data": {
            "benchmark": cfg.data.benchmark,
            "source": cfg.data.source,
            "split": cfg.data.split,
            "rows": len(rows),
            "data_hash": prompts.rows_hash,
        },
        "prompt_template_hash": prompts.fingerprint,
        "reward": {
            "name": reward.__name__,
            "metrics": reward_metrics,
            "calls": reward_log.calls,
        },
        "train": {
            "steps": result.global_step,
            "max_steps": trainer.state.max_steps,
            "resumed_from": checkpoint,
            "steps_this_run": steps_run,
            "seconds": round(started.seconds, 2),
            "train_seconds": round(train_seconds, 2),
            "seconds_per_step": round(train_seconds / steps_run, 3) if steps_run else None,
            "cpu_threads": threads,
            "log_history": trainer.state.log_history,
        },
        "versions": package_versions((*VERSIONED, "trl", "datasets", "vllm")),
    }
    save_outputs(trainer, tokenizer, out_dir / RECORD_NAME, record)
    return Outcome(record, trained=True)


def _step_of(checkpoint: str | None) -> int:
    """The global step a Trainer checkpoint folder (``checkpoint-N``) was saved at."""
    return int(Path(checkpoint).name.rpartition("-")[2]) if checkpoint else 0
