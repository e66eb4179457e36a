"""The four states an item page draws — ground truth and answer, initial state and goal — with
an explanation's differences marked.

Both problems are read with the grader's own reader (the answer with typing relaxed, so an
answer that only adds types still draws).  The answer is drawn in the ground truth's names,
through the explanation's renaming (as the explanation writes its atoms), so the two pictures
line up; facts the explanation names
are marked *missing* on the ground-truth side and *extra* on the answer's side, and a marked
goal fact of the fully specified goal is drawn even where the written goal leaves it implicit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..equivalence.explain import PRED_PREFIX
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


def _strings(explanation: Mapping[str, Any] | None, *path: str) -> list[str]:
    """A list of strings at ``explanation[path...]``, or [] when it is absent or malformed."""
    node: Any = explanation or {}
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return [str(x) for x in node] if isinstance(node, list) else []


def _renaming(explanation: Mapping[str, Any] | None, key: str, answer: Problem,
              truth: Problem) -> dict[str, str]:
    """Answer object -> the name it is drawn under, as the explanation writes atoms: its
    ground-truth counterpart, else the name the explanation gives it (``extra_as``; from rows
    written before that field, ``pred:`` first when a ground-truth object has that name too),
    else its own.  Without a renaming (no explanation), every object keeps its own name."""
    given = (explanation or {}).get(key)
    if not isinstance(given, dict):
        return {o: o for o in answer.objects}
    given = {str(k): str(v) for k, v in given.items()}
    written = (explanation or {}).get("extra_as")
    written = {str(k): str(v) for k, v in written.items()} if isinstance(written, dict) else {}
    ours = set(truth.objects)
    return {o: given.get(o) or written.get(o) or (PRED_PREFIX + o if o in ours else o)
            for o in answer.objects}


def _rename(facts: frozenset[Fact], names: dict[str, str]) -> frozenset[Fact]:
    return frozenset((f[0], *(names.get(a, a) for a in f[1:])) for f in facts)


def _scene(problem: Problem, domain: str, part: str, marks: dict[Fact, str],
           object_marks: dict[str, str], names: dict[str, str], title: str) -> Scene:
    """The initial state or the goal (``part``) of ``problem``, in the names ``names`` gives;
    a goal shows the objects it speaks about, on its initial state's layout."""
    objects = tuple(names.get(o, o) for o in problem.objects)
    types = {names.get(o, o): t for o, t in problem.type_of.items()}
    init = _rename(problem.init, names)
    if part == "init":
        return Scene(domain, objects, types, init | frozenset(marks), marks, object_marks, title)
    facts = _rename(problem.goal, names) | frozenset(marks)
    mentioned = {a for f in facts for a in f[1:]}
    return Scene(domain, tuple(o for o in objects if o in mentioned), types, facts, marks,
                 object_marks, title, context=init)


def build_states(truth_pddl: str, answer_pddl: str,
                 explanation: Mapping[str, Any] | None) -> States | None:
    """The four scenes of one item and answer; None when the ground truth itself does not read."""
    try:
        domain, truth = load_ground_truth(truth_pddl, relax_typing=True)
    except (PlanetariumError, RecursionError):
        return None
    name = domain.name
    missing = {p: {parse_fact(s): MISSING for s in _strings(explanation, p, "missing")}
               for p in ("init", "goal")}
    lost = {o: MISSING for o in _strings(explanation, "objects", "missing")}
    truth_init = _scene(truth, name, "init", missing["init"], lost, {},
                        "ground truth: initial state")
    truth_goal = _scene(truth, name, "goal", missing["goal"], {}, {}, "ground truth: goal")
    answer, error = _read_answer(answer_pddl, domain)
    if answer is None:
        return States(truth_init, truth_goal, None, None, error)
    init_names = _renaming(explanation, "renaming", answer, truth)
    # placeholder mode renames the goals on their own
    goal_names = (_renaming(explanation, "goal_renaming", answer, truth)
                  if isinstance((explanation or {}).get("goal_renaming"), dict) else init_names)
    added = {o: EXTRA for o in _strings(explanation, "objects", "extra")}  # named as drawn
    scenes = [
        _scene(answer, name, part, {parse_fact(s): EXTRA for s in _strings(explanation, part, "extra")},
               added if part == "init" else {}, names,
               f"answer: {'initial state' if part == 'init' else 'goal'}")
        for part, names in (("init", init_names), ("goal", goal_names))
    ]
    return States(truth_init, truth_goal, scenes[0], scenes[1], None)


def _read_answer(answer_pddl: str, domain: Any) -> tuple[Problem | None, str | None]:
    if len(answer_pddl) > MAX_INPUT_CHARS:
        return None, f"the answer has {len(answer_pddl)} characters: not read"
    try:
        return read_problem(answer_pddl, domain.definition, relax_typing=True), None
    except (PlanetariumError, RecursionError) as err:
        return None, f"the answer does not read as a problem: {err}"
