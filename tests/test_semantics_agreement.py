"""Beyond the paper: negative goals, anchored names and strict placeholder mode against brute force.

Hypothesis draws small problems per domain (well-formed and malformed-but-legal initial states),
turns part of each goal into negative literals, and pairs it with a variant: the same goal with
redundant or missing literals, objects permuted among their own names, or an unrelated problem.
``compare`` must equal :func:`~planetarium.testing.bruteforce.equivalent_by_definition` — in
identity mode, the paper's placeholder mode and the strict one, with and without anchors.  Each
test prints how many negative-goal closures the closed form decided and how many went to the
generic method (witnesses and proofs, planetarium.strips.forced), and asserts both decided some.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import blocksworld_problems, floortile_problems, gripper_problems, rover_problems

from planetarium.domains import get_domain
from planetarium.equivalence import Limits, compare
from planetarium.equivalence.closure import CLOSED_FORM, candidate_atoms, literal_closure
from planetarium.errors import ResourceLimitError
from planetarium.limits import Deadline
from planetarium.pddl.problem import Problem
from planetarium.testing.bruteforce import equivalent_by_definition
from planetarium.testing.generators import dataset_problem, random_atoms


def _limits():
    """A comparison's own deadline: compare has no default limit."""
    return Limits(Deadline.start(10.0))


MAX_STATES = 20_000
MODES = [(False, "paper"), (True, "paper"), (True, "reachable-goal-states")]


def small(strategy, max_objects: int = 6):
    return strategy.filter(lambda p: len(p.objects) <= max_objects)


STRATEGIES = {
    "blocksworld": st.one_of(blocksworld_problems(max_blocks=4),
                             blocksworld_problems(max_blocks=4, well_formed=False)),
    "gripper": st.one_of(gripper_problems(max_rooms=2, max_balls=2, max_grippers=2),
                         gripper_problems(max_rooms=2, max_balls=2, max_grippers=2,
                                          well_formed=False)),
    "floor-tile": small(floortile_problems()),
    "rover-single": small(rover_problems()),
}


def permuted(p: Problem, seed: int) -> Problem:
    """``p`` with objects permuted among names of the same type (so anchors stay meaningful)."""
    rng = random.Random(seed)
    mapping: dict[str, str] = {}
    for type_name in set(p.object_types):
        names = [o for o, t in zip(p.objects, p.object_types, strict=True) if t == type_name]
        shuffled = list(names)
        rng.shuffle(shuffled)
        mapping.update(zip(names, shuffled, strict=True))

    def ren(atoms):
        return frozenset((a[0],) + tuple(mapping[x] for x in a[1:]) for a in atoms)

    return replace(p, init=ren(p.init), goal=ren(p.goal), negative_goal=ren(p.negative_goal))


def _redundant(domain, p: Problem, pool: list) -> list:
    """Atoms whose negation adds nothing to ``p``'s positive goal (no reachable goal state has
    them): the negative literals the closed form decides, which random atoms rarely are."""
    if not domain.closed_form_covers(p):
        return []
    return [a for a in pool[:40] if domain.fully_specify(replace(p, goal=p.goal | {a})) is None]


@st.composite
def negative_goal(draw, p: Problem) -> Problem:
    """``p`` with some goal atoms negated and some other atoms required false (one in three
    problems also gets a redundant one)."""
    domain = get_domain(p.domain)
    pool = sorted(candidate_atoms(domain, p))
    goal = sorted(p.goal)
    flip = draw(st.lists(st.booleans(), min_size=len(goal), max_size=len(goal)))
    extra = draw(st.sets(st.sampled_from(pool), max_size=2)) if pool else set()
    positive = frozenset(a for a, f in zip(goal, flip, strict=True) if not f)
    negative = frozenset(a for a, f in zip(goal, flip, strict=True) if f) | extra
    wanted = draw(st.integers(0, 2)) == 0
    redundant = _redundant(domain, replace(p, goal=positive), pool) if wanted else []
    if redundant:
        negative |= {draw(st.sampled_from(redundant))}
    return replace(p, goal=positive, negative_goal=negative)


@st.composite
def pairs(draw, domain_name: str):
    """(a, b, anchors): a has a literal goal; b is a variant of a, or unrelated."""
    a = draw(negative_goal(draw(STRATEGIES[domain_name])))
    how = draw(st.sampled_from(["permuted", "literal-dropped", "literal-added", "independent"]))
    if how == "independent":
        b = draw(negative_goal(draw(STRATEGIES[domain_name])))
    else:
        b = a
        literals = sorted(a.goal) + sorted(a.negative_goal)
        if how == "literal-dropped" and literals:
            drop = draw(st.sampled_from(literals))
            b = replace(a, goal=a.goal - {drop}, negative_goal=a.negative_goal - {drop})
        elif how == "literal-added":
            pool = sorted(candidate_atoms(get_domain(a.domain), a))
            if pool:
                b = replace(a, negative_goal=a.negative_goal | {draw(st.sampled_from(pool))})
        b = permuted(b, draw(st.integers(0, 10**6)))
    common = sorted(set(a.objects) & set(b.objects))
    anchors = frozenset(draw(st.sets(st.sampled_from(common), max_size=2))) if common else frozenset()
    return a, b, anchors


def _strict_method(reason: str) -> str:
    """Which step of planetarium.strict decided a strict-placeholder verdict (from its reason)."""
    if "keeps the reachable states" in reason:
        return "reachability signature"
    if "set of reachable goal states" in reason:
        return "goal-state search"
    return "graph checks before the gap"


def check(a: Problem, b: Problem, anchors: frozenset[str], tally: Counter) -> None:
    domain = get_domain(a.domain)
    try:
        for problem in (a, b):
            with Deadline.start(10.0).applied():
                closure = literal_closure(domain, problem)
            tally[closure.how if closure else "no goal state"] += 1
            if problem.negative_goal and closure:  # decided with negative literals present
                tally[f"{closure.how} with negative literals"] += 1
    except ResourceLimitError:
        tally["too large"] += 1
        return
    for use_anchors in (frozenset(), anchors):
        verdicts = {}
        for placeholder, semantics in MODES:
            try:
                expected = equivalent_by_definition(
                    domain.definition, a, b, is_placeholder=placeholder, max_states=MAX_STATES,
                    anchors=use_anchors, placeholder_semantics=semantics)
                got = compare(a, b, domain, limits=_limits(), is_placeholder=placeholder,
                              anchored_objects=use_anchors, placeholder_semantics=semantics)
            except ResourceLimitError:
                tally["too large"] += 1
                continue
            tally[f"{'equivalent' if expected else 'not equivalent'}"] += 1
            verdicts[placeholder, semantics] = expected
            if semantics == "reachable-goal-states":
                tally[f"strict decided by {_strict_method(got.reason)}"] += 1
            assert got.equivalent == expected, (placeholder, semantics, sorted(use_anchors),
                                                got.reason, a, b)
        if len(verdicts) == len(MODES) and verdicts[MODES[1]] != verdicts[MODES[2]]:
            tally["strict differs from paper"] += 1


@pytest.mark.parametrize("domain_name", list(STRATEGIES))
def test_graph_agrees_with_brute_force(domain_name):
    tally: Counter = Counter()

    @settings(max_examples=100, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(pairs(domain_name))
    def run(pair):
        check(*pair, tally)

    run()
    print(f"\n{domain_name}: {dict(tally)}")
    assert tally[f"{CLOSED_FORM} with negative literals"] > 0, \
        "the closed form decided no closure of a goal with negative literals"
    assert tally["generic"] > 0, "no example exercised the generic closure"
    assert tally["equivalent"] > 0 and tally["not equivalent"] > 0


#: Per domain: the size of its dataset-shaped problems and a floor on the closures the closed
#: form decides (measured: 6, 6 and 5 of 18; before the dataset-shaped problems: 0, 0 and 2 of 8).
KIT_BOUNDS = {"blocksworld": (3, 5), "gripper": (2, 5), "floor-tile": (2, 4)}


@pytest.mark.parametrize("domain_name", list(KIT_BOUNDS))
def test_conformance_kit_covers_the_new_semantics(domain_name):
    """The kit a plug-in author runs, with negative goal literals, against enumeration
    (closures and verdicts in every mode) on random problems from the domain file alone.  Those
    are rarely well-formed, so their closures are mostly the generic method's; the closures are
    also checked on dataset-shaped problems, where the closed form decides.  (Verdicts on
    dataset-shaped problems: the tests above.)"""
    from planetarium.testing.conformance import (
        check_equivalence,
        check_literal_closure,
        random_problems,
    )

    domain = get_domain(domain_name)
    size, least_closed_form = KIT_BOUNDS[domain_name]
    rng = random.Random(f"kit-{domain_name}")
    shaped = []
    for _ in range(10):
        p = dataset_problem(domain_name, rng, size)
        negative = random_atoms(domain.definition, p, rng, rng.randint(1, 2)) - p.goal
        shaped.append(replace(p, negative_goal=frozenset(negative)))
    problems = random_problems(domain, count=8, seed=1, objects_per_type=1 if
                               domain.definition.typed else 3, negative=True)
    closures = check_literal_closure(domain, problems + shaped)
    pairs = list(zip(problems, problems[1:] + problems[:1], strict=True))
    pairs += [(p, permuted(p, 7)) for p in problems]
    verdicts = check_equivalence(domain, pairs, anchors=problems[0].objects[:1])
    print(f"\n{domain_name}: closures {closures.checked} checked ({closures.closed_form} in "
          f"closed form), {closures.skipped} skipped; verdicts {verdicts.checked} checked, "
          f"{verdicts.skipped} skipped")
    assert closures.mismatches == [] and verdicts.mismatches == []
    # every case small enough to be compared: nothing skipped
    assert (closures.checked, closures.skipped) == (len(problems) + len(shaped), 0)
    assert (verdicts.checked, verdicts.skipped) == (6 * len(pairs), 0)
    assert closures.closed_form >= least_closed_form


def goal_permuted(p: Problem, seed: int) -> Problem:
    """``p`` with only its goal's objects permuted (same types): the placeholder situation."""
    q = permuted(p, seed)
    return replace(p, goal=q.goal, negative_goal=q.negative_goal)


@pytest.mark.parametrize("domain_name", list(STRATEGIES))
def test_strict_placeholder_gap_agrees_with_brute_force(domain_name):
    """Goals moved to other objects over the same start: where the paper's placeholder mode and
    identity mode disagree, the strict reading must still equal the brute force."""
    tally: Counter = Counter()

    @settings(max_examples=50, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(STRATEGIES[domain_name], st.integers(0, 10**6), st.booleans(), st.data())
    def run(p, seed, negate, data):
        a = data.draw(negative_goal(p)) if negate else p
        check(a, goal_permuted(a, seed), frozenset(), tally)

    run()
    print(f"\n{domain_name}: {dict(tally)}")
    if domain_name == "blocksworld":  # gripper's gap cases are in equivalence/strict-placeholder
        assert tally["strict decided by reachability signature"] > 0


def test_paper_placeholder_referee_compares_fully_specified_goals_only():
    """The paper's placeholder mode does not ask the goal-state sets to have the same size: here
    (a malformed Blocks World start, both goals fully specified by their own atoms) F+ maps onto
    F+ under a renaming although 16 and 12 states reach the goals.  Strict mode tells them apart.
    Found by an unseeded run of test_graph_agrees_with_brute_force."""
    objects = ("b1", "b2", "table", "on")
    init = frozenset({("arm-empty",), ("holding", "b1"), ("holding", "on"), ("on-table", "b1"),
                      ("on-table", "b2"), ("on-table", "on"), ("on-table", "table"),
                      ("clear", "b1"), ("clear", "b2"), ("clear", "on"), ("clear", "table")})
    shared = {("arm-empty",), ("clear", "on"), ("clear", "b2"), ("on-table", "b1"),
              ("on-table", "on")}
    a = Problem(name="p", domain="blocksworld", objects=objects, object_types=("object",) * 4,
                init=init, goal=frozenset(shared | {("on-table", "b2"), ("on", "table", "b1"),
                                                    ("clear", "table")}))
    b = replace(a, goal=frozenset(shared | {("clear", "b1"), ("on-table", "table"),
                                            ("on", "b2", "table")}))
    domain = get_domain("blocksworld")
    for semantics, verdict in (("paper", True), ("reachable-goal-states", False)):
        expected = equivalent_by_definition(domain.definition, a, b, is_placeholder=True,
                                            max_states=MAX_STATES, placeholder_semantics=semantics)
        got = compare(a, b, domain, limits=_limits(), is_placeholder=True, placeholder_semantics=semantics)
        assert expected is got.equivalent is verdict, (semantics, got.reason)
