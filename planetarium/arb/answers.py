"""Reading an answer: a model's response, or a record's stored label, into a value to compare.

Responses follow ARB's format: reasoning, then ``[ANSWER]`` and the answer.  The answer is the
text after the *last* marker; without one, after the last "Final answer:" or "Answer:" line
(bold and heading forms too); without either, the whole response.  Each kind is read as a
careful human grader reads it (issue 38), never by a language model:

- True/false: the verdict in the answer's own words (:mod:`.verdicts`: true/false, yes/no,
  "(not) possible", "can(not) be executed"; a stated verdict wins over its explanation's
  words; two contradicting final verdicts, or both words and no stated verdict: ``unparsed``).
- Counts: a number in digits or words anywhere in the answer (:mod:`.numerals`), the one it
  states as the count; "None" is 0, except where "None" is an answer of its own (no
  inexecutable action); a number too long to convert is ``unparsed``.
- Lists of fluents or actions: "None" (or "There is no inexecutable action") is the empty set;
  otherwise every item is read by :func:`planetarium.arb.reader.read_list` (exactly, then by
  the domain's fallback and the groupings people write) and the answer is their set; an item
  that reads nowhere makes the answer ``unparsed``; items that read several ways are tried
  every way (:func:`readings_of`).  The first inexecutable action may also be named by its
  place ("the 8th action") or inside a sentence; a list of actions by its complement ("All
  actions except stacking b7 on b2 and putting down b7").
- Objects, types and made-up properties: :mod:`.names`.

ARB's own reading of true/false answers is kept beside it (:func:`arb_keyword`): the set of
words of the text after the *first* marker, "true" and "false" both or neither present is
dropped from ARB's accuracy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .asides import positional_names
from .instance import Instance
from .names import made_up, objects_named, types_named
from .numerals import numbers
from .questions import Question
from .reader import Item, normalize, read_list
from .truth import NONE
from .verdicts import clean as _clean
from .verdicts import verdict

MARKER = "[answer]"
MAX_ANSWER_CHARS = 200_000
_NONE_COUNT = re.compile(r"^(?:none|there (?:is|are) none|there (?:is|are) no inexecutable "
                         r"actions?|no (?:action|step) is inexecutable|every action (?:is|can be)"
                         r" executable|all (?:of )?actions (?:are|can be) (?:executable|executed))"
                         r"\b")
_NONE_LIST = re.compile(r"^(?:none\b(?:\s*(?:[-.,;:(\u2013\u2014]|$).*)?|(?:there (?:is|are|were) )?"
                        r"(?:none|no (?:(?:inexecutable|infeasible|executable|undefined|such|valid)"
                        r" )?(?:actions?|steps?|propert(?:y|ies)|objects?|one))\b(?:[^a-z].*)?"
                        r"|(?:all|every|each) (?:of )?(?:the )?actions? (?:is|are|can be) "
                        r"(?:executable|executed|defined)\b.*)$", re.DOTALL)
_STATED = re.compile(r"(?:answer|total|count|number|result)\b[^.]*?(?:is|:|=|of)\s*$|=\s*$")
_TOTAL_AFTER = re.compile(r"^\s*(?:[a-z]+\s+){0,3}(?:in total|in all|altogether|total)\b")
_FINAL = re.compile(r"^[\s>*#_]*(?:the\s+)?final\s+answer\b[\s*_:]*(?:is\b)?[\s*_:]*"
                    r"|^[\s>*#_]*answer[\s*_]*:[\s*_]*", re.IGNORECASE | re.MULTILINE)
_WORD = re.compile(r"[a-z]+")
_BOLD = re.compile(r"\*\*([^*\n]+)\*\*|__([^_\n]+)__")


@dataclass(frozen=True)
class Reading:
    """``status``: "read", "unparsed" or "ambiguous"; ``value`` when read; ``items`` the list
    items as read (diagnostics); ``fallback`` how many of them the fallback read."""

    status: str
    value: Any = None
    reason: str = ""
    items: tuple[Item, ...] = ()
    #: an ambiguous list's possible sets, one per reading (empty: too many to try, or an
    #: ambiguous split)
    alternatives: tuple[frozenset, ...] = ()

    @property
    def fallback(self) -> int:
        return sum(i.how in ("fallback", "grouped") for i in self.items)


def answer_section(response: str) -> str:
    """The answer part of a response: the text after the last ``[ANSWER]`` marker (any case);
    without one, after the last "Final answer:" or "Answer:" (bold and heading forms too);
    without either, the whole response."""
    at = response.lower().rfind(MARKER)
    if at >= 0:
        return response[at + len(MARKER):]
    leads = list(_FINAL.finditer(response))
    if leads:
        return response[leads[-1].end():]
    return response


def read_bool(text: str) -> Reading:
    """A verdict in the answer's own words (:mod:`.verdicts`)."""
    value, why = verdict(text)
    if value is None:
        return Reading("unparsed", reason=why)
    return Reading("read", value)


def arb_keyword(response: str) -> str:
    """ARB's own reading: "True", "False", "both" or "neither" (tokens after the first
    marker, or of the whole response without one)."""
    at = response.lower().find(MARKER)
    text = response if at < 0 else response[at + len(MARKER):].strip()
    tokens = {t.strip(",.\"':;?!\n ").lower() for t in text.split()}
    if "true" in tokens and "false" in tokens:
        return "both"
    if "true" in tokens:
        return "True"
    if "false" in tokens:
        return "False"
    return "neither"


def _is_none(text: str) -> bool:
    """Whether a list answer says there is nothing ("None", "None - both can be executed",
    "There is no inexecutable action", "There are none")."""
    return bool(_NONE_LIST.match(normalize(_clean(text))))


def read_count(text: str, none_allowed: bool) -> Reading:
    """A count: the answer's number in digits or words (:mod:`.numerals`): the one a line holds
    alone, else the one set in bold ("I count **twenty-nine** after those two actions"), else
    the one after "answer is" or "total ... is" (not "= 39?"), else the one
    before "in total", else the one the answer opens with, else the only number in the answer;
    "None" where it has no number."""
    cleaned = normalize(_clean(text))
    found = numbers(cleaned)
    if not found and _NONE_COUNT.match(cleaned):
        return Reading("read", NONE if none_allowed else 0)
    if any(n.value is None for n in found):
        return Reading("unparsed", reason="a number too large to read as a count")
    for candidates in _count_candidates(text, cleaned, found):
        values = {n.value for n in candidates}
        if len(values) == 1:
            return Reading("read", values.pop())
        if len(values) > 1:
            return Reading("unparsed", reason="the answer gives several counts")
    return Reading("unparsed", reason="no number in the answer" if not found
                   else "several numbers in the answer, none stated as the count")


def _count_candidates(text: str, cleaned: str, found: list) -> list[list]:
    """Numbers by how plainly each is the answer, most plainly first."""
    alone = []
    for line in text.splitlines():
        line = normalize(_clean(line))
        inline = numbers(line)
        if len(inline) == 1:
            rest = line[:inline[0].start] + line[inline[0].end:]
            if not _WORD.search(rest):
                alone.extend(inline)
    clause = re.split(r"[.;:,(]", cleaned, maxsplit=1)[0]
    opening = [n for n in found[:1] if not _WORD.search(cleaned[:n.start])
               and len(numbers(clause)) == 1]
    asked = [n for n in found if not cleaned[n.end:n.end + 2].strip().startswith("?")]
    stated = [n for n in asked if _STATED.search(cleaned[max(0, n.start - 40):n.start])]
    totals = [n for n in asked if _TOTAL_AFTER.match(cleaned[n.end:n.end + 30])]
    bold = [n for m in _BOLD.finditer(text)
            for n in numbers(normalize(_clean(m.group(1) or m.group(2))))]
    return [alone, bold, stated, totals, opening, found]


#: At most this many readings of an answer's list are tried.
MAX_READINGS = 64


def readings_of(items: tuple[Item, ...]) -> tuple[frozenset, ...]:
    """The sets a list with items of several meanings can name: each item one of its meanings,
    no two items the same one (nobody lists one action twice: "truck is driven from l0_0 to
    l0_1" written twice names both trucks); empty when there are too many to try."""
    fixed = frozenset(m for i in items if not i.ambiguous for m in i.meanings)
    open_items = [(i.meanings - fixed) or i.meanings for i in items if i.ambiguous]
    found: set[frozenset] = set()
    tried = 0

    def assign(index: int, taken: frozenset) -> bool:
        nonlocal tried
        tried += 1
        if tried > MAX_READINGS * 16:
            return False
        if index == len(open_items):
            found.add(fixed | taken)
            return len(found) <= MAX_READINGS
        options = open_items[index] - taken or open_items[index]
        return all(assign(index + 1, taken | {m}) for m in sorted(options, key=repr))

    if not assign(0, frozenset()):
        return ()
    return tuple(sorted(found, key=lambda s: sorted(map(repr, s))))


_ORDINALS = {w: i for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
    .split(), 1)}
_ORDINAL = re.compile(r"\b(?:(?P<word>[a-z]+th|first|second|third)|(?P<digits>\d{1,4})(?:st|nd|rd|th))"
                      r"\s+(?:action|step|one)\b(?!\s+(?:that|which|to)\s+(?:cannot|can't|can\s+not"
                      r"|could|fails?|is\s+not|isn't))"
                      r"|\b(?:action|step)\s+(?:number\s+)?#?(?P<after>\d{1,4})\b")
#: clause breaks; "X is the first one ..." and "the first inexecutable action is X" set the
#: action apart from the words that name it as the answer
_CLAUSES = re.compile(r"[,:;()]|\s(?:because|since|as|which|but)\s|\s-\s"
                      r"|\s(?:is|was)\s+(?:the\s+)?first\b|\bfirst\s+(?:inexecutable|non-executable"
                      r"|unexecutable)\s+(?:action|step|one)\s+(?:is|was)\s")


def named_step(question: Question, instance: Instance, text: str) -> Any:
    """The one action a sentence names as the first inexecutable one: by its place in the
    sequence ("the 8th action", "step 3"), else the one action its clauses read as ("The
    first action, stacking b4 on b1, cannot be executed because ..."); None if not one."""
    lowered = positional_names(_clean(text).lower(), instance.lexicon.objects)
    match = _ORDINAL.search(lowered)
    if match and question.sequence:
        word, digits = match.group("word"), match.group("digits") or match.group("after")
        place = _ORDINALS.get(word or "") or (int(digits) if digits else 0)
        steps = read_list(instance.lexicon, "action", question.sequence.strip().rstrip(".")).items
        if 1 <= place <= len(steps) and len(steps[place - 1].meanings) == 1:
            return next(iter(steps[place - 1].meanings))
    found: set = set()
    for clause in _CLAUSES.split(lowered):
        reading = read_list(instance.lexicon, "action", clause.strip(" ."), use_fallback=True)
        if len(reading.items) == 1 and not reading.unread and not reading.ambiguous:
            found |= reading.items[0].meanings
    return found.pop() if len(found) == 1 else None


_EXCEPT = re.compile(r"^(?:all|every|each)(?: of)?(?: possible| ground)? (?:actions?|of them)"
                     r"(?: are| is| can be)?(?: executable| inexecutable| executed)?,? "
                     r"(?:except(?: for)?|but|other than|apart from|save) (?P<rest>.+)$", re.DOTALL)


def _complement(question: Question, instance: Instance, listed: str) -> Reading:
    """"All actions except stacking b7 on b2 and putting down b7": every action of the
    instance but the ones listed."""
    excluded = read_value(question, instance, listed)
    if excluded.status != "read":
        return excluded
    return Reading("read", frozenset(instance.world.actions) - excluded.value,
                   items=excluded.items)


def read_value(question: Question, instance: Instance, text: str, *, lines: bool = True,
               use_fallback: bool = True) -> Reading:
    """``text`` (an answer section, or a stored label) as an answer to ``question``."""
    if len(text) > MAX_ANSWER_CHARS:
        return Reading("unparsed", reason=f"the answer is over {MAX_ANSWER_CHARS:,} characters")
    kind = question.answer
    if kind == "bool":
        return read_bool(text)
    if kind == "count":
        return read_count(text, question.op == "steps_before_failure")
    if _is_none(text):
        return Reading("read", frozenset())
    if kind == "actions" and lines:
        rest = _EXCEPT.match(normalize(_clean(text)))
        if rest:
            return _complement(question, instance, rest.group("rest"))
    if kind in ("fluents", "actions", "action"):
        noun = "fluent" if kind == "fluents" else "action"
        reading = read_list(instance.lexicon, noun, _clean(text) if lines else text.strip(),
                            lines=lines, use_fallback=use_fallback)
        if kind == "action" and lines and (reading.unread or len(reading.items) > 1):
            step = named_step(question, instance, text)
            if step is not None:
                return Reading("read", frozenset({step}))
        if reading.unread:
            return Reading("unparsed", reason=f"cannot read {reading.unread[0].text!r}",
                           items=reading.items)
        if not reading.items:
            return Reading("unparsed", reason="no item in the answer (write None for none)")
        if reading.ambiguous:
            which = next((i for i in reading.items if i.ambiguous), None)
            reason = (f"{which.text!r} reads more than one way" if which
                      else "the list splits into items in more than one way")
            sets = () if reading.ambiguous_split else readings_of(reading.items)
            if len(sets) == 1:
                return Reading("read", sets[0], items=reading.items)
            return Reading("ambiguous", reason=reason, items=reading.items, alternatives=sets)
        return Reading("read", reading.meaning_set(), items=reading.items)
    if kind == "text":
        return Reading("read", frozenset(made_up(text)))
    if kind == "type":
        types = {*instance.world.type_of.values(), *instance.domain.parents,
                 *instance.domain.parents.values()}
        named = types_named(text, types)
    else:
        named = objects_named(text, instance.world.type_of)
    if not named:
        return Reading("unparsed", reason="no name in the answer")
    return Reading("read", frozenset(named))
