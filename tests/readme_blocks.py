"""The README's command blocks, read as ``tests/test_readme.py`` runs them.

A *command block* is a fenced block of language ``console`` (commands are the lines after a
``$ `` prompt, the other lines are output), ``sh``/``bash``/``shell`` (every line is a command),
or of no language with ``$ `` prompts.  A line ending in ``\\`` continues on the next one.
Blocks of other languages (``python``, ``yaml``, ``text``) are not commands.

An HTML comment on the lines right before a block (blank lines may separate them) says how it
is treated; every comment there must be one of these markers:

* ``<!-- not run: WHY -->`` — the test does not run it, and WHY says what it needs that the test
  machine lacks (a CUDA GPU, the Hugging Face Hub, ...);
* ``<!-- run by .ci/run -->`` — CI's script runs these commands verbatim (each ``&&`` part is a
  line of ``.ci/run``);
* ``<!-- run after: SECTION -->`` — it reads what the blocks of the section headed SECTION write,
  so it runs after them.

Indented code blocks are refused: write commands as a fenced ``console`` block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

COMMAND_LANGUAGES = {"console", "shell-session", "sh", "bash", "shell"}
_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+|~~~+)\s*(?P<lang>[\w-]*)")
_HEADING = re.compile(r"^#{1,6}\s+(?P<title>.+?)\s*#*$")
_COMMENT = re.compile(r"^\s*<!--\s*(?P<body>.*?)\s*-->\s*$")
_MARKER = re.compile(r"^(?P<kind>not run|run by|run after):\s*(?P<arg>.*)$|^(?P<ci>run by \.ci/run)$")
_LIST_ITEM = re.compile(r"^\s*([-*+]|\d+[.)])\s")


class ReadmeError(ValueError):
    """The README breaks the convention above; the message names the line."""


@dataclass
class Block:
    """One command block: where it is, its commands (continuations joined) and its marker."""

    line: int
    section: str
    commands: list[str]
    skip_reason: str | None = None
    by_ci: bool = False
    after: str | None = None

    @property
    def runnable(self) -> bool:
        return self.skip_reason is None and not self.by_ci

    @property
    def name(self) -> str:
        return f"line {self.line} ({self.section})"


def _commands(lines: list[str], prompted: bool) -> list[str]:
    """The commands of a block's lines: after ``$ `` when ``prompted``, continuations joined."""
    commands: list[str] = []
    current: str | None = None
    for text in lines:
        if current is not None:  # a continuation of the previous line
            current += "\n" + text
        elif prompted and text.lstrip().startswith("$ "):
            current = text.lstrip()[2:]
        elif not prompted and text.strip() and not text.lstrip().startswith("#"):
            current = text.strip()
        else:
            continue  # output (prompted blocks), blank lines, comments
        if not current.endswith("\\"):
            commands.append(current)
            current = None
    if current is not None:
        commands.append(current.rstrip("\\"))
    return commands


def _apply_marker(block: Block, comment: str, line: int) -> None:
    match = _MARKER.match(comment)
    if match is None:
        raise ReadmeError(f"README line {line}: '<!-- {comment} -->' before a command block is not "
                          "a marker (not run: WHY | run by .ci/run | run after: SECTION)")
    if match.group("ci"):
        block.by_ci = True
    elif match.group("kind") == "not run":
        if not match.group("arg").strip():
            raise ReadmeError(f"README line {line}: 'not run:' must say why")
        block.skip_reason = match.group("arg").strip()
    elif match.group("kind") == "run after":
        block.after = match.group("arg").strip()
    else:
        raise ReadmeError(f"README line {line}: 'run by' takes only .ci/run")


def parse(text: str) -> list[Block]:
    """Every command block of ``text`` with its marker; :class:`ReadmeError` on a breach."""
    lines = text.splitlines()
    blocks: list[Block] = []
    section = "(top)"
    pending: list[tuple[int, str]] = []  # marker comments since the last non-blank line
    last_text = ""  # the last non-blank line outside a block, for indented-block detection
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = _FENCE.match(line)
        if fence:
            indent, marker, lang = fence.group("indent"), fence.group("fence"), fence.group("lang")
            end = index + 1
            while end < len(lines) and not lines[end].startswith(indent + marker[0] * len(marker)):
                end += 1
            body = [text[len(indent):] if text.startswith(indent) else text
                    for text in lines[index + 1:end]]
            prompted = lang in {"console", "shell-session"} or (
                not lang and any(text.startswith("$ ") for text in body))
            if lang in COMMAND_LANGUAGES or prompted:
                block = Block(index + 1, section, _commands(body, prompted))
                for comment_line, comment in pending:
                    _apply_marker(block, comment, comment_line)
                blocks.append(block)
            elif pending:
                raise ReadmeError(f"README line {pending[0][0]}: a marker before a block that "
                                  "is not a command block")
            pending, last_text = [], ""
            index = end + 1
            continue
        comment = _COMMENT.match(line)
        if comment:
            pending.append((index + 1, comment.group("body")))
        elif line.strip():
            heading = _HEADING.match(line)
            if heading:
                section = heading.group("title")
            if (line.startswith("    ") and not lines[index - 1].strip() and last_text
                    and not last_text.startswith(" ") and not _LIST_ITEM.match(last_text)
                    and not heading):
                raise ReadmeError(f"README line {index + 1}: an indented code block; write "
                                  "commands as a fenced ```console block with $ prompts")
            if pending:
                raise ReadmeError(f"README line {pending[0][0]}: a marker must stand right "
                                  "before a command block")
            last_text = line
        index += 1
    return blocks


def ordered(blocks: list[Block]) -> list[Block]:
    """The runnable blocks in README order, each ``run after: SECTION`` block moved to just
    after the last block of that section."""
    runnable = [block for block in blocks if block.runnable]
    sections = {block.section for block in blocks}
    order = [block for block in runnable if block.after is None]
    for block in runnable:
        if block.after is None:
            continue
        if block.after not in sections:
            raise ReadmeError(f"README line {block.line}: 'run after: {block.after}' names no "
                              "section with command blocks")
        last = max((i for i, other in enumerate(order) if other.section == block.after), default=None)
        order.insert(len(order) if last is None else last + 1, block)
    return order
