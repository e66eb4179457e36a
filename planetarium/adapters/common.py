"""What both framework adapters share: which benchmark, its settings, its items, the prompt, the
grade.

Any registered benchmark runs in both frameworks.  A run names the benchmark (lm-eval: the task;
Inspect: ``-T benchmark=NAME``) and may set any key of that benchmark's ``benchmark:`` config
(lm-eval: ``--metadata '{"KEY": VALUE}'``; Inspect: ``-T KEY=VALUE``).  The dataset is the one
given, else the ``PLANETARIUM_DATASET`` environment variable (for Planetarium: a generated
folder, its ``rows.jsonl``, a YAML config generated in memory, or a local copy of the published
Parquet files), else the benchmark's published dataset
(:attr:`~planetarium.benchmarks.Benchmark.published_dataset`).  Whatever stops a run before it
starts — no dataset, a bad setting, a dataset out of reach offline — is an :class:`AdapterError`
whose one line says what to pass.

Every answer is graded through :func:`grade`, the adapters' only call into a benchmark's
grader; what the frameworks report per answer is the benchmark's metric chain as 1 or 0
(:func:`scores`), the same values ``eval grade`` counts.
"""

from __future__ import annotations

import atexit
import dataclasses
import os
from collections.abc import Mapping
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


def benchmark_config(bench: Benchmark, settings: Mapping[str, Any], how: str) -> BenchmarkConfig:
    """The benchmark's settings for an adapter run: the keys of ``settings`` that name fields of
    its config (others, such as the model's arguments lm-eval hands over too, are not ours),
    the dataset as the module docstring says.  ``how``: how this framework passes a setting,
    with ``KEY`` and ``VALUE`` to fill in (for the error messages)."""
    fields = {f.name for f in dataclasses.fields(bench.config_type)} - {"name"}
    given = {key: value for key, value in settings.items() if key in fields and value is not None}
    dataset = given.pop("dataset", None) or os.environ.get(DATASET_ENV) or bench.published_dataset
    if not dataset:
        raise AdapterError(f"{bench.name}: no dataset given: pass "
                           f"{_how(how, 'dataset', 'PATH')} or set {DATASET_ENV}=PATH")
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


def load_items(bench: Benchmark, config: BenchmarkConfig, how: str,
               subset: Mapping[str, str] | None = None) -> list[Row]:
    """The selected items, only those whose fields have the values ``subset`` names."""
    try:
        rows = bench.load_items(config)
    except PlanetariumError as err:  # ConfigError, DatasetSourceError (offline), AcpDataError
        message = err.message if isinstance(err, ConfigError) else str(err)
        raise AdapterError(f"{bench.name}: dataset {config.dataset}: {message} (pass another "
                           f"with {_how(how, 'dataset', 'PATH')})") from None
    return [row for row in rows
            if all(str(row.get(key)) == value for key, value in (subset or {}).items())]


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
