"""``compute_score`` called the way verl's reward manager calls a custom reward function.

verl (0.9) loads ``custom_reward_function.path`` — a file path or ``pkg://module`` — and
``.name`` with ``verl.utils.import_utils.load_extern_object``, and its ``NaiveRewardManager`` calls
the function per response from a thread pool (``loop.run_in_executor``) with the keywords
``data_source``, ``solution_str``, ``ground_truth`` and ``extra_info`` (which carries the row's
extra info plus ``num_turns`` and ``rollout_reward_scores``).

verl itself does not install next to this project's stack (it pins transformers < 5.11 and pulls
ray and wandb), so the contract test below always runs; the one after it drives verl's own loader
and ``NaiveRewardManager`` and runs wherever verl is importable.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
from concurrent.futures import ThreadPoolExecutor

import pytest

from planetarium.grading import grade

GT = """(define (problem p) (:domain blocksworld) (:objects b1 b2)
  (:init (arm-empty) (on-table b1) (on b2 b1) (clear b2))
  (:goal (and (on-table b2) (on b1 b2))))"""
RESPONSES = [GT.replace("b1", "x").replace("b2", "y"), GT.replace("(on b1 b2)", "(on-table b1)"),
             f"<think>hmm</think>```pddl\n{GT}\n```", "<think>out of tokens", "", "((((" * 500]


def _load_from_file(path, name: str):
    """A user's reward file loaded by path, as verl's ``load_extern_object`` does."""
    spec = importlib.util.spec_from_file_location("custom_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def test_the_custom_reward_function_contract(tmp_path):
    reward_file = tmp_path / "planetarium_reward.py"
    reward_file.write_text("from planetarium.reward import compute_score\n")
    by_file = _load_from_file(reward_file, "compute_score")
    by_package = importlib.import_module("planetarium.reward.verl").compute_score
    assert by_file is by_package

    def call(response: str) -> float:
        return by_file(data_source="planetarium", solution_str=response, ground_truth=GT,
                       extra_info={"index": 0, "is_placeholder": False, "num_turns": None,
                                   "rollout_reward_scores": {}})

    with ThreadPoolExecutor(max_workers=8) as executor:  # what run_in_executor does
        scores = list(executor.map(call, RESPONSES * 8))
    expected = [1.0, 0.0, 1.0, 0.0, 0.0, 0.0] * 8
    assert scores == expected and all(type(s) is float for s in scores)
    assert scores[0] == float(grade(GT, RESPONSES[0]).correct)


def test_verl_naive_reward_manager_calls_compute_score(tmp_path):
    pytest.importorskip("verl", exc_type=ImportError)
    import torch
    from omegaconf import OmegaConf
    from verl import DataProto
    from verl.experimental.reward_loop.reward_manager.naive import NaiveRewardManager
    from verl.trainer.ppo.reward import get_custom_reward_fn

    from planetarium.llm.tiny import pddl_corpus, train_tokenizer

    tokenizer = train_tokenizer(pddl_corpus(0))
    reward_file = tmp_path / "planetarium_reward.py"
    reward_file.write_text("from planetarium.reward import compute_score\n")
    for path in (str(reward_file), "pkg://planetarium.reward.verl"):
        config = OmegaConf.create({"reward": {"custom_reward_function": {
            "path": path, "name": "compute_score", "reward_kwargs": {}}}})
        manager = NaiveRewardManager(config, tokenizer, get_custom_reward_fn(config))
        for response, expected in zip(RESPONSES, [1.0, 0.0, 1.0, 0.0, 0.0, 0.0], strict=True):
            ids = tokenizer(response, add_special_tokens=False)["input_ids"] or [0]
            batch = {"responses": torch.tensor([ids]), "prompts": torch.tensor([[2]]),
                     "attention_mask": torch.ones(1, 1 + len(ids), dtype=torch.long)}
            data = DataProto.from_dict(
                tensors=batch,
                non_tensors={"data_source": ["planetarium"],
                             "reward_model": [{"ground_truth": GT, "style": "rule"}],
                             "extra_info": [{"is_placeholder": False}]})
            out = manager.loop.run_until_complete(manager.run_single(data)) \
                if not manager.loop.is_running() else asyncio.run(manager.run_single(data))
            assert out["reward_score"] == expected, (path, response[:40])
