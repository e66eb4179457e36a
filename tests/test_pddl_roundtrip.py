"""The one PDDL writer round-trips: read -> write -> read gives the same problem.

For every built-in domain, on problems from the hypothesis strategies and the shared generators
(well-formed and malformed initial states, negative goal literals, objects declared in shuffled
order), on a sample of the dataset generator's rows, and on hostile but valid text: comments,
odd whitespace and case, prose and fences around the problem, typed objects read with relaxed
typing, ``or`` / ``imply`` / ``exists`` / ``forall`` goals.  Domains round-trip too.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import blocksworld_problems, floortile_problems, gripper_problems, rover_problems

from planetarium.dataset import load_rows
from planetarium.domains import get_domain
from planetarium.pddl import read_problem
from planetarium.pddl.domain import Atom, parse_domain
from planetarium.pddl.problem import Formula, Problem
from planetarium.pddl.writer import domain_to_pddl, formula_to_pddl, problem_to_pddl
from planetarium.testing import pairs
from planetarium.testing.generators import (
    DOMAINS,
    dataset_problem,
    random_atoms,
    random_init,
    random_walk_goal,
)

SETTINGS = settings(max_examples=30, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
STRATEGIES = {"blocksworld": blocksworld_problems(well_formed=False),
              "gripper": gripper_problems(well_formed=False),
              "floor-tile": floortile_problems(), "rover-single": rover_problems()}
DATA = Path(__file__).resolve().parent.parent / "data"


def read(text: str, domain: str, relax: bool = False) -> Problem:
    return read_problem(text, get_domain(domain).definition, relax_typing=relax)


def write(problem: Problem) -> str:
    return problem_to_pddl(problem, typed=get_domain(problem.domain).definition.typed)


def assert_round_trip(problem: Problem, relax: bool = False) -> None:
    """Writing ``problem`` and reading it back gives ``problem``; so does a second pass."""
    again = read(write(problem), problem.domain, relax)
    assert again == problem, (problem, write(problem))
    assert read(write(again), problem.domain, relax) == problem


def relaxed(problem: Problem) -> Problem:
    """``problem`` as read with relaxed typing: every object of type ``object``."""
    return replace(problem, object_types=("object",) * len(problem.objects))


@st.composite
def generated(draw) -> Problem:
    """A problem from the shared generators: dataset-shaped, or a messy initial state with a
    random-walk goal and random negative literals."""
    domain = draw(st.sampled_from(DOMAINS))
    rng = random.Random(draw(st.integers(0, 2**32)))
    if draw(st.booleans()):
        return dataset_problem(domain, rng, draw(st.integers(2, 8)))
    definition = get_domain(domain).definition
    problem = random_init(domain, rng, draw(st.integers(2, 6)))
    goal = random_walk_goal(definition, problem, rng, steps=5)
    negative = random_atoms(definition, problem, rng, draw(st.integers(0, 3))) - goal
    return replace(problem, goal=frozenset(goal), negative_goal=frozenset(negative))


@pytest.mark.parametrize("domain", DOMAINS)
def test_strategy_problems_round_trip(domain: str) -> None:
    @SETTINGS
    @given(STRATEGIES[domain], st.booleans())
    def run(problem: Problem, relax: bool) -> None:
        assert_round_trip(relaxed(problem) if relax else problem, relax)

    run()


@SETTINGS
@given(generated(), st.integers(0, 2**32))
def test_generated_problems_round_trip_also_renamed(problem: Problem, seed: int) -> None:
    """Also the renamed, redeclared copies pairs.render writes (the objects' declaration order
    must survive: it orders the graph's nodes)."""
    assert_round_trip(problem)
    text = pairs.render(problem, random.Random(seed),
                        typed=get_domain(problem.domain).definition.typed)
    assert read(text, problem.domain) == pairs.renamed(problem, random.Random(seed))


@cache
def _dataset_sample() -> list[dict]:
    """Every 15th row of the demo dataset (all four domains), generated in memory."""
    return load_rows(DATA / "demo.yaml")[::15]


def test_dataset_rows_round_trip() -> None:
    rows = _dataset_sample()
    assert {row["domain"] for row in rows} == set(DOMAINS)
    for row in rows:
        assert_round_trip(read(row["problem_pddl"], row["domain"]))


# ---------------------------------------------------------------- hostile but valid text

_TOKEN = re.compile(r"[()]|[^\s()]+")
_GAPS = (" ", "  ", "\n", "\t", " \r\n ", " ; a comment (with (parens\n", "\n;;; (define\n  ")


def mangled(text: str, rng: random.Random) -> str:
    """``text`` with every token re-cased at random, random white space and comments between
    tokens, and sometimes prose and a code fence around it.  The ``(define (problem`` header
    keeps plain spaces: the reader finds a problem in model output by that header
    (pddl/extract.py), so a comment inside it hides the problem."""
    out = []
    for index, token in enumerate(_TOKEN.findall(text)):
        out.append(rng.choice((str, str.upper, str.title))(token))
        out.append(rng.choice(_GAPS) if index > 3 and rng.random() < 0.25 else " ")
    body = "".join(out)
    if rng.random() < 0.5:
        body = f"Sure! Here is the problem:\n```pddl\n{body}\n```\nIt has {len(out)} tokens."
    return body


@pytest.mark.parametrize("domain", DOMAINS)
def test_hostile_text_reads_as_the_problem(domain: str) -> None:
    @SETTINGS
    @given(STRATEGIES[domain], st.integers(0, 2**32))
    def run(problem: Problem, seed: int) -> None:
        text = mangled(write(problem), random.Random(seed))
        assert read(text, domain) == problem
        assert_round_trip(read(text, domain))

    run()


def test_typed_objects_read_with_relaxed_typing() -> None:
    """Types an untyped domain does not know, or a typed domain's own, all read as ``object``
    with relaxed typing; the writer's ``- object`` declarations read back the same."""
    text = ("(define (problem p) (:domain blocksworld) (:objects a b - block c - object)"
            " (:init (arm-empty) (on-table a) (on b a) (clear b) (on-table c) (clear c))"
            " (:goal (and (on a c))))")
    problem = read(text, "blocksworld", relax=True)
    assert problem.object_types == ("object",) * 3
    assert_round_trip(problem, relax=True)
    assert read(problem_to_pddl(problem, typed=True), "blocksworld", relax=True) == problem
    floor = ("(define (problem p) (:domain floor-tile) (:objects t1 t2 - tile r - robot c - color)"
             " (:init (up t2 t1) (robot-at r t1) (robot-has r c)) (:goal (painted t2 c)))")
    assert_round_trip(read(floor, "floor-tile", relax=True), relax=True)


def _variables(atom: Atom, types: dict[str, str], bound: dict[str, str]) -> Atom:
    """``atom`` with its first argument replaced by a variable of its type, bound in ``bound``."""
    if len(atom) < 2:
        return atom
    var = f"?v{len(bound)}"
    bound[var] = types[atom[1]]
    return (atom[0], var, *atom[2:])


@st.composite
def formula(draw, atoms: list[Atom], types: dict[str, str], depth: int = 3) -> Formula:
    """A random goal formula over ``atoms``: and / or / not / imply / exists / forall."""
    kind = draw(st.sampled_from(("atom",) if depth == 0 else
                                ("atom", "and", "or", "not", "imply", "exists", "forall")))
    if kind == "atom":
        return ("atom", draw(st.sampled_from(atoms)))
    if kind in ("and", "or"):
        return (kind, *draw(st.lists(formula(atoms, types, depth - 1), min_size=1, max_size=3)))
    if kind == "not":
        return ("not", draw(formula(atoms, types, depth - 1)))
    if kind == "imply":
        return ("imply", draw(formula(atoms, types, depth - 1)),
                draw(formula(atoms, types, depth - 1)))
    bound: dict[str, str] = {}
    inner = _variables(draw(st.sampled_from(atoms)), types, bound)
    if not bound:
        return ("atom", inner)
    body = ("and", ("atom", inner), draw(formula(atoms, types, depth - 1)))
    return (kind, tuple(bound.items()), body)


@pytest.mark.parametrize("domain", DOMAINS)
def test_formula_goals_round_trip(domain: str) -> None:
    """Goals beyond conjunctions of literals are kept whole (``goal_formula``) and written back
    as read."""
    @SETTINGS
    @given(STRATEGIES[domain].filter(lambda p: p.objects and p.init), st.data())
    def run(problem: Problem, data) -> None:
        goal = data.draw(formula(sorted(problem.init | problem.goal), problem.type_of))
        text = write(replace(problem, goal=frozenset(), goal_formula=goal))
        assert formula_to_pddl(goal) in text
        assert_round_trip(read(text, domain))

    run()


@pytest.mark.parametrize("domain", DOMAINS)
def test_domains_round_trip(domain: str) -> None:
    """The STRIPS fragment a domain holds survives domain_to_pddl and parsing (requirements are
    written as :strips, plus :typing for a typed domain)."""
    definition = get_domain(domain).definition
    again = parse_domain(domain_to_pddl(definition, typed=definition.typed))
    assert again.typed == definition.typed
    assert replace(again, requirements=definition.requirements) == definition
