"""A reward scheme defined outside Planetarium: +1 for a right answer, -1 for a wrong one.

Registered by the entry point ``signed = planetarium_example.schemes:SIGNED`` in the
``planetarium.reward_schemes`` group; ``PlanetariumReward(scheme="signed")`` and an RL config's
``reward.scheme: signed`` then select it.  Undecided verdicts (a time limit, an unsupported
answer) never reach a scheme: the reward pays them its ``undecided_reward``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from planetarium.reward.schemes import RewardScheme


class Signed(RewardScheme):
    """A wrong answer costs as much as a right one earns (rewards centred on 0)."""

    name = "signed"
    headline_only = True  # reads nothing but ``result.correct``

    def reward(self, result: Any, weights: Mapping[str, float]) -> float:
        return 1.0 if result.correct else -1.0


SIGNED = Signed()
