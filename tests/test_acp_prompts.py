"""Prompts from the published 2-shot configs, and a backend run feeding `acp score`."""

import json
from pathlib import Path

import pytest

from planetarium.acp.data import AcpDataError, load_items
from planetarium.acp.gold import render_gold
from planetarium.acp.prompts import load_prompt_config, run_backend
from planetarium.acp.score import grade_all, match_responses
from planetarium.llm.backends.base import Completion

FIXTURES = Path(__file__).parent / "fixtures" / "acp"
CONFIGS = FIXTURES / "configs"


def test_gen_prompt_is_two_shots_then_the_question():
    item = next(i for i in load_items(FIXTURES / "prog") if i.kind == "gen")
    chat = load_prompt_config(CONFIGS, "gen", "prog").messages(item)
    assert [m["role"] for m in chat] == ["user", "assistant"] * 2 + ["user"]
    assert chat[1]["content"] == "[(holding key0-0)] [(arm-empty), (at key0-0 f0-1f)]"
    assert chat[-1]["content"].startswith(item.context + " " + item.question)
    assert chat[-1]["content"].endswith("Provide only the two lists with the ground propositions.")


def test_bool_prompt_uses_the_shared_include():
    item = next(i for i in load_items(FIXTURES / "areach") if i.kind == "bool")
    chat = load_prompt_config(CONFIGS, "bool", "areach").messages(item)
    assert chat[-1]["content"].startswith("**Question**: " + item.context)
    assert chat[-1]["content"].endswith("**Thoughts**:")


class GoldBackend:
    """A real (if clairvoyant) backend: answers with the gold of the question it recognises."""

    def __init__(self, items):
        self.answers = {i.context + " " + i.question: render_gold(i) for i in items}

    def generate(self, conversations):
        out = []
        for chat in conversations:
            prompt = chat[-1]["content"]
            text = next((a for q, a in self.answers.items() if q in prompt), "")
            out.append(Completion(text=text))
        return out

    def close(self):
        pass


def test_backend_run_scores_through_acp_score():
    items = [i for i in load_items(FIXTURES / "val") if i.kind == "gen"]
    rows = list(run_backend(items, GoldBackend(items), CONFIGS, batch_size=3))
    assert len(rows) == len(items)
    responses = match_responses(items, [{**r, "_line": n} for n, r in enumerate(rows, 1)])
    graded = list(grade_all(items, responses))
    assert all(g["score"] == 1.0 for g in graded), graded


def test_missing_config_is_a_readable_error(tmp_path):
    with pytest.raises(AcpDataError, match="no prompt config for gen/app"):
        load_prompt_config(tmp_path, "gen", "app")
    (tmp_path / "acp_gen_chat").mkdir()
    (tmp_path / "acp_gen_chat" / "app.yaml").write_text(json.dumps({"doc_to_text": 3}))
    with pytest.raises(AcpDataError, match="doc_to_text"):
        load_prompt_config(tmp_path, "gen", "app")
