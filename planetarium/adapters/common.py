"""What both framework adapters share: which benchmark, its settings, its items, the prompt, the
grade.

Any registered benchmark runs in both frameworks.  A run names the benchmark (lm-eval: the task;
Inspect: ``-T benchmark=NAME``) and may set any key of that benchmark's ``benchmark:`` config
(lm-eval: ``--metadata '{"KEY": VALUE}'``; Inspect: ``-T KEY=VALUE``).  The dataset is the one
given, else the ``PLANETARIUM_DATASET`` environment variable (for Planetarium: a generated
folder, its ``rows.jsonl``, a YAML config generated in memory, or a local copy of the published
Parquet files), else the benchmark's published dataset
(:attr:`~planetarium.benchmarks.Benchmark.published_dataset`).  Whatever stops a run before it
starts — no dataset, a bad setting, a dataset out of reach offline, a missing path, a selection
with no items, anything :meth:`~planetarium.benchmarks.Benchmark.load_items` raises — is an
:class:`AdapterError` whose one line names the cause and what to pass.  A relative dataset path
is read against the working directory the run was started in (``base``), even where the
framework has moved elsewhere by the time the task is built (Inspect's file form).

Every answer is graded through :func:`grade`, the adapters' only call into a benchmark's
grader; what the frameworks report per answer is the benchmark's metric chain as 1 or 0
(:func:`scores`), the same values ``eval grade`` counts.
"""

from __future__ import annotations

import atexit
import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..benchmarks import Benchmark, BenchmarkConfig, get_benchmark
from ..benchmarks.grader import ItemGrader
from ..config import ConfigError, build
from ..errors import PlanetariumError
from ..presentation.tables import chain_passed

DATASET_ENV = "PLANETARIUM_DATASET"
Row = dict[str, Any]


class AdapterError(PlanetariumError, ValueError):
    """A harness run cannot start as asked; the message is one line saying what to pass."""


def benchmark(name: str) -> Benchmark:
    try:
        return get_benchmark(name)
    except LookupError as err:
        raise AdapterError(str(err)) from None


def benchmark_config(bench: Benchmark, settings: Mapping[str, Any], how: str,
                     base: Path | None = None, strict: bool = False) -> BenchmarkConfig:
    """The benchmark's settings for an adapter run: the keys of ``settings`` that name fields of
    its config (others, such as the model's arguments lm-eval hands over too, are not ours),
    the dataset as the module docstring says (a relative path that exists under ``base``, the
    run's working directory by default, made absolute: a framework that changes directory
    later still finds it).  ``how``: how this framework passes a setting, with ``KEY`` and
    ``VALUE`` to fill in (for the error messages).  ``strict``: every key of ``settings`` must be
    a setting (where the framework hands over only the user's: Inspect's ``-T``)."""
    fields = {f.name for f in dataclasses.fields(bench.config_type)} - {"name"}
    unknown = sorted(key for key in settings if key not in fields)
    if strict and unknown:
        raise AdapterError(f"{bench.name}: no setting {', '.join(map(repr, unknown))}: its "
                           f"settings are {', '.join(sorted(fields))} (pass them with "
                           f"{_how(how, 'KEY', 'VALUE')})")
    given = {key: value for key, value in settings.items() if key in fields and value is not None}
    dataset = given.pop("dataset", None) or os.environ.get(DATASET_ENV) or bench.published_dataset
    if not dataset:
        raise AdapterError(f"{bench.name}: no dataset given: pass "
                           f"{_how(how, 'dataset', 'PATH')} or set {DATASET_ENV}=PATH")
    dataset = absolute(str(dataset), base or Path.cwd())
    if isinstance(given.get("split"), str):  # one selector, as a task argument writes it
        given["split"] = [given["split"]]
    try:
        return build(bench.config_type, {"name": bench.name, "dataset": dataset, **given},
                     source=bench.name)
    except ConfigError as err:
        key = err.key or "settings"
        raise AdapterError(f"{bench.name}: {key}: {err.message} (set it with "
                           f"{_how(how, key, 'VALUE')})") from None


def _how(how: str, key: str, value: str) -> str:
    return how.replace("KEY", key).replace("VALUE", value)


def absolute(dataset: str, base: Path) -> str:
    """``dataset`` as an absolute path when it is a relative path that exists under ``base``;
    anything else (an absolute path, a Hub id, a path that is not there) as it is."""
    path = Path(dataset).expanduser()
    if path.is_absolute() or not (base / path).exists():
        return str(path) if path.is_absolute() else dataset
    return os.path.abspath(base / path)  # links kept: the message names the path as given


def load_items(bench: Benchmark, config: BenchmarkConfig, how: str,
               subset: Mapping[str, str] | None = None) -> list[Row]:
    """The selected items, only those whose fields have the values ``subset`` names; none
    selected is an error too (an empty task would fail later inside the framework, far from
    the cause)."""
    try:
        rows = bench.load_items(config)
    except Exception as err:  # any loader's failure is the run's one line, not a traceback
        raise AdapterError(f"{bench.name}: dataset {config.dataset}: {_cause(err)} (pass "
                           f"another with {_how(how, 'dataset', 'PATH')})") from None
    chosen = [row for row in rows
              if all(str(row.get(key)) == value for key, value in (subset or {}).items())]
    if not chosen:
        raise AdapterError(nothing_selected(bench, config, how, subset, len(rows)))
    return chosen


def _cause(err: Exception) -> str:
    """One line for a loader's exception: our own errors say it all, others need their type."""
    if isinstance(err, ConfigError):
        return err.message
    text = str(err).strip().splitlines()
    if isinstance(err, PlanetariumError) and text:
        return text[0]
    return f"{type(err).__name__}: {text[0]}" if text else type(err).__name__


def nothing_selected(bench: Benchmark, config: BenchmarkConfig, how: str,
                     subset: Mapping[str, str] | None, loaded: int) -> str:
    """Why a selection is empty, and what to pass: the split names the dataset holds (when the
    benchmark can list them), else the settings that narrowed it."""
    split = "+".join(str(s) for s in config.split)
    where = f"{bench.name}: no items in split `{split}` of dataset {config.dataset}"
    if loaded and subset:
        return (f"{where} with {', '.join(f'{k}={v}' for k, v in subset.items())} "
                f"({loaded} in its other subsets)")
    try:
        names = [name for name in bench.split_names(config) if name not in config.split]
    except Exception:  # the names only help the message; a failure must not replace it
        names = []
    if names:
        has = ", ".join(f"`{name}`" for name in names)
        return f"{where}: it has {has} (pass {_how(how, 'split', names[0])})"
    narrowed = sorted(f.name for f in dataclasses.fields(config) if f.name != "split"
                      and (isinstance(getattr(config, f.name), tuple) and getattr(config, f.name)
                           or f.name == "limit" and config.limit))
    return (where
            + (f" with {', '.join(narrowed)} as set" if narrowed else "")
            + f" (pass another {_how(how, 'split', 'NAME')}, or another dataset)")


def messages(bench: Benchmark, config: BenchmarkConfig, row: Row) -> list[dict[str, str]]:
    """The chat the model answers: the benchmark's, exactly as ``eval run`` asks it."""
    return bench.messages(config, row)


def grade(bench: Benchmark, config: BenchmarkConfig, row: Row, answer: str) -> Row:
    """The benchmark's verdict on one answer, in the shared result schema: its own per-item
    grading, in a worker that is killed past the answer's deadline and kept for the next answer
    (so each ground truth is read once per session)."""
    key = (bench.name, config)
    grader = _GRADERS.get(key)
    if grader is None:
        grader = _GRADERS[key] = ItemGrader(bench, config, workers=1)
    return grader.grade(row, answer).to_dict()


#: One grader per benchmark and configuration, kept until :func:`close_graders` (at the latest,
#: at exit).
_GRADERS: dict[tuple[str, BenchmarkConfig], ItemGrader[Any]] = {}


@atexit.register
def close_graders() -> None:
    """Stop the graders' worker processes (a harness that is done with grading may call it)."""
    while _GRADERS:
        _GRADERS.popitem()[1].close()


def scores(bench: Benchmark, verdict: Row) -> dict[str, int]:
    """1 or 0 per metric of the chain (an item passes a metric when it passes every one before
    it too), as ``eval grade`` counts them."""
    return {metric: int(chain_passed(verdict["metrics"], bench.metrics, metric))
            for metric in bench.metrics}
