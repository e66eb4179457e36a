"""One fine-tuning run: rows -> examples -> (Q)LoRA training -> adapter + JSON record.

Uses the plain ``transformers.Trainer`` with our own collator: the examples are tokenized and
masked here (see :mod:`.data`), so TRL's ``SFTTrainer`` would add only a second tokenization
pass through ``datasets``.  Data parallelism comes from launching the same command under
``accelerate launch``; each rank loads its 4-bit model onto its own GPU (:func:`.model.load_base`).

Layout of ``out_dir``: ``checkpoints/`` (Trainer checkpoints, for ``resume``), ``adapter/``
(``save_pretrained`` output: ``adapter_config.json`` with ``r`` and the base model, loadable by
peft and by vLLM's LoRA support), ``finetune_record.json``, and ``tiny-base/`` for ``tiny:``.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from planetarium.dataset import load_rows
from planetarium.domains import get_domain
from planetarium.errors import PlanetariumError, require
from planetarium.jsonl import JsonLineError, decode, read_capped
from planetarium.limits import Stopwatch
from planetarium.llm.grade import package_versions
from planetarium.llm.prompts import prompt_template_hash
from planetarium.llm.quiet import checkpointing_arguments, checkpointing_renames_silenced
from planetarium.llm.threads import cap_torch_threads

from .config import FinetuneConfig, TrainingConfig
from .data import (
    CompletionCollator,
    Example,
    drop_longest,
    rows_hash,
    tokenize_rows,
    truncate,
)
from .model import (
    LoopSettings,
    ModelSettings,
    add_lora,
    load_base,
    quantization_used,
    resolve_base,
    train_dtype,
    use_4bit,
)

log = logging.getLogger(__name__)

RECORD_NAME = "finetune_record.json"
ADAPTER_DIR = "adapter"
CHECKPOINT_DIR = "checkpoints"
VERSIONED = ("planetarium", "torch", "transformers", "peft", "accelerate", "bitsandbytes")


@dataclass(frozen=True)
class PreparedData:
    """The examples to train on and what was left out on the way, for the record."""

    examples: list[Example]
    n_rows: int
    dropped_longest: list[str]
    dropped_too_long: list[str]
    n_truncated: int
    data_hash: str

    def summary(self, training: TrainingConfig) -> str:
        """One plain sentence on what happened to the rows, for the log."""
        limit = training.max_seq_length
        kept = len(self.examples)
        return (
            f"training on {kept} of {self.n_rows} rows: dropped the "
            f"{len(self.dropped_longest)} longest (drop_longest_fraction "
            f"{training.drop_longest_fraction:g}) and {len(self.dropped_too_long)} whose prompt "
            f"alone reaches max_seq_length {limit}; {self.n_truncated} of the {kept} were cut "
            f"to {limit} tokens"
        )


def prepare(rows: list[dict[str, Any]], tokenizer: Any, training: TrainingConfig) -> PreparedData:
    """Tokenize, drop the longest fraction, then fit the rest into ``max_seq_length``."""
    domain_pddl = {name: get_domain(name).pddl for name in {row["domain"] for row in rows}}
    examples = tokenize_rows(rows, tokenizer, domain_pddl)
    kept, longest = drop_longest(examples, training.drop_longest_fraction)
    kept, too_long, n_cut = truncate(kept, training.max_seq_length)
    if not kept:
        raise PlanetariumError("no training examples left after filtering")
    kept_ids = {ex.id for ex in kept}
    return PreparedData(
        examples=kept,
        n_rows=len(rows),
        dropped_longest=[ex.id for ex in longest],
        dropped_too_long=[ex.id for ex in too_long],
        n_truncated=n_cut,
        data_hash=rows_hash(row for row in rows if str(row["id"]) in kept_ids),
    )


def loop_arguments(cfg: ModelSettings, t: LoopSettings, out_dir: Path) -> dict[str, Any]:
    """The ``TrainingArguments`` keywords fine-tuning and GRPO share: optimiser, batch, loop,
    checkpoints (under ``out_dir/checkpoints``), precision and device."""
    torch = require("torch", "train")
    dtype = train_dtype(cfg)
    return {
        "output_dir": str(out_dir / CHECKPOINT_DIR),
        "optim": t.optimizer,
        "learning_rate": t.learning_rate,
        "weight_decay": t.weight_decay,
        "per_device_train_batch_size": t.batch_size,
        "gradient_accumulation_steps": t.gradient_accumulation_steps,
        "num_train_epochs": t.epochs,
        "max_steps": t.max_steps,
        "logging_steps": t.logging_steps,
        "save_strategy": "steps",
        "save_steps": t.save_steps,
        "save_total_limit": t.save_total_limit,
        "seed": t.seed,
        **checkpointing_arguments(t.gradient_checkpointing,
                                  require("transformers", "train").TrainingArguments),
        "bf16": dtype == "bfloat16",
        "fp16": dtype == "float16",
        "use_cpu": not torch.cuda.is_available(),  # also what lets torchrun run DDP on CPUs
        "report_to": "none",
        # Fine-tuning's examples are no datasets.Dataset; GRPO's reward reads the extra columns.
        "remove_unused_columns": False,
        "ddp_find_unused_parameters": False,
    }


def training_arguments(cfg: FinetuneConfig, out_dir: Path) -> Any:
    """Map the typed config onto ``transformers.TrainingArguments`` (the Appendix F recipe)."""
    transformers = require("transformers", "train")
    t = cfg.training
    return transformers.TrainingArguments(
        **loop_arguments(cfg, t, out_dir),
        adam_beta1=t.adam_beta1,
        adam_beta2=t.adam_beta2,
        adam_epsilon=t.adam_epsilon,
    )


def make_trainer(
    cfg: FinetuneConfig, model: Any, tokenizer: Any, examples: list[Example], out_dir: Path
) -> Any:
    """A ``transformers.Trainer`` over pre-tokenized examples with answer-only labels."""
    transformers = require("transformers", "train")
    return transformers.Trainer(
        model=model,
        args=training_arguments(cfg, out_dir),
        train_dataset=examples,
        data_collator=CompletionCollator(tokenizer.pad_token_id),
    )


def last_checkpoint(out_dir: Path) -> str | None:
    """The newest Trainer checkpoint under ``out_dir``, if any."""
    trainer_utils = require("transformers.trainer_utils", "train")
    ckpt_dir = out_dir / CHECKPOINT_DIR
    return trainer_utils.get_last_checkpoint(str(ckpt_dir)) if ckpt_dir.is_dir() else None


@dataclass(frozen=True)
class Outcome:
    """A training run's record, and whether this call trained (``False``: it had finished
    before, with these settings, and ``--resume`` left it as it was)."""

    record: dict[str, Any]
    trained: bool


def finished_record(config: dict[str, Any], out_dir: Path,
                    record_name: str = RECORD_NAME) -> dict[str, Any] | None:
    """The record of a run in ``out_dir`` that finished with the settings ``config`` (its
    ``out_dir`` aside: the folder may have moved), else ``None``; shared by ``finetune`` and
    ``rl``.  A record that cannot be read is an error, never taken for an unfinished run."""
    path = out_dir / record_name
    if not path.is_file():
        return None
    try:
        record = decode(read_capped(path))
    except (OSError, JsonLineError) as err:
        raise PlanetariumError(f"{path}: unreadable run record ({err})") from err
    if not isinstance(record, dict) or not isinstance(record.get("config"), dict):
        raise PlanetariumError(f"{path}: unreadable run record (no 'config' object)")
    if not (out_dir / ADAPTER_DIR).is_dir():
        return None
    settings = json.loads(json.dumps(config))  # as the record stores them
    same = all(record["config"].get(key) == value for key, value in settings.items()
               if key != "out_dir")
    return record if same else None


def run(cfg: FinetuneConfig, *, resume: bool = False, overwrite: bool = False) -> Outcome:
    """Train one adapter as configured; returns the record written next to it.

    An output folder an earlier run used is refused before any model loads, unless ``resume``
    (continue from its newest checkpoint; a run that finished with these settings is left as is
    and its record returned) or ``overwrite`` (its files are replaced once the model loaded).
    """
    out_dir = Path(cfg.out_dir)
    if resume and not overwrite and (done := finished_record(cfg.to_dict(), out_dir)) is not None:
        log.info("%s: this run finished with these settings already; nothing to do", out_dir)
        return Outcome(done, trained=False)
    checkpoint = checkpoint_to_resume(out_dir, resume, RECORD_NAME, overwrite=overwrite)
    started = Stopwatch()
    cap_threads(None)
    require("transformers", "train").set_seed(cfg.training.seed)  # LoRA init is random too
    rows = load_rows(cfg.data.source, split=cfg.data.split)
    quantize = use_4bit(cfg)
    base = resolve_base(cfg, out_dir)
    tokenizer, model = load_base(cfg, base, quantize)
    quantization = quantization_used(model)
    log.info("base model loaded with quantization %s", quantization["mode"])
    data = prepare(rows, tokenizer, cfg.training)
    log.info("%s", data.summary(cfg.training))
    with checkpointing_renames_silenced():  # peft reads the renamed property
        model = add_lora(model, cfg.lora, quantized=quantize)
    if overwrite:
        clear_run(out_dir, RECORD_NAME)
    trainer = make_trainer(cfg, model, tokenizer, data.examples, out_dir)
    with checkpointing_renames_silenced():  # trl, peft and the Trainer read it
        result = trainer.train(resume_from_checkpoint=checkpoint)
    record = {
        "config": cfg.to_dict(),
        "base_model": base,
        "quantized_4bit": quantization["mode"] != "none",
        "quantization": quantization,
        "data": {
            "source": cfg.data.source,
            "split": cfg.data.split,
            "rows": data.n_rows,
            "trained": len(data.examples),
            "data_hash": data.data_hash,
            "dropped_longest_ids": data.dropped_longest,
            "dropped_too_long_ids": data.dropped_too_long,
            "truncated": data.n_truncated,
        },
        "prompt_template_hash": prompt_template_hash(),
        "train": {
            "loss": result.training_loss,
            "steps": result.global_step,
            "resumed_from": checkpoint,
            "seconds": round(started.seconds, 2),
            "log_history": trainer.state.log_history,
        },
        "versions": package_versions(VERSIONED),
    }
    save_outputs(trainer, tokenizer, out_dir / RECORD_NAME, record)
    return Outcome(record, trained=True)


def cap_threads(cpu_threads: int | None) -> int | None:
    """On a CPU, use ``cpu_threads`` torch threads, else the shared cap of every CPU path
    (:func:`planetarium.llm.threads.cap_torch_threads`, one share per ``torchrun`` process);
    returns the number in use (``None`` on a GPU).

    More threads than that spin against other processes (the reward's workers, other jobs) and
    the tiny model's small matrices gain nothing from them.
    """
    torch = require("torch", "train")
    if torch.cuda.is_available():
        return None
    if cpu_threads:
        torch.set_num_threads(cpu_threads)
        return cpu_threads
    return cap_torch_threads(torch, processes=int(os.environ.get("WORLD_SIZE", "1")))


def _used(out_dir: Path, record_name: str) -> list[str]:
    """What an earlier run left in ``out_dir`` (checked on the file system: no model needed)."""
    return [name for name in (CHECKPOINT_DIR, ADAPTER_DIR, record_name) if (out_dir / name).exists()]


def checkpoint_to_resume(out_dir: Path, resume: bool, record_name: str, *,
                         overwrite: bool = False) -> str | None:
    """The checkpoint a run in ``out_dir`` starts from, checked before any model is loaded.

    Without ``resume`` or ``overwrite`` a folder that already holds checkpoints, an adapter or a
    record is refused (a second run would mix its files with the first's); with ``resume`` there
    must be a checkpoint to continue from; ``overwrite`` starts over (:func:`clear_run`).
    """
    if resume and overwrite:
        raise PlanetariumError("--resume continues a run and --overwrite replaces it: pick one")
    used = _used(out_dir, record_name)
    if used and not (resume or overwrite):
        raise PlanetariumError(
            f"{out_dir} already holds a run ({', '.join(used)}); pass --resume to continue that "
            "run, --overwrite to start over, or choose another --out")
    checkpoint = last_checkpoint(out_dir) if resume else None
    if resume and not checkpoint:
        raise PlanetariumError(f"--resume: no checkpoint under {out_dir / CHECKPOINT_DIR}")
    return checkpoint


def clear_run(out_dir: Path, record_name: str) -> None:
    """Remove an earlier run's checkpoints, adapter and record (``--overwrite``), nothing else;
    called once the new run's model has loaded, so a run that cannot start keeps the old one."""
    for name in _used(out_dir, record_name):
        path = out_dir / name
        shutil.rmtree(path) if path.is_dir() else path.unlink()


def save_outputs(trainer: Any, tokenizer: Any, record_path: Path, record: dict[str, Any]) -> None:
    """The adapter (with its tokenizer, as ``eval run`` loads it) and the JSON record, written
    once by the main process of a multi-process run."""
    if not trainer.is_world_process_zero():
        return
    adapter_dir = record_path.parent / ADAPTER_DIR
    trainer.model.save_pretrained(adapter_dir)
    tokenizer.save_pretrained(adapter_dir)
    record_path.write_text(json.dumps(record, indent=2), encoding="utf-8")
