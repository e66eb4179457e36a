"""Answers that name objects, types or made-up properties, read as a careful human reads them.

ARB's own form is a plain list ("b1, b2, b3 and b4", "block", "b4 has turned purple"); people
write "b1 through b4", "Both c0 and c1 are cities.", "b49 is not part of the domain.", "'b4 has
turned purple' is not defined.".  Each reader takes ARB's form first and the free one only where
that fails:

- objects: the instance's objects the answer names, with every other name-like token that
  carries a digit (made-up objects such as "b49"), and ranges ("c0 through c8", "b1-b4");
- types: the domain's type names the answer uses, singular or plural;
- made-up properties: the quoted text, else the sentence without "is not defined".
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .reader import normalize, segments
from .verdicts import clean

_NAME = re.compile(r"[a-z0-9][\w-]*")
_TOKEN = re.compile(r"(?<![\w-])[a-z][\w-]*(?![\w-])")
_RANGE = re.compile(r"(?<![\w-])([a-z][a-z_]*?)(\d+)\s*(?:through|thru|to|-|\u2013|\.\.)\s*"
                    r"(?:\1)?(\d+)(?![\w-])")
_QUOTED = re.compile(r"['\"\u2018\u201c]([^'\"\u2019\u201d]{3,})['\"\u2019\u201d]")
_UNDEFINED = re.compile(r"\s*(?:,|-|:)?\s*(?:is|are)\s+(?:not|un)\s*(?:defined|part\s+of\b.*|a\s+"
                        r"(?:property|state|fluent)\b.*|valid\b.*)$|\s+is\s+undefined.*$")
MAX_RANGE = 1000


def listed(text: str) -> list[str]:
    """ARB's form: the items of a plain list, one per line or "a, b and c"."""
    names: list[str] = []
    for line in text.splitlines():
        pieces, _ = segments(normalize(clean(line)))
        names.extend(p.strip(" .") for p in pieces if p.strip(" ."))
    return names


def objects_named(text: str, known: Iterable[str]) -> list[str] | None:
    """The objects an answer names (None: it names none); ARB's plain list first."""
    plain = listed(text)
    if plain and all(_NAME.fullmatch(n) for n in plain):
        return plain
    lowered = clean(text).lower()
    found: list[str] = []
    for match in _RANGE.finditer(lowered):
        prefix, low, high = match.group(1), int(match.group(2)), int(match.group(3))
        if len(match.group(2)) < 6 and len(match.group(3)) < 6 and 0 <= high - low <= MAX_RANGE:
            found.extend(f"{prefix}{k}" for k in range(low, high + 1))
    lowered = _RANGE.sub(" ", lowered)
    names = set(known)
    for token in _TOKEN.findall(lowered):
        if token in names or any(c.isdigit() for c in token):
            found.append(token)
    return found or None


def types_named(text: str, types: Iterable[str]) -> list[str] | None:
    """The type names an answer uses (None: none); ARB's plain list first."""
    known = set(types)
    plain = listed(text)
    if plain and all(n in known for n in plain):
        return plain
    forms = {t: t for t in known} | {t + "s": t for t in known} | {t + "es": t for t in known} \
        | {t[:-1] + "ies": t for t in known if t.endswith("y")}
    found = [forms[w] for w in re.findall(r"[a-z][\w-]*", clean(text).lower()) if w in forms]
    return found or None


def made_up(text: str) -> list[str]:
    """The made-up properties an answer names, normalised, one per line (quoted text first)."""
    out: list[str] = []
    for line in text.splitlines():
        quoted = _QUOTED.findall(line)
        if quoted:
            out.extend(normalize(q) for q in quoted)
            continue
        item = normalize(_UNDEFINED.sub("", normalize(clean(line))))
        if item:
            out.append(item)
    return out
