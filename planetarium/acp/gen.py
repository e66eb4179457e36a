"""Exact scorers for ACPBench Hard's eight generative tasks.

Each scorer reads the parsed answer against the question's task with the STRIPS question
semantics of :mod:`planetarium.reasoning` and returns a :class:`~.grades.Grade`: right or wrong
with a reason that says *why* (the missing effect, the inapplicable action and its false
preconditions, the plan that reaches the "unreachable" atom), ``timeout`` when a search ran out
of its deadline or state budget, and a *bad question* — with the proof — when the question's
premise is false (no plan exists for a landmark or next-action question, the quoted plan of a
validation question has no inapplicable action, the described action of a progression question
is not applicable or is ambiguous, the plan to simplify is not a plan).

Definitions (the paper's, the default) and where ``semantics="published"`` (the published
evaluator's lookups) or the ``just`` rule differ:

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
  ones" was relaxed to this), under both semantics.  ``just="one-or-two-consecutive"`` accepts
  only the generator's removals: one action, or two consecutive ones.
* ``land``: the answered atom holds neither now nor in the goal, and every plan makes it true
  (the goal is unreachable when it is forbidden); ``None`` right iff no such atom exists.
  *published*: the atom is looked up in the stored ``yes`` list.
* ``nexta``: the answered action is applicable and ``h*(s[a]) = h*(s) - 1``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import PlanetariumError, ResourceLimitError, UnsupportedFeatureError
from ..limits import Deadline
from ..reasoning import (
    MAX_STATES,
    FalsePremise,
    GroundedTask,
    Method,
    Planner,
    Proof,
    Step,
    action_reachable,
    all_actions_reachable,
    all_atoms_reachable,
    check_plan,
    is_landmark,
    is_subsequence,
    next_action,
    nontrivial_landmark,
    reachable,
    show,
    shows,
)
from . import grades
from .answers import AnswerParseError, Parsed, index, parse_answer, single, step_list, two_lists
from .data import AcpItem, as_step
from .grades import Grade, right, wrong
from .questions import described_action, question_plan, question_task

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
class Question:
    """One generative question being graded: its record, task, searches, rules and deadline."""

    item: AcpItem
    task: GroundedTask
    planner: Planner
    rules: Rules
    deadline: Deadline

    def require_plan(self) -> None:
        """Questions about plans presuppose one: a bad question when the goal is unreachable."""
        self.planner.require_plan(self.deadline, f"a {self.item.task} question")


def _why_inapplicable(task: GroundedTask, step: Step) -> str:
    why = task.why_not_action(step)
    return why or "false precondition(s) " + shows(task.unmet(task.state, step))


# --- app / prog / val / just -----------------------------------------------------------------

def score_app(q: Question, parsed: Parsed) -> Grade:
    answered = set(step_list(parsed))
    if not answered and not any(e[0] == "list" for e in parsed.elements):
        return wrong("no actions in the answer")
    truth = q.task.applicable_actions()
    extra, missing = answered - truth, truth - answered
    if not extra and not missing:
        return right(f"all {len(truth)} applicable actions, nothing else")
    parts = []
    if extra:
        first = min(extra)
        parts.append(f"{len(extra)} not applicable, e.g. {show(first)}: "
                     f"{_why_inapplicable(q.task, first)}")
    if missing:
        parts.append(f"{len(missing)} applicable action(s) missing: {shows(missing)}")
    return wrong("; ".join(parts))


def score_prog(q: Question, parsed: Parsed) -> Grade:
    step = described_action(q.task, q.item.question)
    pos, neg = two_lists(parsed)
    true_pos, true_neg = q.task.effects(q.task.state, step)
    problems = []
    for name, got, want in (("positive", set(pos), set(true_pos)),
                            ("negative", set(neg), set(true_neg))):
        if got - want:
            problems.append(f"not a {name} effect: {shows(got - want)}")
        if want - got:
            problems.append(f"missing {name} effect: {shows(want - got)}")
    if problems:
        return wrong(f"{show(step)}: " + "; ".join(problems))
    return right(f"{show(step)}: {len(true_pos)} positive, {len(true_neg)} negative effects")


def score_val(q: Question, parsed: Parsed) -> Grade:
    answer = index(parsed)
    plan = question_plan(q.item.question)
    failure = q.task.run(q.task.state, plan).failure
    if failure is None:
        raise FalsePremise("the question asks for the first inapplicable action", Proof(
            False, Method.STATE, f"every action of the quoted plan is applicable "
                                 f"({check_plan(q.task, plan).reason})"))
    first = failure.index
    if answer == first:
        return right(f"action {first} {show(plan[first])} is the first inapplicable: "
                     f"{failure.reason}")
    if 0 <= answer < first:
        return wrong(f"action {answer} {show(plan[answer])} is applicable there; the first "
                     f"inapplicable is {first}")
    return wrong(f"index {answer} is past the first inapplicable action {first} "
                 f"{show(plan[first])}" if answer >= 0 else f"index {answer} is negative")


def score_just(q: Question, parsed: Parsed) -> Grade:
    answer = step_list(parsed)
    plan = question_plan(q.item.question)
    quoted = check_plan(q.task, plan)
    if not quoted.ok:
        raise FalsePremise("the question asks to simplify a plan", Proof(
            False, Method.STATE, f"the quoted sequence is not a plan: {quoted.reason}"))
    if not answer:
        return wrong("no plan in the answer")
    removed = len(plan) - len(answer)
    if removed <= 0 or not is_subsequence(answer, plan):
        extra = Counter(answer) - Counter(plan)
        why = (f"it adds {shows(extra)}" if extra else
               "it reorders the actions" if removed > 0 else f"it removes {removed} action(s)")
        return wrong(f"not a proper in-order subsequence of the plan: {why}")
    if q.rules.just == "one-or-two-consecutive":
        ok = any(plan[:i] + plan[i + w:] == answer
                 for w in (1, 2) if w == removed for i in range(len(plan) - w + 1))
        if not ok:
            return wrong(f"removes {removed} action(s), not one action or two consecutive ones")
    shortened = check_plan(q.task, answer)
    if not shortened.ok:
        return wrong(f"the simplified plan is not a plan: {shortened.reason}")
    return right(f"removes {removed} action(s) and still reaches the goal")


# --- reachability, landmarks, next action -----------------------------------------------------

def _about(proof: Proof) -> str:
    """The atom or action an existence proof found."""
    return show(proof.about) if proof.about is not None else "some atom"


def _lookup(item: AcpItem, answer: Step | None, key: str | None = None) -> Grade:
    """The published evaluator: the answer looked up in the stored examples."""
    stored = item.answer if key is None else item.answer[key]
    if answer is None:
        return (right if not stored else wrong)("None vs the stored examples")
    return (right if answer in {as_step(v) for v in stored} else wrong)(
        "lookup in the stored examples")


def score_reach(q: Question, parsed: Parsed) -> Grade:
    atom = single(parsed)
    if q.rules.published:
        return _lookup(q.item, atom)
    if atom is None:
        proof = all_atoms_reachable(q.planner, q.deadline)
        if proof.holds:
            return right("None: every proposition of the task is reachable")
        return wrong(f"None, but {_about(proof)} is unreachable ({proof.reason})")
    problem = q.task.atom_problem(atom)
    if problem:
        return wrong(f"{show(atom)} is not a proposition of the task: {problem}")
    proof = reachable(q.planner, [atom], q.deadline)
    if proof.holds:
        where = ("holds in the current state" if atom in q.task.state
                 else "a reachable state holds it")
        return wrong(f"reachable atom: {show(atom)} ({where})")
    return right(f"{show(atom)} is unreachable: {proof.reason}")


def score_areach(q: Question, parsed: Parsed) -> Grade:
    step = single(parsed)
    if q.rules.published:
        return _lookup(q.item, step)
    if step is None:
        proof = all_actions_reachable(q.planner, q.deadline)
        if proof.holds:
            return right("None: every ground action can become applicable")
        return wrong(f"None, but {_about(proof)} can never become applicable "
                     f"({proof.reason})")
    why = q.task.why_not_action(step)
    if why:
        return wrong(f"{show(step)} is not a ground action of the task: {why}")
    proof = action_reachable(q.planner, step, q.deadline)
    if proof.holds:
        return wrong(f"reachable action: {show(step)} can become applicable")
    return right(f"{show(step)} can never become applicable: {proof.reason}")


def score_land(q: Question, parsed: Parsed) -> Grade:
    atom = single(parsed)
    if q.rules.published:
        return _lookup(q.item, atom, "yes")
    q.require_plan()
    if atom is None:
        proof = nontrivial_landmark(q.planner, q.deadline)
        if proof.holds:
            return wrong(f"None, but {_about(proof)} is a non-trivial landmark: "
                         f"{proof.reason}")
        return right("None: no fact other than the initial and goal ones lies on every plan")
    problem = q.task.atom_problem(atom)
    if problem:
        return wrong(f"{show(atom)} is not a proposition of the task: {problem}")
    if atom in q.task.state or atom in q.task.goal:
        where = "the current state" if atom in q.task.state else "the goal"
        return wrong(f"trivial: {show(atom)} holds in {where}")
    proof = is_landmark(q.planner, atom, q.deadline)
    verb = "is" if proof.holds else "is not"
    return (right if proof.holds else wrong)(f"{show(atom)} {verb} a landmark: {proof.reason}")


def _stored_opt(item: AcpItem) -> int | None:
    opt = str(item.answer.get("opt") if isinstance(item.answer, dict) else "").strip()
    return int(opt) if opt.isdigit() else None


def score_nexta(q: Question, parsed: Parsed) -> Grade:
    """``h*(s[a]) = h*(s) - 1``; the stored optimal cost is a hint, checked before it is used
    (:func:`planetarium.reasoning.next_action`)."""
    step = single(parsed)
    if step is None:
        q.require_plan()
        return wrong("None is not an action")
    why = q.task.why_not_action(step)
    if why:
        q.require_plan()
        return wrong(f"{show(step)} is not a ground action of the task: {why}")
    opt = _stored_opt(q.item)
    proof = next_action(q.planner, step, q.deadline, hint=opt)
    cost = q.planner.optimal.get(q.task.state)
    note = (f" (the stored optimal cost {opt} is wrong)"
            if opt is not None and cost is not None and opt != cost else "")
    return (right if proof.holds else wrong)(proof.reason + note)


SCORERS: dict[str, Callable[[Question, Parsed], Grade]] = {
    "app": score_app, "prog": score_prog, "reach": score_reach, "areach": score_areach,
    "val": score_val, "just": score_just, "land": score_land, "nexta": score_nexta,
}


PAPER = Rules()


def score_gen(item: AcpItem, response: object, deadline: Deadline, rules: Rules = PAPER,
              max_states: int = MAX_STATES, task: GroundedTask | None = None) -> Grade:
    """Grade one response to a generative question (definitions: the module docstring).

    ``task``: the question's task when the caller has read it already.  The deadline bounds
    reading the question's PDDL too (when :meth:`~planetarium.limits.Deadline.applied`).
    """
    if response is None or (isinstance(response, str) and not response.strip()):
        return grades.unparseable("empty response")
    try:
        parsed = parse_answer(response)
    except AnswerParseError as err:
        return grades.unparseable(str(err))
    try:
        task = task or question_task(item)
    except ResourceLimitError as err:
        return grades.timeout(f"reading the question's PDDL: {err}")
    except UnsupportedFeatureError as err:
        return grades.unsupported(f"the question's PDDL: {err}")
    except (PlanetariumError, ValueError) as err:  # the question's own PDDL: a data problem
        return grades.invalid(f"cannot read the question's PDDL: {err}")
    question = Question(item, task, Planner(task, max_states), rules, deadline)
    try:
        return SCORERS[item.task](question, parsed)
    except AnswerParseError as err:
        return grades.unparseable(str(err))
    except FalsePremise as err:
        return grades.bad_question(str(err))
    except ResourceLimitError as err:
        return grades.timeout(f"search budget spent: {err}")
    except UnsupportedFeatureError as err:  # a goal outside the questions' fragment
        return grades.unsupported(f"question {item.id}: {err}")
    except ValueError as err:  # a question whose text does not hold what the task needs
        return grades.invalid(f"question {item.id}: {err}")
