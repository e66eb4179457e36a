"""Reading an answer: a model's response, or a record's stored label, into a value to compare.

Responses follow ARB's format: reasoning, then ``[ANSWER]`` and the answer.  The answer is the
text after the *last* marker; a response without one has no answer (``unparsed``).

- True/false: a line of the answer that is just "true" or "false" (markdown and a leading
  "answer:" aside) counts, the last such line if several; otherwise the answer must contain
  exactly one of the two words.  Both ("True or False") or neither: ``unparsed``, scored 0.
- Counts: an integer (or a number word up to twenty), the whole answer or the only number in
  it; "None" is 0, except where "None" is an answer of its own (no inexecutable action).
- Lists of fluents or actions: "None" is the empty set; otherwise every item is read by
  :func:`planetarium.arb.reader.read_list` (exactly, then by the domain's fallback) and the
  answer is their set; an item that reads nowhere makes the answer ``unparsed`` and one that
  reads several ways ``ambiguous``.
- Objects and types: names; made-up items (hallucination questions): their text.

ARB's own reading of true/false answers is kept beside it (:func:`arb_keyword`): the set of
words of the text after the *first* marker, "true" and "false" both or neither present is
dropped from ARB's accuracy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .instance import Instance
from .questions import Question
from .reader import Item, normalize, read_list, segments
from .truth import NONE

MARKER = "[answer]"
MAX_ANSWER_CHARS = 200_000
_NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split())}
_DECOR = re.compile(r"[*`#>]+|(?<![\w])_+|_+(?![\w])")  # markdown; not the _ inside a name
_LEAD = re.compile(r"^\s*(?:final\s+)?answer\s*[:\-]\s*", re.IGNORECASE)
_WORD = re.compile(r"[a-z]+")
_INT = re.compile(r"(?<![\w.])-?\d+(?![\w.]|\.\d)")
_NAME = re.compile(r"[a-z0-9][\w-]*")


@dataclass(frozen=True)
class Reading:
    """``status``: "read", "unparsed" or "ambiguous"; ``value`` when read; ``items`` the list
    items as read (diagnostics); ``fallback`` how many of them the fallback read."""

    status: str
    value: Any = None
    reason: str = ""
    items: tuple[Item, ...] = ()

    @property
    def fallback(self) -> int:
        return sum(i.how == "fallback" for i in self.items)


def answer_section(response: str) -> str | None:
    """The text after the last ``[ANSWER]`` marker (any case); None without one."""
    at = response.lower().rfind(MARKER)
    return None if at < 0 else response[at + len(MARKER):]


def _clean(text: str) -> str:
    text = _DECOR.sub(" ", text)
    return _LEAD.sub("", text.strip()).strip()


def read_bool(text: str) -> Reading:
    lines = [_clean(line).strip(" .!:;,\"'()[]").lower() for line in text.splitlines()]
    alone = [line for line in lines if line in ("true", "false")]
    if alone:
        return Reading("read", alone[-1] == "true")
    words = set(_WORD.findall(text.lower()))
    found = words & {"true", "false"}
    if len(found) == 1:
        return Reading("read", found.pop() == "true")
    return Reading("unparsed", reason="both 'true' and 'false' in the answer" if found
                   else "neither 'true' nor 'false' in the answer")


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
    return normalize(_clean(text)) in ("none", "none.")


def read_count(text: str, none_allowed: bool) -> Reading:
    cleaned = normalize(_clean(text))
    if cleaned == "none":
        return Reading("read", NONE if none_allowed else 0)
    if cleaned in _NUMBER_WORDS:
        return Reading("read", _NUMBER_WORDS[cleaned])
    numbers = _INT.findall(cleaned)
    if len(set(numbers)) == 1:
        return Reading("read", int(numbers[0]))
    return Reading("unparsed", reason="no single integer in the answer" if not numbers
                   else "several numbers in the answer")


def _names(text: str) -> list[str]:
    names: list[str] = []
    for line in text.splitlines():
        pieces, _ = segments(normalize(_clean(line)))
        names.extend(p.strip(" .") for p in pieces if p.strip(" ."))
    return names


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
    if kind in ("fluents", "actions", "action"):
        noun = "fluent" if kind == "fluents" else "action"
        reading = read_list(instance.lexicon, noun, _clean(text) if lines else text.strip(),
                            lines=lines, use_fallback=use_fallback)
        if reading.unread:
            return Reading("unparsed", reason=f"cannot read {reading.unread[0].text!r}",
                           items=reading.items)
        if not reading.items:
            return Reading("unparsed", reason="no item in the answer (write None for none)")
        if reading.ambiguous:
            which = next((i for i in reading.items if i.ambiguous), None)
            reason = (f"{which.text!r} reads more than one way" if which
                      else "the list splits into items in more than one way")
            return Reading("ambiguous", reason=reason, items=reading.items)
        return Reading("read", reading.meaning_set(), items=reading.items)
    if kind == "text":
        items = [normalize(_clean(line)) for line in text.splitlines() if normalize(_clean(line))]
        return Reading("read", frozenset(items))
    names = _names(text)
    bad = [n for n in names if not _NAME.fullmatch(n)]
    if bad or not names:
        return Reading("unparsed", reason=f"cannot read {bad[0]!r} as a name" if bad
                       else "no name in the answer")
    return Reading("read", frozenset(names))
