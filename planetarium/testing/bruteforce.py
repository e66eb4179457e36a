"""Brute-force semantics on small problems: the reference the graph algorithm must agree with.

Everything here enumerates the reachable state space explicitly, so it is exponential and only
for small problems — which is exactly what makes it trustworthy as an oracle.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

from ..errors import ResourceLimitError, UnsupportedFeatureError
from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem
from ..strips import exact
from ..strips.grounding import ground_actions, reachable_states
from ..strips.symmetry import domain_constants


def solvable_by_enumeration(domain: DomainDef, problem: Problem, max_states: int) -> bool | None:
    """Whether some reachable state holds every positive goal atom; ``None`` when more than
    ``max_states`` states are reachable (too large to decide by enumeration)."""
    actions = list(ground_actions(domain, problem))
    try:
        return any(problem.goal <= s for s in reachable_states(actions, problem.init, max_states))
    except ResourceLimitError:
        return None


def reachable_goal_states(domain: DomainDef, problem: Problem, max_states: int) -> list[frozenset]:
    """All reachable states that satisfy the goal (positive, negative literals or formula)."""
    return exact.reachable_goal_states(domain, problem, max_states)[0]


def _rename(atoms: Iterable[Atom], mapping: dict[str, str]) -> frozenset:
    return frozenset((a[0],) + tuple(mapping[x] for x in a[1:]) for a in atoms)


def _signature(problem: Problem, anchors: frozenset[str]) -> dict[str, tuple]:
    """Per object: its type, its name if anchored, and the (predicate, position) pairs it fills
    in the initial state.

    Any bijection that maps one initial state onto another (anchored names to themselves)
    preserves these signatures, so the brute force only tries bijections within classes of
    equal signature.
    """
    sig: dict[str, list] = {o: [t] for o, t in zip(problem.objects, problem.object_types, strict=True)}
    for atom in problem.init:
        for pos, arg in enumerate(atom[1:]):
            sig[arg].append((atom[0], pos))
    return {o: (s[0], o if o in anchors else None, tuple(sorted(s[1:]))) for o, s in sig.items()}


def init_preserving_bijections(a: Problem, b: Problem,
                               anchors: frozenset[str] = frozenset()) -> Iterator[dict[str, str]]:
    """Every bijection of objects of ``a`` onto ``b`` that maps a's initial state onto b's and
    each anchored name to itself."""
    if len(a.objects) != len(b.objects) or len(a.init) != len(b.init):
        return
    sig_a, sig_b = _signature(a, anchors), _signature(b, anchors)
    classes: dict[tuple, tuple[list[str], list[str]]] = {}
    for o, s in sig_a.items():
        classes.setdefault(s, ([], []))[0].append(o)
    for o, s in sig_b.items():
        if s not in classes:
            return
        classes[s][1].append(o)
    if any(len(xs) != len(ys) for xs, ys in classes.values()):
        return
    groups = list(classes.values())
    for perms in itertools.product(*(itertools.permutations(ys) for _, ys in groups)):
        mapping = {x: y for (xs, _), ys in zip(groups, perms, strict=True)
                   for x, y in zip(xs, ys, strict=True)}
        if _rename(a.init, mapping) == b.init:
            yield mapping


def _goal_state_sets(domain: DomainDef, p: Problem,
                     max_states: int) -> tuple[set[frozenset[Atom]], set[Atom]]:
    """(reachable goal states, atoms true in some reachable state)."""
    goals, atoms = exact.reachable_goal_states(domain, p, max_states)
    return {frozenset(s) for s in goals}, atoms


def equivalent_by_definition(domain: DomainDef, a: Problem, b: Problem, *,
                             is_placeholder: bool, max_states: int = 100_000,
                             anchors: frozenset[str] = frozenset(),
                             placeholder_semantics: str = "paper") -> bool:
    """Decide equivalence by enumerating states and bijections (the referee).

    Every bijection considered maps each name in ``anchors`` to itself; an anchored name
    missing on either side means not equivalent.  G is the set of reachable states satisfying
    the goal (positive and negative literals, or any formula).

    * Identity mode is Definition 2 taken literally: some bijection f maps a's initial state
      onto b's *and* G_a onto G_b.
    * Placeholder mode, ``"paper"`` semantics: the initial states are isomorphic, and some
      (possibly different) type-preserving bijection g maps F+_a (facts true in all of G_a) onto
      F+_b — and, unless both goal-state sets are exactly the reachable states containing F+,
      also maps F-_a onto F-_b (facts false in all of G but true in some reachable state).
      Goals with ``or`` / ``exists`` / ... have no fully specified scene: UnsupportedFeatureError.
    * Placeholder mode, ``"reachable-goal-states"``: the initial states are isomorphic and some
      type-preserving bijection g maps G_a onto G_b.

    With no reachable goal state on either side, the goal sides match; on one side only, not.
    """
    anchors = frozenset(anchors)
    if any(n not in a.objects or n not in b.objects for n in anchors):
        return False
    anchors |= domain_constants(domain, a, b)  # the domain's objects: never renamed
    goals_a, atoms_a = _goal_state_sets(domain, a, max_states)
    goals_b, atoms_b = _goal_state_sets(domain, b, max_states)
    if bool(goals_a) != bool(goals_b):
        return False
    # Equal goal-state counts are necessary where a bijection must map G_a onto G_b, not in the
    # paper's placeholder mode, which compares only the fully specified goals (F+, F-).
    if (not is_placeholder or placeholder_semantics != "paper") and len(goals_a) != len(goals_b):
        return False
    if not any(True for _ in init_preserving_bijections(a, b, anchors)):
        return False
    if not goals_a:
        return True
    if not is_placeholder:
        return any({_rename(s, m) for s in goals_a} == goals_b
                   for m in init_preserving_bijections(a, b, anchors))
    if placeholder_semantics == "reachable-goal-states":
        return any({_rename(s, m) for s in goals_a} == goals_b
                   for m in _all_typed_bijections(a, b, anchors))
    if a.goal_formula is not None or b.goal_formula is not None:
        raise UnsupportedFeatureError("paper placeholder semantics need conjunctive goals")
    inter_a, inter_b = frozenset.intersection(*goals_a), frozenset.intersection(*goals_b)
    positive_only = all(
        sum(1 for s in states if inter <= s) == len(goals)
        for states, inter, goals in ((_reachable(domain, a, max_states), inter_a, goals_a),
                                     (_reachable(domain, b, max_states), inter_b, goals_b)))
    false_a = frozenset(atoms_a - frozenset.union(*goals_a))
    false_b = frozenset(atoms_b - frozenset.union(*goals_b))
    return any(_rename(inter_a, m) == inter_b
               and (positive_only or _rename(false_a, m) == false_b)
               for m in _all_typed_bijections(a, b, anchors))


def _reachable(domain: DomainDef, p: Problem, max_states: int) -> list[frozenset]:
    return list(reachable_states(list(ground_actions(domain, p)), frozenset(p.init), max_states))


def _all_typed_bijections(a: Problem, b: Problem,
                          anchors: frozenset[str] = frozenset()) -> Iterator[dict[str, str]]:
    """Every type-preserving bijection of objects (anchored names to themselves)."""
    by_type_a: dict[tuple, list[str]] = {}
    by_type_b: dict[tuple, list[str]] = {}
    for o, t in zip(a.objects, a.object_types, strict=True):
        by_type_a.setdefault((t, o if o in anchors else None), []).append(o)
    for o, t in zip(b.objects, b.object_types, strict=True):
        by_type_b.setdefault((t, o if o in anchors else None), []).append(o)
    if {t: len(v) for t, v in by_type_a.items()} != {t: len(v) for t, v in by_type_b.items()}:
        return
    types = list(by_type_a)
    for perms in itertools.product(*(itertools.permutations(by_type_b[t]) for t in types)):
        yield {x: y for t, ys in zip(types, perms, strict=True)
               for x, y in zip(by_type_a[t], ys, strict=True)}
