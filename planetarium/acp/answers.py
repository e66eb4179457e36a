"""Reading a model's answer: a lark grammar over the answer text, with documented leniency.

The prompts ask for PDDL-like answers — one action ``(move f3-2f f3-1f)``, a list
``[(a x), (b y)]``, two lists for progression, ``None``, or an index — but models wrap them in
prose, markdown and headings.  What is accepted, and why:

* **A marked final answer wins.**  If the text contains a marker — ``final answer:``,
  ``answer:``, ``the answer is`` (any case, markdown ``**`` around it allowed) — only the text
  after the *last* marker is read; otherwise the whole text is.  Reasoning that mentions other
  actions before the answer therefore does not count against a model that marks its answer.
* **Separators are free.**  Parenthesised items may be separated by spaces, commas or newlines,
  with or without surrounding ``[...]``; quotes, backticks and ``*`` are ignored.
* **Headings.**  ``positive effects:`` / ``add effects:`` and ``negative effects:`` /
  ``delete effects:`` assign the items after them to a list (progression); without headings the
  first bracketed list is the positive one and the second the negative one.
* **Single answers.**  For one action or one proposition the first parenthesised span (or
  ``None`` / an empty ``[]``, whichever comes first) is the answer.
* **Case.**  PDDL is case-insensitive: everything is read in lower case.
* **Indices.**  For validation the first bare integer is the answer.

Text whose parentheses or brackets do not balance does not parse; that is the model's error, and
the scorers grade it 0 with the parse error as the reason.  The grammar is built once per process.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ..errors import PlanetariumError

if TYPE_CHECKING:
    from lark import Lark, Token, Tree

Step = tuple[str, ...]  # (name, arg, ...) lower case: an action or an atom

_GRAMMAR = r"""
start: _elem*
_elem: paren | list | NONE | HEADING | INT | WORD | ","
paren: "(" NAME* ")"
list: "[" _lelem* "]"
_lelem: paren | NONE | ","
NAME: /[^\s()\[\],"'`*]+/
WORD: /[^\s()\[\],"'`*]+/
NONE.3: /none(?=[.;:!?]*(?:[\s()\[\],"'`*]|$))/i
INT.2: /-?\d+(?=[.;:!?]*(?:[\s()\[\],"'`*]|$))/
HEADING.3: /(positive|negative|add|delete)\s+effects?\s*:?/i
%ignore /[\s"'`*]+/
"""

_MARKER = re.compile(
    r"(?:final\s+answer|the\s+answer\s+is|answer)\s*\**\s*(?::|is\b)?\s*\**\s*:?", re.IGNORECASE)


class AnswerParseError(PlanetariumError, ValueError):
    """The answer text does not parse (unbalanced parentheses or brackets)."""


@dataclass(frozen=True)
class Parsed:
    """The answer region as a flat sequence of elements.

    Each element is ``("paren", step)``, ``("list", [elements])``, ``("none",)``,
    ``("heading", "positive" | "negative")`` or ``("int", n)``; prose words are dropped.
    """

    elements: tuple


@lru_cache(maxsize=1)
def _parser() -> Lark:
    from ..errors import require

    lark = require("lark", "acp")
    return lark.Lark(_GRAMMAR, parser="lalr", lexer="contextual")


#: Longest answer region parsed.  The grammar reads ~3 µs per character, so an unmarked
#: answer of megabytes would take seconds past any time limit; real answers are a few hundred.
MAX_ANSWER_CHARS = 100_000


def answer_region(text: str) -> str:
    """The text after the last final-answer marker (when something follows it), or all of it;
    :class:`AnswerParseError` when that is longer than :data:`MAX_ANSWER_CHARS`."""
    last = None
    for match in _MARKER.finditer(text):
        last = match
    rest = "" if last is None else text[last.end():]
    region = rest if rest.strip() else text
    if len(region) > MAX_ANSWER_CHARS:
        raise AnswerParseError(f"the answer has {len(region)} characters, over the "
                               f"{MAX_ANSWER_CHARS} limit (mark the final answer with "
                               "'answer:')")
    return region


def _convert(tree: Tree[Token]) -> tuple:
    from lark import Tree  # loaded with the parser

    out: list[tuple] = []
    for child in tree.children:
        if isinstance(child, Tree):
            if child.data == "paren":
                out.append(("paren", tuple(str(t).lower() for t in child.children)))
            else:
                out.append(("list", _convert(child)))
        elif child.type == "NONE":
            out.append(("none",))
        elif child.type == "HEADING":
            word = str(child).split()[0].lower()
            out.append(("heading", "positive" if word in ("positive", "add") else "negative"))
        elif child.type == "INT":
            out.append(("int", int(child)))
    return tuple(out)


def parse_answer(text: object) -> Parsed:
    """Parse the answer region of ``text``; :class:`AnswerParseError` if it does not balance."""
    if not isinstance(text, str):
        raise AnswerParseError(f"the response is a {type(text).__name__}, not text")
    region = answer_region(text)
    parser = _parser()  # first: a missing lark is MissingExtraError, not an ImportError
    from lark.exceptions import LarkError

    try:
        tree = parser.parse(region)
    except LarkError as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise AnswerParseError(f"answer does not parse: {first[:120]}") from err
    return Parsed(_convert(tree))


def _flatten(elements: Iterable[tuple]) -> list[tuple]:
    out = []
    for element in elements:
        if element[0] == "list":
            out.extend(_flatten(element[1]))
        else:
            out.append(element)
    return out


def single(parsed: Parsed) -> Step | None:
    """One action or proposition: the first ``(...)`` or ``None``/``[]``; ``...`` when absent.

    Returns ``None`` for an explicit None answer and raises :class:`AnswerParseError` when the
    answer holds neither.
    """
    for element in parsed.elements:
        if element[0] == "paren":
            return element[1]
        if element[0] == "none":
            return None
        if element[0] == "list":
            inner = [e for e in element[1] if e[0] in ("paren", "none")]
            if not inner or inner[0][0] == "none":
                return None
            return inner[0][1]
    raise AnswerParseError("the answer holds no parenthesised action/proposition and no None")


def step_list(parsed: Parsed) -> list[Step]:
    """A list of actions: the first bracketed list if there is one, else every ``(...)``."""
    for element in parsed.elements:
        if element[0] == "list":
            return [e[1] for e in _flatten(element[1]) if e[0] == "paren"]
    return [e[1] for e in parsed.elements if e[0] == "paren"]


def two_lists(parsed: Parsed) -> tuple[list[Step], list[Step]]:
    """Positive and negative effects, by headings if present, else the first two lists."""
    if any(e[0] == "heading" for e in parsed.elements):
        lists: dict[str, list[Step]] = {"positive": [], "negative": []}
        current = None
        for element in parsed.elements:
            if element[0] == "heading":
                current = element[1]
            elif current is not None and element[0] in ("paren", "list"):
                found = [element] if element[0] == "paren" else _flatten(element[1])
                lists[current].extend(e[1] for e in found if e[0] == "paren")
        return lists["positive"], lists["negative"]
    groups = [e for e in parsed.elements if e[0] == "list"]
    if len(groups) >= 2:
        return ([e[1] for e in _flatten(groups[0][1]) if e[0] == "paren"],
                [e[1] for e in _flatten(groups[1][1]) if e[0] == "paren"])
    raise AnswerParseError("expected two lists '[...] [...]' or 'positive effects: ... "
                           "negative effects: ...'")


def index(parsed: Parsed) -> int:
    """The first bare integer of the answer."""
    for element in parsed.elements:
        if element[0] == "int":
            return element[1]
    raise AnswerParseError("the answer holds no integer index")
