"""Benchmarks: what the evaluation loop asks a model, and how the answers are graded.

A :class:`~.base.Benchmark` supplies items, the chat for one item, a grader that returns one
:class:`~.base.ItemResult` per answer (in the shared :class:`~planetarium.grading.Status`
vocabulary) and its report axes; what reports, the viewer and the harness adapters show of it
is asked of its presentation hooks (:mod:`.hooks`, defaults from the shared result schema).
:mod:`.planetarium` (the paper's task) and :mod:`.acpbench`
(ACPBench / ACPBench Hard) are registered the way plug-ins are (:mod:`.registry`).  This layer
sits above the dataset and ACP packages and below the inference stack (:mod:`planetarium.llm`):
nothing here loads a model, and importing it loads nothing heavy.
"""

from __future__ import annotations

from .base import Benchmark, BenchmarkConfig, ItemResult, Messages, Row
from .registry import (
    ENTRY_POINT_GROUP,
    available_benchmarks,
    get_benchmark,
    register_benchmark,
    unregister_benchmark,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "Benchmark",
    "BenchmarkConfig",
    "ItemResult",
    "Messages",
    "Row",
    "available_benchmarks",
    "get_benchmark",
    "register_benchmark",
    "unregister_benchmark",
]
