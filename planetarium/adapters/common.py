"""What both framework adapters share: where the dataset comes from, the prompt, the grade.

The dataset is ``dataset`` when the caller names one (a task argument), else the
``PLANETARIUM_DATASET`` environment variable (a generated folder, its ``rows.jsonl``, a YAML
config generated in memory, or a local copy of the published Parquet files), else the published
Hub id.  The split is the held-out test split unless named.
"""

from __future__ import annotations

import atexit
import os
from typing import Any

from ..benchmarks.grader import ItemGrader
from ..benchmarks.planetarium import BENCHMARK, PlanetariumConfig
from ..dataset.sources import PUBLISHED_ID

DATASET_ENV = "PLANETARIUM_DATASET"
#: The benchmark's own defaults (one source: its config), the held-out test split and its
#: grading time limit per answer.
DEFAULT_SPLIT = PlanetariumConfig.split[0]
DEFAULT_TIMEOUT_S = PlanetariumConfig.timeout_s
#: Metric names, in the order of the stage chain.
METRICS = BENCHMARK.metrics


def benchmark_config(dataset: str | None = None, split: str | None = None,
                     timeout_s: float = DEFAULT_TIMEOUT_S) -> PlanetariumConfig:
    """The Planetarium benchmark's settings for an adapter run (see the module docstring)."""
    from ..config import build

    source = dataset or os.environ.get(DATASET_ENV) or PUBLISHED_ID
    return build(PlanetariumConfig, {"name": "planetarium", "dataset": source,
                                     "split": [split or DEFAULT_SPLIT], "timeout_s": timeout_s},
                 source="adapter")


def load_items(config: PlanetariumConfig, domain: str | None = None) -> list[dict[str, Any]]:
    """The selected rows, optionally of one domain only."""
    rows = BENCHMARK.load_items(config)
    return [row for row in rows if domain is None or row["domain"] == domain]


def prompt(config: PlanetariumConfig, row: dict[str, Any]) -> str:
    """The pinned prompt: the one user turn of the benchmark's chat."""
    [turn] = BENCHMARK.messages(config, row)
    return turn["content"]


def grade(config: PlanetariumConfig, row: dict[str, Any], answer: str) -> dict[str, Any]:
    """Our grader's verdict on one answer, in the shared result schema: the benchmark's own
    grading, in a worker that is killed past the answer's deadline and kept for the next
    answer (so each ground truth is read once per session)."""
    grader = _GRADERS.get(config)
    if grader is None:
        grader = _GRADERS[config] = ItemGrader(BENCHMARK, config, workers=1)
    return grader.grade(row, answer).to_dict()


#: One grader per configuration, kept until :func:`close_graders` (at the latest, at exit).
_GRADERS: dict[PlanetariumConfig, ItemGrader[PlanetariumConfig]] = {}


@atexit.register
def close_graders() -> None:
    """Stop the graders' worker processes (a harness that is done with grading may call it)."""
    while _GRADERS:
        _GRADERS.popitem()[1].close()
