"""One ARB instance as the questions see it: domain, typed objects, initial state, English.

2024 records carry the instance (objects by type, initial fluents in ASP); final-release records
carry only its English (``initial_state_nl``), so the objects and the initial state are read
back from it: each item of the list is matched against every wording of the domain with open
object slots, the objects' types are the most specific ones their slots allow, and the items are
then read exactly like any other list.  Objects named nowhere in the initial state but in the
question or the stored answer are collected from those too (an object named nowhere at all
cannot be known: :attr:`Instance.inferred` says the objects were inferred).

Instances are shared: records of one instance (same domain, version, objects and initial state)
get the same :class:`Instance`, so grounding and reading are done once per instance.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from .catalog import BUILTIN, Catalog
from .domain import ArbDomain
from .phrases import PhraseBook
from .reader import HOLE, Lexicon, Meaning, Wording, max_separators, normalize, read_list, segments, skeletons
from .records import ArbRecord
from .simulate import State, World


class InstanceError(ValueError):
    """A record whose instance cannot be built (the message says why)."""


@dataclass
class Instance:
    """A domain's world (objects and their types), initial state and reader."""

    domain: ArbDomain
    book: PhraseBook
    world: World
    init: State
    inferred: bool = False
    _lexicon: Lexicon | None = field(default=None, repr=False)
    _fallback: Callable | None = field(default=None, repr=False)

    @property
    def lexicon(self) -> Lexicon:
        if self._lexicon is None:
            self._lexicon = Lexicon(self.book, tuple(self.world.type_of), self._admits,
                                    self._fill, self._fallback, self.world.type_of)
        return self._lexicon

    def _admits(self, kind: str, meaning: Meaning) -> bool:
        if kind == "fluent":
            return meaning[1] in self.world.fluents
        # Ignored: a meaning that is not a fluent's is an action's (name, args); the kind says
        # so, not the type (Literal | Step).
        return self.world.is_action(meaning)  # type: ignore[arg-type]

    def _fill(self, kind: str, name: str, position: int) -> tuple[str, ...]:
        """Every object that may stand at ``position`` of fluent/action ``name``."""
        if kind == "fluent":
            types = {s.types[position] for s in self.domain.fluents.get(name, ())
                     if position < len(s.types)}
        else:
            schema = self.domain.actions.get(name)
            types = {schema.signature.types[position]} if schema else set()
        return tuple(o for o, t in self.world.type_of.items()
                     if any(self.domain.is_a(t, want) for want in types))


@functools.lru_cache(maxsize=256)
def _cached(domain: ArbDomain, book: PhraseBook, objects: tuple[tuple[str, str], ...],
            init: frozenset, inferred: bool) -> Instance:
    from .fallback import fallback_reader

    instance = Instance(domain, book, World(domain, dict(objects)), init, inferred)
    instance._fallback = fallback_reader(
        book, [*domain.parents, *instance.world.type_of.values()], instance._admits,
        instance._fill)
    return instance


def instance_for(record: ArbRecord, catalog: Catalog = BUILTIN,
                 lists: tuple[str, ...] = ()) -> tuple[Instance, ArbRecord]:
    """The instance ``record`` asks about (:class:`InstanceError` when it cannot be built), and
    the record with the instance's plan when the catalog's instance files have one;
    ``lists``: the question's lists of fluents and actions, where a final-release record's
    objects may be named besides its initial state and stored answer."""
    try:
        domain, book = catalog.domains(record.domain, record.layout)
    except KeyError:
        raise InstanceError(f"unknown domain {record.domain!r} (give --domains for others)"
                            ) from None
    if record.init is None and catalog.instances is not None:
        known = catalog.instances(domain, record.domain, record.instance)
        if known is not None:
            record = replace(record, objects=known.objects, init=known.init,
                             plan=record.plan if record.plan is not None else known.plan)
    if record.objects is not None and record.init is not None:
        objects = tuple((o, t) for t, names in record.objects.items() for o in names)
        type_of = dict(objects)
        unknown = [a for atom in record.init for a in atom[1:] if a not in type_of]
        if unknown:
            raise InstanceError(f"initial state names {unknown[0]}, not an object of the instance")
        return _cached(domain, book, objects, frozenset(record.init), False), record
    if not record.init_nl:
        raise InstanceError("the record has neither initial_state_asp nor initial_state_nl")
    type_of, open_ = infer_objects(domain, book, [record.init_nl.rstrip(". "), record.answer,
                                                  *lists])
    if open_:
        obj, options = sorted(open_.items())[0]
        raise InstanceError(f"cannot tell the type of {obj} from the record's English (one of "
                            f"{', '.join(options)}); give --instances with the instance files")
    probe = Instance(domain, book, World(domain, type_of), frozenset(), True)
    reading = read_list(probe.lexicon, "fluent", record.init_nl.rstrip(". "))
    found = reading.meaning_set()
    if found is None:
        bad = reading.unread[0].text if reading.unread else "an ambiguous item"
        raise InstanceError(f"cannot read the initial state: {bad!r}")
    negative = [m for m in found if not m[0]]
    if negative:
        raise InstanceError("the initial state lists a negative fluent")
    return _cached(domain, book, tuple(sorted(type_of.items())),
                   frozenset(m[1] for m in found), True), record


def _open_patterns(book: PhraseBook) -> list[tuple[re.Pattern, str, tuple[Wording, ...],
                                                   tuple[str, ...]]]:
    """Every skeleton with object slots as a pattern with open slots (reading unknown objects),
    and the word before each slot ("cargo @": a hint at the object's type)."""
    found = []
    for kind, table in skeletons(book).items():
        for skeleton, wordings in table.items():
            if HOLE in skeleton:
                pattern = re.compile(re.escape(skeleton).replace(re.escape(HOLE),
                                                                  r"([a-z0-9][\w-]*)"))
                before = tuple((part.split() or [""])[-1] for part in skeleton.split(HOLE)[:-1])
                found.append((pattern, kind, wordings, before))
    return found


_PATTERNS: dict[PhraseBook, list] = {}


def infer_objects(domain: ArbDomain, book: PhraseBook, lists: list[str]
                  ) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Objects named in ``lists`` (ARB's English lists), typed; and those whose type stays open
    (with the types they could have).

    Every span of a list (up to the longest wording's separators) that is a whole wording with
    open slots types the objects in it: a slot allows the types of every wording with that
    skeleton (grippers' "ball1 is at room1" is a robot's or a ball's ``at``).  Where several
    types remain, in order: a type named right before the object in a wording ("cargo c0"),
    the type every typed object of the same name stem has (ball1 as ball2), the type the name
    starts with.
    """
    patterns = _PATTERNS.get(book)
    if patterns is None:
        patterns = _PATTERNS.setdefault(book, _open_patterns(book))
    width = max_separators(book) + 1
    constraints: dict[str, list[set[str]]] = {}
    hints: dict[str, set[str]] = {}
    for text in lists:
        pieces, seps = segments(normalize(text))
        for start in range(len(pieces)):
            span = pieces[start]
            for end in range(start + 1, min(len(pieces), start + width) + 1):
                if end > start + 1:
                    span += seps[end - 2] + pieces[end - 1]
                for pattern, kind, wordings, before in patterns:
                    match = pattern.fullmatch(span)
                    if match is None:
                        continue
                    for slot, obj in enumerate(match.groups()):
                        allowed = set().union(*(_slot_types(domain, kind, w, slot)
                                                for w in wordings))
                        constraints.setdefault(obj, []).append(allowed)
                        hints.setdefault(obj, set()).add(before[slot])
    leaves = _leaves(domain)
    fits = {obj: [leaf for leaf in leaves
                  if all(not allowed or any(domain.is_a(leaf, w) for w in allowed)
                         for allowed in wanted)]
            for obj, wanted in constraints.items()}
    typed = {obj: f[0] for obj, f in fits.items() if len(f) == 1}
    open_: dict[str, list[str]] = {}
    for obj, options in fits.items():
        if obj in typed or not options:
            continue
        hinted = [t for t in options if t in hints.get(obj, ())]
        kin = {typed[o] for o in typed if _stem(o) == _stem(obj)}
        named = [t for t in options if obj.startswith(t)]
        if len(hinted) == 1:
            typed[obj] = hinted[0]
        elif len(kin) == 1 and next(iter(kin)) in options:
            typed[obj] = next(iter(kin))
        elif len(named) == 1:
            typed[obj] = named[0]
        else:
            open_[obj] = options
    return typed, open_


def _stem(name: str) -> str:
    return re.sub(r"[\d_-].*$", "", name)


def _slot_types(domain: ArbDomain, kind: str, wording: Wording, slot: int) -> set[str]:
    position = wording.order[slot]
    if kind == "fluent":
        return {s.types[position] for s in domain.fluents.get(wording.phrase.name, ())}
    schema = domain.actions.get(wording.phrase.name)
    return {schema.signature.types[position]} if schema else set()


def _leaves(domain: ArbDomain) -> list[str]:
    named = set(domain.parents) | {t for s in domain.fluents.values() for sig in s
                                   for t in sig.types}
    named |= {t for a in domain.actions.values() for t in a.signature.types}
    parents = set(domain.parents.values())
    return sorted(t for t in named if t not in parents)
