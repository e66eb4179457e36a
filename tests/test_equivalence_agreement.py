"""The graph algorithm against the brute-force oracle, and metamorphic invariances.

Hypothesis draws small problem pairs (blocksworld <= 5 blocks; gripper <= 3 rooms, 4 balls,
2 grippers), well-formed and not, and the verdict of ``compare`` must equal Definition 2 decided
by enumerating reachable states — in both modes, on every pair.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import blocksworld_problems, gripper_problems

from planetarium.domains import get_domain
from planetarium.equivalence import Limits, compare
from planetarium.limits import Deadline
from planetarium.pddl.problem import Problem
from planetarium.strips.exact import reachable_goal_intersection
from planetarium.testing import pairs
from planetarium.testing.bruteforce import equivalent_by_definition


def _limits():
    """A comparison's own deadline: compare has no default limit."""
    return Limits(Deadline.start(10.0))


SETTINGS = settings(max_examples=500, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))
MAX_STATES = 50_000


def renamed(p: Problem, seed: int) -> Problem:
    """``p`` with objects renamed by a random permutation and declared in shuffled order."""
    return pairs.renamed(p, random.Random(seed), prefix="x")


def with_goal(p: Problem, goal) -> Problem:
    return Problem(p.name, p.domain, p.objects, p.object_types, p.init, frozenset(goal))


@st.composite
def problem_pairs(draw, problems):
    """(a, b) with b renamed; b's goal is a subset of a's closure, other facts, or b unrelated."""
    a = draw(problems)
    how = draw(st.sampled_from(["closure-subset", "other-goal", "independent"]))
    if how == "independent":
        b = draw(problems)
    elif how == "closure-subset":
        closure = reachable_goal_intersection(get_domain(a.domain).definition, a, MAX_STATES)
        pool = sorted(closure if closure is not None else a.goal)
        keep = draw(st.lists(st.booleans(), min_size=len(pool), max_size=len(pool)))
        b = with_goal(a, [f for f, k in zip(pool, keep, strict=True) if k])
    else:
        pool = sorted(a.init | a.goal)
        b = with_goal(a, draw(st.sets(st.sampled_from(pool), max_size=4)) if pool else a.goal)
    return a, renamed(b, draw(st.integers(0, 10**6)))


def check_agreement(a: Problem, b: Problem) -> None:
    domain = get_domain(a.domain)
    for placeholder in (False, True):
        expected = equivalent_by_definition(domain.definition, a, b, is_placeholder=placeholder,
                                            max_states=MAX_STATES)
        got = compare(a, b, domain, limits=_limits(), is_placeholder=placeholder)
        assert got.equivalent == expected, (placeholder, got.reason, a, b)


@SETTINGS
@given(problem_pairs(blocksworld_problems(max_blocks=4)))
def test_blocksworld_graph_agrees_with_brute_force(pair):
    check_agreement(*pair)


@SETTINGS
@given(problem_pairs(gripper_problems(max_rooms=3, max_balls=3, max_grippers=2)))
def test_gripper_graph_agrees_with_brute_force(pair):
    check_agreement(*pair)


@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(problem_pairs(blocksworld_problems(max_blocks=5, well_formed=False)))
def test_blocksworld_malformed_inits_agree(pair):
    check_agreement(*pair)


@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(problem_pairs(gripper_problems(max_balls=3, well_formed=False)))
def test_gripper_malformed_inits_agree(pair):
    check_agreement(*pair)


# --- metamorphic: renaming, shuffling, adding or dropping implied goal facts ----------------

@pytest.mark.parametrize("strategy", [blocksworld_problems(max_blocks=5),
                                      gripper_problems(max_balls=4)], ids=["bw", "gripper"])
def test_metamorphic_variants_keep_the_verdict(strategy):
    @settings(max_examples=200, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(strategy, st.integers(0, 10**6), st.data())
    def run(p, seed, data):
        domain = get_domain(p.domain)
        closure = domain.fully_specify(p)
        variants = [renamed(p, seed)]
        if closure is not None:
            extra = data.draw(st.sets(st.sampled_from(sorted(closure)))) if closure else set()
            variants.append(renamed(with_goal(p, p.goal | extra), seed + 1))  # implied facts added
            variants.append(renamed(with_goal(p, closure), seed + 2))  # everything implied stated
        for variant in variants:
            for placeholder in (False, True):
                assert compare(p, variant, domain, limits=_limits(), is_placeholder=placeholder).equivalent
                assert compare(variant, p, domain, limits=_limits(), is_placeholder=placeholder).equivalent
    run()
