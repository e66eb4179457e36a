"""Shared helpers for the evaluation-loop tests: dataset rows built from real PDDL, a tiny model.

Rows follow the dataset contract (CONTRACTS.md) so the runner, grader and report see exactly
what ``planetarium.dataset.load_rows`` gives them; the PDDL is the standard untyped blocksworld
and gripper the Planetarium dataset uses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def _problem(name: str, domain: str, objects: list[str], init: list[str], goal: list[str]) -> str:
    return (
        f"(define (problem {name})\n  (:domain {domain})\n  (:requirements :strips)\n"
        f"  (:objects {' '.join(objects)})\n  (:init {' '.join(init)})\n"
        f"  (:goal (and {' '.join(goal)})))\n"
    )


def _row(rid: str, domain: str, pddl: str, text: str, init: list, goal: list, objects: list,
         *, abstract: tuple[bool, bool], split: str) -> dict[str, Any]:
    return {
        "id": rid,
        "name": rid,
        "domain": domain,
        "init": " ".join(init),
        "goal": " ".join(goal),
        "num_objects": len(objects),
        "problem_pddl": pddl,
        "natural_language": text,
        "init_is_abstract": abstract[0],
        "init_num_propositions": len(init),
        "goal_is_abstract": abstract[1],
        "goal_num_propositions": len(goal),
        "is_placeholder": False,
        "split_random": split,
        "split_heldout": split,
    }


def blocksworld_row(index: int, n_blocks: int, split: str = "test") -> dict[str, Any]:
    """All blocks on the table, goal: one tower b1 on b2 on ... on bn."""
    blocks = [f"b{i}" for i in range(1, n_blocks + 1)]
    init = ["(arm-empty)"] + [f"(on-table {b})" for b in blocks] + [f"(clear {b})" for b in blocks]
    goal = [f"(on {upper} {lower})" for upper, lower in zip(blocks, blocks[1:])]
    rid = f"blocksworld-{index:03d}"
    text = (
        f"You have {n_blocks} blocks, {', '.join(blocks)}, each on the table and clear; "
        f"the arm is empty. Your goal is a single tower with {blocks[0]} on top, "
        f"each block on the next one in order."
    )
    pddl = _problem(rid, "blocksworld", blocks, init, goal)
    return _row(rid, "blocksworld", pddl, text, init, goal, blocks,
                abstract=(False, index % 2 == 1), split=split)


def gripper_row(index: int, n_balls: int, split: str = "test") -> dict[str, Any]:
    """Two rooms, all balls in room1, the goal moves them all to room2."""
    balls = [f"ball{i}" for i in range(1, n_balls + 1)]
    objects = ["room1", "room2", *balls, "gripper1", "gripper2"]
    init = ["(room room1)", "(room room2)", "(at-robby room1)"]
    init += [f"(ball {b})" for b in balls] + [f"(at {b} room1)" for b in balls]
    init += ["(gripper gripper1)", "(gripper gripper2)", "(free gripper1)", "(free gripper2)"]
    goal = [f"(at {b} room2)" for b in balls]
    rid = f"gripper-{index:03d}"
    text = (
        f"You have 2 rooms, {n_balls} balls and 2 free grippers. The robby and every ball are "
        f"in room1. Your goal is to move all balls to room2."
    )
    pddl = _problem(rid, "gripper", objects, init, goal)
    return _row(rid, "gripper", pddl, text, init, goal, objects,
                abstract=(index % 2 == 1, False), split=split)


def demo_rows(n: int = 12) -> list[dict[str, Any]]:
    """``n`` rows alternating domains, sizes spread over several proposition bins."""
    rows = []
    for index in range(n):
        if index % 2 == 0:
            rows.append(blocksworld_row(index, 2 + index % 7))
        else:
            rows.append(gripper_row(index, 1 + index % 9))
    return rows


def write_rows(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def typed_variant(pddl: str) -> str:
    """The same problem with every object given a type ``- item``: wrong under strict typing only."""
    start = pddl.index("(:objects ") + len("(:objects ")
    end = pddl.index(")", start)
    objects = " ".join(f"{name} - item" for name in pddl[start:end].split())
    return pddl[:start] + objects + pddl[end:]
