"""The searches over one grounded task, and what they share.

Whether some reachable state holds a set of atoms, optionally without ever making a
``forbidden`` atom true (the landmark question), is answered by the cheapest sound method that
settles it:

1. the target holds now;
2. the delete relaxation: an atom outside the relaxed closure never holds (removing deletes only
   adds facts), and with the forbidden atoms' achievers removed, the closure shrinks;
3. a plan found earlier passing through a state that holds the target, before any state that
   holds a forbidden atom (its prefix is a plan for this question too);
4. h^2: two target atoms that are mutex never hold together;
5. greedy search with FF (:mod:`planetarium.strips.ff`): a plan, or every reachable state seen;
6. when that runs out of states, the same search over states up to symmetry (objects that
   swapping maps the static facts, the goal and the forbidden atoms onto themselves are
   interchangeable: :mod:`planetarium.strips.symmetry`), which is complete and often far smaller.

Steps 2-4 are certificates: polynomial and sound, but able to say "unreachable" only.  Steps 5
and 6 are exact.  ``certificates_first=False`` runs the search before h^2, for questions whose
answer is usually "reachable" (does the goal have a plan at all?), where h^2 would be spent for
nothing.  A :class:`Planner` keeps the relaxed grounding, the h^2 pairs and the plans it found,
so the many questions of a task (every atom of a ``None`` answer) pay for them once.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from ..errors import ResourceLimitError
from ..limits import Deadline
from ..pddl.domain import Atom
from ..strips.ff import FFHeuristic, greedy_search
from ..strips.relaxed import LMCut, h2_mutex, h2_reachable_pairs, relaxed_closure
from ..strips.search import GroundInstance, GroundTask, bit_task
from ..strips.symmetry import StateMerger, interchangeable, schema_constants
from .proof import FalsePremise, Method, Proof
from .task import GroundedTask, State, Step, show, shows

#: Distinct states one search may generate before it gives up (a memory bound; the deadline
#: bounds time).
MAX_STATES = 200_000
#: States the breadth-first exploration of :meth:`Planner.explored` visits at most.
EXPLORE_STATES = 2_000


def changing_bits(ground: GroundTask) -> int:
    """The bits some action of ``ground`` adds or deletes (the others are static facts)."""
    changing = 0
    for add, delete in zip(ground.add, ground.delete, strict=True):
        changing |= add | delete
    return changing


@dataclass(frozen=True)
class GoalSearch:
    """The bit-set task towards the goal, its LM-cut (values kept across searches), the bit of
    each atom and the merger of symmetric states: searches from the current state and from its
    successors differ only in ``init``, so they share all of it."""

    ground: GroundTask
    heuristic: LMCut
    bits: dict[Atom, int]
    merge: StateMerger | None
    ff: FFHeuristic

    def starting_at(self, state: State) -> GroundTask:
        bits = self.bits
        return replace(self.ground, init=sum(bits[a] for a in state if a in bits))


class Planner:
    """The searches over ``task`` (see the module docstring); ``max_states`` bounds each."""

    def __init__(self, task: GroundedTask, max_states: int = MAX_STATES) -> None:
        self.task = task
        self.max_states = max_states
        self._h2: dict[Atom, set[Atom]] | None = None
        self._goal: Proof | None = None
        self._goal_search: GoalSearch | None = None
        self._explored: tuple[frozenset[Atom], frozenset[Step]] | None = None
        #: shortest plan lengths found, by start state (``None``: the goal is unreachable)
        self.optimal: dict[State, int | None] = {}
        #: plans found from the current state, with the states they pass through
        self.traces: list[tuple[tuple[Step, ...], tuple[State, ...]]] = []

    def goal_search(self, deadline: Deadline) -> GoalSearch:
        """The optimal searches' shared structures (built on the first call)."""
        if self._goal_search is None:
            ground = bit_task(self.task.relaxed(deadline)[0], self.task.state, self.task.goal)
            bits = {atom: 1 << i for i, atom in enumerate(ground.atoms)}
            self._goal_search = GoalSearch(ground, LMCut(ground), bits,
                                           self.merger(ground, self.task.goal),
                                           FFHeuristic(ground))
        return self._goal_search

    def explored(self, deadline: Deadline) -> tuple[frozenset[Atom], frozenset[Step]]:
        """The atoms that hold, and the actions that apply, in the first
        :data:`EXPLORE_STATES` states breadth-first search reaches from the current state: all
        of them reachable, found by one cheap sweep rather than a search each (the "every atom
        / every action" questions start with it)."""
        if self._explored is None:
            instances = self.task.relaxed(deadline)[0]
            atoms = sorted(self.task.relaxed(deadline)[1])
            bit = {atom: 1 << i for i, atom in enumerate(atoms)}
            ops = [(sum(bit[a] for a in pre), sum(bit[a] for a in add),
                    sum(bit[a] for a in delete)) for _, pre, add, delete in instances]
            start = sum(bit[a] for a in self.task.state if a in bit)
            seen, frontier, union, applied = {start}, [start], 0, set()
            while frontier and len(seen) < EXPLORE_STATES:
                deadline.check("exploring the reachable states")
                following = []
                for state in frontier:
                    union |= state
                    for index, (pre, add, delete) in enumerate(ops):
                        if state & pre == pre:
                            applied.add(index)
                            succ = (state & ~delete) | add
                            if succ not in seen and len(seen) < EXPLORE_STATES:
                                seen.add(succ)
                                following.append(succ)
                frontier = following
            for state in frontier:
                union |= state
            self._explored = (frozenset(a for a in atoms if union & bit[a]) | self.task.state,
                              frozenset(instances[i][0] for i in applied))
        return self._explored

    def h2(self, deadline: Deadline) -> dict[Atom, set[Atom]]:
        """The h^2 pairs of the whole task from the current state (computed once)."""
        if self._h2 is None:
            self._h2 = h2_reachable_pairs(self.task.relaxed(deadline)[0], self.task.state,
                                          deadline)
        return self._h2

    @cached_property
    def _static(self) -> list[Atom]:
        static = self.task.domain.static_predicates
        return [a for a in self.task.state if a[0] in static]

    @cached_property
    def _constants(self) -> set[str]:
        return schema_constants(self.task.domain)

    def merger(self, ground: GroundTask, fixed: Collection[Atom]) -> StateMerger | None:
        """Merges states of ``ground`` symmetric under swaps that keep the static facts and
        ``fixed`` (the target and the forbidden atoms); ``None`` when no objects swap."""
        classes = interchangeable(self.task.types, self._static, fixed, self._constants)
        if not classes:
            return None
        return StateMerger(ground.atoms, classes, changing_bits(ground))

    def visited(self, plan: Iterable[Step]) -> frozenset[Atom]:
        """Every atom some state along ``plan`` (from the current state) holds."""
        seen: set[Atom] = set()
        for state in self.task.run(self.task.state, list(plan)).states:
            seen |= state
        return frozenset(seen)

    def _record(self, plan: tuple[Step, ...]) -> None:
        self.traces.append((plan, self.task.run(self.task.state, list(plan)).states))

    def seen(self, atom: Atom) -> bool:
        """Whether some state along a plan found so far holds ``atom`` (so it is reachable)."""
        return any(atom in state for _, states in self.traces for state in states)

    def _known_plan(self, target: frozenset[Atom],
                    banned: frozenset[Atom]) -> tuple[Step, ...] | None:
        """A prefix of a plan found earlier that reaches a state holding ``target`` without
        passing through a state that holds a ``banned`` atom."""
        for plan, states in self.traces:
            for length, state in enumerate(states):
                if banned & state:
                    break
                if target <= state:
                    return plan[:length]
        return None

    def prove(self, target: Iterable[Atom], deadline: Deadline, forbidden: Iterable[Atom] = (),
              certificates_first: bool = True) -> Proof:
        """Whether some state reachable without ever making a ``forbidden`` atom true holds
        every atom of ``target`` (module docstring); :class:`ResourceLimitError` when the
        deadline or the state budget runs out before any method settles it."""
        task = self.task
        goal, banned = frozenset(target), frozenset(forbidden)
        if goal <= task.state:
            return Proof(True, Method.STATE, "it holds in the current state", plan=())
        instances, reached = task.relaxed(deadline)
        closure = relaxed_closure(instances, task.state, banned) if banned else reached
        missing = goal - closure
        if missing:
            return Proof(False, Method.RELAXED, f"{shows(missing)} never holds (not even "
                                                "delete-relaxed reachable)")
        known = self._known_plan(goal, banned)
        if known is not None:
            return Proof(True, Method.PLAN, f"a plan of {len(known)} step(s) reaches it",
                         plan=known)
        if certificates_first:
            mutex = self._mutex(goal, banned, instances, deadline)
            if mutex is not None:
                return mutex
        ground = bit_task(instances, task.state, goal, banned)
        try:
            return self._search(ground, goal, banned, deadline, None)
        except ResourceLimitError:
            if deadline.expired():
                raise
            if not certificates_first:
                mutex = self._mutex(goal, banned, instances, deadline)
                if mutex is not None:
                    return mutex
            merge = self.merger(ground, goal | banned)
            if merge is None:
                raise
            return self._search(ground, goal, banned, deadline, merge)

    def _mutex(self, goal: frozenset[Atom], banned: frozenset[Atom], instances: Sequence[GroundInstance],
               deadline: Deadline) -> Proof | None:
        if banned:
            usable = [inst for inst in instances if not inst[2] & banned]
            pairs = h2_reachable_pairs(usable, self.task.state, deadline)
        else:
            pairs = self.h2(deadline)
        mutex = h2_mutex(pairs, goal)
        if mutex is None:
            return None
        if mutex[0] == mutex[1]:
            return Proof(False, Method.H2, f"h^2 finds no way to reach {show(mutex[0])}")
        return Proof(False, Method.H2, f"{shows(set(mutex))} never hold together (h^2 mutex)")

    def _search(self, ground: GroundTask, goal: frozenset[Atom], banned: frozenset[Atom],
                deadline: Deadline, merge: StateMerger | None) -> Proof:
        outcome = greedy_search(ground, deadline, self.max_states, FFHeuristic(ground), merge)
        if outcome.reached and outcome.plan is not None:
            self._record(outcome.plan)
            return Proof(True, Method.PLAN, f"a plan of {len(outcome.plan)} step(s) reaches it",
                         plan=outcome.plan)
        if outcome.reached:
            return Proof(True, Method.PLAN, "a search over states up to symmetry reaches it")
        where = " (states up to symmetry)" if merge is not None else ""
        return Proof(False, Method.SEARCH, f"exhaustive search{where}: no reachable state holds "
                                           f"it ({outcome.states} states)")

    def goal(self, deadline: Deadline) -> Proof:
        """Whether the goal is reachable from the current state (decided once per task)."""
        if self._goal is None:
            self._goal = self.prove(self.task.goal, deadline, certificates_first=False)
        return self._goal

    def require_plan(self, deadline: Deadline, what: str) -> Proof:
        """The goal's reachability proof; :class:`FalsePremise` (``what`` presupposes a plan)
        when the goal is unreachable."""
        proof = self.goal(deadline)
        if not proof.holds:
            raise FalsePremise(f"{what} presupposes a plan, but the goal is unreachable from "
                               "the current state", proof)
        return proof

