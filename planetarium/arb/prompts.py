"""Prompts for ARB questions: ARB's zero-shot shape, and a variant that constrains the answer.

ARB's zero-shot prompt has four parts: the domain's description, the initial conditions, the
question, and the request to reason under ``[REASON]`` and answer under ``[ANSWER]``.  The words
here are this project's own, to the same shape; the domain description is written from the
domain definition itself (each action's preconditions and effects, each fluent with one of its
wordings), so any domain with a definition and English gets one.

``one_per_line`` adds, by the kind of answer the question takes, how to write it: true or false,
an integer, or one fluent / action / object per line in the question's own wording.  Every
string that shapes a prompt is in :data:`PINNED`, hashed into the prompts' fingerprint.
"""

from __future__ import annotations

import hashlib
import json

from .domain import ArbDomain
from .phrases import PhraseBook

STYLES = ("zero_shot", "one_per_line")

INTRO = "[DOMAIN DESCRIPTION]"
STATE = "[INITIAL CONDITIONS]"
QUESTION = "[QUESTION]"
FORMAT = ("Reply in two parts.\n\n[REASON]\n<how you worked the answer out>\n\n[ANSWER]\n"
          "<the final answer, nothing else>")
CONSTRAINTS = {
    "bool": "Under [ANSWER], write only True or False.",
    "count": "Under [ANSWER], write only an integer (or None where the question allows it).",
    "fluents": "Under [ANSWER], write one property per line, worded as in the question, or "
               "None if there are none.",
    "actions": "Under [ANSWER], write one action per line, worded as in the question, or None if "
               "there are none.",
    "action": "Under [ANSWER], write the one action, worded as in the question, or None.",
    "objects": "Under [ANSWER], write one object name per line, or None.",
    "object": "Under [ANSWER], write the one object name, or None.",
    "type": "Under [ANSWER], write the type's name only.",
    "text": "Under [ANSWER], write the item exactly as the question words it, or None.",
}
DESCRIBE = {
    "head": "The world is described by these properties (each shown with one way of saying it):",
    "actions": "These actions can be taken:",
    "when": "possible when {pre}",
    "always": "always possible",
    "adds": "afterwards {facts} {verb} true",
    "deletes": "{facts} {verb} no longer true",
    "closed": "Whatever an action does not change stays as it was; a property not stated to "
              "hold does not hold.",
}
PINNED = {"intro": INTRO, "state": STATE, "question": QUESTION, "format": FORMAT,
          "constraints": CONSTRAINTS, "describe": DESCRIBE}


def fingerprint(style: str) -> str:
    blob = json.dumps({"style": style, **PINNED}, sort_keys=True)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _atom(atom: tuple, names: dict[str, str]) -> str:
    args = [names.get(a, a) for a in atom[1:]]
    return atom[0] + (f"({', '.join(args)})" if args else "")


_VARIABLES = "xyzwvuts"


def describe(domain: ArbDomain, book: PhraseBook) -> str:
    """The domain in words, from its definition: fluents with an example wording, actions with
    their preconditions and effects (parameters x, y, z, ... with their types)."""
    lines = [DESCRIBE["head"]]
    for name, signatures in domain.fluents.items():
        letters = tuple(_VARIABLES[i] for i in range(len(signatures[0].types)))
        wordings = book.wordings("fluent", name, True, letters)
        said = f': "{wordings[0]}"' if wordings else ""
        lines.append(f"- {name}({_typed(letters, signatures[0].types)}){said}")
    lines.append(DESCRIBE["actions"])
    for name, schema in domain.actions.items():
        action = schema.action
        names = {v: _VARIABLES[i] for i, (v, _) in enumerate(action.parameters)}
        head = f"{name}({_typed(tuple(names.values()), tuple(t for _, t in action.parameters))})"
        parts = [DESCRIBE["when"].format(pre=_join([_atom(a, names) for a in action.precondition]))
                 if action.precondition else DESCRIBE["always"]]
        if action.add:
            parts.append(DESCRIBE["adds"].format(
                facts=_join([_atom(a, names) for a in action.add]),
                verb="is" if len(action.add) == 1 else "are"))
        if action.delete:
            parts.append(DESCRIBE["deletes"].format(
                facts=_join([_atom(a, names) for a in action.delete]),
                verb="is" if len(action.delete) == 1 else "are"))
        lines.append(f"- {head}: " + "; ".join(parts) + ".")
    lines.append(DESCRIBE["closed"])
    return "\n".join(lines)


def _typed(letters: tuple[str, ...], types: tuple[str, ...]) -> str:
    return ", ".join(f"{v}: {t}" for v, t in zip(letters, types, strict=True))


def build_prompt(description: str, initial_state: str, question: str, answer_kind: str,
                 style: str = "zero_shot") -> str:
    """The one user turn for an ARB question."""
    if style not in STYLES:
        raise ValueError(f"unknown prompt style {style!r} (one of {', '.join(STYLES)})")
    text = (f"{INTRO}\n{description}\n\n{STATE}\nInitially, {initial_state}\n\n{QUESTION}\n"
            f"{question}\n\n{FORMAT}")
    if style == "one_per_line":
        text += "\n" + CONSTRAINTS.get(answer_kind, "")
    return text
