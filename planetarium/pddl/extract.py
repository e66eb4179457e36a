"""Find the PDDL problem inside raw model output.

Model output is hostile input: markdown fences, prose before and after (prose may contain
parentheses), an echoed domain, several problems, comments, trailing junk.  The rule is simple and
documented: the answer is the *last complete* ``(define (problem ...) ...)`` form outside
comments — a model that writes a draft and then a corrected problem is graded on its final word,
and a last problem cut off by the token limit leaves the complete one before it graded;
:attr:`Extraction.note` says so when several were found.  A ``define`` whose parentheses never
close is reported as truncated.  Echoed domains (``(define (domain ...))``) are not problems; the
prompt holds no problem to echo.

A ``;`` comment runs to the end of its line: parentheses and whole problems inside it are
ignored.  One candidate (the common case) is read to its closing parenthesis; several are closed
in one left-to-right pass, so the cost stays linear in the text however many ``(define
(problem`` it repeats, and that pass checks the grading deadline.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

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


def _complete_candidates(raw: str, starts: list[int]) -> list[tuple[int, int]]:
    """(start, end) of every candidate that closes, in one pass over the text from the first
    candidate; checks the deadline as it goes."""
    candidates = set(starts)
    # a candidate opened at depth d closes at the first ')' that brings the depth back to d
    depth = 0
    open_starts: list[tuple[int, int]] = []  # (start, depth before it), innermost last
    complete: list[tuple[int, int]] = []
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
                complete.append((open_starts.pop()[0], match.end()))
        if match.start() > next_look:
            check_deadline("finding the problem in the output")
            next_look = match.start() + _CLOCK_EVERY
    return complete


@dataclass(frozen=True)
class Extraction:
    """The problem graded in an answer: its ``text``, the ``line`` it starts on, and how many
    ``(define (problem`` the answer held (``found``) and how many of them close (``complete``)."""

    text: str
    line: int
    found: int = 1
    complete: int = 1

    @property
    def note(self) -> str | None:
        """What a reason should say when the answer held several problems, else ``None``."""
        if self.found == 1:
            return None
        closed = "" if self.complete == self.found else f" ({self.complete} complete)"
        return (f"{self.found} problems found in the answer{closed}; graded the last complete "
                f"one (line {self.line})")


def find_problem(raw: str) -> Extraction:
    """The last complete problem definition in ``raw`` (module docstring).

    Raises :class:`PDDLSyntaxError` when there is no ``(define (problem`` outside comments, or
    when every one found is cut off before its closing parenthesis.
    """
    found = _scan(raw)
    if isinstance(found, tuple):  # why there is none, and where
        raise PDDLSyntaxError(*found)
    return found


@lru_cache(maxsize=4)
def _scan(raw: str) -> Extraction | tuple[str, int | None]:
    """:func:`find_problem`'s answer, or its error's message and line, kept for the few latest
    texts: grading reads the problem, then asks for :attr:`Extraction.note` of the same answer."""
    starts = _outside_comments(raw, [m.start() for m in _DEFINE_PROBLEM.finditer(raw)])
    if not starts:
        return "no '(define (problem ...))' found in the text", None
    check_deadline("finding the problem in the output")
    if len(starts) == 1:
        end = _closing(raw, starts[0])
        complete = [] if end is None else [(starts[0], end)]
    else:
        complete = _complete_candidates(raw, starts)
    if not complete:
        return ("the problem definition starting here is never closed (truncated output?)",
                raw.count("\n", 0, starts[-1]) + 1)
    # the last to close: the last problem written (an enclosing one closes after what it holds)
    start, end = max(complete, key=lambda span: span[1])
    return Extraction(raw[start:end], raw.count("\n", 0, start) + 1, len(starts), len(complete))


def extract_problem(raw: str) -> tuple[str, int]:
    """The last complete problem definition in ``raw`` and the line it starts on
    (:func:`find_problem`)."""
    found = find_problem(raw)
    return found.text, found.line
