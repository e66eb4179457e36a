"""verl's custom reward function form: ``compute_score(data_source, solution_str, ground_truth,
extra_info=None) -> float``.

verl's reward manager imports the function named by ``custom_reward_function.path`` / ``.name``
and calls it once per response, with the decoded response, the row's ``data_source`` and its
``reward_model.ground_truth``.  ``data_source`` picks the registered benchmark of that name
(``acpbench``, ``arb``, a plug-in's); any other value grades Planetarium's PDDL, as before
rewards served every benchmark.  For Planetarium ``ground_truth`` is the problem PDDL and
``extra_info`` may carry ``is_placeholder`` and ``anchored_objects``; for another benchmark it
is the benchmark's published record (one line of its data) as JSON text or a mapping.  One
:class:`PlanetariumReward` per benchmark and process serves every call, so its worker loop and
ground-truth memo outlive single calls.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from typing import Any

from ..benchmarks import available_benchmarks
from .function import COLUMNS_BENCHMARK, PlanetariumReward
from .inputs import anchor_names, placeholder_flag

_shared: dict[str, PlanetariumReward] = {}
_shared_lock = threading.Lock()


def _fresh_lock_after_fork() -> None:
    """A child forked while a thread built a shared reward must not inherit the held lock."""
    global _shared_lock
    _shared_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_lock_after_fork)


def benchmark_of(data_source: Any) -> str:
    """The registered benchmark ``data_source`` names, else Planetarium."""
    if isinstance(data_source, str) and data_source != COLUMNS_BENCHMARK \
            and data_source in available_benchmarks():
        return data_source
    return COLUMNS_BENCHMARK


def shared_reward(benchmark: str = COLUMNS_BENCHMARK) -> PlanetariumReward:
    """The process's reward of ``benchmark`` for :func:`compute_score` (default options, built
    on first use)."""
    with _shared_lock:
        if benchmark not in _shared:
            name = "planetarium_compute_score" if benchmark == COLUMNS_BENCHMARK \
                else f"{benchmark}_compute_score"
            _shared[benchmark] = PlanetariumReward(benchmark=benchmark,
                                                   anchors_column="anchored_objects", name=name)
        return _shared[benchmark]


def compute_score(data_source: Any, solution_str: Any, ground_truth: Any,
                  extra_info: Mapping[str, Any] | None = None, **_: Any) -> float:
    """The ``correct`` reward (1.0 / 0.0) of ``solution_str`` against ``ground_truth``: the
    score the benchmark ``data_source`` names gives it (see the module docstring).

    Further keyword arguments that newer verl versions pass are accepted and ignored.
    Planetarium's ``extra_info`` values come as pandas gives them from parquet:
    ``anchored_objects`` may be a NumPy array, ``is_placeholder`` a NumPy boolean or the
    integer 0 or 1; any other kind of value raises
    :class:`~planetarium.reward.RewardConfigError` (a dataset bug, never a silent zero).
    """
    benchmark = benchmark_of(data_source)
    if benchmark != COLUMNS_BENCHMARK:
        return shared_reward(benchmark)(completions=[solution_str], item=[ground_truth])[0]
    extra = extra_info if isinstance(extra_info, Mapping) else {}
    flag = placeholder_flag(extra.get("is_placeholder"), "extra_info['is_placeholder']")
    anchors = anchor_names(extra.get("anchored_objects"), "extra_info['anchored_objects']")
    columns = {"problem_pddl": [ground_truth], "is_placeholder": [flag],
               "anchored_objects": [anchors]}
    return shared_reward()(completions=[solution_str], **columns)[0]
