"""What a generative question carries besides its answer: its task, the plan it quotes, the action
it describes.

The task is the question's PDDL domain and problem (the problem's initial state is the current
state), read with the ADL subset compiled (:func:`planetarium.reasoning.read_task`).
Validation and justification questions quote a plan (``"(a x) (b y)"`` or ``[(a x), (b y)]``),
read with the answer grammar.  Progression questions describe their action in words ("debark
car c2 to location l1 from the ferry"); :func:`described_action` says which ground action that
is, or that the question has none.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable

from ..reasoning import FalsePremise, GroundedTask, Method, Proof, Step, read_task, show, shows
from .answers import AnswerParseError, parse_answer, step_list
from .data import AcpItem

_QUOTED = re.compile(r'"([^"]*)"')
_BRACKETED = re.compile(r"\[[^\]]*\]")
_TOKEN = re.compile(r"[A-Za-z0-9_\-]+")


def question_task(item: AcpItem) -> GroundedTask:
    """The grounded task of a generative question (its PDDL; errors are PlanetariumErrors)."""
    if item.domain_pddl is None or item.problem_pddl is None:
        raise ValueError(f"question {item.id} carries no PDDL")
    return GroundedTask(*read_task(item.domain_pddl, item.problem_pddl))


def question_plan(question: str) -> list[Step]:
    """The plan quoted in a validation or justification question."""
    for pattern in (_QUOTED, _BRACKETED):
        for match in pattern.finditer(question):
            text = match.group(1) if pattern is _QUOTED else match.group(0)
            if "(" in text:
                try:
                    steps = step_list(parse_answer(text))
                except AnswerParseError:
                    continue
                if steps:
                    return steps
    raise ValueError("the question quotes no plan")


def _names(action: str, words: list[str]) -> bool:
    """Whether every word of the action name (split at ``-`` and ``_``) is in the description,
    as a word or as consecutive words run together ("pick up" for ``pickup``)."""
    joined = {"".join(words[i:j]) for i in range(len(words))
              for j in range(i + 1, min(i + 4, len(words) + 1))}
    return all(part in joined for part in re.split(r"[-_]", action) if part)


#: How a description's objects may relate to an action's arguments, strictest first: exactly
#: them; only some of them (the description names another object too); all of them and more
#: (the description leaves a parameter unnamed: alfworld's "agent agent1 goes from location
#: loc1 to location loc2" names no receptacle, though ``go_to_location`` takes one).
_RULES: tuple[Callable[[Counter, Step], bool], ...] = (
    lambda named, step: Counter(step[1:]) == named,
    lambda named, step: not Counter(step[1:]) - named,
    lambda named, step: not named - Counter(step[1:]),
)


def _matches(candidates: Iterable[Step], named: Counter, words: list[str]) -> list[Step]:
    """The candidates the first rule that keeps any keeps, narrowed to those whose name's words
    the description has (when that keeps any)."""
    pool = list(candidates)
    for rule in _RULES:
        kept = [s for s in pool if rule(named, s)]
        if kept:
            named_too = [s for s in kept if _names(s[0], words)]
            return sorted(named_too or kept)
    return []


def _named_actions(task: GroundedTask, named: Counter) -> Iterable[Step]:
    """Every ground action whose arguments are objects the description names (each as often
    as it names it)."""
    objects = list(named.elements())
    for name, action in task.domain.actions.items():
        for args in set(itertools.permutations(objects, len(action.parameters))):
            step = (name, *args)
            if task.why_not_action(step) is None:
                yield step


def described_action(task: GroundedTask, question: str) -> Step:
    """The ground action a progression question describes.

    The description is matched against the actions applicable in the current state by the
    objects it names (:data:`_RULES`), then by the words of the action's name ("pick up" for
    ``pickup-laser``).  Several candidates with the same effects are one answer to the question,
    which asks for the effects; the smallest is taken.  Raises
    :class:`~planetarium.reasoning.FalsePremise` when the question has no answer: the described
    action is not applicable (its false preconditions are the proof), or the description fits
    applicable actions with different effects; ``ValueError`` when no action is quoted.
    """
    match = _QUOTED.search(question)
    if match is None:
        raise ValueError("the question quotes no action")
    text = match.group(1)
    words = [w.lower() for w in _TOKEN.findall(text)]
    named = Counter(w for w in words if w in task.types)
    candidates = _matches(task.applicable_actions(), named, words)
    if not candidates:
        inapplicable = _matches(_named_actions(task, named), named, words)
        if len(inapplicable) == 1:
            step = inapplicable[0]
            raise FalsePremise(f"the described action '{text}'", Proof(
                False, Method.STATE, f"{show(step)} is not applicable in the current state: "
                                     f"false precondition(s) {shows(task.unmet(task.state, step))}"))
        raise FalsePremise(f"the described action '{text}'", Proof(
            False, Method.STATE, f"no applicable action fits it ({len(inapplicable)} "
                                 "inapplicable ones do)"))
    effects = {task.effects(task.state, s) for s in candidates}
    if len(effects) > 1:
        raise FalsePremise(f"the described action '{text}'", Proof(
            False, Method.STATE, f"it fits {len(candidates)} applicable actions with different "
                                 f"effects ({shows(candidates)})"))
    return candidates[0]
