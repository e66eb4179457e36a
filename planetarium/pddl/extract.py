"""Find the PDDL problem inside raw model output.

Model output is hostile input: markdown fences, prose before and after (prose may contain
parentheses), an echoed domain, several problems, comments, trailing junk.  The rule is simple and
documented: the answer is the first *complete* ``(define (problem ...) ...)`` form outside
comments; a ``define`` whose parentheses never close is reported as truncated.

A ``;`` comment runs to the end of its line: parentheses and whole problems inside it are
ignored.  The first candidate is usually the answer and is read to its closing parenthesis;
when it never closes, one left-to-right pass finds where every later candidate closes, so the cost
stays linear in the text however many ``(define (problem`` it repeats, and that pass checks the
grading deadline.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ..errors import PDDLSyntaxError
from ..limits import check_deadline

_GAP = r"(?:\s|;[^\n]*)*"  # whitespace and comments may sit between the header's tokens
_DEFINE_PROBLEM = re.compile(rf"\({_GAP}define{_GAP}\({_GAP}problem\b", re.IGNORECASE)
_COMMENT = re.compile(r";[^\n]*")
_PAREN_OR_COMMENT = re.compile(r"[()]|;[^\n]*")
#: Characters scanned between two looks at the clock.
_CLOCK_EVERY = 1 << 16


def _shallow_form(depth: int) -> re.Pattern:
    """A parenthesised form nested at most ``depth`` deep, without comments: one regular
    expression (possessive, so it never backtracks) finds where a usual problem closes in C,
    where walking its parentheses one by one in Python took most of the time of extraction."""
    form = r"\([^();]*+\)"
    for _ in range(depth - 1):
        form = rf"\([^();]*+(?:{form}[^();]*+)*+\)"
    return re.compile(form)


_SHALLOW_FORM = _shallow_form(8)


def _outside_comments(raw: str, positions: list[int]) -> list[int]:
    """The ``positions`` that no ``;`` comment covers."""
    spans = [(m.start(), m.end()) for m in _COMMENT.finditer(raw)]
    if not spans:
        return positions
    starts = [start for start, _ in spans]
    kept = []
    for position in positions:
        i = bisect_right(starts, position) - 1
        if i < 0 or position >= spans[i][1]:
            kept.append(position)
    return kept


def _closing(raw: str, start: int) -> int | None:
    """Index just past the parenthesis that closes the one at ``start``, or ``None``.  No clock:
    one pass is bounded by the grader's input size cap, and this is the common case's only pass."""
    shallow = _SHALLOW_FORM.match(raw, start)
    if shallow:  # no comment and no deeper nesting inside: the same end, found at once
        return shallow.end()
    depth = 0
    for match in _PAREN_OR_COMMENT.finditer(raw, start):
        token = match[0]
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
            if depth == 0:
                return match.end()
    return None


def _earliest_complete(raw: str, starts: list[int]) -> tuple[int, int] | None:
    """(start, end) of the earliest-starting candidate that closes, in one pass over the text
    from the first candidate (which did not close); checks the deadline as it goes."""
    candidates = set(starts)
    # a candidate opened at depth d closes at the first ')' that brings the depth back to d
    depth = 0
    open_starts: list[tuple[int, int]] = []  # (start, depth before it), innermost last
    best: tuple[int, int] | None = None
    next_look = starts[0] + _CLOCK_EVERY
    for match in _PAREN_OR_COMMENT.finditer(raw, starts[0]):
        token = match[0]
        if token == "(":
            if match.start() in candidates:
                open_starts.append((match.start(), depth))
            depth += 1
        elif token == ")":
            depth -= 1
            if open_starts and open_starts[-1][1] == depth:
                start = open_starts.pop()[0]
                if best is None or start < best[0]:
                    best = (start, match.end())
        if match.start() > next_look:
            check_deadline("finding the problem in the output")
            next_look = match.start() + _CLOCK_EVERY
    return best


def extract_problem(raw: str) -> tuple[str, int]:
    """Return the first complete problem definition in ``raw`` and the line it starts on.

    Raises :class:`PDDLSyntaxError` when there is no ``(define (problem`` outside comments, or
    when every one found is cut off before its closing parenthesis.
    """
    starts = _outside_comments(raw, [m.start() for m in _DEFINE_PROBLEM.finditer(raw)])
    if not starts:
        raise PDDLSyntaxError("no '(define (problem ...))' found in the text")
    check_deadline("finding the problem in the output")
    end = _closing(raw, starts[0])
    found = (starts[0], end) if end is not None else _earliest_complete(raw, starts)
    if found is None:
        raise PDDLSyntaxError(
            "the problem definition starting here is never closed (truncated output?)",
            raw.count("\n", 0, starts[0]) + 1,
        )
    return raw[found[0]: found[1]], raw.count("\n", 0, found[0]) + 1
