"""The evaluation loop: select a benchmark's items, prompt the model, append answers as they come.

The loop knows no benchmark: the one named in the config supplies the items, the chat of each
item and, later, the grader (:mod:`planetarium.benchmarks`).  A run directory holds everything a
later step needs, so grading and reporting never go back to the dataset or the model:

- ``run.json``: the config, its hash, the benchmark, the item and prompt hashes;
- ``items.jsonl``: the selected items (a snapshot, so the item hash is checkable);
- ``completions.jsonl``: one line per answered item, appended batch by batch.

A rerun with the same config skips finished items; a rerun with a different config, item
selection or prompt is refused instead of silently mixing incomparable answers.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..benchmarks import Benchmark, get_benchmark
from ..benchmarks.planetarium.prompts import prompt_hash
from ..config import ConfigError, output_shaping
from ..limits import Stopwatch, unix_time
from .backends.base import ids_hash
from .config import EvalConfig, upgrade_record
from .options import ModelConfig
from .store import CompletionLog, RunDirError, read_json, write_json, write_jsonl

MANIFEST = "run.json"
ITEMS = "items.jsonl"
COMPLETIONS = "completions.jsonl"
TINY_MODEL_DIR = "tiny-model"


def default_run_dir(config: EvalConfig) -> Path:
    return Path("eval") / "runs" / f"{config.name}-{config.config_hash()}"


def dataset_hash(rows: list[dict[str, Any]]) -> str:
    """Short SHA-256 over the selected rows' canonical JSON."""
    digest = hashlib.sha256()
    for row in rows:
        digest.update(json.dumps(row, sort_keys=True, ensure_ascii=False, default=str).encode())
        digest.update(b"\n")
    return digest.hexdigest()[:16]


def _manifest(config: EvalConfig, benchmark: Benchmark, rows: list[dict[str, Any]]) -> dict:
    return {
        "name": config.name,
        "benchmark": benchmark.name,
        "config": config.to_dict(),
        "config_hash": config.config_hash(),
        "dataset_hash": dataset_hash(rows),
        "prompt_template_hash": benchmark.prompt_fingerprint(config.benchmark),
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
    return upgrade_record(manifest)


#: What makes a run directory hold this very run.
_IDENTITY = ("config_hash", "dataset_hash", "prompt_template_hash")


def _setting_changes(old: dict[str, Any], config: EvalConfig) -> str:
    """``section.key: old -> new`` for each output-shaping setting that differs from the stored
    run (the settings :meth:`EvalConfig.config_hash` covers)."""
    changed = []
    for section in ("model", "benchmark"):
        stored = old.get(section)
        if not isinstance(stored, dict):
            stored = {}
        new = json.loads(json.dumps(output_shaping(getattr(config, section)), default=list))
        changed += [f"{section}.{key}: {stored.get(key)!r} -> {value!r}"
                    for key, value in sorted(new.items()) if stored.get(key) != value]
    if old.get("name") != config.name:
        changed.insert(0, f"name: {old.get('name')!r} -> {config.name!r}")
    return "; ".join(changed) or "settings of an older version"


def prepare_run_dir(run_dir: Path, config: EvalConfig, benchmark: Benchmark,
                    rows: list[dict[str, Any]]) -> dict:
    """Create the run directory, or check that an existing one holds this very run."""
    manifest = _manifest(config, benchmark, rows)
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


def resolve_model(options: ModelConfig, run_dir: Path) -> str:
    """``tiny:`` or ``tiny:SEED`` builds the tiny local model into the run directory once."""
    from .tiny import resolve_model_name

    return resolve_model_name(options.model, run_dir / TINY_MODEL_DIR)


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

    check_inputs(config.model)  # before any directory is written or model built
    run_dir = Path(run_dir) if run_dir is not None else default_run_dir(config)
    benchmark = get_benchmark(config.benchmark.name)
    rows = benchmark.items(config.benchmark)
    if not rows:
        raise ConfigError(f"no {benchmark.name} items in {config.benchmark.dataset} for split "
                          f"{list(config.benchmark.split)}", key="benchmark")
    new_run = not (run_dir / MANIFEST).exists()
    new_dir = not run_dir.exists()
    manifest = prepare_run_dir(run_dir, config, benchmark, rows)
    with CompletionLog(run_dir / COMPLETIONS) as log:
        done = log.finished_ids()
        todo = [row for row in rows if str(row["id"]) not in done]
        summary = {"run_dir": str(run_dir), "items": len(rows), "skipped": len(rows) - len(todo)}
        if not todo:
            return {**summary, "generated": 0, "errors": 0}
        try:
            backend = make_backend(config.model, resolve_model(config.model, run_dir))
        except Exception:
            if new_run:  # nothing answered: leave nothing that would block the corrected rerun
                _forget_new_run(run_dir, remove_dir=new_dir)
            raise
        errors = tokens = 0
        started = Stopwatch()
        bar = tqdm(total=len(rows), initial=len(rows) - len(todo), unit="item",
                   desc=f"answering ({config.name})")
        try:
            for batch in _batches(todo, config.model.batch_size):
                conversations = [benchmark.messages(config.benchmark, row) for row in batch]
                batch_watch = Stopwatch()
                completions = backend.generate(conversations)
                batch_s = batch_watch.seconds
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
                bar.set_postfix(tok_s=f"{tokens / started.seconds:.1f}")
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
        "model": config.model.model,
        "adapter": getattr(config.model, "adapter", None),
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
        "timings": {"latency_s": completion.latency_s, "batch_s": batch_s, "at": unix_time()},
    }
    if completion.error is not None:
        record["error"] = completion.error
    return record
