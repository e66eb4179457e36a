"""Problems: read, check against the domain, and hold as plain data.

Every atom is checked against the domain — unknown predicate, wrong arity, undeclared object,
argument of the wrong type — and refused with the atom and its line.  Nothing is dropped
silently: the original implementation dropped unknown goal atoms and so called wrong answers
equivalent.

Reading was half the cost of grading a pair, so :func:`read_problem` reads in two gears.  First
the quick reader's tuples (:func:`~planetarium.pddl.sexpr.read_quick`, no line numbers), whose
atoms are checked a whole section at a time by table look-ups that run in C
(:meth:`_ProblemReader.atom_table`); a section that fails them takes the full check, atom by
atom.  Any refusal on that pass sends the text through the exact reader
(:func:`~planetarium.pddl.sexpr.read_sexprs`, every list with its line) and the same checks
again, so a message always names its line and a problem is read the same either way.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import contains, itemgetter

from ..errors import PDDLSyntaxError, PDDLValidationError, UnsupportedFeatureError
from ..limits import check_deadline
from .domain import Atom, DomainDef, parse_typed_list
from .extract import extract_problem
from .sexpr import SList, read_quick, read_sexprs

_UNSUPPORTED_GOAL = {"when", "preference"}
#: Goal connectives decided only by the bounded exact search (see ``Problem.goal_formula``).
_FORMULA_GOAL = {"or", "imply", "forall", "exists"}
_NUMERIC = {"=", "<", ">", "<=", ">=", "increase", "decrease"}

#: A goal formula beyond a conjunction of literals, as nested tuples:
#: ``("atom", atom)``, ``("not", f)``, ``("and", f, ...)``, ``("or", f, ...)``,
#: ``("imply", f, g)``, ``("forall"|"exists", ((var, type), ...), f)``.  Atoms inside a
#: quantifier may hold its variables (``?x``).
Formula = tuple

#: Atoms checked between two looks at the grading deadline.
_CLOCK_EVERY = 4096

_first, _second = itemgetter(0), itemgetter(1)

#: Heads that mean something before they name a predicate: never taken by the table look-up.
_NOT_PREDICATES = _NUMERIC | _FORMULA_GOAL | _UNSUPPORTED_GOAL | {"and", "not"}

#: A parsed list: an :class:`SList` from the exact reader, a tuple from the quick one.
_LIST = (list, tuple)

#: Per predicate: its name, then per argument the objects that may fill it (see ``atom_table``).
AtomTable = dict[str, tuple[Collection[str], ...]]


@dataclass(frozen=True)
class Problem:
    """A STRIPS problem: objects with types, initial state, goal.

    The goal is ``goal`` (atoms that must hold) and ``negative_goal`` (atoms that must not) when
    it is a conjunction of literals — the common case, and the only one with ``negative_goal``
    empty that the fast, closed-form pipeline sees.  A goal with ``or`` / ``imply`` / ``exists`` /
    ``forall`` is kept whole in ``goal_formula`` (``goal`` then holds its atoms that must be true
    in every goal state by the formula's shape alone: the top-level positive conjuncts).
    """

    name: str
    domain: str
    objects: tuple[str, ...]
    object_types: tuple[str, ...]  # aligned with ``objects``; "object" when untyped or relaxed
    init: frozenset[Atom]
    goal: frozenset[Atom]
    negative_goal: frozenset[Atom] = frozenset()
    goal_formula: Formula | None = None

    @property
    def has_plain_goal(self) -> bool:
        """Whether the goal is a conjunction of positive atoms (the paper's fragment)."""
        return not self.negative_goal and self.goal_formula is None

    @property
    def type_of(self) -> dict[str, str]:
        return dict(zip(self.objects, self.object_types, strict=True))


def _fmt(expr: object) -> str:
    if isinstance(expr, _LIST):
        return "(" + " ".join(_fmt(x) for x in expr) + ")"
    return str(expr)


def _line(expr: object) -> int | None:
    """The line a list opens on: known for the exact reader's lists, ``None`` on the quick pass."""
    return getattr(expr, "line", None)


def _as_lists(expr: object) -> object:
    """``expr`` with tuples made lists: what ``str()`` of the exact reader's lists shows."""
    return [_as_lists(x) for x in expr] if isinstance(expr, _LIST) else expr


class _ProblemReader:
    """Turns the S-expression of one problem into a checked :class:`Problem`."""

    def __init__(self, domain: DomainDef, relax_typing: bool) -> None:
        self.domain = domain
        self.relax_typing = relax_typing
        self.check_types = domain.typed and not relax_typing
        self.types: dict[str, str] = {}
        self.table: AtomTable = {}

    def read(self, define: Sequence) -> Problem:
        header = define[1] if len(define) > 1 else None
        if not (isinstance(header, _LIST) and len(header) == 2 and header[0] == "problem"):
            raise PDDLSyntaxError("expected '(problem NAME)' after 'define'", _line(define))
        sections: dict[str, Sequence] = {}
        for section in define[2:]:
            if not isinstance(section, _LIST) or not section or isinstance(section[0], _LIST):
                raise PDDLSyntaxError(
                    f"expected a '(:section ...)', found '{_fmt(section)[:60]}'",
                    getattr(section, "line", _line(define)),
                )
            key = str(section[0])
            if key in sections:
                raise PDDLSyntaxError(f"section '{key}' appears twice", _line(section))
            sections[key] = section
        unknown = set(sections) - {":domain", ":requirements", ":objects", ":init", ":goal"}
        for key in sorted(unknown):
            if key in (":metric", ":constraints", ":situation", ":length"):
                raise UnsupportedFeatureError(
                    f"line {_line(sections[key])}: '{key}' is outside the STRIPS fragment"
                )
            raise PDDLSyntaxError(f"unknown problem section '{key}'", _line(sections[key]))
        self._check_domain_name(sections.get(":domain"), _line(define))
        objects = self._read_objects(sections.get(":objects"))
        for key in (":init", ":goal"):
            if key not in sections:
                raise PDDLSyntaxError(f"the problem has no '{key}' section", _line(define))
        self.table = self.atom_table()
        init = self._read_init(sections[":init"])
        goal, negative, formula = self._read_goal(sections[":goal"])
        return Problem(
            name=str(_as_lists(header[1])),
            domain=self.domain.name,
            objects=tuple(objects),
            object_types=tuple(objects.values()),
            init=frozenset(init),
            goal=frozenset(goal),
            negative_goal=frozenset(negative),
            goal_formula=formula,
        )

    def _check_domain_name(self, section: Sequence | None, line: int | None) -> None:
        if section is None:
            raise PDDLSyntaxError("the problem has no '(:domain NAME)' section", line)
        if len(section) != 2 or isinstance(section[1], _LIST):
            raise PDDLSyntaxError("expected '(:domain NAME)'", _line(section))
        if section[1] != self.domain.name:
            raise PDDLValidationError(
                f"the problem is for domain '{section[1]}', expected '{self.domain.name}'",
                _line(section),
            )

    def _read_objects(self, section: Sequence | None) -> dict[str, str]:
        if section is None:
            return {}
        declared = parse_typed_list(section)
        objects: dict[str, str] = (dict(declared) if self.check_types
                                   else dict.fromkeys(map(_first, declared), "object"))
        if (len(objects) != len(declared)
                or not all(map(self._type_allowed, set(map(_second, declared))))):
            objects = {}  # a name declared twice or a type refused: say which, in order
            line = _line(section)
            for name, type_name in declared:
                if name in objects:
                    raise PDDLValidationError(f"object '{name}' is declared twice", line)
                self._check_type(f"object '{name}'", type_name, line)
                objects[name] = type_name if self.check_types else "object"
        self.types = objects
        return objects

    def _type_allowed(self, type_name: str) -> bool:
        """Objects and quantified variables follow one rule: a type must be the domain's, and
        an untyped domain takes no types at all (unless typing is relaxed)."""
        return (type_name == "object" or self.relax_typing
                or (self.domain.typed and type_name in self.domain.types))

    def _check_type(self, what: str, type_name: str, line: int | None) -> None:
        """Refuse a type :meth:`_type_allowed` does not allow, saying why."""
        if self._type_allowed(type_name):
            return
        if not self.domain.typed:
            raise PDDLValidationError(
                f"{what} is declared with type '{type_name}', but domain '{self.domain.name}' is "
                "untyped (grade with relax_typing / --ignore-typing to ignore types)", line)
        if type_name not in self.domain.types:
            raise PDDLValidationError(
                f"{what} has type '{type_name}', which domain '{self.domain.name}' does not "
                "declare", line)

    def atom_table(self) -> AtomTable:
        """Per predicate, a row ``(name, objects for argument 1, ...)`` such that an atom the
        full check (:meth:`_read_atom`) accepts without quantified variables is exactly one with
        ``len(atom) == len(row)`` and ``all(map(contains, row, atom))``: the objects for an
        argument are those declared with its type or a subtype (any declared object when types
        are not checked).  Predicates named like a connective are left out, so such heads always
        take the full path."""
        objects = self.types
        fitting: dict[str, Collection[str]] = {}
        if self.check_types:
            of_type: dict[str, list[str]] = defaultdict(list)
            for name, type_name in objects.items():
                of_type[type_name].append(name)
            for param in {t for signature in self.domain.predicates.values() for t in signature}:
                fitting[param] = frozenset(
                    name for type_name, names in of_type.items()
                    if self.domain.is_subtype(type_name, param) for name in names)
        return {name: ((name,), *map(fitting.__getitem__, signature)) if self.check_types
                else ((name,),) + (objects,) * len(signature)
                for name, signature in self.domain.predicates.items()
                if name not in _NOT_PREDICATES}

    def _all_fit(self, items: Sequence) -> bool:
        """Whether every one of ``items`` is a quick-read atom the table accepts (see
        :meth:`atom_table`): the rows of all the atoms, laid end to end, must be as long as the
        atoms laid end to end and contain them place by place.  No Python step per atom."""
        if not items or set(map(type, items)) != {tuple} or not all(items):
            return not items
        rows: list = list(map(self.table.get, map(_first, items)))
        return (None not in rows and list(map(len, rows)) == list(map(len, items))
                and all(map(contains, chain.from_iterable(rows), chain.from_iterable(items))))

    def _read_atom(self, expr: object, where: str, variables: dict[str, str] | None = None) -> Atom:
        if not isinstance(expr, _LIST) or not expr:
            raise PDDLSyntaxError(f"expected an atom in {where}, found '{_fmt(expr)[:60]}'",
                                  _line(expr))
        head = expr[0]
        if isinstance(head, _LIST) or any(isinstance(x, _LIST) for x in expr[1:]):
            raise PDDLSyntaxError(f"malformed atom {_fmt(expr)[:80]} in {where}", _line(expr))
        if head in _NUMERIC:
            raise UnsupportedFeatureError(
                f"line {_line(expr)}: numeric expression {_fmt(expr)[:80]} in {where} is outside "
                "STRIPS"
            )
        signature = self.domain.predicates.get(head)
        if signature is None:
            raise PDDLValidationError(
                f"unknown predicate '{head}' in {_fmt(expr)} ({where}); domain "
                f"'{self.domain.name}' has: {', '.join(sorted(self.domain.predicates))}",
                _line(expr),
            )
        args = expr[1:]
        if len(args) != len(signature):
            raise PDDLValidationError(
                f"{_fmt(expr)} in {where}: '{head}' takes {len(signature)} argument(s), got {len(args)}",
                _line(expr),
            )
        for arg, param_type in zip(args, signature, strict=True):
            arg_type = self.types.get(arg)
            if arg_type is None and variables and arg in variables:  # a quantified ?variable
                arg_type = variables[arg] if self.check_types else "object"
            if arg_type is None:
                raise PDDLValidationError(
                    f"{_fmt(expr)} in {where}: object '{arg}' is not declared in :objects",
                    _line(expr),
                )
            if self.check_types and not self.domain.is_subtype(arg_type, param_type):
                raise PDDLValidationError(
                    f"{_fmt(expr)} in {where}: '{arg}' is a '{arg_type}', '{head}' needs a '{param_type}'",
                    _line(expr),
                )
        return tuple(expr)

    def _read_init(self, section: Sequence) -> list[Atom]:
        items = section[1:]
        for start in range(0, len(items), _CLOCK_EVERY):
            check_deadline("reading the initial state")
            if not self._all_fit(items[start: start + _CLOCK_EVERY]):
                break
        else:
            return list(items)
        atoms = []
        for count, expr in enumerate(items):
            if not count % _CLOCK_EVERY:
                check_deadline("reading the initial state")
            if isinstance(expr, _LIST) and expr and expr[0] == "not":
                raise PDDLValidationError(
                    f"negative literal {_fmt(expr)[:80]} in :init (the initial state is closed-world: "
                    "leave false facts out)",
                    _line(expr),
                )
            atoms.append(self._read_atom(expr, ":init"))
        return atoms

    def _read_goal(self, section: Sequence) -> tuple[list[Atom], list[Atom], Formula | None]:
        """Positive atoms, negative atoms, and the whole formula when it is not a conjunction of
        literals (then the atoms are the formula's top-level positive conjuncts)."""
        if len(section) != 2:
            raise PDDLSyntaxError(
                f"':goal' must hold exactly one formula, found {len(section) - 1}", _line(section)
            )
        goal = section[1]
        if type(goal) is tuple and goal and goal[0] == "and" and len(goal) <= _CLOCK_EVERY:
            if self._all_fit(goal[1:]):  # a conjunction of atoms, read quickly
                return list(goal[1:]), [], None
        positive: list[Atom] = []
        negative: list[Atom] = []
        stack = [goal]
        count = 0
        while stack:  # the common case, a conjunction of literals, without building a tree
            count += 1
            if not count % _CLOCK_EVERY:
                check_deadline("reading the goal")
            expr = _unwrap(stack.pop())
            if not isinstance(expr, _LIST) or not expr or not isinstance(expr[0], str):
                positive.append(self._read_atom(expr, ":goal"))  # no head: _read_atom says why
                continue
            head = expr[0]
            if head == "and":
                stack.extend(reversed(expr[1:]))
            elif head == "not" and len(expr) == 2 and _is_atom(_unwrap(expr[1])):
                negative.append(self._read_atom(_unwrap(expr[1]), ":goal"))
            elif head in _FORMULA_GOAL or head == "not":
                return self._whole_formula(section[1])
            else:
                if head in _UNSUPPORTED_GOAL or head == "=":
                    self._read_formula(expr, {})  # raises the construct's own error
                positive.append(self._read_atom(expr, ":goal"))
        return positive, negative, None

    def _whole_formula(self, expr: object) -> tuple[list[Atom], list[Atom], Formula]:
        """The goal as a formula tree, with its top-level positive conjuncts (true in every goal
        state by the formula's shape alone) as the positive atoms."""
        formula = self._read_formula(expr, {})
        positive, stack = [], [formula]
        while stack:
            node = stack.pop()
            if node[0] == "and":
                stack.extend(node[1:])
            elif node[0] == "atom":
                positive.append(node[1])
        return positive, [], formula

    def _read_formula(self, expr: object, variables: dict[str, str]) -> Formula:
        expr = _unwrap(expr)
        if not isinstance(expr, _LIST) or not expr or not isinstance(expr[0], str):
            return ("atom", self._read_atom(expr, ":goal", variables))
        head = expr[0]
        if head in _UNSUPPORTED_GOAL:
            raise UnsupportedFeatureError(
                f"line {_line(expr)}: goal uses '{head}' ({_fmt(expr)[:80]}), which is outside "
                "the goal fragment Planetarium grades"
            )
        if head == "=":
            raise UnsupportedFeatureError(
                f"line {_line(expr)}: equality {_fmt(expr)[:80]} in the goal needs ':equality', "
                f"which domain '{self.domain.name}' does not declare"
            )
        if head == "and":
            return ("and", *(self._read_formula(x, variables) for x in expr[1:]))
        if head == "or":
            return ("or", *(self._read_formula(x, variables) for x in expr[1:]))
        if head in ("not", "imply"):
            want = 1 if head == "not" else 2
            if len(expr) != want + 1:
                raise PDDLSyntaxError(f"'{head}' takes {want} formula(s): {_fmt(expr)[:80]}",
                                      _line(expr))
            return (head, *(self._read_formula(x, variables) for x in expr[1:]))
        if head in ("forall", "exists"):
            if len(expr) != 3 or not isinstance(expr[1], _LIST):
                raise PDDLSyntaxError(f"expected '({head} (?x - type ...) FORMULA)', found "
                                      f"{_fmt(expr)[:80]}", _line(expr))
            declared: Sequence = (head, *expr[1])
            if isinstance(expr, SList):  # the exact pass: errors name the quantifier's line
                declared = SList(expr.line)
                declared.extend([head, *expr[1]])
            bound = []
            for var, type_name in parse_typed_list(declared):
                if not str(var).startswith("?"):
                    raise PDDLSyntaxError(f"'{head}' binds '{var}', expected a ?variable",
                                          _line(expr))
                self._check_type(f"'{head}' variable {var}", type_name, _line(expr))
                bound.append((str(var), type_name if self.check_types else "object"))
            inner = {**variables, **dict(bound)}
            return (head, tuple(bound), self._read_formula(expr[2], inner))
        return ("atom", self._read_atom(expr, ":goal", variables))


def _unwrap(expr: object) -> object:
    """``(or X)`` and ``(not (not X))`` mean ``X``: read them as ``X``, so a goal written that
    way is the same conjunction of literals (and the same problem) as the plain one."""
    while isinstance(expr, _LIST) and len(expr) == 2 and isinstance(expr[0], str):
        inner = expr[1]
        if expr[0] == "or":
            expr = inner
        elif (expr[0] == "not" and isinstance(inner, _LIST) and len(inner) == 2
              and inner[0] == "not"):
            expr = inner[1]
        else:
            break
    return expr


def _is_atom(expr: object) -> bool:
    return (isinstance(expr, _LIST) and bool(expr) and isinstance(expr[0], str)
            and expr[0] not in _FORMULA_GOAL | _UNSUPPORTED_GOAL | {"and", "not", "="})


def read_problem(raw: str, domain: DomainDef | Callable[[str], DomainDef], *,
                 relax_typing: bool = False) -> Problem:
    """Extract the last complete problem from raw model output (:func:`.extract.find_problem`)
    and parse it.

    ``domain`` is the domain to check against, or a function that looks one up by the name in
    the problem's ``(:domain NAME)`` (so a ground truth is read once, domain included).
    """
    text, line = extract_problem(raw)
    quick = read_quick(text)
    if quick is not None:
        try:
            return _read_forms(quick, line, domain, relax_typing)
        except (PDDLSyntaxError, PDDLValidationError, UnsupportedFeatureError):
            pass  # refused: read again with line numbers, which the message names
    return _read_forms(read_sexprs(text, line), line, domain, relax_typing)


def _read_forms(forms: Sequence, line: int, domain: DomainDef | Callable[[str], DomainDef],
                relax_typing: bool) -> Problem:
    if not forms or not isinstance(forms[0], _LIST) or not forms[0] or forms[0][0] != "define":
        raise PDDLSyntaxError("expected '(define (problem NAME) ...)'", line)
    if callable(domain):
        domain = domain(_declared_domain(forms[0], line))
    return _ProblemReader(domain, relax_typing).read(forms[0])


def _declared_domain(define: Sequence, line: int) -> str:
    for section in define[2:]:
        if (isinstance(section, _LIST) and len(section) == 2 and section[0] == ":domain"
                and isinstance(section[1], str)):
            return section[1]
    raise PDDLSyntaxError("the problem has no '(:domain NAME)' section", line)
