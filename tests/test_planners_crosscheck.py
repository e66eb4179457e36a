"""Cross-checks against independent implementations from the ``[planners]`` extra.

unified-planning's SequentialPlanValidator replays our planners' plans (a second VAL; it refuses
an action named like a predicate, so Floor-tile's moves are renamed ``move-up``...), and Mimir
(pymimir) decides the same problems with a general-purpose planner (a second opinion on every
"unsolvable").  Skipped cleanly when the optional packages are absent.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from planetarium.domains import get_domain
from planetarium.errors import ResourceLimitError
from planetarium.limits import Deadline
from planetarium.pddl.writer import problem_to_pddl
from planetarium.strips.plan_io import format_plan
from planetarium.testing.bruteforce import solvable_by_enumeration
from planetarium.testing.generators import (
    DOMAINS,
    random_atoms,
    random_init,
    random_problem,
    random_walk_goal,
)

pytestmark = pytest.mark.planners


def _sample(domain: str, seed: str, count: int, unsolvable_too: bool):
    rng = random.Random(seed)
    definition = get_domain(domain).definition
    for i in range(count):
        problem = random_init(domain, rng, scale=3 + i % 3)
        goal = random_walk_goal(definition, problem, rng, steps=15)
        if unsolvable_too and i % 2:
            goal |= random_atoms(definition, problem, rng, 1)
        yield replace(problem, goal=frozenset(goal))


@pytest.mark.parametrize("domain", DOMAINS)
def test_plans_accepted_by_unified_planning(domain, tmp_path):
    pytest.importorskip("unified_planning")
    from unified_planning.engines import ValidationResultStatus
    from unified_planning.engines.plan_validator import SequentialPlanValidator
    from unified_planning.io import PDDLReader

    definition = get_domain(domain)
    domain_file = tmp_path / "domain.pddl"
    domain_file.write_text(re.sub(r"\(:action (up|down|left|right)\b", r"(:action move-\1",
                                  definition.pddl))
    checked = 0
    for problem in _sample(domain, f"up-{domain}", 60, unsolvable_too=False):
        try:
            plan = definition.solve(problem, Deadline.start(5.0))
        except ResourceLimitError:
            continue
        if plan is None or not plan:
            continue
        problem_file = tmp_path / "problem.pddl"
        problem_file.write_text(problem_to_pddl(problem, typed=definition.definition.typed))
        reader = PDDLReader()
        up_problem = reader.parse_problem(str(domain_file), str(problem_file))
        text = format_plan(plan)
        if domain == "floor-tile":
            text = re.sub(r"^\((up|down|left|right) ", r"(move-\1 ", text, flags=re.M)
        up_plan = reader.parse_plan_string(up_problem, text)
        result = SequentialPlanValidator().validate(up_problem, up_plan)
        assert result.status == ValidationResultStatus.VALID, (plan, result.reason)
        checked += 1
        if checked == 10:  # unified-planning needs about a second per plan
            break
    assert checked == 10


@pytest.mark.parametrize("domain", DOMAINS)
def test_verdicts_agree_with_mimir(domain, generic_calls):
    """Mimir's verdict on the domain planner's: where the domain planner itself hands the
    problem to the generic planner (Mimir), the two would be Mimir twice — counted, not
    compared."""
    pytest.importorskip("pymimir")
    from planetarium.strips.generic import generic_solve

    definition = get_domain(domain)
    compared = unsolvable = handed_off = 0
    for problem in _sample(domain, f"mimir-{domain}", 30, unsolvable_too=True):
        before = generic_calls["calls"]
        try:
            ours = definition.solve(problem, Deadline.start(5.0))
            if generic_calls["calls"] != before:
                handed_off += 1
                continue
            theirs = generic_solve(definition.definition, problem, Deadline.start(5.0))
        except ResourceLimitError:
            continue
        assert (ours is None) == (theirs is None), (sorted(problem.init), sorted(problem.goal))
        unsolvable += ours is None
        compared += 1
    print(f"\n{domain}: {compared} compared ({unsolvable} unsolvable), {handed_off} handed by "
          "the domain planner to the generic one (not compared)")
    assert compared >= 25 and unsolvable >= 3


@pytest.mark.parametrize("domain", DOMAINS)
def test_mimir_fallback_agrees_with_bruteforce(domain):
    """An exhausted Mimir search is trusted as a proof of unsolvability: check that on small
    problems, malformed initial states included."""
    pytest.importorskip("pymimir")
    from planetarium.strips.generic import generic_solve

    rng = random.Random(f"mimir-bruteforce-{domain}")
    definition = get_domain(domain).definition
    compared = 0
    for i in range(60):
        problem = random_problem(domain, rng, scale=2 + i % 2, arbitrary_init=i % 3 == 0,
                                 goal_atoms=(1, 2), walk_steps=5)
        truth = solvable_by_enumeration(definition, problem, 5_000)
        if truth is None:
            continue
        assert (generic_solve(definition, problem, Deadline.start(10.0)) is not None) == truth
        compared += 1
    assert compared >= 55
