"""fully_specify for the single-rover, single-lander rover domain.

Why the rules below are exact.  Apart from the rover's position every changing fact is
monotone: ``have_*`` and ``communicated_*`` are only ever added, and ``available`` /
``channel_free`` are deleted and re-added by the same action, so they keep their initial value.
No action is forced, so a monotone fact holds in every goal state exactly when it is initial,
is a goal, or is the ``have_*`` precondition of a goal communication that is not initial.

The position is what needs thought.  The rover moves along the directed edges y -> z with
``can_traverse y z``, ``visible y z`` (and ``available``).  Inside a strongly connected
component it can visit everything and stop anywhere, so a run is a path through the
condensation DAG, and visiting a component may as well do every task it can: acquire every
item with a site there (sample site, or a ``visible_from`` waypoint of an objective whose mode
some camera supports), then, if the component holds a waypoint that sees the lander, send every
acquired item the goal wants communicated.  Doing more never hurts (facts are monotone), so a
forward pass in topological order that keeps, per component, only the maximal sets of finished
work is exact.  The rover can end anywhere in a component reached with all work done; its
position is forced when that leaves one waypoint (or the goal names it).

The original implementation enumerated all simple paths times orders of stops, and ignored image
goals when deciding where the rover ends.  Here the pass is linear in the graph times the number
of kept work sets, which is one per component whenever the graph is strongly connected or the
goal's sites are not spread over alternative branches.  Deciding a general DAG is NP-hard (image
sites along alternative branches encode SAT), so the kept sets are bounded and
:class:`~planetarium.errors.ResourceLimitError` is raised past the bound.  A rover standing on
several waypoints at once (not a well-formed init) goes to the bounded brute force.
"""

from __future__ import annotations

from collections import defaultdict

from ...errors import ResourceLimitError
from ...pddl.domain import Atom
from ...pddl.problem import Problem
from ...strips.exact import reachable_goal_intersection
from ..base import Domain

#: States the brute force may enumerate for a rover on several waypoints at once (each state
#: tries every ground action, so this is seconds, not minutes).
BRUTE_FORCE_MAX_STATES = 20_000

#: Component visits (one per kept work set and outgoing edge) before the forward pass gives up.
MAX_VISITS = 200_000

#: (have predicate, communicated predicate) per kind of data.
_KINDS = {
    "soil": ("have_soil_analysis", "communicated_soil_data"),
    "rock": ("have_rock_analysis", "communicated_rock_data"),
    "image": ("have_image", "communicated_image_data"),
}
_HAVE_TO_COMM = {have: comm for have, comm in _KINDS.values()}
_COMM_TO_HAVE = {comm: have for have, comm in _KINDS.values()}


def _components(start: str, edges: dict[str, set[str]]) -> tuple[list[list[str]], dict[str, int]]:
    """Strongly connected components reachable from ``start``, in topological order.

    Iterative Tarjan (which emits components in reverse topological order), reversed.
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    work = [(start, iter(sorted(edges[start])))]
    index[start] = low[start] = 0
    stack.append(start)
    on_stack.add(start)
    while work:
        node, successors = work[-1]
        advanced = False
        for succ in successors:
            if succ not in index:
                index[succ] = low[succ] = len(index)
                stack.append(succ)
                on_stack.add(succ)
                work.append((succ, iter(sorted(edges[succ]))))
                advanced = True
                break
            if succ in on_stack:
                low[node] = min(low[node], index[succ])
        if advanced:
            continue
        work.pop()
        if work:
            parent = work[-1][0]
            low[parent] = min(low[parent], low[node])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            found.append(component)
    found.reverse()
    component_of = {w: i for i, comp in enumerate(found) for w in comp}
    return found, component_of


def _add_maximal(kept: list[int], work: int) -> None:
    """Insert ``work`` into an antichain of bit sets, keeping only the maximal ones."""
    if any(work & other == work for other in kept):
        return
    kept[:] = [other for other in kept if other & work != other]
    kept.append(work)


def _end_waypoints(problem: Problem, start: str) -> set[str] | None:
    """Waypoints where a run that achieves the goal's data work can end; None if no run can.

    Work is a bit set: bit i = item i acquired, bit n + i = item i communicated.
    """
    init, goal = problem.init, problem.goal
    moving = ("available",) in init
    talking = moving and ("channel_free",) in init
    edges: dict[str, set[str]] = defaultdict(set)
    if moving:
        for atom in init:
            if atom[0] == "can_traverse" and ("visible", atom[1], atom[2]) in init:
                edges[atom[1]].add(atom[2])
    landers = {a[1] for a in init if a[0] == "at_lander"}
    talk_sites = {a[1] for a in init if a[0] == "visible" and a[2] in landers} if talking else set()
    modes = {a[2] for a in init if a[0] == "supports"}
    image_sites: dict[str, set[str]] = defaultdict(set)
    for atom in init:
        if atom[0] == "visible_from":
            image_sites[atom[1]].add(atom[2])

    def sites(have: Atom) -> set[str]:
        if have[0] == "have_image":
            return image_sites[have[1]] if have[2] in modes else set()
        sample = "at_soil_sample" if have[0] == "have_soil_analysis" else "at_rock_sample"
        return {have[1]} if (sample, have[1]) in init else set()

    items: dict[Atom, int] = {}  # have-atoms the run must acquire or send -> their bit
    n = len(goal)  # more bits than items: communicated bits start at n
    want = done = 0
    for atom in sorted(goal - init):
        if atom[0] in _HAVE_TO_COMM:
            have, comm_bit = atom, False
        elif atom[0] in _COMM_TO_HAVE:
            have, comm_bit = (_COMM_TO_HAVE[atom[0]],) + atom[1:], True
        else:
            continue
        i = items.setdefault(have, len(items))
        if comm_bit:
            want |= 1 << (n + i)
        if have in init:
            done |= 1 << i
        else:
            want |= 1 << i
    components, component_of = _components(start, edges)
    acquires = [0] * len(components)  # per component, the items some member offers
    for have, i in items.items():
        for c in {component_of[w] for w in sites(have) if w in component_of}:
            acquires[c] |= 1 << i
    gains = [(acquire, any(w in talk_sites for w in comp))
             for acquire, comp in zip(acquires, components, strict=True)]

    def visit(c: int, work: int) -> int:
        acquire, talk = gains[c]
        work |= acquire
        if talk:
            work |= (work & ((1 << n) - 1)) << n
        return work

    kept: list[list[int]] = [[] for _ in components]
    kept[0].append(visit(0, done))
    visits = 1
    ends: set[str] = set()
    for c, comp in enumerate(components):
        if any(work & want == want for work in kept[c]):
            ends.update(comp)
        successors = {component_of[z] for w in comp for z in edges[w]} - {c}
        for succ in successors:
            for work in kept[c]:
                _add_maximal(kept[succ], visit(succ, work))
            visits += len(kept[c])
            if visits > MAX_VISITS:
                raise ResourceLimitError(
                    f"rover: more than {MAX_VISITS} component visits; giving up")
    return ends or None


def fully_specify(domain: Domain, problem: Problem) -> frozenset[Atom] | None:
    """Every fact true in all goal states reachable from ``problem``'s init (None: none is)."""
    init, goal = problem.init, problem.goal
    starts = [a[1] for a in init if a[0] == "at_rover"]
    if len(starts) > 1:
        return reachable_goal_intersection(domain.definition, problem, BRUTE_FORCE_MAX_STATES)
    if not starts:  # every action needs the rover somewhere: the initial state is all there is
        return init if goal <= init else None
    fixed = domain.definition.static_predicates | {"available", "channel_free"}
    if any(a[0] in fixed and a not in init for a in goal):
        return None
    ends = _end_waypoints(problem, starts[0])
    if ends is None:
        return None
    wanted = {a[1] for a in goal if a[0] == "at_rover"}
    if len(wanted) > 1 or not wanted <= ends:
        return None
    facts = {a for a in init if a[0] != "at_rover"} | set(goal)
    facts.update((_COMM_TO_HAVE[a[0]],) + a[1:] for a in goal - init if a[0] in _COMM_TO_HAVE)
    if len(ends) == 1:
        facts.add(("at_rover", *ends))
    return frozenset(facts)


def closed_form_covers(problem: Problem) -> bool:
    """Whether :func:`fully_specify` uses the forward pass (the rover on at most one waypoint)."""
    return sum(1 for a in problem.init if a[0] == "at_rover") <= 1
