"""Find the PDDL problem inside raw model output.

Model output is hostile input: markdown fences, prose before and after (prose may contain
parentheses), an echoed domain, several problems, comments, trailing junk.  The rule is simple and
documented: the answer is the first *complete* ``(define (problem ...) ...)`` form outside
comments; a ``define`` whose parentheses never close is reported as truncated.

One left-to-right pass finds every candidate and where it closes, so the cost is linear in the
text however many ``(define (problem`` it repeats, and the pass checks the grading deadline.  A
``;`` comment runs to the end of its line: parentheses and whole problems inside it are ignored.
"""

from __future__ import annotations

import re

from ..errors import PDDLSyntaxError
from ..limits import check_deadline

_TOKEN = re.compile(r";[^\n]*|\(\s*define\s*\(\s*problem\b|[()]", re.IGNORECASE)
#: Tokens between two looks at the clock (a look costs about as much as a few hundred tokens).
_CLOCK_EVERY = 4096


def extract_problem(raw: str) -> tuple[str, int]:
    """Return the first complete problem definition in ``raw`` and the line it starts on.

    Raises :class:`PDDLSyntaxError` when there is no ``(define (problem`` outside comments, or
    when every one found is cut off before its closing parenthesis.
    """
    depth = 0
    # (start, depth before it) of the candidates still open, innermost last; a candidate opened
    # at depth d closes at the first ')' that brings the depth back to d.
    open_starts: list[tuple[int, int]] = []
    first_start: int | None = None
    best: tuple[int, int] | None = None  # (start, end) of the earliest complete candidate
    for count, match in enumerate(_TOKEN.finditer(raw)):
        if not count % _CLOCK_EVERY:
            check_deadline("finding the problem in the output")
        token = match.group()
        if token[0] == ";":
            continue
        if token == ")":
            depth -= 1
            if open_starts and open_starts[-1][1] == depth:
                start = open_starts.pop()[0]
                if best is None or start < best[0]:
                    best = (start, match.end())
        elif token == "(":
            depth += 1
        else:  # "(define (problem": two parentheses at once
            open_starts.append((match.start(), depth))
            if first_start is None:
                first_start = match.start()
            depth += 2
    if best is not None:
        return raw[best[0]: best[1]], raw.count("\n", 0, best[0]) + 1
    if first_start is not None:
        raise PDDLSyntaxError(
            "the problem definition starting here is never closed (truncated output?)",
            raw.count("\n", 0, first_start) + 1,
        )
    raise PDDLSyntaxError("no '(define (problem ...))' found in the text")
