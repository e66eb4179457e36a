"""Why is it wrong?  A checked explanation of a grading verdict.

An :class:`Explanation` names the renaming of the prediction's objects into the ground truth's
(:mod:`planetarium.equivalence.renaming`: the fewest differences — initial-state differences
counted first, so a goal difference never hides behind a renaming that breaks a matching
initial state — proven optimal when a bounded search can), and under it the differences:
objects with no counterpart, initial facts, and facts of the *fully specified* goal (the goal
the grader compares; for an unsolvable prediction, which has none, its goal as written).
Atoms are written in the ground truth's names; an object of the prediction with no
counterpart keeps its own name, prefixed ``pred:`` where that name is also a ground-truth
object's (``:`` cannot occur in a PDDL name, so the prefix is unambiguous).

Modes say what was compared:

* ``identity``: one renaming for the initial state and the goal together;
* ``placeholder`` (the paper's): the initial states under one renaming, the goals under another
  (``goal_renaming``) over the objects the first one matched — when the repair this gives is
  still a certificate (checked), else one renaming for both;
* ``strict-placeholder``: one renaming for both, as in identity mode — removing its differences
  gives an identity-equivalent problem, which is strict-placeholder equivalent too.

Every explanation is a certificate: :func:`apply_explanation` applies its differences to the
prediction (in the prediction's own names), and grading the result against the ground truth
says "equivalent" (tests/test_explain.py checks this on the conformance corpus and a sample of
generated wrong answers, bench/bench_explain.py on thousands).  An unsolvable prediction also
gets the reason: a goal fact that no reachable state holds, with its certificate (delete
relaxation or an h^2 mutex), when one of those proves it.  The data model, categories and text
live in :mod:`planetarium.equivalence.explanation` (re-exported here).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import rustworkx as rx

from ..domains.base import Domain
from ..errors import ResourceLimitError
from ..graph import GOAL, GOAL_FALSE, INIT, SearchBudget, build_graph, isomorphic
from ..limits import Deadline, check_deadline, deadline_for
from ..pddl.domain import Atom
from ..pddl.problem import Problem
from ..pddl.writer import atom_to_pddl
from .closure import literal_closure
from .explanation import (
    AS_WRITTEN,
    CATEGORIES,
    EQUIVALENT,
    FORMULA,
    FULLY_SPECIFIED,
    IDENTITY,
    NOT_EQUIVALENT,
    NOT_PARSEABLE,
    PLACEHOLDER,
    PRED_PREFIX,
    STRICT_PLACEHOLDER,
    UNSOLVABLE,
    Differences,
    Explanation,
    base_categories,
    categorise,
    describe,
    not_parseable,
    summarise,
)
from .renaming import Renaming, Tagged, best_renaming
from .unsolvable import UnsolvableReason

#: Re-exported: callers import the whole explanation API from this module.
__all__ = ["AS_WRITTEN", "CATEGORIES", "EQUIVALENT", "FORMULA", "FULLY_SPECIFIED", "IDENTITY",
           "NOT_EQUIVALENT", "NOT_PARSEABLE", "PLACEHOLDER", "PRED_PREFIX", "STRICT_PLACEHOLDER",
           "UNSOLVABLE", "CertificateError", "Differences", "Explanation", "apply_explanation",
           "categorise", "describe", "explain", "not_parseable", "summarise"]

# -- building ---------------------------------------------------------------------------------

def _tag(scene: str, atoms: Iterable[Atom]) -> list[Tagged]:
    return [(scene, *a) for a in atoms]


@dataclass(frozen=True)
class _Goal:
    """One side's goal as compared: true facts, false facts, which goal that is, and whether
    the false facts add nothing (the goal states are the reachable states with the true ones)."""

    positive: frozenset[Atom]
    negative: frozenset[Atom]
    basis: str
    positive_only: bool = True


#: Seconds an explanation may spend fully specifying a goal by state-space search (an initial
#: state no closed form covers, e.g. a block resting nowhere); past it, goals as written are
#: compared.  The grader never needs that search for such answers: their initial states differ.
SEARCH_S = 0.25


@lru_cache(maxsize=16)
def _goal(domain: Domain, p: Problem) -> _Goal:
    """The goal compared for ``p`` (cached: explaining and checking the repair both need the
    prediction's, and a malformed initial state makes it a state-space search)."""
    if p.goal_formula is not None:
        return _Goal(frozenset(), frozenset(), FORMULA, False)
    written = _Goal(p.goal, p.negative_goal, AS_WRITTEN, False)
    try:
        # the item's deadline is in force (applied by grading); a search gets SEARCH_S of it
        with nullcontext() if domain.closed_form_covers(p) else deadline_for(SEARCH_S).applied():
            if p.has_plain_goal:
                full = domain.fully_specify(p)
                return written if full is None else _Goal(full, frozenset(), FULLY_SPECIFIED)
            closure = literal_closure(domain, p)
    except ResourceLimitError:
        check_deadline("explanation")  # the caller's own limit, not SEARCH_S: cut short
        return written
    if closure is None:
        return written
    return _Goal(closure.positive, closure.negative, FULLY_SPECIFIED, closure.positive_only)


def _goals(domain: Domain, a: Problem, b: Problem) -> tuple[_Goal, _Goal]:
    goal_a, goal_b = _goal(domain, a), _goal(domain, b)
    if FORMULA in (goal_a.basis, goal_b.basis):
        return (_Goal(frozenset(), frozenset(), FORMULA, False),
                _Goal(frozenset(), frozenset(), FORMULA, False))
    if AS_WRITTEN in (goal_a.basis, goal_b.basis):
        # No reachable goal state on one side, so no fully specified goal: compare the goals
        # as written (removing these differences still gives the ground truth's goal states).
        return (_Goal(a.goal, a.negative_goal, AS_WRITTEN, False),
                _Goal(b.goal, b.negative_goal, AS_WRITTEN, False))
    # As the grader does: false facts that add nothing on both sides change no verdict.
    if goal_a.basis == goal_b.basis == FULLY_SPECIFIED and (
            goal_a.positive_only and goal_b.positive_only):
        goal_a = replace(goal_a, negative=frozenset())
        goal_b = replace(goal_b, negative=frozenset())
    return goal_a, goal_b


def _seeds(a: Problem, b: Problem, scenes_a, scenes_b, anchors, deadline: Deadline | None,
           limit: int = 8) -> list[dict]:
    """Renamings from matchings of the graphs of ``scenes``, a few of them: embeddings of the
    smaller graph into the larger (isomorphisms when both are the same size), so an object too
    many or too few, with or without its facts, still gives the search a good start.  A seed is
    a hint: the search works without one (and without those VF2 did not find by ``deadline``)."""
    clock = SearchBudget(None, deadline)
    graph_a = build_graph(a.objects, a.object_types, scenes_a, anchors)
    graph_b = build_graph(b.objects, b.object_types, scenes_b, anchors)
    a_larger = graph_a.num_nodes() >= graph_b.num_nodes()
    big, small = (graph_a, graph_b) if a_larger else (graph_b, graph_a)
    n_big, n_small = (len(a.objects), len(b.objects)) if a_larger else (len(b.objects),
                                                                        len(a.objects))
    seeds = []
    try:
        for mapping in rx.vf2_mapping(big, small, node_matcher=clock.match, edge_matcher=clock.match,
                                      id_order=False, subgraph=True, induced=False,
                                      call_limit=50_000):
            # object nodes come first in both graphs, and labels keep objects on objects
            pairs = [(i, j) for i, j in mapping.items() if i < n_big and j < n_small]
            seeds.append({b.objects[j]: a.objects[i] for i, j in pairs} if a_larger
                         else {b.objects[i]: a.objects[j] for i, j in pairs})
            if len(seeds) >= limit:
                break
    except Exception:  # noqa: BLE001 - a seed is a hint; the search works without one
        return seeds
    return seeds


class _Builder:
    """Compares the two problems scene by scene and assembles the explanation."""

    def __init__(self, a: Problem, b: Problem, domain: Domain, anchors: frozenset[str],
                 deadline: Deadline | None) -> None:
        self.a, self.b, self.domain = a, b, domain
        self.anchors, self.deadline = anchors, deadline
        self.names_a = set(a.objects)

    def search(self, objects_b, scenes_a, scenes_b, nonzero: bool, seeds=(),
               weights: Mapping[str, int] | None = None) -> Renaming:
        a, b = self.a, self.b
        keep = set(objects_b)
        atoms_a = [x for scene, atoms in scenes_a for x in _tag(scene, atoms)]
        atoms_b = [x for scene, atoms in scenes_b for x in _tag(scene, atoms)
                   if set(x[2:]) <= keep]
        types_b = [t for o, t in zip(b.objects, b.object_types, strict=True) if o in keep]
        return best_renaming(a.objects, a.object_types, atoms_a,
                             [o for o in b.objects if o in keep], types_b, atoms_b,
                             anchors=self.anchors, seeds=seeds, nonzero=nonzero,
                             deadline=self.deadline, weights=weights)

    def name(self, pred_object: str, mapping: Mapping[str, str]) -> str:
        if pred_object in mapping:
            return mapping[pred_object]
        return PRED_PREFIX + pred_object if pred_object in self.names_a else pred_object

    def differences(self, atoms_a: frozenset[Atom], atoms_b: frozenset[Atom],
                    mapping: Mapping[str, str], written_a: frozenset[Atom] = frozenset(),
                    written_b: frozenset[Atom] = frozenset()) -> Differences:
        """``atoms_a`` against ``atoms_b`` renamed; facts a side wrote (``written_*``, e.g. the
        goal as written) are listed before the ones only implied."""
        rename = lambda x: (x[0], *(self.name(y, mapping) for y in x[1:]))  # noqa: E731
        renamed = {rename(x) for x in atoms_b}
        return Differences(_sorted(set(atoms_a) - renamed, written_a),
                           _sorted(renamed - set(atoms_a), {rename(x) for x in written_b}))


def _sorted(atoms: Iterable[Atom], first: Iterable[Atom] = ()) -> tuple[str, ...]:
    """Atoms as PDDL text: those in ``first``, then fewest arguments, then alphabetically."""
    first = set(first)
    return tuple(atom_to_pddl(x)
                 for x in sorted(atoms, key=lambda x: (x not in first, len(x), x)))


def _nonzero(a: Problem, b: Problem, scenes_a, scenes_b, anchors, budget: SearchBudget) -> bool:
    """Whether no renaming makes these scenes equal (so every renaming has a difference)."""
    if sorted(a.object_types) != sorted(b.object_types):
        return False  # unequal objects: a renaming may still match every fact
    graph_a = build_graph(a.objects, a.object_types, scenes_a, anchors)
    graph_b = build_graph(b.objects, b.object_types, scenes_b, anchors)
    return not isomorphic(graph_a, graph_b, budget)


def explain(a: Problem, b: Problem, domain: Domain, *, kind: str = NOT_EQUIVALENT,
            is_placeholder: bool = False, strict: bool = False,
            anchored_objects: Iterable[str] = (), unsolvable: UnsolvableReason | None = None,
            deadline: Deadline | None = None) -> Explanation:
    """Explain how prediction ``b`` differs from ground truth ``a`` (see the module docstring).

    ``kind``: the verdict being explained; ``strict``: placeholder mode with the
    reachable-goal-states semantics; ``unsolvable``: the reason :func:`unsolvable_reason` found.
    Past ``deadline`` (the item's) or the time limit in force the explanation stops
    with ``complete=False`` and what it has.
    """
    anchors = frozenset(anchored_objects)
    mode = (STRICT_PLACEHOLDER if strict else PLACEHOLDER) if is_placeholder else IDENTITY
    builder = _Builder(a, b, domain, anchors, deadline)
    budget = SearchBudget(None, deadline)
    try:
        goal_a, goal_b = _goals(domain, a, b)
        if mode == PLACEHOLDER:
            explanation = _placeholder(builder, goal_a, goal_b, budget)
        else:
            explanation = _joint(builder, goal_a, goal_b, budget)
    except ResourceLimitError as err:
        return Explanation(kind, mode, tuple(sorted(anchors)),
                           unsolvable=None if unsolvable is None else unsolvable.to_dict(),
                           complete=False, categories=base_categories(kind),
                           summary=f"explanation cut short: {err}")
    if unsolvable is not None:
        m = explanation.renaming
        explanation = replace(explanation, unsolvable=unsolvable.to_dict(
            lambda x: (x[0], *(builder.name(y, m) for y in x[1:]))))
    lost = sorted(anchors - set(a.objects))
    explanation = replace(explanation, kind=kind, mode=mode, anchored=tuple(sorted(anchors)),
                          unrepairable=(f"anchored object(s) {', '.join(lost)} missing from the "
                                        "ground truth") if lost else None)
    if kind == NOT_EQUIVALENT and mode == IDENTITY and explanation.goal and not (
            explanation.init or explanation.objects) and goal_a.basis == FULLY_SPECIFIED:
        misuse = not _nonzero(a, b, ((GOAL, goal_a.positive),), ((GOAL, goal_b.positive),),
                              anchors, budget)
    else:
        misuse = False
    explanation = replace(explanation, categories=categorise(explanation, misuse))
    return replace(explanation, summary=summarise(explanation))


def _joint(builder: _Builder, goal_a: _Goal, goal_b: _Goal, budget: SearchBudget) -> Explanation:
    a, b = builder.a, builder.b
    scenes_a = ((INIT, a.init), (GOAL, goal_a.positive), (GOAL_FALSE, goal_a.negative))
    scenes_b = ((INIT, b.init), (GOAL, goal_b.positive), (GOAL_FALSE, goal_b.negative))
    seeds = _seeds(a, b, ((INIT, a.init),), ((INIT, b.init),), builder.anchors,
                   builder.deadline)
    nonzero = goal_a.basis == goal_b.basis and _nonzero(a, b, scenes_a, scenes_b,
                                                        builder.anchors, budget)
    # Initial-state differences count first: a goal difference never buys an init difference.
    init_weight = 1 + sum(len(x) for _, x in scenes_a[1:]) + sum(len(x) for _, x in scenes_b[1:])
    found = builder.search(b.objects, scenes_a, scenes_b, nonzero, seeds, {INIT: init_weight})
    return _assemble(builder, found, found.mapping, goal_a, goal_b, optimal=found.optimal)


def _assemble(builder: _Builder, init: Renaming, goal_mapping: Mapping[str, str], goal_a: _Goal,
              goal_b: _Goal, **fields: Any) -> Explanation:
    """The explanation of the differences under ``init`` (objects, initial state) and
    ``goal_mapping`` (goal)."""
    a, b, m = builder.a, builder.b, init.mapping
    return Explanation(
        NOT_EQUIVALENT, renaming=dict(sorted(m.items())),
        objects=Differences(init.missing, tuple(builder.name(o, m) for o in init.extra)),
        missing_types={o: a.type_of[o] for o in init.missing},
        init=builder.differences(a.init, b.init, m),
        goal=builder.differences(goal_a.positive, goal_b.positive, goal_mapping, a.goal, b.goal),
        goal_false=builder.differences(goal_a.negative, goal_b.negative, goal_mapping),
        goal_basis=goal_b.basis, complete=not _late(builder.deadline), **fields)


def _placeholder(builder: _Builder, goal_a: _Goal, goal_b: _Goal,
                 budget: SearchBudget) -> Explanation:
    """Init and goal under separate renamings, when that is a certificate; else one renaming.

    Separate renamings are a certificate only if the repaired goal, written over the repaired
    initial state, is its own fully specified goal (reachable, nothing more implied); that is
    checked, and where it fails (or a goal is unreachable, so only goals as written compare)
    one renaming for both is used, whose repair is the ground truth renamed.
    """
    if goal_b.basis != FULLY_SPECIFIED:
        return _joint(builder, goal_a, goal_b, budget)
    separate = _separate(builder, goal_a, goal_b, budget)
    try:
        repaired = apply_explanation(builder.domain, builder.b, separate)
    except CertificateError:
        return _joint(builder, goal_a, goal_b, budget)
    goal = _goal(builder.domain, repaired)
    if goal.basis == FULLY_SPECIFIED and goal.positive == repaired.goal and (
            goal.negative == repaired.negative_goal or goal.positive_only):
        return separate
    return _joint(builder, goal_a, goal_b, budget)


def _separate(builder: _Builder, goal_a: _Goal, goal_b: _Goal,
              budget: SearchBudget) -> Explanation:
    a, b = builder.a, builder.b
    init_a, init_b = ((INIT, a.init),), ((INIT, b.init),)
    first = builder.search(b.objects, init_a, init_b, _nonzero(a, b, init_a, init_b,
                                                              builder.anchors, budget),
                           _seeds(a, b, init_a, init_b, builder.anchors,
                                  builder.deadline))
    scenes_a = ((GOAL, goal_a.positive), (GOAL_FALSE, goal_a.negative))
    scenes_b = ((GOAL, goal_b.positive), (GOAL_FALSE, goal_b.negative))
    # The goal renaming matches the objects the init renaming matched (one object set), so its
    # leftovers are the init renaming's: the missing ones get the same fresh objects.
    matched_b = [o for o in b.objects if o in first.mapping]
    nonzero = goal_a.basis == goal_b.basis and not first.missing and not first.extra and (
        _nonzero(a, b, scenes_a, scenes_b, builder.anchors, budget))
    second = builder.search(matched_b, scenes_a, scenes_b, nonzero,
                            _seeds(a, b, scenes_a, scenes_b, builder.anchors,
                                   builder.deadline))
    return _assemble(builder, first, second.mapping, goal_a, goal_b,
                     optimal=first.optimal and second.optimal,
                     goal_renaming=dict(sorted(second.mapping.items())),
                     goal_missing_as=_pair_leftovers(a, second.missing, first.missing))


def _pair_leftovers(a: Problem, goal_missing: Iterable[str],
                    init_missing: Iterable[str]) -> dict[str, str]:
    """The ground-truth objects the goal renaming left over, each paired with one the init
    renaming left over, type by type: both stand for the same object added to the prediction."""
    pools: dict[str, list[str]] = {}
    for o in sorted(init_missing):
        pools.setdefault(a.type_of[o], []).append(o)
    return {o: pools[a.type_of[o]].pop(0) for o in sorted(goal_missing)}


def _late(deadline: Deadline | None) -> bool:
    return deadline is not None and deadline.expired()


# -- the certificate ---------------------------------------------------------------------------

class CertificateError(ValueError):
    """An explanation that does not fit the prediction it claims to explain."""


def _parse_atom(text: str) -> Atom:
    if not (text.startswith("(") and text.endswith(")")):
        raise CertificateError(f"not an atom: {text!r}")
    return tuple(text[1:-1].split())


def apply_explanation(domain: Domain, prediction: Problem,
                      explanation: Explanation | Mapping[str, Any]) -> Problem:
    """The prediction with the explanation's differences undone, in the prediction's names.

    Extra objects and facts are removed, missing ones added (a missing object gets its
    ground-truth name, suffixed if the prediction already uses it); the goal becomes the
    prediction's fully specified goal (or goal as written, per ``goal_basis``) with the goal
    differences undone.  Grading the result against the ground truth must say "equivalent";
    :class:`CertificateError` when a difference does not fit (an extra fact the prediction
    lacks, a missing one it has).
    """
    e = explanation if isinstance(explanation, Explanation) else Explanation.from_dict(explanation)
    if e.goal_basis == FORMULA or e.unrepairable:
        raise CertificateError(e.unrepairable or "goal formulas are not itemised")
    used = set(prediction.objects) - {_own(o) for o in e.objects.extra}
    fresh: dict[str, str] = {}
    for gt_object in e.objects.missing:
        name = gt_object
        while name in used or name in fresh.values():
            name += "_"
        fresh[gt_object] = name
    gt_names = set(e.renaming.values()) | set(e.objects.missing)

    def translate(mapping: Mapping[str, str], leftovers: Mapping[str, str] | None = None):
        # A ground-truth object the init renaming left over may be matched by the goal
        # renaming (placeholder mode): the mapping wins over the fresh object.
        inverse = fresh | {g: p for p, g in mapping.items()}
        inverse |= {g: fresh[o] for g, o in (leftovers or {}).items()}

        def one(atom_text: str) -> Atom:
            atom = _parse_atom(atom_text)
            return (atom[0], *(inverse[x] if x in gt_names else _own(x) for x in atom[1:]))
        return one

    def undo(base: frozenset[Atom], diff: Differences, one) -> frozenset[Atom]:
        extra = {one(x) for x in diff.extra}
        missing = {one(x) for x in diff.missing}
        if not extra <= base or missing & base:
            raise CertificateError(f"differences do not fit: extra {sorted(extra - base)}, "
                                   f"missing {sorted(missing & base)}")
        return (base - extra) | missing

    init = undo(prediction.init, e.init, translate(e.renaming))
    goal_of = (translate(e.renaming) if e.goal_renaming is None
               else translate(e.goal_renaming, e.goal_missing_as))
    if e.goal_basis == AS_WRITTEN:
        basis = _Goal(prediction.goal, prediction.negative_goal, AS_WRITTEN, False)
    else:
        basis = _goal(domain, prediction)
        if basis.basis != e.goal_basis:
            raise CertificateError(f"the prediction's goal is {basis.basis}, the "
                                   f"explanation's {e.goal_basis}")
    goal = undo(basis.positive, e.goal, goal_of)
    negative = undo(basis.negative, e.goal_false, goal_of)
    extra_objects = {_own(o) for o in e.objects.extra}
    kept = [(o, t) for o, t in zip(prediction.objects, prediction.object_types, strict=True)
            if o not in extra_objects]
    kept += [(fresh[o], e.missing_types[o]) for o in e.objects.missing]
    return replace(prediction, objects=tuple(o for o, _ in kept),
                   object_types=tuple(t for _, t in kept), init=init, goal=goal,
                   negative_goal=negative, goal_formula=None)


def _own(name: str) -> str:
    return name[len(PRED_PREFIX):] if name.startswith(PRED_PREFIX) else name
