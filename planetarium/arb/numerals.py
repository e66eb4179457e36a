"""Numbers in an answer, written in digits or in English words ("84", "1,024", "eighty-four",
"one hundred and twelve"), wherever they stand in the text.

A careful reader takes "There are thirteen objects" as 13 as readily as "13".  Object names
that carry digits ("b13", "l0_1") are no numbers, nor are ordinals ("8th") or decimals.  A
number too long to be a count (more than :data:`MAX_DIGITS` digits) is reported as such, never
converted: Python refuses to convert more than 4,300 digits, and no ARB count comes near.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_DIGITS = 60

_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate(
    "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if w != "_"}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6}
_WORD = "|".join(sorted([*_UNITS, *_TENS, *_SCALES], key=len, reverse=True))
_DIGITS = r"\d{1,3}(?:,\d{3})+(?!\d)|\d+"
_TOKEN = re.compile(
    rf"(?<![\w.,-])(?P<digits>-?(?:{_DIGITS}))(?![\w]|[.,]\d)"
    rf"|(?<![\w-])(?P<words>(?:{_WORD})(?:(?:[\s-]+|\s+and\s+)(?:{_WORD}))*)(?![\w-])",
    re.IGNORECASE)


@dataclass(frozen=True)
class Number:
    """One number found: its value (None: too long to read), and where it stands."""

    value: int | None
    start: int
    end: int


def numbers(text: str) -> list[Number]:
    """Every number in ``text``, in order."""
    found = []
    for match in _TOKEN.finditer(text):
        if match.group("digits"):
            digits = match.group("digits").replace(",", "")
            value = None if len(digits.lstrip("-")) > MAX_DIGITS else int(digits)
            found.append(Number(value, match.start(), match.end()))
        else:
            value = words_value(match.group("words"))
            if value is not None:
                found.append(Number(value, match.start(), match.end()))
    return found


def words_value(text: str) -> int | None:
    """The value of a number in words ("eighty-four" -> 84; None: not one number)."""
    words = [w for w in re.split(r"[\s-]+", text.lower()) if w and w != "and"]
    total, current, last = 0, 0, None
    for word in words:
        if word in _UNITS:
            if last in ("unit", "teen") or (last == "tens" and _UNITS[word] >= 10):
                return None
            current += _UNITS[word]
            last = "unit" if _UNITS[word] < 10 else "teen"
        elif word in _TENS:
            if last in ("unit", "teen", "tens"):
                return None
            current += _TENS[word]
            last = "tens"
        else:
            scale = _SCALES[word]
            if scale == 100:
                current = max(current, 1) * 100
            else:
                total += max(current, 1) * scale
                current = 0
            last = "scale"
    return total + current
