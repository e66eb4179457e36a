"""Problems: read, check against the domain, and hold as plain data.

Every atom is checked against the domain — unknown predicate, wrong arity, undeclared object,
argument of the wrong type — and refused with the atom and its line.  Nothing is dropped
silently: the original implementation dropped unknown goal atoms and so called wrong answers
equivalent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..errors import PDDLSyntaxError, PDDLValidationError, UnsupportedFeatureError
from ..limits import check_deadline
from .domain import Atom, DomainDef, parse_typed_list
from .extract import extract_problem
from .sexpr import SList, read_sexprs

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


def _fmt(expr) -> str:
    if isinstance(expr, SList):
        return "(" + " ".join(_fmt(x) for x in expr) + ")"
    return str(expr)


class _ProblemReader:
    """Turns the S-expression of one problem into a checked :class:`Problem`."""

    def __init__(self, domain: DomainDef, relax_typing: bool) -> None:
        self.domain = domain
        self.relax_typing = relax_typing
        self.check_types = domain.typed and not relax_typing
        self.types: dict[str, str] = {}

    def read(self, define: SList) -> Problem:
        header = define[1] if len(define) > 1 else None
        if not (isinstance(header, SList) and len(header) == 2 and header[0] == "problem"):
            raise PDDLSyntaxError("expected '(problem NAME)' after 'define'", define.line)
        sections: dict[str, SList] = {}
        for section in define[2:]:
            if not isinstance(section, SList) or not section or isinstance(section[0], SList):
                raise PDDLSyntaxError(
                    f"expected a '(:section ...)', found '{_fmt(section)[:60]}'",
                    getattr(section, "line", define.line),
                )
            key = str(section[0])
            if key in sections:
                raise PDDLSyntaxError(f"section '{key}' appears twice", section.line)
            sections[key] = section
        unknown = set(sections) - {":domain", ":requirements", ":objects", ":init", ":goal"}
        for key in sorted(unknown):
            if key in (":metric", ":constraints", ":situation", ":length"):
                raise UnsupportedFeatureError(
                    f"line {sections[key].line}: '{key}' is outside the STRIPS fragment"
                )
            raise PDDLSyntaxError(f"unknown problem section '{key}'", sections[key].line)
        self._check_domain_name(sections.get(":domain"), define.line)
        objects = self._read_objects(sections.get(":objects"))
        for key in (":init", ":goal"):
            if key not in sections:
                raise PDDLSyntaxError(f"the problem has no '{key}' section", define.line)
        init = self._read_init(sections[":init"])
        goal, negative, formula = self._read_goal(sections[":goal"])
        return Problem(
            name=str(header[1]),
            domain=self.domain.name,
            objects=tuple(objects),
            object_types=tuple(objects.values()),
            init=frozenset(init),
            goal=frozenset(goal),
            negative_goal=frozenset(negative),
            goal_formula=formula,
        )

    def _check_domain_name(self, section: SList | None, line: int) -> None:
        if section is None:
            raise PDDLSyntaxError("the problem has no '(:domain NAME)' section", line)
        if len(section) != 2 or isinstance(section[1], SList):
            raise PDDLSyntaxError("expected '(:domain NAME)'", section.line)
        if section[1] != self.domain.name:
            raise PDDLValidationError(
                f"the problem is for domain '{section[1]}', expected '{self.domain.name}'",
                section.line,
            )

    def _read_objects(self, section: SList | None) -> dict[str, str]:
        objects: dict[str, str] = {}
        if section is None:
            return objects
        line = section.line
        for name, type_name in parse_typed_list(section):
            if name in objects:
                raise PDDLValidationError(f"object '{name}' is declared twice", line)
            self._check_type(f"object '{name}'", type_name, line)
            objects[str(name)] = type_name if self.check_types else "object"
        self.types = objects
        return objects

    def _check_type(self, what: str, type_name: str, line: int | None) -> None:
        """Objects and quantified variables follow one rule: a type must be the domain's, and
        an untyped domain takes no types at all (unless typing is relaxed)."""
        if type_name == "object" or self.relax_typing:
            return
        if not self.domain.typed:
            raise PDDLValidationError(
                f"{what} is declared with type '{type_name}', but domain '{self.domain.name}' is "
                "untyped (grade with relax_typing / --ignore-typing to ignore types)", line)
        if type_name not in self.domain.types:
            raise PDDLValidationError(
                f"{what} has type '{type_name}', which domain '{self.domain.name}' does not "
                "declare", line)

    def _read_atom(self, expr, where: str, variables: dict[str, str] | None = None) -> Atom:
        if not isinstance(expr, SList) or not expr:
            raise PDDLSyntaxError(f"expected an atom in {where}, found '{_fmt(expr)[:60]}'",
                                  getattr(expr, "line", None))
        head = expr[0]
        if isinstance(head, SList) or any(isinstance(x, SList) for x in expr[1:]):
            raise PDDLSyntaxError(f"malformed atom {_fmt(expr)[:80]} in {where}", expr.line)
        if head in _NUMERIC:
            raise UnsupportedFeatureError(
                f"line {expr.line}: numeric expression {_fmt(expr)[:80]} in {where} is outside STRIPS"
            )
        signature = self.domain.predicates.get(head)
        if signature is None:
            raise PDDLValidationError(
                f"unknown predicate '{head}' in {_fmt(expr)} ({where}); domain "
                f"'{self.domain.name}' has: {', '.join(sorted(self.domain.predicates))}",
                expr.line,
            )
        args = expr[1:]
        if len(args) != len(signature):
            raise PDDLValidationError(
                f"{_fmt(expr)} in {where}: '{head}' takes {len(signature)} argument(s), got {len(args)}",
                expr.line,
            )
        for arg, param_type in zip(args, signature, strict=True):
            arg_type = self.types.get(arg)
            if arg_type is None and variables and arg in variables:  # a quantified ?variable
                arg_type = variables[arg] if self.check_types else "object"
            if arg_type is None:
                raise PDDLValidationError(
                    f"{_fmt(expr)} in {where}: object '{arg}' is not declared in :objects", expr.line
                )
            if self.check_types and not self.domain.is_subtype(arg_type, param_type):
                raise PDDLValidationError(
                    f"{_fmt(expr)} in {where}: '{arg}' is a '{arg_type}', '{head}' needs a '{param_type}'",
                    expr.line,
                )
        return tuple(expr)

    def _read_init(self, section: SList) -> list[Atom]:
        atoms = []
        for count, expr in enumerate(section[1:]):
            if not count % _CLOCK_EVERY:
                check_deadline("reading the initial state")
            if isinstance(expr, SList) and expr and expr[0] == "not":
                raise PDDLValidationError(
                    f"negative literal {_fmt(expr)[:80]} in :init (the initial state is closed-world: "
                    "leave false facts out)",
                    expr.line,
                )
            atoms.append(self._read_atom(expr, ":init"))
        return atoms

    def _read_goal(self, section: SList) -> tuple[list[Atom], list[Atom], Formula | None]:
        """Positive atoms, negative atoms, and the whole formula when it is not a conjunction of
        literals (then the atoms are the formula's top-level positive conjuncts)."""
        if len(section) != 2:
            raise PDDLSyntaxError(
                f"':goal' must hold exactly one formula, found {len(section) - 1}", section.line
            )
        positive: list[Atom] = []
        negative: list[Atom] = []
        stack = [section[1]]
        count = 0
        while stack:  # the common case, a conjunction of literals, without building a tree
            count += 1
            if not count % _CLOCK_EVERY:
                check_deadline("reading the goal")
            expr = _unwrap(stack.pop())
            head = expr[0] if isinstance(expr, SList) and expr and isinstance(expr[0], str) else None
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

    def _whole_formula(self, expr) -> tuple[list[Atom], list[Atom], Formula]:
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

    def _read_formula(self, expr, variables: dict[str, str]) -> Formula:
        expr = _unwrap(expr)
        head = expr[0] if isinstance(expr, SList) and expr and isinstance(expr[0], str) else None
        if head in _UNSUPPORTED_GOAL:
            raise UnsupportedFeatureError(
                f"line {expr.line}: goal uses '{head}' ({_fmt(expr)[:80]}), which is outside "
                "the goal fragment Planetarium grades"
            )
        if head == "=":
            raise UnsupportedFeatureError(
                f"line {expr.line}: equality {_fmt(expr)[:80]} in the goal needs ':equality', "
                f"which domain '{self.domain.name}' does not declare"
            )
        if head == "and":
            return ("and",) + tuple(self._read_formula(x, variables) for x in expr[1:])
        if head == "or":
            return ("or",) + tuple(self._read_formula(x, variables) for x in expr[1:])
        if head in ("not", "imply"):
            want = 1 if head == "not" else 2
            if len(expr) != want + 1:
                raise PDDLSyntaxError(f"'{head}' takes {want} formula(s): {_fmt(expr)[:80]}",
                                      expr.line)
            return (head,) + tuple(self._read_formula(x, variables) for x in expr[1:])
        if head in ("forall", "exists"):
            if len(expr) != 3 or not isinstance(expr[1], SList):
                raise PDDLSyntaxError(f"expected '({head} (?x - type ...) FORMULA)', found "
                                      f"{_fmt(expr)[:80]}", expr.line)
            declared = SList(expr.line)
            declared.extend([head, *expr[1]])
            bound = []
            for var, type_name in parse_typed_list(declared):
                if not str(var).startswith("?"):
                    raise PDDLSyntaxError(f"'{head}' binds '{var}', expected a ?variable",
                                          expr.line)
                self._check_type(f"'{head}' variable {var}", type_name, expr.line)
                bound.append((str(var), type_name if self.check_types else "object"))
            inner = {**variables, **dict(bound)}
            return (head, tuple(bound), self._read_formula(expr[2], inner))
        return ("atom", self._read_atom(expr, ":goal", variables))


def _unwrap(expr):
    """``(or X)`` and ``(not (not X))`` mean ``X``: read them as ``X``, so a goal written that
    way is the same conjunction of literals (and the same problem) as the plain one."""
    while isinstance(expr, SList) and len(expr) == 2 and isinstance(expr[0], str):
        inner = expr[1]
        if expr[0] == "or":
            expr = inner
        elif (expr[0] == "not" and isinstance(inner, SList) and len(inner) == 2
              and inner[0] == "not"):
            expr = inner[1]
        else:
            break
    return expr


def _is_atom(expr) -> bool:
    return (isinstance(expr, SList) and bool(expr) and isinstance(expr[0], str)
            and expr[0] not in _FORMULA_GOAL | _UNSUPPORTED_GOAL | {"and", "not", "="})


def read_problem(raw: str, domain: DomainDef | Callable[[str], DomainDef], *,
                 relax_typing: bool = False) -> Problem:
    """Extract the last complete problem from raw model output (:func:`.extract.find_problem`)
    and parse it.

    ``domain`` is the domain to check against, or a function that looks one up by the name in
    the problem's ``(:domain NAME)`` (so a ground truth is read once, domain included).
    """
    text, line = extract_problem(raw)
    forms = read_sexprs(text, line)
    if not forms or not isinstance(forms[0], SList) or forms[0][:1] != ["define"]:
        raise PDDLSyntaxError("expected '(define (problem NAME) ...)'", line)
    if callable(domain):
        domain = domain(_declared_domain(forms[0], line))
    return _ProblemReader(domain, relax_typing).read(forms[0])


def _declared_domain(define: SList, line: int) -> str:
    for section in define[2:]:
        if (isinstance(section, SList) and len(section) == 2 and section[0] == ":domain"
                and isinstance(section[1], str)):
            return section[1]
    raise PDDLSyntaxError("the problem has no '(:domain NAME)' section", line)
