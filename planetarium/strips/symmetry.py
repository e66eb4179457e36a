"""Interchangeable objects of a STRIPS task, and a map that merges symmetric states in a search.

Two objects of the same type are *interchangeable* when swapping them maps the static facts onto
themselves and the goal onto itself, and no action schema names either one.  The actions are
schematic, so the swap then maps every transition to a transition and every goal state to a
goal state: a state and its image have the same distance to the goal.  Swaps generate the
symmetric group of each class of mutually interchangeable objects (if ``a`` swaps with ``b``
and with ``c``, ``b`` swaps with ``c``), so any permutation within classes is a symmetry.

:class:`StateMerger` maps a bit-set state to its image under one such permutation, chosen from
the state itself (each class's objects ordered by the facts they are in), so that symmetric
states — ferry's cars bound for the same port, gripper's balls — often map to the same state.
Merging them in an optimal search is sound whatever permutation is chosen: only states with the
same distance are ever merged.  It is not a perfect canonical form (states can stay apart), so
it shrinks the search without changing any answer.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem


def _swap(atoms: frozenset[Atom], a: str, b: str) -> frozenset[Atom]:
    swap = {a: b, b: a}
    return frozenset((atom[0],) + tuple(swap.get(x, x) for x in atom[1:]) for atom in atoms)


def schema_constants(domain: DomainDef) -> set[str]:
    """Objects an action schema names (constants): swapping one would change the actions."""
    names: set[str] = set()
    for action in domain.actions.values():
        for atom in action.precondition + action.add + action.delete:
            names.update(x for x in atom[1:] if not x.startswith("?"))
    return names


def domain_constants(domain: DomainDef, a: Problem, b: Problem) -> frozenset[str]:
    """The objects the domain's action schemas name (its constants, ADL's ``:constants``) that
    both problems declare: every renaming keeps them, like anchored names, since one that moved
    a constant would change what the actions do (Definition 2 renames a problem's objects, not
    the domain's)."""
    named = schema_constants(domain)
    return frozenset(named & set(a.objects) & set(b.objects)) if named else frozenset()


def interchangeable(objects: dict[str, str], static: Collection[Atom], goal: Collection[Atom],
                    fixed: Collection[str] = ()) -> list[list[str]]:
    """Classes (two or more objects each) of mutually interchangeable objects.

    ``objects``: name -> type; ``static``: the facts no action changes; ``fixed``: objects that
    must stay put (constants of the action schemas).
    """
    static, goal, fixed = frozenset(static), frozenset(goal), set(fixed)
    mentions: dict[str, set[Atom]] = {}
    for atom in static | goal:
        for x in atom[1:]:
            mentions.setdefault(x, set()).add(atom)
    classes: list[list[str]] = []
    for name in sorted(objects):
        if name in fixed:
            continue
        for members in classes:
            first = members[0]
            if objects[first] != objects[name]:
                continue
            touched = frozenset(mentions.get(first, set()) | mentions.get(name, set()))
            if _swap(touched & static, first, name) == touched & static and \
                    _swap(touched & goal, first, name) == touched & goal:
                members.append(name)
                break
        else:
            classes.append([name])
    return [c for c in classes if len(c) > 1]


class StateMerger:
    """Maps a bit-set state (bit ``i`` is ``atoms[i]``) to a symmetric one (module docstring)."""

    def __init__(self, atoms: Iterable[Atom], classes: list[list[str]], changing: int = -1) -> None:
        """``changing``: the bits some action adds or deletes (default: all).  The others are
        static facts, which every symmetry maps onto themselves, so they are left as they are
        (a state of thousands of static facts costs no more than its fluents)."""
        self.atoms = tuple(atoms)
        self.changing = changing
        self.bit = {atom: 1 << i for i, atom in enumerate(self.atoms)}
        self.classes = [sorted(c) for c in classes]
        self.member = {o for c in self.classes for o in c}
        # per atom index: the positions that hold an object of some class
        self.slots = [tuple(j for j, x in enumerate(atom[1:], start=1) if x in self.member)
                      for atom in self.atoms]

    def __call__(self, state: int) -> int:
        if not self.classes:
            return state
        facts: dict[str, list[tuple]] = {o: [] for o in self.member}
        present = []
        rest = state & self.changing
        while rest:
            low = rest & -rest
            index = low.bit_length() - 1
            rest ^= low
            atom = self.atoms[index]
            present.append(atom)
            for j in self.slots[index]:
                facts[atom[j]].append(atom[:j] + ("*",) + atom[j + 1:])
        mapping: dict[str, str] = {}
        for members in self.classes:
            order = sorted(members, key=lambda o: (sorted(facts[o]), o))
            mapping.update(zip(order, members, strict=True))
        image = state & ~self.changing
        for atom in present:
            moved = (atom[0],) + tuple(mapping.get(x, x) for x in atom[1:])
            bit = self.bit.get(moved)
            if bit is None:  # the image lies outside the task's atoms: keep the state as it is
                return state
            image |= bit
        return image
