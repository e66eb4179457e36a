"""The FF heuristic and the greedy search it guides: plans fast, proofs by exhaustion.

Questions such as "is there a plan that never makes this fact true?" need a plan when the answer
is yes and an exhausted search when it is no.  The unmet-goal count of
:func:`~planetarium.strips.search.search` is blind on plateaus: a satellite must switch an
instrument on, turn, calibrate and turn again before any goal atom changes, and with four
satellites over twenty directions the plateau alone holds more than 200,000 states.  FF's
relaxed plan (Hoffmann and Nebel 2001) counts that work, and its *helpful actions* (relaxed plan
actions applicable now) say which successors to try first.

:func:`greedy_search` is lazy greedy best-first search with a second queue for successors
reached by helpful actions (as in Fast Downward's lazy GBFS with preferred operators).  It stays
complete: every generated state is kept (duplicate detection), and the only states it drops
unexpanded are those from which the goal is not even delete-relaxed reachable (``h = inf``), a
sound dead-end test.  So when it runs out of states to expand, no plan exists.  With a
``merge`` (:class:`~planetarium.strips.symmetry.StateMerger`) symmetric states are searched once:
reachability is kept (a symmetry maps plans to plans), the plan is not (its steps belong to
different members of each orbit), so only ``reached`` is reported.
"""

from __future__ import annotations

import copy
import heapq
from collections.abc import Callable, Collection
from dataclasses import dataclass
from itertools import count

from ..errors import ResourceLimitError
from ..limits import Deadline
from .bits import indices as bit_indices
from .plan_io import GroundStep
from .search import GroundTask, _trace
from .successors import SuccessorIndex

INFINITE = float("inf")
#: Expansions between two looks at the deadline.
_CLOCK_EVERY = 64


class FFHeuristic:
    """h_FF of a :class:`GroundTask` with unit costs: the relaxed planning graph from a state
    (each fact at the first layer it appears, by its first achiever), then a relaxed plan traced
    back from the goal through those achievers.

    Built once per task (searches from several states of the same task share it); a call
    gives the relaxed plan's length (``inf`` when the goal is not delete-relaxed reachable)
    and the helpful actions, the relaxed plan's actions applicable in the state.
    """

    def __init__(self, task: GroundTask) -> None:
        self.pre = [bit_indices(m) for m in task.pre]
        self.add = [bit_indices(m) for m in task.add]
        self.pre_masks = task.pre
        #: the actions worth testing in a state (shared by the searches this heuristic guides)
        self.successors = SuccessorIndex(task.pre, task.add, task.delete)
        self.pre_len = [len(p) for p in self.pre]
        self.size = len(task.atoms)
        self._aim(task.goal)
        self.by_pre: list[list[int]] = [[] for _ in task.atoms]
        self.free: list[int] = []  # operators without preconditions
        for op, pres in enumerate(self.pre):
            for p in pres:
                self.by_pre[p].append(op)
            if not pres:
                self.free.append(op)

    def _aim(self, goal: int) -> None:
        self.goal = bit_indices(goal)
        self.goal_mask = goal
        self.is_goal = [False] * self.size
        for g in self.goal:
            self.is_goal[g] = True

    def __call__(self, state: int) -> tuple[float, list[int]]:
        goals_left = (self.goal_mask & ~state).bit_count()
        if not goals_left:
            return 0, []
        facts = bit_indices(state)
        level = [-1] * self.size  # the layer a fact first appears in (-1: not yet)
        for f in facts:
            level[f] = 0
        supporter: dict[int, int] = {}
        waiting = self.pre_len.copy()
        frontier = facts
        ready = list(self.free)  # operators whose last precondition was just reached
        layer = 0
        by_pre, add, is_goal = self.by_pre, self.add, self.is_goal
        while frontier or ready:
            for f in frontier:
                for op in by_pre[f]:
                    left = waiting[op] - 1
                    waiting[op] = left
                    if not left:
                        ready.append(op)
            layer += 1
            frontier = []
            for op in ready:
                for q in add[op]:
                    if level[q] < 0:
                        level[q] = layer
                        supporter[q] = op
                        frontier.append(q)
                        if is_goal[q]:
                            goals_left -= 1
            if not goals_left:
                break
            ready = []
        if goals_left:
            return INFINITE, []
        plan: set[int] = set()
        stack = [g for g in self.goal if level[g] > 0]
        marked: set[int] = set()
        pres = self.pre
        while stack:
            f = stack.pop()
            if f in marked:
                continue
            marked.add(f)
            op = supporter[f]
            if op not in plan:
                plan.add(op)
                stack.extend(p for p in pres[op] if level[p] > 0)
        masks = self.pre_masks
        helpful = [op for op in plan if state & masks[op] == masks[op]]
        return len(plan), helpful

    def with_goal(self, goal: int, banned: Collection[int] = ()) -> FFHeuristic:
        """The same heuristic towards another goal, without the operators ``banned`` (the
        operator tables are shared)."""
        other = copy.copy(self)
        other._aim(goal)
        if banned:
            other.pre_len = list(self.pre_len)
            for op in banned:
                other.pre_len[op] = len(self.by_pre) + 1  # never all reached: never applies
            other.free = [op for op in self.free if op not in set(banned)]
        return other


@dataclass(frozen=True)
class SearchOutcome:
    """What :func:`greedy_search` found: ``reached`` and, without merging, a ``plan``."""

    reached: bool
    plan: tuple[GroundStep, ...] | None
    states: int  # distinct states generated


def greedy_search(task: GroundTask, deadline: Deadline, max_states: int,
                  heuristic: FFHeuristic | None = None,
                  merge: Callable[[int], int] | None = None) -> SearchOutcome:
    """Lazy greedy best-first search with FF and helpful actions (see the module docstring).

    ``reached`` False means every reachable state that is not a proven dead end was expanded:
    no plan exists.  Raises :class:`ResourceLimitError` past ``deadline`` or after generating
    ``max_states`` distinct states.  ``heuristic``: an :class:`FFHeuristic` of a task with the
    same operators and goal (only ``init`` may differ).
    """
    h = heuristic if heuristic is not None else FFHeuristic(task)
    same = merge or (lambda s: s)
    goal = task.goal
    operators = list(zip(task.pre, task.add, task.delete, strict=True))
    candidates = h.successors.candidates
    start = same(task.init)
    parent: dict[int, tuple[int, int] | None] = {start: None}
    expanded: set[int] = set()
    tie = count()
    regular: list[tuple[float, int, int]] = [(0.0, next(tie), start)]
    preferred: list[tuple[float, int, int]] = []
    turn = 0
    while regular or preferred:
        turn += 1
        queue = preferred if preferred and (turn & 1 or not regular) else regular
        _, _, state = heapq.heappop(queue)
        if state in expanded:
            continue
        expanded.add(state)
        if not len(expanded) % _CLOCK_EVERY:
            deadline.check(f"greedy search ({len(parent)} states)")
        if state & goal == goal:
            plan = None if merge else tuple(_trace(task, parent, state))
            return SearchOutcome(True, plan, len(parent))
        value, helpful = h(state)
        if value == INFINITE:
            continue  # not even delete-relaxed reachable from here: a dead end
        good = set(helpful)
        for index in candidates(state):
            pre, add, delete = operators[index]
            if state & pre == pre:
                succ = same((state & ~delete) | add)
                if succ in parent:
                    continue
                if len(parent) >= max_states:
                    raise ResourceLimitError(f"greedy search gave up after {max_states} states")
                parent[succ] = (state, index)
                entry = (value, next(tie), succ)
                heapq.heappush(regular, entry)
                if index in good:
                    heapq.heappush(preferred, entry)
    return SearchOutcome(False, None, len(parent))
