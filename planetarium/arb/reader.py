"""Reading ARB's English back into fluents and actions, exactly.

Every wording in :mod:`.phrases` becomes a *skeleton*: the text with each object replaced by
``@`` and normalised (lower case, no articles, single spaces).  Reading an item is then one
dictionary look-up: replace the instance's objects in the item by ``@`` (remembering them in
order), normalise, look the skeleton up, and put the objects back in the wording's argument
order.  What comes back is filtered by the instance (types, distinct arguments, ARB's name
conditions); more than one meaning left means ARB's wording is not one-to-one there (logistics'
2024 "truck is driven" without the truck, zenotravel's zoom without its middle fuel level,
grippers' "robot1 is at room1" read as a ball) and the item is *ambiguous*, never guessed.

Lists are ARB's "A, B, C and D", where wordings may themselves hold commas and "and"s ("on top
of block b2, block b5 is stacked"): :func:`read_list` segments a list by dynamic programming
over its separators, so that every item reads, and reports a list whose segmentations disagree
as ambiguous.  Answers may also put items on lines, after bullets or numbers, between
semicolons or in sentences: those separate items outright, and an answer's asides are taken
away first (:mod:`.asides`).  Where an exact reading fails, a per-domain fallback
(:mod:`.fallback`) may read free English; it is used only where the exact one fails, and every
item it reads is marked so.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from ..limits import check_deadline
from .asides import asides_removed, positional_names
from .groupings import expansions, quantified
from .phrases import Phrase, PhraseBook

Literal = tuple[bool, tuple]  # (positive, atom)
Step = tuple[str, tuple[str, ...]]  # (action name, arguments)
Meaning = Literal | Step

HOLE = "@"
_ARTICLES = re.compile(r"(?<![\w'-])(?:a|an|the)(?![\w'-])")
_SPACE = re.compile(r"\s+")
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
_SOFT = re.compile(r"\s*,\s*(?:and|or)\s+|\s*,\s*|\s+and\s+")
_HARD = re.compile(r"\s*(?:\n|;|\s[-*\u2022/]\s|(?<=\S)\s+\(?\d{1,3}[.)](?=\s)"
                   r"|(?:(?<=[a-z_)])|(?<=[a-z_]\d)|(?<=[a-z_]\d\d))\.\s+(?=\S))\s*")
_BULLET = re.compile(r"^\s*(?:[-*\u2022]+|\(?\d{1,3}[.)])\s+")
_EDGES = " \t.!?:\"'`*_"
_LEADING_AND = re.compile(r"^(?:and|or)\s+")
#: A grouping ("b2, b3 and b4 are clear") is one sentence: longer chunks are not spelled out.
MAX_GROUPED = 12
_PRONOUN = re.compile(r"^(?:it|they|he|she)\s+")


def normalize(text: str) -> str:
    """Lower case, plain quotes, no articles, single spaces, no surrounding punctuation."""
    text = _ARTICLES.sub(" ", text.lower().translate(_QUOTES))
    return _SPACE.sub(" ", text).strip(_EDGES)


@dataclass(frozen=True)
class Wording:
    """A skeleton's source: the phrase, and which argument each ``@`` (in order) fills."""

    phrase: Phrase
    order: tuple[int, ...]
    arity: int


def _skeleton(template: str) -> tuple[str, tuple[int, ...]]:
    order: list[int] = []

    def hole(match: re.Match) -> str:
        order.append(int(match.group(1)))
        return HOLE

    text = re.sub(r"\{(\d+)\}", hole, template.lower())
    return normalize(_ARTICLES.sub(" ", text)), tuple(order)


@functools.lru_cache(maxsize=64)
def skeletons(book: PhraseBook) -> dict[str, dict[str, tuple[Wording, ...]]]:
    """kind ("fluent"/"action") -> skeleton -> the wordings it comes from."""
    table: dict[str, dict[str, list[Wording]]] = {"fluent": {}, "action": {}}
    for phrase in book.phrases:
        skeleton, order = _skeleton(phrase.template)
        arity = max(order, default=-1) + 1
        arity = max(arity, _declared_arity(phrase))
        table[phrase.kind].setdefault(skeleton, []).append(Wording(phrase, order, arity))
    return {kind: {s: tuple(w) for s, w in found.items()} for kind, found in table.items()}


def _declared_arity(phrase: Phrase) -> int:
    return len(set(re.findall(r"\{(\d+)\}", phrase.template)))


@functools.lru_cache(maxsize=64)
def glued_words(book: PhraseBook) -> tuple[str, ...]:
    """Words some wording writes straight after an object, with no space ("{1}cargo")."""
    found = {m.group(1) for kinds in skeletons(book).values() for s in kinds
             for m in re.finditer(HOLE + r"([a-z]+)", s)}
    return tuple(sorted(found))


@functools.lru_cache(maxsize=64)
def max_separators(book: PhraseBook) -> int:
    """The most list separators (", ", " and ") inside one wording of ``book``."""
    return max((len(_SOFT.findall(s)) for kinds in skeletons(book).values() for s in kinds),
               default=0)


@dataclass
class Lexicon:
    """Reading one instance's English: its phrase book, its objects and a judge of meanings
    (``admits(meaning)``: a fluent or action of the instance, ARB's name conditions held).

    ``arity_of(kind, name)`` and ``objects_of(kind, name, position)`` fill an argument a wording
    leaves out (zenotravel's zoom) with every object that fits, so the item reads ambiguous.
    """

    book: PhraseBook
    objects: tuple[str, ...]
    admits: Callable[[str, Meaning], bool]
    fill: Callable[[str, str, int], tuple[str, ...]]
    fallback: Callable[[str, str, tuple[str, ...]], frozenset] | None = None
    #: object -> type, for nouns that name several objects ("any ball", "either gripper")
    type_of: Mapping[str, str] | None = None
    _pattern: re.Pattern | None = field(default=None, repr=False)

    def members(self, noun: str) -> list[str]:
        """The objects a noun names: those of that type, else those whose name holds it before
        a number ("ball" -> ball1, ball2; "gripper" -> lgripper1, rgripper1)."""
        typed = sorted(o for o, t in (self.type_of or {}).items() if t == noun)
        if typed:
            return typed
        named = re.compile(re.escape(noun) + r"\d")
        return sorted(o for o in self.objects if named.search(o))

    def objects_pattern(self) -> re.Pattern | None:
        """Object names as whole words; a name may also run into a word that ARB glues to an
        object in one of its wordings ("location l1cargo c0 ...")."""
        if self._pattern is None and self.objects:
            names = sorted(self.objects, key=len, reverse=True)
            glue = glued_words(self.book)
            after = r"(?:(?![\w-])" + (f"|(?=(?:{'|'.join(glue)})\\b)" if glue else "") + ")"
            self._pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + ")"
                                       + after)
        return self._pattern

    def hollow(self, text: str) -> tuple[str, list[str]]:
        """``text`` normalised with each object replaced by ``@``, and the objects in order."""
        text = text.lower().translate(_QUOTES).replace(HOLE, " ")
        found: list[str] = []
        pattern = self.objects_pattern()
        if pattern is not None:
            def hole(match: re.Match) -> str:
                found.append(match.group(1))
                return HOLE
            text = pattern.sub(hole, text)
        return normalize(text), found

    def meanings(self, kind: str, skeleton: str, objects: list[str]) -> frozenset[Meaning]:
        """Everything the hollowed item can mean in this instance (empty: not ARB's English)."""
        found: set[Meaning] = set()
        for wording in skeletons(self.book)[kind].get(skeleton, ()):
            if len(wording.order) != len(objects):
                continue
            slots: list[tuple[str, ...]] = [()] * wording.arity
            clash = False
            for position, obj in zip(wording.order, objects, strict=True):
                if slots[position] and slots[position] != (obj,):
                    clash = True
                slots[position] = (obj,)
            if clash:
                continue
            for i, slot in enumerate(slots):
                if not slot:
                    slots[i] = self.fill(kind, wording.phrase.name, i)
            for args in _product(slots):
                meaning: Meaning = ((wording.phrase.positive, (wording.phrase.name, *args))
                                    if kind == "fluent" else (wording.phrase.name, args))
                if self.admits(kind, meaning) and self.book.usable(wording.phrase, args):
                    found.add(meaning)
        return frozenset(found)

    def read(self, kind: str, text: str) -> frozenset[Meaning]:
        """One item's meanings (exact reading only)."""
        skeleton, objects = self.hollow(text)
        return self.meanings(kind, skeleton, objects)


def _product(slots: list[tuple[str, ...]]) -> Iterator[tuple[str, ...]]:
    if not slots:
        yield ()
        return
    head, *rest = slots
    for first in head:
        for tail in _product(rest):
            yield (first, *tail)


@dataclass(frozen=True)
class Item:
    """One item of a list: its text, what it means (empty: unread), and how it was read
    ("exact", "fallback", "unread"; "grouped" for a grouping that says several things, all of
    which it means; "empty" for a blank piece, which is no item)."""

    text: str
    meanings: frozenset
    how: str

    @property
    def ambiguous(self) -> bool:
        return len(self.meanings) > 1 and self.how != "grouped"


@dataclass(frozen=True)
class ListReading:
    """A list read into items; ``ambiguous_split`` when its segmentations read differently."""

    items: tuple[Item, ...]
    ambiguous_split: bool = False

    @property
    def unread(self) -> list[Item]:
        return [i for i in self.items if i.how == "unread"]

    @property
    def ambiguous(self) -> bool:
        return self.ambiguous_split or any(i.ambiguous for i in self.items)

    def meaning_set(self) -> frozenset | None:
        """The set the list names (None when an item is unread or ambiguous)."""
        if self.unread or self.ambiguous:
            return None
        return frozenset(m for i in self.items for m in i.meanings)


# cost of a parse: (unread items, segments inside unread items, items read by the fallback)
_Cost = tuple[int, int, int]


@dataclass
class _Best:
    """The best parse of a prefix: its cost, how many parses share it (capped at 2), and the
    last item with where it starts, for the parse that prefers long items and the one that
    prefers short ones (each followed back through its own predecessors)."""

    cost: _Cost
    ways: int
    long: tuple[int, Item] | None
    short: tuple[int, Item] | None


def _follow(best: list[_Best | None], which: str) -> list[Item]:
    items: list[Item] = []
    end = len(best) - 1
    while end > 0:
        entry = best[end]
        assert entry is not None
        start, item = getattr(entry, which)
        if item.how != "empty":
            items.append(item)
        end = start
    return items[::-1]


def segments(text: str) -> tuple[list[str], list[str]]:
    """Soft-separated pieces of a hollowed chunk, and the separators between them."""
    pieces, seps, pos = [], [], 0
    for match in _SOFT.finditer(text):
        pieces.append(text[pos:match.start()])
        joined = "and" in match.group() or "or" in match.group()
        seps.append(", " if "," in match.group() and not joined
                    else " and " if "," not in match.group() else ", and ")
        pos = match.end()
    pieces.append(text[pos:])
    return pieces, seps


def read_list(lexicon: Lexicon, kind: str, text: str, *, lines: bool = False,
              allow_unread: bool = False, use_fallback: bool = False) -> ListReading:
    """Read ``text`` as a list of ``kind`` items (see the module docstring).

    ``lines``: newlines, semicolons and bullets separate items too (answers);
    ``allow_unread``: an item may be left unread (questions that list made-up items), the parse
    with fewest unread items (then fewest segments inside them) wins; ``use_fallback``: an item
    the exact reading misses may be read by the domain's fallback.
    """
    chunks = [c for c in (_HARD.split(text) if lines else [text])]
    items: list[Item] = []
    ambiguous = False
    subject: str | None = None
    for chunk in chunks:
        if lines:
            chunk = positional_names(_BULLET.sub("", chunk), lexicon.objects)
        hollow, objects = lexicon.hollow(chunk)
        if lines:
            hollow = asides_removed(hollow)
        hollow = _LEADING_AND.sub("", hollow)  # ARB writes a one-item list as " and X"
        if not hollow:
            continue
        if lines and subject is not None and _PRONOUN.match(hollow):
            hollow, objects = _PRONOUN.sub(HOLE + " ", hollow, count=1), [subject, *objects]
        found, split_ambiguous = _read_chunk(lexicon, kind, hollow, objects, allow_unread or lines,
                                             use_fallback, grouping=lines and use_fallback)
        if objects and hollow.startswith(HOLE):
            subject = objects[0]
        items.extend(found)
        ambiguous = ambiguous or split_ambiguous
    return ListReading(tuple(items), ambiguous)


def _read_chunk(lexicon: Lexicon, kind: str, hollow: str, objects: list[str],
                allow_unread: bool, use_fallback: bool, grouping: bool = False
                ) -> tuple[list[Item], bool]:
    """One chunk's items: the cheapest segmentation (see :func:`read_list`); where an item does
    not read and ``grouping`` is on, the chunk spelled out item by item (:mod:`.groupings`)."""
    items, ambiguous = _segmented(lexicon, kind, hollow, objects, allow_unread, use_fallback)
    if not grouping or len(objects) > MAX_GROUPED or not any(i.how == "unread" for i in items):
        return items, ambiguous
    for pieces in expansions(hollow, objects):
        spelled: list[Item] = []
        for piece, mine in pieces:
            found, split = _read_chunk(lexicon, kind, piece, mine, allow_unread, use_fallback,
                                       grouping=len(pieces) > 1)
            if split or any(i.how == "unread" for i in found):
                break
            spelled.extend(found)
        else:
            return spelled, False
    return items, ambiguous


def _segmented(lexicon: Lexicon, kind: str, hollow: str, objects: list[str],
               allow_unread: bool, use_fallback: bool) -> tuple[list[Item], bool]:
    pieces, seps = segments(hollow)
    holes = [p.count(HOLE) for p in pieces]
    starts = [0]
    for count in holes:
        starts.append(starts[-1] + count)
    width = max_separators(lexicon.book) + 1
    best: list[_Best | None] = [None] * (len(pieces) + 1)
    best[0] = _Best((0, 0, 0), 1, None, None)
    for end in range(1, len(pieces) + 1):
        if not end % 256:
            check_deadline("reading a list")
        for start in range(max(0, end - width - (1 if allow_unread else 0)), end):
            before = best[start]
            if before is None:
                continue
            span = pieces[start]
            for k in range(start + 1, end):
                span += seps[k - 1] + pieces[k]
            span_objects = objects[starts[start]:starts[end]]
            item = _read_span(lexicon, kind, span, span_objects, end - start <= width,
                              use_fallback)
            if item.how == "unread" and not allow_unread:
                continue
            extra = (1, end - start, 0) if item.how == "unread" else \
                (0, 0, 1) if item.how == "fallback" else \
                (0, 0, 2) if item.how == "grouped" else \
                (0, 0, 0) if item.how == "exact" else (0, end - start, 0)  # empty: no item
            cost: _Cost = (before.cost[0] + extra[0], before.cost[1] + extra[1],
                           before.cost[2] + extra[2])
            current = best[end]
            if current is None or cost < current.cost:
                best[end] = _Best(cost, before.ways, (start, item), (start, item))
            elif cost == current.cost:
                # starts rise: the first candidate has the longest last item, the latest the
                # shortest
                current.ways = min(2, current.ways + before.ways)
                current.short = (start, item)
    final = best[-1]
    if final is None:
        return [Item(_restore(hollow, objects), frozenset(), "unread")], False
    longest = _follow(best, "long")
    if final.ways == 1:
        return longest, False
    return longest, _sets(longest) != _sets(_follow(best, "short"))


def _sets(items: list[Item]) -> frozenset:
    return frozenset(i.meanings for i in items)


def _restore(hollow: str, objects: list[str]) -> str:
    parts = hollow.split(HOLE)
    out = parts[0]
    for obj, part in zip(objects, parts[1:], strict=True):
        out += obj + part
    return out


def _read_span(lexicon: Lexicon, kind: str, span: str, objects: list[str], short: bool,
               use_fallback: bool) -> Item:
    text = _restore(span, objects)
    if not span.strip(_EDGES):  # ", ," or an article alone: nothing to read
        return Item(text, frozenset(), "empty")
    if short:
        found = lexicon.meanings(kind, span.strip(_EDGES), objects)
        if found:
            return Item(text, found, "exact")
    if use_fallback and lexicon.fallback is not None:
        found = lexicon.fallback(kind, span, tuple(objects))
        if found:
            return Item(text, found, "fallback")
        found = _grouped(lexicon, kind, span.strip(_EDGES), objects)
        if found:
            return Item(text, found, "grouped")
    return Item(text, frozenset(), "unread")


def _grouped(lexicon: Lexicon, kind: str, span: str, objects: list[str]) -> frozenset:
    """What a short grouping ("l0_0 and l0_1 are in city c0") says, each piece read exactly
    or by the fallback, one meaning each (empty: it is no grouping that reads)."""
    spelled = quantified(span, objects, lexicon.members)
    for pieces in ([spelled] if spelled else []) + list(expansions(span, objects)):
        found: set = set()
        for piece, mine in pieces:
            meanings = lexicon.meanings(kind, piece, mine)
            if not meanings and lexicon.fallback is not None:
                meanings = lexicon.fallback(kind, piece, tuple(mine))
            if len(meanings) != 1:
                break
            found |= meanings
        else:
            return frozenset(found)
    return frozenset()
