"""Delete relaxation, reachability queries and optimal plan length over grounded STRIPS.

Questions such as "can this atom ever hold?", "is this fact a landmark?" or "how far is the goal?"
are answered in two steps.  A sound polynomial certificate first: an atom outside the
delete-relaxed closure of the current state can never hold (ignoring deletes only adds facts),
and a fact whose achievers, once removed, leave the goal relaxed-unreachable is a landmark.
When no certificate settles the question, an exact search over the reachable states does,
within a state budget; running out raises :class:`~planetarium.errors.ResourceLimitError`, so
callers can report "undecided" instead of guessing.

Everything here works on the ground instances of :func:`~planetarium.strips.search.relaxed_ground`
(``(step, pre, add, delete)`` with frozensets of atoms) and on the bit-set
:class:`~planetarium.strips.search.GroundTask`, so it adds no second grounder.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

from ..errors import ResourceLimitError
from ..limits import Deadline
from ..pddl.domain import Atom
from .search import GroundInstance, GroundTask


def relaxed_closure(instances: Iterable[GroundInstance], state: Iterable[Atom],
                    forbidden: Collection[Atom] = ()) -> set[Atom]:
    """Atoms reachable from ``state`` when deletes are ignored, never using an action that
    adds a ``forbidden`` atom (a forbidden atom in ``state`` itself stays)."""
    reached = set(state)
    pending = [inst for inst in instances if not (inst[2] & set(forbidden))]
    changed = True
    while changed:
        changed = False
        rest = []
        for inst in pending:
            if inst[1] <= reached:
                if not inst[2] <= reached:
                    reached |= inst[2]
                    changed = True
            else:
                rest.append(inst)
        pending = rest
    return reached


def _check(deadline: Deadline | None, what: str) -> None:
    if deadline is not None and deadline.expired():
        raise ResourceLimitError(f"{what} ran out of time")


def optimal_length(task: GroundTask, max_states: int, bound: int | None = None,
                   deadline: Deadline | None = None,
                   merge: Callable[[int], int] | None = None) -> int | None:
    """Length of a shortest plan (breadth-first search), ``None`` when the goal is unreachable.

    With ``bound`` the search stops after that depth and returns ``None`` if the goal was not
    met within it (then ``None`` means "longer than ``bound`` or unreachable").  Raises
    :class:`ResourceLimitError` after ``max_states`` states or past ``deadline`` (on its own
    clock: wall time, or CPU time for a budget that must not depend on load).
    ``merge`` maps a state to a symmetric one (:class:`~.symmetry.StateMerger`), so that
    symmetric states are searched once.
    """
    goal = task.goal
    if task.init & goal == goal:
        return 0
    merge = merge or _same
    operators = list(zip(task.pre, task.add, task.delete, strict=True))
    start = merge(task.init)
    seen = {start}
    frontier = [start]
    depth = 0
    while frontier and (bound is None or depth < bound):
        depth += 1
        nxt = []
        for number, state in enumerate(frontier):
            if not number & 0x3FF:
                _check(deadline, "breadth-first search")
            for pre, add, delete in operators:
                if state & pre == pre:
                    succ = merge((state & ~delete) | add)
                    if succ not in seen:
                        if succ & goal == goal:
                            return depth
                        if len(seen) >= max_states:
                            raise ResourceLimitError(
                                f"optimal search gave up after {max_states} states (depth {depth})")
                        seen.add(succ)
                        nxt.append(succ)
        frontier = nxt
    return None


def _same(state: int) -> int:
    return state


def h2_reachable_pairs(instances: Iterable[GroundInstance], state: Iterable[Atom],
                       deadline: Deadline | None = None) -> dict[Atom, set[Atom]]:
    """The h^2 reachability fixpoint: for each atom, the atoms it may hold together with.

    ``pairs[p]`` contains ``q`` unless ``p`` and ``q`` are proven mutex (never true in the same
    reachable state); ``p`` is missing as a key when it is unreachable.  This is Haslum and
    Geffner's h^2 as a reachability test: an action can add ``p`` next to a surviving ``q`` only
    when ``q`` is pairwise compatible with all its preconditions, so the result over-approximates
    the pairs of reachable states and every pair it leaves out is a sound mutex.  Raises
    :class:`ResourceLimitError` past ``deadline``: on a task with
    hundreds of thousands of actions the fixpoint itself takes long.
    """
    state = set(state)
    pairs: dict[Atom, set[Atom]] = {p: set(state) for p in state}
    instances = list(instances)
    changed = True
    while changed:
        changed = False
        for number, (_, pre, add, delete) in enumerate(instances):
            if not number & 0xFF:
                _check(deadline, "h^2")
            if not all(p in pairs and pre <= pairs[p] for p in pre):
                continue
            if pre:
                survivors = set.intersection(*(pairs[p] for p in pre))
            else:
                survivors = set(pairs)
            survivors -= delete
            survivors -= add
            for p in add:
                known = pairs.get(p)
                if known is None:
                    known = pairs[p] = set()
                    changed = True
                new = (add | survivors) - known
                if new:
                    known |= new
                    changed = True
                    for q in new:
                        pairs.setdefault(q, set()).add(p)
    return pairs


def h2_mutex(pairs: dict[Atom, set[Atom]], atoms: Iterable[Atom]) -> tuple[Atom, Atom] | None:
    """Two of ``atoms`` that can never hold together (or one that can never hold), else ``None``."""
    atoms = sorted(set(atoms))
    for i, p in enumerate(atoms):
        if p not in pairs or p not in pairs[p]:
            return p, p
        for q in atoms[i + 1:]:
            if q not in pairs[p]:
                return p, q
    return None


class LMCut:
    """The LM-cut heuristic (Helmert and Domshlak 2009) for unit-cost tasks: admissible, so A*
    with it returns shortest plans.  Built once per :class:`GroundTask`, evaluated per state;
    values are kept, so several searches over one task (from a state and from its successors)
    evaluate each state once."""

    def __init__(self, task: GroundTask) -> None:
        n = len(task.atoms)
        self.start, self.goal_fact = n, n + 1  # artificial facts: "always true" and "goal reached"
        pres = [[i for i in range(n) if m >> i & 1] or [self.start] for m in task.pre]
        adds = [[i for i in range(n) if m >> i & 1] for m in task.add]
        pres.append([i for i in range(n) if task.goal >> i & 1] or [self.start])
        adds.append([self.goal_fact])
        self.pre, self.add = pres, adds
        self.base_cost = [1] * len(task.pre) + [0]
        self.pre_len = [len(p) for p in pres]
        self.known: dict[int, float] = {}  # state -> value: searches from nearby states share it
        self.by_pre: list[list[int]] = [[] for _ in range(n + 2)]
        self.by_add: list[list[int]] = [[] for _ in range(n + 2)]
        for op, pre in enumerate(pres):
            for p in pre:
                self.by_pre[p].append(op)
        for op, add in enumerate(adds):
            for q in add:
                self.by_add[q].append(op)
        self.n = n

    def _hmax(self, facts: list[int], cost: list[int]) -> tuple[list[float], list[int], list[int]]:
        """h^max from ``facts`` under ``cost``: each fact's cost, each operator's most costly
        precondition (its pcf) and how many of its preconditions were never reached.

        Costs are small non-negative integers (unit costs, lowered by the cuts), so the queue
        is a list of buckets rather than a heap.
        """
        inf = float("inf")
        dist = [inf] * (self.n + 2)
        waiting = list(self.pre_len)
        pcf = [-1] * len(self.pre)
        buckets: list[list[int]] = [[]]
        for f in facts:
            dist[f] = 0
        dist[self.start] = 0
        buckets[0] = facts + [self.start]
        by_pre, add = self.by_pre, self.add
        d = 0
        while d < len(buckets):
            for f in buckets[d]:
                if dist[f] != d:
                    continue
                for op in by_pre[f]:
                    waiting[op] -= 1
                    if waiting[op] == 0:
                        pcf[op] = f  # reached last, so its cost is the maximum
                        value = d + cost[op]
                        for q in add[op]:
                            if value < dist[q]:
                                dist[q] = value
                                while len(buckets) <= value:
                                    buckets.append([])
                                buckets[value].append(q)
            d += 1
        return dist, pcf, waiting

    def __call__(self, state: int) -> float:
        known = self.known.get(state)
        if known is None:
            known = self.known[state] = self._evaluate(state)
        return known

    def _evaluate(self, state: int) -> float:
        facts = []
        rest = state
        while rest:
            low = rest & -rest
            facts.append(low.bit_length() - 1)
            rest ^= low
        cost = list(self.base_cost)
        total = 0
        by_add, by_pre, add = self.by_add, self.by_pre, self.add
        while True:
            dist, pcf, waiting = self._hmax(facts, cost)
            if dist[self.goal_fact] == float("inf"):
                return float("inf")
            if dist[self.goal_fact] == 0:
                return total
            zone = {self.goal_fact}  # facts reaching the goal through zero-cost pcf edges
            stack = [self.goal_fact]
            while stack:
                q = stack.pop()
                for op in by_add[q]:
                    if cost[op] == 0 and waiting[op] == 0 and pcf[op] not in zone:
                        zone.add(pcf[op])
                        stack.append(pcf[op])
            reached = set(facts)  # from the state, never entering the zone
            reached.add(self.start)
            stack = list(reached)
            cut = []
            while stack:
                f = stack.pop()
                for op in by_pre[f]:
                    if pcf[op] != f or waiting[op]:
                        continue
                    effects = add[op]
                    if not zone.isdisjoint(effects):
                        cut.append(op)
                    for q in effects:
                        if q not in zone and q not in reached:
                            reached.add(q)
                            stack.append(q)
            step = min(cost[op] for op in cut)
            total += step
            for op in cut:
                cost[op] -= step


def astar_length(task: GroundTask, max_states: int, bound: int | None = None,
                 deadline: Deadline | None = None, heuristic: LMCut | None = None,
                 merge: Callable[[int], int] | None = None) -> int | None:
    """Shortest plan length by A* with LM-cut; ``None`` if unreachable (or longer than ``bound``).

    Raises :class:`ResourceLimitError` after ``max_states`` generated states or past
    ``deadline``.  ``heuristic``: an :class:`LMCut` of a task with the
    same atoms, operators and goal (only ``init`` may differ), whose cached values are reused;
    ``merge``: as for :func:`optimal_length`.
    """
    import heapq
    from itertools import count

    h = heuristic if heuristic is not None else LMCut(task)
    merge = merge or _same
    goal = task.goal
    operators = list(zip(task.pre, task.add, task.delete, strict=True))
    start = merge(task.init)
    h0 = h(start)
    if h0 == float("inf") or (bound is not None and h0 > bound):
        return None
    g_best = {start: 0}
    tie = count()
    frontier = [(h0, 0, next(tie), start)]  # equal f: deeper first (fewer expansions)
    while frontier:
        f, minus_g, _, state = heapq.heappop(frontier)
        g = -minus_g
        if g > g_best.get(state, g):
            continue
        if state & goal == goal:
            return g
        _check(deadline, "A* search")
        for pre, add, delete in operators:
            if state & pre == pre:
                succ = merge((state & ~delete) | add)
                if g + 1 < g_best.get(succ, float("inf")):
                    if len(g_best) >= max_states:
                        raise ResourceLimitError(
                            f"A* gave up after {max_states} states (f = {f})")
                    hs = h(succ)
                    if hs == float("inf") or (bound is not None and g + 1 + hs > bound):
                        continue
                    g_best[succ] = g + 1
                    heapq.heappush(frontier, (g + 1 + hs, -(g + 1), next(tie), succ))
    return None
