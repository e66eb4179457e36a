"""Why a prediction has no plan: a goal fact no reachable state holds, with its certificate.

The planners prove unsolvability but say only "no plan exists".  A person wants the fact to
look at.  Two sound, polynomial certificates name one:

* **delete relaxation**: a goal fact outside the atoms reachable when actions delete nothing can
  never hold (ignoring deletes only adds facts);
* **h^2**: two goal facts the h^2 fixpoint proves mutex never hold together (or one fact that
  never holds at all).

When neither applies (the goal is unreachable only for longer-range reasons, e.g. a tower that
would need a block in two places), the reason is the planner's proof, without a fact.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..domains.base import Domain
from ..limits import Deadline, check_deadline
from ..pddl.domain import Atom
from ..pddl.problem import Problem
from ..pddl.writer import atom_to_pddl
from ..strips.relaxed import h2_mutex, h2_reachable_pairs
from ..strips.search import relaxed_ground

#: Ground actions beyond which the h^2 fixpoint (quadratic in atoms) is not tried.
MAX_H2_ACTIONS = 5_000


@dataclass(frozen=True)
class UnsolvableReason:
    """``fact``: a goal fact no reachable state holds (``None``: none singled out);
    ``partner``: the goal fact it is mutex with, if that is the proof; ``certificate``: why."""

    fact: Atom | None
    certificate: str
    partner: Atom | None = None

    def to_dict(self, rename: Callable[[Atom], Atom] = lambda x: x) -> dict[str, str | None]:
        """JSON form, atoms written after ``rename`` (e.g. into the ground truth's names)."""
        why = self.certificate
        if self.partner is not None:
            why += f" {atom_to_pddl(rename(self.partner))}"
        return {"fact": None if self.fact is None else atom_to_pddl(rename(self.fact)),
                "certificate": why}


def unsolvable_reason(domain: Domain, problem: Problem, proof: str,
                      deadline: Deadline | None = None) -> UnsolvableReason:
    """Why ``problem`` (proven unsolvable) has no plan; ``proof``: the solvability stage's
    reason, the certificate when no single fact is to blame."""
    contradiction = sorted(problem.goal & problem.negative_goal)
    if contradiction:
        return UnsolvableReason(contradiction[0], "the goal requires this fact and its negation")
    if problem.goal_formula is None:
        # the atoms reached with deletes ignored: the delete-relaxed closure of the initial state
        instances, closure = relaxed_ground(domain.definition, problem, deadline)
        check_deadline("unsolvability certificate")
        unreachable = sorted(problem.goal - closure, key=lambda x: (len(x), x))
        if unreachable:
            return UnsolvableReason(unreachable[0], (
                f"not reachable even when actions delete nothing (the delete-relaxed closure "
                f"of the initial state has {len(closure)} facts, not this one)"))
        if len(instances) <= MAX_H2_ACTIONS:
            mutex = h2_mutex(h2_reachable_pairs(instances, problem.init, deadline), problem.goal)
            if mutex is not None:
                first, second = mutex
                if first == second:
                    return UnsolvableReason(first, "h^2 reachability: no reachable state holds it")
                return UnsolvableReason(first, "h^2 mutex: it never holds together with the "
                                               "goal fact", second)
    return UnsolvableReason(None, proof)
