"""``acp score --resume`` and ``arb score --resume``: a killed scoring goes on where it stopped.

A kill leaves whole rows (written and flushed one by one, in question order) and at worst a torn
last line.  Resuming keeps the whole rows, cuts the torn one off, scores only the questions
after them and ends with the same file and the same table as one uninterrupted run.  An output
that is not the first rows of this selection is refused in one line, and left as it was.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from planetarium.cli import main

ROOT = Path(__file__).parent / "fixtures"
ACP = ROOT / "acp" / "app"
ARB = ROOT / "arb" / "blocksworld-2024.jsonl"


def _rows(path: Path) -> list[dict]:
    return [{k: v for k, v in json.loads(line).items() if k != "seconds"}
            for line in path.read_text().splitlines()]


def _table(output: str) -> list[str]:
    """The score table a command printed (less the timing of its slowest question)."""
    lines = [line for line in output.splitlines() if not line.startswith("slowest:")]
    assert len(lines) > 3, output
    return lines


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def _commands(bench: str, tmp_path: Path) -> tuple[list[str], Path]:
    """The score command's arguments up to --out, with gold answers as the responses."""
    data = ACP if bench == "acp" else ARB
    gold = tmp_path / "gold.jsonl"
    code, output = _run(bench, "gold", str(data), "--out", str(gold))
    assert code == 0, output
    extra = ["--no-progress"] if bench == "acp" else ["--workers", "1"]
    return [bench, "score", str(data), "--responses", str(gold), *extra], gold


@pytest.mark.parametrize("bench", ["acp", "arb"])
def test_a_resumed_scoring_ends_as_one_uninterrupted_run(bench, tmp_path):
    command, _ = _commands(bench, tmp_path)
    whole = tmp_path / "whole.jsonl"
    code, table = _run(*command, "--out", str(whole))
    assert code == 0, table
    lines = whole.read_text().splitlines(keepends=True)
    assert len(lines) > 6
    killed = tmp_path / "killed.jsonl"
    killed.write_text("".join(lines[:5]) + lines[5][: len(lines[5]) // 2])  # torn mid-row
    code, resumed_table = _run(*command, "--out", str(killed), "--resume")
    assert code == 0, resumed_table
    assert _rows(killed) == _rows(whole)
    assert _table(resumed_table) == _table(table)
    # nothing left to do: the file and the table stay as they are
    code, again = _run(*command, "--out", str(killed), "--resume")
    assert code == 0 and _rows(killed) == _rows(whole) and _table(again) == _table(table)


@pytest.mark.parametrize("bench", ["acp", "arb"])
def test_resume_without_an_output_scores_everything(bench, tmp_path):
    command, _ = _commands(bench, tmp_path)
    whole, fresh = tmp_path / "whole.jsonl", tmp_path / "fresh.jsonl"
    assert _run(*command, "--out", str(whole))[0] == 0
    assert _run(*command, "--out", str(fresh), "--resume")[0] == 0
    assert _rows(fresh) == _rows(whole)


@pytest.mark.parametrize("bench", ["acp", "arb"])
def test_an_output_of_another_selection_is_refused_and_kept(bench, tmp_path):
    command, gold = _commands(bench, tmp_path)
    out = tmp_path / "out.jsonl"
    assert _run(*command, "--out", str(out))[0] == 0
    lines = out.read_text().splitlines(keepends=True)
    for name, text in [("reordered", lines[1] + lines[0]),
                       ("not rows", "[1, 2]\n"),
                       ("too many", "".join(lines) + lines[0])]:
        out.write_text(text)
        code, output = _run(*command, "--out", str(out), "--resume")
        assert code == 1, (name, output)
        message = output.strip().splitlines()
        assert len(message) == 1 and "resume" in message[0] and str(out) in message[0], message
        assert out.read_text() == text, name
    # rows of another command (the gold answers) are no score output either
    out.write_text(gold.read_text())
    code, output = _run(*command, "--out", str(out), "--resume")
    assert code == 1 and "not a result row; cannot resume" in output, output
    assert out.read_text() == gold.read_text()


@pytest.mark.parametrize("bench", ["acp", "arb"])
@pytest.mark.parametrize("resume", [[], ["--resume"]])
def test_out_may_not_overwrite_or_join_an_input(bench, resume, tmp_path):
    """The responses (also through a hard link) or a file inside a question folder."""
    command, gold = _commands(bench, tmp_path)
    link = tmp_path / "link.jsonl"
    link.hardlink_to(gold)
    before = gold.read_text()
    folder = tmp_path / "questions"
    source = Path(command[2])
    if source.is_dir():
        shutil.copytree(source, folder)
    else:
        folder.mkdir()
        shutil.copy(source, folder)
    inside = [*command[:2], str(folder), *command[3:]]
    for args in ([*command, "--out", str(gold)], [*command, "--out", str(link)],
                 [*inside, "--out", str(folder / "scores.jsonl")]):
        code, output = _run(*args, *resume)
        assert code == 1 and "would overwrite or join an input" in output, output
    assert gold.read_text() == before and not (folder / "scores.jsonl").exists()


@pytest.mark.parametrize("bench", ["acp", "arb"])
@pytest.mark.parametrize("command", ["gold", "check-labels"])
def test_the_other_commands_writing_out_refuse_their_input_too(bench, command, tmp_path):
    data = ACP if bench == "acp" else ARB
    copy = tmp_path / data.name
    (shutil.copytree if data.is_dir() else shutil.copy)(data, copy)
    target = copy / "out.json" if copy.is_dir() else copy
    before = target.read_bytes() if target.exists() else None
    code, output = _run(bench, command, str(copy), "--out", str(target))
    assert code == 1 and "would overwrite or join an input" in output, output
    assert (target.read_bytes() if target.exists() else None) == before
