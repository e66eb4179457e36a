"""A complete, time-limited search over grounded STRIPS: the planner every domain can fall back on.

Why a planner of our own: solvability must be decidable with nothing but pip packages, and the
fallback is also what the built-in domain planners call for initial states outside the shapes
they reason about exactly.  It therefore has to be *complete* — exhausting the reachable states
proves unsolvability — and honest about limits: running out of time or states raises
:class:`~planetarium.errors.ResourceLimitError`, never "unsolvable".

Three steps keep it small enough to be useful:

* **relaxed-reachability grounding** instantiates only actions whose preconditions can all
  become true when deletes are ignored, joining preconditions against reachable facts instead of
  enumerating the cross product of objects (a goal atom outside the relaxed closure proves
  unsolvability at once);
* **backward relevance** keeps only actions that add a fact the goal needs (transitively through
  preconditions) and projects states onto those facts.  Dropping an irrelevant action from a plan
  keeps it valid (it only adds irrelevant facts, and skipping its deletes only leaves more facts
  true), so the projection merges states without losing plans;
* states are Python ``int`` bit sets, and greedy best-first search on the number of unmet goal
  atoms (with duplicate detection) finds plans fast and still visits every reachable state
  before answering "unsolvable".
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from itertools import count

from ..errors import ResourceLimitError
from ..limits import Deadline
from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem
from .grounding import Instantiator, fits_type
from .joins import FactIndex, bindings
from .plan_io import GroundStep

#: Checking the clock on every expansion costs more than the expansion; this many go in between.
_CLOCK_EVERY = 512


@dataclass(frozen=True)
class GroundTask:
    """A grounded, relevance-pruned task over bit-set states (bit ``i`` is ``atoms[i]``)."""

    atoms: tuple[Atom, ...]
    init: int
    goal: int
    steps: tuple[GroundStep, ...]  # action i as written in a plan
    pre: tuple[int, ...]
    add: tuple[int, ...]
    delete: tuple[int, ...]


GroundInstance = tuple[GroundStep, frozenset, frozenset, frozenset]  # step, pre, add, delete


def relaxed_ground(domain: DomainDef, problem: Problem,
                   deadline: Deadline | None = None) -> tuple[list[GroundInstance], set[Atom]]:
    """Every action instance whose preconditions are reachable when deletes are ignored, and
    the atoms reachable that way (a superset of every atom any reachable state holds).

    Raises :class:`ResourceLimitError` past ``deadline``: with thousands of objects grounding
    alone can outlast any time limit.
    """
    types = dict(zip(problem.objects, problem.object_types, strict=True))
    facts = FactIndex(problem.init)
    pools = {
        name: {v: dict.fromkeys(o for o in problem.objects if fits_type(domain, types[o], t))
               for v, t in action.parameters}
        for name, action in domain.actions.items()
    }
    instantiate = {name: Instantiator(action) for name, action in domain.actions.items()}
    ground: dict[GroundStep, GroundInstance] = {}
    tried = 0
    added: list[Atom] = []  # facts reached after the initial state, in order
    seen_upto: dict[str, int] = {}  # action -> len(added) when it was last joined
    changed = True
    while changed:  # apply every applicable action, ignoring deletes, until nothing is new
        changed = False
        for action in domain.actions.values():
            fresh: list[Atom] = []  # indexed after the join that reads the index
            new: FactIndex | None = None  # first join: against every fact
            if action.name in seen_upto:
                if seen_upto[action.name] == len(added):
                    continue  # nothing new since its last join: no new binding
                new = FactIndex(added[seen_upto[action.name]:])
            seen_upto[action.name] = len(added)
            for binding in bindings(action, facts, pools[action.name], new):
                tried += 1
                if (deadline is not None and tried % _CLOCK_EVERY == 0
                        and deadline.expired()):
                    raise ResourceLimitError(
                        f"generic search ran out of time while grounding ({len(ground)} actions)")
                step = (action.name,) + tuple(binding[v] for v, _ in action.parameters)
                if step in ground:
                    continue
                pre, add, delete = instantiate[action.name](step)
                ground[step] = (step, pre, add, delete)
                fresh.extend(add)
            for fact in fresh:
                if facts.add(fact):
                    added.append(fact)
                    changed = True
    return list(ground.values()), facts.facts


def ground_task(domain: DomainDef, problem: Problem,
                deadline: Deadline | None = None) -> GroundTask | None:
    """Ground ``problem``; ``None`` when a goal atom is not even relaxed-reachable (unsolvable)."""
    instances, reached = relaxed_ground(domain, problem, deadline)
    if not problem.goal <= reached:
        return None
    return bit_task(instances, problem.init, problem.goal)


def bit_task(instances: Iterable[GroundInstance], state: Iterable[Atom], goal: Iterable[Atom],
             forbidden: Collection[Atom] = ()) -> GroundTask:
    """A bit-set task from ``state`` to the conjunctive ``goal`` without the actions that add a
    ``forbidden`` atom, pruned to the actions relevant to the goal.

    Pruning keeps every plan's relevant part (dropping an irrelevant action from a plan keeps it
    valid), so plan existence and optimal plan length are the same as in the full task.
    """
    banned = set(forbidden)
    usable = [inst for inst in instances if not (inst[2] & banned)]
    relevant: set[Atom] = set(goal)
    kept: dict[tuple, GroundInstance] = {}
    changed = True
    while changed:
        changed = False
        for inst in usable:
            if inst[0] not in kept and inst[2] & relevant:
                kept[inst[0]] = inst
                if not inst[1] <= relevant:
                    relevant |= inst[1]
                    changed = True
    atoms = tuple(sorted(relevant))
    bit = {atom: 1 << i for i, atom in enumerate(atoms)}

    def mask(facts: Iterable[Atom]) -> int:
        return sum(bit[f] for f in set(facts) if f in bit)

    chosen = list(kept.values())
    return GroundTask(atoms=atoms, init=mask(state), goal=mask(goal),
                      steps=tuple(i[0] for i in chosen), pre=tuple(mask(i[1]) for i in chosen),
                      add=tuple(mask(i[2]) for i in chosen), delete=tuple(mask(i[3]) for i in chosen))


def search(task: GroundTask, deadline: Deadline | None = None,
           max_states: int | None = None) -> list[GroundStep] | None:
    """Greedy best-first search (unmet goal count) with duplicate detection.

    Returns a plan, or ``None`` after every reachable state was expanded without meeting the goal.
    Raises :class:`ResourceLimitError` when ``deadline`` (on its own clock: wall time, or CPU
    time for budgets that must not depend on load) passes or ``max_states`` runs out first.
    """
    goal = task.goal
    operators = list(zip(task.pre, task.add, task.delete, range(len(task.steps)), strict=True))
    parent: dict[int, tuple[int, int] | None] = {task.init: None}
    tie = count()
    frontier = [((goal & ~task.init).bit_count(), next(tie), task.init)]
    expanded = 0
    while frontier:
        _, _, state = heapq.heappop(frontier)
        if state & goal == goal:
            return _trace(task, parent, state)
        expanded += 1
        if expanded % _CLOCK_EVERY == 0 and deadline is not None and deadline.expired():
            raise ResourceLimitError(
                f"generic search ran out of time ({len(parent)} states explored)")
        for pre, add, delete, index in operators:
            if state & pre == pre:
                succ = (state & ~delete) | add
                if succ not in parent:
                    if max_states is not None and len(parent) >= max_states:
                        raise ResourceLimitError(
                            f"generic search gave up after {max_states} states")
                    parent[succ] = (state, index)
                    heapq.heappush(frontier, ((goal & ~succ).bit_count(), next(tie), succ))
    return None


def _trace(task: GroundTask, parent: dict[int, tuple[int, int] | None], state: int) -> list[GroundStep]:
    plan: list[GroundStep] = []
    link = parent[state]
    while link is not None:
        state, index = link
        plan.append(task.steps[index])
        link = parent[state]
    plan.reverse()
    return plan


def solve_by_search(domain: DomainDef, problem: Problem, deadline: Deadline | None = None,
                    max_states: int | None = None) -> list[GroundStep] | None:
    """Ground and search: a plan, ``None`` if proven unsolvable, or :class:`ResourceLimitError`
    (past ``deadline``, which covers grounding and search together, or ``max_states``)."""
    task = ground_task(domain, problem, deadline)
    if task is None:
        return None
    return search(task, deadline, max_states)
