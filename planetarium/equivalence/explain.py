"""Why is it wrong?  A checked explanation of a grading verdict.

An :class:`Explanation` names the renaming of the prediction's objects into the ground truth's
(:mod:`planetarium.equivalence.renaming`: the fewest differences — initial-state differences
counted first, so a goal difference never hides behind a renaming that breaks a matching
initial state — proven optimal when a bounded search can), and under it the differences:
objects with no counterpart, initial facts, and goal literals.  The goal differences are those
of the goals *as written* where that lists no more of them than the *fully specified* goals
(the goals the grader compares) and its repair is still a certificate (checked by the grader's
own comparison), else of the fully specified goals (for an unsolvable prediction, which has
none, always as written).  So what an answer wrote wrong is named as it wrote it — a negative
literal as ``(not ...)`` — rather than as the facts its goal only implies.  Neither side lists
a goal literal its own initial state decides (a fact true in every reachable state, e.g. a
static fact, or a static fact's negation that the initial state lacks): a difference there is
an initial-state difference, listed once, under ``init``.

Atoms are written in the ground truth's names; an object of the prediction with no
counterpart keeps its own name, unless a ground-truth object has that name too: then it is
written ``pred:NAME`` (``pred:pred:NAME``... while that is taken too) and ``extra_as`` records
it, so every name is exactly one object's, whatever characters the reader accepted in names.

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

Cost follows difficulty: the renaming search is bounded in work (``renaming.MAX_SWAPS``,
``MAX_NODES``), not only by the time limit, so an obvious "no" (thousands of objects against a
handful) is explained in about a second — complete (a certificate), its renaming marked best
effort where not proven — instead of spending the whole limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import rustworkx as rx

from ..domains.base import Domain
from ..errors import ResourceLimitError, UnsupportedFeatureError
from ..graph import GOAL, GOAL_FALSE, INIT, SearchBudget, build_graph, isomorphic
from ..limits import Deadline, check_deadline, deadline_for, required
from ..pddl.domain import Atom
from ..pddl.problem import Problem
from ..pddl.writer import atom_to_pddl
from ..strips.symmetry import domain_constants
from . import PAPER, REACHABLE_GOAL_STATES, Limits, compare
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

#: Named scenes of one problem: ``(scene, its atoms)``.
Scenes = Sequence[tuple[str, Iterable[Atom]]]


def _tag(scene: str, atoms: Iterable[Atom]) -> list[Tagged]:
    return [(scene, *a) for a in atoms]


@dataclass(frozen=True)
class _Goal:
    """One side's goal as compared: true facts, false facts, which goal that is, and whether
    the false facts add nothing (the goal states are the reachable states with the true ones;
    then none are kept: a positive-only goal has no false facts to compare)."""

    positive: frozenset[Atom]
    negative: frozenset[Atom]
    basis: str
    positive_only: bool = True
    #: Facts false in every goal state, as far as known (kept for a positive-only goal too):
    #: only to tell which literals the other side wrote this goal implies.
    false: frozenset[Atom] = frozenset()


@dataclass(frozen=True)
class _Views:
    """One problem's goal both ways an explanation may itemise it: ``full`` (fully specified
    where a goal state is reachable and the closure is decided, else as written or a formula)
    and ``written``; both without the literals its initial state alone decides."""

    full: _Goal
    written: _Goal
    #: The facts true in every reachable state that the views leave out.
    always: frozenset[Atom]


#: Seconds an explanation may spend fully specifying a goal by state-space search (an initial
#: state no closed form covers, e.g. a block resting nowhere); past it, goals as written are
#: compared.  The grader never needs that search for such answers: their initial states differ.
SEARCH_S = 0.25


def _without_goal(p: Problem) -> Problem:
    return replace(p, goal=frozenset(), negative_goal=frozenset(), goal_formula=None)


@lru_cache(maxsize=16)
def _views(domain: Domain, p: Problem) -> _Views:
    """The goals compared for ``p`` (cached: explaining and checking the repair both need the
    prediction's, and a malformed initial state makes it a state-space search).

    A goal literal the initial state alone decides adds nothing: a fact true in every reachable
    state (a static fact, or one no action can change from this state, found by fully
    specifying the empty goal where a closed form covers the state), or a static fact the
    initial state lacks, negated.  Leaving them out of both views makes a difference in them an
    initial-state difference only, as it is (a repaired initial state implies them again).
    """
    static = domain.definition.static_predicates
    never = frozenset(x for x in p.negative_goal if x[0] in static and x not in p.init)
    always = domain.static_facts(p)
    full: _Goal | None = None
    try:
        # the item's deadline is in force (explain applies it); a search gets SEARCH_S of it
        covered = domain.closed_form_covers(p)
        with nullcontext() if covered else deadline_for(SEARCH_S).applied():
            if covered:
                always |= domain.fully_specify(_without_goal(p)) or frozenset()
            full = _fully_specified(domain, p)
    except ResourceLimitError:
        check_deadline("explanation")  # the caller's own limit, not SEARCH_S: cut short
    written = _Goal(p.goal - always, p.negative_goal - never, AS_WRITTEN, False)
    if full is None:
        full = written
    elif full.basis == FULLY_SPECIFIED:
        full = replace(full, positive=full.positive - always)
    return _Views(full, written, always)


def _fully_specified(domain: Domain, p: Problem) -> _Goal | None:
    """``p``'s fully specified goal (its formula, unitemised), ``None`` with no reachable goal
    state."""
    if p.goal_formula is not None:
        return _Goal(frozenset(), frozenset(), FORMULA, False)
    if p.has_plain_goal:
        full = domain.fully_specify(p)
        return None if full is None else _Goal(full, frozenset(), FULLY_SPECIFIED)
    closure = literal_closure(domain, p)
    if closure is None:
        return None
    negative = frozenset() if closure.positive_only else closure.negative
    return _Goal(closure.positive, negative, FULLY_SPECIFIED, closure.positive_only,
                 closure.negative)


def _goal(domain: Domain, p: Problem) -> _Goal:
    return _views(domain, p).full


def _goals(domain: Domain, a: Problem, b: Problem) -> tuple[_Goal, _Goal]:
    goal_a, goal_b = _goal(domain, a), _goal(domain, b)
    if FORMULA in (goal_a.basis, goal_b.basis):
        return (_Goal(frozenset(), frozenset(), FORMULA, False),
                _Goal(frozenset(), frozenset(), FORMULA, False))
    if AS_WRITTEN in (goal_a.basis, goal_b.basis):
        # No reachable goal state on one side, so no fully specified goal: compare the goals
        # as written (removing these differences still gives the ground truth's goal states).
        return _views(domain, a).written, _views(domain, b).written
    return goal_a, goal_b


def _seeds(a: Problem, b: Problem, scenes_a: Scenes, scenes_b: Scenes, anchors: frozenset[str],
           deadline: Deadline | None,
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
                 deadline: Deadline | None, mode: str = IDENTITY) -> None:
        self.a, self.b, self.domain = a, b, domain
        self.anchors, self.deadline, self.mode = anchors, deadline, mode
        self.written_as = _written_names(a.objects, b.objects)

    def search(self, objects_b: Iterable[str], scenes_a: Scenes, scenes_b: Scenes, nonzero: bool,
               seeds: Iterable[Mapping[str, str]] = (),
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
        return self.written_as.get(pred_object, pred_object)

    def differences(self, atoms_a: frozenset[Atom], atoms_b: frozenset[Atom],
                    mapping: Mapping[str, str], written_a: frozenset[Atom] = frozenset(),
                    written_b: frozenset[Atom] = frozenset(), implied_a: frozenset[Atom] = frozenset(),
                    implied_b: frozenset[Atom] = frozenset()) -> Differences:
        """``atoms_a`` against ``atoms_b`` renamed; facts a side wrote (``written_*``, e.g. the
        goal as written) are listed before the ones only implied, and facts the other side
        implies (``implied_*``) are no difference."""
        rename = lambda x: (x[0], *(self.name(y, mapping) for y in x[1:]))  # noqa: E731
        renamed = {rename(x) for x in atoms_b}
        return Differences(
            _sorted(set(atoms_a) - renamed - {rename(x) for x in implied_b}, written_a),
            _sorted(renamed - set(atoms_a) - implied_a, {rename(x) for x in written_b}))

    def accepts(self, problem: Problem, mode: str | None = None) -> bool:
        """Whether the grader's own comparison (in ``mode``, by default the explanation's)
        calls ``problem`` equivalent to the ground truth; ``False`` when it cannot tell in the
        time left (a check of a repair, never a verdict)."""
        mode = mode or self.mode
        try:
            return compare(self.a, problem, self.domain, is_placeholder=mode != IDENTITY,
                           placeholder_semantics=(REACHABLE_GOAL_STATES
                                                  if mode == STRICT_PLACEHOLDER else PAPER),
                           anchored_objects=self.anchors,
                           limits=Limits(self.deadline)).equivalent
        except (ResourceLimitError, UnsupportedFeatureError):
            return False


def _written_names(truth_objects: Iterable[str], answer_objects: Iterable[str]) -> dict[str, str]:
    """Answer object -> the name an explanation writes it under when it has no counterpart,
    for those whose own name a ground-truth object has: ``pred:`` prefixed, again while that
    name is any object's too.  Every name an explanation writes is then exactly one object's,
    whatever characters the reader accepted in names (``pred:b1`` included)."""
    truth = set(truth_objects)
    answer = list(answer_objects)
    taken = truth | set(answer)
    out: dict[str, str] = {}
    for o in answer:
        if o in truth:
            name = PRED_PREFIX + o
            while name in taken:
                name = PRED_PREFIX + name
            taken.add(name)
            out[o] = name
    return out


def _sorted(atoms: Iterable[Atom], first: Iterable[Atom] = ()) -> tuple[str, ...]:
    """Atoms as PDDL text: those in ``first``, then fewest arguments, then alphabetically."""
    first = set(first)
    return tuple(atom_to_pddl(x)
                 for x in sorted(atoms, key=lambda x: (x not in first, len(x), x)))


def _nonzero(a: Problem, b: Problem, scenes_a: Scenes, scenes_b: Scenes, anchors: frozenset[str],
             budget: SearchBudget) -> bool:
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
    Past ``deadline`` (the item's; ``None``: the one in force, and with neither
    :class:`~planetarium.limits.MissingDeadlineError`) the explanation stops with
    ``complete=False`` and what it has.  The deadline is in force while it runs: the hooks
    that take none (``fully_specify``, the closures) read it there.
    """
    with required("an explanation", deadline).applied() as in_force:
        return _explain(a, b, domain, kind, is_placeholder, strict, anchored_objects,
                        unsolvable, in_force)


def _explain(a: Problem, b: Problem, domain: Domain, kind: str, is_placeholder: bool,
             strict: bool, anchored_objects: Iterable[str], unsolvable: UnsolvableReason | None,
             deadline: Deadline) -> Explanation:
    """:func:`explain`, with ``deadline`` in force."""
    anchors = frozenset(anchored_objects)
    mode = (STRICT_PLACEHOLDER if strict else PLACEHOLDER) if is_placeholder else IDENTITY
    # the domain's constants stay put as in every verdict: a renaming that moved one could
    # explain away a difference in what the actions do (reported anchors stay the caller's)
    builder = _Builder(a, b, domain, anchors | domain_constants(domain.definition, a, b),
                       deadline, mode)
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
    lost = sorted(anchors - set(a.objects))
    explanation = replace(explanation, kind=kind, mode=mode, anchored=tuple(sorted(anchors)),
                          unrepairable=(f"anchored object(s) {', '.join(lost)} missing from the "
                                        "ground truth") if lost else None)
    # placeholder-misuse: the grader's placeholder mode would accept what identity mode refuses
    misuse = (kind == NOT_EQUIVALENT and mode == IDENTITY and goal_a.basis == FULLY_SPECIFIED
              and bool(explanation.goal or explanation.goal_false)
              and not (explanation.init or explanation.objects) and builder.accepts(b, PLACEHOLDER))
    if not lost:
        explanation = _as_written(builder, explanation)
    if unsolvable is not None:
        m = explanation.renaming
        explanation = replace(explanation, unsolvable=unsolvable.to_dict(
            lambda x: (x[0], *(builder.name(y, m) for y in x[1:]))))
    explanation = replace(explanation, categories=categorise(explanation, misuse))
    return replace(explanation, summary=summarise(explanation))


def _as_written(builder: _Builder, e: Explanation) -> Explanation:
    """``e`` with its goal differences itemised over the goals as written instead, when that
    lists no more of them and its repair is still a certificate (checked by the grader's own
    comparison): what the answer wrote, negative literals included, rather than facts its goal
    only implies.  Tried first without the literals one side wrote that the other's goal
    implies anyway (no mistake there), then with them."""
    if e.goal_basis != FULLY_SPECIFIED or not (e.goal or e.goal_false) or (
            _late(builder.deadline)):
        return e
    domain, a, b = builder.domain, builder.a, builder.b
    (full_a, written_a), (full_b, written_b) = (
        (views.full, views.written) for views in (_views(domain, a), _views(domain, b)))
    mapping = e.renaming if e.goal_renaming is None else e.goal_renaming
    for pruned in (True, False):
        none = frozenset[Atom]()
        goal = builder.differences(written_a.positive, written_b.positive, mapping,
                                   implied_a=full_a.positive if pruned else none,
                                   implied_b=full_b.positive if pruned else none)
        goal_false = builder.differences(written_a.negative, written_b.negative, mapping,
                                         implied_a=full_a.false if pruned else none,
                                         implied_b=full_b.false if pruned else none)
        if len(goal) + len(goal_false) > len(e.goal) + len(e.goal_false):
            continue
        candidate = replace(e, goal=goal, goal_false=goal_false, goal_basis=AS_WRITTEN)
        try:
            repaired = apply_explanation(domain, b, candidate)
        except CertificateError:
            continue
        if builder.accepts(repaired):
            return candidate
    return e


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
        extra_as={o: builder.written_as[o] for o in init.extra if o in builder.written_as},
        missing_types={o: a.type_of[o] for o in init.missing},
        init=builder.differences(a.init, b.init, m),
        goal=builder.differences(goal_a.positive, goal_b.positive, goal_mapping, a.goal, b.goal),
        goal_false=builder.differences(goal_a.negative, goal_b.negative, goal_mapping),
        goal_basis=goal_b.basis, complete=not _late(builder.deadline), **fields)


def _placeholder(builder: _Builder, goal_a: _Goal, goal_b: _Goal,
                 budget: SearchBudget) -> Explanation:
    """Init and goal under separate renamings, when that is a certificate; else one renaming.

    Separate renamings are not always a certificate (the repaired goal, over the repaired
    initial state, may imply more than it says); the grader's own comparison checks the
    repair, and where it fails (or a goal is unreachable, so only goals as written compare)
    one renaming for both is used, whose repair is the ground truth renamed.
    """
    if goal_b.basis != FULLY_SPECIFIED:
        return _joint(builder, goal_a, goal_b, budget)
    separate = _separate(builder, goal_a, goal_b, budget)
    try:
        repaired = apply_explanation(builder.domain, builder.b, separate)
    except CertificateError:
        return _joint(builder, goal_a, goal_b, budget)
    return separate if builder.accepts(repaired) else _joint(builder, goal_a, goal_b, budget)


def _separate(builder: _Builder, goal_a: _Goal, goal_b: _Goal,
              budget: SearchBudget) -> Explanation:
    a, b = builder.a, builder.b
    init_a, init_b = ((INIT, a.init),), ((INIT, b.init),)
    first = builder.search(b.objects, init_a, init_b, _nonzero(a, b, init_a, init_b,
                                                              builder.anchors, budget),
                           _seeds(a, b, init_a, init_b, builder.anchors,
                                  builder.deadline))
    # The goal renaming sees the whole fully specified goals (facts every reachable state has
    # included), as the grader's placeholder mode compares them; differences leave those out.
    always_a, always_b = _views(builder.domain, a).always, _views(builder.domain, b).always
    scenes_a = ((GOAL, goal_a.positive | always_a), (GOAL_FALSE, goal_a.negative))
    scenes_b = ((GOAL, goal_b.positive | always_b), (GOAL_FALSE, goal_b.negative))
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
    own = {written: o for o, written in e.extra_as.items()}  # names written for extra objects
    extra_objects = {own.get(o, o) for o in e.objects.extra}
    used = set(prediction.objects) - extra_objects
    fresh: dict[str, str] = {}
    for gt_object in e.objects.missing:
        name = gt_object
        while name in used or name in fresh.values():
            name += "_"
        fresh[gt_object] = name
    gt_names = set(e.renaming.values()) | set(e.objects.missing)

    def translate(mapping: Mapping[str, str],
                  leftovers: Mapping[str, str] | None = None) -> Callable[[str], Atom]:
        # A ground-truth object the init renaming left over may be matched by the goal
        # renaming (placeholder mode): the mapping wins over the fresh object.
        inverse = fresh | {g: p for p, g in mapping.items()}
        inverse |= {g: fresh[o] for g, o in (leftovers or {}).items()}

        def one(atom_text: str) -> Atom:
            atom = _parse_atom(atom_text)
            return (atom[0], *(inverse[x] if x in gt_names else own.get(x, x) for x in atom[1:]))
        return one

    def undo(base: frozenset[Atom], diff: Differences, one: Callable[[str], Atom]) -> frozenset[Atom]:
        extra = {one(x) for x in diff.extra}
        missing = {one(x) for x in diff.missing}
        if not extra <= base or missing & base:
            raise CertificateError(f"differences do not fit: extra {sorted(extra - base)}, "
                                   f"missing {sorted(missing & base)}")
        return (base - extra) | missing

    init = undo(prediction.init, e.init, translate(e.renaming))
    goal_of = (translate(e.renaming) if e.goal_renaming is None
               else translate(e.goal_renaming, e.goal_missing_as))
    views = _views(domain, prediction)
    basis = views.written if e.goal_basis == AS_WRITTEN else views.full
    if basis.basis != e.goal_basis:
        raise CertificateError(f"the prediction's goal is {basis.basis}, the "
                               f"explanation's {e.goal_basis}")
    goal = undo(basis.positive, e.goal, goal_of)
    negative = undo(basis.negative, e.goal_false, goal_of)
    if not extra_objects <= set(prediction.objects):
        raise CertificateError(f"extra objects the prediction lacks: "
                               f"{sorted(extra_objects - set(prediction.objects))}")
    kept = [(o, t) for o, t in zip(prediction.objects, prediction.object_types, strict=True)
            if o not in extra_objects]
    kept += [(fresh[o], e.missing_types[o]) for o in e.objects.missing]
    return replace(prediction, objects=tuple(o for o, _ in kept),
                   object_types=tuple(t for _, t in kept), init=init, goal=goal,
                   negative_goal=negative, goal_formula=None)
