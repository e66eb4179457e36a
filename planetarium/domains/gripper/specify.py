"""Exact, linear-time ``fully_specify`` for Gripper.

Vocabulary.  ``room``, ``ball`` and ``gripper`` are static *kind* atoms.  An initial state is
*well-formed* when every object has at most one kind, every fluent atom has arguments of the
right kinds (``(at-robby room)``, ``(at ball room)``, ``(carry ball gripper)``, ``(free
gripper)``), the robot is in at most one room, every ball is in at most one place, and every
gripper carries at most one ball and is not both free and carrying.  This admits states the
dataset never writes (objects of no kind, no rooms, balls nowhere, grippers neither free nor
carrying) because each of them still has an exact closed form:

* a *usable* gripper is free or carries a ball; a gripper that is neither can never pick
  (``pick`` needs ``free``) nor drop (``drop`` needs ``carry``), so it stays that way;
* a *movable* ball is in a room or in a gripper; a ball that is nowhere can never be picked
  (``pick`` needs ``at``) nor dropped (``drop`` needs ``carry``);
* every action needs ``(at-robby ?r)``, so with the robot in no room (in particular with no
  room at all) the initial state is the only reachable state;
* with the robot in a room but no usable gripper, only ``move`` applies: the robot can be in any
  room, everything else is fixed;
* with the robot in a room and at least one usable gripper, every *placement* is reachable: the
  robot in any one room, each movable ball in any room or any usable gripper, at most one ball
  per gripper, a usable gripper free exactly when empty.  (Drop everything where the robot is;
  then one gripper ferries each ball to its room; then pick the balls meant to be carried; then
  move the robot.)  The actions keep these invariants, so nothing else is reachable.

Everything else (an object of two kinds, two robot positions, a ball in two places, a gripper
both free and carrying, ...) goes to the bounded brute force.

For the last case a positive goal is a partial placement; it is satisfiable iff it is locally
consistent, because a ball the goal leaves unplaced can always go to a room.  So no ``carry`` atom
beyond the goal is ever forced, and what is forced is exactly:

* the static kind atoms, which hold in every state;
* ``(at-robby r)`` when ``r`` is the only room;
* ``(at b r)`` for a ball the goal leaves unplaced, when ``r`` is the only room and every usable
  gripper is already taken by the goal (it carries a ball or must be free);
* ``(free g)`` for a usable gripper the goal leaves unconstrained, when the goal places every
  movable ball (no ball is left to put in it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ...pddl.domain import Atom
from ...pddl.problem import Problem
from ...strips.exact import reachable_goal_intersection
from ..base import DEFAULT_MAX_STATES, Domain

_KINDS = ("room", "ball", "gripper")
#: The kind each argument of a fluent atom must have in a well-formed state.
_SIGNATURE = {"at-robby": ("room",), "at": ("ball", "room"), "carry": ("ball", "gripper"),
              "free": ("gripper",)}


@dataclass
class _Placement:
    """Where the fluent atoms of a state (or a goal) put the robot and the balls."""

    robby: str | None = None
    place: dict[str, str] = field(default_factory=dict)  # ball -> its room or gripper
    load: dict[str, str] = field(default_factory=dict)   # gripper -> the ball it carries
    free: set[str] = field(default_factory=set)


def _read_placement(atoms: Iterable[Atom], allowed: Callable[[Atom], bool]) -> _Placement | None:
    """The placement stated by the fluent atoms among ``atoms`` (kind atoms are skipped).

    ``None`` if an atom is not ``allowed`` or two atoms conflict: two robot rooms, a ball in two
    places, two balls in one gripper, a gripper both free and carrying.
    """
    p = _Placement()
    for atom in atoms:
        pred = atom[0]
        if pred in _KINDS:
            continue
        if not allowed(atom):
            return None
        if pred == "at-robby":
            if p.robby is not None:
                return None
            p.robby = atom[1]
        elif pred == "free":
            p.free.add(atom[1])
        else:
            ball, where = atom[1], atom[2]
            if ball in p.place or (pred == "carry" and where in p.load):
                return None
            p.place[ball] = where
            if pred == "carry":
                p.load[where] = ball
    return None if p.free & p.load.keys() else p


@dataclass(frozen=True)
class _World:
    """A well-formed initial state: its kind atoms and what can move."""

    static: frozenset[Atom]
    rooms: frozenset[str]
    robby: str | None            # the robot's room; None: no action ever applies
    movable: frozenset[str]      # balls in a room or a gripper
    usable: frozenset[str]       # grippers that are free or carry a ball


def _read_world(problem: Problem) -> _World | None:
    """The well-formed initial state of ``problem``, or ``None`` if it is not well-formed."""
    kind: dict[str, str] = {}
    for atom in problem.init:
        if atom[0] in _KINDS:
            if atom[1] in kind:
                return None  # two kinds
            kind[atom[1]] = atom[0]
    init = _read_placement(problem.init, lambda atom: all(
        kind.get(arg) == k for arg, k in zip(atom[1:], _SIGNATURE[atom[0]], strict=True)))
    if init is None:
        return None
    return _World(
        static=frozenset(a for a in problem.init if a[0] in _KINDS),
        rooms=frozenset(o for o, k in kind.items() if k == "room"),
        robby=init.robby,
        movable=frozenset(init.place),
        usable=frozenset(init.free | init.load.keys()),
    )


def _goal_allows(world: _World, atom: Atom) -> bool:
    """Whether the fluent ``atom`` holds in some reachable state (robot and grippers usable)."""
    pred = atom[0]
    if pred == "at-robby":
        return atom[1] in world.rooms
    if pred == "free":
        return atom[1] in world.usable
    return atom[1] in world.movable and atom[2] in (world.rooms if pred == "at" else world.usable)


def fully_specify(domain: Domain, problem: Problem) -> frozenset[Atom] | None:
    """Every fact true in all goal states reachable from ``problem.init``; ``None`` if none is.

    Exact and linear for well-formed initial states (module docstring); any other initial state
    is handed to the brute force, which raises ResourceLimitError when it is too large.
    """
    world = _read_world(problem)
    if world is None:
        return reachable_goal_intersection(domain.definition, problem, DEFAULT_MAX_STATES)
    goal = problem.goal
    if world.robby is None:
        return problem.init if goal <= problem.init else None
    if any(a[0] in _KINDS and a not in world.static for a in goal):
        return None
    wanted = _read_placement(goal, lambda atom: _goal_allows(world, atom))
    if wanted is None:
        return None
    forced: list[Atom] = []
    if wanted.robby is None and len(world.rooms) == 1:
        forced.append(("at-robby", *world.rooms))
    if not world.usable:  # only the robot moves
        fixed = frozenset(a for a in problem.init if a[0] != "at-robby")
        if any(a not in fixed for a in goal if a[0] != "at-robby"):
            return None
        return fixed.union(goal, forced)
    unplaced = [b for b in world.movable if b not in wanted.place]
    untaken = [g for g in world.usable if g not in wanted.load and g not in wanted.free]
    if len(world.rooms) == 1 and not untaken:
        forced += [("at", b, *world.rooms) for b in unplaced]
    if not unplaced:
        forced += [("free", g) for g in untaken]
    return goal.union(world.static, forced)


def closed_form_covers(problem: Problem) -> bool:
    """Whether :func:`fully_specify` uses the closed form (a well-formed initial state)."""
    return _read_world(problem) is not None


def reachability_signature(problem: Problem) -> frozenset[Atom] | None:
    """With the robot in a room and a usable gripper, the reachable states are every placement
    over the rooms, the movable balls and the usable grippers (module docstring): those, with
    the kind atoms, are the signature.  Any reachable state shows them again (a movable ball is
    always somewhere, a usable gripper always free or carrying, kinds never change).  Otherwise
    (robot nowhere, no usable gripper, malformed) ``None``."""
    world = _read_world(problem)
    if world is None or world.robby is None or not world.usable:
        return None
    return world.static.union([("movable", b) for b in world.movable],
                              [("usable", g) for g in world.usable])
