"""The four states an item page draws — ground truth and answer, initial state and goal — with
an explanation's differences marked.

Both problems are read with the grader's own reader (the answer with typing relaxed, so an
answer that only adds types still draws).  The answer is drawn in the ground truth's names,
through the explanation's renaming, so the two pictures line up; facts the explanation names
are marked *missing* on the ground-truth side and *extra* on the answer's side, and a marked
goal fact of the fully specified goal is drawn even where the written goal leaves it implicit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import PlanetariumError
from ..grading import MAX_INPUT_CHARS, load_ground_truth
from ..pddl.problem import Problem, read_problem
from .scenes import EXTRA, MISSING, Fact, Scene, parse_fact


@dataclass(frozen=True)
class States:
    """What an item page draws for one answer; ``answer_error`` says why the answer has none."""

    truth_init: Scene
    truth_goal: Scene
    answer_init: Scene | None
    answer_goal: Scene | None
    answer_error: str | None


def _strings(explanation: dict[str, Any] | None, *path: str) -> list[str]:
    """A list of strings at ``explanation[path...]``, or [] when it is absent or malformed."""
    node: Any = explanation or {}
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return [str(x) for x in node] if isinstance(node, list) else []


def _renaming(explanation: dict[str, Any] | None, answer: Problem) -> dict[str, str]:
    """Answer object -> the name it is drawn under: its ground-truth counterpart, or its own
    name (primed when that name is a counterpart's already)."""
    given = (explanation or {}).get("renaming")
    given = {str(k): str(v) for k, v in given.items()} if isinstance(given, dict) else {}
    taken = {given[o] for o in answer.objects if o in given}
    names = {}
    for obj in answer.objects:
        if obj in given:
            names[obj] = given[obj]
        else:
            names[obj] = obj + "′" if obj in taken else obj
    return names


def _rename(facts: frozenset[Fact], names: dict[str, str]) -> frozenset[Fact]:
    return frozenset((f[0], *(names.get(a, a) for a in f[1:])) for f in facts)


def _align(fact: Fact, drawn: frozenset[Fact], names: dict[str, str]) -> Fact:
    """An answer-side fact named by the explanation, in the names the answer is drawn under."""
    renamed = (fact[0], *(names.get(a, a) for a in fact[1:]))
    return renamed if fact not in drawn and renamed in drawn else fact


def _scene(problem: Problem, domain: str, facts: frozenset[Fact], marks: dict[Fact, str],
           object_marks: dict[str, str], names: dict[str, str] | None, title: str,
           all_objects: bool) -> Scene:
    names = names or {}
    objects = tuple(names.get(o, o) for o in problem.objects)
    types = {names.get(o, o): t for o, t in problem.type_of.items()}
    if not all_objects:  # a goal shows the objects it speaks about
        mentioned = {a for f in facts for a in f[1:]}
        objects = tuple(o for o in objects if o in mentioned)
    return Scene(domain, objects, types, facts | frozenset(marks), marks, object_marks, title)


def build_states(truth_pddl: str, answer_pddl: str,
                 explanation: dict[str, Any] | None) -> States | None:
    """The four scenes of one item and answer; None when the ground truth itself does not read."""
    try:
        domain, truth = load_ground_truth(truth_pddl, relax_typing=True)
    except (PlanetariumError, RecursionError):
        return None
    name = domain.name
    missing = {p: {parse_fact(s): MISSING for s in _strings(explanation, p, "missing")}
               for p in ("init", "goal")}
    lost = {o: MISSING for o in _strings(explanation, "objects", "missing")}
    truth_init = _scene(truth, name, truth.init, missing["init"], lost, None,
                        "ground truth: initial state", True)
    truth_goal = _scene(truth, name, truth.goal, missing["goal"], {}, None,
                        "ground truth: goal", False)
    answer, error = _read_answer(answer_pddl, domain)
    if answer is None:
        return States(truth_init, truth_goal, None, None, error)
    names = _renaming(explanation, answer)
    scenes = []
    for part, facts in (("init", answer.init), ("goal", answer.goal)):
        drawn = _rename(facts, names)
        marks = {_align(parse_fact(s), drawn, names): EXTRA
                 for s in _strings(explanation, part, "extra")}
        added = {names.get(o, o): EXTRA for o in _strings(explanation, "objects", "extra")}
        scenes.append(_scene(answer, name, drawn, marks, added if part == "init" else {}, names,
                             f"answer: {'initial state' if part == 'init' else 'goal'}",
                             part == "init"))
    return States(truth_init, truth_goal, scenes[0], scenes[1], None)


def _read_answer(answer_pddl: str, domain: Any) -> tuple[Problem | None, str | None]:
    if len(answer_pddl) > MAX_INPUT_CHARS:
        return None, f"the answer has {len(answer_pddl)} characters: not read"
    try:
        return read_problem(answer_pddl, domain.definition, relax_typing=True), None
    except (PlanetariumError, RecursionError) as err:
        return None, f"the answer does not read as a problem: {err}"
