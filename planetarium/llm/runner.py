"""The evaluation loop: select items, prompt the model, append completions as they arrive.

A run directory holds everything a later step needs, so grading and reporting never go back to
the dataset or the model:

- ``run.json``: the config, its hash, the dataset and prompt-template hashes;
- ``items.jsonl``: the selected dataset rows (a snapshot, so the dataset hash is checkable);
- ``completions.jsonl``: one line per answered item, appended batch by batch.

A rerun with the same config skips finished items; a rerun with a different config, dataset
selection or prompt template is refused instead of silently mixing incomparable answers.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..config import ConfigError, output_shaping
from .backends.base import ids_hash
from .config import EvalConfig
from .prompts import build_messages, prompt_hash, prompt_template_hash
from .store import CompletionLog, RunDirError, read_json, write_json, write_jsonl

MANIFEST = "run.json"
ITEMS = "items.jsonl"
COMPLETIONS = "completions.jsonl"
TINY_MODEL_DIR = "tiny-model"


def default_run_dir(config: EvalConfig) -> Path:
    return Path("eval") / "runs" / f"{config.name}-{config.config_hash()}"


def select_rows(config: EvalConfig) -> list[dict[str, Any]]:
    """The dataset rows of the configured splits, in dataset order, sampled and limited if asked."""
    from ..dataset import load_rows

    rows: dict[str, dict[str, Any]] = {}
    for split in config.splits:
        try:
            loaded = load_rows(config.dataset, split=split)
        except FileNotFoundError as err:
            raise ConfigError(
                f"{config.dataset}: {err.strerror or err} "
                "(write it with 'planetarium data generate --out DIR')", key="dataset"
            ) from err
        except OSError as err:  # DatasetSourceError included: unreadable, not a dataset, offline
            raise ConfigError(str(err), key="dataset") from err
        for row in loaded:
            rows.setdefault(str(row["id"]), row)
    selected = list(rows.values())
    if config.sample_per_domain is not None:
        selected = _sample_per_domain(selected, config.sample_per_domain, config.seed)
    return selected[: config.limit] if config.limit is not None else selected


def _sample_per_domain(rows: list[dict[str, Any]], k: int, seed: int) -> list[dict[str, Any]]:
    """At most ``k`` rows per domain, as the paper did for o1-mini (250 per domain)."""
    rng = random.Random(seed)
    by_domain: dict[str, list[int]] = {}
    for index, row in enumerate(rows):
        by_domain.setdefault(row["domain"], []).append(index)
    picked = [
        i for indices in by_domain.values() for i in rng.sample(indices, min(k, len(indices)))
    ]
    return [rows[i] for i in sorted(picked)]


def dataset_hash(rows: list[dict[str, Any]]) -> str:
    """Short SHA-256 over the selected rows' canonical JSON."""
    digest = hashlib.sha256()
    for row in rows:
        digest.update(json.dumps(row, sort_keys=True, ensure_ascii=False, default=str).encode())
        digest.update(b"\n")
    return digest.hexdigest()[:16]


def _manifest(config: EvalConfig, rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "name": config.name,
        "config": config.to_dict(),
        "config_hash": config.config_hash(),
        "dataset_hash": dataset_hash(rows),
        "prompt_template_hash": prompt_template_hash(),
        "n_items": len(rows),
    }


def read_manifest(run_dir: str | Path) -> dict[str, Any]:
    """The run's ``run.json``; its absence means the directory is not a run."""
    path = Path(run_dir) / MANIFEST
    if not path.is_file():
        raise RunDirError(f"{run_dir}: no {MANIFEST}; is this a run directory?")
    manifest = read_json(path, ("config", *_IDENTITY))
    if not isinstance(manifest["config"], dict):
        raise RunDirError(f"{path}: damaged: 'config' is not an object")
    return manifest


#: What makes a run directory hold this very run.
_IDENTITY = ("config_hash", "dataset_hash", "prompt_template_hash")


def _setting_changes(old: dict[str, Any], config: EvalConfig) -> str:
    """``key: old -> new`` for each output-shaping setting that differs from the stored run."""
    new = json.loads(json.dumps(output_shaping(config), default=list))  # as stored in run.json
    changed = [f"{key}: {old.get(key)!r} -> {value!r}" for key, value in sorted(new.items())
               if old.get(key) != value]
    return "; ".join(changed) or "settings of an older version"


def prepare_run_dir(run_dir: Path, config: EvalConfig, rows: list[dict[str, Any]]) -> dict:
    """Create the run directory, or check that an existing one holds this very run."""
    manifest = _manifest(config, rows)
    path = run_dir / MANIFEST
    if path.exists():
        old = read_manifest(run_dir)
        if old["config_hash"] != manifest["config_hash"]:
            raise RunDirError(f"{run_dir}: holds a run with other settings "
                              f"({_setting_changes(old['config'], config)}); choose another "
                              "--out to start a new run")
        for key in _IDENTITY:
            if old.get(key) != manifest[key]:
                raise RunDirError(
                    f"{run_dir}: holds a run with {key} {old.get(key)}, not {manifest[key]}; "
                    "choose another --out to start a new run"
                )
        return old
    run_dir.mkdir(parents=True, exist_ok=True)
    write_jsonl(run_dir / ITEMS, rows)
    write_json(path, manifest)
    return manifest


def resolve_model(config: EvalConfig, run_dir: Path) -> str:
    """``tiny:`` or ``tiny:SEED`` builds the tiny local model into the run directory once."""
    from .tiny import resolve_model_name

    return resolve_model_name(config.model, run_dir / TINY_MODEL_DIR)


@functools.cache
def _domain_pddl(name: str) -> str:
    from ..domains import get_domain

    return get_domain(name).pddl


def _batches(rows: list[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


def _forget_new_run(run_dir: Path, *, remove_dir: bool) -> None:
    """Remove what :func:`prepare_run_dir` and the completion log wrote for a run whose model
    never loaded (the folder too, if this run created it)."""
    for name in (MANIFEST, ITEMS, COMPLETIONS, ".lock"):
        (run_dir / name).unlink(missing_ok=True)
    if remove_dir and not any(run_dir.iterdir()):
        run_dir.rmdir()


class RunInterrupted(RunDirError):
    """Ctrl-C during a run: the answers so far are saved, the message says how many."""


def run_eval(config: EvalConfig, run_dir: str | Path | None = None) -> dict[str, Any]:
    """Answer every selected item not yet in ``completions.jsonl``; return a short summary."""
    from tqdm import tqdm

    from .availability import check_inputs
    from .backends import BackendError, make_backend

    check_inputs(config)  # before any directory is written or model built
    run_dir = Path(run_dir) if run_dir is not None else default_run_dir(config)
    rows = select_rows(config)
    new_run = not (run_dir / MANIFEST).exists()
    new_dir = not run_dir.exists()
    manifest = prepare_run_dir(run_dir, config, rows)
    with CompletionLog(run_dir / COMPLETIONS) as log:
        done = log.finished_ids()
        todo = [row for row in rows if str(row["id"]) not in done]
        summary = {"run_dir": str(run_dir), "items": len(rows), "skipped": len(rows) - len(todo)}
        if not todo:
            return {**summary, "generated": 0, "errors": 0}
        try:
            backend = make_backend(config, resolve_model(config, run_dir))
        except Exception:
            if new_run:  # nothing answered: leave nothing that would block the corrected rerun
                _forget_new_run(run_dir, remove_dir=new_dir)
            raise
        errors = tokens = 0
        started = time.perf_counter()
        bar = tqdm(total=len(rows), initial=len(rows) - len(todo), unit="item",
                   desc=f"answering ({config.name})")
        try:
            for batch in _batches(todo, config.batch_size):
                conversations = [
                    build_messages(row["natural_language"], _domain_pddl(row["domain"]))
                    for row in batch
                ]
                batch_start = time.perf_counter()
                completions = backend.generate(conversations)
                batch_s = time.perf_counter() - batch_start
                if len(completions) != len(batch):
                    raise BackendError(f"{len(batch)} prompts got {len(completions)} answers")
                log.append(
                    [
                        _record(row, messages, completion, manifest, config, batch_s)
                        for row, messages, completion in zip(batch, conversations, completions, strict=True)
                    ]
                )
                errors += sum(completion.error is not None for completion in completions)
                tokens += sum(completion.completion_tokens or 0 for completion in completions)
                bar.update(len(batch))
                bar.set_postfix(tok_s=f"{tokens / (time.perf_counter() - started):.1f}")
        except KeyboardInterrupt:
            raise RunInterrupted(f"interrupted: {len(log.finished_ids())} of {len(rows)} answers saved "
                                 f"in {run_dir}; rerun the same command to resume") from None
        finally:
            bar.close()
        backend.close()
    return {**summary, "generated": len(todo), "errors": errors}


def _record(
    row: dict[str, Any],
    messages: list[dict[str, str]],
    completion: Any,
    manifest: dict[str, Any],
    config: EvalConfig,
    batch_s: float,
) -> dict[str, Any]:
    """One completions.jsonl line: enough to audit the answer without the run's config."""
    record = {
        "id": str(row["id"]),
        "model": config.model,
        "adapter": config.adapter,
        "config_hash": manifest["config_hash"],
        "prompt_hash": prompt_hash(messages),
        "output": completion.text,
        "finish_reason": completion.finish_reason,
        "prompt_tokens": completion.prompt_tokens,
        "prompt_ids_hash": completion.prompt_ids_hash,
        "completion_tokens": completion.completion_tokens,
        "completion_ids_hash": (
            ids_hash(completion.token_ids) if completion.token_ids is not None else None
        ),
        "timings": {"latency_s": completion.latency_s, "batch_s": batch_s, "at": time.time()},
    }
    if completion.error is not None:
        record["error"] = completion.error
    return record
