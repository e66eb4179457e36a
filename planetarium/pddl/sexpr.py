"""A tolerant, fast S-expression reader for PDDL.

Why not lark or the ``pddl`` package?  ``bench/parser_choice.py`` measures all three on the same
problems: a lark LALR grammar (built once) takes ~3.3 ms for a 30-block problem, the regex reader
below ~0.14 ms.  Parsing two problems is the largest fixed cost of grading a pair, and the grading
budget is ~2 ms per pair, so the measured winner stays.

The reader returns :class:`SList` (a list that remembers its opening line) whose items are
:class:`Symbol` (a lower-cased ``str`` that remembers its line) or nested lists.  PDDL is
case-insensitive, so everything is lower-cased here, once.
"""

from __future__ import annotations

import re

from ..errors import PDDLSyntaxError

_TOKEN = re.compile(r"[()]|;[^\n]*|[^\s();]+|\n")

#: Deeper nesting than this is hostile input, not PDDL; refuse it before recursion gets costly.
MAX_DEPTH = 64


class Symbol(str):
    """A lower-cased PDDL token that remembers the line it came from."""

    __slots__ = ("line",)
    line: int

    def __new__(cls, text: str, line: int) -> "Symbol":
        sym = super().__new__(cls, text.lower())
        sym.line = line
        return sym


class SList(list):
    """A parenthesised PDDL list that remembers the line of its opening parenthesis."""

    __slots__ = ("line",)

    def __init__(self, line: int) -> None:
        super().__init__()
        self.line = line


def read_sexprs(text: str, first_line: int = 1) -> list:
    """Read every top-level S-expression in ``text``.

    ``first_line`` is the line ``text`` starts on in the document it was cut from, so errors
    name lines of the original model output.  Raises :class:`PDDLSyntaxError` naming the line of
    an unbalanced parenthesis.
    """
    line = first_line
    root = SList(first_line)
    stack: list[SList] = [root]
    for match in _TOKEN.finditer(text):
        tok = match.group()
        if tok == "\n":
            line += 1
        elif tok == "(":
            if len(stack) > MAX_DEPTH:
                raise PDDLSyntaxError(f"nesting deeper than {MAX_DEPTH} levels", line)
            node = SList(line)
            stack[-1].append(node)
            stack.append(node)
        elif tok == ")":
            if len(stack) == 1:
                raise PDDLSyntaxError("unexpected ')' with no matching '('", line)
            stack.pop()
        elif tok[0] != ";":
            stack[-1].append(Symbol(tok, line))
    if len(stack) > 1:
        raise PDDLSyntaxError(
            f"input ends before the '(' opened on line {stack[-1].line} is closed "
            "(truncated output?)",
            line,
        )
    return root
