"""Exact, linear-time planner for Gripper, robby in several rooms included.

``room``, ``ball`` and ``gripper`` are static kind atoms, and an object may have several kinds.
Only four families of atoms ever change — ``(at-robby room)``, ``(at ball room)``, ``(free
gripper)``, ``(carry ball gripper)`` with arguments of those kinds — every other atom is fixed.

An initial state is *well-formed* when every ball is in at most one place (one room or one
gripper) and every gripper is free and empty, carries exactly one ball and is not free, or is
neither (a *dead* gripper: ``pick`` needs ``free`` and ``drop`` needs ``carry``, so it never
acts).  The robot may be in any number of rooms: ``move`` replaces one of its positions, so the
number of positions never grows, and with ``k >= 1`` positions the robot can always be in the room
it needs while keeping ``k`` (move a position that is not wanted).  From a well-formed state with
the robot somewhere and one usable gripper, every placement is reachable: drop everything, ferry
each ball with one gripper, pick the balls meant to be carried, then move the robot; actions keep
well-formedness.  So the goal is reachable iff its fixed atoms hold initially and its changing
atoms form a consistent placement: each ball at most one place and only if it is somewhere now,
each gripper carries at most one ball and is not also required free, and it is usable; at most
``k`` robot rooms.  Without a robot position nothing changes; without a usable gripper only the
robot moves.

Anything else (a ball in two rooms, a gripper both free and carrying, ...) goes to the generic
complete search, which answers or raises ResourceLimitError.
"""

from __future__ import annotations

from ...limits import Deadline, check_deadline
from ...pddl.domain import Atom
from ...pddl.problem import Problem
from ..base import Domain, Plan


class _Robot:
    """The robot's set of positions, and the moves that bring one of them where it is needed."""

    def __init__(self, rooms: list[str], plan: Plan) -> None:
        self.rooms = rooms
        self.plan = plan

    def goto(self, room: str, keep: frozenset[str] = frozenset()) -> None:
        if room in self.rooms:
            return
        spare = [r for r in self.rooms if r not in keep] or self.rooms
        src = spare[0]
        self.plan.append(("move", src, room))
        self.rooms[self.rooms.index(src)] = room


def solve(domain: Domain, problem: Problem, deadline: Deadline | None) -> Plan | None:
    """A plan, ``None`` if none exists; malformed states go to the bounded generic search."""
    init, goal = problem.init, problem.goal
    rooms = {a[1] for a in init if a[0] == "room"}
    balls = {a[1] for a in init if a[0] == "ball"}
    grippers = {a[1] for a in init if a[0] == "gripper"}

    def changing(atom: Atom) -> bool:
        kinds = {"at-robby": (rooms,), "at": (balls, rooms), "free": (grippers,),
                 "carry": (balls, grippers)}.get(atom[0])
        return kinds is not None and all(x in k for x, k in zip(atom[1:], kinds, strict=True))

    place: dict[str, list[tuple[str, str]]] = {b: [] for b in balls}  # ("at"|"carry", where)
    load: dict[str, list[str]] = {g: [] for g in grippers}
    for atom in init:
        if changing(atom) and atom[0] == "at":
            place[atom[1]].append(("at", atom[2]))
        elif changing(atom) and atom[0] == "carry":
            place[atom[1]].append(("carry", atom[2]))
            load[atom[2]].append(atom[1])
    free = {g for g in grippers if ("free", g) in init}
    check_deadline("the gripper planner")  # each step is linear: thousands of balls take ms
    if any(len(p) > 1 for p in place.values()) or any(
            len(load[g]) > 1 or (load[g] and g in free) for g in grippers):
        from ...strips.generic import generic_solve

        return generic_solve(domain.definition, problem, deadline)

    if any(not changing(a) and a not in init for a in goal):
        return None
    robot = sorted(r for r in rooms if ("at-robby", r) in init)
    usable = sorted(g for g in grippers if g in free or load[g])
    wanted_rooms = {a[1] for a in goal if a[0] == "at-robby" and changing(a)}
    if not robot or not usable:  # no action at all, or only moves
        if any(a not in init for a in goal if a[0] != "at-robby" or not robot):
            return None
    if len(wanted_rooms) > len(robot):
        return None
    target: dict[str, tuple[str, str]] = {}
    carried_by: dict[str, str] = {}
    for atom in goal:
        if atom[0] in ("at", "carry") and changing(atom):
            want = (atom[0], atom[2])
            if target.setdefault(atom[1], want) != want or not place[atom[1]]:
                return None
            if atom[0] == "carry":
                if atom[2] not in usable or carried_by.setdefault(atom[2], atom[1]) != atom[1]:
                    return None
    if any(a[0] == "free" and changing(a) and (a[1] not in usable or a[1] in carried_by)
           for a in goal):
        return None
    check_deadline("the gripper planner")
    return _plan(robot, usable, {b: p[0] for b, p in place.items() if p}, target,
                 frozenset(wanted_rooms), {a[1] for a in goal if a[0] == "free" and changing(a)})


def _plan(robot_rooms: list[str], usable: list[str], place: dict[str, tuple[str, str]],
          target: dict[str, tuple[str, str]], wanted_rooms: frozenset[str],
          wanted_free: set[str]) -> Plan:
    """Drop what is carried, ferry balls one by one, pick those meant to be carried, park.

    When any ball has to change place every carried ball is dropped first (and picked again
    at the end if it is meant to be carried), so the ferrying gripper is always free.
    """
    plan: Plan = []
    robot = _Robot(list(robot_rooms), plan)
    work = any(place[b] != t for b, t in target.items())
    for ball, (kind, gripper) in sorted(place.items()):
        if kind == "carry" and (work or gripper in wanted_free):
            plan.append(("drop", ball, robot.rooms[0], gripper))
            place[ball] = ("at", robot.rooms[0])
    for ball, (kind, room) in sorted(target.items()):
        if kind == "at" and place[ball] != ("at", room):
            robot.goto(place[ball][1])
            plan.append(("pick", ball, place[ball][1], usable[0]))
            robot.goto(room)
            plan.append(("drop", ball, room, usable[0]))
    for ball, (kind, gripper) in sorted(target.items()):
        if kind == "carry" and place[ball] != ("carry", gripper):
            robot.goto(place[ball][1])
            plan.append(("pick", ball, place[ball][1], gripper))
    for room in sorted(wanted_rooms):
        robot.goto(room, keep=wanted_rooms)
    return plan
