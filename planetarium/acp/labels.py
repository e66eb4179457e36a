"""Is every stored yes/no and multiple-choice label true under our STRIPS semantics?

A yes/no or multiple-choice record carries no PDDL, only English.  Its context is read back into
a STRIPS problem with what the generative records of the same domain teach (:mod:`.english`;
only for domains whose reader reproduces those records), the question's action and fact
phrases with the generator's own descriptions (:mod:`.phrases`), and the question is then
decided with the exact machinery of the generative scorers:

* ``app``: the action is applicable in the current state;
* ``prog``: after the (applicable) action, every named fact holds;
* ``reach``: some reachable state holds every named fact (certificates, then search);
* ``areach``: some reachable state makes the action applicable;
* ``val``: the sequence's first step that is no ground action of the task makes it *not valid*,
  else its first inapplicable step makes it *not applicable*, else it is *applicable but does
  not achieve the goal* or *a plan* (the four exclusive claims of the multiple-choice
  questions); so the yes/no "valid in this problem" asks whether every step is an action of the
  task — "a plan for the current state" is asked separately;
* ``just``: removing the action (or the pair of consecutive actions) at some place where the
  plan has it leaves a plan.  An action the plan repeats has two readings, and the generator
  uses both: its "yes" examples remove some occurrence (on dev, often the last), its "no"
  examples test the first one.  Where the two readings differ, a label that either reading
  makes right is ``true`` (the reason says which), and another option counts against a
  multiple-choice label only when it is right under both;
* ``land``: the fact holds now, or every plan makes it true (the goal is unreachable with it
  forbidden).

A fact or action over objects of the wrong type can never hold or apply (typed PDDL has no such
ground atom); one that names an object the task does not have is unreadable rather than
guessed false.  Per question a :class:`LabelCheck` carries the shared status and, when decided,
the :class:`LabelVerdict`: ``true`` (the label is right; for multiple choice, the labelled
option is right and no other option is), ``false`` (with why) or ``ambiguous`` (multiple
choice: the labelled option is right, and so is another).  Undecided questions are
``timeout`` (a search ran out of its deadline or states), ``unsupported`` (the context or a
phrase could not be read; says what), ``skipped`` (the domain is not supported; says why) or
``invalid-input`` with ``bad_question`` (the question's premise is false: its action is not
applicable, or no plan exists for a landmark question; the reason holds the proof).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from ..errors import PlanetariumError, ResourceLimitError
from ..grading import Status
from ..limits import Deadline, collector_paused
from ..reasoning import (
    MAX_STATES,
    FalsePremise,
    GroundedTask,
    Method,
    Planner,
    Proof,
    Step,
    action_reachable,
    check_plan,
    is_landmark,
    reachable,
    show,
    shows,
)
from ..reasoning.plans import places, without
from .data import AcpItem
from .english import LearnedDomain, domain_of
from .phrases import PhraseError, normalize
from .reader import ReadError

_PLAN_SEPARATORS = (", ",)
_PAIR_SEPARATORS = (" and ",)


class LabelVerdict(str, Enum):
    """Our verdict on a stored label (see the module docstring)."""

    TRUE = "true"
    FALSE = "false"
    AMBIGUOUS = "ambiguous"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class LabelCheck:
    """The check of one stored label: the shared status, our verdict when decided, why."""

    status: Status
    verdict: LabelVerdict | None
    reason: str
    domain: str | None = None
    bad_question: bool = False



def label_outcome(row: dict) -> str:
    """One word for tables, from a :func:`label_row`: the verdict, bad-question, or the status."""
    if row.get("verdict") is not None:
        return str(row["verdict"])
    return "bad-question" if row.get("bad_question") else str(row["status"])


#: The table's outcome columns, in order (:func:`label_outcome`).
OUTCOMES = ("true", "false", "ambiguous", "timeout", "bad-question", "unsupported", "skipped")


@dataclass(frozen=True)
class Claim:
    """Our verdict on one statement: ``value`` True/False, or ``None`` when undecided."""

    value: bool | None
    reason: str
    #: ``just`` only: the value under the first-occurrence reading, where it differs
    first_occurrence: bool | None = None

    def matches(self, want: bool) -> bool:
        """Whether either reading gives ``want``."""
        return self.value == want or self.first_occurrence == want

    @property
    def surely_true(self) -> bool:
        return bool(self.value) and self.first_occurrence is not False


Judge = Callable[[str], Claim]


class _Frame:
    """One question's task, read context and domain: turns phrases into claims."""

    def __init__(self, known: LearnedDomain, model: GroundedTask, planner: Planner,
                 deadline: Deadline) -> None:
        self.known = known
        self.model = model
        self.planner = planner
        self.deadline = deadline

    def _objects(self, step: Step) -> None:
        for name in step[1:]:
            if name not in self.model.types:
                raise ReadError(f"{show(step)} names {name}, not an object of the task")

    def action(self, phrase: str) -> Step | str:
        """The ground action a phrase describes, or why it is none (wrong types)."""
        step = self.known.actions.read(phrase)
        self._objects(step)
        why = self.model.why_not_action(step)
        return step if why is None else f"{show(step)} is no ground action: {why}"

    def atoms(self, phrase: str) -> tuple[list[Step], str | None]:
        """The atoms a phrase states, and why one of them can never hold (wrong types)."""
        steps = self.known.atoms.read_list(phrase)
        for step in steps:
            self._objects(step)
        for step in steps:
            why = self.model.atom_problem(step, fluent_only=False)
            if why:
                return steps, f"{show(step)} can never hold: {why}"
        return steps, None

    def plan(self, phrase: str) -> list[Step]:
        """The steps of a quoted plan ("a, b, c": descriptions joined by commas)."""
        steps = self.known.actions.read_list(phrase, _PLAN_SEPARATORS)
        for step in steps:
            self._objects(step)
        return steps


def _claim(prove: Callable[[], Proof], yes: str) -> Claim:
    """A reachability proof as a claim (undecided when the search ran out of budget)."""
    try:
        proof = prove()
    except ResourceLimitError as err:
        return Claim(None, str(err))
    return Claim(True, yes) if proof.holds else Claim(False, proof.reason)


# --- the seven tasks: a question's match -> the judge of its phrase(s) ---------------------------

def _app(frame: _Frame, match: re.Match) -> Judge:
    def judge(phrase: str) -> Claim:
        step = frame.action(phrase)
        if isinstance(step, str):
            return Claim(False, step)
        missing = frame.model.unmet(frame.model.state, step)
        if missing:
            return Claim(False, f"{show(step)} needs " + ", ".join(show(a) for a in sorted(missing)))
        return Claim(True, f"{show(step)} is applicable")

    return judge


def _prog(frame: _Frame, match: re.Match) -> Judge:
    step = frame.action(match.group("action"))
    if isinstance(step, str):
        raise ReadError(f"the action: {step}")
    model = frame.model
    missing = model.unmet(model.state, step)
    if missing:
        raise FalsePremise("the question asks what follows its action", Proof(
            False, Method.STATE, f"{show(step)} is not applicable in the current state: false "
                                 f"precondition(s) {shows(missing)}"))
    after = model.progress(model.state, step)

    def judge(phrase: str) -> Claim:
        atoms, never = frame.atoms(phrase)
        if never:
            return Claim(False, never)
        missing = [a for a in atoms if a not in after]
        if missing:
            return Claim(False, f"after {show(step)}, {show(missing[0])} does not hold")
        return Claim(True, f"after {show(step)}, " + ", ".join(show(a) for a in atoms) + " hold")

    return judge


def _reach(frame: _Frame, match: re.Match) -> Judge:
    def judge(phrase: str) -> Claim:
        atoms, never = frame.atoms(phrase)
        if never:
            return Claim(False, never)
        return _claim(lambda: reachable(frame.planner, atoms, frame.deadline),
                      "a reachable state holds " + ", ".join(show(a) for a in atoms))

    return judge


def _areach(frame: _Frame, match: re.Match) -> Judge:
    def judge(phrase: str) -> Claim:
        step = frame.action(phrase)
        if isinstance(step, str):
            return Claim(False, step)
        return _claim(lambda: action_reachable(frame.planner, step, frame.deadline),
                      f"{show(step)} is applicable in a reachable state")

    return judge


_VAL_OUTCOMES = {"not valid": "The sequence is not valid",
                 "not applicable": "The sequence is not applicable",
                 "applicable": "The sequence is applicable, but does not achieve the goal",
                 "plan": "The sequence is a plan"}
_VAL_BOOL = {"a plan for the current state": {"plan"},
             "valid in this problem": {"plan", "applicable", "not applicable"},
             "applicable in the current state": {"plan", "applicable"}}


def _val_outcome(frame: _Frame, plan: list[Step]) -> tuple[str, str]:
    for number, step in enumerate(plan):
        why = frame.model.why_not_action(step)
        if why is not None:
            return "not valid", f"step {number} {show(step)} is no ground action: {why}"
    result = check_plan(frame.model, plan)
    if result.trace.failure is not None:
        return "not applicable", result.reason
    if not result.ok:
        return "applicable", f"every step applies; {result.reason}"
    return "plan", f"all {len(plan)} steps apply and the goal holds"


def _val(frame: _Frame, match: re.Match) -> Judge:
    outcome, why = _val_outcome(frame, frame.plan(match.group("plan")))
    if match.groupdict().get("ask"):
        wanted = _VAL_BOOL[match.group("ask")]
        return lambda phrase: Claim(outcome in wanted, f"{outcome}: {why}")

    def judge(phrase: str) -> Claim:
        claimed = [k for k, text in _VAL_OUTCOMES.items() if normalize(phrase) == text]
        if not claimed:
            raise ReadError(f"unknown claim '{phrase}'")
        return Claim(claimed[0] == outcome, f"the sequence is {outcome}: {why}")

    return judge


def _just(frame: _Frame, match: re.Match) -> Judge:
    plan = frame.plan(match.group("plan"))
    pair = "pair" in match.group("what")

    def judge(phrase: str) -> Claim:
        if pair:
            removed = frame.known.actions.read_list(phrase, _PAIR_SEPARATORS)
            if len(removed) != 2:
                raise ReadError(f"'{phrase}' is not a pair of actions")
        else:
            removed = [frame.known.actions.read(phrase)]
        found = places(plan, removed)
        if not found:
            return Claim(False, "the plan has no " + " followed by ".join(map(show, removed)))
        results = [check_plan(frame.model, without(plan, i, len(removed))) for i in found]
        good = [i for i, r in zip(found, results, strict=True) if r.ok]
        span = len(removed) - 1
        if not good:
            more = f" (and at its {len(found) - 1} other place(s))" if len(found) > 1 else ""
            return Claim(False, f"removing it at step {found[0]}{more} leaves no plan: "
                                f"{results[0].reason}")
        if good[0] == found[0]:
            return Claim(True, f"without step(s) {good[0]}..{good[0] + span} it is a plan")
        return Claim(True, f"without step(s) {good[0]}..{good[0] + span} it is a plan, but not "
                           f"without its first occurrence at {found[0]} ({results[0].reason})",
                     first_occurrence=False)

    return judge


def _land(frame: _Frame, match: re.Match) -> Judge:
    def judge(phrase: str) -> Claim:
        atoms, never = frame.atoms(phrase)
        if len(atoms) != 1:
            raise ReadError(f"'{phrase}' is not one fact")
        atom = atoms[0]
        if atom in frame.model.state:
            return Claim(True, f"{show(atom)} holds now, so on every plan")
        try:
            frame.planner.require_plan(frame.deadline, "a landmark question")
            if never:
                return Claim(False, never + ", and the goal is reachable")
            proof = is_landmark(frame.planner, atom, frame.deadline)
        except ResourceLimitError as err:
            return Claim(None, str(err))
        verb = "is" if proof.holds else "is not"
        return Claim(proof.holds, f"{show(atom)} {verb} a landmark: {proof.reason}")

    return judge


#: task -> (bool question, multiple-choice question, frame builder); patterns on normalized text.
_QUESTIONS: dict[str, tuple[str, str, Callable[[_Frame, re.Match], Judge]]] = {
    "app": (r"Is the following action applicable in this state: (?P<phrase>.+)\?",
            r"Which of the following actions will be applicable in this state\?", _app),
    "prog": (r'Will the fact "(?P<phrase>.+)" hold after performing the action "(?P<action>.+)" '
             r"in the current state\?",
             r'Which of the following facts hold after performing the action "(?P<action>.+?)" '
             r"in the current state\?", _prog),
    "reach": (r"Is it possible to transition to a state where the following holds: "
              r"(?P<phrase>.+)\?",
              r"Which of the following options can hold in a state that can potentially be "
              r"reached\?", _reach),
    "areach": (r'Is it possible to transition to a state where the action "(?P<phrase>.+)" can '
               r"be applied\?",
               r"Which of the following actions can eventually be applied\?", _areach),
    "val": (r'Is the following sequence of actions "(?P<plan>.+)" (?P<ask>a plan for the current '
            r"state|valid in this problem|applicable in the current state)\?",
            r"Which of the following claims is true with regard to the following sequence of "
            r'actions "(?P<plan>.+?)"', _val),
    "just": (r'Given the plan: "(?P<plan>.+)"; can the following (?P<what>action|pair of '
             r"consecutive actions) be removed from this plan and still have a valid plan: "
             r"(?P<phrase>.+)\?",
             r'Given the plan: "(?P<plan>.+?)"; which of the following (?P<what>actions|pairs of '
             r"consecutive actions) can be removed from this plan and still have a valid plan\?",
             _just),
    "land": (r"Is the following fact a landmark \(must hold at some point along any plan\) for "
             r"the current state\? (?P<phrase>.+)",
             r"Which of the following facts is a landmark \(must hold at some point along any "
             r"plan\) for the current state\?", _land),
}


def _outcome(item: AcpItem, frame: _Frame) -> tuple[LabelVerdict | None, str]:
    """Our verdict (``None``: undecided) and why, for one question whose context was read."""
    bool_pattern, mcq_pattern, build = _QUESTIONS[item.task]
    question = normalize(item.question)
    if item.kind == "bool":
        match = re.fullmatch(bool_pattern, question)
        if match is None:
            raise ReadError("the question is not in a known form")
        claim = build(frame, match)(match.group("phrase") if "phrase" in match.groupdict()
                                    else "")
        if claim.value is None:
            return None, claim.reason
        ours = "yes" if claim.value else "no"
        label = str(item.answer).strip().lower()
        if claim.matches(label == "yes"):
            if ours != label:
                return (LabelVerdict.TRUE,
                        f"{label} under the first-occurrence reading: {claim.reason}")
            return LabelVerdict.TRUE, f"{ours}: {claim.reason}"
        return LabelVerdict.FALSE, f"{ours}: {claim.reason}"
    match = re.match(mcq_pattern, question)
    if match is None:
        raise ReadError("the question is not in a known form")
    return _choose(item, build(frame, match))


def _choose(item: AcpItem, judge: Judge) -> tuple[LabelVerdict | None, str]:
    """Judge every option; the labelled one must be right, another right too is ambiguous."""
    choices = item.choices or {}
    texts, letters = choices.get("text") or [], choices.get("label") or []
    label = str(item.answer).strip().upper()
    if label not in letters or len(texts) != len(letters):
        raise ReadError(f"the label {label} is not one of the options {letters}")
    claims: dict[str, Claim | str] = {}
    for letter, text in zip(letters, texts, strict=True):
        try:
            claims[letter] = judge(text)
        except (ReadError, PhraseError) as err:
            claims[letter] = str(err)
    mine = claims[label]
    if isinstance(mine, str):
        raise ReadError(f"option {label}: {mine}")
    if mine.value is None:
        return None, f"option {label}: {mine.reason}"
    others_true = [k for k, c in claims.items()
                   if k != label and isinstance(c, Claim) and c.surely_true]
    unread = [k for k, c in claims.items() if k != label and not isinstance(c, Claim)]
    if not mine.matches(True):
        right = f"; right: {', '.join(others_true)}" if others_true else ""
        return LabelVerdict.FALSE, f"option {label}: {mine.reason}{right}"
    if others_true:
        other = claims[others_true[0]]
        why = other.reason if isinstance(other, Claim) else other
        return LabelVerdict.AMBIGUOUS, (f"option {label}: {mine.reason}; but option "
                                        f"{others_true[0]} too: {why}")
    open_ = [k for k, c in claims.items() if k != label and isinstance(c, Claim) and c.value is None]
    notes = ([f"options {', '.join(unread)} not read"] if unread else []) + (
        [f"options {', '.join(open_)} undecided"] if open_ else [])
    note = f" ({'; '.join(notes)})" if notes else ""
    return LabelVerdict.TRUE, f"option {label}: {mine.reason}{note}"


def check_label(item: AcpItem, known: dict[str, LearnedDomain], deadline: Deadline, *,
                max_states: int = MAX_STATES) -> LabelCheck:
    """Check one yes/no or multiple-choice label within ``deadline`` (``known``: the domains
    learned from the data's generative records, :func:`.english.learn`); never raises for
    what the question holds."""
    domain = domain_of(item.context, known)
    if domain is None:
        return LabelCheck(Status.SKIPPED, None, "no generative record of this question's domain")
    if not domain.supported or domain.domain is None:
        return LabelCheck(Status.SKIPPED, None, domain.why_unsupported(), domain.name)
    try:
        with deadline.applied(), collector_paused():
            model = GroundedTask(domain.domain, domain.read(item.context))
            frame = _Frame(domain, model, Planner(model, max_states), deadline)
            verdict, reason = _outcome(item, frame)
    except (ReadError, PhraseError) as err:
        return LabelCheck(Status.UNSUPPORTED, None, str(err), domain.name)
    except FalsePremise as err:
        return LabelCheck(Status.INVALID_INPUT, None, f"bad question: {err}", domain.name,
                          bad_question=True)
    except ResourceLimitError as err:  # grounding past the deadline: no verdict either way
        return LabelCheck(Status.TIMEOUT, None, str(err), domain.name)
    except PlanetariumError as err:  # the read problem breaks a rule of the STRIPS core
        return LabelCheck(Status.UNSUPPORTED, None, f"the read problem is not usable: {err}",
                          domain.name)
    if verdict is None:
        return LabelCheck(Status.TIMEOUT, None, reason, domain.name)
    return LabelCheck(Status.DECIDED, verdict, reason, domain.name)


def label_row(item: AcpItem, check: LabelCheck, seconds: float) -> dict:
    """One question's line of ``acp check-labels``' report."""
    return {"id": item.id, "task": item.task, "kind": item.kind, "domain": check.domain,
            "label": item.answer, "status": str(check.status),
            "verdict": None if check.verdict is None else str(check.verdict),
            "bad_question": check.bad_question, "reason": check.reason, "seconds": round(seconds, 4)}
