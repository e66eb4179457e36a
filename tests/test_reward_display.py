"""Staged rewards read as 0.3, not 0.30000000000000004 (issue 31.8).

The reward keeps its exact float (what the trainer gets, what ``rl_record.json`` stores); what
``planetarium rl`` prints is rounded for reading.
"""

from __future__ import annotations

import pytest

from planetarium.reward import PlanetariumReward
from planetarium.rl.cli import for_display, summary_of

GT = """(define (problem p) (:domain blocksworld) (:objects b1 b2 b3)
  (:init (arm-empty) (on-table b1) (on-table b2) (on-table b3) (clear b1) (clear b2) (clear b3))
  (:goal (and (on b1 b2) (on b2 b3))))"""
WRONG = GT.replace("(on b1 b2) (on b2 b3)", "(on b1 b2)")  # parses, solvable, not equivalent


def test_a_staged_reward_is_exact_in_data_and_rounded_for_display():
    pytest.importorskip("transformers")
    from planetarium.rl.train import RewardLog

    with PlanetariumReward(scheme="staged", workers=0) as reward:
        rewards = reward(completions=[WRONG, WRONG], problem_pddl=[GT, GT],
                         is_placeholder=[False, False])
        calls = RewardLog(reward)
        calls.record(step=1)
        metrics = reward.metrics()
    assert rewards == [0.1 + 0.2] * 2 and rewards[0] != 0.3  # the float sum, kept exact
    record = {"train": {"steps": 1, "seconds_per_step": 0.123456789},
              "reward": {"name": "planetarium_staged", "metrics": metrics, "calls": calls.calls}}
    assert record["reward"]["calls"][0]["mean"] == 0.1 + 0.2
    shown = summary_of(record, "out/adapter", True)
    assert shown["reward_means"] == [0.3] and shown["seconds_per_step"] == 0.1235
    assert "0000000" not in repr(shown)
    assert record["reward"]["calls"][0]["mean"] == 0.1 + 0.2  # the record is left as it was


def test_for_display_rounds_every_float_and_nothing_else():
    assert for_display({"a": [0.30000000000000004, 1, "x"], "b": {"c": 55.28200789561348},
                        "d": True, "e": None}) == {"a": [0.3, 1, "x"], "b": {"c": 55.28},
                                                   "d": True, "e": None}
