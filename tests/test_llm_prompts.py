"""The prompt is the paper's, byte for byte, and the tiny model renders it the Gemma way."""

from __future__ import annotations

import filecmp
import subprocess
import sys

from planetarium.llm.backends.base import render_prompt_ids
from planetarium.llm.prompts import (
    build_messages,
    build_training_messages,
    prompt_hash,
    prompt_template_hash,
)

PAPER_PROMPT = (
    "Provide me with the complete, valid problem PDDL file that describes the following planning "
    "problem directly without further explanations or texts. You have 3 blocks. "
    "The domain for the planning problem is:\n(define (domain blocksworld))\n"
)


def test_one_user_message_with_the_papers_text():
    assert build_messages("You have 3 blocks.", "(define (domain blocksworld))") == [
        {"role": "user", "content": PAPER_PROMPT}
    ]


def test_template_hash_is_pinned():
    # Changing any prompt string must be deliberate: it makes old runs incomparable.
    assert prompt_template_hash() == "6b4e7c35a5613751"
    assert prompt_hash(build_messages("a", "b")) != prompt_hash(build_messages("a", "c"))


def test_training_messages_answer_with_the_ground_truth():
    messages = build_training_messages("nl", "dom", "(define (problem p))")
    assert messages[:1] == build_messages("nl", "dom")
    assert messages[1] == {"role": "assistant", "content": "(define (problem p))"}


def test_tiny_tokenizer_renders_the_gemma_chat_format(tiny_model):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    messages = build_training_messages("You have 3 blocks.", "(define (domain blocksworld))", "P")
    text = tokenizer.apply_chat_template(messages[:1], tokenize=False, add_generation_prompt=True)
    assert (
        text
        == f"<bos><start_of_turn>user\n{PAPER_PROMPT.strip()}<end_of_turn>\n<start_of_turn>model\n"
    )
    full = tokenizer.apply_chat_template(messages, tokenize=False)
    assert full.endswith("<start_of_turn>model\nP<end_of_turn>\n")
    ids = render_prompt_ids(tokenizer, messages[:1])
    assert ids.count(tokenizer.bos_token_id) == 1 and ids[0] == tokenizer.bos_token_id
    assert tokenizer.decode(ids) == text
    assert tokenizer.padding_side == "left" and tokenizer.pad_token == "<pad>"


def test_tiny_model_is_deterministic_and_reused(tiny_model, tmp_path):
    from planetarium.llm.tiny import build_tiny_model

    again = build_tiny_model(tmp_path / "again", seed=0)
    for name in ("model.safetensors", "tokenizer.json", "config.json"):
        assert filecmp.cmp(tiny_model / name, again / name, shallow=False), name
    stamp = (again / "model.safetensors").stat().st_mtime_ns
    build_tiny_model(again, seed=0)
    assert (again / "model.safetensors").stat().st_mtime_ns == stamp


def test_imports_load_no_heavy_stack():
    code = (
        "import sys, planetarium, planetarium.llm.cli, planetarium.llm.prompts;"
        "heavy = {'torch', 'vllm', 'transformers', 'peft', 'datasets', 'trl', 'tokenizers'};"
        "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
