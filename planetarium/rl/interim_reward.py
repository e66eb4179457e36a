"""TEMPORARY stand-in for ``planetarium.reward.PlanetariumReward`` until wip/reward is merged.

Same call form (TRL's), scheme ``correct`` only, graded in process.  Deleted at the merge.
"""

from __future__ import annotations

from typing import Any

from planetarium.grading import grade


class PlanetariumReward:
    def __init__(self, scheme: str = "correct", timeout_s: float = 5.0, workers: int | None = None,
                 gt_column: str = "problem_pddl", placeholder_column: str = "is_placeholder",
                 think_marker: str = "</think>", undecided_reward: float = 0.0,
                 weights: dict[str, float] | None = None, call_budget_s: float | None = None) -> None:
        self.__name__ = f"planetarium_{scheme}"
        self.gt_column = gt_column
        self.last_details: list[dict[str, Any]] = []
        self.calls = 0
        self.items = 0

    def __call__(self, prompts: list, completions: list, **columns: Any) -> list[float]:
        rewards, details = [], []
        for completion, gt in zip(completions, columns[self.gt_column], strict=True):
            text = completion[-1]["content"] if isinstance(completion, list) else completion
            result = grade(gt, text)
            rewards.append(1.0 if result.correct else 0.0)
            details.append({"reward": rewards[-1], "status": str(result.status)})
        self.last_details = details
        self.calls += 1
        self.items += len(rewards)
        return rewards

    def metrics(self) -> dict[str, Any]:
        return {"calls": self.calls, "items": self.items}

    def close(self) -> None:
        pass
