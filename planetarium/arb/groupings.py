"""Groupings people write in lists, spelled out one item each.

"b2, b3 and b4 are clear", "rgripper1 is not carrying ball1, ball2 or ball3", "b2 is on the
table and clear", "l0_0 and l0_1 are in city c0", "robot1 is not carrying any ball with either
gripper": one sentence that says several facts.  An
answer's list reader (:func:`planetarium.arb.reader.read_list`) tries these spellings only where
a piece of the answer does not read as it stands, and keeps one only if every item it makes
reads.  Texts here are *hollowed* (objects replaced by ``@``, see :mod:`.reader`), so the
patterns speak of holes, not names.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator

Piece = tuple[str, list[str]]  # a hollowed text and its objects, in order

_LIST = r"@(?:\s*,\s*@)*\s*,?\s*(?:and|or|nor|&)\s+@"
_SUBJECTS = re.compile(rf"^(?:(?:both|all|blocks?|[a-z]+s)\s+)?(?P<list>{_LIST})\s+"
                       r"(?P<verb>are|were|have|do|can)\s+(?P<rest>.+)$")
_ANY_LIST = re.compile(_LIST)
_PREDICATES = re.compile(r"^(?P<subject>@)\s+(?P<verb>is|are)\s+(?P<first>[^@]+?)\s*,?\s+and\s+"
                         r"(?:(?:is|are)\s+)?(?P<second>[^@]+)$")
_SINGULAR = {"are": "is", "were": "was", "have": "has", "do": "does", "can": "can"}


def _holes(text: str) -> int:
    return text.count("@")


def _split(text: str, objects: list[str], start: int, end: int) -> Iterator[list[Piece]]:
    """``text[start:end]`` is a list of holes: one piece per hole, the rest kept around it."""
    before, inside, after = text[:start], text[start:end], text[end:]
    first = _holes(before)
    count = _holes(inside)
    pieces = []
    for k in range(count):
        mine = objects[:first] + [objects[first + k]] + objects[first + count:]
        pieces.append((f"{before}@{after}".strip(), mine))
    yield pieces


def expansions(text: str, objects: list[str]) -> Iterator[list[Piece]]:
    """Ways to spell ``text`` (hollowed, with its ``objects``) as several items, most specific
    first (each a list of pieces; none when ``text`` holds no grouping)."""
    subjects = _SUBJECTS.match(text)
    if subjects:
        count = _holes(subjects.group("list"))
        verb = _SINGULAR[subjects.group("verb")]
        rest = subjects.group("rest")
        yield [(f"@ {verb} {rest}", [objects[k]] + objects[count:]) for k in range(count)]
    predicates = _PREDICATES.match(text)
    if predicates:
        head = f"@ {predicates.group('verb')} "
        yield [(head + predicates.group("first"), objects[:1]),
               (head + predicates.group("second"), objects[:1])]
    for match in _ANY_LIST.finditer(text):
        if match.start() == 0 and match.end() == len(text):
            continue
        yield from _split(text, objects, match.start(), match.end())


_QUANTIFIER = re.compile(r"\b(?P<q>any|every|all|each|either|both)\s+(?:of\s+)?(?:(?:its|the|their)\s+)?"
                         r"(?P<noun>[a-z]+?)(?:e?s)?\b")
_NEGATED = re.compile(r"\b(?:not|no|never|neither|nor)\b|n't\b")
#: At most this many items a quantified sentence is spelled into.
MAX_SPELLED = 64


def quantified(text: str, objects: list[str], members: Callable[[str], list[str]]
               ) -> list[Piece] | None:
    """"robot1 is not carrying any ball with either gripper" as one item per ball and gripper
    (``members(noun)``: the objects a noun names, by type or name).  "any" and "either" count
    as "every" only in a negated sentence ("is not carrying any ball"); "all", "every", "each"
    and "both" always."""
    negated = bool(_NEGATED.search(text))
    found = [m for m in _QUANTIFIER.finditer(text)
             if (negated or m.group("q") not in ("any", "either")) and members(m.group("noun"))]
    if not found:
        return None
    choices = [members(m.group("noun")) for m in found]
    pieces: list[Piece] = []
    for combination in itertools.product(*choices):
        if len(pieces) >= MAX_SPELLED:
            return None
        out, mine, last, before = "", [], 0, 0
        for match, obj in zip(found, combination, strict=True):
            head = text[last:match.start()]
            holes = _holes(head)
            mine.extend(objects[before:before + holes])
            before += holes
            out += head + "@"
            mine.append(obj)
            last = match.end()
        mine.extend(objects[before:])
        pieces.append(((out + text[last:]).strip(), mine))
    return pieces
