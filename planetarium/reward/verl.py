"""verl's custom reward function form: ``compute_score(data_source, solution_str, ground_truth,
extra_info=None) -> float``.

verl's reward manager imports the function named by ``custom_reward_function.path`` / ``.name``
and calls it once per response, with the decoded response and the row's
``reward_model.ground_truth``.  One :class:`PlanetariumReward` per process serves every call, so
its worker pool and ground-truth cache outlive single calls.  ``extra_info`` may carry
``is_placeholder`` and ``anchored_objects`` from the dataset row.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from .function import PlanetariumReward

_shared: PlanetariumReward | None = None
_shared_lock = threading.Lock()


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
    that newer verl versions pass are accepted and ignored.
    """
    extra = extra_info if isinstance(extra_info, Mapping) else {}
    columns = {"problem_pddl": [ground_truth],
               "is_placeholder": [extra.get("is_placeholder", False)],
               "anchored_objects": [extra.get("anchored_objects") or ()]}
    return shared_reward()(completions=[solution_str], **columns)[0]
