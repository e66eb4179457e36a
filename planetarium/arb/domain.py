"""An ActionReasoningBench domain: typed fluents and STRIPS actions, with ARB's ground universe.

ARB asks about *every* ground fluent and *every* ground action of an instance ("list all
inexecutable actions", "the valid properties of the state that involve negations"), so a domain
here says exactly which groundings exist: each predicate and action has typed parameters and a
set of parameter pairs that must name different objects (ARB's ``B1 != B2``; ``on(b1, b1)`` is
no fluent and ``stack(b1, b1)`` no action).  A predicate may be declared over several parameter
lists (zenotravel's ``at`` for persons and for aircraft).  Names are ARB's ASP names
(``pick_up``, ``at_robby``), the ones its records and ``states_actions`` files use.

Each predicate also has ARB's fluent kind (base, derived, persistent — "self constraint" — or
static), which fluent-type questions filter by; a domain read from a user's folder may not know
them (``kinds`` empty), and such questions are then unsupported rather than guessed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType

from ..errors import PlanetariumError
from ..pddl.domain import Action, DomainDef

Atom = tuple  # (predicate, arg1, ...), as everywhere in Planetarium

KINDS = ("base", "derived", "persistent", "static")


class ArbDomainError(PlanetariumError, ValueError):
    """A domain definition ARB questions cannot be asked over (the message says where)."""


@dataclass(frozen=True)
class Signature:
    """Parameter types, and the pairs of parameter positions that must hold different objects."""

    types: tuple[str, ...]
    distinct: frozenset[tuple[int, int]] = frozenset()

    def admits(self, args: tuple[str, ...], type_of: Mapping[str, str],
               is_a: Callable[[str, str], bool]) -> bool:
        """Whether ``args`` (objects, typed by ``type_of``) is one of this signature's groundings."""
        return (len(args) == len(self.types)
                and all(a in type_of and is_a(type_of[a], t) for a, t in zip(args, self.types, strict=True))
                and all(args[i] != args[j] for i, j in self.distinct))


@dataclass(frozen=True)
class ActionSchema:
    """A lifted STRIPS action (a :class:`planetarium.pddl.domain.Action`, variables ``?x``) and
    its signature."""

    action: Action
    signature: Signature


@dataclass(frozen=True, eq=False)  # one object per domain: compared and hashed by identity
class ArbDomain:
    """One domain (see the module docstring); immutable and shared by every question."""

    name: str
    parents: Mapping[str, str]  # type -> parent type ("object" at the root)
    fluents: Mapping[str, tuple[Signature, ...]]
    actions: Mapping[str, ActionSchema]
    kinds: Mapping[str, frozenset[str]] = field(default_factory=lambda: MappingProxyType({}))

    def is_a(self, sub: str, sup: str) -> bool:
        """Whether type ``sub`` is ``sup`` or below it.  There is no implicit root: ARB's
        grippers calls its balls' type ``object``, a type beside robots and rooms, not above."""
        seen = set()
        current: str | None = sub
        while current is not None and current not in seen:
            if current == sup:
                return True
            seen.add(current)
            current = self.parents.get(current)
        return False

    @cached_property
    def definition(self) -> DomainDef:
        """The domain as the shared STRIPS layer (:mod:`planetarium.reasoning`) reads domains:
        its types, predicates and actions.  It is asked what actions do, never which groundings
        exist (that is :meth:`action_universe`'s, with ARB's pairs that must differ); a
        predicate declared over several parameter lists has ``object`` where they differ."""
        predicates = {}
        for name, signatures in self.fluents.items():
            columns = zip(*(s.types for s in signatures), strict=True)
            predicates[name] = tuple(c[0] if len(set(c)) == 1 else "object" for c in columns)
        changed = {atom[0] for schema in self.actions.values()
                   for atom in (*schema.action.add, *schema.action.delete)}
        return DomainDef(self.name, frozenset({":strips", ":typing"}),
                         MappingProxyType(dict(self.parents)), MappingProxyType(predicates),
                         MappingProxyType({n: s.action for n, s in self.actions.items()}),
                         frozenset(set(predicates) - changed))

    def kinds_of(self, predicate: str) -> frozenset[str]:
        """ARB's kinds of ``predicate`` (empty: none, or the domain does not say)."""
        return self.kinds.get(predicate, frozenset())

    def fluent_universe(self, type_of: Mapping[str, str]) -> Iterator[Atom]:
        """Every ground fluent over the objects of ``type_of`` (object -> type), each once."""
        seen: set[Atom] = set()
        for predicate, signatures in self.fluents.items():
            for signature in signatures:
                for args in self._groundings(signature, type_of):
                    atom = (predicate, *args)
                    if atom not in seen:
                        seen.add(atom)
                        yield atom

    def action_universe(self, type_of: Mapping[str, str]) -> Iterator[tuple[str, tuple[str, ...]]]:
        """Every ground action ``(name, args)`` over the objects of ``type_of``."""
        for name, schema in self.actions.items():
            for args in self._groundings(schema.signature, type_of):
                yield name, args

    def is_action(self, name: str, args: tuple[str, ...], type_of: Mapping[str, str]) -> bool:
        schema = self.actions.get(name)
        return schema is not None and schema.signature.admits(args, type_of, self.is_a)

    def _groundings(self, signature: Signature, type_of: Mapping[str, str]
                    ) -> Iterator[tuple[str, ...]]:
        pools = [[o for o, t in type_of.items() if self.is_a(t, want)] for want in signature.types]
        for args in itertools.product(*pools):
            if all(args[i] != args[j] for i, j in signature.distinct):
                yield args

    def check(self) -> None:
        """Refuse a definition whose actions mention predicates or variables it does not
        declare (so a typo in a domain is one error at load, not a wrong answer later)."""
        for name, schema in self.actions.items():
            variables = {v for v, _ in schema.action.parameters}
            for atom in (*schema.action.precondition, *schema.action.add, *schema.action.delete):
                if atom[0] not in self.fluents:
                    raise ArbDomainError(f"domain {self.name}: action {name} uses undeclared "
                                         f"predicate {atom[0]}")
                unknown = [a for a in atom[1:] if a not in variables]
                if unknown:
                    raise ArbDomainError(f"domain {self.name}: action {name} uses {unknown[0]}, "
                                         "not one of its parameters")
        for predicate in self.kinds:
            if predicate not in self.fluents:
                raise ArbDomainError(f"domain {self.name}: a kind is given for undeclared "
                                     f"predicate {predicate}")
        bad = set().union(*self.kinds.values()) - set(KINDS)
        if bad:
            raise ArbDomainError(f"domain {self.name}: unknown fluent kind {sorted(bad)[0]}")


def make_domain(name: str, parents: Mapping[str, str], fluents: Mapping[str, tuple[Signature, ...]],
                actions: Mapping[str, ActionSchema],
                kinds: Mapping[str, frozenset[str]] | None = None
                ) -> ArbDomain:
    """A checked, read-only :class:`ArbDomain`."""
    domain = ArbDomain(name, MappingProxyType(dict(parents)), MappingProxyType(dict(fluents)),
                       MappingProxyType(dict(actions)), MappingProxyType(dict(kinds or {})))
    domain.check()
    return domain
