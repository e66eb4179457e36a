"""Find the PDDL problem inside raw model output.

Model output is hostile input: markdown fences, prose before and after (prose may contain
parentheses), an echoed domain, several problems, comments, trailing junk.  The rule is simple and
documented: the answer is the first *complete* ``(define (problem ...) ...)`` form; a ``define``
whose parentheses never close is reported as truncated.
"""

from __future__ import annotations

import re

from ..errors import PDDLSyntaxError

_DEFINE_PROBLEM = re.compile(r"\(\s*define\s*\(\s*problem\b", re.IGNORECASE)
_PAREN_OR_COMMENT = re.compile(r"[()]|;[^\n]*")


def _closing_index(text: str, start: int) -> int | None:
    """Index just past the parenthesis that closes the one at ``start``, or None if none does."""
    depth = 0
    for match in _PAREN_OR_COMMENT.finditer(text, start):
        tok = match.group()
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth -= 1
            if depth == 0:
                return match.end()
    return None


def extract_problem(raw: str) -> tuple[str, int]:
    """Return the first complete problem definition in ``raw`` and the line it starts on.

    Raises :class:`PDDLSyntaxError` when there is no ``(define (problem`` at all, or when every
    one found is cut off before its closing parenthesis.
    """
    first_open_line = None
    for match in _DEFINE_PROBLEM.finditer(raw):
        end = _closing_index(raw, match.start())
        line = raw.count("\n", 0, match.start()) + 1
        if end is not None:
            return raw[match.start() : end], line
        if first_open_line is None:
            first_open_line = line
    if first_open_line is not None:
        raise PDDLSyntaxError(
            "the problem definition starting here is never closed (truncated output?)",
            first_open_line,
        )
    raise PDDLSyntaxError("no '(define (problem ...))' found in the text")
