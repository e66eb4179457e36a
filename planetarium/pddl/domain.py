"""Domain files: predicates, types and STRIPS actions.

Planetarium decides the STRIPS fragment (plus ``:typing``): conjunctive positive preconditions,
add and delete effects.  Anything else in a domain is refused with
:class:`UnsupportedFeatureError` when the domain is loaded, not halfway through grading.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from types import MappingProxyType
from typing import Any

from ..errors import PDDLSyntaxError, UnsupportedFeatureError
from .sexpr import SList, read_sexprs

Atom = tuple  # (predicate, arg1, arg2, ...): plain tuples keep hashing and comparison fast

SUPPORTED_REQUIREMENTS = frozenset({":strips", ":typing"})


@dataclass(frozen=True)
class Action:
    """A lifted STRIPS action; atoms hold variables (``?x``) as arguments."""

    name: str
    parameters: tuple[tuple[str, str], ...]  # (variable, type)
    precondition: tuple[Atom, ...]
    add: tuple[Atom, ...]
    delete: tuple[Atom, ...]


@dataclass(frozen=True)
class DomainDef:
    """A parsed domain file.  Immutable all the way down (the tables are read-only views): one
    parsed domain is shared by every grading call in a process."""

    name: str
    requirements: frozenset[str]
    types: Mapping[str, str]  # type -> parent type ("object" at the root)
    predicates: Mapping[str, tuple[str, ...]]  # predicate -> parameter types
    actions: Mapping[str, Action]
    static_predicates: frozenset[str] = field(default=frozenset())

    def __reduce__(self) -> tuple[Callable[..., DomainDef], tuple[Any, ...]]:
        """Pickle the read-only tables as plain dicts (process pools send parsed domains to
        their workers) and rebuild them read-only."""
        return (_domain_from_tables, (self.name, self.requirements, dict(self.types),
                                      dict(self.predicates), dict(self.actions),
                                      self.static_predicates))

    @property
    def typed(self) -> bool:
        return ":typing" in self.requirements

    def is_subtype(self, sub: str, sup: str) -> bool:
        """True if type ``sub`` equals ``sup`` or descends from it."""
        seen = set()
        while sub not in seen:
            if sub == sup or sup == "object":
                return True
            seen.add(sub)
            sub = self.types.get(sub, "object")
        return False


def _domain_from_tables(name: str, requirements: frozenset[str], types: dict[str, str],
                        predicates: dict[str, tuple[str, ...]], actions: dict[str, Action],
                        static: frozenset[str]) -> DomainDef:
    return DomainDef(name, requirements, MappingProxyType(types), MappingProxyType(predicates),
                     MappingProxyType(actions), static)


def parse_typed_list(items: Sequence, default: str = "object") -> list[tuple[str, str]]:
    """Read ``a b - t1 c - t2 d`` into ``[(a, t1), (b, t1), (c, t2), (d, object)]``.

    ``items`` is the whole section (its head, e.g. ``:objects``, is skipped): an :class:`SList`,
    whose line errors name, or a tuple from :func:`~planetarium.pddl.sexpr.read_quick`.
    """
    names = items[1:]
    if "-" not in names and set(map(type, names)) <= {str}:  # no types: nothing to pair up
        return list(zip(names, repeat(default)))
    out: list[tuple[str, str]] = []
    pending: list[str] = []
    line = getattr(items, "line", None)
    i = 1
    while i < len(items):
        item = items[i]
        if not isinstance(item, str):
            raise PDDLSyntaxError("expected a name, found a parenthesised list",
                                  getattr(item, "line", None))
        if item == "-":
            if i + 1 >= len(items) or not isinstance(items[i + 1], str):
                raise PDDLSyntaxError("'-' must be followed by a type name", line)
            type_name = items[i + 1]
            if type_name == "either":
                raise UnsupportedFeatureError(f"line {line}: 'either' types are not supported")
            if not pending:
                raise PDDLSyntaxError(f"type '{type_name}' follows no name", line)
            out.extend((name, str(type_name)) for name in pending)
            pending = []
            i += 2
            continue
        pending.append(item)
        i += 1
    out.extend((name, default) for name in pending)
    return out


def _atom(expr: object, what: str) -> Atom:
    if not isinstance(expr, SList) or not expr or isinstance(expr[0], SList):
        line = getattr(expr, "line", None)
        raise PDDLSyntaxError(f"expected an atom in {what}", line)
    if any(isinstance(x, SList) for x in expr):
        raise PDDLSyntaxError(f"nested list inside atom in {what}", expr.line)
    return tuple(str(x) for x in expr)


def _conjunction(expr: object, what: str, allow_not: bool) -> tuple[list[Atom], list[Atom]]:
    """Split ``(and ...)`` into positive and negative atoms."""
    pos: list[Atom] = []
    neg: list[Atom] = []
    if isinstance(expr, SList) and not expr:
        return pos, neg
    stack = [expr]
    while stack:
        node = stack.pop()
        if not isinstance(node, SList) or not node or not isinstance(node[0], str):
            pos.append(_atom(node, what))  # no head: _atom says what is wrong with it
            continue
        head = node[0]
        if head == "and":
            stack.extend(reversed(node[1:]))
        elif head == "not" and allow_not:
            neg.append(_atom(node[1] if len(node) == 2 else None, what))
        elif head in ("not", "or", "imply", "forall", "exists", "when", "=", "increase"):
            raise UnsupportedFeatureError(
                f"line {node.line}: '{head}' in {what} is outside the STRIPS fragment"
            )
        else:
            pos.append(_atom(node, what))
    return pos, neg


def parse_domain(text: str) -> DomainDef:
    """Parse a STRIPS(+typing) domain file."""
    forms = read_sexprs(text)
    if len(forms) != 1 or not isinstance(forms[0], SList) or forms[0][:1] != ["define"]:
        raise PDDLSyntaxError("a domain file must be one '(define (domain NAME) ...)' form")
    define = forms[0]
    header = define[1] if len(define) > 1 else None
    if not (isinstance(header, SList) and len(header) == 2 and header[0] == "domain"):
        raise PDDLSyntaxError("expected '(domain NAME)' after 'define'", define.line)
    name = str(header[1])
    requirements: frozenset[str] = frozenset({":strips"})
    types: dict[str, str] = {}
    predicates: dict[str, tuple[str, ...]] = {}
    actions: dict[str, Action] = {}
    for section in define[2:]:
        if not isinstance(section, SList) or not section:
            raise PDDLSyntaxError("expected a '(:section ...)' in the domain", define.line)
        key = section[0]
        if key == ":requirements":
            requirements = frozenset(str(r) for r in section[1:])
            unsupported = requirements - SUPPORTED_REQUIREMENTS
            if unsupported:
                raise UnsupportedFeatureError(
                    f"domain '{name}' needs {sorted(unsupported)}; only :strips and :typing are supported"
                )
        elif key == ":types":
            types.update(parse_typed_list(section))
        elif key == ":predicates":
            for pred in section[1:]:
                if not isinstance(pred, SList) or not pred:
                    raise PDDLSyntaxError("expected '(predicate ?arg ...)'", section.line)
                predicates[str(pred[0])] = tuple(t for _, t in parse_typed_list(pred))
        elif key == ":action":
            action = _parse_action(section)
            actions[action.name] = action
        else:
            raise UnsupportedFeatureError(f"line {section.line}: domain section '{key}' is not supported")
    changing = {atom[0] for a in actions.values() for atom in a.add + a.delete}
    return DomainDef(
        name=name,
        requirements=requirements,
        types=MappingProxyType(types),
        predicates=MappingProxyType(predicates),
        actions=MappingProxyType(actions),
        static_predicates=frozenset(set(predicates) - changing),
    )


def _with_head(items: object, line: int) -> SList:
    """``items`` (a parameter list, which has no head keyword) as a section parse_typed_list reads."""
    if items is not None and not isinstance(items, SList):  # a symbol: not its letters
        raise PDDLSyntaxError(f"':parameters' takes a list, found '{items}'", line)
    section = SList(line if items is None else items.line)
    section.append(":parameters")
    section.extend(items or [])
    return section


def _parse_action(section: SList) -> Action:
    if len(section) < 2:
        raise PDDLSyntaxError("':action' needs a name", section.line)
    name = str(section[1])
    fields: dict[str, object] = {}
    rest = section[2:]
    for i in range(0, len(rest) - 1, 2):
        fields[str(rest[i])] = rest[i + 1]
    declared = fields.get(":parameters")
    params = parse_typed_list(_with_head(declared, section.line))
    pre, _ = _conjunction(fields.get(":precondition", SList(section.line)), f"action {name}", False)
    add, delete = _conjunction(fields.get(":effect", SList(section.line)), f"action {name}", True)
    return Action(
        name=name,
        parameters=tuple((str(v), t) for v, t in params),
        precondition=tuple(pre),
        add=tuple(add),
        delete=tuple(delete),
    )
