"""What an ARB question asks, recovered from its text (and, where the text is silent, its record).

ARB's questions are templated: each template is one *frame* here, a pattern over the question's
text that picks out its parts (the shown action sequence, the listed fluents, the object, the
number, the fluent description) and says which operation answers it.  Frames cover both
generator versions; the category and question name are not trusted to say which template a
question is (the final release renumbers them), the text is.

The fluent descriptions ARB uses ("valid properties of the state that involve negations",
"base properties of the state", "self constraint valid properties of the state (both with and
without negations)") are read into a sign and a set of fluent kinds.

Two families are ill-posed (:data:`ILL_POSED`): their text does not say what the generator
meant.  A description that names a kind but no sign (the 2024 "What are the base properties of
the state for b6?") reads as both signs, while the generator asked the record's
``is_pos_fluent_question``; "is it True or False that no properties of the state change?" reads
as any property, while the generator meant the record's ``fluent_type``.  Such a question is
read as written, and carries the question the generator meant (:attr:`Question.generated`) so
that both readings can be reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from .records import ArbRecord

_SPACES = re.compile(r"\s+")
_KIND_WORDS = {"base": "base", "derived": "derived", "self constraint": "persistent",
               "persistent": "persistent", "static": "static"}
_SIGN_PHRASES = (
    ("valid properties of the state that do not involve negations", "pos"),
    ("valid properties of the state that involve negations", "neg"),
    ("valid properties of the state (both with and without negations)", "pos_neg"),
    ("valid property of the state that involves a negation", "neg"),
    ("valid properties of the state", "pos"),
    ("valid property of the state", "pos"),
    ("properties of the state", None),  # 2024: both signs when no kind is named
)


@dataclass(frozen=True)
class FluentSet:
    """Which fluents a question means: a sign ("pos", "neg", "pos_neg") and kinds (None: all)."""

    sign: str
    kinds: frozenset[str] | None = None


def fluent_set(text: str) -> FluentSet | None:
    """ARB's description of a set of fluents (None: not one).

    A description that names a kind but no sign ("base properties of the state") reads as both
    signs; :func:`hidden_sign` gives the sign the generator meant."""
    text = _SPACES.sub(" ", text.strip().lower())
    kinds = None
    for words, kind in _KIND_WORDS.items():
        if text.startswith(words + " "):
            kinds = frozenset({kind})
            text = text[len(words) + 1:]
            break
    for phrase, sign in _SIGN_PHRASES:
        if text == phrase:
            return FluentSet(sign or "pos_neg", kinds)
    return None


def hidden_sign(text: str, record_sign: str | None) -> str | None:
    """The sign the generator meant where the text names a kind of property and no sign (the
    2024 "What are the base properties of the state for b6?"): the record's, if one sign."""
    described = fluent_set(text)
    if described is None or described.kinds is None or record_sign not in ("pos", "neg"):
        return None
    plain = _SPACES.sub(" ", text.strip().lower())
    return record_sign if plain.endswith(" properties of the state") else None


#: Question families whose text does not determine the answer: what each reads as written,
#: and what the generator meant (taken from the record, which the model never sees).
ILL_POSED = {
    "no_change": "effects: 'is it True or False that no properties of the state change?' names "
                 "no kind of property, yet the generator restricts it to the record's fluent "
                 "type (as written, any action changes something)",
    "hidden_sign": "'what are the <kind> properties of the state ...?' (2024) names no sign, "
                   "yet the generator asked only the record's (positive or negative)",
}


@dataclass(frozen=True)
class Question:
    """One question's meaning.

    ``op`` names the operation (see :mod:`.truth`); ``answer`` the kind of answer it takes:
    "bool", "count", "fluents", "actions", "action" (one or None), "objects", "object" (one or
    None), "type", or "text" (made-up items, read as text).  ``sequence`` is the shown action
    sequence's text; ``state`` which state the question is about: "end" (after the sequence),
    "next" (after the sequence and ``action``), "before_failure" (before the sequence's first
    inexecutable action).
    """

    frame: str
    op: str
    answer: str
    sequence: str | None = None
    state: str = "end"
    items: str | None = None  # a listed set of fluents / actions / objects
    action: str | None = None
    obj: str | None = None
    number: int | None = None
    step: int | None = None
    fluents: FluentSet | None = None
    what: str | None = None  # what a count counts: "objects", "executable", ...
    type_name: str | None = None
    extras: dict = field(default_factory=dict)
    #: where the text does not say what the generator meant (:data:`ILL_POSED`): the family and
    #: the question the generator meant
    generated: tuple[str, Question] | None = None


class QuestionNotUnderstood(ValueError):
    """The text matches no ARB template (a paraphrase, or a random-substitution question)."""


_DONE = (r"given the initial condition, the following actions are performed: (?P<seq>.+?) to "
         r"reach the current state\.")
_PLANNED = (r"given the initial condition, the following actions are planned to be performed: "
            r"(?P<seq>.+?) to reach the current state\.")
_EITHER = (r"given the initial condition, the following actions are (?:planned to be )?performed: "
           r"(?P<seq>.+?) to reach the current state\.")
_STATE = _EITHER + r" in this state,"

#: (frame name, pattern over the normalised question, operation, answer kind, state)
_FRAMES: tuple[tuple[str, str, str, str, str], ...] = (
    ("object_properties", _STATE + r" is it true or false that the following properties of the "
     r"state are correct for (?P<obj>\S+): (?P<items>.+)\?", "holds", "bool", "end"),
    ("count_equals", _STATE + r" is the number of (?P<what>.+?) equal to (?P<n>\d+)\? true or "
     r"false", "count", "bool", "end"),
    ("object_defined", _STATE + r" some objects may or may not be defined\. is (?P<obj>\S+) part "
     r"of the domain\? true or false", "object_defined", "bool", "end"),
    ("fluent_defined", _STATE + r" some properties of the state may or may not be defined\. is "
     r"(?P<items>.+) part of the state\? true or false", "fluent_defined", "bool", "end"),
    ("undefined_object", _STATE + r" some objects may or may not be defined\. which of the "
     r"following objects, (?P<items>.+), is not part of the domain\? write none if all are "
     r"defined\.", "undefined_object", "object", "end"),
    ("undefined_fluent", _STATE + r" some (?P<nl>.+?) may or may not be defined\. what (?P=nl) "
     r"out of, (?P<items>.+), is not defined\? write none if all are defined\.",
     "undefined_fluent", "text", "end"),
    ("action_defined", _STATE + r" is action, (?P<action>.+), part of the domain\? true or false",
     "action_defined", "bool", "end"),
    ("holds", _STATE + r" is it true or false that (?P<items>.+)\?", "holds", "bool", "end"),
    ("all_hold", _STATE + r" are all of the following (?P<nl>.+?) true or false: (?P<items>.+)\?",
     "holds", "bool", "end"),
    ("state_is_2024", _STATE + r" are all of the following properties: (?P<items>.+), correct\? "
     r"respond with true or false\.", "holds", "bool", "end"),
    ("state_is", _STATE + r" are all of the following (?P<nl>.+?)\? (?P<items>.+)\. respond with "
     r"true or false\.", "holds", "bool", "end"),
    ("object_fluents_2024", _STATE + r"\. what are the (?P<nl>.+?) for (?P<obj>\S+)\? write none "
     r"if there are none\.?", "list_fluents", "fluents", "end"),
    ("object_fluents", _STATE + r" what are the (?P<nl>.+?) for (?P<obj>\S+)\? write none if "
     r"there are none\.?", "list_fluents", "fluents", "end"),
    ("list_actions", _STATE + r" list all (?P<which>executable|inexecutable) actions\. write none "
     r"if there are none\.", "list_actions", "actions", "end"),
    ("objects_of_type", _STATE + r" list all objects associated with type (?P<type>\S+)\. write "
     r"none if there are none\.", "objects_of_type", "objects", "end"),
    ("type_of", _STATE + r" what is the object type for (?P<items>.+?)\. write none if there are "
     r"none\.", "type_of", "type", "end"),
    ("list_fluents", _STATE + r" list all (?P<nl>.+?)\. write none if there are none\.",
     "list_fluents", "fluents", "end"),
    ("effect_holds", _STATE + r" if (?P<action>.+?), is it true or false that (?P<items>.+)\?",
     "holds", "bool", "next"),
    ("effect_holds_at_start", r"given the initial condition, if (?P<action>.+?), is it true or "
     r"false that (?P<items>.+)\?", "holds", "bool", "next"),
    ("effect_fluents", _STATE + r" if (?P<action>.+?), what would be all of the (?P<nl>.+?)\? "
     r"write none if there are none\.", "list_fluents", "fluents", "next"),
    ("effect_fluents_at_start", r"given the initial condition, if (?P<action>.+?), what would be "
     r"all of the (?P<nl>.+?)\? write none if there are none\.", "list_fluents", "fluents",
     "next"),
    ("count", _STATE + r" what is the total number of (?P<what>.+?)\? write as an integer\. "
     r"write none if there are none\.", "count", "count", "end"),
    ("sequence_executable", r"given the initial condition, the following actions are planned to "
     r"be performed: (?P<seq>.+)\. is it possible to execute it, true or false\?",
     "sequence_executable", "bool", "end"),
    ("executable_at", r"given the initial condition, for steps 1 through (?P<n>\d+) the following "
     r"actions are planned to be performed: (?P<seq>.+)\. is the action: (?P<action>.+) "
     r"executable at step (?P<k>\d+), true or false\?", "executable_at", "bool", "end"),
    ("first_failure", _DONE + r" what is the first inexecutable action in the sequence\? write "
     r"none if there are none\.", "first_failure", "action", "end"),
    ("count_steps", _DONE + r" is it true or false that the number of actions that led to "
     r"current state in the sequence is equal to (?P<n>\d+)\?", "count_steps", "bool", "end"),
    ("steps_before_failure", _PLANNED + r" how many actions are there before the first "
     r"inexecutable action\? write as an integer\. write none if there are none\.",
     "steps_before_failure", "count", "end"),
    ("undefined_action", _PLANNED + r" given this sequence, what action is not defined\? write "
     r"none if all are defined\.", "undefined_action", "text", "end"),
    ("object_hold_before_failure", _PLANNED + r" are the following (?P<nl>.+?) true for "
     r"(?P<obj>\S+) before the first inexecutable action in the sequence\? (?P<items>.+?)\.",
     "holds", "bool", "before_failure"),
    ("hold_before_failure", _PLANNED + r" are the following (?P<nl>.+?) true before the first "
     r"inexecutable action in the sequence\? (?P<items>.+?)\.", "holds", "bool",
     "before_failure"),
    ("state_before_failure_is", _PLANNED + r" some of the actions may not be executable\. is this "
     r"the state before the first inexecutable action in the sequence\? true or false"
     r"(?P<items>.+)", "state_is", "bool", "before_failure"),
    ("fluents_before_failure", _PLANNED + r" some of the actions may not be executable\. what "
     r"(?P<nl>.+?) are true before the first infeasible action in the sequence\? write none if "
     r"there are none", "list_fluents", "fluents", "before_failure"),
    ("object_fluents_before_failure", _PLANNED + r" what are the (?P<nl>.+?) for (?P<obj>\S+) "
     r"before the first infeasible action in the sequence\? write none if there are none",
     "list_fluents", "fluents", "before_failure"),
    ("state_before_failure", _PLANNED + r" some of the actions may not be executable\. what is "
     r"the state before the first infeasible action in the sequence\? write none if there are "
     r"none", "list_fluents", "fluents", "before_failure"),
)
_COMPILED = tuple((name, re.compile(pattern, re.IGNORECASE | re.DOTALL), op, answer, state)
                  for name, pattern, op, answer, state in _FRAMES)
_COUNTED = {"objects": "objects", "executable actions": "executable",
            "inexecutable actions": "inexecutable",
            "executable and inexecutable actions": "all_actions"}


def parse_question(record: ArbRecord) -> Question:
    """The meaning of ``record``'s question (:class:`QuestionNotUnderstood` if no frame fits)."""
    text = _SPACES.sub(" ", record.question).strip()
    for name, pattern, op, answer, state in _COMPILED:
        match = pattern.fullmatch(text.rstrip()) or pattern.fullmatch(text.rstrip(" ."))
        if match:
            return _build(record, name, match, op, answer, state)
    raise QuestionNotUnderstood("the question matches none of ARB's templates")


def _build(record: ArbRecord, name: str, match: re.Match, op: str, answer: str,
           state: str) -> Question:
    groups = match.groupdict()
    fluents = None
    what = None
    if groups.get("nl"):
        fluents = fluent_set(groups["nl"])
        if fluents is None and name not in ("undefined_fluent",):
            raise QuestionNotUnderstood(f"unknown description of fluents: {groups['nl']!r}")
    elif op == "list_fluents":  # "what is the state ..."
        fluents = FluentSet("pos_neg")
    if name == "object_fluents_2024" and fluents is not None and fluents.kinds is None:
        raise QuestionNotUnderstood("2024 object question without a fluent kind")
    if groups.get("what"):
        counted = groups["what"].strip().lower()
        what = _COUNTED.get(counted)
        if what is None:
            fluents = fluent_set(counted)
            if fluents is None:
                raise QuestionNotUnderstood(f"unknown count: {counted!r}")
            what = "fluents"
    if groups.get("which"):
        what = groups["which"].lower()
    extras: dict = {}
    if name in ("effect_holds", "effect_holds_at_start"):
        extras["no_change"] = groups["items"].strip().lower() == "no properties of the state change"
    question = Question(
        frame=name, op=op, answer=answer, sequence=groups.get("seq"), state=state,
        items=groups.get("items"), action=groups.get("action"),
        obj=groups["obj"].lower() if groups.get("obj") else None,
        number=int(groups["n"]) if groups.get("n") else None,
        step=int(groups["k"]) if groups.get("k") else None, fluents=fluents, what=what,
        type_name=groups["type"].lower() if groups.get("type") else None, extras=extras)
    kinds = record_kinds(record)
    if extras.get("no_change") and kinds is not None:
        meant = replace(question, extras={**extras, "change_kinds": kinds})
        return replace(question, generated=("no_change", meant))
    sign = hidden_sign(groups.get("nl") or "", record.sign)
    if sign is not None and fluents is not None:
        meant = replace(question, fluents=FluentSet(sign, fluents.kinds))
        return replace(question, generated=("hidden_sign", meant))
    return question


def record_kinds(record: ArbRecord) -> frozenset[str] | None:
    """The fluent kind the record's ``fluent_type`` names (None: all kinds)."""
    kinds = {"base_fluents": "base", "derived_fluents": "derived",
             "persistent_fluents": "persistent", "static_fluents": "static"}
    kind = kinds.get(record.fluent_type or "")
    return frozenset({kind}) if kind else None
