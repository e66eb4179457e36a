"""What a decided question carries: the answer and its certificate.

Every question of this package is answered with a :class:`Proof`: whether the claim holds, by
which method it was shown (the cheapest sound one that settles it), a sentence naming the
certificate, and the witness plan where there is one.  A search that runs out of time or states
raises :class:`~planetarium.errors.ResourceLimitError` instead: no answer is ever a guess.  A
question that presupposes something false (a next action or a landmark when no plan exists)
raises :class:`FalsePremise` with the proof that the premise fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..errors import PlanetariumError
from .task import Step


class Method(str, Enum):
    """How a claim was shown, cheapest first."""

    STATE = "state"              # read off the current state (or the goal, or one action)
    RELAXED = "delete-relaxation"  # a delete-relaxed closure (sound: deletes only remove facts)
    H2 = "h2"                    # an h^2 mutex (sound: h^2 over-approximates reachable pairs)
    PLAN = "plan"                # a plan, or a search that reached the target
    SEARCH = "exhaustive search"  # every reachable state was seen (proven dead ends pruned)
    OPTIMAL = "optimal search"   # shortest plan lengths (A* with an admissible heuristic)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Proof:
    """A decided claim: ``holds``, shown by ``method``, said in ``reason``; ``plan`` is the
    witness when one was found, ``about`` the atom or action an existence claim found."""

    holds: bool
    method: Method
    reason: str
    plan: tuple[Step, ...] | None = None
    about: Step | None = None


class FalsePremise(PlanetariumError, ValueError):
    """The question presupposes something false; ``proof`` shows that it does."""

    def __init__(self, what: str, proof: Proof) -> None:
        super().__init__(f"{what}: {proof.reason}")
        self.proof = proof
