"""Deciding solvability: the library functions behind the grader's "solvable" column.

Built-in domains answer with their own exact polynomial planners (``domains/<pkg>/planner.py``).
Plug-in domains without one get :func:`generic_solve`: Mimir (``pymimir``, the ``[planners]``
extra) when it is installed — an in-process C++ planner with a time limit: median 0.01–0.25 s
on dataset-sized problems (0.06 s on 20 blocks, where our own search needs 0.25 s), while Fast
Downward through unified-planning costs 0.4–0.8 s per call in process start-up and translation
(``bench/bench_solvability.py --compare``) — and otherwise Planetarium's own complete search
(:mod:`planetarium.strips.search`).
Either way a time-out is "unknown", never "unsolvable", and every plan a planner returns is
replayed by our validator before it counts as a proof of solvability.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from .errors import MissingExtraError, ResourceLimitError, require
from .limits import time_limit
from .pddl.domain import DomainDef
from .pddl.problem import Problem
from .pddl.writer import problem_to_pddl
from .strips.exact import solve_exhaustively
from .strips.grounding import fits_type
from .strips.plan_io import GroundStep, parse_plan
from .strips.search import solve_by_search
from .strips.validate import validate_plan

if TYPE_CHECKING:
    from .domains.base import Domain

SolveStatus = Literal["solvable", "unsolvable", "unknown"]


@dataclass(frozen=True)
class SolveResult:
    """Whether a problem has a plan: a validated ``plan``, a proof of none, or "unknown" and why."""

    status: SolveStatus
    plan: tuple[GroundStep, ...] | None = None
    reason: str = ""


def check_solvable(domain: Domain, problem: Problem, timeout_s: float | None = 10.0) -> SolveResult:
    """Solve ``problem`` with ``domain``'s planner and validate the plan it returns.

    A plan that fails validation is reported "unknown" with the validator's message: a planner
    bug must never turn into a false "solvable".  For a goal with negative literals the domain
    planner solves its positive part first (no plan there: none for the goal; a plan that also
    keeps the negative literals false: done); otherwise, and for ``or`` / ``exists`` / ...
    goals, the bounded exhaustive search decides (running out is "unknown").
    """
    contradiction = sorted(problem.goal & problem.negative_goal)
    if contradiction:
        return SolveResult("unsolvable", None, "the goal requires both "
                           f"({' '.join(contradiction[0])}) and its negation")
    start = time.monotonic()
    planner = f"{domain.name} planner"
    try:
        plan = domain.solve(replace(problem, negative_goal=frozenset(), goal_formula=None),
                            timeout_s) if problem.goal_formula is None else None
        if not problem.has_plain_goal and (plan is None or not validate_plan(
                domain.definition, problem, plan).ok):
            # The positive part alone has no plan (then neither has the goal), or its plan
            # misses the negative literals / formula: search under the full goal test.
            if problem.goal_formula is None and plan is None:
                return SolveResult("unsolvable", None, f"no plan exists ({planner}, positive "
                                                       "part of the goal)")
            planner = "exhaustive search"
            left = None if timeout_s is None else max(0.0, timeout_s - (time.monotonic() - start))
            with time_limit(left):
                plan = solve_exhaustively(domain.definition, problem)
    except ResourceLimitError as err:
        return SolveResult("unknown", None, str(err))
    if plan is None:
        return SolveResult("unsolvable", None, f"no plan exists ({planner})")
    verdict = validate_plan(domain.definition, problem, plan)
    if not verdict.ok:
        return SolveResult("unknown", None, f"planner returned an invalid plan: {verdict.message}")
    return SolveResult("solvable", tuple(tuple(step) for step in plan), verdict.message)


def generic_solve(domain: DomainDef, problem: Problem,
                  timeout_s: float | None = None) -> list[GroundStep] | None:
    """A plan, ``None`` when none exists, or :class:`ResourceLimitError` when time runs out.

    Uses Mimir when the ``[planners]`` extra is installed and the built-in search otherwise, or
    when Mimir cannot read the task, or when the task is so large that Mimir's grounding alone
    would outlast ``timeout_s`` (it cannot be interrupted; ours can).
    """
    start = time.monotonic()
    try:
        mimir = require("pymimir", "planners")
    except MissingExtraError:
        return solve_by_search(domain, problem, timeout_s)
    if (timeout_s is not None
            and grounding_estimate(domain, problem) > timeout_s * _MIMIR_GROUNDING_RATE):
        # Mimir's C++ grounding cannot be interrupted; our grounding checks the clock
        return solve_by_search(domain, problem, timeout_s)
    try:
        return _solve_with_mimir(mimir, domain, problem, timeout_s)
    except RuntimeError:  # Mimir's parser refused the task: our own search still decides it
        left = None if timeout_s is None else max(0.0, timeout_s - (time.monotonic() - start))
        return solve_by_search(domain, problem, left)


#: Ground actions Mimir instantiates per second (measured: 40k moves in 0.9 s, 1M in 36 s).
_MIMIR_GROUNDING_RATE = 30_000


def grounding_estimate(domain: DomainDef, problem: Problem) -> int:
    """An upper bound on the number of ground actions: per parameter, the objects of its type
    that fill the same position of every static precondition atom in the initial state."""
    static_args: dict[tuple[str, int], set[str]] = {}
    for atom in problem.init:
        if atom[0] in domain.static_predicates:
            for i, arg in enumerate(atom[1:]):
                static_args.setdefault((atom[0], i), set()).add(arg)
    types = dict(zip(problem.objects, problem.object_types))
    total = 0
    for action in domain.actions.values():
        size = 1
        for var, param_type in action.parameters:
            pool = {o for o in problem.objects if fits_type(domain, types[o], param_type)}
            for pre in action.precondition:
                if pre[0] in domain.static_predicates:
                    for i, term in enumerate(pre[1:]):
                        if term == var:
                            pool &= static_args.get((pre[0], i), set())
            size *= len(pool)
        total += size
    return total


@contextmanager
def _quiet_stdout() -> Iterator[None]:
    """Silence file descriptor 1: Mimir's grounder prints every reachable atom from C++."""
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 1)
            yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def domain_to_pddl(domain: DomainDef, *, typed: bool) -> str:
    """Write a parsed STRIPS domain back as PDDL (types dropped unless ``typed``)."""

    def params(pairs) -> str:
        return " ".join(f"{v} - {t}" if typed else v for v, t in pairs)

    def conj(atoms, negated=()) -> str:
        parts = ["(" + " ".join(a) + ")" for a in atoms]
        parts += ["(not (" + " ".join(a) + "))" for a in negated]
        return "(and " + " ".join(parts) + ")"

    lines = [f"(define (domain {domain.name})",
             "(:requirements :strips" + (" :typing)" if typed else ")")]
    if typed and domain.types:
        lines.append("(:types " + " ".join(f"{t} - {p}" for t, p in domain.types.items()) + ")")
    lines.append("(:predicates " + " ".join(
        f"({name} {params((f'?a{i}', t) for i, t in enumerate(sig))})"
        for name, sig in domain.predicates.items()) + ")")
    for action in domain.actions.values():
        lines.append(f"(:action {action.name} :parameters ({params(action.parameters)})"
                     f" :precondition {conj(action.precondition)}"
                     f" :effect {conj(action.add, action.delete)})")
    return "\n".join(lines) + ")\n"


def _solve_with_mimir(mimir, domain: DomainDef, problem: Problem,
                      timeout_s: float | None) -> list[GroundStep] | None:
    """Lazy greedy best-first search with FF in Mimir; FF only prunes relaxed dead ends, so an
    exhausted search is a proof that no plan exists.  Lazy evaluation solves 20-30 block
    problems in 0.04-0.4 s where eager evaluation needs 5-30 s or more."""
    # Relaxed typing leaves objects typed "object"; only an untyped task keeps their meaning.
    typed = domain.typed and all(t != "object" for t in problem.object_types)
    with tempfile.TemporaryDirectory(prefix="planetarium-") as tmp:
        domain_file, problem_file = Path(tmp, "domain.pddl"), Path(tmp, "problem.pddl")
        domain_file.write_text(domain_to_pddl(domain, typed=typed))
        problem_file.write_text(problem_to_pddl(problem, typed=typed))
        with _quiet_stdout():
            task = mimir.Problem(mimir.Domain(domain_file), problem_file)
            result = mimir.gbfs_lazy(task, task.get_initial_state(), mimir.FFHeuristic(task),
                                     max_time_seconds=-1 if timeout_s is None else timeout_s)
    if result.status == "solved":
        return parse_plan("\n".join(str(action) for action in result.solution or ()))
    if result.status in ("exhausted", "unsolvable"):
        return None
    raise ResourceLimitError(f"Mimir stopped without a verdict ({result.status})")
