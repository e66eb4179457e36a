"""The renaming of objects under which two problems differ least: branch and bound, bounded.

An explanation of "not equivalent" lists the facts one problem has and the other lacks *under
some renaming* of the prediction's objects into the ground truth's.  A bad renaming makes a
one-fact slip look like a rewrite, so the renaming minimises the number of differing facts
``|A ^ rename(B)|`` over all scenes at once (init, fully specified goal, ...).

Objects are matched within their type, as many as both sides have (matching a leftover object
of the prediction to a leftover one of the ground truth never adds a difference: its facts were
all differences before).  Ghost objects pad the smaller side of each type, so a renaming is a
bijection per type; a prediction object mapped to a ghost is *extra*, a ground-truth object
mapped from one is *missing*.  Anchored names map to themselves.

Search: seeds (same names; the isomorphisms of a graph both sides share) improved by swapping
two objects' images, then a depth-first branch and bound over the prediction's objects.  Its
bound is exact for the facts whose objects are all assigned, and for the rest counts facts per
(scene, predicate): no renaming can match more of them than the smaller count.  Every difference
count of a (scene, predicate) has the parity of its two counts, so when all counts agree and
the caller knows no renaming gives zero differences (the grader said "not equivalent") the bound
is two.  Scenes may weigh differently: explanations count initial-state differences first.
When the search ends within its node budget and deadline the renaming is proven optimal;
otherwise it is the best found (``optimal=False``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..limits import Deadline

#: Branch-and-bound nodes (one object tried in one place) before settling for the best
#: renaming found.
MAX_NODES = 20_000
#: Swaps the hill climbing tries (over all seeds) before settling for what it has: with the
#: node budget, a bound on the work that does not grow with the time limit, so a hostile answer
#: with thousands of objects is explained in about a second, best effort (``optimal=False``).
MAX_SWAPS = 20_000
#: Prediction objects the branch and bound assigns on one path (it recurses once per object):
#: deeper, it settles for the best renaming found, as past MAX_NODES.
MAX_DEPTH = 400

#: A tagged atom: ``(scene, predicate, arg, ...)``.
Tagged = tuple[str, ...]


@dataclass(frozen=True)
class Renaming:
    """``mapping``: prediction object -> ground-truth object (matched objects only);
    ``extra`` / ``missing``: objects without a counterpart; ``cost``: differing facts under it;
    ``optimal``: no renaming has fewer (proven by the search)."""

    mapping: dict[str, str]
    extra: tuple[str, ...]
    missing: tuple[str, ...]
    cost: int
    optimal: bool
    nodes: int


class _Ghost(str):
    """A padding object: never equal to a real name (it is a str subclass only for sorting)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Ghost) and str.__eq__(self, other)

    def __hash__(self) -> int:
        return hash(("ghost", str(self)))


class _Problem:
    """One side: objects by type (padded with ghosts) and tagged atoms indexed by object."""

    def __init__(self, objects: Sequence[str], types: Sequence[str], atoms: Iterable[Tagged]):
        self.atoms = frozenset(atoms)
        self.by_type: dict[str, list[str]] = {}
        for o, t in zip(objects, types, strict=True):
            self.by_type.setdefault(t, []).append(o)
        self.touching: dict[str, list[Tagged]] = {o: [] for o in objects}
        for atom in self.atoms:
            for arg in set(atom[2:]):
                self.touching[arg].append(atom)

    def ghost(self, t: str, side: str) -> None:
        mine = self.by_type.setdefault(t, [])
        ghost = _Ghost(f"{side}{t}#{len(self.touching)}")
        mine.append(ghost)
        self.touching[ghost] = []

    def pad(self, other: _Problem, side: str) -> None:
        for t, theirs in other.by_type.items():
            for _ in range(len(theirs) - len(self.by_type.get(t, ()))):
                self.ghost(t, side)


def _key(atom: Tagged) -> tuple[str, str]:
    return atom[0], atom[1]


class _Search:
    def __init__(self, a: _Problem, b: _Problem, anchors: frozenset[str], deadline: Deadline | None,
                 max_nodes: int, weights: Mapping[str, int], max_swaps: int = MAX_SWAPS) -> None:
        self.a, self.b = a, b
        self.weights = weights
        self.fixed = {o: o for t, objs in b.by_type.items() for o in objs
                      if o in anchors and o in a.by_type.get(t, ())}
        # An anchored name on one side only has no counterpart: pair it with a ghost.
        self.type_of_b = {o: t for t, objs in b.by_type.items() for o in objs}
        self.deadline, self.max_nodes, self.nodes = deadline, max_nodes, 0
        self.max_swaps, self.swaps = max_swaps, 0
        self.anchors = anchors
        self.size = sum(map(self.w, a.atoms)) + sum(map(self.w, b.atoms))

    def w(self, atom: Tagged) -> int:
        """What one differing fact of ``atom``'s scene costs."""
        return self.weights.get(atom[0], 1)

    # -- evaluation ------------------------------------------------------------------------
    def matches(self, m: Mapping[str, str]) -> int:
        return sum(self.w(atom) for atom in self.b.atoms if _rename(atom, m) in self.a.atoms)

    def cost(self, m: Mapping[str, str]) -> int:
        return self.size - 2 * self.matches(m)

    def allowed(self, p: str, g: str) -> bool:
        """Whether ``p`` may map to ``g``: anchors only to themselves (or between ghosts)."""
        if p in self.fixed or g in self.fixed.values():
            return self.fixed.get(p) == g
        p_anchor = p in self.anchors and not isinstance(p, _Ghost)
        g_anchor = g in self.anchors and not isinstance(g, _Ghost)
        return not (p_anchor and not isinstance(g, _Ghost)) and not (
            g_anchor and not isinstance(p, _Ghost))

    # -- seeds and local search --------------------------------------------------------------
    def complete(self, partial: Mapping[str, str]) -> dict[str, str]:
        """``partial`` extended to a bijection per type that every anchor allows, leftovers
        paired in declaration order (linear for the thousands of objects hostile answers may
        declare); :class:`_NoCompletion` when ``partial`` left an anchor no partner."""
        m: dict[str, str] = {}
        for t, bs in self.b.by_type.items():
            targets = self.a.by_type[t]
            allowed_targets, used = set(targets), set()
            for p in bs:
                wanted = partial.get(p)
                if wanted is not None and wanted in allowed_targets and wanted not in used and (
                        self.allowed(p, wanted)):
                    m[p] = wanted
                    used.add(wanted)
            self._pair([p for p in bs if p not in m], [g for g in targets if g not in used], m)
        return m

    def _pair(self, ps: list[str], gs: list[str], m: dict[str, str]) -> None:
        """Pair ``ps`` with as many ``gs`` into ``m``: anchored names first (a name on both sides
        with itself, any other with a ghost), then the rest in order, which any pairing allows."""
        taken: set[str] = set()
        for p in ps:
            if p in self.fixed:
                m[p] = self.fixed[p]
                taken.add(m[p])
        ghost_gs = [g for g in gs if isinstance(g, _Ghost)]
        ghost_ps = [p for p in ps if isinstance(p, _Ghost)]
        anchored_ps = [p for p in ps if p not in m and p in self.anchors and not isinstance(p, _Ghost)]
        anchored_gs = [g for g in gs
                       if g not in taken and g in self.anchors and not isinstance(g, _Ghost)]
        if len(anchored_ps) > len(ghost_gs) or len(anchored_gs) > len(ghost_ps):
            raise _NoCompletion
        for p, g in [*zip(anchored_ps, ghost_gs, strict=False), *zip(ghost_ps, anchored_gs, strict=False)]:
            m[p] = g
            taken.add(g)
        rest = iter([g for g in gs if g not in taken])
        for p in ps:
            if p not in m:
                m[p] = next(rest)

    def improve(self, m: dict[str, str]) -> dict[str, str]:
        """Swap two objects' images while that removes differences (hill climbing).

        Only swaps that move an image in some fact can match a fact (one of ``p``, ``q`` maps
        to a ground-truth object in some fact), so a pass costs (such objects) x (objects),
        not objects squared: a hostile answer with thousands of objects against a small
        ground truth is improved in time linear in its size."""
        improved = True
        while improved:
            improved = False
            for bs in self.b.by_type.values():
                live = [p for p in bs if self.a.touching[m[p]]]
                for p in live:
                    for q in bs:
                        if q == p or (self.a.touching[m[q]] and str(q) < str(p)):
                            continue  # a pair of two live objects is tried once
                        self.tick()
                        self.swaps += 1
                        if self.swaps > self.max_swaps:
                            return m
                        if self.swap_gain(m, p, q) > 0:
                            m[p], m[q] = m[q], m[p]
                            improved = True
        return m

    def swap_gain(self, m: dict[str, str], p: str, q: str) -> int:
        gp, gq = m[p], m[q]
        if not (self.allowed(p, gq) and self.allowed(q, gp)):
            return 0
        touched = set(self.b.touching[p]) | set(self.b.touching[q])
        if not touched and not (self.a.touching[gp] or self.a.touching[gq]):
            return 0
        before = sum(self.w(x) for x in touched if _rename(x, m) in self.a.atoms)
        m[p], m[q] = gq, gp
        after = sum(self.w(x) for x in touched if _rename(x, m) in self.a.atoms)
        m[p], m[q] = gp, gq
        return after - before

    def tick(self) -> None:
        self.nodes += 1
        if self.deadline is not None and not self.nodes & 0xFF and self.deadline.expired():
            raise _OutOfTime

    # -- branch and bound ---------------------------------------------------------------------
    def prove(self, best: dict[str, str], best_cost: int, floor: int) -> tuple[dict[str, str], int, bool]:
        """Depth-first branch and bound from the incumbent ``best``; whether it finished."""
        order = self._order()
        rem_b = {x: len(set(x[2:])) for x in self.b.atoms}
        rem_a = {x: len(set(x[2:])) for x in self.a.atoms}
        undet_b = Counter(_key(x) for x in self.b.atoms)
        avail_a = Counter(_key(x) for x in self.a.atoms)
        for x, r in rem_a.items():  # facts over no object are fixed on both sides
            if r == 0:
                avail_a[_key(x)] -= 1
        matched = 0
        for x, r in rem_b.items():
            if r == 0:
                undet_b[_key(x)] -= 1
                matched += self.w(x) if x in self.a.atoms else 0
        keys = set(undet_b) | set(avail_a)
        m: dict[str, str] = {}
        used: set[str] = set()
        state = _Incumbent(dict(best), best_cost)
        limit = self.nodes + self.max_nodes

        def bound(matched: int) -> int:
            future = sum(self.weights.get(k[0], 1) * min(undet_b[k], avail_a[k]) for k in keys)
            return max(self.size - 2 * (matched + future), floor)

        def assign(p: str, g: str) -> tuple[int, list, list]:
            gained = 0
            done_b, done_a = [], []
            for x in self.b.touching[p]:
                rem_b[x] -= 1
                if rem_b[x] == 0:
                    undet_b[_key(x)] -= 1
                    done_b.append(x)
                    gained += self.w(x) if _rename(x, m) in self.a.atoms else 0
            for x in self.a.touching[g]:
                rem_a[x] -= 1
                if rem_a[x] == 0:
                    avail_a[_key(x)] -= 1
                    done_a.append(x)
            return gained, done_b, done_a

        def undo(p: str, g: str, done_b: list, done_a: list) -> None:
            for x in self.b.touching[p]:
                rem_b[x] += 1
            for x in done_b:
                undet_b[_key(x)] += 1
            for x in self.a.touching[g]:
                rem_a[x] += 1
            for x in done_a:
                avail_a[_key(x)] += 1

        # Ground-truth objects in no fact (ghosts included) and not anchored are
        # interchangeable: a branch tries one of them (the next unused one), not each.
        special = {t: [g for g in objs if self.a.touching[g] or g in self.anchors]
                   for t, objs in self.a.by_type.items()}
        plain = {t: [g for g in reversed(objs) if not (self.a.touching[g] or g in self.anchors)]
                 for t, objs in self.a.by_type.items()}
        open_special = Counter({t: len(objs) for t, objs in special.items()})
        # Once every type still to assign has only such objects left, no fact can match any
        # more: the assignment so far is a leaf.
        types_after = [frozenset[str]()]
        for _, t in reversed(order):
            types_after.append(types_after[-1] | {t})
        types_after.reverse()

        def visit(depth: int, matched: int) -> None:
            if state.cost <= floor:
                return
            if depth > MAX_DEPTH:
                raise _OutOfTime
            if not any(open_special[t] for t in types_after[depth]):
                cost = self.size - 2 * matched
                if cost < state.cost:
                    try:
                        state.best, state.cost = self.complete(m), cost
                    except _NoCompletion:  # these choices left an anchor without a partner
                        pass
                return
            p, t = order[depth]
            first = state.best.get(p)
            candidates = sorted((g for g in special[t] if g not in used),
                                key=lambda g: (g != first, str(g)))
            tries = [(g, False) for g in candidates] + [(g, True) for g in plain[t][-1:]]
            for g, is_plain in tries:
                if not self.allowed(p, g):
                    continue
                self.tick()  # a node is one object tried in one place
                if self.nodes > limit:
                    raise _OutOfTime
                if is_plain:
                    plain[t].pop()
                else:
                    open_special[t] -= 1
                m[p] = g
                used.add(g)
                gained, done_b, done_a = assign(p, g)
                if bound(matched + gained) < state.cost:
                    visit(depth + 1, matched + gained)
                undo(p, g, done_b, done_a)
                used.discard(g)
                del m[p]
                if is_plain:
                    plain[t].append(g)
                else:
                    open_special[t] += 1

        try:
            visit(0, matched)
        except _OutOfTime:
            return state.best, state.cost, state.cost <= floor
        return state.best, state.cost, True

    def _order(self) -> list[tuple[str, str]]:
        """Prediction objects in some fact, most facts first, then their neighbours (facts
        close early).  Objects in no fact (ghosts included) add no match wherever they go: the
        leaves pair them with the leftovers."""
        degree = {o: len(xs) for o, xs in self.b.touching.items() if xs}
        order: list[str] = []
        seen: set[str] = set()
        for start in sorted(degree, key=lambda o: (-degree[o], str(o))):
            if start in seen:
                continue
            frontier = [start]
            seen.add(start)
            while frontier:
                o = frontier.pop(0)
                order.append(o)
                nbrs = {y for x in self.b.touching[o] for y in x[2:]} - seen
                for y in sorted(nbrs, key=lambda y: (-degree[y], str(y))):
                    seen.add(y)
                    frontier.append(y)
        return [(o, self.type_of_b[o]) for o in order]


@dataclass
class _Incumbent:
    """The best renaming the branch and bound has found, and its cost."""

    best: dict[str, str]
    cost: int


class _OutOfTime(Exception):
    """The node budget or the deadline ran out: keep the best renaming found."""


class _NoCompletion(Exception):
    """A partial renaming that no renaming the anchors allow extends (a search branch that
    gave an anchor's only possible partners away)."""


def _rename(atom: Tagged, m: Mapping[str, str]) -> Tagged:
    return atom[:2] + tuple(m.get(x, x) for x in atom[2:])


def best_renaming(objects_a: Sequence[str], types_a: Sequence[str], atoms_a: Iterable[Tagged],
                  objects_b: Sequence[str], types_b: Sequence[str], atoms_b: Iterable[Tagged], *,
                  anchors: frozenset[str] = frozenset(), seeds: Iterable[Mapping[str, str]] = (),
                  nonzero: bool = False, deadline: Deadline | None = None,
                  max_nodes: int = MAX_NODES, weights: Mapping[str, int] | None = None) -> Renaming:
    """The renaming of ``b``'s objects into ``a``'s with the fewest differing tagged atoms.

    ``seeds``: candidate renamings (partial is fine) to start from; ``nonzero``: the caller
    knows no renaming gives zero differences; ``weights``: the cost of a differing fact per
    scene (default 1; a large weight makes that scene's differences count first).  Past
    ``deadline`` or ``max_nodes`` the best renaming found is returned with ``optimal=False`` —
    never an exception, so an explanation can always say what it found.
    """
    a, b = _Problem(objects_a, types_a, atoms_a), _Problem(objects_b, types_b, atoms_b)
    # An anchored name on one side only (or of another type there) has no counterpart: a
    # ghost on the other side takes it.
    for mine, theirs, side in ((a, b, "extra:"), (b, a, "missing:")):
        for t, objs in mine.by_type.items():
            for o in objs:
                if o in anchors and o not in theirs.by_type.get(t, ()):
                    theirs.ghost(t, side)
    a.pad(b, "missing:")
    b.pad(a, "extra:")
    weights = dict(weights or {})
    search = _Search(a, b, anchors, deadline, max_nodes, weights)
    floor = _floor(a, b, nonzero, weights)
    names = {o: o for o in objects_b}
    best = search.complete(names)  # linear: there is a renaming however soon time runs out
    best_cost = search.cost(best)
    try:
        for seed in [names, *seeds]:
            m = search.improve(search.complete(seed))
            cost = search.cost(m)
            if cost < best_cost:
                best, best_cost = m, cost
            if best_cost <= floor:
                break
        best, best_cost, optimal = search.prove(best, best_cost, floor)
    except _OutOfTime:
        optimal = best_cost <= floor
    return _result(best, best_cost, optimal, search.nodes)


def _floor(a: _Problem, b: _Problem, nonzero: bool, weights: Mapping[str, int]) -> int:
    """A lower bound on every renaming's cost: per (scene, predicate) count differences; when
    they all agree and zero is ruled out, two facts of the cheapest scene (equal counts make
    every key's difference even)."""
    ka, kb = Counter(map(_key, a.atoms)), Counter(map(_key, b.atoms))
    keys = set(ka) | set(kb)
    floor = sum(weights.get(k[0], 1) * abs(ka[k] - kb[k]) for k in keys)
    if nonzero and floor == 0 and keys:
        floor = 2 * min(weights.get(k[0], 1) for k in keys)
    return floor


def _result(m: dict[str, str], cost: int, optimal: bool, nodes: int) -> Renaming:
    mapping = {p: g for p, g in m.items() if not isinstance(p, _Ghost) and not isinstance(g, _Ghost)}
    extra = tuple(sorted(p for p, g in m.items() if isinstance(g, _Ghost) and not isinstance(p, _Ghost)))
    missing = tuple(sorted(g for p, g in m.items() if isinstance(p, _Ghost) and not isinstance(g, _Ghost)))
    return Renaming(mapping, extra, missing, cost, optimal, nodes)
