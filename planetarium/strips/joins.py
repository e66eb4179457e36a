"""Matching an action's preconditions against a set of facts: the join at the heart of grounding.

Grounding by relaxed reachability (:func:`~planetarium.strips.search.relaxed_ground`) and the
applicable actions of a state (:mod:`planetarium.reasoning.task`) both ask for every binding of
an action's parameters under which all its preconditions are facts.  Scanning every fact of a
predicate for each partial binding made grounding quadratic in the facts of a binary predicate
(a grid's ``conn``, an inequality table); here facts are indexed by predicate and by each
argument, a precondition is matched against the smallest index entry its bound terms select,
and the next precondition joined is always the one with the fewest candidates under the binding
so far (a fully bound one is a set lookup).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping

from ..pddl.domain import Action, Atom

_EMPTY: frozenset[Atom] = frozenset()


class FactIndex:
    """A set of ground facts, indexed by predicate and by ``(predicate, position, object)``."""

    __slots__ = ("by_arg", "by_pred", "facts")

    def __init__(self, facts: Iterable[Atom] = ()) -> None:
        self.facts: set[Atom] = set()
        self.by_pred: dict[str, set[Atom]] = {}
        self.by_arg: dict[tuple[str, int, str], set[Atom]] = {}
        for fact in facts:
            self.add(fact)

    def add(self, fact: Atom) -> bool:
        """Add ``fact``; whether it was new."""
        if fact in self.facts:
            return False
        self.facts.add(fact)
        pred = fact[0]
        self.by_pred.setdefault(pred, set()).add(fact)
        by_arg = self.by_arg
        for position in range(1, len(fact)):
            key = (pred, position, fact[position])
            bucket = by_arg.get(key)
            if bucket is None:
                by_arg[key] = {fact}
            else:
                bucket.add(fact)
        return True

    def count(self, pred: str) -> int:
        return len(self.by_pred.get(pred, _EMPTY))

    def candidates(self, pattern: Atom, binding: Mapping[str, str]
                   ) -> tuple[Collection[Atom], bool]:
        """The facts ``pattern`` may match under ``binding``, and whether ``pattern`` is fully
        bound (then the candidates are the one fact it names, or none)."""
        pred = pattern[0]
        best: set[Atom] | None = None
        bound_all = True
        for position in range(1, len(pattern)):
            term = pattern[position]
            if term[0] == "?":
                value = binding.get(term)
                if value is None:
                    bound_all = False
                    continue
            else:
                value = term
            bucket = self.by_arg.get((pred, position, value))
            if bucket is None:
                return _EMPTY, bound_all
            if best is None or len(bucket) < len(best):
                best = bucket
        if bound_all:
            fact = (pred,) + tuple(binding.get(t, t) for t in pattern[1:])
            return ((fact,) if fact in self.facts else _EMPTY), True
        if best is None:
            best = self.by_pred.get(pred, set())
        return best, False


#: One precondition to join: the atom, the facts it is matched against, and the facts it must
#: not be matched with (``None``: no exclusion).
_Goal = tuple[Atom, FactIndex, "set[Atom] | None"]


def bindings(action: Action, facts: FactIndex, pools: Mapping[str, Mapping[str, None]],
             new: FactIndex | None = None) -> Iterator[dict[str, str]]:
    """Every binding of ``action``'s parameters under which all its preconditions are in ``facts``
    (each parameter ranging over ``pools``, the objects of its type).

    ``new`` (facts of ``facts`` added since the last call): only the bindings under which some
    precondition is one of them (the semi-naive evaluation of Datalog: the others were all found
    before), each once: with preconditions numbered, the ``i``-th is matched against the new
    facts, those before it against the older facts only, those after it against all.  An action
    without preconditions then comes never.
    """
    params = [v for v, _ in action.parameters]
    pres = list(action.precondition)
    if new is None:
        plans: list[list[_Goal]] = [[(pre, facts, None) for pre in pres]]
    else:
        plans = [[(pre, new, None)] + [(p, facts, new.facts) for p in pres[:i]]
                 + [(p, facts, None) for p in pres[i + 1:]]
                 for i, pre in enumerate(pres) if new.count(pre[0])]

    def fill(free: list[str], binding: dict[str, str]) -> Iterator[dict[str, str]]:
        if not free:
            yield binding
            return
        for value in pools[free[0]]:
            yield from fill(free[1:], {**binding, free[0]: value})

    def extend(binding: dict[str, str], goals: list[_Goal]) -> Iterator[dict[str, str]]:
        if not goals:
            yield from fill([v for v in params if v not in binding], binding)
            return
        chosen = -1
        best: Collection[Atom] = _EMPTY
        size = -1
        exact = False
        for k, (pattern, source, _) in enumerate(goals):
            found, bound = source.candidates(pattern, binding)
            if bound or not found:
                chosen, best, exact = k, found, bound
                break
            length = len(found)
            if size < 0 or length < size:
                chosen, best, size = k, found, length
        pattern, _, excluded = goals[chosen]
        rest = goals[:chosen] + goals[chosen + 1:]
        if exact:
            for fact in best:
                if excluded is None or fact not in excluded:
                    yield from extend(binding, rest)
            return
        terms = pattern[1:]
        for fact in best:
            if len(fact) != len(pattern) or (excluded is not None and fact in excluded):
                continue
            extended = dict(binding)
            for term, value in zip(terms, fact[1:], strict=True):
                if term[0] == "?":
                    if extended.setdefault(term, value) != value or value not in pools.get(term, ()):
                        break
                elif term != value:
                    break
            else:
                yield from extend(extended, rest)

    for goals in plans:
        yield from extend({}, goals)
