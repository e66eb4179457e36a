"""The quick gear of the reader (issue 33) reads exactly what the exact gear reads.

``read_problem`` reads with :func:`read_quick` (tuples, no line numbers) and checks atoms a section
at a time by table look-ups; on any refusal it reads again with :func:`read_sexprs` (every list
with its line). These tests hold the two gears equal on hypothesis' texts and on the fuzzer's
hostile versions of problems, compare the result with the ``pddl`` package's parser (independent
code), and check the pieces the quick gear added: the shared flat-list memo stays bounded, types
and subtypes are looked up as the full check decides them, extraction's one-regex end of a problem
equals a plain walk over its parentheses, and a huge section still meets the deadline.
"""

from __future__ import annotations

import random
import re
import time
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pddl.parser.problem import ProblemParser

from planetarium.domains import get_domain
from planetarium.errors import PlanetariumError, ResourceLimitError
from planetarium.limits import Deadline
from planetarium.pddl import parse_domain, read_problem, sexpr
from planetarium.pddl.extract import _closing
from planetarium.pddl.sexpr import MAX_DEPTH, read_quick, read_sexprs
from planetarium.testing import pairs
from planetarium.testing.fuzz import hostile_outputs
from planetarium.testing.generators import DOMAINS, dataset_problem

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])

#: Pieces of text that exercise every token kind of both readers, Unicode blanks and case.
FRAGMENTS = ["(", ")", "(", ")", " ", "\n", "\t", "\u00a0", "\x1c", "a", "B", "-", "?x", ";",
             "; c (x)\n", "(a b)", "(and (p a) (q))", "(a\nb)", "()", "İ", "é", "x y"]


def tuples(expr):
    return tuple(tuples(x) for x in expr) if isinstance(expr, list) else expr


def depth(expr) -> int:
    return 1 + max(map(depth, expr), default=0) if isinstance(expr, list) else 0


@SETTINGS
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=60).map("".join))
def test_quick_reader_reads_what_the_exact_reader_reads(text):
    quick = read_quick(text)
    try:
        exact = read_sexprs(text)
    except PlanetariumError:
        assert quick is None  # the exact reader refuses: the quick one declines
        return
    if quick is None:  # it may decline only near the nesting cap
        assert depth(exact) - 1 >= MAX_DEPTH - 2
    else:
        assert quick == tuples(exact)


def test_quick_reader_declines_near_the_nesting_cap_only():
    for levels in (MAX_DEPTH - 2, MAX_DEPTH - 1):
        text = "(" * levels + ")" * levels
        assert read_quick(text) is not None or levels >= MAX_DEPTH - 1
    assert read_quick("(" * (MAX_DEPTH + 1) + ")" * (MAX_DEPTH + 1)) is None
    padding = "(a b) " * 20_000  # past the size where the quick reader tokenizes lazily
    assert read_quick(padding) == tuples(read_sexprs(padding))
    deep = padding + "(" * 5000 + ")" * 5000
    assert read_quick(deep) is None
    with pytest.raises(PlanetariumError, match="nesting deeper"):
        read_sexprs(deep)


def _outcome(text: str, domain: str, relax: bool):
    try:
        return read_problem(text, get_domain(domain).definition, relax_typing=relax)
    except (PlanetariumError, RecursionError) as err:
        return type(err).__name__, str(err)


@SETTINGS
@given(st.sampled_from(DOMAINS), st.integers(0, 2**32), st.integers(2, 8), st.booleans())
def test_both_gears_give_the_same_problem_or_the_same_message(domain, seed, size, relax):
    rng = random.Random(seed)
    typed = get_domain(domain).definition.typed
    seed_text = pairs.render(dataset_problem(domain, rng, size), rng, typed=typed)
    _, text = next(hostile_outputs([seed_text], 1, rng))
    with mock.patch("planetarium.pddl.problem.read_quick", return_value=None):
        exact = _outcome(text, domain, relax)
    assert _outcome(text, domain, relax) == exact


@pytest.mark.parametrize("domain", DOMAINS)
def test_problems_read_as_the_pddl_package_reads_them(domain):
    rng = random.Random(3)
    typed = get_domain(domain).definition.typed
    for size in (2, 5, 9):
        text = pairs.render(dataset_problem(domain, rng, size), rng, typed=typed)
        ours = read_problem(f"Answer:\n```\n{text}\n```", get_domain(domain).definition)
        theirs = ProblemParser()(text)
        assert ours.type_of == {o.name: next(iter(o.type_tags), "object") for o in theirs.objects}
        assert ours.init == {(a.name, *(t.name for t in a.terms)) for a in theirs.init}
        goal = theirs.goal.operands if hasattr(theirs.goal, "operands") else [theirs.goal]
        assert ours.goal == {(a.name, *(t.name for t in a.terms)) for a in goal}


def test_equal_atoms_share_one_tuple_and_the_memo_stays_bounded():
    domain = get_domain("blocksworld").definition
    text = "(define (problem p) (:domain blocksworld) (:objects {}) (:init (arm-empty)) (:goal (and {})))"
    first = read_problem(text.format("a b", "(on a b)"), domain)
    second = read_problem(text.format("b a", "(on a b)"), domain)
    assert next(iter(first.goal)) is next(iter(second.goal))
    with mock.patch.object(sexpr, "_FLAT_LISTS_KEPT", 50):
        for i in range(40):
            names = [f"x{i}n{k}" for k in range(5)]
            atoms = " ".join(f"(clear {n})" for n in names)
            assert read_problem(text.format(" ".join(names), atoms), domain).goal
            assert len(sexpr._FLAT_LISTS) <= 50 + 10


HIERARCHY = """(define (domain depot) (:requirements :strips :typing)
  (:types truck - vehicle vehicle place - object)
  (:predicates (at ?v - vehicle ?p - place) (parked ?t - truck))
  (:action stay :parameters (?t - truck) :precondition (parked ?t) :effect (parked ?t)))"""


@pytest.mark.parametrize("init, message", [
    ("(at t p) (at v p) (parked t)", None),
    ("(at p p)", "line 3: (at p p) in :init: 'p' is a 'place', 'at' needs a 'vehicle'"),
    ("(parked v)", "line 3: (parked v) in :init: 'v' is a 'vehicle', 'parked' needs a 'truck'"),
    ("(parked t t)", "line 3: (parked t t) in :init: 'parked' takes 1 argument(s), got 2"),
    ("(at t q)", "line 3: (at t q) in :init: object 'q' is not declared in :objects"),
])
def test_subtypes_are_looked_up_as_the_full_check_decides(init, message):
    domain = parse_domain(HIERARCHY)
    text = ("(define (problem p) (:domain depot)\n (:objects t - truck v - vehicle p - place)\n"
            f" (:init {init})\n (:goal (and (parked t))))")
    if message is None:
        assert len(read_problem(text, domain).init) == len(re.findall(r"\(", init))
    else:
        with pytest.raises(PlanetariumError) as info:
            read_problem(text, domain)
        assert str(info.value) == message
    if message is None or "is a '" in message:  # wrong types only: relaxed typing reads it
        assert read_problem(text, domain, relax_typing=True).init


def _walk(raw: str) -> int | None:
    """Where the form opening ``raw`` closes: a plain walk that skips ``;`` comments."""
    depth, i = 0, 0
    while i < len(raw):
        if raw[i] == ";":
            i = raw.find("\n", i)
            if i < 0:
                return None
        elif raw[i] in "()":
            depth += 1 if raw[i] == "(" else -1
            if depth == 0:
                return i + 1
        i += 1
    return None


@SETTINGS
@given(st.lists(st.sampled_from(["(", ")", "a", " ", "\n", ";", "(b c)", "((d))"]),
                max_size=80).map("".join))
def test_extraction_finds_the_end_a_plain_walk_finds(tail):
    raw = "(" + tail
    assert _closing(raw, 0) == _walk(raw)


def test_a_huge_section_is_read_under_the_deadline():
    names = [f"b{i}" for i in range(60_000)]
    text = (f"(define (problem p) (:domain blocksworld) (:objects {' '.join(names)}) "
            f"(:init {' '.join(f'(clear {n})' for n in names)}) (:goal (and (clear b1))))")
    domain = get_domain("blocksworld").definition
    assert len(read_problem(text, domain).init) == len(names)
    deadline = Deadline.start(0.001)
    time.sleep(0.002)
    with deadline.applied(), pytest.raises(ResourceLimitError):
        read_problem(text, domain)
