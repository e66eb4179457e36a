"""One problem's ground actions as bit sets: the goal-independent tables of :mod:`.forced`.

The exact questions of :mod:`.forced` (a goal's fully specified form, the closure of a goal of
literals, the cheap unreachability proof of the solvability check) all start from the same
tables: the delete-relaxed grounding, the actions as bit sets, h^2's compatible pairs and FF's
operator tables.  None of them depends on the goal, and on benchmark-sized problems building
them is most of the time of a question, so they are built once per objects and initial state
(:func:`~.forced.goal_states` keeps them) and never modified.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property

from ..limits import Deadline
from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem
from .bits import indices as bit_indices
from .ff import FFHeuristic
from .mutex import h2_masks
from .regression import BitOp
from .search import GroundTask, relaxed_ground


class BitGrounding:
    """The goal-independent tables of one problem: atoms are bits over the delete-relaxed
    reachable atoms (atoms outside them never hold); in :attr:`task`, bit ``n + i`` stands for
    "atom ``i`` is false", kept in step by every action, so searches can aim at negative
    literals."""

    def __init__(self, domain: DomainDef, problem: Problem, deadline: Deadline) -> None:
        instances, reached = relaxed_ground(domain, problem, deadline)
        self.atoms: tuple[Atom, ...] = tuple(sorted(reached))
        self.index = {atom: i for i, atom in enumerate(self.atoms)}
        self._bit = {atom: 1 << i for i, atom in enumerate(self.atoms)}
        n = self.n = len(self.atoms)
        self.full = (1 << n) - 1
        self.init = self.mask(problem.init)
        self.ops: list[BitOp] = []
        self.adders: dict[int, list[int]] = {}
        self.deleters: dict[int, list[int]] = {}
        changing = 0
        index, bit, adders, deleters = self.index, self._bit.__getitem__, self.adders, self.deleters
        for number, (_, pre, add, delete) in enumerate(instances):
            # preconditions and adds are relaxed-reachable by construction; deletes may not be
            gone = [i for i in map(index.get, delete) if i is not None]
            op = (sum(map(bit, pre)), sum(map(bit, add)), sum(1 << i for i in gone))
            self.ops.append(op)
            changing |= op[1] | op[2]
            for i in map(index.__getitem__, add):
                adders.setdefault(i, []).append(number)
            for i in gone:
                if not op[1] >> i & 1:
                    deleters.setdefault(i, []).append(number)
        self.changing = changing
        negated = tuple(("not",) + atom for atom in self.atoms)
        self.task = GroundTask(
            atoms=self.atoms + negated, init=self.lift(self.init), goal=0,
            steps=tuple(step for step, _, _, _ in instances),
            pre=tuple(pre for pre, _, _ in self.ops),
            add=tuple(add | ((delete & ~add) << n) for _, add, delete in self.ops),
            delete=tuple(delete | (add << n) for _, add, delete in self.ops))

    def mask(self, atoms: Iterable[Atom]) -> int:
        """The bit set of ``atoms`` (atoms that are never reachable are left out)."""
        bit = self._bit
        out = 0
        for atom in atoms:
            out |= bit.get(atom, 0)
        return out

    def lift(self, state: int) -> int:
        """A state with its "false" bits, as the searches see it."""
        return state | ((~state & self.full) << self.n)

    def unmask(self, bits: int) -> frozenset[Atom]:
        return frozenset(self.atoms[i] for i in bit_indices(bits))

    @cached_property
    def ff(self) -> FFHeuristic:
        return FFHeuristic(self.task)

    @cached_property
    def compatible(self) -> list[int]:
        """Per atom, the atoms h^2 finds it may hold together with (0 when unreachable)."""
        return h2_masks(self.ops, self.init, self.changing, self.n)

    @cached_property
    def monotone(self) -> int:
        """Atoms no action deletes: once true, true for ever."""
        return self.full & ~sum(1 << i for i in self.deleters)

    @cached_property
    def by_step(self) -> dict[tuple[str, ...], int]:
        """The number of each ground action, by its step as written in a plan."""
        return {step: i for i, step in enumerate(self.task.steps)}
