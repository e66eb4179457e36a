"""Prompts from the published 2-shot configs (the acpbench benchmark asks them)."""

import json
from pathlib import Path

import pytest

from planetarium.acp.data import AcpDataError, load_items
from planetarium.acp.prompts import load_prompt_config

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


def test_missing_config_is_a_readable_error(tmp_path):
    with pytest.raises(AcpDataError, match="no prompt config for gen/app"):
        load_prompt_config(tmp_path, "gen", "app")
    (tmp_path / "acp_gen_chat").mkdir()
    (tmp_path / "acp_gen_chat" / "app.yaml").write_text(json.dumps({"doc_to_text": 3}))
    with pytest.raises(AcpDataError, match="doc_to_text"):
        load_prompt_config(tmp_path, "gen", "app")
