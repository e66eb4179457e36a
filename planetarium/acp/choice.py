"""ACPBench yes/no and multiple-choice answers: extraction as in the published harness.

The published lm-evaluation-harness configs take, from a chain-of-thought response, the text
after a final-answer marker ("The answer is", "The final answer:", "**Answer**:", ...) when
there is one, and otherwise a bare yes/no word or choice letter; the extracted string is then
compared with the label ignoring case and punctuation.  Here:

* **marker first** — the first yes/no word (or A-D letter) after the *first* marker;
* **then the last** yes/no word (or standalone letter) of the whole response, the answer a
  chain of thought ends on;
* nothing found: score 0, unparseable.

Deviation, documented: the harness's ``take_first`` without a marker takes the *first* bare
yes/no, which often grades a word of the reasoning; the issue asks for the last one.
"""

from __future__ import annotations

import re

from . import grades
from .data import AcpItem
from .grades import Grade

_MARKER = re.compile(r"(?:the\s+final\s+answer\s*:|the\s+answer\s+is|the\s+answer\s*:|"
                     r"\W\W?final\s+answer\W\W?\s*:|\W\Wanswer\W\W\s*:)", re.IGNORECASE)
_YESNO = re.compile(r"\b(yes|no)\b", re.IGNORECASE)
_LETTER_AFTER_MARKER = re.compile(r"\b([A-D])\b")
_LETTER = re.compile(r"(?:^|[\s\[(])([A-D])(?=$|[\s\].):,])", re.MULTILINE)


def extract_choice(text: str, kind: str) -> str | None:
    """The yes/no (``kind="bool"``) or letter (``"mcq"``) answer of ``text``, lower/upper-cased."""
    marker = _MARKER.search(text)
    if marker:
        rest = text[marker.end():]
        found = (_YESNO if kind == "bool" else _LETTER_AFTER_MARKER).search(rest)
        if found:
            return found.group(1).lower() if kind == "bool" else found.group(1).upper()
    matches = (_YESNO if kind == "bool" else _LETTER).findall(text)
    if not matches:
        return None
    return matches[-1].lower() if kind == "bool" else matches[-1].upper()


def score_choice(item: AcpItem, response: object) -> Grade:
    """Exact match of the extracted answer with the stored label."""
    got = extract_choice(response, item.kind) if isinstance(response, str) else None
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
