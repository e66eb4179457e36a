"""The generic grading path on ACPBench's domains (issue 37): no closed form, just the domain file.

Small problems of twelve domains the project has no code for (planetarium.testing.acp_problems)
are checked against a brute-force oracle written here: ``Domain.fully_specify`` against the
intersection of the reachable goal states, and the grader's verdicts against Definition 2 decided
by enumeration (planetarium.testing.bruteforce's referee).  The metamorphic checks (renamed
objects, shuffled declarations, implied goal facts added and dropped) run at two sizes: ``small``
(the oracle's implied facts) and ``acp`` (ACPBench's sizes, the engine's own implied facts, each
pair within the grader's default 10 s).
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import replace

import pytest

from planetarium.equivalence import PlaceholderSemantics
from planetarium.grading import Status, grade
from planetarium.limits import deadline_for
from planetarium.pddl.domain import Atom, DomainDef
from planetarium.pddl.problem import Problem, read_problem
from planetarium.pddl.writer import problem_to_pddl
from planetarium.strips.grounding import ground_actions
from planetarium.testing.acp_problems import GENERATORS, AcpGenerator
from planetarium.testing.bruteforce import equivalent_by_definition
from planetarium.testing.pairs import goal_renamed, near_miss, renamed

DOMAINS = sorted(GENERATORS)
SEEDS = range(3)


def goal_states(definition: DomainDef, problem: Problem) -> list[frozenset[Atom]]:
    """Every reachable state that satisfies the goal, by breadth-first search (the oracle)."""
    actions = list(ground_actions(definition, problem))
    start = frozenset(problem.init)
    seen, queue = {start}, deque([start])
    while queue:
        state = queue.popleft()
        for action in actions:
            if action.pre <= state:
                successor = (state - action.delete) | action.add
                if successor not in seen:
                    assert len(seen) < 100_000, "too large for the oracle"
                    seen.add(successor)
                    queue.append(successor)
    return [s for s in seen if problem.goal <= s and not problem.negative_goal & s]


def text(gen: AcpGenerator, problem: Problem) -> str:
    return problem_to_pddl(problem, typed=gen.domain.definition.typed)


@pytest.mark.parametrize("name", DOMAINS)
def test_generated_problems_are_what_they_say(name):
    gen = GENERATORS[name]
    definition = gen.domain.definition
    for seed in SEEDS:
        for kind, negative in (("reachable", False), ("reachable", True), ("unreachable", False)):
            problem = gen.problem(random.Random(seed), gen.small, goal=kind, negative=negative)
            assert read_problem(text(gen, problem), definition) == problem
            assert bool(goal_states(definition, problem)) is (kind == "reachable"), (seed, kind)


@pytest.mark.parametrize("name", DOMAINS)
def test_fully_specify_matches_brute_force(name):
    gen = GENERATORS[name]
    definition = gen.domain.definition
    for seed in SEEDS:
        for kind in ("reachable", "unreachable"):
            problem = gen.problem(random.Random(seed), gen.small, goal=kind)
            states = goal_states(definition, problem)
            expected = frozenset.intersection(*states) if states else None
            with deadline_for(10.0).applied():
                assert gen.domain.fully_specify(problem) == expected, (seed, kind)


def implied_facts(gen: AcpGenerator, problem: Problem, full: frozenset[Atom]) -> list[Atom]:
    """Facts of the fully specified goal ``full`` the goal leaves out (statics excluded)."""
    static = gen.domain.definition.static_predicates
    return sorted(a for a in full - problem.goal if a[0] not in static)


def predictions(gen: AcpGenerator, truth: Problem, rng: random.Random) -> dict[str, Problem]:
    """Answers to grade against ``truth``: equivalent by construction or likely wrong."""
    definition = gen.domain.definition
    states = goal_states(definition, truth)
    extra = implied_facts(gen, truth, frozenset.intersection(*states))
    other = gen.problem(random.Random(rng.random()), gen.small)
    return {
        "renamed": renamed(truth, rng),
        "implied added": renamed(replace(truth, goal=truth.goal | set(extra[:3])), rng),
        "near miss": near_miss(truth, rng),
        "goal's objects renamed, initial state kept": goal_renamed(truth, rng),
        "goal of a walk from another state": replace(truth, goal=other.goal)
        if other.objects == truth.objects else near_miss(truth, rng),
        "one goal fact dropped": replace(truth, goal=truth.goal - {min(truth.goal)})
        if len(truth.goal) > 1 else truth,
        "negated": replace(truth, negative_goal=truth.negative_goal | {min(truth.goal)},
                           goal=truth.goal - {min(truth.goal)}),
    }


@pytest.mark.parametrize("name", DOMAINS)
def test_grading_matches_brute_force(name):
    """Identity, placeholder (the paper's) and strict placeholder verdicts of the grader, with
    the domain given as an object, equal Definition 2 decided by enumeration."""
    gen = GENERATORS[name]
    definition = gen.domain.definition
    modes = [(False, PlaceholderSemantics.PAPER), (True, PlaceholderSemantics.PAPER),
             (True, PlaceholderSemantics.REACHABLE_GOAL_STATES)]
    for seed in SEEDS:
        rng = random.Random(seed)
        truth = gen.problem(rng, gen.small, negative=seed == 2)
        for label, prediction in predictions(gen, truth, rng).items():
            for placeholder, semantics in modes:
                result = grade(text(gen, truth), text(gen, prediction), domain=gen.domain,
                               is_placeholder=placeholder, placeholder_semantics=semantics)
                expected = equivalent_by_definition(
                    definition, truth, prediction, is_placeholder=placeholder,
                    placeholder_semantics=semantics.value)
                assert result.status is Status.DECIDED, (seed, label, result.reason)
                assert result.equivalent is expected, (seed, label, placeholder, semantics,
                                                       result.reason)


def engine_closure(gen: AcpGenerator, truth: Problem) -> frozenset[Atom]:
    """The engine's fully specified goal of ``truth``, within the grader's 10 s."""
    with deadline_for(10.0).applied():
        full = gen.domain.fully_specify(truth)
    assert full is not None  # reachable by construction
    return full


@pytest.mark.parametrize("scale", ("small", "acp"))
@pytest.mark.parametrize("name", DOMAINS)
def test_metamorphic_variants_are_equivalent(name, scale):
    """Renaming objects, shuffling declarations, adding implied goal facts and dropping them
    again never changes the verdict: every such pair is decided equivalent in both modes.  The
    implied facts are the engine's own (``fully_specify``) at ``acp`` scale and the oracle's at
    ``small`` scale."""
    gen = GENERATORS[name]
    size = gen.acp if scale == "acp" else gen.small
    for seed in SEEDS:
        rng = random.Random(seed)
        truth = gen.problem(rng, size)
        if scale == "acp":
            full = engine_closure(gen, truth)
        else:
            full = frozenset.intersection(*goal_states(gen.domain.definition, truth))
        extra = implied_facts(gen, truth, full)
        fuller = replace(truth, goal=truth.goal | set(rng.sample(extra, min(len(extra), 4))))
        pairs = {"renamed": (truth, renamed(truth, rng)),
                 "shuffled, names kept": (truth, renamed(truth, rng, rename=False)),
                 "implied facts added": (truth, renamed(fuller, rng)),
                 "implied facts dropped": (fuller, renamed(truth, rng))}
        for label, (a, b) in pairs.items():
            for placeholder in (False, True):
                result = grade(text(gen, a), text(gen, b), domain=gen.domain,
                               is_placeholder=placeholder)
                assert (result.status, result.equivalent) == (Status.DECIDED, True), (
                    seed, label, placeholder, result.reason)


def test_goal_refuted_by_h2_is_decided_unsolvable():
    """ACPBench's swap at its size with one role asked of two agents: no plan, which a search
    proves only by exhausting 8! states (past the 10 s limit) and h^2 proves at once (two goal
    atoms mutex): the pair is decided, not equivalent, and the answer is called unsolvable."""
    gen = GENERATORS["swap"]
    truth = gen.problem(random.Random(1), gen.acp)
    assignment = sorted(a for a in truth.init if a[0] == "assigned")
    (_, first, role), (_, second, _) = assignment[:2]
    wrong = replace(truth, goal=frozenset({("assigned", first, role), ("assigned", second, role)}))
    result = grade(text(gen, truth), text(gen, wrong), domain=gen.domain)
    assert (result.status, result.equivalent) == (Status.DECIDED, False), result.reason
    assert "unsolvable" in result.reason or "no plan" in result.reason, result.reason
