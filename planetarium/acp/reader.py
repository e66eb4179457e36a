"""Reading an ACPBench context (English) back into a STRIPS problem, and checking the reading.

The yes/no and multiple-choice questions carry no PDDL: only the English ``context`` written by
the generator from a PDDL problem.  A context has four parts, in this order: the domain's fixed
introduction, the state (objects, static and dynamic facts, in aggregated sentences such as
"c0, c3, and c9 are at l0"), optionally the goal ("The goal is to reach a state where the
following facts hold: A, B, and C."), and, in generative questions only, the lists of available
actions or propositions.

A :class:`DomainText` holds how one domain writes its state: :class:`Clause` patterns, each with
the facts it states, plus what the generator leaves implicit (``complete``: e.g. grid
connectivity, "not-eq" of distinct locations, clear blocks).  Reading is *strict*: every
character of the state part must be consumed by some clause (separators aside), so a sentence
the reader does not know makes the context unreadable instead of silently dropping a fact.  The
goal is read with the atom descriptions the generator itself listed (:mod:`.phrases`).

Whether a :class:`DomainText` is right is not assumed: :func:`compare` checks the reading of
every generative record of the domain against the record's own PDDL problem (objects with their
types, initial state, and goal where the context states one), and :mod:`.labels` reads the
yes/no and multiple-choice contexts of a domain only when every one of them reproduces.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from functools import cached_property

from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem
from .phrases import PhraseError, Step, Template, normalize

_LIST_SEP = r"(?:,\s+and\s+|,\s+|\s+and\s+)"
GOAL = re.compile(r"\s*The goal is to reach a state where the following facts hold:\s*")
_LISTS = re.compile(r"\s*The available (?:actions|propositions) are:")
_FILLER = re.compile(r"[\s.,;:\x00]*(?:\band\b[\s.,;:\x00]*)*")
DIGITED = r"[A-Za-z_\-]*\d[\w\-]*"  # object names that hold a digit: c0, l1-2, block_3, f0-1f


class ReadError(ValueError):
    """A context the domain's reader cannot read completely (the message says where)."""


@dataclass
class Reading:
    """What a context states: facts and the objects with their declared types."""

    facts: set[Atom] = field(default_factory=set)
    types: dict[str, str] = field(default_factory=dict)

    def declare(self, name: str, type_name: str) -> None:
        old = self.types.setdefault(name, type_name)
        if old != type_name:
            raise ReadError(f"object {name} is declared both {old} and {type_name}")


@dataclass(frozen=True)
class Clause:
    """One sentence shape of a domain's state description.

    ``pattern`` is a regular expression in which ``{x}`` stands for one object and ``{x+}`` for
    a list of objects ("a, b, and c").  ``facts`` are atoms over the placeholders
    (``"at {cars} {loc}"``), one per combination of list items.  ``handler`` covers what facts
    do not (lists of pairs, numbered objects, refusals): it gets the match and the reading and
    adds to the reading itself.  Objects get their types from the predicates they appear in
    (:func:`object_types`) unless a handler declares them.
    """

    pattern: str
    facts: tuple[str, ...] = ()
    handler: Callable[[re.Match, Reading], None] | None = None

    def compile(self, name: str) -> re.Pattern:
        def placeholder(match: re.Match) -> str:
            key, many = match.group(1), match.group(2)
            if many:
                return f"(?P<{key}>{name}(?:{_LIST_SEP}{name})*)"
            return f"(?P<{key}>{name})"

        return re.compile(re.sub(r"\{(\w+)(\+?)\}", placeholder, self.pattern))

    def template(self) -> Template | None:
        """The clause as an atom description (``Place ?p has been visited``), when it is plain
        words around single objects and states one fact over them; else ``None``."""
        fact = self.facts[0].split() if len(self.facts) == 1 else []
        words = re.sub(r"\{\w+\}", "", self.pattern)
        if self.handler or not fact or re.search(r"[\\()\[\]|?*+.^$]", words):
            return None
        names = re.findall(r"\{(\w+)\}", self.pattern)
        matches = [re.fullmatch(r"\{(\w+)\}", a) for a in fact[1:]]
        args = [m.group(1) for m in matches if m is not None]
        if len(args) != len(matches) or sorted(args) != sorted(names):
            return None
        text = re.sub(r"\{(\w+)\}", r"?\1", self.pattern)
        return Template(fact[0], tuple("?" + a for a in args), text)

    def apply(self, match: re.Match, reading: Reading) -> None:
        values = {k: split_list(v) for k, v in match.groupdict().items() if v is not None}
        for fact in self.facts:
            reading.facts.update(_expand(fact, values))
        if self.handler is not None:
            self.handler(match, reading)


def split_list(text: str) -> list[str]:
    """``"a, b, and c"`` -> ``["a", "b", "c"]``."""
    return [x for x in re.split(_LIST_SEP, text.strip()) if x]


def _expand(template: str, values: dict[str, list[str]]) -> list[Atom]:
    """Every atom ``template`` names, one per combination of its placeholders' values."""
    atoms: list[list[str]] = [[]]
    for word in template.split():
        key = re.fullmatch(r"\{(\w+)\}", word)
        options = values[key.group(1)] if key else [word]
        atoms = [a + [o.lower()] for a in atoms for o in options]
    return [tuple(a) for a in atoms]


@dataclass(frozen=True)
class DomainText:
    """How one domain's generator writes a state (see the module docstring).

    Clauses are applied in order, each to all of the text the ones before left unread; a
    handler may rely on the clauses before it (visit-all removes unavailable cells from the
    grid its first clause declared).
    """

    domain: str  # the PDDL domain name of the generative records
    clauses: tuple[Clause, ...]
    objects: str = DIGITED  # what an object name looks like in this domain's sentences
    complete: Callable[[Reading, DomainDef], None] | None = None

    @cached_property
    def compiled(self) -> list[tuple[Clause, re.Pattern]]:
        return [(c, c.compile(self.objects)) for c in self.clauses]


@dataclass(frozen=True)
class Parts:
    """A context cut into its parts (see the module docstring)."""

    state: str
    goal: str | None


def split_context(context: str, introduction: str) -> Parts:
    """Cut off the introduction (which must be a prefix), the goal and the template lists."""
    text = normalize(context)
    lists = _LISTS.search(text)
    if lists:  # the lists run to the goal (generative justification questions) or to the end
        goal = GOAL.search(text, lists.end())
        text = text[:lists.start()] + (text[goal.start():] if goal else "")
    if not text.startswith(introduction):
        raise ReadError("the context does not start with the domain's introduction")
    text = text[len(introduction):]
    goal = GOAL.search(text)
    if goal is None:
        return Parts(text, None)
    return Parts(text[:goal.start()], text[goal.end():].strip().rstrip("."))


def read_state(state: str, text: DomainText, domain: DomainDef, complete: bool = True) -> Reading:
    """The facts and objects of a state description; :class:`ReadError` if any text is left.

    ``complete=False`` leaves out the implicit facts (for a phrase, not a whole state).
    """
    reading = Reading()
    rest = state
    for clause, pattern in text.compiled:
        for match in list(pattern.finditer(rest)):
            clause.apply(match, reading)
            rest = rest[:match.start()] + "\x00" * (match.end() - match.start()) + rest[match.end():]
    leftover = [piece for piece in re.split(r"\x00+", rest) if not _FILLER.fullmatch(piece)]
    if leftover:
        raise ReadError(f"unread text in the state: '{leftover[0].strip()[:80]}'")
    if complete and text.complete is not None:
        text.complete(reading, domain)
    return reading


def object_types(reading: Reading, atoms: Iterable[Atom], domain: DomainDef) -> dict[str, str]:
    """Each object's type: declared, else the most specific one its atoms' predicates require."""
    types = dict(reading.types)
    for atom in atoms:
        signature = domain.predicates.get(atom[0])
        if signature is None:
            raise ReadError(f"'{atom[0]}' is not a predicate of domain {domain.name}")
        if len(signature) != len(atom) - 1:
            raise ReadError(f"({' '.join(atom)}) has the wrong number of arguments")
        for name, wanted in zip(atom[1:], signature, strict=True):
            have = types.get(name)
            if have is None or (have != wanted and domain.is_subtype(wanted, have)):
                types[name] = wanted
            elif not domain.is_subtype(have, wanted):
                raise ReadError(f"object {name} is a {have}, but ({' '.join(atom)}) needs a "
                                f"{wanted}")
    return types


def read_context(context: str, introduction: str, text: DomainText, domain: DomainDef,
                 read_goal: Callable[[str], list[Step]]) -> Problem:
    """The STRIPS problem a context describes (goal empty when the context states none);
    ``read_goal`` reads the goal sentence's atom phrases."""
    parts = split_context(context, introduction)
    reading = read_state(parts.state, text, domain)
    goal: set[Atom] = set()
    if parts.goal is not None:
        try:
            goal = set(read_goal(parts.goal))
        except PhraseError as err:
            raise ReadError(f"goal: {err}") from err
    types = object_types(reading, list(reading.facts) + list(goal), domain)
    names = sorted(types)
    return Problem(name="context", domain=domain.name, objects=tuple(names),
                   object_types=tuple(types[n] for n in names), init=frozenset(reading.facts),
                   goal=frozenset(goal))


def compare(read: Problem, truth: Problem, with_goal: bool) -> str | None:
    """Why the reading differs from the record's own PDDL problem (``None`` when it does not)."""
    problems = []
    if read.type_of != truth.type_of:
        typed, wanted = set(read.type_of.items()), set(truth.type_of.items())
        problems.append(f"objects: extra {sorted(typed - wanted)[:3]}, missing "
                        f"{sorted(wanted - typed)[:3]}")
    for what, have, want in (("init", read.init, truth.init),
                             ("goal", read.goal, truth.goal if with_goal else read.goal)):
        if have != want:
            problems.append(f"{what}: extra {_atoms(have - want)}, missing {_atoms(want - have)}")
    return "; ".join(problems) or None


def _atoms(atoms: Collection[Atom]) -> str:
    shown = sorted(atoms)[:3]
    more = f" (+{len(atoms) - 3})" if len(atoms) > 3 else ""
    return "[" + ", ".join("(" + " ".join(a) + ")" for a in shown) + "]" + more
