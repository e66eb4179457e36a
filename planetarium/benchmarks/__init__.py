"""Benchmarks: what the evaluation loop asks a model, and how the answers are graded.

A :class:`~.base.Benchmark` supplies items, the chat for one item, a grader that returns the
:class:`~.base.ItemResult` of one answer under its deadline (in the shared
:class:`~planetarium.grading.Status` vocabulary) and its report axes; :mod:`.grader` runs it on
the one item loop (:func:`~.grader.grade_items`, :class:`~.grader.ItemGrader`).  What reports,
the viewer and the harness adapters show of it is asked of its presentation hooks
(:mod:`.hooks`, defaults from the shared result schema).  :mod:`.planetarium` (the paper's
task), :mod:`.acpbench` (ACPBench / ACPBench Hard) and :mod:`.arb` (ActionReasoningBench) are
registered the way plug-ins are (:mod:`.registry`).  This layer
sits above the dataset and ACP packages and below the inference stack (:mod:`planetarium.llm`):
nothing here loads a model, and importing it loads nothing heavy.
"""

from __future__ import annotations

from .base import Benchmark, BenchmarkConfig, ConfigT, ItemResult, ItemsError, Messages, Row
from .grader import ItemGrader, grade_items
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
    "ConfigT",
    "ItemGrader",
    "ItemResult",
    "ItemsError",
    "Messages",
    "Row",
    "available_benchmarks",
    "get_benchmark",
    "grade_items",
    "register_benchmark",
    "unregister_benchmark",
]
