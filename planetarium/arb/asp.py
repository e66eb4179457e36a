"""Reading the ASP subset ARB writes its domains in (``domain.lp``).

ARB's generator describes each domain in a fixed, small fragment of clingo's language, one rule
per line-ish statement:

- types: ``place(R) :- room(R).`` (a unary head over a unary body: ``room`` is a kind of
  ``place``);
- fluents: ``pfluent(linked(R1, R2)) :- room(R1), room(R2), R1 != R2.`` (``pfluent(lit).``
  without parameters);
- actions: ``action(action_walk(R1, R2)) :- room(R1), room(R2), R1 != R2.``;
- preconditions: ``member(linked(R1, R2), cond_exec_walk(R1, R2)) :- ...``;
- effects: ``causes(action_walk(R1, R2), -in(R1), cond_causes_walk(R1, R2)) :- ...``;
- ``cond(...)`` and ``exec(...)`` bookkeeping, read and ignored.

Anything else (a negative precondition, a derived ``dfluent``, a rule of another shape) is
refused with the line it is on: a domain that cannot be simulated as STRIPS must not be graded
as if it could.  The result is an :class:`~planetarium.arb.domain.ArbDomain` (without fluent
kinds, which ``domain.lp`` does not say).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import UnsupportedFeatureError
from ..pddl.domain import Action
from .domain import ActionSchema, ArbDomain, ArbDomainError, Signature, make_domain

_TOKEN = re.compile(r"\s*(?:(?P<name>[a-z][A-Za-z0-9_]*)|(?P<var>[A-Z_][A-Za-z0-9_]*)"
                    r"|(?P<num>\d+)|(?P<op>:-|!=|[(),.\-]))")


@dataclass(frozen=True)
class Term:
    """``name(args...)`` (args empty for a constant), a variable (``var``), or negated ``-f``."""

    name: str
    args: tuple[Term, ...] = ()
    var: bool = False
    negated: bool = False


class _Parser:
    def __init__(self, text: str, line: int) -> None:
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        while pos < len(text):
            match = _TOKEN.match(text, pos)
            if not match or match.end() == pos:
                if text[pos:].strip():
                    raise ArbDomainError(f"line {line}: cannot read {text[pos:pos + 20].strip()!r}")
                break
            kind = match.lastgroup or "op"
            self.tokens.append((kind, match.group(kind)))
            pos = match.end()
        self.i = 0
        self.line = line

    def peek(self) -> str | None:
        return self.tokens[self.i][1] if self.i < len(self.tokens) else None

    def take(self, want: str | None = None) -> tuple[str, str]:
        if self.i >= len(self.tokens):
            raise ArbDomainError(f"line {self.line}: statement ends too early")
        token = self.tokens[self.i]
        if want is not None and token[1] != want:
            raise ArbDomainError(f"line {self.line}: expected {want!r}, found {token[1]!r}")
        self.i += 1
        return token

    def term(self) -> Term:
        negated = False
        if self.peek() == "-":
            self.take()
            negated = True
        kind, value = self.take()
        if kind == "var":
            return Term(value, var=True)
        if kind not in ("name", "num"):
            raise ArbDomainError(f"line {self.line}: expected a term, found {value!r}")
        args: list[Term] = []
        if self.peek() == "(":
            self.take()
            args.append(self.term())
            while self.peek() == ",":
                self.take()
                args.append(self.term())
            self.take(")")
        return Term(value, tuple(args), negated=negated)

    def statement(self) -> tuple[Term, list[Term], list[tuple[str, str]]]:
        """``head :- body.`` -> head, body atoms, body ``X != Y`` pairs."""
        head = self.term()
        atoms: list[Term] = []
        unequal: list[tuple[str, str]] = []
        if self.peek() == ":-":
            self.take()
            while True:
                left = self.term()
                if self.peek() == "!=":
                    self.take()
                    right = self.term()
                    unequal.append((left.name, right.name))
                else:
                    atoms.append(left)
                if self.peek() != ",":
                    break
                self.take()
        self.take(".")
        if self.peek() is not None:
            raise ArbDomainError(f"line {self.line}: more than one statement")
        return head, atoms, unequal


def _statements(text: str) -> Iterator[tuple[int, str]]:
    """``(first line, statement text)`` for each statement, comments and directives removed."""
    buffer: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("%", 1)[0]
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not buffer:
            start = number
        buffer.append(line)
        if line.rstrip().endswith("."):
            yield start, " ".join(buffer)
            buffer = []
    if buffer:
        raise ArbDomainError(f"line {start}: statement without a closing '.'")


def _signature(params: tuple[Term, ...], body: list[Term], unequal: list[tuple[str, str]],
               line: int) -> Signature:
    names = [p.name for p in params]
    if not all(p.var for p in params) or len(set(names)) != len(names):
        raise UnsupportedFeatureError(f"line {line}: parameters must be distinct variables")
    types: dict[str, str] = {}
    for atom in body:
        if len(atom.args) != 1 or not atom.args[0].var:
            raise UnsupportedFeatureError(f"line {line}: body atom {atom.name} is not a type")
        if atom.args[0].name in types:
            raise UnsupportedFeatureError(f"line {line}: {atom.args[0].name} has two types")
        types[atom.args[0].name] = atom.name
    missing = [n for n in names if n not in types]
    if missing:
        raise ArbDomainError(f"line {line}: parameter {missing[0]} has no type")
    distinct = set()
    for left, right in unequal:
        if left not in names or right not in names:
            raise ArbDomainError(f"line {line}: {left} != {right} names no parameter")
        i, j = sorted((names.index(left), names.index(right)))
        distinct.add((i, j))
    return Signature(tuple(types[n] for n in names), frozenset(distinct))


def _bound(term: Term, params: tuple[Term, ...], line: int) -> tuple:
    """A fluent term of a rule as an atom over ``?p<i>`` (the action's i-th parameter)."""
    names = [p.name for p in params]
    args = []
    for arg in term.args:
        if not arg.var or arg.name not in names:
            raise UnsupportedFeatureError(f"line {line}: {arg.name} in {term.name} is not a "
                                          "parameter of the action")
        args.append(f"?p{names.index(arg.name)}")
    return (term.name, *args)


def _atoms(table: dict, action_name: str, params: tuple[Term, ...]) -> tuple:
    """The fluents ``table`` lists for ``action_name``, over its parameters ``?p<i>``."""
    found = []
    for literal, args, line in table.get(action_name, []):
        if len(args) != len(params):
            raise ArbDomainError(f"line {line}: {action_name} takes {len(params)} arguments")
        found.append(_bound(literal, args, line))
    return tuple(found)


def read_asp_domain(text: str, name: str) -> ArbDomain:
    """The domain in ARB's ASP ``text`` (see the module docstring); errors name the line."""
    parents: dict[str, str] = {}
    fluents: dict[str, list[Signature]] = {}
    declared: dict[str, tuple[tuple[Term, ...], Signature]] = {}
    pre: dict[str, list[tuple]] = {}
    add: dict[str, list[tuple]] = {}
    delete: dict[str, list[tuple]] = {}
    for line, statement in _statements(text):
        head, body, unequal = _Parser(statement, line).statement()
        kind = head.name
        if kind == "pfluent" and len(head.args) == 1:
            fluent = head.args[0]
            fluents.setdefault(fluent.name, []).append(_signature(fluent.args, body, unequal, line))
        elif kind == "action" and len(head.args) == 1:
            action = head.args[0]
            if not action.name.startswith("action_"):
                raise ArbDomainError(f"line {line}: action {action.name} lacks 'action_'")
            declared[action.name[7:]] = (action.args, _signature(action.args, body, unequal, line))
        elif kind == "member" and len(head.args) == 2:
            literal, cond = head.args
            if not cond.name.startswith("cond_exec_"):
                raise UnsupportedFeatureError(f"line {line}: member of {cond.name}")
            if literal.negated:
                raise UnsupportedFeatureError(f"line {line}: negative precondition "
                                              f"-{literal.name} is outside STRIPS")
            pre.setdefault(cond.name[10:], []).append((literal, cond.args, line))
        elif kind == "causes" and len(head.args) == 3:
            action, literal, _cond = head.args
            target = delete if literal.negated else add
            target.setdefault(action.name[7:], []).append((literal, action.args, line))
        elif kind in ("cond", "exec"):
            continue
        elif len(head.args) == 1 and head.args[0].var and len(body) == 1 and not unequal \
                and body[0].args == head.args:
            parents[body[0].name] = kind
        else:
            raise UnsupportedFeatureError(f"line {line}: statement {kind}(...) is outside the "
                                          "subset ARB's domains use")
    actions = {}
    for action_name, (params, signature) in declared.items():
        lifted = Action(action_name, tuple((f"?p{i}", t) for i, t in enumerate(signature.types)),
                        _atoms(pre, action_name, params), _atoms(add, action_name, params),
                        _atoms(delete, action_name, params))
        actions[action_name] = ActionSchema(lifted, signature)
    orphans = (set(pre) | set(add) | set(delete)) - set(declared)
    if orphans:
        raise ArbDomainError(f"conditions or effects for undeclared action {sorted(orphans)[0]}")
    return make_domain(name, parents, {p: tuple(s) for p, s in fluents.items()}, actions)
