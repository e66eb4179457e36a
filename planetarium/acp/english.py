"""What the generative records teach about each domain's English, checked before it is used.

For every domain with generative records in the data, :func:`learn` collects:

* the domain's PDDL (the same text in every generative record of the domain);
* its fixed introduction (the longest common prefix of its contexts, cut back to a sentence end
  and to before any sentence a state clause reads), which also identifies the domain of a
  yes/no or multiple-choice context;
* the action and atom descriptions the records list (:func:`.phrases.harvest`), plus atom
  descriptions induced from each record's goal sentence and PDDL goal
  (:func:`induce_goal_templates`) and those of the reader's own single-fact state clauses
  ("Place ?p has been visited", :meth:`.reader.Clause.template`), which the check below
  validates with the rest of the reader;
* the check of the action descriptions on every progression record (the action its question
  describes, read with them, must have the stored effects: ``right``, ``wrong``, ``unread``);
* the verdict of the domain's reader (:mod:`.rules`) on *every* generative record: the reading
  equals the record's PDDL problem (``exact``), differs only by static facts no action instance
  can ever use (``equivalent``: e.g. a grid lock's shape after it was opened, which the English
  omits, while ``unlock`` needs the place ``locked`` and no action locks a place), is refused
  with a reason (``refused``), or differs (``wrong``).

A domain is *supported* when no reading and no action check is wrong and at least one reading is
exact or equivalent: the reader may refuse text it cannot read, but it never returns a wrong
problem (or action) on the records that can tell.  Everything else — no reader, no generative
record, a wrong reading — leaves the domain unchecked, never guessed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from ..errors import PlanetariumError
from ..pddl.domain import Atom, DomainDef
from ..pddl.problem import Problem
from ..reasoning import GroundedTask, NotAnAction, read_task
from .data import AcpItem, as_step
from .phrases import Dictionary, PhraseError, Template, harvest, normalize
from .reader import GOAL, DomainText, ReadError, compare, read_context, split_context
from .rules import READERS

_PIECES = re.compile(r",\s+and\s+|,\s+|\s+and\s+")


#: A generative record's own task, read once: its domain and problem, or why they cannot be read.
RecordTask = tuple[DomainDef, Problem] | str


class RecordCheck(str, Enum):
    """How the domain's reader did on one generative record (see the module docstring)."""

    EXACT = "exact"
    EQUIVALENT = "equivalent"
    REFUSED = "refused"
    WRONG = "wrong"
    UNREAD = "unread"

    def __str__(self) -> str:
        return self.value


class ActionCheck(str, Enum):
    """How the action descriptions read a progression record's action."""

    RIGHT = "right"
    WRONG = "wrong"
    UNREAD = "unread"

    def __str__(self) -> str:
        return self.value


@dataclass
class LearnedDomain:
    """One domain as learned from its generative records (see the module docstring)."""

    name: str
    domain: DomainDef | None  # None when the records' PDDL cannot be read (see conflict)
    text: DomainText | None
    introduction: str
    actions: Dictionary
    atoms: Dictionary
    #: per check, the (id, why) of each generative record it was
    verdicts: dict[RecordCheck, list[tuple[str, str]]] = field(default_factory=dict)
    action_checks: dict[ActionCheck, list[tuple[str, str]]] = field(default_factory=dict)
    conflict: str | None = None  # why the records cannot teach one reading (see learn)

    @property
    def records(self) -> int:
        return sum(len(v) for v in self.verdicts.values())

    def count(self, kind: RecordCheck) -> int:
        return len(self.verdicts.get(kind, []))

    @property
    def supported(self) -> bool:
        return (self.text is not None and self.conflict is None
                and not self.verdicts.get(RecordCheck.WRONG)
                and not self.action_checks.get(ActionCheck.WRONG)
                and self.count(RecordCheck.EXACT) + self.count(RecordCheck.EQUIVALENT) > 0)

    def why_unsupported(self) -> str:
        if self.conflict is not None:
            return self.conflict
        if self.text is None:
            return f"no English reader for PDDL domain '{self.name}'"
        checked = (("generative records", self.verdicts.get(RecordCheck.WRONG, []), self.records),
                   ("described actions", self.action_checks.get(ActionCheck.WRONG, []),
                    sum(map(len, self.action_checks.values()))))
        for what, wrong, total in checked:
            if wrong:
                return (f"the reader gets {len(wrong)} of {total} {what} wrong (e.g. "
                        f"{wrong[0][0]}: {wrong[0][1]})")
        return "no generative record of the domain is read"

    def read(self, context: str) -> Problem:
        """The problem a context of this domain states (:class:`ReadError` if unreadable)."""
        if self.text is None or self.domain is None:
            raise ReadError(self.why_unsupported())
        return read_context(context, self.introduction, self.text, self.domain,
                            self.atoms.read_list)


def domain_key(item: AcpItem) -> str:
    """The PDDL domain name of a generative record (``?`` when it names none)."""
    match = re.search(r"\(\s*domain\s+([^\s()]+)", item.domain_pddl or "", re.IGNORECASE)
    return "?" if match is None else match.group(1).lower()


def introduction(contexts: list[str], text: DomainText | None) -> str:
    """The fixed opening shared by all ``contexts``, ending before any stated fact."""
    prefix = os.path.commonprefix([normalize(c) for c in contexts])
    prefix = prefix[:prefix.rfind(". ") + 1]
    if text is not None:
        for _, pattern in text.compiled:
            match = pattern.search(prefix)
            if match:
                prefix = prefix[:prefix.rfind(". ", 0, match.start()) + 1]
    return prefix


def induce_goal_templates(context: str, problem: Problem) -> list[Template]:
    """Atom descriptions read off a goal sentence whose atoms the PDDL goal names.

    The goal sentence lists one phrase per goal atom; where splitting it at ", " / " and " gives
    exactly as many pieces as there are goal atoms, each piece that names the arguments of just
    one goal atom (each argument once) becomes that predicate's template, arguments replaced by
    variables.  Anything less clear-cut is skipped.
    """
    goal_text = split_context(context, "").goal
    if goal_text is None:
        return []
    pieces = _PIECES.split(goal_text)
    if len(pieces) != len(problem.goal):
        return []
    out = []
    for piece in pieces:
        words = re.findall(r"[\w\-]+", piece)
        fits = [a for a in problem.goal if len(set(a[1:])) == len(a) - 1
                and all(words.count(x) == 1 for x in a[1:])]
        if len(fits) != 1:
            continue
        atom, text = fits[0], piece
        variables = tuple(f"?x{i}" for i in range(len(atom) - 1))
        for name, variable in zip(atom[1:], variables, strict=True):
            text = re.sub(rf"(?<![\w\-]){re.escape(name)}(?![\w\-])", variable, text)
        out.append(Template(atom[0], variables, text))
    return out


def _equivalent(read: Problem, truth: Problem, domain: DomainDef, with_goal: bool) -> bool:
    """Same objects, fluents and goal, and every static fact that differs is one no action
    instance can ever use: the two problems then have the same applicable actions in every
    reachable state (see :func:`_never_used`)."""
    if read.type_of != truth.type_of or (with_goal and read.goal != truth.goal):
        return False
    differ = read.init ^ truth.init
    if any(atom[0] not in domain.static_predicates for atom in differ):
        return False
    return all(_never_used(atom, domain, read.init | truth.init) for atom in differ)


def _never_used(atom: Atom, domain: DomainDef, init: frozenset[Atom]) -> bool:
    """Every action instance with ``atom`` among its preconditions also needs an atom that is
    false in ``init`` (both initial states together) and that no action adds, so none of them
    is ever applicable."""
    added = {a[0] for action in domain.actions.values() for a in action.add}
    for action in domain.actions.values():
        for pre in action.precondition:
            binding = _unify(pre, atom)
            if binding is None:
                continue
            blocked = False
            for other in action.precondition:
                if other[0] in added or not all(a in binding or not a.startswith("?")
                                                for a in other[1:]):
                    continue
                if (other[0],) + tuple(binding.get(a, a) for a in other[1:]) not in init:
                    blocked = True
                    break
            if not blocked:
                return False
    return True


def _unify(lifted: Atom, ground: Atom) -> dict[str, str] | None:
    if lifted[0] != ground[0] or len(lifted) != len(ground):
        return None
    binding: dict[str, str] = {}
    for variable, value in zip(lifted[1:], ground[1:], strict=True):
        if not variable.startswith("?"):
            if variable != value:
                return None
        elif binding.setdefault(variable, value) != value:
            return None
    return binding


def _read(item: AcpItem) -> RecordTask:
    try:
        return read_task(item.domain_pddl or "", item.problem_pddl or "")
    except PlanetariumError as err:
        return str(err)


def _verdict(known: LearnedDomain, item: AcpItem, task: RecordTask) -> tuple[RecordCheck, str]:
    if isinstance(task, str):
        return RecordCheck.REFUSED, f"its own PDDL problem cannot be read: {task}"
    truth = task[1]
    with_goal = GOAL.search(normalize(item.context)) is not None
    try:
        read = known.read(item.context)
    except (ReadError, PhraseError) as err:
        return RecordCheck.REFUSED, str(err)
    why = compare(read, truth, with_goal)
    if why is None:
        return RecordCheck.EXACT, ""
    if known.domain is not None and _equivalent(read, truth, known.domain, with_goal):
        return RecordCheck.EQUIVALENT, why
    return RecordCheck.WRONG, why


def _action_verdict(known: LearnedDomain, item: AcpItem,
                    read: tuple[DomainDef, Problem]) -> tuple[ActionCheck, str]:
    """A progression question's action, read with the descriptions, must have the stored
    effects: the one check of the action descriptions against PDDL the records allow."""
    quoted = re.search(r'"([^"]+)"', item.question)
    if quoted is None:
        return ActionCheck.UNREAD, "the question quotes no action"
    try:
        step = known.actions.read(quoted.group(1))
    except PhraseError as err:
        return ActionCheck.UNREAD, str(err)
    task = GroundedTask(*read)
    try:
        applicable = task.applicable(task.state, step)
    except NotAnAction:
        applicable = False
    if not applicable:
        return (ActionCheck.WRONG,
                f"'{quoted.group(1)}' reads as ({' '.join(step)}), not applicable here")
    stored = (frozenset(as_step(a) for a in item.answer["pos"]),
              frozenset(as_step(a) for a in item.answer["neg"]))
    if task.effects(task.state, step) != stored:
        return (ActionCheck.WRONG,
                f"'{quoted.group(1)}' reads as ({' '.join(step)}), whose effects differ")
    return ActionCheck.RIGHT, ""


def _unusable(name: str, records: list[AcpItem], why: str) -> LearnedDomain:
    """A domain whose questions are skipped with ``why`` (the rest go on)."""
    return LearnedDomain(name, None, None, introduction([r.context for r in records], None),
                  Dictionary(()), Dictionary(()), conflict=why,
                  verdicts={RecordCheck.UNREAD: [(r.id, why) for r in records]})


def _learn_domain(name: str, records: list[AcpItem]) -> LearnedDomain:
    variants = len({normalize(r.domain_pddl or "") for r in records})
    if variants > 1:
        return _unusable(name, records, f"its generative records hold {variants} different "
                                        "domain PDDLs")
    tasks = [_read(record) for record in records]  # each record's PDDL is read once
    first = tasks[0]
    if isinstance(first, str):
        return _unusable(name, records, f"cannot read its PDDL: {first}")
    text = READERS.get(name)
    if text is None:
        return _unusable(name, records, f"no English reader for PDDL domain '{name}'")
    atoms = [t for t in (c.template() for c in text.clauses) if t is not None]
    for record, task in zip(records, tasks, strict=True):
        atoms += harvest(record.context, "propositions")
        if not isinstance(task, str):  # else _verdict reports this record refused
            atoms += induce_goal_templates(record.context, task[1])
    known = LearnedDomain(name, first[0], text, introduction([r.context for r in records], text),
                          Dictionary(t for r in records for t in harvest(r.context, "actions")),
                          Dictionary(atoms))
    for record, task in zip(records, tasks, strict=True):
        kind, why = _verdict(known, record, task)
        known.verdicts.setdefault(kind, []).append((record.id, why))
        if record.task == "prog" and not isinstance(task, str) and kind != RecordCheck.REFUSED:
            action, why = _action_verdict(known, record, task)
            known.action_checks.setdefault(action, []).append((record.id, why))
    return known


def learn(items: Iterable[AcpItem]) -> dict[str, LearnedDomain]:
    """Every domain of the generative ``items``, learned and checked (see module docstring).

    Never aborts on one domain: a domain whose PDDL cannot be read, that has no English reader
    or whose records disagree is kept with the reason, and its questions are skipped.
    """
    by_domain: dict[str, list[AcpItem]] = {}
    for item in items:
        if item.kind == "gen":
            by_domain.setdefault(domain_key(item), []).append(item)
    return {name: _learn_domain(name, records) for name, records in sorted(by_domain.items())}


def domain_of(context: str, known: dict[str, LearnedDomain]) -> LearnedDomain | None:
    """The learned domain whose introduction opens ``context`` (the longest such)."""
    text = normalize(context)
    fits = [d for d in known.values() if d.introduction and text.startswith(d.introduction)]
    return max(fits, key=lambda d: len(d.introduction), default=None)
