"""Fine-tuning data: the evaluation prompt, answer-only labels, the longest-5% filter."""

from __future__ import annotations

import random
from array import array

import pytest
from llm_fixtures import blocksworld_row

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
from planetarium.llm.backends.base import render_prompt_ids
from planetarium.llm.prompts import build_messages


@pytest.fixture(scope="module")
def tokenizer(tiny_model):  # noqa: F811 (fixture)
    """The tiny model's saved tokenizer (trained locally on PDDL, Gemma chat template)."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(tiny_model)


@pytest.fixture(scope="module")
def domains() -> dict[str, str]:
    return {"blocksworld": get_domain("blocksworld").pddl}


def test_prompt_is_exactly_the_evaluation_prompt(tokenizer, domains):
    row = blocksworld_row(0, 3)
    prompt, answer = render(row, tokenizer, domains["blocksworld"])
    eval_prompt = tokenizer.apply_chat_template(
        build_messages(row["natural_language"], domains["blocksworld"]),
        tokenize=False,
        add_generation_prompt=True,
    )
    assert prompt == eval_prompt
    assert answer == row["problem_pddl"].strip() + "<end_of_turn>\n"  # the template trims


def test_collated_labels_carry_only_answer_tokens(tokenizer, domains):
    rows = [blocksworld_row(0, 2), blocksworld_row(1, 5)]
    examples = tokenize_rows(rows, tokenizer, domains)
    batch = CompletionCollator(tokenizer.pad_token_id)(examples)
    ids, labels, mask = batch["input_ids"], batch["labels"], batch["attention_mask"]
    assert ids.shape == labels.shape == mask.shape == (2, max(len(ex) for ex in examples))
    for i, (ex, row) in enumerate(zip(examples, rows, strict=True)):
        n, p = len(ex), ex.prompt_len
        assert 0 < p < n
        assert ids[i, :n].tolist() == list(ex.input_ids)
        assert (labels[i, :p] == IGNORE_INDEX).all()  # prompt positions carry no loss
        assert labels[i, p:n].tolist() == ids[i, p:n].tolist()  # answer positions = input ids
        assert (labels[i, n:] == IGNORE_INDEX).all() and (mask[i, n:] == 0).all()
        assert (ids[i, n:] == tokenizer.pad_token_id).all() and (mask[i, :n] == 1).all()
        answer = tokenizer.decode(labels[i, p:n].tolist())
        assert answer == row["problem_pddl"].strip() + "<end_of_turn>\n"  # the template trims


def test_prompt_tokens_are_the_evaluation_loops(tokenizer, domains):
    """The training prompt ids are exactly the ids the evaluation backends generate from."""
    row = blocksworld_row(0, 4)
    (example,) = tokenize_rows([row], tokenizer, domains)
    messages = build_messages(row["natural_language"], domains["blocksworld"])
    eval_ids = render_prompt_ids(tokenizer, messages)
    assert list(example.input_ids[: example.prompt_len]) == eval_ids
    assert eval_ids.count(tokenizer.bos_token_id) == 1


def test_drop_longest_five_percent_drops_exactly_the_longest(tokenizer, domains):
    sizes = list(range(2, 42))
    random.Random(7).shuffle(sizes)
    examples = tokenize_rows([blocksworld_row(n, n) for n in sizes], tokenizer, domains)
    kept, dropped = drop_longest(examples, 0.05)
    # 5% of 40 is 2: the two towers with the most blocks, whatever their position.
    longest = {40, 41}
    assert [ex.id for ex in dropped] == [f"blocksworld-{n:03d}" for n in sizes if n in longest]
    assert [ex.id for ex in kept] == [f"blocksworld-{n:03d}" for n in sizes if n not in longest]


def test_drop_longest_rounds_down_and_breaks_ties_by_position():
    def ex(i: int, length: int) -> Example:
        return Example(id=str(i), input_ids=array("i", [0] * length), prompt_len=1)

    examples = [ex(0, 5), ex(1, 9), ex(2, 9), ex(3, 1)] + [ex(i, 2) for i in range(4, 39)]
    assert drop_longest(examples, 0.05)[1] == [examples[2]]  # 39 * 0.05 = 1.95 -> 1; later tie
    kept, dropped = drop_longest(examples[:19], 0.05)  # 0.95 -> nothing dropped
    assert dropped == [] and kept == examples[:19]
    assert [e.id for e in drop_longest(examples, 0.1)[1]] == ["0", "1", "2"]


def test_truncate_cuts_answers_and_drops_examples_without_answer_tokens():
    short = Example("short", array("i", [1, 2, 3]), prompt_len=2)
    long_answer = Example("cut", array("i", range(10)), prompt_len=3)
    long_prompt = Example("gone", array("i", range(10)), prompt_len=6)
    kept, dropped, n_cut = truncate([short, long_answer, long_prompt], max_len=6)
    assert kept == [short, Example("cut", array("i", range(6)), prompt_len=3)]
    assert dropped == [long_prompt] and n_cut == 1


def test_rows_hash_names_content_and_order():
    rows = [blocksworld_row(0, 2), blocksworld_row(1, 3)]
    assert rows_hash(rows) == rows_hash([dict(r) for r in rows])
    assert rows_hash(rows) != rows_hash(rows[::-1])
    changed = [dict(rows[0], problem_pddl=rows[0]["problem_pddl"] + " "), rows[1]]
    assert rows_hash(rows) != rows_hash(changed)


def test_the_data_log_line_says_what_was_left_out_in_words():
    from planetarium.finetune.config import TrainingConfig
    from planetarium.finetune.train import PreparedData

    data = PreparedData(
        examples=[Example(str(i), array("i", [1]), 0) for i in range(495)],
        n_rows=574,
        dropped_longest=[f"l{i}" for i in range(28)],
        dropped_too_long=[f"t{i}" for i in range(51)],
        n_truncated=168,
        data_hash="x",
    )
    assert data.summary(TrainingConfig()) == (
        "training on 495 of 574 rows: dropped the 28 longest (drop_longest_fraction 0.05) and "
        "51 whose prompt alone reaches max_seq_length 1500; 168 of the 495 were cut to 1500 tokens"
    )
