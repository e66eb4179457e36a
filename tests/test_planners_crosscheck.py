"""Cross-checks against independent implementations from the ``[planners]`` extra.

unified-planning's SequentialPlanValidator replays our planners' plans (a second VAL; it refuses
an action named like a predicate, so Floor-tile's moves are renamed ``move-up``...), and Mimir
(pymimir) decides the same problems with a general-purpose planner (a second opinion on every
"unsolvable").  Skipped cleanly when the optional packages are absent.
"""

from __future__ import annotations

import random
import re

import pytest

from planetarium.domains import get_domain
from planetarium.errors import ResourceLimitError
from planetarium.pddl.writer import problem_to_pddl
from planetarium.strips.plan_io import format_plan

from test_planners import DOMAINS, _problem, random_atoms, random_init, random_walk_goal

pytestmark = pytest.mark.planners


def _sample(domain: str, seed: str, count: int, unsolvable_too: bool):
    rng = random.Random(seed)
    for i in range(count):
        typed, init = random_init(domain, rng, scale=3 + i % 3)
        goal = random_walk_goal(domain, typed, init, rng, steps=15)
        if unsolvable_too and i % 2:
            goal |= random_atoms(domain, typed, rng, 1)
        yield _problem(domain, typed, init, goal)


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
            plan = definition.solve(problem, timeout_s=5.0)
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
def test_verdicts_agree_with_mimir(domain):
    pytest.importorskip("pymimir")
    from planetarium.strips.generic import generic_solve

    definition = get_domain(domain)
    unsolvable = 0
    for problem in _sample(domain, f"mimir-{domain}", 30, unsolvable_too=True):
        try:
            ours = definition.solve(problem, timeout_s=5.0)
            theirs = generic_solve(definition.definition, problem, timeout_s=5.0)
        except ResourceLimitError:
            continue
        assert (ours is None) == (theirs is None), (sorted(problem.init), sorted(problem.goal))
        unsolvable += ours is None
    assert unsolvable >= 3


@pytest.mark.parametrize("domain", DOMAINS)
def test_mimir_fallback_agrees_with_bruteforce(domain):
    """An exhausted Mimir search is trusted as a proof of unsolvability: check that on small
    problems, malformed initial states included."""
    pytest.importorskip("pymimir")
    from planetarium.strips.generic import generic_solve
    from test_planners import _bruteforce_solvable

    rng = random.Random(f"mimir-bruteforce-{domain}")
    definition = get_domain(domain).definition
    for i in range(60):
        typed, init = random_init(domain, rng, scale=2 + i % 2)
        if i % 3 == 0:
            init = random_atoms(domain, typed, rng, rng.randint(1, 8))
        goal = random_atoms(domain, typed, rng, rng.randint(1, 2))
        goal |= random_walk_goal(domain, typed, init, rng, 5)
        problem = _problem(domain, typed, init, goal)
        truth = _bruteforce_solvable(domain, problem)
        if truth is None:
            continue
        assert (generic_solve(definition, problem, 10.0) is not None) == truth
