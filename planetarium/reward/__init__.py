"""Planetarium as a verifiable reward for reinforcement learning (TRL, verl).

``PlanetariumReward`` is a reward function in TRL's form, backed by a persistent worker pool with a
hard per-item deadline and a ground-truth cache; ``compute_score`` is verl's custom reward form.
Importing this package loads no torch, transformers, vLLM or TRL.
"""

from __future__ import annotations

from .function import PlanetariumReward
from .schemes import DEFAULT_WEIGHTS, RewardConfigError, RewardScheme
from .verl import compute_score

__all__ = ["DEFAULT_WEIGHTS", "PlanetariumReward", "RewardConfigError", "RewardScheme",
           "compute_score"]
