"""The ADL subset ACPBench's domains use, compiled into STRIPS before the core reads them.

The STRIPS core (:mod:`planetarium.pddl.domain`) refuses anything beyond conjunctive positive
preconditions.  ACPBench's alfworld domain (``alfred``) needs four more things, all of which
compile away exactly, keeping every action's name and parameters (so answers, plans and
stored gold name the same ground actions):

* ``(:constants ...)`` become objects of every problem (added when a problem does not declare
  them itself);
* ``(not (= ?x ?y))`` in a precondition becomes the static atom ``(adl-distinct ?x ?y)``, whose
  facts are the ordered pairs of distinct objects that can fill the two parameters: of their
  types, and, where the action has a static precondition over a parameter, among the objects
  that precondition's initial facts name there (alfworld's ``(not (= ?o1 ?o2))`` over the root
  type would otherwise be every pair of a problem's objects);
* ``(or A B ...)`` in a precondition, when every disjunct is an atom of a static predicate (one
  no action changes: alfworld's ``objecttype``), becomes the static atom ``(adl-or-N ?vars)``
  true exactly for the bindings under which some disjunct holds in the initial state, which is
  where it holds in every reachable state;
* objects a typed problem declares of the root type ``object`` (alfworld's physical objects)
  get a type of their own, ``adl-object`` under ``object``: the STRIPS core lets an object of
  type ``object`` fill any parameter (that is how it reads problems with relaxed typing), which
  here would let an apple fill an ``?ot - otype`` parameter;
* ``:action-costs`` with *unit* costs: ``(increase (total-cost) 1)`` effects, the
  ``(total-cost)`` function, ``(= (total-cost) 0)`` in the initial state and ``(:metric minimize
  (total-cost))`` are dropped, since plan cost is then plan length.  Any other cost is refused;
* for grading only (``negated_fluents=True``: ACPBench's questions name the facts of states,
  which must not gain helpers), ``:negative-preconditions``: ``(not (P ?x))`` in a precondition
  becomes ``(adl-not-P ?x)``, kept the complement of ``P`` — every action that adds a ``P``
  fact deletes its ``adl-not-P`` twin and vice versa, and a problem's initial state gets the
  twin of every ``P`` fact of fitting types it lacks.  Exact, except where one action may add
  and delete the same ``P`` fact (STRIPS lets the add win, which would leave both true): such
  an action is refused unless a ``(not (= ...))`` precondition keeps the two apart.

Anything else (a disjunction over fluents, a negated fluent outside grading, a positive
equality) is left in
place, so the core refuses it with its own message rather than being approximated here.  The
helper predicates start with ``adl-``, a prefix no ACPBench domain uses; a domain that already
has one is refused.  A problem that declares a domain constant with another type is refused.

The helper facts are bounded: their number is computed before any is made (a disjunction's are
the union, over its disjuncts, of the initial facts that match the disjunct times the objects of
the variables it leaves free), and a compilation that would need more than
:data:`MAX_HELPER_FACTS` is refused as unsupported, naming the construct; making them checks the
deadline in force (:func:`planetarium.limits.check_deadline`).  Without the bound,
``(not (= ?a ?b))`` over 2,000 objects made four million facts.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ..errors import PDDLSyntaxError, PDDLValidationError, UnsupportedFeatureError
from ..limits import check_deadline
from ..pddl.domain import Atom, DomainDef, parse_domain, parse_typed_list
from ..pddl.extract import extract_problem
from ..pddl.problem import Problem, read_problem
from ..pddl.sexpr import SList, read_sexprs
from ..strips.grounding import fits_type

#: A node of the exact reader's S-expressions: a symbol or a list.
Node = SList | str

_PREFIX = "adl-"  # of the helper predicates and type (module docstring)
_DISTINCT = _PREFIX + "distinct"
_OBJECT = _PREFIX + "object"  # the type of objects declared of the root type (module docstring)
#: Most helper facts one problem may need (all constructs together): real ACPBench alfworld
#: problems need a few thousand; each fact is a tuple, so a million would be ~100 MB.
MAX_HELPER_FACTS = 200_000
#: Helper facts made between two looks at the deadline.
_CLOCK_EVERY = 4096
_COMPILED_REQUIREMENTS = {":adl", ":action-costs", ":equality", ":disjunctive-preconditions"}
_NEGATIVE_PRECONDITIONS = ":negative-preconditions"
_NOT = _PREFIX + "not-"  # the complement of a predicate negated in a precondition


@dataclass
class Compilation:
    """A compiled domain and what its problems need added (:func:`read_compiled_problem`)."""

    text: str
    typed: bool = False
    constants: list[tuple[str, str]] = field(default_factory=list)
    #: per (not (= x y)): for x and for y, its type and the static (predicate, position)s of it
    distinct: set[tuple[tuple[str, frozenset], tuple[str, frozenset]]] = field(
        default_factory=set)
    disjunctions: dict[str, tuple[tuple[tuple[str, str], ...], tuple[tuple, ...]]] = field(
        default_factory=dict)  # helper predicate -> (typed variables, disjunct atoms)
    #: predicate negated in some precondition -> its parameters' types (its complement's)
    negated: dict[str, tuple[str, ...]] = field(default_factory=dict)


def _write(expr: Node) -> str:
    if isinstance(expr, SList):
        return "(" + " ".join(_write(x) for x in expr) + ")"
    return str(expr)


def _slist(items: Iterable[Node], line: int) -> SList:
    out = SList(line)
    out.extend(items)
    return out


def _head(expr: Node | None) -> str | None:
    return expr[0] if isinstance(expr, SList) and expr and isinstance(expr[0], str) else None


def _is_atom(expr: Node) -> bool:
    return _head(expr) is not None and not any(isinstance(x, SList) for x in expr)


def _unit_cost(expr: Node) -> bool:
    """``(increase (total-cost) 1)``; any other ``increase`` is refused."""
    if _head(expr) != "increase" or not isinstance(expr, SList):
        return False
    if len(expr) == 3 and _write(expr[1]) == "(total-cost)" and expr[2] in ("1", "1.0"):
        return True
    raise UnsupportedFeatureError(f"line {expr.line}: {_write(expr)}: only unit action costs "
                                  "((increase (total-cost) 1)) are supported")


class _DomainCompiler:
    def __init__(self, define: SList, negated_fluents: bool) -> None:
        self.define = define
        self.negated_fluents = negated_fluents
        self.out = Compilation("")
        self.params: dict[str, str] = {}
        self.statics: list = []
        self.changed: set[str] = set()
        self.apart: set[frozenset[str]] = set()  # terms the action's (not (= ...)) keeps apart

    def compile(self) -> Compilation:
        sections = [s for s in self.define[2:] if isinstance(s, SList) and s]
        self.out.typed = any(s[0] == ":requirements" and ":typing" in s[1:] for s in sections) \
            and any(s[0] == ":types" for s in sections)
        for action in (s for s in sections if s[0] == ":action"):
            effect = dict(zip(action[2::2], action[3::2], strict=False)).get(":effect")
            self.changed |= self._effect_predicates(effect)
        if self.negated_fluents:
            self.out.negated = self._negated_predicates(sections)
        kept: list[SList] = []
        extra_predicates: list[SList] = []
        for section in sections:
            key = section[0]
            if key == ":requirements":
                compiled = _COMPILED_REQUIREMENTS | (
                    {_NEGATIVE_PRECONDITIONS} if self.negated_fluents else set())
                rest = [r for r in section[1:] if r not in compiled]
                if ":strips" not in rest:
                    rest.insert(0, ":strips")
                kept.append(_slist([":requirements", *rest], section.line))
            elif key == ":constants":
                self.out.constants = [(str(n), _OBJECT if t == "object" and self.out.typed
                                       else str(t)) for n, t in parse_typed_list(section)]
            elif key == ":types":
                kept.append(_slist([*section, _OBJECT, "-", "object"], section.line))
            elif key == ":functions":
                names = [_write(f) for f in section[1:] if isinstance(f, SList)]
                if names != ["(total-cost)"]:
                    raise UnsupportedFeatureError(f"line {section.line}: functions {names}: only "
                                                  "(total-cost) with unit costs is supported")
            elif key == ":predicates":
                if any(isinstance(p, SList) and p and str(p[0]).startswith(_PREFIX)
                       for p in section[1:]):
                    raise UnsupportedFeatureError(f"the domain already has a predicate named "
                                                  f"{_PREFIX}..., the prefix of compiled ADL "
                                                  "helpers")
                kept.append(section)
                extra_predicates.extend(
                    _slist([_NOT + str(p[0]), *p[1:]], section.line) for p in section[1:]
                    if isinstance(p, SList) and p and str(p[0]) in self.out.negated)
            elif key == ":action":
                kept.append(self._action(section, extra_predicates))
            else:
                kept.append(section)
        for section in kept:
            if section[0] == ":predicates":
                section.extend(extra_predicates)
        self.out.text = _write(_slist(list(self.define[:2]) + kept, self.define.line))
        return self.out

    def _negated_predicates(self, sections: list[SList]) -> dict[str, tuple[str, ...]]:
        """The predicates some precondition negates, with their parameters' types."""
        negated: set[str] = set()
        for action in (s for s in sections if s[0] == ":action"):
            stack = [dict(zip(action[2::2], action[3::2], strict=False)).get(":precondition")]
            while stack:
                node = stack.pop()
                if not isinstance(node, SList):
                    continue
                if _head(node) == "not" and len(node) == 2 and _is_atom(node[1]) \
                        and node[1][0] != "=":
                    negated.add(str(node[1][0]))
                elif _head(node) == "and":
                    stack.extend(node[1:])
        declared = {str(p[0]): tuple(t for _, t in parse_typed_list(p))
                    for section in sections if section[0] == ":predicates"
                    for p in section[1:] if isinstance(p, SList) and p}
        return {name: declared[name] for name in sorted(negated) if name in declared}

    def _effect_predicates(self, effect: Node | None) -> set[str]:
        names, stack = set(), [effect]
        while stack:
            node = stack.pop()
            if not isinstance(node, SList):  # no effect, or a bare symbol
                continue
            head = _head(node)
            if head in ("and", "not"):
                stack.extend(node[1:])
            elif head is not None and head != "increase":
                names.add(head)
        return names

    def _action(self, section: SList, extra: list) -> SList:
        fields = dict(zip(section[2::2], section[3::2], strict=False))
        declared = _slist([":parameters", *(fields.get(":parameters") or [])], section.line)
        self.params = {str(v): str(t) for v, t in parse_typed_list(declared)}
        self.statics = self._static_atoms(fields.get(":precondition"))
        self.apart = set()
        out = _slist(section[:2], section.line)
        for key, value in zip(section[2::2], section[3::2], strict=False):
            if key == ":precondition":
                value = self._condition(value, extra)
            elif key == ":effect":
                value = self._effect(value)
            out.extend([key, value])
        return out

    def _static_atoms(self, condition: Node | None) -> list:
        """The precondition's top-level atoms of predicates no action changes."""
        out, stack = [], [condition]
        while stack:
            node = stack.pop()
            if not isinstance(node, SList):  # no precondition, or a bare symbol: no atom
                continue
            if _head(node) == "and":
                stack.extend(node[1:])
            elif _is_atom(node) and node[0] not in self.changed and node[0] not in ("=", "not"):
                out.append(node)
        return out

    def _effect(self, effect: SList) -> SList:
        parts = list(effect[1:]) if _head(effect) == "and" else [effect]
        parts = [e for e in parts if not _unit_cost(e)]
        added = [e for e in parts if _is_atom(e) and str(e[0]) in self.out.negated]
        deleted = [e[1] for e in parts if _head(e) == "not" and len(e) == 2 and _is_atom(e[1])
                   and str(e[1][0]) in self.out.negated]
        for atom in added:
            if any(self._may_coincide(atom, other) for other in deleted):
                raise UnsupportedFeatureError(
                    f"line {effect.line}: an action may add and delete the same fact "
                    f"{_write(atom)}, whose predicate a precondition negates: add "
                    "(not (= ...)) preconditions that keep the two apart")
        twins = [_slist(["not", _slist([_NOT + str(a[0]), *a[1:]], effect.line)], effect.line)
                 for a in added]
        twins += [_slist([_NOT + str(a[0]), *a[1:]], effect.line) for a in deleted]
        if len(parts) == 1 and not twins and _head(effect) != "and":
            return effect
        return _slist(["and", *parts, *twins], effect.line)

    def _may_coincide(self, first: SList, second: SList) -> bool:
        """Whether some binding of the action's parameters makes the two atoms one fact."""
        if first[0] != second[0] or len(first) != len(second):
            return False
        for x, y in zip(first[1:], second[1:], strict=True):
            if x != y and (frozenset((x, y)) in self.apart
                           or not (x.startswith("?") or y.startswith("?"))):
                return False
        return True

    def _condition(self, expr: Node, extra: list) -> Node:
        if not isinstance(expr, SList):
            return expr
        head = _head(expr)
        if head == "and":
            return _slist(["and", *(self._condition(x, extra) for x in expr[1:])], expr.line)
        if head == "not" and len(expr) == 2 and _head(expr[1]) == "=" and len(expr[1]) == 3:
            left, right = (str(x) for x in expr[1][1:])
            self.apart.add(frozenset((left, right)))
            self.out.distinct.add((self._slot(left), self._slot(right)))
            if not any(_head(p) == _DISTINCT for p in extra):
                extra.append(_slist([_DISTINCT, "?x", "?y"], expr.line))
            return _slist([_DISTINCT, left, right], expr.line)
        if head == "or" and all(_is_atom(x) and x[0] not in self.changed for x in expr[1:]):
            return self._disjunction(expr, extra)
        if head == "not" and len(expr) == 2 and _is_atom(expr[1]) \
                and str(expr[1][0]) in self.out.negated:
            return _slist([_NOT + str(expr[1][0]), *expr[1][1:]], expr.line)
        return expr

    def _slot(self, term: str) -> tuple[str, frozenset]:
        """``term``'s type and where the action's static preconditions name it."""
        where = frozenset((atom[0], i) for atom in self.statics for i, x in enumerate(atom[1:])
                          if x == term)
        return self._type(term), where

    def _type(self, term: str) -> str:
        if term.startswith("?"):
            if term not in self.params:
                raise PDDLSyntaxError(f"variable {term} is not a parameter of its action")
            return self.params[term]
        return dict(self.out.constants).get(term, "object")

    def _disjunction(self, expr: SList, extra: list) -> SList:
        variables = sorted({str(x) for atom in expr[1:] for x in atom[1:] if x.startswith("?")})
        typed = tuple((v, self._type(v)) for v in variables)
        name = f"{_PREFIX}or-{len(self.out.disjunctions) + 1}"
        self.out.disjunctions[name] = (typed, tuple(tuple(str(x) for x in a) for a in expr[1:]))
        declared = [name]
        for variable, type_name in typed:
            declared += [variable, "-", type_name]
        extra.append(_slist(declared, expr.line))
        return _slist([name, *variables], expr.line)


def _needs_compiling(define: SList, negated_fluents: bool) -> bool:
    compiled = _COMPILED_REQUIREMENTS | ({_NEGATIVE_PRECONDITIONS} if negated_fluents else set())
    for section in define[2:]:
        if (_head(section) == ":requirements"
                and {x for x in section[1:] if isinstance(x, str)} & compiled):
            return True
        if _head(section) in (":constants", ":functions"):
            return True
    return False


@lru_cache(maxsize=64)
def compile_domain(text: str, negated_fluents: bool = False
                   ) -> tuple[DomainDef, Compilation | None]:
    """The domain as the STRIPS core reads it, and what its problems need (``None`` when the
    domain was plain STRIPS already).  ``negated_fluents``: compile ``:negative-preconditions``
    too (the grader; module docstring).  Cached: every question of a domain shares its text."""
    forms = read_sexprs(text)
    if (len(forms) != 1 or _head(forms[0]) != "define"
            or not _needs_compiling(forms[0], negated_fluents)):
        return parse_domain(text), None
    compiled = _DomainCompiler(forms[0], negated_fluents).compile()
    return parse_domain(compiled.text), compiled


def _problem_text(text: str, compiled: Compilation) -> str:
    forms = read_sexprs(text)
    if len(forms) != 1 or _head(forms[0]) != "define":
        return text  # the problem reader reports what is wrong with it
    define = forms[0]
    kept = []
    for section in define[2:]:
        head = _head(section)
        if head == ":metric":
            if _write(section) != "(:metric minimize (total-cost))":
                raise UnsupportedFeatureError(f"line {section.line}: {_write(section)}: only "
                                              "(:metric minimize (total-cost)) is supported")
            continue
        if head == ":objects":
            objects = parse_typed_list(section)
            declared = {str(n) for n, _ in objects}
            constants = dict(compiled.constants)
            section = _slist([":objects"], section.line)
            for name, type_name in objects:
                root = type_name == "object" and compiled.typed
                written = _OBJECT if root else type_name
                if name in constants and constants[name] != written:
                    raise PDDLValidationError(
                        f"object {name} is declared a {type_name}, but it is a constant of the "
                        f"domain of type {constants[name]}", section.line)
                section.extend([name, "-", written])
            for name, type_name in compiled.constants:
                if name not in declared:
                    section.extend([name, "-", type_name])
        elif head == ":init":
            section = _slist([":init", *(a for a in section[1:] if _head(a) != "=")],
                             section.line)
        kept.append(section)
    if compiled.constants and not any(_head(s) == ":objects" for s in kept):
        header: list[str] = [":objects"]
        for name, type_name in compiled.constants:
            header += [name, "-", type_name]
        kept.insert(0, _slist(header, define.line))
    return _write(_slist(list(define[:2]) + kept, define.line))


def _refuse(count: int, what: str) -> None:
    raise UnsupportedFeatureError(f"compiling {what} needs {count} helper facts, more than the "
                                  f"limit of {MAX_HELPER_FACTS}")


class _Facts:
    """The helper facts of one problem, made under :data:`MAX_HELPER_FACTS` and the deadline."""

    def __init__(self, problem: Problem, domain: DomainDef) -> None:
        self.problem = problem
        self.domain = domain
        self.types = problem.type_of
        self.facts: set[Atom] = set()
        self.planned = 0  # facts counted before making them
        self.made = 0

    def plan(self, count: int, what: str) -> None:
        self.planned += count
        if self.planned > MAX_HELPER_FACTS:
            _refuse(self.planned, what)

    def add(self, fact: Atom) -> None:
        self.made += 1
        if not self.made % _CLOCK_EVERY:
            check_deadline("compiling the ADL preconditions")
        self.facts.add(fact)

    def pool(self, type_name: str, where: frozenset = frozenset()) -> list[str]:
        """The objects of ``type_name`` that the initial facts name at every ``where`` place."""
        named = [{a[i + 1] for a in self.problem.init if a[0] == p} for p, i in where]
        return [o for o in self.problem.objects
                if fits_type(self.domain, self.types[o], type_name) and all(o in n for n in named)]


def _disjunct_bindings(atom: tuple, pools: dict[str, set[str]],
                       init: frozenset[Atom]) -> list[dict[str, str]]:
    """The bindings of ``atom``'s variables under which it is an initial fact."""
    out = []
    for fact in init:
        if fact[0] != atom[0] or len(fact) != len(atom):
            continue
        binding: dict[str, str] = {}
        for term, value in zip(atom[1:], fact[1:], strict=True):
            if not term.startswith("?"):
                if term != value:
                    break
            elif binding.setdefault(term, value) != value or value not in pools[term]:
                break
        else:
            out.append(binding)
    return out


def _helper_facts(problem: Problem, domain: DomainDef, compiled: Compilation) -> set[Atom]:
    made = _Facts(problem, domain)
    for left, right in sorted(compiled.distinct, key=repr):
        lefts, rights = made.pool(*left), made.pool(*right)
        made.plan(len(lefts) * len(rights), "(not (= ...)) (an inequality)")
        for a in lefts:
            for b in rights:
                if a != b:
                    made.add((_DISTINCT, a, b))
    for name, (typed, disjuncts) in compiled.disjunctions.items():
        variables = [v for v, _ in typed]
        pools = {v: made.pool(t) for v, t in typed}
        members = {v: set(p) for v, p in pools.items()}
        for atom in disjuncts:
            bindings = _disjunct_bindings(atom, members, problem.init)
            free = [v for v in variables if v not in atom[1:]]
            made.plan(len(bindings) * math.prod(len(pools[v]) for v in free),
                      f"a disjunction of {len(disjuncts)} static atoms")
            for binding in bindings:
                for values in itertools.product(*(pools[v] for v in free)):
                    full = {**binding, **dict(zip(free, values, strict=True))}
                    made.add((name, *(full[v] for v in variables)))
    for predicate, types in compiled.negated.items():
        columns = [made.pool(t) for t in types]
        made.plan(math.prod(len(c) for c in columns), f"the complement of ({predicate} ...)")
        for values in itertools.product(*columns):
            if (predicate, *values) not in problem.init:
                made.add((_NOT + predicate, *values))
    return made.facts


def read_compiled_problem(raw: str, domain: DomainDef, compiled: Compilation, *,
                          relax_typing: bool = False) -> Problem:
    """A problem of the compiled ``domain``: the last complete problem in ``raw`` (model output
    may hold prose around it, :func:`~planetarium.pddl.extract.extract_problem`) with the
    domain's constants declared, its cost bookkeeping dropped and the helper facts added."""
    text, _ = extract_problem(raw)
    problem = read_problem(_problem_text(text.lower(), compiled), domain,
                           relax_typing=relax_typing)
    helpers = _helper_facts(problem, domain, compiled)
    return replace(problem, init=problem.init | helpers) if helpers else problem


def read_task(domain_text: str, problem_text: str) -> tuple[DomainDef, Problem]:
    """The question's domain and problem, ADL subset compiled (see the module docstring)."""
    domain, compiled = compile_domain(domain_text.lower())
    if compiled is None:
        return domain, read_problem(problem_text.lower(), domain)
    return domain, read_compiled_problem(problem_text, domain, compiled)
