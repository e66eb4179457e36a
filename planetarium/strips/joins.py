"""Matching an action's preconditions against a set of facts: the join at the heart of grounding.

Grounding by relaxed reachability (:func:`~planetarium.strips.search.relaxed_ground`) and the
applicable actions of a state (:mod:`planetarium.reasoning.task`) both ask for every binding of
an action's parameters under which all its preconditions are facts.  Scanning every fact of a
predicate for each partial binding made grounding quadratic in the facts of a binary predicate
(a grid's ``conn``, an inequality table); here facts are indexed by predicate and by each
argument, the preconditions are joined in an order fixed per action (next the one with the most
arguments known by then: a fully known one is a set lookup), and each is matched against the
smallest index entry its known arguments select.
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


#: One precondition to join: the atom, the facts it is matched against, and the facts it must
#: not be matched with (``None``: no exclusion).
_Goal = tuple[Atom, FactIndex, "set[Atom] | None"]
#: A precondition in its place in the join order: the atom, its facts, its exclusion, the
#: positions whose object is known by then (constants and variables bound before) and the
#: positions that bind a variable.
_Step = tuple[Atom, FactIndex, "set[Atom] | None", list[tuple[int, str]], list[tuple[int, str]]]


def _join_order(goals: list[_Goal]) -> list[_Step]:
    """The preconditions in the order they are joined: next always the one with the most
    positions known by then (a fully known one is a lookup), fewest facts first on a tie."""
    bound: set[str] = set()
    rest = list(goals)
    steps: list[_Step] = []
    while rest:
        def known(goal: _Goal) -> tuple[bool, int, int]:
            terms = goal[0][1:]
            free = sum(1 for t in terms if t[0] == "?" and t not in bound)
            return free > 0, free - len(terms), goal[1].count(goal[0][0])

        goal = min(rest, key=known)
        rest.remove(goal)
        pattern = goal[0]
        fixed = [(i, t) for i, t in enumerate(pattern) if i and (t[0] != "?" or t in bound)]
        free = [(i, t) for i, t in enumerate(pattern) if i and t[0] == "?" and t not in bound]
        steps.append((pattern, goal[1], goal[2], fixed, free))
        bound.update(t for _, t in free)
    return steps




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

    unbound = [v for v in params if not any(v in pre[1:] for pre in pres)]

    def fill(free: list[str], binding: dict[str, str]) -> Iterator[dict[str, str]]:
        if not free:
            yield binding
            return
        for value in pools[free[0]]:
            yield from fill(free[1:], {**binding, free[0]: value})

    def extend(level: int, binding: dict[str, str], steps: list[_Step]
               ) -> Iterator[dict[str, str]]:
        if level == len(steps):
            yield from fill(unbound, binding)
            return
        pattern, source, excluded, fixed, free = steps[level]
        pred = pattern[0]
        if not free:
            fact = (pred,) + tuple(binding.get(t, t) for t in pattern[1:])
            if fact in source.facts and (excluded is None or fact not in excluded):
                yield from extend(level + 1, binding, steps)
            return
        values = [(i, binding[t] if t[0] == "?" else t) for i, t in fixed]
        bucket: Collection[Atom] | None = None
        for i, value in values:
            found = source.by_arg.get((pred, i, value))
            if found is None:
                return
            if bucket is None or len(found) < len(bucket):
                bucket = found
        if bucket is None:
            bucket = source.by_pred.get(pred, _EMPTY)
        width = len(pattern)
        for fact in bucket:
            if len(fact) != width or (excluded is not None and fact in excluded):
                continue
            if any(fact[i] != value for i, value in values):
                continue
            extended = dict(binding)
            for i, term in free:
                value = fact[i]
                if extended.setdefault(term, value) != value or value not in pools.get(term, ()):
                    break
            else:
                yield from extend(level + 1, extended, steps)

    for goals in plans:
        yield from extend(0, {}, _join_order(goals))
