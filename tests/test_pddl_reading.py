"""Reading hostile model output: extraction, validation against the domain, clear reasons."""

import pytest

from planetarium.domains import get_domain
from planetarium.errors import PDDLSyntaxError, PDDLValidationError, PlanetariumError, UnsupportedFeatureError
from planetarium.pddl import read_problem

BW = get_domain("blocksworld").definition
FT = get_domain("floor-tile").definition

PROBLEM = """(define (problem p) (:domain blocksworld) (:requirements :strips)
  (:objects b1 b2)
  (:init (arm-empty) (on-table b1) (on b2 b1) (clear b2))
  (:goal (and (on-table b2) (on b1 b2))))"""


def read(text, **kw):
    return read_problem(text, BW, **kw)


def test_plain_problem():
    p = read(PROBLEM)
    assert p.objects == ("b1", "b2")
    assert ("on", "b2", "b1") in p.init
    assert p.goal == {("on-table", "b2"), ("on", "b1", "b2")}


@pytest.mark.parametrize("wrap", [
    "```pddl\n{}\n```",
    "Here is the PDDL (as requested):\n{}\nHope this helps (really)!",
    "(define (domain blocksworld) (:predicates (clear ?x)))\n{}",
    "(define (problem draft) (:domain blocksworld) (:objects) (:init) (:goal (and)))\n\n{}",
    "; a comment with (parentheses\n{}\n trailing junk ))) ((",
    "{} ```",
])
def test_extraction_from_noisy_output(wrap):
    assert read(wrap.format(PROBLEM)) == read(PROBLEM)


def test_case_insensitive():
    assert read(PROBLEM.upper()) == read(PROBLEM)


def test_comments_inside():
    text = PROBLEM.replace("(arm-empty)", "(arm-empty) ; the arm (is) empty\n")
    assert read(text) == read(PROBLEM)


def test_the_last_complete_problem_wins_over_a_truncated_one_after_it():
    text = PROBLEM + "\n" + PROBLEM[:40]
    assert read(text) == read(PROBLEM)


def test_the_last_complete_problem_is_read():
    draft = "(define (problem draft) (:domain blocksworld) (:objects) (:init) (:goal (and)))"
    assert read(PROBLEM + "\n" + draft).name == "draft"
    assert read(draft + "\n" + PROBLEM) == read(PROBLEM)


@pytest.mark.parametrize("text, fragment", [
    (PROBLEM[:-10], "never closed"),
    ("no pddl here at all", "no '(define (problem"),
    (PROBLEM.replace("(on b2 b1)", "(on b2 b1 b1)"), "takes 2 argument"),
    (PROBLEM.replace("(on b2 b1)", "(above b2 b1)"), "unknown predicate 'above'"),
    (PROBLEM.replace("(on b2 b1)", "(on b2 b9)"), "'b9' is not declared"),
    (PROBLEM.replace("(:objects b1 b2)", "(:objects b1 b2 b1)"), "declared twice"),
    (PROBLEM.replace(":domain blocksworld", ":domain blocks"), "for domain 'blocks'"),
    (PROBLEM.replace("(:objects b1 b2)", "(:objects b1 b2 - block)"), "untyped"),
    (PROBLEM.replace("(on-table b1)", "(not (on-table b1))"), "negative literal"),
    (PROBLEM.replace("(:init", "(:init (:init)"), "unknown predicate ':init'"),
    (PROBLEM.replace("(on b2 b1)", "(on b2 (b1))"), "malformed atom"),
])
def test_rejections_name_the_problem(text, fragment):
    with pytest.raises((PDDLSyntaxError, PDDLValidationError)) as info:
        read(text)
    assert fragment in str(info.value)


def test_error_names_line_of_original_output():
    text = "Answer:\n\n```\n" + PROBLEM.replace("(on b2 b1)", "(on b2)") + "\n```"
    with pytest.raises(PDDLValidationError) as info:
        read(text)
    assert str(info.value).startswith("line 6:")  # the :init line of the original output


def test_typed_objects_accepted_when_relaxed():
    p = read(PROBLEM.replace("(:objects b1 b2)", "(:objects b1 b2 - block)"), relax_typing=True)
    assert p == read(PROBLEM)


@pytest.mark.parametrize("goal, positive, negative", [
    ("(not (on b1 b2))", set(), {("on", "b1", "b2")}),
    ("(and (clear b1) (and (not (clear b2))))", {("clear", "b1")}, {("clear", "b2")}),
])
def test_goals_of_literals_split_into_positive_and_negative(goal, positive, negative):
    p = read(PROBLEM.replace("(and (on-table b2) (on b1 b2))", goal))
    assert (p.goal, p.negative_goal, p.goal_formula) == (positive, negative, None)


@pytest.mark.parametrize("goal", ["(or (on b1 b2) (on b2 b1))", "(forall (?x) (clear ?x))",
                                  "(and (clear b1) (exists (?y) (on ?y b1)))",
                                  "(not (and (clear b1) (clear b2)))"])
def test_goal_formulas_are_kept_whole(goal):
    p = read(PROBLEM.replace("(and (on-table b2) (on b1 b2))", goal))
    assert p.goal_formula is not None and not p.negative_goal


@pytest.mark.parametrize("goal", ["(= b1 b2)", "(when (clear b1) (clear b2))",
                                  "(preference p (clear b1))"])
def test_goals_outside_the_fragment_are_unsupported(goal):
    with pytest.raises(UnsupportedFeatureError):
        read(PROBLEM.replace("(and (on-table b2) (on b1 b2))", goal))


def test_quantified_variable_must_be_bound():
    with pytest.raises(PDDLValidationError):
        read(PROBLEM.replace("(and (on-table b2) (on b1 b2))", "(exists (?y) (on ?z b1))"))


def test_errors_share_one_root_and_builtin():
    with pytest.raises(PlanetariumError):
        read("(define (problem")
    with pytest.raises(SyntaxError):
        read("(define (problem")
    with pytest.raises(ValueError):
        read(PROBLEM.replace("(on b2 b1)", "(on b2)"))


def test_deep_nesting_is_refused_not_recursed():
    text = "(define (problem p) (:domain blocksworld) (:init " + "(" * 5000 + ")" * 5000 + "))"
    with pytest.raises(PDDLSyntaxError):
        read(text)


def test_names_that_look_like_keywords():
    text = PROBLEM.replace("b1", "table").replace("b2", "clear")
    p = read(text)
    assert ("on", "clear", "table") in p.init


FT_PROBLEM = """(define (problem f) (:domain floor-tile) (:requirements :typing)
  (:objects robot1 - robot tile1 tile2 - tile color1 - color)
  (:init (robot-at robot1 tile1) (right tile2 tile1) (robot-has robot1 color1)
         (available-color color1))
  (:goal (and (painted tile2 color1))))"""


def test_typed_domain_checks_argument_types():
    p = read_problem(FT_PROBLEM, FT)
    assert p.type_of["tile2"] == "tile"
    bad = FT_PROBLEM.replace("(painted tile2 color1)", "(painted color1 tile2)")
    with pytest.raises(PDDLValidationError, match="is a 'color'"):
        read_problem(bad, FT)
    assert read_problem(bad, FT, relax_typing=True).object_types == ("object",) * 4
