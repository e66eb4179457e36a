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
ground atom); one that names an object the task does not have is *unreadable* rather than
guessed false.  Per question the status is ``true`` (the label is right; for multiple choice,
the labelled option is right and no other option is), ``false`` (with why), ``ambiguous``
(multiple choice: the labelled option is right, and so is another), ``undecided`` (a search ran
out of budget), ``unreadable`` (the context or a phrase could not be read; says what) or
``unchecked`` (the domain is not supported; says why).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import PlanetariumError, ResourceLimitError
from ..limits import Deadline
from ..strips.validate import validate_plan
from .data import AcpItem
from .english import Domain, domain_of
from .gen import Verdict, action_reachable, is_landmark, reachable, show
from .model import CLOCK, AcpTask, Budget, Step
from .phrases import PhraseError, normalize
from .reader import ReadError

STATUSES = ("true", "false", "ambiguous", "undecided", "unreadable", "unchecked")
_PLAN_SEPARATORS = (", ",)
_PAIR_SEPARATORS = (" and ",)


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

    def __init__(self, known: Domain, model: AcpTask) -> None:
        self.known = known
        self.model = model

    def _objects(self, step: Step) -> None:
        for name in step[1:]:
            if name not in self.model.types:
                raise ReadError(f"{show(step)} names {name}, not an object of the task")

    def action(self, phrase: str) -> Step | str:
        """The ground action a phrase describes, or why it is none (wrong types)."""
        step = self.known.actions.read(phrase)
        self._objects(step)
        action = self.model.action(step)
        return step if not isinstance(action, str) else f"{show(step)} is no ground action: {action}"

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


def _claim(verdict: Verdict | bool | str, yes: str) -> Claim:
    """A :func:`.gen.reachable`-style answer as a claim."""
    if isinstance(verdict, Verdict):
        return Claim(None, verdict.reason)
    return Claim(True, yes) if verdict is True else Claim(False, verdict)


# --- the seven tasks: a question's match -> the judge of its phrase(s) ---------------------------

def _app(frame: _Frame, match: re.Match) -> Judge:
    def judge(phrase: str) -> Claim:
        step = frame.action(phrase)
        if isinstance(step, str):
            return Claim(False, step)
        action = frame.model.action(step)
        missing = action.pre - frame.model.state
        if missing:
            return Claim(False, f"{show(step)} needs " + ", ".join(show(a) for a in sorted(missing)))
        return Claim(True, f"{show(step)} is applicable")

    return judge


def _prog(frame: _Frame, match: re.Match) -> Judge:
    step = frame.action(match.group("action"))
    if isinstance(step, str):
        raise ReadError(f"the action: {step}")
    action = frame.model.action(step)
    if not action.applicable(frame.model.state):
        raise ReadError(f"{show(step)} is not applicable in the current state: the question "
                        "has no answer")
    after = action.apply(frame.model.state)

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
        return _claim(reachable(frame.model, atoms), "a reachable state holds "
                      + ", ".join(show(a) for a in atoms))

    return judge


def _areach(frame: _Frame, match: re.Match) -> Judge:
    def judge(phrase: str) -> Claim:
        step = frame.action(phrase)
        if isinstance(step, str):
            return Claim(False, step)
        return _claim(action_reachable(frame.model, step),
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
        action = frame.model.action(step)
        if isinstance(action, str):
            return "not valid", f"step {number} {show(step)} is no ground action: {action}"
    result = validate_plan(frame.model.domain, frame.model.problem, plan)
    if result.step is not None:
        return "not applicable", f"step {result.step}: {result.message}"
    if not result.ok:
        return "applicable", f"every step applies; {result.message}"
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
        places = [i for i in range(len(plan) - len(removed) + 1)
                  if plan[i:i + len(removed)] == removed]
        if not places:
            return Claim(False, "the plan has no " + " followed by ".join(map(show, removed)))
        results = [validate_plan(frame.model.domain, frame.model.problem,
                                 plan[:i] + plan[i + len(removed):]) for i in places]
        good = [i for i, r in zip(places, results, strict=True) if r.ok]
        span = len(removed) - 1
        if not good:
            more = f" (and at its {len(places) - 1} other place(s))" if len(places) > 1 else ""
            return Claim(False, f"removing it at step {places[0]}{more} leaves no plan: "
                                f"{results[0].message}")
        if good[0] == places[0]:
            return Claim(True, f"without step(s) {good[0]}..{good[0] + span} it is a plan")
        return Claim(True, f"without step(s) {good[0]}..{good[0] + span} it is a plan, but not "
                           f"without its first occurrence at {places[0]} ({results[0].message})",
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
        if never:
            plan = _claim(reachable(frame.model, frame.model.problem.goal), "")
            if plan.value is None:
                return plan
            return Claim(not plan.value, never + (", and the goal is reachable" if plan.value
                                                  else ", but no plan exists at all"))
        verdict = is_landmark(frame.model, atom)
        if isinstance(verdict, Verdict):
            return Claim(None, verdict.reason)
        return Claim(verdict[0], f"{show(atom)} {'is' if verdict[0] else 'is not'} a landmark: "
                     f"{verdict[1]}")

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


def _outcome(item: AcpItem, frame: _Frame) -> tuple[str, str]:
    """(status, reason) of one question whose context was read."""
    bool_pattern, mcq_pattern, build = _QUESTIONS[item.task]
    question = normalize(item.question)
    if item.kind == "bool":
        match = re.fullmatch(bool_pattern, question)
        if match is None:
            raise ReadError("the question is not in a known form")
        claim = build(frame, match)(match.group("phrase") if "phrase" in match.groupdict()
                                    else "")
        if claim.value is None:
            return "undecided", claim.reason
        ours = "yes" if claim.value else "no"
        label = str(item.answer).strip().lower()
        if claim.matches(label == "yes"):
            if ours != label:
                return "true", f"{label} under the first-occurrence reading: {claim.reason}"
            return "true", f"{ours}: {claim.reason}"
        return "false", f"{ours}: {claim.reason}"
    match = re.match(mcq_pattern, question)
    if match is None:
        raise ReadError("the question is not in a known form")
    return _choose(item, build(frame, match))


def _choose(item: AcpItem, judge: Judge) -> tuple[str, str]:
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
        return "undecided", f"option {label}: {mine.reason}"
    others_true = [k for k, c in claims.items()
                   if k != label and isinstance(c, Claim) and c.surely_true]
    unread = [k for k, c in claims.items() if k != label and not isinstance(c, Claim)]
    if not mine.matches(True):
        right = f"; right: {', '.join(others_true)}" if others_true else ""
        return "false", f"option {label}: {mine.reason}{right}"
    if others_true:
        other = claims[others_true[0]]
        return "ambiguous", (f"option {label}: {mine.reason}; but option {others_true[0]} too: "
                             f"{other.reason}")
    open_ = [k for k, c in claims.items() if k != label and isinstance(c, Claim) and c.value is None]
    notes = ([f"options {', '.join(unread)} not read"] if unread else []) + (
        [f"options {', '.join(open_)} undecided"] if open_ else [])
    note = f" ({'; '.join(notes)})" if notes else ""
    return "true", f"option {label}: {mine.reason}{note}"


def check_item(item: AcpItem, known: dict[str, Domain], budget: Budget) -> dict:
    """One result row: id, task, kind, domain, label, status, reason, seconds."""
    start = time.perf_counter()
    domain = domain_of(item.context, known)
    name = domain.name if domain else None
    if domain is None:
        status, reason = "unchecked", "no generative record of this question's domain"
    elif not domain.supported:
        status, reason = "unchecked", domain.why_unsupported()
    else:
        try:
            model = AcpTask(domain.domain, domain.read(item.context), budget)
            model.cache["deadline"] = Deadline.start(budget.seconds, CLOCK)
            status, reason = _outcome(item, _Frame(domain, model))
        except (ReadError, PhraseError) as err:
            status, reason = "unreadable", str(err)
        except ResourceLimitError as err:  # grounding past the budget: no verdict either way
            status, reason = "undecided", str(err)
        except PlanetariumError as err:  # the read problem breaks a rule of the STRIPS core
            status, reason = "unreadable", f"the read problem is not usable: {err}"
    return {"id": item.id, "task": item.task, "kind": item.kind, "domain": name,
            "label": item.answer, "status": status, "reason": reason,
            "seconds": round(time.perf_counter() - start, 4)}
