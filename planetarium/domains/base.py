"""What a domain plug-in provides, and the generic behaviour it gets for free.

A domain is one object: a name, its PDDL text, ``fully_specify`` and, optionally, a planner and
dataset tasks.  Built-in domains subclass :class:`Domain` and override ``fully_specify`` and
``solve`` with exact polynomial algorithms; a third-party domain may override nothing and still
get exact fully specified goals at IPC sizes from the generic method inherited here
(:mod:`planetarium.strips.forced`: witnesses and proofs, no state enumeration).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..errors import UnsupportedFeatureError
from ..limits import Deadline, required
from ..pddl.domain import Atom, DomainDef, parse_domain
from ..pddl.problem import Problem, read_problem

if TYPE_CHECKING:
    from ..reasoning.adl import Compilation

#: The brute force (goals with ``or`` / ``exists`` / ..., and the built-in closed forms'
#: fallbacks) gives up past this.
DEFAULT_MAX_STATES = 200_000

Plan = list[tuple[str, ...]]  # ground actions as ``(name, arg1, ...)``


def _read_domain(text: str) -> tuple[DomainDef, Compilation | None]:
    """The domain as the STRIPS core reads it, and the ADL compilation its problems need
    (``None`` for a STRIPS domain).  The compiler is imported only for a domain the core
    refuses, so reading a STRIPS domain costs what it did."""
    try:
        return parse_domain(text), None
    except UnsupportedFeatureError:
        from ..reasoning.adl import compile_domain

        return compile_domain(text.lower(), negated_fluents=True)


class Domain:
    """A planning domain known to Planetarium.

    Subclasses override :meth:`fully_specify` (and :meth:`solve` when they have a planner).
    """

    #: Whether :meth:`solve` is an exact, complete planner for this domain.
    has_planner: bool = False

    def __init__(self, name: str, pddl: str) -> None:
        self.name = name
        self.pddl = pddl

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

    @classmethod
    def from_pddl(cls, text: str) -> Domain:
        """The domain a domain file defines, named as the file names it (``grade --domain
        FILE``, ``evaluate(domain_str=...)``); raises what reading it raises."""
        domain = cls(_read_domain(text)[0].name, text)
        domain.definition  # noqa: B018 - read now, so a bad file is refused here
        return domain

    @cached_property
    def _read(self) -> tuple[DomainDef, Compilation | None]:
        return _read_domain(self.pddl)

    @cached_property
    def definition(self) -> DomainDef:
        """The parsed domain file (parsed once, on first use); an ADL domain compiled into
        STRIPS (:mod:`planetarium.reasoning.adl`), like ACPBench's ``alfred``."""
        definition = self._read[0]
        if definition.name != self.name:
            raise ValueError(f"domain file declares '{definition.name}', plug-in says '{self.name}'")
        return definition

    @property
    def compiles_adl(self) -> bool:
        """Whether problems of this domain are read through the ADL compiler
        (:meth:`read_problem`), not the plain problem reader."""
        return self._read[1] is not None

    def read_problem(self, text: str, *, relax_typing: bool = False) -> Problem:
        """The last complete problem in ``text`` (model output), read against this domain: what
        the grader reads every ground truth and answer with, so an ADL domain's problems get
        its constants and helper facts."""
        definition, compiled = self.definition, self._read[1]
        if compiled is None:
            return read_problem(text, definition, relax_typing=relax_typing)
        from ..reasoning.adl import read_compiled_problem

        return read_compiled_problem(text, definition, compiled, relax_typing=relax_typing)

    def static_facts(self, problem: Problem) -> frozenset[Atom]:
        """Initial facts of predicates that no action changes: true in every reachable state."""
        static = self.definition.static_predicates
        return frozenset(a for a in problem.init if a[0] in static)

    def fully_specify(self, problem: Problem) -> frozenset[Atom] | None:
        """Every fact true in all goal states reachable from the initial state.

        Returns ``None`` when no goal state is reachable.  The result includes static facts and
        the goal itself.  This generic version settles every atom by a witness goal state or a
        proof (:func:`~planetarium.strips.forced.fully_specified`) and raises
        :class:`~planetarium.errors.ResourceLimitError` past the deadline in force (none in
        force: :class:`~planetarium.limits.MissingDeadlineError`, there is no default limit;
        the entry points, ``compare`` and the conformance kit put one in force); a goal
        with ``or`` / ``imply`` / ``exists`` / ``forall`` is enumerated, up to
        :data:`DEFAULT_MAX_STATES` states.
        """
        if problem.goal_formula is not None:
            from ..strips.exact import reachable_goal_intersection

            return reachable_goal_intersection(self.definition, problem, DEFAULT_MAX_STATES)
        from ..strips.forced import fully_specified

        return fully_specified(self.definition, problem)

    def closed_form_covers(self, problem: Problem) -> bool:
        """Whether :meth:`fully_specify` decides ``problem``'s initial state without enumerating
        states, so calling it once per candidate atom (negative goals) stays cheap."""
        return False

    def reachability_signature(self, problem: Problem) -> frozenset[Atom] | None:
        """Facts that fix ``problem``'s reachable states up to renaming, or ``None``.

        Contract (what the strict placeholder check relies on): every bijection that maps one
        problem's signature onto another's maps their reachable states onto each other, and the
        signature can be read off any single reachable state (so a bijection mapping some
        reachable state of one problem onto one of the other maps the signatures too).  Blocks
        World from a well-formed state: the empty set (every arrangement of the blocks is
        reachable).  ``None`` (the default) sends the check to the bounded search.
        """
        return None

    def solve(self, problem: Problem, deadline: Deadline | None = None) -> Plan | None:
        """A plan for ``problem``, or ``None`` if it has none.

        Raises :class:`~planetarium.errors.ResourceLimitError` past ``deadline``: the item's one
        :class:`~planetarium.limits.Deadline`, the very one in force through
        :func:`~planetarium.limits.check_deadline` while the planner runs (plug-in API:
        ``check_solvable`` always passes it; ``None`` means the deadline in force, and with
        neither :class:`~planetarium.limits.MissingDeadlineError`).  Domains without a planner
        of their own use the generic search, with cheap proofs of "no plan" when it does not
        finish at once (:mod:`planetarium.strips.refuting`).
        """
        from ..strips.refuting import solve_or_refute

        return solve_or_refute(self.definition, problem, required("Domain.solve", deadline))

    def dataset_tasks(self) -> Sequence[Any]:
        """Dataset task layouts this domain contributes (none by default)."""
        return ()
