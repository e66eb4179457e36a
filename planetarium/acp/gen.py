"""Exact scorers for ACPBench Hard's eight generative tasks.

Each scorer takes the question's grounded task, the parsed answer and the options, and returns a
:class:`Verdict`: ``score`` 1.0 or 0.0 with a reason that says *why* (the missing effect, the
inapplicable action and its false preconditions, the plan that reaches the "unreachable" atom),
or ``None`` with status ``undecided`` when the exact search ran out of budget.

Definitions (the paper's, the default) and where ``semantics="published"`` (the published
evaluator's lookups) or ``just_rule`` differ:

* ``app``: the answered set equals the set of ground actions applicable in the current state.
* ``prog``: the answered lists equal ``t - s`` and ``s - t`` for ``t`` the successor state.
* ``reach``: the answered atom, a type-consistent atom of a fluent predicate (the question's
  "available propositions"), holds in no reachable state; ``None`` is right iff every such atom
  is reachable.  *published*: the atom is looked up in the stored example list (``None`` right
  iff the list is empty), so a correct unreachable atom missing from the examples scores 0.
* ``areach``: the answered type-consistent ground action is applicable in no reachable state;
  ``None`` right iff every such action can become applicable.  *published*: lookup as for reach.
* ``val``: the answer is the 0-based index of the first action whose preconditions fail.
* ``just``: the answer is a proper in-order subsequence of the quoted plan that is still a plan
  (the ACPBench Hard paper's evaluation: the generator's "remove one action or two consecutive
  ones" was relaxed to this), under both semantics.  ``just_rule="one-or-two-consecutive"``
  accepts only the generator's removals: one action, or two consecutive ones.
* ``land``: the answered atom holds neither now nor in the goal, and every plan makes it true
  (the goal is unreachable when it is forbidden); ``None`` right iff no such atom exists.
  *published*: the atom is looked up in the stored ``yes`` list.
* ``nexta``: the answered action is applicable and ``h*(s[a]) = h*(s) - 1``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..errors import PlanetariumError, ResourceLimitError
from ..limits import Deadline
from ..strips.relaxed import (
    LMCut,
    astar_length,
    h2_mutex,
    h2_reachable_pairs,
    optimal_length,
    plan_exists,
    relaxed_closure,
)
from ..strips.search import GroundTask, bit_task
from ..strips.symmetry import StateMerger, interchangeable, schema_constants
from ..strips.validate import validate_plan
from .answers import AnswerParseError, Parsed, index, single, step_list, two_lists
from .data import AcpItem
from .gold import as_step
from .model import CLOCK, AcpTask, Step
from .questions import described_action, question_plan

SEMANTICS = ("paper", "published")
#: How ``just`` answers may shorten the plan (see the module docstring).
JUST_RULES = ("subsequence", "one-or-two-consecutive")


@dataclass(frozen=True)
class Rules:
    """The definitions one grading run uses: ``semantics`` and the ``just`` rule."""

    semantics: str = "paper"
    just: str = "subsequence"

    def __post_init__(self) -> None:
        if self.semantics not in SEMANTICS:
            raise ValueError(f"semantics must be one of {SEMANTICS}, got '{self.semantics}'")
        if self.just not in JUST_RULES:
            raise ValueError(f"just_rule must be one of {JUST_RULES}, got '{self.just}'")

    @property
    def published(self) -> bool:
        return self.semantics == "published"


@dataclass(frozen=True)
class Verdict:
    """One graded answer.  ``status``: correct, wrong, unparseable, undecided or error."""

    score: float | None
    status: str
    reason: str


def right(reason: str) -> Verdict:
    return Verdict(1.0, "correct", reason)


def wrong(reason: str) -> Verdict:
    return Verdict(0.0, "wrong", reason)


def undecided(reason: str) -> Verdict:
    return Verdict(None, "undecided", reason)


def show(step: Step) -> str:
    return "(" + " ".join(step) + ")"


def _shows(steps, limit: int = 4) -> str:
    steps = sorted(steps)
    more = f" and {len(steps) - limit} more" if len(steps) > limit else ""
    return ", ".join(show(s) for s in steps[:limit]) + more


def _missing_pre(task: AcpTask, step: Step, state=None) -> str:
    action = task.action(step)
    if isinstance(action, str):
        return action
    state = task.state if state is None else state
    return "false precondition(s) " + _shows(action.pre - state)


# --- app / prog / val / just -----------------------------------------------------------------

def score_app(task: AcpTask, item: AcpItem, parsed: Parsed, rules: Rules) -> Verdict:
    answered = set(step_list(parsed))
    if not answered and not any(e[0] == "list" for e in parsed.elements):
        return wrong("no actions in the answer")
    truth = task.applicable()
    extra, missing = answered - truth, truth - answered
    if not extra and not missing:
        return right(f"all {len(truth)} applicable actions, nothing else")
    parts = []
    if extra:
        first = min(extra)
        parts.append(f"{len(extra)} not applicable, e.g. {show(first)}: {_missing_pre(task, first)}")
    if missing:
        parts.append(f"{len(missing)} applicable action(s) missing: {_shows(missing)}")
    return wrong("; ".join(parts))


def score_prog(task: AcpTask, item: AcpItem, parsed: Parsed, rules: Rules) -> Verdict:
    step, why = described_action(task, item.question)
    if step is None:
        return undecided(f"cannot tell which action the question means: {why}")
    pos, neg = two_lists(parsed)
    true_pos, true_neg = task.effects(step)
    problems = []
    for name, got, want in (("positive", set(pos), set(true_pos)),
                            ("negative", set(neg), set(true_neg))):
        if got - want:
            problems.append(f"not a {name} effect: {_shows(got - want)}")
        if want - got:
            problems.append(f"missing {name} effect: {_shows(want - got)}")
    if problems:
        return wrong(f"{show(step)}: " + "; ".join(problems))
    return right(f"{show(step)}: {len(true_pos)} positive, {len(true_neg)} negative effects")


def _first_failure(task: AcpTask, plan: list[Step]) -> tuple[int | None, str]:
    result = validate_plan(task.domain, task.problem, plan)
    if result.step is None:
        return None, result.message
    return result.step, result.message


def score_val(task: AcpTask, item: AcpItem, parsed: Parsed, rules: Rules) -> Verdict:
    answer = index(parsed)
    plan = question_plan(item.question)
    first, message = _first_failure(task, plan)
    if first is None:
        return undecided(f"every action of the quoted plan is applicable ({message})")
    if answer == first:
        return right(f"action {first} {show(plan[first])} is the first inapplicable: {message}")
    if 0 <= answer < first:
        return wrong(f"action {answer} {show(plan[answer])} is applicable there; the first "
                     f"inapplicable is {first}")
    return wrong(f"index {answer} is past the first inapplicable action {first} "
                 f"{show(plan[first])}" if answer >= 0 else f"index {answer} is negative")


def _is_subsequence(short: list[Step], long: list[Step]) -> bool:
    it = iter(long)
    return all(any(step == other for other in it) for step in short)


def score_just(task: AcpTask, item: AcpItem, parsed: Parsed, rules: Rules) -> Verdict:
    answer = step_list(parsed)
    plan = question_plan(item.question)
    if not answer:
        return wrong("no plan in the answer")
    removed = len(plan) - len(answer)
    if removed <= 0 or not _is_subsequence(answer, plan):
        extra = Counter(answer) - Counter(plan)
        why = (f"it adds {_shows(extra)}" if extra else
               "it reorders the actions" if removed > 0 else f"it removes {removed} action(s)")
        return wrong(f"not a proper in-order subsequence of the plan: {why}")
    if rules.just == "one-or-two-consecutive":
        ok = any(plan[:i] + plan[i + w:] == answer
                 for w in (1, 2) if w == removed for i in range(len(plan) - w + 1))
        if not ok:
            return wrong(f"removes {removed} action(s), not one action or two consecutive ones")
    result = validate_plan(task.domain, task.problem, answer)
    if not result.ok:
        return wrong(f"the simplified plan is not a plan: {result.message}")
    return right(f"removes {removed} action(s) and still reaches the goal")


# --- reachability, landmarks, next action -----------------------------------------------------

def _search(task: AcpTask, goal, forbidden=()):
    instances, _ = task.relaxed
    return plan_exists(bit_task(instances, task.state, goal, forbidden), task.budget.max_states,
                       task.cache.get("deadline"))


def _goal_task(task: AcpTask) -> tuple[GroundTask, LMCut, dict, StateMerger]:
    """The bit-set task towards the goal, its LM-cut (values kept across searches), the bit of
    each atom and the merger of symmetric states, built once per question: searches from the
    current state and from its successors differ only in ``init``."""
    if "goal-task" not in task.cache:
        ground = bit_task(task.relaxed[0], task.state, task.problem.goal)
        bits = {atom: 1 << i for i, atom in enumerate(ground.atoms)}
        domain = task.domain
        static = [a for a in task.state if a[0] in domain.static_predicates]
        classes = interchangeable(task.types, static, task.problem.goal,
                                  schema_constants(domain))
        changing = 0
        for add, delete in zip(ground.add, ground.delete, strict=True):
            changing |= add | delete
        merger = StateMerger(ground.atoms, classes, changing)
        task.cache["goal-task"] = (ground, LMCut(ground), bits, merger)
    return task.cache["goal-task"]


def _shortest(task: AcpTask, state, bound: int | None = None) -> int | None:
    """Optimal plan length from ``state``: breadth-first on a small budget, then A* + LM-cut,
    which searches symmetric states once (merging costs about what breadth-first search spends
    per state, so it pays only where each state costs an LM-cut evaluation)."""
    ground, heuristic, bits, merge = _goal_task(task)
    ground = replace(ground, init=sum(bits[a] for a in state if a in bits))
    deadline = task.cache.get("deadline")
    try:
        return optimal_length(ground, min(task.budget.max_states, 5_000), bound, deadline)
    except ResourceLimitError:
        return astar_length(ground, task.budget.max_states, bound, deadline, heuristic,
                            merge)


def _lower_bound(task: AcpTask) -> float:
    """LM-cut of the current state: h* is at least this (cheap, one evaluation)."""
    ground, heuristic, _, _ = _goal_task(task)
    return heuristic(ground.init)


def reachable(task: AcpTask, atoms) -> Verdict | bool | str:
    """Whether some reachable state holds every atom of ``atoms``.

    ``True``; or why none can, as text (a certificate: delete relaxation or an h^2 mutex, or
    the exhaustive search); or an ``undecided`` verdict when the search ran out of budget.
    """
    atoms = frozenset(atoms)
    if atoms <= task.state:
        return True
    missing = atoms - task.relaxed[1]
    if missing:
        return f"{_shows(missing)} never holds (not even delete-relaxed reachable)"
    mutex = h2_mutex(task.h2, atoms)
    if mutex:
        if mutex[0] == mutex[1]:
            return f"h^2 finds no way to reach {show(mutex[0])}"
        return f"{_shows(set(mutex))} never hold together (h^2 mutex)"
    try:
        plan = _search(task, atoms)
    except ResourceLimitError as err:
        return undecided(f"search for a state holding {_shows(atoms)}: {err}")
    return True if plan is not None else "exhaustive search found no reachable state holding it"


def _stored(item: AcpItem, key: str | None = None) -> set[Step]:
    values = item.answer if key is None else item.answer[key]
    return {as_step(v) for v in values}


def score_reach(task: AcpTask, item: AcpItem, parsed: Parsed, rules: Rules) -> Verdict:
    atom = single(parsed)
    if rules.published:
        if atom is None:
            return (right if not item.answer else wrong)("None vs the stored examples")
        return (right if atom in _stored(item) else wrong)("lookup in the stored examples")
    if atom is None:
        return _none_reach(task)
    problem = task.atom_problem(atom)
    if problem:
        return wrong(f"{show(atom)} is not a proposition of the task: {problem}")
    verdict = reachable(task, [atom])
    if isinstance(verdict, Verdict):
        return verdict
    if verdict is True:
        where = "holds in the current state" if atom in task.state else "a reachable state holds it"
        return wrong(f"reachable atom: {show(atom)} ({where})")
    return right(f"{show(atom)} is unreachable: {verdict}")


def _none_reach(task: AcpTask) -> Verdict:
    """Every certificate over all atoms before any search: delete relaxation, then h^2."""
    reached = task.relaxed[1]
    for atom in task.universe_atoms():
        if atom not in reached:
            return wrong(f"None, but {show(atom)} is unreachable (not delete-relaxed reachable)")
    for atom in task.universe_atoms():
        if h2_mutex(task.h2, [atom]):
            return wrong(f"None, but {show(atom)} is unreachable (h^2 finds no way to reach it)")
    seen = set(task.state)
    for atom in task.universe_atoms():
        if atom in seen:
            continue
        try:
            plan = _search(task, [atom])
        except ResourceLimitError as err:
            return undecided(f"None: cannot decide whether {show(atom)} is reachable: {err}")
        if plan is None:
            return wrong(f"None, but {show(atom)} is unreachable (exhaustive search)")
        seen |= _visited_atoms(task, plan)
    return right("None: every proposition of the task is reachable")


def _visited_atoms(task: AcpTask, plan) -> set:
    state = task.state
    seen = set(state)
    for step in plan:
        state = task.action(tuple(step)).apply(state)
        seen |= state
    return seen


def action_reachable(task: AcpTask, step: Step) -> Verdict | bool | str:
    """Whether the ground action ``step`` is applicable in some reachable state (see
    :func:`reachable`)."""
    return reachable(task, task.action(step).pre)


def score_areach(task: AcpTask, item: AcpItem, parsed: Parsed, rules: Rules) -> Verdict:
    step = single(parsed)
    if rules.published:
        if step is None:
            return (right if not item.answer else wrong)("None vs the stored examples")
        return (right if step in _stored(item) else wrong)("lookup in the stored examples")
    if step is None:
        return _none_areach(task)
    action = task.action(step)
    if isinstance(action, str):
        return wrong(f"{show(step)} is not a ground action of the task: {action}")
    verdict = action_reachable(task, step)
    if isinstance(verdict, Verdict):
        return verdict
    if verdict is True:
        return wrong(f"reachable action: {show(step)} can become applicable")
    return right(f"{show(step)} can never become applicable: {verdict}")


def _none_areach(task: AcpTask) -> Verdict:
    reached = task.relaxed[1]
    steps = list(task.universe_actions())
    for step in steps:
        action = task.action(step)
        if not action.pre <= reached:
            return wrong(f"None, but {show(step)} can never become applicable (precondition "
                         f"{_shows(action.pre - reached)} is not delete-relaxed reachable)")
    for step in steps:
        mutex = h2_mutex(task.h2, task.action(step).pre)
        if mutex:
            return wrong(f"None, but {show(step)} can never become applicable (preconditions "
                         f"{_shows(set(mutex))} are h^2 mutex)")
    for step in steps:
        verdict = action_reachable(task, step)
        if isinstance(verdict, Verdict):
            return undecided(f"None: {verdict.reason}")
        if verdict is not True:
            return wrong(f"None, but {show(step)} can never become applicable: {verdict}")
    return right("None: every ground action can become applicable")


def _relaxed_landmark(task: AcpTask, atom: Step) -> bool:
    """Without actions adding ``atom`` the goal is not even delete-relaxed reachable."""
    return not task.problem.goal <= relaxed_closure(task.relaxed[0], task.state, [atom])


def _h2_landmark(task: AcpTask, atom: Step) -> bool:
    """Without actions adding ``atom``, h^2 proves the goal unreachable (stronger than the
    delete relaxation, still polynomial)."""
    if atom in task.state:
        return False
    usable = [inst for inst in task.relaxed[0] if atom not in inst[2]]
    pairs = h2_reachable_pairs(usable, task.state, task.cache.get("deadline"))
    return h2_mutex(pairs, task.problem.goal) is not None


def is_landmark(task: AcpTask, atom: Step) -> Verdict | tuple[bool, str]:
    """Certificates first (delete relaxation, then h^2 without the atom's achievers), then
    exhaustive search for a plan that never makes it true."""
    if _relaxed_landmark(task, atom):
        return True, "without it the goal is not even delete-relaxed reachable"
    if _h2_landmark(task, atom):
        return True, "without it h^2 proves the goal unreachable"
    try:
        plan = _search(task, task.problem.goal, [atom])
    except ResourceLimitError as err:
        return undecided(f"search for a plan avoiding {show(atom)}: {err}")
    if plan is None:
        return True, "exhaustive search found no plan avoiding it"
    return False, f"a plan of {len(plan)} step(s) never makes it true"


def score_land(task: AcpTask, item: AcpItem, parsed: Parsed, rules: Rules) -> Verdict:
    atom = single(parsed)
    if rules.published:
        if atom is None:
            return (right if not item.answer["yes"] else wrong)("None vs the stored landmarks")
        return (right if atom in _stored(item, "yes") else wrong)("lookup in the stored landmarks")
    if atom is None:
        return _none_land(task)
    problem = task.atom_problem(atom)
    if problem:
        return wrong(f"{show(atom)} is not a proposition of the task: {problem}")
    if atom in task.state or atom in task.problem.goal:
        where = "the current state" if atom in task.state else "the goal"
        return wrong(f"trivial: {show(atom)} holds in {where}")
    verdict = is_landmark(task, atom)
    if isinstance(verdict, Verdict):
        return verdict
    ok, why = verdict
    return (right if ok else wrong)(f"{show(atom)} {'is' if ok else 'is not'} a landmark: {why}")


def _none_land(task: AcpTask) -> Verdict:
    try:
        plan = _search(task, task.problem.goal)
    except ResourceLimitError as err:
        return undecided(f"None: no plan found within the budget: {err}")
    if plan is None:
        return undecided("None: the goal is unreachable, so every fact is vacuously a landmark")
    # A landmark lies on every plan, so only the atoms this plan visits can be one; the
    # certificate for all of them before any search.
    trivial = set(task.state) | set(task.problem.goal)
    candidates = [a for a in sorted(_visited_atoms(task, plan) - trivial) if a[0] in task.fluents]
    for atom in candidates:
        if _relaxed_landmark(task, atom):
            return wrong(f"None, but {show(atom)} is a non-trivial landmark: without it the goal "
                         "is not even delete-relaxed reachable")
    for atom in candidates:
        verdict = is_landmark(task, atom)
        if isinstance(verdict, Verdict):
            return undecided(f"None: {verdict.reason}")
        if verdict[0]:
            return wrong(f"None, but {show(atom)} is a non-trivial landmark: {verdict[1]}")
    return right("None: no fact other than the initial and goal ones lies on every plan")


def optimal_cost(task: AcpTask) -> int | None:
    """h*(current state): the length of a shortest plan, ``None`` when the goal is unreachable."""
    if "h*" not in task.cache:
        task.cache["h*"] = _shortest(task, task.state)
    return task.cache["h*"]


def _stored_opt(item: AcpItem) -> int | None:
    opt = item.answer.get("opt") if isinstance(item.answer, dict) else None
    return int(opt) if str(opt).strip().isdigit() else None


def score_nexta(task: AcpTask, item: AcpItem, parsed: Parsed, rules: Rules) -> Verdict:
    """``h*(s[a]) = h*(s) - 1``.  The stored optimal cost is a certificate, checked before use:
    when LM-cut proves ``h*(s) >= opt`` and a plan of ``opt - 1`` steps from ``s[a]`` exists,
    both costs are proven without the optimal search from ``s``; otherwise h* is searched."""
    step = single(parsed)
    if step is None:
        return wrong("None is not an action")
    action = task.action(step)
    if isinstance(action, str):
        return wrong(f"{show(step)} is not a ground action of the task: {action}")
    if not action.applicable(task.state):
        return wrong(f"not applicable: {show(step)} has {_missing_pre(task, step)}")
    after = action.apply(task.state)
    opt = _stored_opt(item)
    try:
        if opt and _lower_bound(task) >= opt and _shortest(task, after, bound=opt - 1) is not None:
            return right(f"h* drops from {opt} to {opt - 1} (LM-cut proves h* >= {opt}, a plan "
                         f"of {opt - 1} steps follows {show(step)})")
        h_star = optimal_cost(task)
        if h_star is None:
            return undecided("the goal is unreachable from the current state")
        if h_star == 0:
            return wrong("the goal already holds; no action brings it closer")
        closer = _shortest(task, after, bound=h_star - 1)
    except ResourceLimitError as err:
        return undecided(f"optimal search: {err}")
    note = f" (the stored optimal cost {opt} is wrong)" if opt is not None and opt != h_star else ""
    if closer == h_star - 1:
        return right(f"h* drops from {h_star} to {h_star - 1}{note}")
    return wrong(f"h* is {h_star} now and not {h_star - 1} after {show(step)}{note}")


SCORERS: dict[str, Callable[[AcpTask, AcpItem, Parsed, Rules], Verdict]] = {
    "app": score_app, "prog": score_prog, "reach": score_reach, "areach": score_areach,
    "val": score_val, "just": score_just, "land": score_land, "nexta": score_nexta,
}


def score_gen(item: AcpItem, response: object, task: AcpTask | None = None,
              semantics: str = "paper", just_rule: str = "subsequence") -> Verdict:
    """Grade one response to a generative question (definitions: the module docstring)."""
    from .answers import parse_answer

    rules = Rules(semantics, just_rule)
    if response is None or (isinstance(response, str) and not response.strip()):
        return Verdict(0.0, "unparseable", "empty response")
    try:
        parsed = parse_answer(response)
    except AnswerParseError as err:
        return Verdict(0.0, "unparseable", str(err))
    try:
        task = task or AcpTask.from_item(item)
    except PlanetariumError as err:  # the question's own PDDL: a data problem, not the model's
        return Verdict(None, "error", f"cannot read the question's PDDL: {err}")

    task.cache["deadline"] = Deadline.start(task.budget.seconds, CLOCK)
    try:
        return SCORERS[item.task](task, item, parsed, rules)
    except AnswerParseError as err:
        return Verdict(0.0, "unparseable", str(err))
    except ResourceLimitError as err:  # a certificate (h^2) ran past the budget: no verdict
        return undecided(f"search budget spent: {err}")
    except ValueError as err:  # a question whose text does not hold what the task needs
        return Verdict(None, "error", f"question {item.id}: {err}")
