"""What people add around the facts of a free answer, taken away before it is read.

A chat answer writes "robot1 holds ball1 in its left gripper (lgripper1)", "rgripper1 is free
(it's not holding anything)", "After the move: robot1 is in room2".  A careful human reads the
facts through the asides; so does :func:`planetarium.arb.reader.read_list` on an answer's
chunks, after these rewrites:

- a *positional name*: "left gripper", "its right arm" stand for the one object named by the
  adjective's initial and the noun ("lgripper1", "rarm1"), where exactly one object is so named
  (and "right gripper rgripper1" names it once);
- a parenthetical that names one object restates the words before it ("its left gripper
  (lgripper1)" is lgripper1); one that names no object is a remark and is dropped;
- a lead-in that ends in a colon and names no object ("After the move:") is dropped.

Texts given to :func:`asides_removed` are *hollowed* (objects replaced by ``@``, see
:mod:`.reader`); the number of holes never changes, so the objects stay in order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_POSITIONAL = re.compile(r"\b(left|right|upper|lower|front|back)\s+([a-z]+)\b(?!\s*\()")
_REPEATED = re.compile(r"(?<![\w-])([a-z][\w-]*\d)\s+\1(?![\w-])")
_REMARK = re.compile(r"\s*\([^()@]*\)")
_RESTATED = re.compile(r"(?:\b(?:its|his|her|their)\s+)?(?:[a-z]+\s+){1,2}\(\s*@\s*\)")
_LEAD_IN = re.compile(r"^[a-z][a-z ]*:\s+(?=\S)")


def positional_names(text: str, objects: Iterable[str]) -> str:
    """``text`` with each positional name ("left gripper") replaced by the one object it names
    (kept as written where none or several are so named)."""
    names = tuple(objects)

    def named(match: re.Match) -> str:
        shape = re.compile(re.escape(match.group(1)[0] + match.group(2)) + r"\d*")
        found = [o for o in names if shape.fullmatch(o)]
        return found[0] if len(found) == 1 else match.group()

    text = _POSITIONAL.sub(named, text)
    return _REPEATED.sub(r"\1", text) if names else text


def asides_removed(hollow: str) -> str:
    """A hollowed chunk without remarks in parentheses, restated names and object-less
    lead-ins."""
    hollow = _REMARK.sub("", hollow)
    hollow = _RESTATED.sub("@", hollow)
    return _LEAD_IN.sub("", hollow).strip()
