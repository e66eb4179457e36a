"""Facts true (or false) in every reachable goal state, without enumerating the state space.

``fully_specify`` must add exactly the atoms that hold in every reachable goal state.  Any
domain's problems get that here, each atom settled by a witness or a proof:

1. **one goal state** ``s0`` by greedy search with FF from the initial state (an exhausted search
   proves the goal unreachable: ``None``).  The atoms forced true lie in ``s0``: they are the
   candidates;
2. **witnesses**: every reachable goal state found drops the candidates it lacks.  A bounded
   breadth-first walk inside the goal region around ``s0`` finds most of them (the robot's room,
   an untouched block); then, per candidate ``p``, a greedy search from ``s0`` for the goal with
   ``p`` false (``not p`` compiled into an atom of its own, so FF sees it), and where that and
   the regression below run out of budget, searches for the goal with a positive stand-in ``q``
   h^2-mutex with ``p`` (``q`` true makes ``p`` false; FF guides far better towards it), ours
   then Mimir's, and Mimir's search for the literals themselves (the ``[planners]`` extra; its
   plan is replayed here, its failure proves nothing);
3. **proofs** for the rest: an at-least-one invariant (:mod:`.invariants`) whose other members
   are mutex with the goal (h^2), or, when the first round leaves atoms open, with a pair of
   atoms true in every goal state (:mod:`.conjunctions`: Depots' "crate 2 on crate 1" and
   "crate 1 at depot 0" exclude every other place of crate 2, which no single atom does); then
   regression with h^2 pruning (:mod:`.regression`), which is
   complete and usually tiny when the literals are unreachable.  Each atom proven true makes the
   atoms mutex with it false in every goal state, so proofs are retried after each success.
   What neither settles goes back to search and regression with growing budgets, until the
   deadline in force (:func:`~planetarium.limits.check_deadline`) ends it with
   :class:`~planetarium.errors.ResourceLimitError`: never a guess.

One :class:`GoalStates` serves every goal over the same objects and initial state
(:func:`goal_states` keeps the most recent per process, with the answers found on it).

The same machinery answers "does some reachable state satisfy these literals?"
(:meth:`GoalStates.reaches`), which the closures of goals with negative literals need (atoms false
in every goal state: ``F-``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace

from ..errors import MissingExtraError, ResourceLimitError, require
from ..limits import Deadline, check_deadline, required
from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem
from .bitground import BitGrounding
from .bits import indices as bit_indices
from .conjunctions import pair_mutexes
from .ff import INFINITE, FFHeuristic, SearchOutcome, greedy_search
from .generic import generic_solve, mimir_plan_within
from .invariants import forced_by_invariant
from .regression import RegressionBudgetExceeded, regress

#: Goal states the walk inside the goal region visits at most, and how many in a row may add
#: nothing before it stops (it only gathers witnesses; proofs never depend on it).
EXPLORE_STATES = 2_000
EXPLORE_PATIENCE = 200
#: The first budgets of the witness search and of the regression per candidate; each later
#: round multiplies both by :data:`GROWTH`.
FIRST_SEARCH_STATES = 400
#: States our search may generate looking for the first goal state before Mimir's takes over:
#: Mimir's start-up alone (25-50 ms on swap with eight agents) buys our search about 1,000
#: states there, and its goals of four to eight roles need 450-800.
FIRST_GOAL_STATES = 1_500
FIRST_REGRESSION_STATES = 400
GROWTH = 8
#: Seconds Mimir may look for a witness per candidate our own search and regression left open
#: in the first round (scaled with the budgets after it).
MIMIR_WITNESS_S = 0.1
#: Seconds Mimir may look for each plan of a round trip between two states.
ROUND_TRIP_MIMIR_S = 1.0
#: Goal atoms whose pairs :meth:`GoalStates.pair_mutex_with` compiles (45 pairs of ten: each
#: costs one h^2 fixpoint, 3-5 ms on ACPBench's Depots).
PAIR_ATOMS = 10
#: Positive stand-ins for a false atom tried per round (``GoalStates._witness_via_excluder``).
EXCLUDERS = 8
#: Of those, how many Mimir's search tries too.
MIMIR_EXCLUDERS = 3


class GoalStates:
    """The reachable states of one problem, asked about exactly (module docstring).

    Atoms are bits over the delete-relaxed reachable atoms (atoms outside them never hold);
    for searches, bit ``n + i`` stands for "atom ``i`` is false", kept in step by every action.
    The goal-independent tables are :class:`~.bitground.BitGrounding`'s; one instance serves
    every question about the same objects and initial state (:func:`goal_states`).
    """

    def __init__(self, domain: DomainDef, problem: Problem) -> None:
        self.domain, self.problem = domain, problem
        tables = self.tables = BitGrounding(domain, problem, _deadline())
        self.atoms, self.index, self.n, self.full = tables.atoms, tables.index, tables.n, tables.full
        self.init, self.ops, self.changing = tables.init, tables.ops, tables.changing
        self.adders, self.deleters, self.task = tables.adders, tables.deleters, tables.task
        self.mask, self.lift, self.unmask = tables.mask, tables.lift, tables.unmask
        #: reachable states found so far (bit sets over ``atoms``)
        self.known: list[int] = [self.init]
        #: plans from the initial state to the states found by a search or replay from there
        #: (:meth:`plan` answers solvability with them: the first goal state's plan, say)
        self._plans: dict[int, list[tuple[str, ...]]] = {self.init: []}
        #: atoms of the goal states found by the :meth:`forced` call under way
        self.goal_union = 0
        self._answers: dict[tuple[int, int], tuple[int | None, int]] = {}
        #: per pair of atoms (a bit set), the atoms that never hold with both
        self._pairs: dict[int, int] = {}
        self._asking = threading.RLock()

    # --- bits ---------------------------------------------------------------------------------

    @property
    def ff(self) -> FFHeuristic:
        return self.tables.ff

    @property
    def compatible(self) -> list[int]:
        """Per atom, the atoms h^2 finds it may hold together with (0 when unreachable)."""
        return self.tables.compatible

    @property
    def monotone(self) -> int:
        """Atoms no action deletes: once true, true for ever."""
        return self.tables.monotone

    @property
    def _by_step(self) -> dict[tuple[str, ...], int]:
        return self.tables.by_step

    def mutex_with(self, atoms: int) -> int:
        """The atoms that never hold together with all of ``atoms`` (some pair is h^2 mutex)."""
        out = 0
        for i in bit_indices(atoms):
            out |= ~self.compatible[i] & self.full
        return out

    # --- witnesses ----------------------------------------------------------------------------

    def _record(self, state: int, plan: Sequence[Sequence[str]] | None = None) -> None:
        """Keep a reachable state found, and ``plan`` when it leads there from the initial
        state."""
        self.known.append(state)
        if plan is not None:
            self._plans.setdefault(state, [tuple(step) for step in plan])

    def _satisfies(self, state: int, positive: int, negative: int) -> bool:
        return state & positive == positive and not state & negative

    def _known(self, positive: int, negative: int) -> int | None:
        for state in self.known:
            if self._satisfies(state, positive, negative):
                return state
        return None

    def search(self, start: int, positive: int, negative: int, max_states: int | None) -> int | None:
        """A reachable state satisfying the literals, by greedy search from the reachable state
        ``start``; ``None`` when the search was exhausted (a proof only when ``start`` is the
        initial state); :class:`ResourceLimitError` past ``max_states`` or the deadline."""
        outcome = self._greedy(start, positive, negative, max_states)
        if not outcome.reached:
            return None
        state = start
        by_step = self._by_step
        for step in outcome.plan or ():
            pre, add, delete = self.ops[by_step[step]]
            state = (state & ~delete) | add
        self._record(state, outcome.plan if start == self.init else None)
        return state

    def plan_found(self, positive: int) -> list[tuple[str, ...]] | None:
        """A plan from the initial state to a state holding ``positive`` among those the
        searches so far found (finding a goal state is finding a plan); ``None`` when none
        did (which proves nothing)."""
        for state, steps in list(self._plans.items()):  # a copy: searches may add to it
            if state & positive == positive:
                return list(steps)
        return None

    def known_unreachable(self, positive: int) -> bool:
        """Whether an answer kept proves that no reachable state holds ``positive`` (a goal
        found unreachable with no more atoms than it)."""
        with self._asking:  # the answers may be growing in another thread
            implied = self._implied_answer(positive, 0)
        return implied is not None and implied[0] is None

    def _greedy(self, start: int, positive: int, negative: int,
                max_states: int | None) -> SearchOutcome:
        goal = positive | (negative << self.n)
        banned = self._adding(negative & self.monotone)
        task = replace(self.task, init=self.lift(start), goal=goal)
        if banned:  # an atom nothing deletes must never be added: its adders are left out
            never = 1 << (2 * self.n)
            task = replace(task, pre=tuple(pre | never if i in banned else pre
                                           for i, pre in enumerate(task.pre)))
        return greedy_search(task, _deadline(), max_states or 1 << 62,
                             self.ff.with_goal(goal, banned))

    def round_trip(self, state: frozenset[Atom], max_states: int) -> bool:
        """Whether plans were found from the initial state to exactly ``state`` and back again:
        then both reach the same states (a proof by two witnesses).  ``False`` proves nothing:
        each search stops after ``max_states`` states; :class:`ResourceLimitError` past the
        deadline.  Searching back from ``state`` inside this grounding is sound once ``state``
        is reached: what it reaches, the initial state reaches too."""
        bits = self.mask(state)
        if self.unmask(bits) != state:  # an atom the initial state never reaches, even relaxed
            return False
        return bits == self.init or (self._leads_to(self.init, bits, max_states)
                                     and self._leads_to(bits, self.init, max_states))

    def _leads_to(self, start: int, target: int, max_states: int) -> bool:
        """Whether a plan from the reachable state ``start`` to exactly ``target`` was found:
        ours within ``max_states`` (most are near: no start-up), else Mimir's (the
        ``[planners]`` extra, replayed here)."""
        negative = self.full & ~target
        try:
            return self.search(start, target, negative, max_states) is not None  # or exhausted
        except ResourceLimitError:
            _reraise_if_late()
        return self._mimir_witness(target, negative, ROUND_TRIP_MIMIR_S, start) is not None

    def _adding(self, atoms: int) -> set[int]:
        """The ops that add some atom of ``atoms``."""
        found: set[int] = set()
        for i in bit_indices(atoms):
            found.update(self.adders.get(i, ()))
        return found

    def _first_goal_state(self, positive: int, negative: int) -> int | None:
        """A reachable goal state, ``None`` when none exists: our search within
        :data:`FIRST_GOAL_STATES` (most goals are near: no start-up), then Mimir's search
        (much faster on long plans, the ``[planners]`` extra) where installed and the goal is
        positive, then ours without a bound."""
        try:
            return self.search(self.init, positive, negative, FIRST_GOAL_STATES)
        except ResourceLimitError:
            _reraise_if_late()
        plan = None
        if not negative:
            try:
                require("pymimir", "planners")
                plan = generic_solve(self.domain, replace(self.problem, goal=self.unmask(positive),
                                                          negative_goal=frozenset()), _deadline())
            except MissingExtraError:
                pass
            else:
                if plan is None:
                    return None
        if plan is not None:
            state = self._replay(plan, self.init, positive, negative)
            if state is not None:
                return state
        return self.search(self.init, positive, negative, None)

    def _replay(self, plan: Sequence[Sequence[str]], start: int, positive: int,
                negative: int) -> int | None:
        """The state ``plan`` (another planner's) reaches from the reachable state ``start``,
        recorded, when every step applies here and the state satisfies the literals; ``None``
        otherwise.  A witness is never taken on another planner's word."""
        state = start
        for step in plan:
            number = self._by_step.get(tuple(step))
            if number is None:
                return None
            pre, add, delete = self.ops[number]
            if state & pre != pre:
                return None
            state = (state & ~delete) | add
        if not self._satisfies(state, positive, negative):
            return None
        self._record(state, plan if start == self.init else None)
        return state

    def _mimir_witness(self, positive: int, negative: int, seconds: float,
                       start: int | None = None) -> int | None:
        """A state satisfying the literals, reached from the reachable state ``start`` (default:
        the initial state) by Mimir's plan found within ``seconds`` (the ``[planners]`` extra)
        and replayed here; ``None`` proves nothing.  Mimir's C++ search finds the witnesses that
        need leaving the goal region (Depots: unstack a crate, carry the one below away, stack
        it again) many times faster than ours."""
        start = self.init if start is None else start
        task = replace(self.problem, init=self.unmask(start), goal=self.unmask(positive),
                       negative_goal=self.unmask(negative))
        plan = mimir_plan_within(self.domain, task, _deadline().within(seconds))
        return None if plan is None else self._replay(plan, start, positive, negative)

    def explore(self, start: int, positive: int, negative: int) -> list[int]:
        """Goal states reachable from the goal state ``start`` without leaving the goal region
        (breadth-first, bounded: :data:`EXPLORE_STATES`, :data:`EXPLORE_PATIENCE`)."""
        seen = {start}
        frontier = [start]
        ops, candidates = self.ops, self.ff.successors.candidates
        meet = start
        idle = 0
        while frontier and len(seen) < EXPLORE_STATES and idle < EXPLORE_PATIENCE:
            following = []
            for state in frontier:
                if idle >= EXPLORE_PATIENCE or len(seen) >= EXPLORE_STATES:
                    break  # within a layer too: Swap's second layer alone is 400 states
                check_deadline("exploring the goal states")
                for number in candidates(state):
                    pre, add, delete = ops[number]
                    if state & pre == pre:
                        succ = (state & ~delete) | add
                        if succ not in seen and self._satisfies(succ, positive, negative):
                            seen.add(succ)
                            following.append(succ)
                            if meet & ~succ:
                                meet &= succ
                                idle = 0
                            else:
                                idle += 1
            frontier = following
        return list(seen)

    # --- exact questions ----------------------------------------------------------------------

    def reaches(self, positive: int, negative: int) -> bool:
        """Whether some reachable state holds every atom of ``positive`` and none of
        ``negative`` (bit sets); exact, :class:`ResourceLimitError` past the deadline."""
        if positive & negative:
            return False
        if self._known(positive, negative) is not None:
            return True
        if self.mutex_with(positive) & positive or positive & ~self.changing & ~self.init:
            return False
        return self._decide(positive, negative)

    def _decide(self, positive: int, negative: int) -> bool:
        """Search from the initial state and regression, with growing budgets."""
        search_cap, regression_cap = FIRST_SEARCH_STATES, FIRST_REGRESSION_STATES
        while True:
            check_deadline("deciding reachability")
            try:
                return self.search(self.init, positive, negative, search_cap) is not None
            except ResourceLimitError:
                _reraise_if_late()
            try:
                return regress(self.ops, self.deleters, self.adders, self.init, positive,
                               negative, self.compatible, regression_cap)
            except RegressionBudgetExceeded:
                pass
            search_cap *= GROWTH
            regression_cap *= GROWTH

    def forced(self, positive: int, negative: int) -> int | None:
        """The atoms true in every reachable state that holds ``positive`` and none of
        ``negative``, or ``None`` when no reachable state does (module docstring).  Answers are
        kept: the ground truth is asked about once per prediction graded against it."""
        return self._answer(positive, negative)[0]

    def goal_union_of(self, positive: int, negative: int) -> int:
        """Atoms of the goal states :meth:`forced` found for these literals (each is true in
        some reachable state satisfying them)."""
        return self._answer(positive, negative)[1]

    def _answer(self, positive: int, negative: int) -> tuple[int | None, int]:
        with self._asking:  # one question at a time: the instance may be shared by threads
            key = (positive, negative)
            if key not in self._answers:
                self._answers[key] = self._implied_answer(positive, negative) or self._compute(
                    positive, negative)
            return self._answers[key]

    def _compute(self, positive: int, negative: int) -> tuple[int | None, int]:
        self.goal_union = 0
        return self._forced(positive, negative), self.goal_union

    def _implied_answer(self, positive: int, negative: int) -> tuple[int | None, int] | None:
        """An answer kept for fewer literals that settles these: a goal that adds to an
        answered one only atoms forced there (a prediction with implied facts written out)
        has the very same goal states; one that adds literals to an unreachable goal is
        unreachable too."""
        for (known_pos, known_neg), (forced, union) in self._answers.items():
            if known_pos & ~positive or known_neg & ~negative:
                continue
            if forced is None or (known_neg == negative and not positive & ~forced):
                return forced, union
        return None

    def _forced(self, positive: int, negative: int) -> int | None:
        if positive & ~self.full:
            return None
        start = self._known(positive, negative)
        if start is None:
            if self.mutex_with(positive) & positive or positive & negative:
                return None  # two goal atoms never hold together (h^2)
            start = self._first_goal_state(positive, negative)
            if start is None:
                return None
        meet = start
        for state in self.explore(start, positive, negative):
            meet &= state
            self.goal_union |= state
        proven = meet & (positive | ~self.changing)
        open_ = meet & ~proven
        budget = (FIRST_SEARCH_STATES, FIRST_REGRESSION_STATES)
        pairs = False  # whether the proofs also use pairs of atoms true in goal states
        while open_:
            open_, proven = self._invariant_fixpoint(open_, proven, positive, negative, pairs)
            undecided = 0
            for atom in bit_indices(open_):
                bit = 1 << atom
                if not open_ & bit:
                    continue  # a witness found for another atom dropped it
                settled, witness = self._settle(bit, positive, negative, start, budget)
                if settled is None:
                    undecided |= bit
                    continue
                open_ &= ~bit & witness
                if witness != self.full:
                    self.goal_union |= witness
                if settled:
                    proven |= bit
                    break  # atoms mutex with it are now false in goal states: invariants first
            if open_ and undecided == open_:
                if not pairs:  # before searching longer: proofs about three atoms
                    pairs = True
                    remaining, proven = self._invariant_fixpoint(open_, proven, positive,
                                                                 negative, pairs)
                    if remaining != open_:
                        open_ = remaining
                        continue
                budget = (budget[0] * GROWTH, budget[1] * GROWTH)
                if budget[0] > FIRST_SEARCH_STATES * GROWTH:
                    start = self.init
        return proven

    def possible(self, positive: int, negative: int) -> int | None:
        """The atoms true in *some* reachable state that holds ``positive`` and none of
        ``negative`` (each by a witness state or a proof that none holds it), ``None`` when no
        reachable state does; :class:`ResourceLimitError` past the deadline."""
        forced = self.forced(positive, negative)
        if forced is None:
            return None
        found = forced | self.goal_union_of(positive, negative)
        for state in self.known:
            if self._satisfies(state, positive, negative):
                found |= state
        for atom in bit_indices(self.full & ~found):
            if not found >> atom & 1 and self.reaches(positive | 1 << atom, negative):
                witness = self._known(positive | 1 << atom, negative)
                found |= 1 << atom if witness is None else witness
        return found

    def pair_mutex_with(self, first: int, then: int = 0) -> int:
        """The atoms that never hold together with some two atoms of ``first | then`` (h^2 on
        the task with the pair made an atom: :mod:`.conjunctions`), over the first
        :data:`PAIR_ATOMS` atoms some action changes, those of ``first`` first; each pair's
        answer is kept."""
        changing = (bit_indices(first & self.changing)
                    + bit_indices(then & ~first & self.changing))[:PAIR_ATOMS]
        out = 0
        for i, x in enumerate(changing):
            for y in changing[i + 1:]:
                key = (1 << x) | (1 << y)
                if key not in self._pairs:
                    self._pairs[key] = pair_mutexes(self.ops, self.init, self.changing, self.n,
                                                    x, y)
                out |= self._pairs[key]
        return out

    def _invariant_fixpoint(self, open_: int, proven: int, positive: int, negative: int,
                            pairs: bool = False) -> tuple[int, int]:
        """Open atoms an at-least-one invariant proves true in every goal state move to
        ``proven``; each proof makes more atoms false in goal states, so it repeats until none
        is found.  ``pairs``: atoms that never hold with two atoms true in goal states count as
        false there too (:meth:`pair_mutex_with`; each proof adds pairs).  Returns the new
        ``(open_, proven)``."""
        progress = True
        while progress and open_:
            progress = False
            false_in_goals = negative | self.mutex_with(positive | proven)
            if pairs:
                false_in_goals |= self.pair_mutex_with(positive, proven)
            false_in_goals &= self.full
            for atom in bit_indices(open_):
                if forced_by_invariant(atom, self.ops, self.deleters, self.init, false_in_goals,
                                       self.compatible):
                    open_ &= ~(1 << atom)
                    proven |= 1 << atom
                    progress = True
        return open_, proven

    def _settle(self, bit: int, positive: int, negative: int, start: int,
                budget: tuple[int, int]) -> tuple[bool | None, int]:
        """Whether ``bit`` is true in every goal state (``None``: undecided within ``budget``),
        and the atoms every goal state found meanwhile holds (all when none was found)."""
        negative = negative | bit
        everything = self.full
        known = self._known(positive, negative)
        if known is not None:
            return False, known
        if start & negative & self.monotone:
            start = self.init  # ``bit`` can never be undone from there
        for origin in dict.fromkeys((start, self.init)):
            try:
                found = self.search(origin, positive, negative, budget[0])
            except ResourceLimitError:
                _reraise_if_late()
                continue
            if found is not None:
                return False, found
            if origin == self.init:
                return True, everything
        try:
            reachable = regress(self.ops, self.deleters, self.adders, self.init, positive,
                                negative, self.compatible, budget[1])
        except RegressionBudgetExceeded:
            seconds = MIMIR_WITNESS_S * budget[0] / FIRST_SEARCH_STATES
            found = self._witness_via_excluder(bit, positive, negative & ~bit, budget[0], seconds)
            if found is None:
                found = self._mimir_witness(positive, negative, seconds)
            return (None, everything) if found is None else (False, found)
        return not reachable, everything

    def _witness_via_excluder(self, bit: int, positive: int, negative: int,
                              max_states: int, seconds: float) -> int | None:
        """A reachable state satisfying the literals with ``bit`` false, found as one holding
        ``positive`` and an atom ``q`` h^2-mutex with ``bit`` (so ``bit`` is false there);
        ``None`` proves nothing.

        FF guides badly towards "``p`` false" (Depots: crate 4 at distributor 0 but not on
        pallet 2 needs another crate brought there first, which "not on" does not ask for),
        while a positive stand-in such as "crate 4 on crate 1" spells that out.  The
        :data:`EXCLUDERS` stand-ins closest by FF from the initial state are tried in turn by
        our search (a quarter of ``max_states`` each: near ones are found in tens of states)
        and, for the first :data:`MIMIR_EXCLUDERS` where it gives up, by Mimir's (the
        ``[planners]`` extra, ``seconds`` each, at most the larger of twice
        :data:`MIMIR_WITNESS_S` and half of ``seconds``: it takes 0.05-0.3 s where ours needs
        thousands of states, or fails however long it runs; Depots' crate brought under
        another needed 0.24-0.27 s, so a fixed cap of 0.2 s left it to the slow rounds)."""
        start = self.lift(self.init)
        ranked = []
        for q in bit_indices(self.mutex_with(bit) & ~self.mutex_with(positive)
                             & ~negative & self.changing & self.full):
            value = self.ff.with_goal(positive | (1 << q) | (negative << self.n))(start)[0]
            if value != INFINITE:
                ranked.append((value, q))
        for rank, (_, q) in enumerate(sorted(ranked)[:EXCLUDERS]):
            goal = positive | (1 << q)
            try:
                found = self.search(self.init, goal, negative, max(1, max_states // 4))
            except ResourceLimitError:
                _reraise_if_late()
                found = None
                if rank < MIMIR_EXCLUDERS:
                    found = self._mimir_witness(goal, negative, min(
                        seconds, max(2 * MIMIR_WITNESS_S, seconds / 2)))
            if found is not None and self._satisfies(found, positive, negative | bit):
                return found
        return None


def _deadline() -> Deadline:
    """The deadline in force: the searches and the grounding here need the object.  None in
    force is :class:`~planetarium.limits.MissingDeadlineError` (there is no default limit: the
    caller's entry point makes the item's deadline)."""
    return required("the generic exact engine (strips.forced: fully_specify, goal closures, "
                    "reachability proofs)")


def _reraise_if_late() -> None:
    """A search that ran out of states is retried with more; one that ran out of time is over."""
    check_deadline("fully specifying the goal")


#: Ground tasks kept per process (most recent last): a grading call asks about the ground truth
#: and the prediction, which often share objects and initial state (a wrong goal), and a batch
#: asks about one ground truth many times.
KEPT_TASKS = 4
_kept: OrderedDict[tuple, GoalStates] = OrderedDict()
_kept_lock = threading.Lock()


def _task_key(domain: DomainDef, problem: Problem) -> tuple:
    return (id(domain), frozenset(zip(problem.objects, problem.object_types, strict=True)),
            problem.init)


def _kept_for(domain: DomainDef, problem: Problem) -> GoalStates | None:
    """The kept :class:`GoalStates` of ``problem``'s objects and initial state, made most recent;
    ``None`` when there is none.  Its domain must be ``domain`` itself (kept alive by it, so the
    id in the key is that domain's)."""
    key = _task_key(domain, problem)
    with _kept_lock:
        found = _kept.get(key)
        if found is None or found.domain is not domain:
            return None
        _kept.move_to_end(key)
        return found


def ground_task_kept(domain: DomainDef, problem: Problem) -> bool:
    """Whether :func:`goal_states` holds ``problem``'s objects and initial state already (the
    proofs that need a ground task then cost next to nothing)."""
    return _kept_for(domain, problem) is not None


def goal_states(domain: DomainDef, problem: Problem) -> GoalStates:
    """The :class:`GoalStates` of ``problem``'s objects and initial state, shared by every
    question about them (the goal plays no part in grounding, h^2 or the states found): a
    second problem with the same objects and initial state skips the grounding.  Keyed on the
    domain object itself (one parsed domain is shared by every grading call) and on the typed
    objects and initial facts; an interrupted grounding keeps nothing."""
    found = _kept_for(domain, problem)
    if found is not None:
        return found
    states = GoalStates(domain, replace(problem, goal=frozenset(), negative_goal=frozenset(),
                                        goal_formula=None))
    with _kept_lock:
        _kept[_task_key(domain, problem)] = states
        while len(_kept) > KEPT_TASKS:
            _kept.popitem(last=False)
    return states


def forget_ground_tasks() -> None:
    """Drop the kept :class:`GoalStates` (a benchmark timing each pair from cold)."""
    with _kept_lock:
        _kept.clear()


def fully_specified(domain: DomainDef, problem: Problem) -> frozenset[Atom] | None:
    """The facts true in every goal state reachable from ``problem``'s initial state (static
    facts and the goal included), or ``None`` when none is reachable; the goal is a
    conjunction of literals (``goal`` true, ``negative_goal`` false)."""
    if problem.goal_formula is not None:
        raise ValueError("fully_specified needs a conjunction of literals")
    states = goal_states(domain, problem)
    if not problem.goal <= set(states.index):
        return None
    forced = states.forced(states.mask(problem.goal), states.mask(problem.negative_goal))
    return None if forced is None else states.unmask(forced)


def goal_provably_unreachable(domain: DomainDef, problem: Problem) -> bool:
    """Whether a cheap complete test proves that no reachable state holds ``problem``'s
    positive goal: a goal atom unreachable even with deletes ignored, or two goal atoms h^2
    mutex.  ``False`` proves nothing (a planner must still decide); a goal formula is left to
    the planner."""
    if problem.goal_formula is not None:
        return False
    states = goal_states(domain, problem)
    if not problem.goal <= set(states.index):
        return True
    positive = states.mask(problem.goal)
    return bool(states.mutex_with(positive) & positive)


def literal_closure(domain: DomainDef, problem: Problem
                    ) -> tuple[frozenset[Atom], frozenset[Atom], bool] | None:
    """The closure of a goal of literals: ``(F+, F- & U, positive_only)`` as
    :class:`~planetarium.equivalence.closure.Closure` defines them (``F-``: atoms false in every
    reachable goal state, ``U``: atoms true in some reachable state; ``positive_only``: no
    reachable state holds ``F+`` and a negative goal literal), or ``None`` when no reachable
    state satisfies the goal.  Every atom is settled by :meth:`GoalStates.reaches`."""
    states = goal_states(domain, problem)
    if not problem.goal <= set(states.index):
        return None
    positive, negative = states.mask(problem.goal), states.mask(problem.negative_goal)
    forced = states.forced(positive, negative)
    if forced is None:
        return None
    false_in_goals = 0
    union = states.goal_union_of(positive, negative)
    for atom in bit_indices(states.changing & states.full & ~union & ~forced):
        bit = 1 << atom
        if states.reaches(bit, 0) and not states.reaches(positive | bit, negative):
            false_in_goals |= bit
    positive_only = not any(states.reaches(forced | (1 << atom), 0)
                            for atom in bit_indices(negative))
    return states.unmask(forced), states.unmask(false_in_goals), positive_only
