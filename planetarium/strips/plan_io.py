"""Reading and writing plans in the PDDL plan syntax that planners and VAL exchange.

Plans arrive from planners, from files written by other tools and from people, so the reader
accepts every common dialect — ``;`` comments, blank lines, any letter case, ``1: (a x)`` or
``0.000: (a x) [1.000]`` step numbering and durations, ``(a x) ; cost`` trailers — and refuses
anything else with the line it could not read, instead of guessing what a broken line meant.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..errors import PDDLSyntaxError

GroundStep = tuple[str, ...]  # (action name, arg1, ...), lower case

_STEP = re.compile(
    r"""^(?:\d+(?:\.\d+)?\s*:\s*)?        # optional step number or time stamp: "1:", "0.000:"
        \(\s*([^()\s;]+(?:\s+[^()\s;]+)*)\s*\)  # the action and its arguments
        \s*(?:\[\s*\d+(?:\.\d+)?\s*\])?$  # optional duration / cost suffix: "[1]", "[1.000]"
    """,
    re.VERBOSE,
)


def parse_plan(text: str) -> list[GroundStep]:
    """Read one action per line; raise :class:`PDDLSyntaxError` naming the first bad line."""
    plan: list[GroundStep] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split(";", 1)[0].strip()
        if not line:
            continue
        match = _STEP.match(line)
        if match is None:
            raise PDDLSyntaxError(
                f"expected one action such as '(name arg ...)', found '{line[:80]}'", number
            )
        plan.append(tuple(match.group(1).lower().split()))
    return plan


def format_plan(plan: Iterable[Iterable[str]]) -> str:
    """Write ``plan`` one action per line, the form :func:`parse_plan` and VAL read."""
    return "".join("(" + " ".join(step) + ")\n" for step in plan)
