"""The answer to an ARB question, recomputed by simulation, with the facts that make it so.

A :class:`Truth` is the recomputed answer (a bool, a count, or a set of literals, actions,
objects, types or made-up items; the empty set stands for ARB's "None") and a certificate: the
state the question is about, the step and action, the fact that decides.  Where the question
cannot be answered as asked, the truth says so instead of guessing: ``ambiguous`` (ARB's wording
names more than one fluent or action and the answer depends on which) or ``unsupported`` (an
item is not ARB's English for this domain; the question's premise is false, e.g. "in this
state" after an action that cannot run; a fluent kind the domain does not classify).

Literals are ``(positive, atom)``; actions ``(name, args)``; both print in ARB's ASP notation
(``-on(b1,b2)``, ``stack(b1,b2)``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from .instance import Instance
from .questions import FluentSet, Question
from .reader import Item, ListReading, read_list
from .records import ArbRecord
from .simulate import State, Trace

#: What an operation (``_Evaluator.op_*``) returns: the answer, the reason, the certificate.
Outcome = tuple[Any, str, dict[str, Any]]
#: Picks the meanings of an ambiguous step at a position of the sequence (the plan's step).
Resolver = Callable[[int, frozenset], frozenset]

NONE = "None"  # the answer "None" of a count that has no value (no inexecutable action)


def asp(meaning: Any) -> str:
    """A literal, action or object in ARB's ASP notation."""
    if isinstance(meaning, str):
        return meaning
    if isinstance(meaning[0], bool):
        positive, atom = meaning
        text = atom[0] + (f"({','.join(atom[1:])})" if len(atom) > 1 else "")
        return text if positive else "-" + text
    name, args = meaning
    return f"{name}({','.join(args)})"


@dataclass(frozen=True)
class Truth:
    """``status``: "decided", "ambiguous" or "unsupported" (``value`` None unless decided)."""

    status: str
    value: Any = None
    reason: str = ""
    certificate: dict[str, Any] = field(default_factory=dict)
    context: dict[str, Any] = field(default_factory=dict)
    #: an ill-posed question whose readings differ: its family and the generator's reading
    #: (``value`` is the reading as written)
    ill_posed: tuple[str, Any] | None = None
    #: an ambiguous question's answer under each of its readings (empty: not all decided)
    alternatives: tuple = ()

    @property
    def decided(self) -> bool:
        return self.status == "decided"


class _Stop(Exception):
    def __init__(self, status: str, reason: str, certificate: dict | None = None) -> None:
        super().__init__(reason)
        self.truth = Truth(status, None, reason, certificate or {})


class _Open(Exception):
    """An item of the question reads several ways: answer under each, then compare."""

    def __init__(self, key: tuple[str, int], text: str, meanings: frozenset) -> None:
        super().__init__(text)
        self.key, self.text, self.meanings = key, text, meanings


#: At most this many readings of a question are tried (its open items multiply).
MAX_READINGS = 64


def recompute(record: ArbRecord, question: Question, instance: Instance) -> Truth:
    """The answer to ``question`` (of ``record``) in ``instance``.

    An item of the question that ARB's English leaves open (2024 logistics' "truck is driven
    from airports l0_1 to l1_1" names no truck) is answered under every reading: one answer
    decides, different answers make the question ambiguous.  An ill-posed question
    (:data:`~.questions.ILL_POSED`) is answered as written, with the generator's reading beside
    it where the two differ."""
    truth = _under_every_reading(record, question, instance)
    if question.generated is None or not truth.decided:
        return truth
    family, meant = question.generated
    other = _under_every_reading(record, meant, instance)
    if other.decided and other.value != truth.value:
        return replace(truth, ill_posed=(family, other.value))
    return truth


def _under_every_reading(record: ArbRecord, question: Question, instance: Instance) -> Truth:
    pending: list[dict] = [{}]
    answers: list[tuple[dict, Truth]] = []
    while pending:
        chosen = pending.pop()
        try:
            answers.append((chosen, _Evaluator(record, question, instance, chosen).run()))
        except _Stop as stop:
            answers.append((chosen, stop.truth))
        except _Open as open_item:
            if len(answers) + len(pending) + len(open_item.meanings) > MAX_READINGS:
                return Truth("ambiguous", reason=f"{open_item.text!r} may mean " + " or ".join(
                    sorted(asp(m) for m in open_item.meanings)))
            pending.extend({**chosen, open_item.key: m}
                           for m in sorted(open_item.meanings, key=asp))
    first = answers[0][1]
    if len(answers) == 1:
        return first
    values = {repr(t.value) if t.decided else t.status for _, t in answers}
    if len(values) == 1 and first.decided:
        return replace(first, reason=f"{first.reason} (under each of {len(answers)} readings)")
    readings = "; ".join(
        ", ".join(asp(m) for m in chosen.values()) + ": "
        + (repr(to_plain(t.value)) if t.decided else t.status) for chosen, t in answers)
    decided = all(t.decided for _, t in answers)
    return Truth("ambiguous", reason="the question reads several ways with different answers: "
                 + readings, alternatives=tuple(t.value for _, t in answers) if decided else ())


def to_plain(value: Any) -> Any:
    """A value in ASP text, for reasons."""
    if isinstance(value, frozenset):
        return sorted(asp(x) for x in value)
    return value


def literals(instance: Instance, state: State) -> frozenset:
    """Every literal true in ``state``: its fluents, and the negation of every other fluent."""
    return frozenset({(True, a) for a in state}
                     | {(False, a) for a in instance.world.fluents - state})


def holds(state: State, literal: tuple) -> bool:
    positive, atom = literal
    return (atom in state) == positive


class _Evaluator:
    def __init__(self, record: ArbRecord, question: Question, instance: Instance,
                 chosen: dict | None = None) -> None:
        self.record, self.q, self.instance = record, question, instance
        self.chosen = chosen or {}
        self.lexicon = instance.lexicon
        self.context: dict[str, Any] = {}
        self.previous: State = instance.init

    # -- reading --------------------------------------------------------------------------
    def _list(self, kind: str, text: str, *, allow_unread: bool = False) -> ListReading:
        return read_list(self.lexicon, kind, text.strip().rstrip("."),
                         allow_unread=allow_unread)

    def _unique(self, items: tuple[Item, ...], what: str,
                resolve: Callable[[int, frozenset], frozenset] | None = None,
                slot: str = "") -> list:
        """Each item's one meaning; an item with several is answered under each (``slot``
        tells this list's items from another's)."""
        out = []
        for index, item in enumerate(items):
            if not item.meanings:
                raise _Stop("unsupported", f"{what} {item.text!r} is not ARB's English for "
                            f"any {self._noun(what)} of {self.record.domain}")
            meanings = item.meanings
            if len(meanings) > 1 and resolve is not None:
                meanings = resolve(index, meanings)
            if len(meanings) > 1:
                key = (slot or what, index)
                if key not in self.chosen:
                    raise _Open(key, item.text, meanings)
                meanings = frozenset({self.chosen[key]})
            out.append(next(iter(meanings)))
        return out

    @staticmethod
    def _noun(what: str) -> str:
        return "action" if "action" in what else "fluent"

    def _plan_resolver(self) -> Resolver | None:
        """An ambiguous step of the shown sequence is the plan's step at that position, when
        the record carries the plan and the plan's step is one of the readings."""
        plan = self.record.plan
        if plan is None:
            return None

        def resolve(index: int, meanings: frozenset) -> frozenset:
            if index < len(plan) and plan[index] in meanings:
                return frozenset({plan[index]})
            return meanings
        return resolve

    def sequence(self) -> list:
        if not self.q.sequence:
            return []
        reading = self._list("action", self.q.sequence)
        if reading.ambiguous_split:
            raise _Stop("ambiguous", "the action sequence splits into actions in more than one "
                        "way")
        return self._unique(reading.items, "action", self._plan_resolver(), "sequence")

    # -- states ---------------------------------------------------------------------------
    def run_sequence(self, steps: list) -> Trace:
        return self.instance.world.run(self.instance.init, steps)

    def end_state(self, steps: list, run: Trace) -> State:
        if run.failure is not None:
            index = run.failure.index
            step = steps[index]
            raise _Stop("unsupported", f"the question's premise is false: step {index + 1}, "
                        f"{asp(step)}, cannot be executed", self._failure(run, steps))
        return run.states[-1]

    def _failure(self, run: Trace, steps: list) -> dict:
        failure = run.failure
        return {"step": failure.index + 1 if failure is not None else None,
                "action": asp(steps[failure.index]) if failure is not None else None,
                "missing": sorted(asp((True, a)) for a in (failure.missing if failure else ())),
                "state": sorted(asp((True, a)) for a in run.states[-1])}

    def next_state(self, state: State) -> tuple[State, tuple]:
        reading = self._list("action", self.q.action or "")
        if len(reading.items) != 1:
            raise _Stop("unsupported", f"cannot read the action {self.q.action!r}")
        step = self._unique(reading.items, "action", self._next_resolver(), "next")[0]
        missing = self.instance.world.missing(step, state)
        if missing:
            raise _Stop("unsupported", f"the question's premise is false: {asp(step)} cannot be "
                        "executed in the current state",
                        {"action": asp(step), "missing": sorted(asp((True, a)) for a in missing)})
        return self.instance.world.apply(step, state), step

    def _next_resolver(self) -> Resolver | None:
        plan, n = self.record.plan, self.record.plan_length
        if plan is None or n >= len(plan):
            return None
        return lambda _index, meanings: (frozenset({plan[n]}) if plan[n] in meanings else meanings)

    def question_state(self) -> tuple[State, list, Trace]:
        steps = self.sequence()
        run = self.run_sequence(steps)
        if self.q.state == "before_failure":
            state = run.states[-1]
        else:
            state = self.end_state(steps, run)
        self.context["steps"] = [asp(s) for s in steps]
        return state, steps, run

    # -- fluent filters -------------------------------------------------------------------
    def select(self, state: State, fluents: FluentSet, obj: str | None) -> frozenset:
        chosen = literals(self.instance, state)
        if fluents.sign == "pos":
            chosen = frozenset(x for x in chosen if x[0])
        elif fluents.sign == "neg":
            chosen = frozenset(x for x in chosen if not x[0])
        if fluents.kinds is not None:
            if not self.instance.domain.kinds:
                raise _Stop("unsupported", f"domain {self.record.domain} does not classify its "
                            "fluents into base, derived, self-constraint and static")
            chosen = frozenset(x for x in chosen
                               if self.instance.domain.kinds_of(x[1][0]) & fluents.kinds)
        if obj is not None:
            chosen = frozenset(x for x in chosen if obj in x[1][1:])
        return chosen

    # -- the operations -------------------------------------------------------------------
    def needs_every_object(self) -> bool:
        """Whether the answer depends on objects the record may never name (counts of actions
        or negative fluents, lists of actions, negative fluents or the whole state)."""
        q = self.q
        if q.op in ("list_actions", "state_is", "objects_of_type"):
            return True
        if q.op == "count":
            return q.what != "fluents" or q.fluents is None or q.fluents.sign != "pos"
        if q.op == "list_fluents":
            return q.fluents is None or q.fluents.sign != "pos"
        return False

    def run(self) -> Truth:
        if self.instance.inferred and self.needs_every_object():
            raise _Stop("unsupported", "the answer depends on every object of the instance, and "
                        "the record names its objects only in English (give --instances)")
        op = getattr(self, "op_" + self.q.op)
        value, reason, certificate = op()
        return Truth("decided", value, reason, certificate, self.context)

    def _state_for_fluents(self) -> tuple[State, dict]:
        state, steps, run = self.question_state()
        where: dict[str, Any] = {}
        if self.q.state == "next":
            self.previous = state
            state, step = self.next_state(state)
            where = {"action": asp(step)}
            self.context["before"] = sorted(asp((True, a)) for a in self.previous)
        elif self.q.state == "before_failure":
            if run.failure is None:
                return state, {"no_failure": True}
            where = {"step": run.failure.index + 1, "action": asp(steps[run.failure.index]),
                     "missing": sorted(asp((True, a)) for a in run.failure.missing)}
        self.context["state"] = sorted(asp((True, a)) for a in state)
        return state, where

    def op_holds(self) -> Outcome:
        state, where = self._state_for_fluents()
        if where.get("no_failure"):
            raise _Stop("unsupported", "the question's premise is false: every action of the "
                        "sequence can be executed")
        if self.q.extras.get("no_change"):
            return self._no_change(state)
        reading = self._list("fluent", self.q.items or "")
        if reading.ambiguous_split:
            raise _Stop("ambiguous", "the listed properties split in more than one way")
        undecided = []
        for item in reading.items:
            if not item.meanings:
                raise _Stop("unsupported", f"{item.text!r} is not ARB's English for any fluent "
                            f"of {self.record.domain}")
            values = {holds(state, m) for m in item.meanings}
            if values == {False}:
                literal = next(iter(item.meanings))
                return False, f"{asp(literal)} does not hold", {**where, "fact": asp(literal),
                                                                "said": item.text}
            if len(values) > 1:
                undecided.append(item)
        if undecided:
            item = undecided[0]
            raise _Stop("ambiguous", f"{item.text!r} may mean " + " or ".join(
                sorted(asp(m) for m in item.meanings)) + ", which differ in this state")
        return True, "every listed property holds", where

    def _no_change(self, state: State) -> tuple[bool, str, dict]:
        previous = self.previous
        kinds = self.q.extras.get("change_kinds")
        fluents = FluentSet("pos_neg", kinds)
        old = self.select(previous, fluents, None)
        new = self.select(state, fluents, None)
        changed = sorted(asp(x) for x in new - old)
        if changed:
            return False, f"{changed[0]} becomes true", {"fact": changed[0]}
        return True, "no property of the kind changes", {}

    def op_state_is(self) -> Outcome:
        state, where = self._state_for_fluents()
        if where.get("no_failure"):
            raise _Stop("unsupported", "the question's premise is false: every action of the "
                        "sequence can be executed")
        reading = self._list("fluent", self.q.items or "")
        listed = self._unique(reading.items, "property")
        truth = literals(self.instance, state)
        wrong = sorted(asp(x) for x in set(listed) - truth)
        missing = sorted(asp(x) for x in truth - set(listed))
        if wrong:
            return False, f"{wrong[0]} does not hold", {**where, "fact": wrong[0]}
        if missing:
            return False, f"{missing[0]} holds but is not listed", {**where, "fact": missing[0]}
        return True, "the listed properties are the state", where

    def op_list_fluents(self) -> Outcome:
        state, where = self._state_for_fluents()
        if where.get("no_failure"):
            return frozenset(), "every action can be executed: None", {}
        fluents = self.q.fluents or FluentSet("pos_neg")
        return self.select(state, fluents, self.q.obj), "the state's properties", where

    def op_list_actions(self) -> Outcome:
        state, _, _ = self.question_state()
        self.context["state"] = sorted(asp((True, a)) for a in state)
        executable = set(self.instance.world.executable(state))
        if self.q.what == "executable":
            return frozenset(executable), "the actions whose preconditions hold", {}
        return (frozenset(set(self.instance.world.actions) - executable),
                "the actions with a false precondition", {})

    def op_count(self) -> Outcome:
        state, _, _ = self.question_state()
        self.context["state"] = sorted(asp((True, a)) for a in state)
        world = self.instance.world
        what = self.q.what
        if what == "objects":
            count = len(world.type_of)
        elif what in ("executable", "inexecutable", "all_actions"):
            executable = len(world.executable(state))
            count = {"executable": executable, "inexecutable": len(world.actions) - executable,
                     "all_actions": len(world.actions)}[what]
        else:
            count = len(self.select(state, self.q.fluents or FluentSet("pos_neg"), None))
        if self.q.answer == "bool":
            return count == self.q.number, f"the number is {count}", {"count": count}
        return count, f"the number is {count}", {}

    def op_count_steps(self) -> Outcome:
        steps = self.sequence()
        count = len(steps)
        return count == self.q.number, f"the sequence has {count} actions", {"count": count}

    def op_steps_before_failure(self) -> Outcome:
        steps = self.sequence()
        run = self.run_sequence(steps)
        if run.failure is None:
            return NONE, "every action can be executed", {}
        index = run.failure.index
        return index, f"step {index + 1} cannot be executed", self._failure(run, steps)

    def op_first_failure(self) -> Outcome:
        steps = self.sequence()
        run = self.run_sequence(steps)
        if run.failure is None:
            return frozenset(), "every action can be executed", {}
        index = run.failure.index
        return (frozenset({steps[index]}), f"step {index + 1} cannot be executed",
                self._failure(run, steps))

    def op_sequence_executable(self) -> Outcome:
        steps = self.sequence()
        run = self.run_sequence(steps)
        if run.failure is None:
            return True, "every action can be executed", {}
        index = run.failure.index
        return False, f"step {index + 1}, {asp(steps[index])}, cannot be executed", \
            self._failure(run, steps)

    def op_executable_at(self) -> Outcome:
        steps = self.sequence()
        k = self.q.step or 0
        if not 1 <= k <= len(steps):
            raise _Stop("unsupported", f"step {k} is not in the sequence of {len(steps)}")
        reading = self._list("action", self.q.action or "")
        def resolve(_index: int, meanings: frozenset) -> frozenset:
            return frozenset({steps[k - 1]}) if steps[k - 1] in meanings else meanings
        action = self._unique(reading.items, "action", resolve, "asked")
        if len(action) != 1:
            raise _Stop("unsupported", f"cannot read the action {self.q.action!r}")
        run = self.run_sequence(steps[:k - 1])
        if run.failure is not None:
            return False, f"step {run.failure.index + 1} already cannot be executed", \
                self._failure(run, steps)
        missing = self.instance.world.missing(action[0], run.states[-1])
        if missing:
            return False, f"{asp(action[0])} cannot be executed at step {k}", {
                "step": k, "action": asp(action[0]),
                "missing": sorted(asp((True, a)) for a in missing)}
        return True, f"{asp(action[0])} can be executed at step {k}", {"step": k}

    def op_objects_of_type(self) -> Outcome:
        type_of = self.instance.world.type_of
        return (frozenset(o for o, t in type_of.items()
                          if self.instance.domain.is_a(t, self.q.type_name or "")),
                f"the objects of type {self.q.type_name}", {})

    def _objects(self, text: str) -> list[str]:
        from .reader import normalize, segments

        pieces, _ = segments(normalize(text))
        return [p.strip() for p in pieces if p.strip()]

    def op_type_of(self) -> Outcome:
        type_of = self.instance.world.type_of
        named = self._objects(self.q.items or "")
        unknown = [o for o in named if o not in type_of]
        if unknown:
            raise _Stop("unsupported", f"{unknown[0]} is not an object of the instance")
        return frozenset(type_of[o] for o in named), "the objects' types", {}

    def op_object_defined(self) -> Outcome:
        known = self.q.obj in self.instance.world.type_of
        return known, f"{self.q.obj} is {'' if known else 'not '}an object of the instance", {}

    def op_undefined_object(self) -> Outcome:
        missing = [o for o in self._objects(self.q.items or "")
                   if o not in self.instance.world.type_of]
        return frozenset(missing), "the objects not in the instance", {}

    def op_fluent_defined(self) -> Outcome:
        state, _, _ = self.question_state()
        reading = self._list("fluent", self.q.items or "", allow_unread=True)
        if len(reading.items) != 1 or not reading.items[0].meanings:
            return False, f"{self.q.items!r} is not a property of the domain", {}
        values = {holds(state, m) for m in reading.items[0].meanings}
        if len(values) > 1:
            raise _Stop("ambiguous", f"{self.q.items!r} reads more than one way")
        value = values.pop()
        return value, f"{self.q.items!r} {'holds' if value else 'does not hold'}", {}

    def op_action_defined(self) -> Outcome:
        reading = self._list("action", self.q.action or "", allow_unread=True)
        known = len(reading.items) == 1 and bool(reading.items[0].meanings)
        return known, f"{self.q.action!r} is {'' if known else 'not '}an action of the domain", {}

    def _undefined(self, kind: str, text: str) -> tuple[frozenset[str], str, dict]:
        reading = self._list(kind, text, allow_unread=True)
        if reading.ambiguous_split:
            raise _Stop("ambiguous", "the list splits in more than one way")
        made_up = frozenset(_text_key(i.text) for i in reading.unread)
        return made_up, "the items that are not ARB's English for the domain", {}

    def op_undefined_fluent(self) -> Outcome:
        return self._undefined("fluent", self.q.items or "")

    def op_undefined_action(self) -> Outcome:
        return self._undefined("action", self.q.sequence or "")


def _text_key(text: str) -> str:
    """How a made-up item is compared: normalised text."""
    from .reader import normalize

    return normalize(text)
