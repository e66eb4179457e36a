"""Reading free English where ARB's exact wording is not used: conservative, per domain.

A model may write "b1 is on top of b2", "unstack b3 from b1", "robot1 drops ball1 in room3
with lgripper1" or "rgripper1 is free" instead of one of ARB's wordings.  The fallback reads
such an item when exactly one fluent or action fits best:

- every content word of the item occurs in the fluent's or action's wordings, after a crude
  stemming ("carries" ~ "carrying", "driven" ~ "drive") and with prepositions the fluent's
  wordings do not use left aside ("picks up spanner1 *at* location1");
- the item's objects fill parameters of matching types, each once; a parameter the item leaves
  out is filled only where one object of its type fits ("rgripper1 is free": robot1's, when
  robot1 is the only robot);
- of the assignments that fit, the best is the one whose words before each object agree most
  with a wording's words before that parameter ("unstack b3 *from* b1" reads b3 as the top
  block); a tie between different meanings leaves the item unread;
- the sign is read from negation words ("not", "no", "n't", ...), unless one of the fluent's
  wordings says the opposite of its words ("hand is not holding anything"): then only an item
  with exactly that wording's words is read.

The vocabulary comes from the domain's own phrase book, so a domain with English in
:mod:`.phrases` (or a ``phrases.json``) gets a fallback with nothing more written.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .reader import HOLE, Meaning

if TYPE_CHECKING:
    from .phrases import PhraseBook

NEGATIONS = frozenset({"not", "no", "never", "cannot", "isn't", "aren't", "doesn't", "don't",
                       "can't", "hasn't", "haven't", "incomplete", "nothing", "none"})
FILLER = frozenset({"is", "are", "be", "been", "being", "was", "were", "has", "have", "had",
                    "does", "do", "did", "currently", "now", "there", "that", "which", "it",
                    "its", "and", "of", "also", "still", "'s", "s", "then", "will", "would",
                    "should", "can", "itself", "both", "you", "or"})
#: Prepositions an item may use where the domain's wording uses another ("at" for "from").
PREPOSITIONS = frozenset({"at", "in", "on", "from", "to", "with", "by", "into", "onto",
                          "inside", "using", "via", "within", "off", "of"})
_WORDS = re.compile(r"[a-z]+(?:'[a-z]+)?|'s")

#: Words read as one: location prepositions, and irregular verb forms.
SAME = {"in": "at", "inside": "at", "within": "at", "into": "at", "onto": "on",
        "using": "with", "via": "with",
        "driven": "drive", "drove": "drive", "drives": "drive", "driving": "drive",
        "flown": "fly", "flies": "fly", "flew": "fly", "flying": "fly",
        "sits": "on", "sitting": "on", "resting": "on", "rests": "on",
        "holds": "hold", "held": "hold", "holding": "hold"}
#: Words a domain may use for one another, tried only where a domain's wordings lack the word
#: itself (grippers "carry" what blocksworld's hand "holds"; a gripper "is free" or "empty").
SYNONYMS = {"hold": ("carry",), "carry": ("hold",), "empty": ("free", "available")}
#: At most this many assignments of an item's objects to parameters are tried.
MAX_ASSIGNMENTS = 720


def stem(word: str) -> str:
    """A crude stem: "carrying", "carries", "carried" -> "carry"; "moves", "move", "moving"
    -> "mov"; "in" -> "at"."""
    word = SAME.get(word, word)
    if len(word) > 4 and word.endswith(("ies", "ied")):
        word = word[:-3] + "y"
    elif len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
        if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
            word = word[:-1]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
        if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
            word = word[:-1]
    elif len(word) > 4 and word.endswith("es") and word[-3] in "sxz":
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


def _negated(words: list[str]) -> bool:
    return any(w in NEGATIONS or w.endswith("n't") for w in words)


def _content(text: str) -> tuple[frozenset[str], bool]:
    """Stemmed content words of a hollowed text, and whether it has a negation word."""
    words = _WORDS.findall(text.replace(HOLE, " "))
    content = frozenset(stem(w) for w in words if w not in FILLER and w not in NEGATIONS
                        and not w.endswith("n't"))
    return content, _negated(words)


def _gaps(text: str) -> list[frozenset[str]]:
    """The prepositions before each ``@`` of a hollowed text (since the previous one): what
    tells "unstack b3 *from* b1" from "from b1, b3 is unstacked"."""
    pieces = text.split(HOLE)[:-1]
    return [frozenset(stem(w) for w in _WORDS.findall(p) if w in PREPOSITIONS) for p in pieces]


@dataclass(frozen=True)
class _Wording:
    order: tuple[int, ...]
    gaps: tuple[frozenset[str], ...]  # prepositions before each parameter (by position)
    words: frozenset[str]  # its stemmed content words


@functools.lru_cache(maxsize=64)
def _vocabulary(book: PhraseBook) -> dict[tuple[str, str], dict]:
    """(kind, name) -> its words (content and all), its wordings, arity and sign exceptions."""
    from .reader import skeletons

    table: dict[tuple[str, str], dict] = {}
    for kind, by_skeleton in skeletons(book).items():
        for skeleton, wordings in by_skeleton.items():
            content, negated = _content(skeleton)
            gaps = _gaps(skeleton)
            for wording in wordings:
                entry = table.setdefault((kind, wording.phrase.name),
                                         {"words": set(), "all": set(), "wordings": set(),
                                          "arity": 0, "odd": {}})
                entry["words"] |= content
                entry["all"] |= {stem(w) for w in _WORDS.findall(skeleton.replace(HOLE, " "))}
                entry["arity"] = max(entry["arity"], wording.arity)
                by_parameter: list[frozenset[str]] = [frozenset()] * wording.arity
                for position, gap in zip(wording.order, gaps, strict=True):
                    by_parameter[position] = by_parameter[position] | gap
                entry["wordings"].add(_Wording(wording.order, tuple(by_parameter), content))
                if kind == "fluent" and negated != (not wording.phrase.positive):
                    entry["odd"][content] = wording.phrase.positive
    return table


def fallback_reader(book: PhraseBook, type_names: Iterable[str],
                    admits: Callable[[str, Meaning], bool],
                    fill: Callable[[str, str, int], tuple[str, ...]] | None = None
                    ) -> Callable[[str, str, tuple[str, ...]], frozenset]:
    """``read(kind, hollowed_span, objects)`` -> the one meaning it reads (empty: none).

    ``type_names``: the domain's and the instance's type names (their words are no content);
    ``admits(kind, meaning)``: whether the instance has such a fluent or action;
    ``fill(kind, name, position)``: the objects that may stand at a parameter (for parameters
    an item leaves out)."""
    vocabulary = _vocabulary(book)
    if fill is not None:
        fill = functools.lru_cache(maxsize=1024)(fill)
    types = {w for t in type_names for w in t.split("_")}
    stems = {stem(t) for t in types} | {stem(t + "s") for t in types}

    @functools.lru_cache(maxsize=4096)  # a long answer repeats its items
    def read(kind: str, span: str, objects: tuple[str, ...]) -> frozenset[Meaning]:
        if not objects or len(set(objects)) != len(objects):
            return frozenset()
        content, negated = _content(span)
        content = content - stems
        weak = frozenset(stem(w) for w in _WORDS.findall(span.replace(HOLE, " "))
                         if w not in NEGATIONS) - {"and"}
        gaps = _gaps(span)
        best: dict[Meaning, int] = {}
        for (entry_kind, name), entry in vocabulary.items():
            if entry_kind != kind:
                continue
            needed = {_own(w, entry["words"]) for w in content - (PREPOSITIONS - entry["words"])}
            if needed:
                if not needed <= entry["words"]:
                    continue
            elif not weak - stems - PREPOSITIONS or not weak <= entry["all"] | PREPOSITIONS | stems:
                continue
            positive = not negated
            if entry["odd"]:
                if content in entry["odd"]:
                    positive = entry["odd"][content]
                elif any(c & content for c in entry["odd"]):
                    continue  # the words could belong to a wording whose sign reads backwards
            for args, score in _assignments(kind, name, entry, objects, (gaps, content, stems),
                                            fill):
                meaning: Meaning = ((positive, (name, *args)) if kind == "fluent"
                                    else (name, args))
                if admits(kind, meaning):
                    best[meaning] = max(score, best.get(meaning, -1))
        if not best:
            return frozenset()
        top = max(best.values())
        winners = [m for m, s in best.items() if s == top]
        return frozenset(winners) if len(winners) == 1 else frozenset()

    return read


def _own(word: str, words: set[str]) -> str:
    """``word``, or the synonym of it that ``words`` (a fluent's or action's) use."""
    if word in words:
        return word
    return next((stem(s) for s in SYNONYMS.get(word, ()) if stem(s) in words), word)


def _assignments(kind: str, name: str, entry: dict, objects: tuple[str, ...],
                 text: tuple[list[frozenset[str]], frozenset[str], set[str]],
                 fill: Callable[[str, str, int], tuple[str, ...]] | None
                 ) -> Iterable[tuple[tuple[str, ...], int]]:
    """Argument tuples the item's objects can make, each with how well its words agree with a
    wording's (the item's objects each once, at parameters of their type; left-out parameters
    filled where one object fits)."""
    arity = entry["arity"]
    if len(objects) > arity or (len(objects) < arity and fill is None):
        return
    fits: list[frozenset[str] | None] = [
        frozenset(fill(kind, name, i)) if fill is not None else None for i in range(arity)]
    where = [[i for i, fit in enumerate(fits) if fit is None or obj in fit] for obj in objects]
    tried = 0
    for positions in itertools.product(*where):
        tried += 1
        if tried > MAX_ASSIGNMENTS:
            return
        if len(set(positions)) != len(positions):
            continue
        args: list[str] = [""] * arity
        for position, obj in zip(positions, objects, strict=True):
            args[position] = obj
        for i in range(arity):
            if not args[i]:
                left = [o for o in fits[i] or () if o not in args]
                if len(left) != 1:
                    break
                args[i] = left[0]
        else:
            score = max(_agreement(text, positions, wording) for wording in entry["wordings"])
            yield tuple(args), score


def _agreement(text: tuple[list[frozenset[str]], frozenset[str], set[str]],
               positions: tuple[int, ...], wording: _Wording) -> int:
    """How well an assignment reads like ``wording``: prepositions before the same parameters
    (first), then the wording's words the item uses less those it leaves out ("below" reads
    "is below", not "is above"; "switch on" not "switched off"), then pairs of objects in the
    wording's order."""
    gaps, content, type_words = text
    same = sum(len(gap & wording.gaps[p]) for gap, p in zip(gaps, positions, strict=True))
    words = wording.words - type_words
    shared = len(content & words) - len(words - content)
    where = {p: i for i, p in enumerate(wording.order)}
    ranks = [where.get(p, -1) for p in positions]
    ordered = sum(a < b for a, b in itertools.combinations(ranks, 2))
    return 1000 * same + 10 * shared + ordered
