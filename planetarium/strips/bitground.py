"""One problem's ground actions as bit sets, built once per domain, objects and initial state.

The exact questions of :mod:`.forced` (a goal's fully specified form, the closure of a goal of
literals, the cheap unreachability proof of the solvability check) all start from the same
tables: the delete-relaxed grounding, the actions as bit sets, h^2's compatible pairs and FF's
operator tables.  None of them depends on the goal, and on benchmark-sized problems building
them is most of the time of a question.  Grading asks several of them about one initial state
(the solvability check and the fully specified goal of the same problem; a ground truth and a
prediction that kept its object names; a batch of predictions graded against one truth), so
the tables are kept for the few initial states asked about last (:func:`bit_grounding`).  They
are never modified once built (but for reachable states found, each a witness that holds for
any goal), so sharing them changes no answer.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from functools import cached_property
from threading import Lock

from ..limits import Deadline
from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem
from .bits import indices as bit_indices
from .ff import FFHeuristic
from .mutex import h2_masks
from .regression import BitOp
from .renaming import Shape, rename_problem, renaming_onto, shape_of
from .search import GroundTask, relaxed_ground

#: Initial states whose tables are kept, and the most ground actions a kept one may have (the
#: tables of a very large grounding take hundreds of megabytes; building them again costs little
#: next to what is asked of them).
KEPT = 4
KEPT_MAX_ACTIONS = 20_000
#: Reachable states kept with the tables for later questions (each is a witness that some
#: question may need again: the same problem's goal asked by the solvability check and by
#: the fully specified goal, a truth graded against many predictions).
KEPT_STATES = 256


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
        #: reachable states found by the questions asked so far (bit sets over ``atoms``)
        self.reached: list[int] = [self.init]

    def remember(self, state: int) -> None:
        """Keep ``state``, which a search or a replayed plan reached, for later questions."""
        if len(self.reached) < KEPT_STATES:
            self.reached.append(state)

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


_kept: OrderedDict[tuple, tuple[DomainDef, BitGrounding]] = OrderedDict()
#: The kept initial states by shape (:mod:`.renaming`): a problem with the same shape may be a
#: renaming of one of them.
_shapes: dict[tuple[int, int], tuple[tuple, Problem, Shape]] = {}
_lock = Lock()


def _key(domain: DomainDef, problem: Problem) -> tuple:
    """What the tables depend on: the domain, the typed objects (in any order), the initial
    state."""
    return (id(domain), frozenset(zip(problem.objects, problem.object_types, strict=True)),
            problem.init)


def bit_grounding(domain: DomainDef, problem: Problem, deadline: Deadline) -> BitGrounding:
    """The tables of ``problem`` (its goal aside), built past ``deadline`` with
    :class:`~planetarium.errors.ResourceLimitError`, or kept from an earlier call with the
    same domain, typed objects and initial state (a time limit that interrupts the build
    keeps nothing)."""
    key = _key(domain, problem)
    with _lock:
        entry = _kept.get(key)
        if entry is not None and entry[0] is domain:  # the domain kept alive: its id is its own
            _kept.move_to_end(key)
            return entry[1]
    tables = BitGrounding(domain, problem, deadline)
    if len(tables.ops) <= KEPT_MAX_ACTIONS:
        shape = shape_of(domain, problem)
        with _lock:
            _kept[key] = (domain, tables)
            if shape is not None:
                _shapes[(id(domain), shape.fingerprint)] = (key, problem, shape)
            while len(_kept) > KEPT:
                gone, _ = _kept.popitem(last=False)
                for name, (kept_key, _, _) in list(_shapes.items()):
                    if kept_key == gone:
                        del _shapes[name]
    return tables


def in_kept_names(domain: DomainDef, problem: Problem) -> tuple[Problem, dict[str, str] | None]:
    """``problem`` renamed onto a problem whose tables are kept, when its typed objects and
    initial state are that problem's under a renaming, with the renaming back; else ``problem``
    itself and ``None``.  Answers about the renamed problem, renamed back, are the answers
    about ``problem``: a renaming maps reachable states onto reachable states."""
    if problem.goal_formula is not None:
        return problem, None
    size = (id(domain), len(problem.objects), len(problem.init))
    with _lock:
        if _key(domain, problem) in _kept or all(
                (ident, len(target.objects), len(target.init)) != size
                for (ident, _), (_, target, _) in _shapes.items()):
            return problem, None  # kept under its own names, or no kept problem of its size
    shape = shape_of(domain, problem)
    if shape is None:
        return problem, None
    with _lock:
        found = _shapes.get((id(domain), shape.fingerprint))
        if found is None or found[0] not in _kept or _kept[found[0]][0] is not domain:
            return problem, None
    _, target, target_shape = found
    sigma = renaming_onto(domain, problem, target, shape, target_shape)
    if sigma is None:
        return problem, None
    return rename_problem(problem, sigma), {image: o for o, image in sigma.items()}
