"""Every registered benchmark as a verifiable reward for reinforcement learning (TRL, verl).

``PlanetariumReward`` is a reward function in TRL's form: the benchmark's own grader
(``Benchmark.grade``; Planetarium by default, ACPBench, ARB, a plug-in) on the one item loop, kept
open across calls, with a hard per-item deadline and a ground-truth cache; ``compute_score`` is
verl's custom reward form, dispatching on ``data_source``.
Importing this package loads no torch, transformers, vLLM or TRL.
"""

from __future__ import annotations

from .function import PlanetariumReward
from .schemes import DEFAULT_WEIGHTS, RewardConfigError, RewardScheme
from .verl import compute_score

__all__ = ["DEFAULT_WEIGHTS", "PlanetariumReward", "RewardConfigError", "RewardScheme",
           "compute_score"]
