"""Realistic (ground truth, prediction) pairs for benchmarks and fuzzing.

A prediction is the ground truth renamed, reshuffled and with its implied goal facts dropped or
added (an equivalent answer), or with one goal fact changed (a near miss).
"""

from __future__ import annotations

import random

from ..pddl.domain import Atom
from ..pddl.problem import Problem
from ..pddl.writer import atom_to_pddl


def random_towers(rng: random.Random, blocks: list[str]) -> list[list[str]]:
    """Split ``blocks`` (shuffled) into towers, bottom first."""
    order = blocks[:]
    rng.shuffle(order)
    towers: list[list[str]] = []
    for block in order:
        if towers and rng.random() < 0.6:
            rng.choice(towers).append(block)
        else:
            towers.append([block])
    return towers


def tower_facts(towers: list[list[str]]) -> list[Atom]:
    facts: list[Atom] = [("arm-empty",)]
    for tower in towers:
        facts.append(("on-table", tower[0]))
        facts.extend(("on", upper, lower) for lower, upper in zip(tower, tower[1:]))
        facts.append(("clear", tower[-1]))
    return facts


def blocksworld_problem(rng: random.Random, n_blocks: int) -> Problem:
    """Random towers to random towers; the goal leaves out arm-empty and clear facts."""
    blocks = [f"b{i}" for i in range(1, n_blocks + 1)]
    goal = [f for f in tower_facts(random_towers(rng, blocks)) if f[0] in ("on", "on-table")]
    return Problem("bench", "blocksworld", tuple(blocks), ("object",) * n_blocks,
                   frozenset(tower_facts(random_towers(rng, blocks))), frozenset(goal))


def gripper_problem(rng: random.Random, n_balls: int, n_rooms: int = 3,
                    n_grippers: int = 2) -> Problem:
    """Balls spread over rooms, all to be gathered in random rooms (grippers left implicit)."""
    rooms = [f"room{i}" for i in range(1, n_rooms + 1)]
    balls = [f"ball{i}" for i in range(1, n_balls + 1)]
    grippers = [f"gripper{i}" for i in range(1, n_grippers + 1)]
    init = ([("room", r) for r in rooms] + [("ball", b) for b in balls]
            + [("gripper", g) for g in grippers] + [("at-robby", rooms[0])]
            + [("at", b, rng.choice(rooms)) for b in balls] + [("free", g) for g in grippers])
    goal = [("at", b, rng.choice(rooms)) for b in balls]
    objects = tuple(rooms + balls + grippers)
    return Problem("bench", "gripper", objects, ("object",) * len(objects),
                   frozenset(init), frozenset(goal))


def render(problem: Problem, rng: random.Random, *, rename: bool = True,
           typed: bool = False) -> str:
    """PDDL text of ``problem`` with objects renamed and facts shuffled."""
    names = list(problem.objects)
    if rename:
        fresh = [f"o{i}" for i in range(len(names))]
        rng.shuffle(fresh)
        mapping = dict(zip(names, fresh))
    else:
        mapping = {n: n for n in names}
    objs = list(zip(problem.objects, problem.object_types))
    rng.shuffle(objs)
    if typed:
        declared = " ".join(f"{mapping[o]} - {t}" for o, t in objs)
    else:
        declared = " ".join(mapping[o] for o, _ in objs)

    def facts(atoms) -> str:
        listed = [atom_to_pddl((a[0],) + tuple(mapping[x] for x in a[1:])) for a in atoms]
        rng.shuffle(listed)
        return " ".join(listed)

    return (f"(define (problem {problem.name}) (:domain {problem.domain})\n"
            f"  (:objects {declared})\n  (:init {facts(problem.init)})\n"
            f"  (:goal (and {facts(problem.goal)})))")


def near_miss(problem: Problem, rng: random.Random) -> Problem:
    """The problem with one goal fact's last argument replaced by another object of its type."""
    goal = sorted(problem.goal)
    candidates = [a for a in goal if len(a) > 1]
    if not candidates:
        return problem
    victim = rng.choice(candidates)
    type_of = problem.type_of
    same_type = [o for o in problem.objects if type_of[o] == type_of[victim[-1]]]
    replacement = victim[:-1] + (rng.choice(same_type),)
    new_goal = (set(goal) - {victim}) | {replacement}
    return Problem(problem.name, problem.domain, problem.objects, problem.object_types,
                   problem.init, frozenset(new_goal))
