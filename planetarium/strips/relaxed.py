"""Delete relaxation, reachability queries and optimal plan length over grounded STRIPS.

Questions such as "can this atom ever hold?", "is this fact a landmark?" or "how far is the goal?"
are answered in two steps.  A sound polynomial certificate first: an atom outside the
delete-relaxed closure of the current state can never hold (ignoring deletes only adds facts),
and a fact whose achievers, once removed, leave the goal relaxed-unreachable is a landmark.
When no certificate settles the question, an exact search over the reachable states does,
within a state budget; running out raises :class:`~planetarium.errors.ResourceLimitError`, so
callers can report "undecided" instead of guessing.

Everything here works on the ground instances of :func:`~planetarium.strips.search.relaxed_ground`
(``(step, pre, add, delete)`` with frozensets of atoms) and on the bit-set
:class:`~planetarium.strips.search.GroundTask`, so it adds no second grounder.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from ..errors import ResourceLimitError
from ..pddl.domain import Atom
from .search import GroundInstance, GroundTask, search


def relaxed_closure(instances: Iterable[GroundInstance], state: Iterable[Atom],
                    forbidden: Collection[Atom] = ()) -> set[Atom]:
    """Atoms reachable from ``state`` when deletes are ignored, never using an action that
    adds a ``forbidden`` atom (a forbidden atom in ``state`` itself stays)."""
    reached = set(state)
    pending = [inst for inst in instances if not (inst[2] & set(forbidden))]
    changed = True
    while changed:
        changed = False
        rest = []
        for inst in pending:
            if inst[1] <= reached:
                if not inst[2] <= reached:
                    reached |= inst[2]
                    changed = True
            else:
                rest.append(inst)
        pending = rest
    return reached


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

    def mask(facts) -> int:
        return sum(bit[f] for f in set(facts) if f in bit)

    chosen = list(kept.values())
    return GroundTask(atoms=atoms, init=mask(state), goal=mask(goal),
                      steps=tuple(i[0] for i in chosen), pre=tuple(mask(i[1]) for i in chosen),
                      add=tuple(mask(i[2]) for i in chosen), delete=tuple(mask(i[3]) for i in chosen))


def plan_exists(task: GroundTask, max_states: int) -> list | None:
    """A plan for ``task`` or ``None`` when every reachable state was seen without the goal."""
    return search(task, max_states=max_states)


def optimal_length(task: GroundTask, max_states: int, bound: int | None = None) -> int | None:
    """Length of a shortest plan (breadth-first search), ``None`` when the goal is unreachable.

    With ``bound`` the search stops after that depth and returns ``None`` if the goal was not
    met within it (then ``None`` means "longer than ``bound`` or unreachable").
    """
    goal = task.goal
    if task.init & goal == goal:
        return 0
    operators = list(zip(task.pre, task.add, task.delete))
    seen = {task.init}
    frontier = [task.init]
    depth = 0
    while frontier and (bound is None or depth < bound):
        depth += 1
        nxt = []
        for state in frontier:
            for pre, add, delete in operators:
                if state & pre == pre:
                    succ = (state & ~delete) | add
                    if succ not in seen:
                        if succ & goal == goal:
                            return depth
                        if len(seen) >= max_states:
                            raise ResourceLimitError(
                                f"optimal search gave up after {max_states} states (depth {depth})")
                        seen.add(succ)
                        nxt.append(succ)
        frontier = nxt
    return None
