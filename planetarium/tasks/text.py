"""Small English helpers shared by every domain's task texts.

Like :mod:`planetarium.tasks`, this module imports nothing else from Planetarium, so the task
modules under ``planetarium/domains`` may use it.  Getting counts right ("1 robot", never
"1 robots") is a correctness matter here: the texts are the benchmark's inputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

_ORDINALS = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
    "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
    "seventeenth", "eighteenth", "nineteenth", "twentieth",
)
_TENS = {20: "twenty", 30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy",
         80: "eighty", 90: "ninety"}


def plural(n: int, noun: str, plural_form: str | None = None) -> str:
    """``plural(1, "ball") == "1 ball"``, ``plural(3, "ball") == "3 balls"``."""
    if n == 1:
        return f"1 {noun}"
    return f"{n} {plural_form or noun + 's'}"


def join_words(words: Sequence[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def ordinal(n: int) -> str:
    """``1 -> "first"`` ... ``99 -> "ninety-ninth"``; larger numbers as ``"100th"``."""
    if n < 1:
        raise ValueError(f"no ordinal for {n}")
    if n <= len(_ORDINALS):
        return _ORDINALS[n - 1]
    if n < 100:
        tens, unit = divmod(n, 10)
        if unit == 0:
            return _TENS[n][:-1] + "ieth"
        return f"{_TENS[tens * 10]}-{_ORDINALS[unit - 1]}"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _numbered(name: str) -> tuple[str, int] | None:
    stem = name.rstrip("0123456789")
    return (stem, int(name[len(stem):])) if stem != name else None


def name_list(names: Sequence[str]) -> str:
    """``"ball1, ball3 and ball4"``; more than three consecutively numbered names with one stem
    as a range, ``"ball3 to ball9"`` (the range says exactly which objects are meant)."""
    return _name_list(tuple(names))


@cache
def _name_list(names: tuple[str, ...]) -> str:
    """Cached: the same object lists recur in tens of thousands of texts."""
    parts = [p for p in map(_numbered, names) if p is not None]
    if (len(names) > 3 and len(parts) == len(names) and len({p[0] for p in parts}) == 1
            and [p[1] for p in parts] == list(range(parts[0][1], parts[0][1] + len(names)))):
        return f"{names[0]} to {names[-1]}"
    return join_words(names)
