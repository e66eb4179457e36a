"""What a question's text carries besides the PDDL: the plan to check, the action described.

Validation and justification questions quote a plan (``"(a x) (b y)"`` or ``[(a x), (b y)]``);
progression questions describe their action in words (``"debark car c2 to location l1 from the
ferry"``).  The plan is read with the answer grammar; the described action is matched against
the ground actions applicable in the current state by the objects it names (and, to break ties,
the words of the action name, which the description may split: "pick up" for ``pickup-laser``),
and an ambiguous description is reported, never guessed.
"""

from __future__ import annotations

import re
from collections import Counter

from .answers import AnswerParseError, parse_answer, step_list
from .model import AcpTask, Step

_QUOTED = re.compile(r'"([^"]*)"')
_BRACKETED = re.compile(r"\[[^\]]*\]")
_TOKEN = re.compile(r"[A-Za-z0-9_\-]+")


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


def described_action(task: AcpTask, question: str) -> tuple[Step | None, str]:
    """The applicable ground action a progression question describes, or ``None`` and why."""
    match = _QUOTED.search(question)
    if match is None:
        return None, "the question quotes no action"
    words = [w.lower() for w in _TOKEN.findall(match.group(1))]
    objects = Counter(w for w in words if w in task.types)
    candidates = [s for s in task.applicable() if Counter(s[1:]) == objects]
    if not candidates:
        candidates = [s for s in task.applicable() if not Counter(s[1:]) - objects]
    if len(candidates) > 1:
        named = [s for s in candidates if _names(s[0], words)]
        candidates = named or candidates
    if len(candidates) > 1:
        effects = {task.effects(s) for s in candidates}
        if len(effects) == 1:
            return min(candidates), ""
    if len(candidates) != 1:
        shown = ", ".join("(" + " ".join(s) + ")" for s in sorted(candidates)[:4]) or "none"
        return None, (f"the description '{match.group(1)}' matches {len(candidates)} applicable "
                      f"actions ({shown})")
    return candidates[0], ""
