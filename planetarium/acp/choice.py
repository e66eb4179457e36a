"""ACPBench yes/no and multiple-choice answers, read as a careful human reads them.

The published harness takes the first match of a regular expression (yes/no) or the last
capital A-D anywhere in the response (multiple choice), so "A plan exists" answers A and
"No, ... yes, t2 is at l2-2" answers no or yes by where the words fall.  A human grader reads
the answer the response *states*; in order, the first rule that finds one decides:

1. **A marked answer.**  "Final answer:", "Answer:", "The (correct) answer/option/choice is",
   "I choose" — markdown bold and headings removed first.  The verdict is the first one of the
   marked sentence.  Several "final answer" markers that disagree leave the response
   unreadable; otherwise the last marker wins ("No wait.  The answer is yes." is yes).
2. **A concluding verdict**: one right after "so", "therefore", "thus", "hence", "but",
   "wait", "actually", ... ("Yes, it seems applicable... but no." is no).
3. **The leading verdict**: the first sentence that holds one ("Yes, it is.", "B) ...",
   "Option B", "(B)"; not "A, B and C are ill-typed", a list of options).  An explanation
   after it may use the other word ("No - t2 does not hold p3; yes, t2 is at l2-2, but ...")
   without changing it; a sentence holding both ("Yes and no.") leaves the response
   unreadable.
4. Yes/no only: **the claim's polarity** when no yes/no word is written — "It is not
   applicable.", "Impossible.", "The pair can be removed." — in the concluding sentence, or
   in a response of one or two sentences.  Hedges ("not sure", "it depends", "maybe") are
   unreadable.
5. Multiple choice only: **an option chosen by name** ("B is correct", "I would go with option
   D"), **an option's own text** when the response (or its marked answer) quotes exactly one,
   or **the only letter** the response mentions and does not reject ("Neither A nor C nor D
   holds; B does.").  A capital A counts as a letter only where it is not the article ("A plan
   exists").

A yes/no word counts as a verdict only where it stands as one — at a sentence's start or
before punctuation — so "no" in "no block is held" is not an answer.  True, correct, sure,
definitely, nope and the like read as yes or no, and "not" before or after one turns it ("not
true", "definitely not").  What none of the rules reads is ``None``: the answer scores 0 as unparseable.
``bench/bench_acp_reading.py`` measures these rules against hand-scored answers
(``tests/fixtures/acp_reading``), beside the published rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from . import grades
from .answers import MAX_ANSWER_CHARS
from .data import AcpItem
from .grades import Grade

_MARKDOWN = re.compile(r"\*\*|__|^\s*#+\s*|`", re.MULTILINE)
_MARKER = re.compile(
    r"\b(?:(?P<final>final\s+(?:answer|verdict))\s*(?:is\b)?\s*:?"
    r"|(?:the\s+|my\s+)?(?:correct\s+|right\s+|best\s+)?(?:answer|option|choice)\s+"
    r"(?:is|would\s+be|will\s+be)\b\s*:?"
    r"|(?:answer|verdict|conclusion)\s*[:\-\u2013\u2014]"
    r"|I\s+(?:would\s+)?(?:choose|pick|select|go\s+with))", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")
_CONNECTIVE = (r"(?:so|therefore|thus|hence|consequently|overall|but|wait|actually|correction|"
               r"in\s+conclusion|in\s+summary|in\s+short|to\s+conclude|on\s+second\s+thought)")
_CONCLUDES = re.compile(rf"\b{_CONNECTIVE}\b[\s,:\-\u2013\u2014]*$", re.IGNORECASE)
_HAS_CONNECTIVE = re.compile(rf"\b{_CONNECTIVE}\b", re.IGNORECASE)

_VERDICT = re.compile(r"\b(yes|yeah|yep|sure|certainly|definitely|absolutely|indeed|correct|true|"
                      r"no|nope|incorrect|false)\b", re.IGNORECASE)
_WORDS = {"yes": "yes", "yeah": "yes", "yep": "yes", "sure": "yes", "certainly": "yes",
          "definitely": "yes", "absolutely": "yes", "indeed": "yes", "correct": "yes",
          "true": "yes", "no": "no", "nope": "no", "incorrect": "no", "false": "no"}
_FLIP = {"yes": "no", "no": "yes"}
#: Words that are a verdict only where they stand alone, never just before another word
#: ("certainly", "correct" and "true" are also ordinary adverbs and adjectives).
_ALONE_ONLY = {"sure", "certainly", "definitely", "absolutely", "indeed", "correct", "incorrect",
               "true", "false"}
#: Words after which a sentence-initial "No" is still a verdict ("No it is not"), not a
#: determiner ("No block is held").
_NO_VERDICT_NEXT = re.compile(r"\s+(?:it|it's|this|that|the|because|since|as|not|i|we|they|"
                              r"there|its|never|way)\b", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|cannot|can't|never|no|none|neither|nor|impossible|unreachable|"
                       r"inapplicable|unachievable|invalid|unable|false|incorrect|fails?)\b|n't\b",
                       re.IGNORECASE)
_CLAIM = re.compile(r"\b(?:is|are|was|can|could|will|would|does|do|must|holds?|possible|"
                    r"impossible|applicable|inapplicable|reachable|unreachable|achievable|valid|"
                    r"invalid|landmark|plan|removable|redundant|necessary)\b", re.IGNORECASE)
_HEDGE = re.compile(r"\b(?:not\s+sure|unsure|uncertain|unclear|maybe|perhaps|it\s+depends|"
                    r"(?:cannot|can't|could\s+not|couldn't)\s+(?:be\s+)?(?:determine|tell|say|"
                    r"decide)d?|(?:do\s+not|don't)\s+know|insufficient)\b", re.IGNORECASE)

#: A reference to an option by its letter: "option B", "choice (b)", "(B)", or a capital
#: letter standing alone — not the article in "A plan is ...".
_LETTER = re.compile(
    r"\b(?:option|choice)\s*\(?([A-Da-d])\)?(?![\w-])|\(([A-Da-d])\)"
    r"|(?<![\w'-])([B-D]|A(?!\s+(?!(?:is|as|because|since|and|or|would|seems?|looks?|must|only|"
    r"also|too|nor|can|could|will|does|holds?|fits?|works?|remains?|names?|uses?)\b)[a-z]))"
    r"(?![\w'-])")
_BARE_LOWER = re.compile(r"\s*\(?([a-d])\)?[.)]?\s*$")
_ALTERNATIVE = re.compile(r"\s*(?:,|/|\bor\b|\band\b)\s*(?:option\s*)?\(?[A-Da-d]\b")
_CHOSEN = re.compile(
    r"(?:\b(?:choose|pick|select|go\s+with)\s+(?:option\s+|choice\s+)?\(?([A-D])\)?(?![\w-])"
    r"|(?:\b(?:option|choice)\s*)?\(?\b([A-D])\)?\s+(?:is|seems|would\s+be)\s+(?:the\s+)?"
    r"(?:correct|right|answer|best|true|valid|applicable|only)\b)", re.IGNORECASE)


_PUNCTUATED = re.compile(r"\s*(?:[.,;:!?)\-\u2013\u2014]|$)")
_NOT_AFTER = re.compile(r"\s+not\b", re.IGNORECASE)
_NOT_BEFORE = re.compile(r"\bnot\s+$", re.IGNORECASE)
_NO_WORDS = re.compile(r"[\s\W]*")
_REJECTED = re.compile(r"\b(?:neither|nor|not|except|but)\s+(?:option\s+|choice\s+)?\(?$",
                       re.IGNORECASE)


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


def _verdicts(sentence: str) -> list[tuple[int, str]]:
    """(position, yes/no) of each word of ``sentence`` that stands as a verdict."""
    found = []
    for match in _VERDICT.finditer(sentence):
        after = sentence[match.end():match.end() + 40]  # bounded: a hostile sentence of
        before = sentence[max(0, match.start() - 40):match.start()]  # verdicts stays linear
        punctuated = _PUNCTUATED.match(after) is not None
        initial = (match.start() < 40 and _NO_WORDS.fullmatch(before) is not None
                   or _CONCLUDES.search(before) is not None)
        word = match.group(1).lower()
        if word == "no" and not punctuated and not _NO_VERDICT_NEXT.match(after):
            continue  # a determiner: "no block is held"
        negated = _NOT_AFTER.match(after) is not None  # "definitely not"
        if word in _ALONE_ONLY and not punctuated and not negated:
            continue  # "certainly applicable" and "true that" are claims, read by polarity
        verdict = _WORDS[word]
        if negated or _NOT_BEFORE.search(before):  # "not true", "definitely not"
            verdict = _FLIP[verdict]
        if punctuated or initial or negated:
            found.append((match.start(), verdict))
    return found


def _polarity(sentence: str) -> str | None:
    """yes/no by the claim's negation; ``None`` for a hedge or a sentence that claims nothing."""
    if _HEDGE.search(sentence) or not _CLAIM.search(sentence):
        return None
    return "no" if _NEGATION.search(sentence) else "yes"


def _read_bool(region: str, polar: bool) -> str | None:
    """The verdict of a marked answer: its first sentence's words, else its claim."""
    sentences = _sentences(region)
    if not sentences:
        return None
    first = sentences[0]
    words = {w for _, w in _verdicts(first)} or {
        _WORDS[m.group(1).lower()] for m in _VERDICT.finditer(first[:40])}
    if len(words) == 1:
        return words.pop()
    if words:
        return None
    return _polarity(first) if polar else None


def _letters(text: str, letters: str) -> list[tuple[int, int, str]]:
    """(start, end, letter) of each reference to one of ``letters`` in ``text``."""
    found = []
    for match in _LETTER.finditer(text):
        letter = next(g for g in match.groups() if g).upper()
        if letter in letters:
            found.append((match.start(), match.end(), letter))
    return found


def _normal(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s-]", " ", text.lower()).split())


def _quoted_option(text: str, choices: Sequence[str], letters: str) -> str | None:
    """The letter of the one option whose text ``text`` quotes (a quoted option inside a
    longer quoted one does not count)."""
    said = f" {_normal(text)} "
    hits = [i for i, c in enumerate(choices) if _normal(c) and f" {_normal(c)} " in said]
    hits = [i for i in hits if not any(i != j and _normal(choices[i]) in _normal(choices[j])
                                       for j in hits)]
    return letters[hits[0]] if len(hits) == 1 else None


def _read_letter(region: str, choices: Sequence[str], letters: str) -> str | None:
    """The option a marked answer names: its first letter (none where it names alternatives:
    "A or D"), a lone lower-case letter, or the one option text it quotes."""
    first = (_sentences(region) or [""])[0]
    found = _letters(first, letters)
    if found:
        start, end, letter = found[0]
        return None if _ALTERNATIVE.match(first[end:]) else letter
    bare = _BARE_LOWER.match(region)
    if bare and bare.group(1).upper() in letters:
        return bare.group(1).upper()
    return _quoted_option(region, choices, letters)


def _marked(text: str, read: Callable[[str], str | None]) -> tuple[bool, str | None]:
    """(whether a marker gave a verdict, the verdict) under rule 1 of the module docstring."""
    markers = list(_MARKER.finditer(text))
    finals, last = set(), None
    for number, marker in enumerate(markers):
        end = markers[number + 1].start() if number + 1 < len(markers) else len(text)
        verdict = read(text[marker.end():end])
        if verdict is None:
            continue
        if marker.group("final"):
            finals.add(verdict)
        last = verdict
    if finals:
        return True, finals.pop() if len(finals) == 1 else None
    return last is not None, last


def _bool_answer(text: str) -> str | None:
    found, verdict = _marked(text, lambda region: _read_bool(region, polar=True))
    if found:
        return verdict
    sentences = _sentences(text)
    concluding = [w for s in sentences for at, w in _verdicts(s)
                  if _CONCLUDES.search(s[max(0, at - 40):at])]
    if concluding:
        return concluding[-1]
    for sentence in sentences:
        words = {w for _, w in _verdicts(sentence)}
        if words:
            return words.pop() if len(words) == 1 else None
    closing = [s for s in sentences if _HAS_CONNECTIVE.search(s)]
    if closing:
        return _polarity(closing[-1])
    return _polarity(sentences[0]) if 0 < len(sentences) <= 2 else None


def _mcq_answer(text: str, choices: Sequence[str]) -> str | None:
    letters = "ABCDEFGH"[:len(choices)] if choices else "ABCD"
    found, verdict = _marked(text, lambda region: _read_letter(region, choices, letters))
    if found:
        return verdict
    sentences = _sentences(text)
    for sentence in reversed(sentences):
        connective = _HAS_CONNECTIVE.search(sentence)
        named = _letters(sentence[connective.end():], letters) if connective else []
        if named:
            return named[0][2]
    start = text.lstrip()
    leading = _letters(start[:12], letters)
    if leading and leading[0][0] == 0 and not _ALTERNATIVE.match(start[leading[0][1]:]):
        return leading[0][2]
    chosen = [next(g for g in m.groups() if g).upper() for m in _CHOSEN.finditer(text)]
    if chosen and chosen[-1] in letters:
        return chosen[-1]
    quoted = _quoted_option(text, choices, letters)
    if quoted is not None:
        return quoted
    named_letters = {letter for at, _, letter in _letters(text, letters)
                     if not _REJECTED.search(text[max(0, at - 30):at])}
    return named_letters.pop() if len(named_letters) == 1 else None


def extract_choice(text: str, kind: str, choices: Sequence[str] = ()) -> str | None:
    """The yes/no (``kind="bool"``, lower case) or letter (``"mcq"``, upper case) answer of
    ``text``, ``None`` where a careful human could not tell; ``choices``: the options' texts."""
    text = _MARKDOWN.sub("", text)
    return _bool_answer(text) if kind == "bool" else _mcq_answer(text, choices)


def score_choice(item: AcpItem, response: object) -> Grade:
    """Exact match of the extracted answer with the stored label."""
    if isinstance(response, str) and len(response) > MAX_ANSWER_CHARS:
        return grades.unparseable(f"the answer has {len(response)} characters, over the "
                                  f"{MAX_ANSWER_CHARS} limit")
    options = (item.choices or {}).get("text") or ()
    got = extract_choice(response, item.kind, options) if isinstance(response, str) else None
    label = str(item.answer).strip()
    label = label.lower() if item.kind == "bool" else label.upper()
    if got is None:
        what = "yes/no" if item.kind == "bool" else "choice letter"
        return grades.unparseable(f"no {what} found in the response")
    if got == label:
        return grades.right(f"answered {got}")
    return grades.wrong(f"answered {got}, the label is {label}")


def render_choice_gold(item: AcpItem) -> str:
    return f"The answer is {item.answer}."
