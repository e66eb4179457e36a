"""ARB-style questions rendered over this project's domains, with answers known by construction.

The tests (and anyone wanting ARB-style questions over their own instance) need questions in
ARB's layouts and English whose answers are known *without* reading the English back: the
renderer picks the fluents, actions and objects first, computes the answer from the states of
the plan (:class:`~planetarium.arb.simulate.World`), and only then writes the text with the
wordings of :mod:`.phrases` (one chosen at random per mention, fluent lists sorted by their
English, as ARB does).  One question per template ("frame") and plan length; both record
layouts (2024 and final).  Made-up fluents and actions (ARB's hallucination questions) use
wordings of this module's own, which no domain's English contains.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass
from typing import Any

from .builtin import builtin_domain
from .domain import Atom
from .phrases import phrase_book
from .simulate import State, Step, World

FLUENT_KINDS = ("base", "derived", "persistent", "static")
_KIND_NL_2024 = {"base": "base", "derived": "derived", "persistent": "self constraint",
                 "static": "static"}
_SIGN_NL_2024 = {"pos": "valid properties of the state",
                 "neg": "valid properties of the state that involve negations",
                 "pos_neg": "properties of the state"}
_SIGN_NL_FINAL = {"pos": "valid properties of the state that do not involve negations",
                  "neg": "valid properties of the state that involve negations",
                  "pos_neg": "valid properties of the state (both with and without negations)"}
_SIGN_KEY_2024 = {"pos": True, "neg": False, "pos_neg": None}
_MADE_UP = ("{0} is enchanted", "{0} hums quietly", "{0} has turned purple")


def join(items: list[str]) -> str:
    """ARB's list: "a", "a and b", "a, b and c"."""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


@dataclass
class Renderer:
    """Questions about one instance: ``plan`` runs from ``init`` (every step executable)."""

    domain_name: str
    version: str
    type_of: dict[str, str]
    init: frozenset[Atom]
    plan: list[Step]
    rng: random.Random

    def __post_init__(self) -> None:
        self.domain = builtin_domain(self.domain_name, self.version)
        self.book = phrase_book(self.domain_name, self.version)
        self.world = World(self.domain, self.type_of)
        run = self.world.run(self.init, self.plan)
        if run.failure is not None:
            raise ValueError(f"plan step {run.failure.index + 1} cannot be executed")
        self.states: tuple[State, ...] = run.states

    # -- English --------------------------------------------------------------------------
    def fluent(self, literal: tuple) -> str:
        positive, atom = literal
        return self.rng.choice(self.book.wordings("fluent", atom[0], positive, tuple(atom[1:])))

    def fluents(self, literals: list) -> str:
        return join(sorted(self.fluent(x) for x in literals))

    def action(self, step: Step) -> str:
        return self.rng.choice(self.book.wordings("action", step[0], True, step[1]))

    def actions(self, steps: list[Step]) -> str:
        return join([self.action(s) for s in steps])

    def made_up(self, obj: str) -> str:
        return self.rng.choice(_MADE_UP).format(obj)

    # -- facts ----------------------------------------------------------------------------
    def literals(self, state: State) -> list:
        return sorted({(True, a) for a in state} | {(False, a) for a in self.world.fluents - state})

    def of_kind(self, literals: list, kind: str | None) -> list:
        return [x for x in literals if kind is None or kind in self.domain.kinds_of(x[1][0])]

    def corrupted(self, n: int) -> tuple[list[Step], int]:
        """The plan's first ``n`` steps with one replaced by an action that cannot run there."""
        index = self.rng.randrange(n)
        bad = [s for s in self.world.actions if not self.world.applies(s, self.states[index])]
        steps = list(self.plan[:n])
        steps[index] = self.rng.choice(bad)
        return steps, index

    # -- records --------------------------------------------------------------------------
    def record(self, category: str, name: str, question: str, answer: Any, n: int, *,
               fluent_type: str | None = None, sign: str = "pos_neg") -> dict[str, Any]:
        tf = isinstance(answer, bool)
        common = {"domain_name": self.domain_name, "instance_id": "Instance_1",
                  "question_category": category, "question_name": name,
                  "fluent_type": f"{fluent_type}_fluents" if fluent_type else None,
                  "answer_type": "true_false_answer" if tf else "free_answer",
                  "question": question, "answer": str(answer), "plan_length": n,
                  "initial_state_nl": self.fluents([(True, a) for a in sorted(self.init)])}
        if self.version == "2024":
            objects: dict[str, list[str]] = {}
            for obj, kind in self.type_of.items():
                objects.setdefault(kind, []).append(obj)
            return {"id": str(uuid.UUID(int=self.rng.getrandbits(128))), **common,
                    "initial_state_asp": {"fluents": [_asp(a) for a in sorted(self.init)],
                                          "neg_fluents": [], "objects": objects},
                    "action_sequence": ["action_" + _asp((s[0], *s[1])) for s in self.plan],
                    "is_pos_fluent_question": _SIGN_KEY_2024[sign]}
        return {"question_id": str(uuid.UUID(int=self.rng.getrandbits(128))), **common,
                "fluent_sign_question": sign, "question_subcategories": [],
                "question_paraphrased": question, "initial_state_nl_paraphrased":
                common["initial_state_nl"]}

    def prefix(self, n: int, planned: bool = False) -> str:
        how = "planned to be performed" if planned else "performed"
        return (f"Given the initial condition, the following actions are {how}: "
                f"{self.actions(self.plan[:n])} to reach the current state. In this state,")

    def questions(self, n: int) -> list[dict[str, Any]]:
        """One question per frame at plan length ``n`` (1 <= n < len(plan))."""
        out = []
        for maker in (self._holds, self._all_hold, self._object_fluents, self._list_fluents,
                      self._state_is, self._actions, self._first_failure, self._executable,
                      self._effects, self._counts, self._failures_and_composites,
                      self._objects):
            out.extend(maker(n))
        return out

    def _sign_nl(self, sign: str) -> str:
        return (_SIGN_NL_2024 if self.version == "2024" else _SIGN_NL_FINAL)[sign]

    def _holds(self, n: int) -> list[dict]:
        state = self.states[n]
        out = []
        for literal in self.rng.sample(self.literals(state), 2):
            flipped = (not literal[0], literal[1])
            for fact, truth in ((literal, True), (flipped, False)):
                question = f"{self.prefix(n)} is it True or False that {self.fluent(fact)}?"
                out.append(self.record("fluent_tracking", "holds", question, truth, n,
                                       sign="pos" if fact[0] else "neg"))
        return out

    def _all_hold(self, n: int) -> list[dict]:
        state = self.literals(self.states[n])
        chosen = self.rng.sample(state, min(4, len(state)))
        out = []
        for listed, truth in ((chosen, True), (chosen[:-1] + [(not chosen[-1][0],
                                                               chosen[-1][1])], False)):
            nl = "properties of the state" if self.version == "2024" else self._sign_nl("pos_neg")
            question = (f"{self.prefix(n)} are all of the following {nl} True or False: "
                        f"{self.fluents(listed)}?")
            out.append(self.record("fluent_tracking", "all_hold", question, truth, n))
        obj = self.rng.choice(sorted({a for _, atom in chosen for a in atom[1:]} or
                                     set(self.type_of)))
        mine = [x for x in state if obj in x[1][1:]][:3]
        if mine and self.version == "2024":
            question = (f"{self.prefix(n)} is it True or False that the following properties of "
                        f"the state are correct for {obj}: {self.fluents(mine)}?")
            out.append(self.record("object_tracking", "object_properties", question, True, n))
        return out

    def _object_fluents(self, n: int) -> list[dict]:
        state = self.literals(self.states[n])
        obj = self.rng.choice(sorted(self.type_of))
        out = []
        for sign in ("pos", "neg", "pos_neg"):
            if self.version == "2024":
                kind = self.rng.choice([k for k in FLUENT_KINDS
                                        if self.of_kind(state, k)] or ["base"])
                chosen = [x for x in self.of_kind(state, kind) if obj in x[1][1:]
                          and (sign == "pos_neg" or x[0] == (sign == "pos"))]
                question = (f"{self.prefix(n)}. What are the {_KIND_NL_2024[kind]} properties "
                            f"of the state for {obj}? Write None if there are none")
            else:
                kind = None
                chosen = [x for x in state if obj in x[1][1:]
                          and (sign == "pos_neg" or x[0] == (sign == "pos"))]
                question = (f"{self.prefix(n)} what are the {self._sign_nl(sign)} for {obj}? "
                            "Write None if there are none")
            answer = self.fluents(chosen) if chosen else "None"
            out.append(self.record("fluent_tracking", "object_fluents", question, answer, n,
                                   fluent_type=kind, sign=sign))
        return out

    def _list_fluents(self, n: int) -> list[dict]:
        state = self.literals(self.states[n])
        out = []
        for sign in ("pos", "neg") if self.version == "2024" else ("pos", "neg", "pos_neg"):
            chosen = [x for x in state if sign == "pos_neg" or x[0] == (sign == "pos")]
            question = (f"{self.prefix(n)} list all {self._sign_nl(sign)}. Write None if there "
                        "are none.")
            out.append(self.record("state_tracking", "list_fluents", question,
                                   self.fluents(chosen) if chosen else "None", n, sign=sign))
        return out

    def _state_is(self, n: int) -> list[dict]:
        state = self.literals(self.states[n])
        flipped = list(state)
        i = self.rng.randrange(len(flipped))
        flipped[i] = (not flipped[i][0], flipped[i][1])
        out = []
        for listed, truth in ((state, True), (flipped, False)):
            if self.version == "2024":
                question = (f"{self.prefix(n)} are all of the following properties: "
                            f"{self.fluents(listed)}, correct? Respond with True or False.")
            else:
                question = (f"{self.prefix(n)} are all of the following "
                            f"{self._sign_nl('pos_neg')}? {self.fluents(listed)}. Respond with "
                            "True or False.")
            out.append(self.record("state_tracking", "state_is", question, truth, n))
        return out

    def _actions(self, n: int) -> list[dict]:
        state = self.states[n]
        executable = self.world.executable(state)
        inexecutable = [s for s in self.world.actions if s not in set(executable)]
        out = []
        for which, steps in (("executable", executable), ("inexecutable", inexecutable)):
            question = f"{self.prefix(n)} list all {which} actions. Write None if there are none."
            answer = self.actions(steps) if steps else "None"
            out.append(self.record("action_executability", which, question, answer, n))
        return out

    def _first_failure(self, n: int) -> list[dict]:
        out = []
        steps, index = self.corrupted(n)
        for shown, answer in ((self.plan[:n], "None"), (steps, self.action(steps[index]))):
            question = (f"Given the initial condition, the following actions are performed: "
                        f"{self.actions(shown)} to reach the current state. What is the first "
                        "inexecutable action in the sequence? Write None if there are none.")
            out.append(self.record("action_executability", "first_failure", question, answer, n))
        question = (f"Given the initial condition, the following actions are planned to be "
                    f"performed: {self.actions(steps)} to reach the current state. How many "
                    "actions are there before the first inexecutable action? Write as an "
                    "integer. Write None if there are none.")
        out.append(self.record("numerical_reasoning", "steps_before_failure", question, index, n))
        return out

    def _executable(self, n: int) -> list[dict]:
        steps, index = self.corrupted(n)
        out = []
        for shown, truth in ((list(self.plan[:n]), True), (steps, False)):
            question = (f"Given the initial condition, the following actions are planned to be "
                        f"performed: {self.actions(shown)}. Is it possible to execute it, True "
                        "or False?")
            out.append(self.record("action_executability", "sequence_executable", question,
                                   truth, n))
            k = index + 1
            question = (f"Given the initial condition, for steps 1 through {n} the following "
                        f"actions are planned to be performed: {self.actions(shown)}. Is the "
                        f"action: {self.action(shown[k - 1])} executable at step {k}, True or "
                        "False?")
            out.append(self.record("action_executability", "executable_at", question, truth, n))
        return out

    def _effects(self, n: int) -> list[dict]:
        before, after = self.literals(self.states[n]), self.literals(self.states[n + 1])
        new = sorted(set(after) - set(before))
        step = self.plan[n]
        out = []
        wrong = [(not x[0], x[1]) for x in new[:2]]
        for listed, truth in ((new, True), (wrong, False)):
            question = (f"{self.prefix(n)} if {self.action(step)}, is it True or False that "
                        f"{self.fluents(listed)}?")
            out.append(self.record("effects", "effect_holds", question, truth, n))
        for sign in ("pos", "neg", "pos_neg"):
            chosen = [x for x in after if sign == "pos_neg" or x[0] == (sign == "pos")]
            nl = (self._sign_nl(sign) if self.version != "2024" or sign != "pos_neg"
                  else "properties of the state")
            question = (f"{self.prefix(n)} if {self.action(step)}, what would be all of the "
                        f"{nl}? Write None if there are none.")
            out.append(self.record("effects", "effect_fluents", question, self.fluents(chosen), n,
                                   sign=sign))
        return out

    def _counts(self, n: int) -> list[dict]:
        state = self.states[n]
        executable = len(self.world.executable(state))
        literals = self.literals(state)
        counts = {"executable actions": executable,
                  "inexecutable actions": len(self.world.actions) - executable,
                  "valid properties of the state that involve negations":
                      sum(not x[0] for x in literals)}
        if self.version == "2024":
            counts["objects"] = len(self.type_of)
            counts["static properties of the state"] = len(self.of_kind(literals, "static"))
        else:
            counts["executable and inexecutable actions"] = len(self.world.actions)
            counts[_SIGN_NL_FINAL["pos"]] = sum(x[0] for x in literals)
        out = []
        for what, count in counts.items():
            question = (f"{self.prefix(n)} what is the total number of {what}? Write as an "
                        "integer. Write None if there are none.")
            out.append(self.record("numerical_reasoning", "count", question, count, n))
            for number, truth in ((count, True), (count + 1 + self.rng.randrange(3), False)):
                question = (f"{self.prefix(n)} is the number of {what} equal to {number}? True "
                            "or False")
                out.append(self.record("numerical_reasoning", "count_equals", question, truth, n))
        question = (f"Given the initial condition, the following actions are performed: "
                    f"{self.actions(self.plan[:n])} to reach the current state. Is it True or "
                    f"False that the number of actions that led to current state in the sequence "
                    f"is equal to {n}?")
        out.append(self.record("numerical_reasoning", "count_steps", question, True, n))
        return out

    def _failures_and_composites(self, n: int) -> list[dict]:
        steps, index = self.corrupted(n)
        before = self.literals(self.states[index])
        planned = (f"Given the initial condition, the following actions are planned to be "
                   f"performed: {self.actions(steps)} to reach the current state.")
        nl = "properties of the state" if self.version == "2024" else self._sign_nl("pos_neg")
        chosen = self.rng.sample(before, min(3, len(before)))
        out = [self.record("composite", "hold_before_failure",
                           f"{planned} Are the following {nl} true before the first "
                           f"inexecutable action in the sequence? "
                           f"{_capital(self.fluents(chosen))}. ", True, n),
               self.record("composite", "state_before_failure_is",
                           f"{planned} Some of the actions may not be executable. Is this the "
                           f"state before the first inexecutable action in the sequence? True "
                           f"or False{self.fluents(before)}", True, n),
               self.record("composite", "state_before_failure",
                           f"{planned} Some of the actions may not be executable. What is the "
                           f"state before the first infeasible action in the sequence? Write "
                           f"None if there are none", self.fluents(before), n)]
        if self.version != "2024":
            obj = self.rng.choice(sorted(self.type_of))
            mine = [x for x in before if obj in x[1][1:] and not x[0]]
            out.append(self.record(
                "composite", "object_fluents_before_failure",
                f"{planned} What are the {self._sign_nl('neg')} for {obj} before the first "
                f"infeasible action in the sequence? Write None if there are none",
                self.fluents(mine) if mine else "None", n, sign="neg"))
        return out

    def _objects(self, n: int) -> list[dict]:
        if self.version != "2024":
            return []
        kind = self.rng.choice(sorted(set(self.type_of.values())))
        named = sorted(o for o, t in self.type_of.items() if t == kind)
        obj = self.rng.choice(sorted(self.type_of))
        fake = obj + "9"
        out = [self.record("object_tracking", "objects_of_type",
                           f"{self.prefix(n)} list all objects associated with type {kind}. "
                           "Write None if there are none.", join(named), n),
               self.record("object_tracking", "type_of",
                           f"{self.prefix(n)} what is the object type for {join(named)}. Write "
                           "None if there are none.", kind, n),
               self.record("hallucination", "object_defined",
                           f"{self.prefix(n)} some objects may or may not be defined. Is {fake} "
                           "part of the domain? True or False", False, n),
               self.record("hallucination", "undefined_object",
                           f"{self.prefix(n)} some objects may or may not be defined. Which of "
                           f"the following objects, {join(sorted([obj, fake]))}, is not part of "
                           "the domain? Write None if all are defined.", fake, n)]
        state = self.literals(self.states[n])
        real = [x for x in self.rng.sample(state, min(3, len(state)))]
        made_up = self.made_up(obj)
        listed = sorted([self.fluent(x) for x in real] + [made_up])
        out.append(self.record("hallucination", "undefined_fluent",
                               f"{self.prefix(n)} some properties of the state may or may not "
                               f"be defined. What properties of the state out of, {join(listed)}, "
                               "is not defined? Write None if all are defined.", made_up, n))
        out.append(self.record("hallucination", "fluent_defined",
                               f"{self.prefix(n)} some properties of the state may or may not "
                               f"be defined. Is {made_up} part of the state? True or False",
                               False, n))
        return out


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _asp(atom: tuple) -> str:
    return atom[0] + (f"({','.join(atom[1:])})" if len(atom) > 1 else "")


def random_plan(domain_name: str, type_of: dict[str, str], init: frozenset, length: int,
                rng: random.Random) -> list[Step]:
    """A random walk of ``length`` executable actions from ``init`` (the renderer's plan)."""
    world = World(builtin_domain(domain_name), type_of)
    state, plan = init, []
    for _ in range(length):
        options = world.executable(state)
        if not options:
            break
        step = rng.choice(options)
        plan.append(step)
        state = world.apply(step, state)
    return plan
