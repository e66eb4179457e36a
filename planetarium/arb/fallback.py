"""Reading free English where ARB's exact wording is not used: conservative, per domain.

A model may write "b1 is on top of b2" or "robot1 carries ball3 in lgripper1" instead of one of
ARB's wordings.  The fallback reads such an item when exactly one fluent or action fits:

- the item's objects (all of them, each once) fill the parameters of a fluent or action with
  their types, in an order one of its wordings puts them in;
- every content word of the item occurs in that fluent's or action's wordings (after a crude
  stemming: "carries" ~ "carrying", and "in" ~ "at");
- the sign is read from negation words ("not", "no", "n't", ...), unless one of the fluent's
  wordings says the opposite of its words ("hand is not holding anything"): then only an item
  with exactly that wording's words is read.

Anything else is left unread (the answer is then ``unparsed``): the fallback never picks
between two readings.  The vocabulary comes from the domain's own phrase book, so a domain with
English in :mod:`.phrases` (or a ``phrases.json``) gets a fallback with nothing more written.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from .reader import HOLE, Meaning

if TYPE_CHECKING:
    from .phrases import PhraseBook

NEGATIONS = frozenset({"not", "no", "never", "cannot", "isn't", "aren't", "doesn't", "don't",
                       "can't", "hasn't", "haven't", "incomplete", "nothing", "none"})
FILLER = frozenset({"is", "are", "be", "been", "being", "was", "were", "has", "have", "had",
                    "does", "do", "did", "currently", "now", "there", "that", "which", "it",
                    "its", "and", "of", "also", "still", "'s", "s"})
_WORDS = re.compile(r"[a-z]+(?:'[a-z]+)?|'s")


#: Words read as one: location prepositions, and "inside" for "in".
SAME = {"in": "at", "inside": "at", "within": "at"}


def stem(word: str) -> str:
    """A crude stem ("carrying", "carries", "carried" -> "carr"; "in" -> "at")."""
    word = SAME.get(word, word)
    for suffix in ("ing", "ies", "ied", "es", "ed", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _content(text: str) -> tuple[frozenset[str], bool]:
    """Stemmed content words of a hollowed text, and whether it has a negation word."""
    words = _WORDS.findall(text.replace(HOLE, " "))
    negated = any(w in NEGATIONS or w.endswith("n't") for w in words)
    content = frozenset(stem(w) for w in words if w not in FILLER and w not in NEGATIONS
                        and not w.endswith("n't"))
    return content, negated


@functools.lru_cache(maxsize=64)
def _vocabulary(book: PhraseBook) -> dict[tuple[str, str], dict]:
    """(kind, name) -> its words, the text orders of its arguments, and sign exceptions."""
    from .reader import skeletons

    table: dict[tuple[str, str], dict] = {}
    for kind, by_skeleton in skeletons(book).items():
        for skeleton, wordings in by_skeleton.items():
            content, negated = _content(skeleton)
            for wording in wordings:
                entry = table.setdefault((kind, wording.phrase.name),
                                         {"words": set(), "orders": set(), "odd": {}})
                entry["words"] |= content
                entry["orders"].add(wording.order)
                if kind == "fluent" and negated != (not wording.phrase.positive):
                    entry["odd"][content] = wording.phrase.positive
    return table


def fallback_reader(book: PhraseBook, type_names: Iterable[str],
                    admits: Callable[[str, Meaning], bool]
                    ) -> Callable[[str, str, tuple[str, ...]], frozenset]:
    """``read(kind, hollowed_span, objects)`` -> the one meaning it reads (empty: none).

    ``type_names``: the domain's and the instance's type names (their words are no content);
    ``admits(kind, meaning)``: whether the instance has such a fluent or action."""
    vocabulary = _vocabulary(book)
    types = {w for t in type_names for w in t.split("_")}
    stems = {stem(t) for t in types}

    def read(kind: str, span: str, objects: tuple[str, ...]) -> frozenset[Meaning]:
        if len(set(objects)) != len(objects):
            return frozenset()
        content, negated = _content(span)
        content = content - stems
        found: set[Meaning] = set()
        for (entry_kind, name), entry in vocabulary.items():
            if entry_kind != kind or not content or not content <= entry["words"]:
                continue
            positive = not negated
            if entry["odd"]:
                if content in entry["odd"]:
                    positive = entry["odd"][content]
                elif any(c & content for c in entry["odd"]):
                    continue  # the words could belong to a wording whose sign reads backwards
            for order in entry["orders"]:
                if len(order) != len(objects) or sorted(order) != list(range(len(order))):
                    continue
                args = [""] * len(order)
                for position, obj in zip(order, objects, strict=True):
                    args[position] = obj
                meaning: Meaning = ((positive, (name, *args)) if kind == "fluent"
                                    else (name, tuple(args)))
                if admits(kind, meaning):
                    found.add(meaning)
        return frozenset(found) if len(found) == 1 else frozenset()

    return read

