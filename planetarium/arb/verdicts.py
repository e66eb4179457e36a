"""Where an answer states its verdict, and which: read as a careful human grader reads.

ARB asks "True or False?", but people and models answer in their own words: "Yes", "No, it
is not possible", "It cannot be executed", "False - block b6 is still on the table, so the
claim ... is not true".  A verdict is read in this order, the first that finds one deciding:

1. *final* verdicts: a line that is nothing but a verdict ("True", "**No.**", "Final answer:
   False", "Answer: it is not possible"); all of them must agree, two that contradict leave the
   answer unread (the grader cannot tell which the model meant);
2. *stated* verdicts: what follows "the answer is" ("At first glance one might say False, but
   the answer is True": the statement outranks the hypothetical it answers), all agreeing;
3. the verdict the answer *opens* with ("False - ...", "No, because ...", "Not possible: ...");
4. the verdict of a concluding sentence ("so the answer is True", "Therefore, it is false",
   "..., so no": a bare "no" right after the concluding word is a verdict);
5. every verdict expression of the text, when they all agree (an explanation that uses the
   other word, with no stated verdict, leaves the answer unread).

Verdict expressions: true/false (and "not true", "not false"), yes/no, correct/incorrect,
(not/im)possible, feasible, (in)executable, "can(not) be executed/performed/applied".  A bare
"no" counts only where it opens a clause ("No, ..."); elsewhere it is a determiner ("there is
no clear block").
"""

from __future__ import annotations

import re

_DECOR = re.compile(r"[*`#>|]+|(?<![\w])_+|_+(?![\w])")
_LEAD = re.compile(r"^\s*(?:(?:my|the)\s+)?(?:final\s+|short\s+)?(?:answer|verdict|conclusion)"
                   r"\s*(?:is\s*)?[:\-=]?\s*", re.IGNORECASE)
_FALSE = (r"not\s+(?:be\s+)?(?:possible|executable|feasible|applicable|true|correct|the\s+case"
          r")|impossible|infeasible|inexecutable|non-executable|unexecutable"
          r"|untrue|incorrect|false"
          r"|(?:cannot|can\s*not|can't|could\s+not|couldn't|will\s+not|won't)\s+be\s+"
          r"(?:executed|performed|carried\s+out|applied|done|run)"
          r"|is\s+not\s+(?:executable|possible)|isn't\s+(?:true|possible|executable|correct)")
_TRUE = (r"not\s+false|(?:can|could)\s+be\s+(?:executed|performed|carried\s+out|applied|done"
         r"|run)|possible|executable|feasible|applicable|true|correct(?!\s+answer)|yes")
_EXPRESSION = re.compile(rf"\b(?:(?P<false>{_FALSE})|(?P<true>{_TRUE}))\b", re.IGNORECASE)
_OPENING_NO = re.compile(r"^\s*no\b(?!\s+(?:block|ball|action|property|properties|object|one"
                         r"|fluent|change|robot|truck|package|crate|tile|passenger|vehicle"
                         r"|cargo|man|nut|spanner))", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[.;:!?\n(\u2013\u2014]|\s-\s|,")
_CONCLUDING = re.compile(r"\b(?:so|therefore|thus|hence|consequently|in\s+conclusion|overall"
                         r"|answer\s+is|answer:|verdict)\b", re.IGNORECASE)
_STATED = re.compile(r"\banswer\s+(?:is|would\s+be)\b\s*:?", re.IGNORECASE)
#: a stated verdict stands within this many characters of "the answer is"
_STATED_REACH = 80
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
_WORDS = re.compile(r"[a-z']+")
#: words a line that is "nothing but a verdict" may hold beside the verdict expression
_FILLER = frozenset("the it is this statement claim answer that sequence action actions so "
                    "plan execute to be it's yes no of all final a an".split())


def expressions(text: str) -> list[bool]:
    """The verdict of every verdict expression in ``text``, in order (no bare "no")."""
    return [m.group("true") is not None for m in _EXPRESSION.finditer(text)]


def clean(line: str) -> str:
    """A line without markdown and without a leading "Final answer:"."""
    line = _DECOR.sub(" ", line).strip()
    return _LEAD.sub("", line).strip()


def opening(text: str) -> bool | None:
    """The verdict a text opens with ("No, ...", "False - ...", "It is not possible ...")."""
    text = clean(text.strip())
    if _OPENING_NO.match(text):
        return False
    clause = _CLAUSE_END.split(text, maxsplit=1)[0]
    found = expressions(clause)
    if found and len(set(found)) == 1 and len(_WORDS.findall(clause.lower())) <= 8:
        return found[0]
    return None


def _alone(line: str) -> bool | None:
    """The verdict of a line that holds nothing but one ("True", "No, it is not possible")."""
    text = clean(line.rsplit("?", 1)[-1]).strip(" .!:;,\"'()[]")
    if not text:
        return None
    found = expressions(text)
    if _OPENING_NO.match(text):
        found = [False, *found]
    if not found or len(set(found)) != 1:
        return None
    rest = _EXPRESSION.sub(" ", text.lower())
    if any(w not in _FILLER for w in _WORDS.findall(rest)):
        return None
    return found[0]


def _tail_verdict(tail: str) -> bool | None:
    """The one verdict a stated answer's clause holds ("True", "not possible"; None: none or
    both)."""
    found = expressions(tail)
    if _OPENING_NO.match(clean(tail)):
        found = [False, *found]
    return found[0] if found and len(set(found)) == 1 else None


def verdict(text: str) -> tuple[bool | None, str]:
    """The answer's verdict (None: not readable) and, when None, why."""
    finals = [v for v in (_alone(line) for line in text.splitlines()) if v is not None]
    if finals:
        if len(set(finals)) == 1:
            return finals[0], ""
        return None, "two final verdicts contradict each other"
    stated = [_tail_verdict(_CLAUSE_END.split(text[m.end():m.end() + _STATED_REACH].lstrip(" :"),
                                              maxsplit=1)[0])
              for m in _STATED.finditer(text)]
    if stated and None not in stated and len(set(stated)) == 1:
        return stated[0], ""
    first = opening(text)
    if first is not None:
        return first, ""
    concluding = [s for s in _SENTENCES.split(text) if _CONCLUDING.search(s)]
    for sentence in reversed(concluding):
        tail = sentence[_CONCLUDING.search(sentence).end():]  # type: ignore[union-attr]
        found = expressions(tail)
        if _OPENING_NO.match(clean(tail).lstrip(" ,")):
            found = [False, *found]
        if found and len(set(found)) == 1:
            return found[0], ""
    found = expressions(text)
    if found and len(set(found)) == 1:
        return found[0], ""
    if found:
        return None, "the answer holds both verdicts and states neither as its own"
    return None, ("neither a true nor a false verdict (true/false, yes/no, possible/not "
                  "possible) in the answer")
