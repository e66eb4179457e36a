"""The ACP answer grammar and the yes/no / multiple-choice extraction."""

import pytest

from planetarium.acp.answers import (
    AnswerParseError,
    index,
    parse_answer,
    single,
    step_list,
    two_lists,
)
from planetarium.acp.choice import extract_choice


def test_progression_lists_in_prompt_format():
    pos, neg = two_lists(parse_answer("[(holding key0-0)] [(arm-empty), (at key0-0 f0-1f)]"))
    assert pos == [("holding", "key0-0")]
    assert neg == [("arm-empty",), ("at", "key0-0", "f0-1f")]


def test_progression_headings_without_brackets():
    text = "Positive effects: (on c1), (at-ferry l0)\nNegative effects: None"
    pos, neg = two_lists(parse_answer(text))
    assert pos == [("on", "c1"), ("at-ferry", "l0")] and neg == []


def test_headings_override_list_order():
    pos, neg = two_lists(parse_answer("negative effects: [(a)] positive effects: [(b)]"))
    assert pos == [("b",)] and neg == [("a",)]


def test_marked_final_answer_wins_over_earlier_spans():
    text = "First I considered (move a b), but it is blocked.\n**Final Answer**: (move a c)"
    assert single(parse_answer(text)) == ("move", "a", "c")
    assert single(parse_answer("I think (move a b) works.")) == ("move", "a", "b")


def test_separators_case_and_quotes_are_free():
    text = 'Answer: "(Sail L0 L1)" (debark c3 l0)\n`(board c1 l0)`'
    assert step_list(parse_answer(text)) == [("sail", "l0", "l1"), ("debark", "c3", "l0"),
                                             ("board", "c1", "l0")]


def test_none_and_empty_list_are_none_answers():
    assert single(parse_answer("None")) is None
    assert single(parse_answer("The answer is: none.")) is None
    assert single(parse_answer("[]")) is None


def test_index_ignores_digits_inside_names():
    assert index(parse_answer("(move f3-2f f3-1f) is step 4.")) == 4
    assert index(parse_answer("Answer: 0")) == 0


@pytest.mark.parametrize("text", ["((move a b)", "[(a b)", "(a b))"])
def test_unbalanced_text_does_not_parse(text):
    with pytest.raises(AnswerParseError):
        parse_answer(text)


def test_answer_without_an_item_is_an_error_not_a_guess():
    with pytest.raises(AnswerParseError):
        single(parse_answer("I do not know"))
    with pytest.raises(AnswerParseError):
        two_lists(parse_answer("(a) (b)"))


def test_yes_no_marker_first_then_last_word():
    assert extract_choice("No wait. The answer is yes.", "bool") == "yes"
    assert extract_choice("Yes, it seems applicable... but no.", "bool") == "no"
    assert extract_choice("Unclear.", "bool") is None


def test_letter_marker_first_then_last_letter():
    assert extract_choice("A looks wrong. The answer is C.", "mcq") == "C"
    assert extract_choice("Option B fails, so D.", "mcq") == "D"
    assert extract_choice("I pick nothing", "mcq") is None
