"""verl's custom reward function form: ``compute_score(data_source, solution_str, ground_truth,
extra_info=None) -> float``.

verl's reward manager imports the function named by ``custom_reward_function.path`` / ``.name``
and calls it once per response, with the decoded response and the row's
``reward_model.ground_truth``.  One :class:`PlanetariumReward` per process serves every call, so
its worker pool and ground-truth cache outlive single calls.  ``extra_info`` may carry
``is_placeholder`` and ``anchored_objects`` from the dataset row.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from typing import Any

from .function import PlanetariumReward
from .inputs import anchor_names, placeholder_flag

_shared: PlanetariumReward | None = None
_shared_lock = threading.Lock()


def _fresh_lock_after_fork() -> None:
    """A child forked while a thread built the shared reward must not inherit the held lock."""
    global _shared_lock
    _shared_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_lock_after_fork)


def shared_reward() -> PlanetariumReward:
    """The process's reward for :func:`compute_score` (default options, built on first use)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = PlanetariumReward(anchors_column="anchored_objects",
                                        name="planetarium_compute_score")
        return _shared


def compute_score(data_source: Any, solution_str: Any, ground_truth: Any,
                  extra_info: Mapping[str, Any] | None = None, **_: Any) -> float:
    """The ``correct`` reward (1.0 / 0.0) of ``solution_str`` against ``ground_truth``.

    ``data_source`` is not needed (every row is graded the same way); further keyword arguments
    that newer verl versions pass are accepted and ignored.  ``extra_info`` values come as
    pandas gives them from parquet: ``anchored_objects`` may be a NumPy array, ``is_placeholder``
    a NumPy boolean or the integer 0 or 1; any other kind of value raises
    :class:`~planetarium.reward.RewardConfigError` (a dataset bug, never a silent zero).
    """
    extra = extra_info if isinstance(extra_info, Mapping) else {}
    flag = placeholder_flag(extra.get("is_placeholder"), "extra_info['is_placeholder']")
    anchors = anchor_names(extra.get("anchored_objects"), "extra_info['anchored_objects']")
    columns = {"problem_pddl": [ground_truth], "is_placeholder": [flag],
               "anchored_objects": [anchors]}
    return shared_reward()(completions=[solution_str], **columns)[0]
