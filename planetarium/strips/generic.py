"""The generic planner every domain can fall back on: Mimir when installed, our own search
otherwise.

Plug-in domains without an exact planner of their own, and built-in planners meeting initial
states outside the shapes they reason about, call :func:`generic_solve`.  Mimir (``pymimir``, the
``[planners]`` extra) is an in-process C++ planner with a time limit: median 0.01–0.25 s on
dataset-sized problems (0.06 s on 20 blocks, where our own search needs 0.25 s), while Fast
Downward through unified-planning costs 0.4–0.8 s per call in process start-up and translation
(``bench/bench_solvability.py --compare``).  Without it, Planetarium's own complete search
(:mod:`planetarium.strips.search`) decides.  Either way a time-out raises
:class:`~planetarium.errors.ResourceLimitError`, never "unsolvable".
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from ..errors import MissingExtraError, ResourceLimitError, require
from ..limits import Deadline, required
from ..pddl.domain import DomainDef
from ..pddl.problem import Problem
from ..pddl.writer import domain_to_pddl, problem_to_pddl
from .grounding import fits_type
from .plan_io import GroundStep, parse_plan
from .search import solve_by_search


def generic_solve(domain: DomainDef, problem: Problem,
                  deadline: Deadline | None = None) -> list[GroundStep] | None:
    """A plan, ``None`` when none exists, or :class:`ResourceLimitError` past ``deadline``
    (``None``: the deadline in force, :class:`MissingDeadlineError` without one — Mimir must
    never search unbounded).

    Uses Mimir when the ``[planners]`` extra is installed and the built-in search otherwise, or
    when Mimir cannot read the task, or when the task is so large that Mimir's grounding alone
    would outlast the time left (it cannot be interrupted; ours can).
    """
    deadline = required("planning (strips.generic.generic_solve)", deadline)
    try:
        mimir = require("pymimir", "planners")
    except MissingExtraError:
        return solve_by_search(domain, problem, deadline)
    if grounding_estimate(domain, problem) > deadline.remaining() * _MIMIR_GROUNDING_RATE:
        # Mimir's C++ grounding cannot be interrupted; our grounding checks the clock
        return solve_by_search(domain, problem, deadline)
    try:
        return _solve_with_mimir(mimir, domain, problem, deadline)
    except RuntimeError:  # Mimir's parser refused the task: our own search still decides it
        return solve_by_search(domain, problem, deadline)


def mimir_plan_within(domain: DomainDef, problem: Problem,
                      deadline: Deadline) -> list[GroundStep] | None:
    """Mimir's plan for ``problem`` (negative goal literals allowed) found before ``deadline``,
    or ``None`` for any other outcome: the extra missing, the task refused or too large to
    ground in time, no plan, time up.  For witnesses only (the caller replays the plan):
    ``None`` proves nothing."""
    try:
        mimir = require("pymimir", "planners")
    except MissingExtraError:
        return None
    if grounding_estimate(domain, problem) > deadline.remaining() * _MIMIR_GROUNDING_RATE:
        return None
    try:
        return _solve_with_mimir(mimir, domain, problem, deadline)
    except (RuntimeError, ResourceLimitError):
        return None


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
    types = dict(zip(problem.objects, problem.object_types, strict=True))
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


def _solve_with_mimir(mimir: ModuleType, domain: DomainDef, problem: Problem,
                      deadline: Deadline) -> list[GroundStep] | None:
    """Lazy greedy best-first search with FF in Mimir; FF only prunes relaxed dead ends, so an
    exhausted search is a proof that no plan exists.  Lazy evaluation solves 20-30 block
    problems in 0.04-0.4 s where eager evaluation needs 5-30 s or more."""
    # Relaxed typing leaves objects typed "object"; only an untyped task keeps their meaning.
    typed = domain.typed and all(t != "object" for t in problem.object_types)
    with tempfile.TemporaryDirectory(prefix="planetarium-") as tmp:
        domain_file, problem_file = Path(tmp, "domain.pddl"), Path(tmp, "problem.pddl")
        domain_file.write_text(domain_to_pddl(domain, typed=typed,
                                              negative_goals=bool(problem.negative_goal)))
        problem_file.write_text(problem_to_pddl(problem, typed=typed))
        with _quiet_stdout():
            task = mimir.Problem(mimir.Domain(domain_file), problem_file)
            result = mimir.gbfs_lazy(task, task.get_initial_state(), mimir.FFHeuristic(task),
                                     max_time_seconds=deadline.remaining())
    if result.status == "solved":
        return parse_plan("\n".join(str(action) for action in result.solution or ()))
    if result.status in ("exhausted", "unsolvable"):
        return None
    raise ResourceLimitError(f"Mimir stopped without a verdict ({result.status})")
