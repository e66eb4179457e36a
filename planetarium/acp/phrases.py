"""English descriptions of actions and atoms, learned from the generative questions' own lists.

Every ACPBench Hard context that lists "The available actions are: (sail ?from ?to) - travel by
sea from location ?from to location ?to, ..." (or "The available propositions are: ...") states,
in the generator's words, how one PDDL action or predicate is written in English.  The yes/no and
multiple-choice questions describe actions and facts with the same generator, so these lists —
harvested from every generative record of a domain — are the dictionary we read them with.  The
generator paraphrases ("sail from ...", "travel by sea from ..."), so a domain has several
templates per action; we keep every one seen.

A phrase is read by anchored regular expressions: literal words must match exactly (ignoring
case and repeated spaces) and each ``?var`` takes one object name.  Several phrases joined by
", ", ", and " or " and " (a plan, a goal, an option "A and B") are split by trying every
template at every position (:func:`read_sequence`), so commas *inside* a description ("sample the
soil ..., then store it ...") never cut it.  A phrase that reads two different ways is reported
ambiguous and one that matches no template unreadable: neither is ever guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

Step = tuple[str, ...]
T = TypeVar("T")

OBJECT = r"[A-Za-z0-9_\-]+"
_HEADER = re.compile(r"\((?P<name>[A-Za-z][\w\-]*)(?P<vars>(?:\s+\?[\w\-]+)*)\s*\)\s+-\s+")
_LISTS = {"actions": re.compile(r"The available actions are:\s*"),
          "propositions": re.compile(r"The available propositions are:\s*")}
SEPARATORS = (", and ", ", ", " and ")


class PhraseError(ValueError):
    """A phrase that matches no template, or reads as two different steps."""


def normalize(text: str) -> str:
    """One space between words, no space before punctuation, outer spaces dropped."""
    return re.sub(r"\s+([,;.])", r"\1", re.sub(r"\s+", " ", text)).strip()


@dataclass(frozen=True)
class Template:
    """One English description of a PDDL action or predicate: ``(name ?a ?b) - text``."""

    name: str
    variables: tuple[str, ...]
    text: str

    @cached_property
    def pattern(self) -> re.Pattern:
        parts, seen = [], set()
        for piece in re.split(r"(\?[\w\-]+)", self.text):
            if not piece.startswith("?"):
                parts.append(re.escape(piece).replace(r"\ ", r"\s+"))
            elif piece in seen:
                parts.append(f"(?P={_group(piece)})")
            else:
                seen.add(piece)
                parts.append(f"(?P<{_group(piece)}>{OBJECT})")
        return re.compile("".join(parts), re.IGNORECASE)

    def step(self, match: re.Match) -> Step:
        return (self.name,) + tuple(match.group(_group(v)).lower() for v in self.variables)


def _group(variable: str) -> str:
    return "v_" + re.sub(r"\W", "_", variable[1:])


def harvest(context: str, which: str) -> list[Template]:
    """The templates a context lists after "The available actions/propositions are:"."""
    start = _LISTS[which].search(context)
    if start is None:
        return []
    text = normalize(context[start.end():])
    goal = re.search(r"\s*The goal is to reach a state", text)  # lists may precede the goal
    text = text[:goal.start()] if goal else text
    headers = list(_HEADER.finditer(text))
    out = []
    for number, header in enumerate(headers):
        end = headers[number + 1].start() if number + 1 < len(headers) else len(text)
        body = text[header.end():end]
        last = number + 1 == len(headers)
        body = re.sub(r"\.$", "", body.strip()) if last else re.sub(r",?\s*(and)?\s*$", "", body)
        variables = tuple(header.group("vars").split())
        if body and all(v in body for v in variables):
            out.append(Template(header.group("name").lower(), variables, body.strip()))
    return out


class Dictionary:
    """All templates of one kind (actions or atoms) of one domain."""

    def __init__(self, templates: Iterable[Template]) -> None:
        unique = {(t.name, t.variables, t.text.lower()): t for t in templates}
        self.templates = [unique[k] for k in sorted(unique)]  # every one is tried: order is moot

    def __len__(self) -> int:
        return len(self.templates)

    def matches_at(self, text: str, position: int) -> list[tuple[int, Step]]:
        """Every ``(end, step)`` a template reads starting at ``position``."""
        out = []
        for template in self.templates:
            match = template.pattern.match(text, position)
            if match:
                out.append((match.end(), template.step(match)))
        return out

    def read(self, phrase: str) -> Step:
        """The one step ``phrase`` describes (the whole phrase, nothing left over)."""
        return _only(self.read_all(phrase, ()), phrase)[0]

    def read_all(self, phrase: str, separators: tuple[str, ...] = SEPARATORS) -> list[list[Step]]:
        """Every distinct reading of ``phrase`` as steps joined by ``separators`` (at most 2)."""
        text = normalize(phrase).rstrip(".?")
        return read_sequence(self, text, separators)

    def read_list(self, phrase: str, separators: tuple[str, ...] = SEPARATORS) -> list[Step]:
        """The steps of a phrase that joins several; :class:`PhraseError` unless one reading."""
        readings = self.read_all(phrase, separators)
        if not readings:
            text = normalize(phrase).rstrip(".?")
            done, rest = self.stuck(text, separators)
            if done:
                raise PhraseError(f"no known description matches '{_short(rest)}' (after {done} "
                                  "readable one(s))")
        return _only(readings, phrase)

    def stuck(self, text: str, separators: tuple[str, ...]) -> tuple[int, str]:
        """How many steps read from the start at most, and the text where reading stops."""
        frontier, best, lowered = {0: 0}, (0, 0), text.lower()
        for position in range(len(text)):
            if position not in frontier:
                continue
            count = frontier[position]
            best = max(best, (count, position))
            for end, _ in self.matches_at(text, position):
                for separator in separators:
                    if lowered.startswith(separator, end):
                        frontier.setdefault(end + len(separator), count + 1)
        return best[0], text[best[1]:]


def _only(readings: list[T], phrase: str) -> T:
    if not readings:
        raise PhraseError(f"no known description matches '{_short(phrase)}'")
    if len(readings) > 1:
        raise PhraseError(f"'{_short(phrase)}' reads two ways: {readings[0]} and {readings[1]}")
    return readings[0]


def _short(text: str, limit: int = 90) -> str:
    text = normalize(text)
    return text if len(text) <= limit else text[:limit] + "..."


def read_sequence(dictionary: Dictionary, text: str, separators: tuple[str, ...],
                  limit: int = 2) -> list:
    """Distinct readings of ``text`` as templates joined by ``separators`` (up to ``limit``).

    Dynamic programming over positions from the end: ``tails[i]`` holds the readings of
    ``text[i:]``; only ``limit`` are kept per position, enough to tell one reading from several.
    """
    size = len(text)
    tails: dict[int, list[tuple[Step, ...]]] = {size: [()]}
    lowered = text.lower()
    for position in range(size - 1, -1, -1):
        if position and not _may_start(text, position):
            continue
        found: list[tuple[Step, ...]] = []
        for end, step in dictionary.matches_at(text, position):
            nexts = []
            if end == size:
                nexts.append(size)
            else:
                nexts += [end + len(s) for s in separators if lowered.startswith(s, end)]
            for after in nexts:
                if after == size and end != size:
                    continue  # a trailing separator
                for tail in tails.get(after, []):
                    reading = (step,) + tail
                    if reading not in found:
                        found.append(reading)
                if len(found) >= limit:
                    break
        if found:
            tails[position] = found[:limit]
    return [list(r) for r in tails.get(0, [])]


def _may_start(text: str, position: int) -> bool:
    """A phrase starts only after a separator's space (cheap pruning of the search)."""
    return text[position - 1] == " "
