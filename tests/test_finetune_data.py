"""Fine-tuning data: the evaluation prompt, answer-only labels, the longest-5% filter."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from planetarium.domains import get_domain
from planetarium.finetune.data import (
    IGNORE_INDEX,
    CompletionCollator,
    Example,
    drop_longest,
    render,
    rows_hash,
    tokenize_rows,
    truncate,
)
from planetarium.llm.prompts import build_messages
from planetarium.llm.tiny import pddl_corpus, train_tokenizer


def tower_row(n_blocks: int) -> dict:
    """A real blocksworld row: n blocks on the table, to be stacked b1 on b2 on ... bn."""
    blocks = [f"b{i}" for i in range(1, n_blocks + 1)]
    init = " ".join(["(arm-empty)"] + [f"(on-table {b}) (clear {b})" for b in blocks])
    goal = " ".join(f"(on {a} {b})" for a, b in zip(blocks, blocks[1:])) or f"(on-table {blocks[0]})"
    return {
        "id": f"tower-{n_blocks}",
        "domain": "blocksworld",
        "natural_language": (
            f"You have {n_blocks} blocks, {', '.join(blocks)}, each on the table and clear. "
            "Your goal is to stack them into one tower in that order."
        ),
        "problem_pddl": (
            f"(define (problem tower-{n_blocks}) (:domain blocksworld) (:requirements :strips) "
            f"(:objects {' '.join(blocks)}) (:init {init}) (:goal (and {goal})))"
        ),
    }


@pytest.fixture(scope="module")
def tokenizer():
    return train_tokenizer(pddl_corpus(seed=0))


@pytest.fixture(scope="module")
def domains() -> dict[str, str]:
    return {"blocksworld": get_domain("blocksworld").pddl}


def test_prompt_is_exactly_the_evaluation_prompt(tokenizer, domains):
    row = tower_row(3)
    prompt, answer = render(row, tokenizer, domains["blocksworld"])
    eval_prompt = tokenizer.apply_chat_template(
        build_messages(row["natural_language"], domains["blocksworld"]),
        tokenize=False,
        add_generation_prompt=True,
    )
    assert prompt == eval_prompt
    assert answer == row["problem_pddl"] + "<end_of_turn>\n"


def test_collated_labels_carry_only_answer_tokens(tokenizer, domains):
    rows = [tower_row(2), tower_row(5)]
    examples = tokenize_rows(rows, tokenizer, domains)
    batch = CompletionCollator(tokenizer.pad_token_id)(examples)
    ids, labels, mask = batch["input_ids"], batch["labels"], batch["attention_mask"]
    assert ids.shape == labels.shape == mask.shape == (2, max(len(ex) for ex in examples))
    for i, (ex, row) in enumerate(zip(examples, rows)):
        n, p = len(ex), ex.prompt_len
        assert 0 < p < n
        assert ids[i, :n].tolist() == list(ex.input_ids)
        assert (labels[i, :p] == IGNORE_INDEX).all()  # prompt positions carry no loss
        assert labels[i, p:n].tolist() == ids[i, p:n].tolist()  # answer positions = input ids
        assert (labels[i, n:] == IGNORE_INDEX).all() and (mask[i, n:] == 0).all()
        assert (ids[i, n:] == tokenizer.pad_token_id).all() and (mask[i, :n] == 1).all()
        answer = tokenizer.decode(labels[i, p:n].tolist())
        assert answer == row["problem_pddl"] + "<end_of_turn>\n"


def test_prompt_tokens_match_what_generation_sees(tokenizer, domains):
    """The training prompt tokens are those of the eval prompt tokenized alone."""
    row = tower_row(4)
    (example,) = tokenize_rows([row], tokenizer, domains)
    prompt, _ = render(row, tokenizer, domains["blocksworld"])
    alone = tokenizer(prompt, add_special_tokens=False)["input_ids"]
    assert list(example.input_ids[: example.prompt_len]) == alone
    assert alone[0] == tokenizer.bos_token_id and alone.count(tokenizer.bos_token_id) == 1


def test_drop_longest_five_percent_drops_exactly_the_longest(tokenizer, domains):
    sizes = list(range(1, 41))
    random.Random(7).shuffle(sizes)
    examples = tokenize_rows([tower_row(n) for n in sizes], tokenizer, domains)
    kept, dropped = drop_longest(examples, 0.05)
    # 5% of 40 is 2: the two towers with the most blocks, whatever their position.
    assert [ex.id for ex in dropped] == [f"tower-{n}" for n in sizes if n in (39, 40)]
    assert [ex.id for ex in kept] == [f"tower-{n}" for n in sizes if n not in (39, 40)]


def test_drop_longest_rounds_down_and_breaks_ties_by_position():
    def ex(i: int, length: int) -> Example:
        return Example(id=str(i), input_ids=(0,) * length, prompt_len=1)

    examples = [ex(0, 5), ex(1, 9), ex(2, 9), ex(3, 1)] + [ex(i, 2) for i in range(4, 39)]
    assert drop_longest(examples, 0.05)[1] == [examples[2]]  # 39 * 0.05 = 1.95 -> 1; later tie
    kept, dropped = drop_longest(examples[:19], 0.05)  # 0.95 -> nothing dropped
    assert dropped == [] and kept == examples[:19]
    assert [e.id for e in drop_longest(examples, 0.1)[1]] == ["0", "1", "2"]


def test_truncate_cuts_answers_and_drops_examples_without_answer_tokens():
    short = Example("short", (1, 2, 3), prompt_len=2)
    long_answer = Example("cut", tuple(range(10)), prompt_len=3)
    long_prompt = Example("gone", tuple(range(10)), prompt_len=6)
    kept, dropped, n_cut = truncate([short, long_answer, long_prompt], max_len=6)
    assert kept == [short, Example("cut", (0, 1, 2, 3, 4, 5), prompt_len=3)]
    assert dropped == [long_prompt] and n_cut == 1


def test_rows_hash_names_content_and_order():
    rows = [tower_row(2), tower_row(3)]
    assert rows_hash(rows) == rows_hash([dict(r) for r in rows])
    assert rows_hash(rows) != rows_hash(rows[::-1])
    changed = [dict(rows[0], problem_pddl=rows[0]["problem_pddl"] + " "), rows[1]]
    assert rows_hash(rows) != rows_hash(changed)
