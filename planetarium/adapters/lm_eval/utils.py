"""Hooks the task YAML names with ``!function utils.NAME``: lm-eval loads this file by its path,
so it imports Planetarium absolutely and keeps no state but a cache of the dataset settings."""

from __future__ import annotations

import functools
from typing import Any

from planetarium.adapters import common


@functools.cache
def _config(dataset: str | None, split: str | None):
    return common.benchmark_config(dataset, split)


def load_dataset(domain: str | None = None, dataset: str | None = None, split: str | None = None,
                 **_metadata: Any) -> dict[str, Any]:
    """``custom_dataset``: the split's rows of one domain as the task's ``test`` split.  lm-eval
    passes the task's ``metadata`` (``--metadata`` JSON included) and ``dataset_kwargs``."""
    import datasets

    rows = common.load_items(_config(dataset, split), domain)
    return {"test": datasets.Dataset.from_list(rows)}


def doc_to_text(doc: dict[str, Any]) -> str:
    return common.prompt(_config(None, None), doc)


def process_results(doc: dict[str, Any], results: list[str]) -> dict[str, int]:
    """1 or 0 per metric from our grader's verdict on the one generated answer."""
    verdict = common.grade(_config(None, None), doc, results[0])
    return {metric: int(verdict["metrics"][metric] is True) for metric in common.METRICS}
