"""Batch input as editors and other systems write it, and resuming it (issue 30, classes 10-11).

10. Lines end at LF, CRLF or a lone CR, and a UTF-8 byte order mark is no part of the first line,
    in every JSON-lines reader (they share ``jsonl.numbered_lines``).  Each result row records
    the SHA-256 of its input line, and ``--resume`` refuses an output whose graded lines have
    changed since, naming the first changed row.
11. The summary and exit status of a resumed batch cover every row of the output file.
"""

from __future__ import annotations

import hashlib
import io
import json
import random

import pytest
from click.testing import CliRunner

from planetarium import jsonl
from planetarium.acp.score import read_rows
from planetarium.cli import main

GT = """(define (problem p) (:domain blocksworld) (:objects b1 b2)
  (:init (arm-empty) (on-table b1) (on b2 b1) (clear b2))
  (:goal (and (on-table b2) (on b1 b2))))"""
RENAMED = GT.replace("b1", "x").replace("b2", "y")
WRONG = GT.replace("(on b1 b2)", "(on-table b1)")
BOM = b"\xef\xbb\xbf"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def rows_of(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def pair(pred: str, **extra) -> bytes:
    return json.dumps({"gt": GT, "pred": pred, **extra}).encode()


# --- 10. line endings and the byte order mark ----------------------------------------------

@pytest.mark.parametrize("block", [1, 2, 3, 7, 1 << 20])
def test_numbered_lines_split_like_splitlines(monkeypatch, block):
    """Every ending (LF, CRLF, CR), split anywhere between blocks, against bytes.splitlines."""
    monkeypatch.setattr(jsonl, "READ_BYTES", block)
    rng = random.Random(block)
    pieces = [b"{}", b"ab", b" ", b"\t", b"\r", b"\n", b"\r\n", b"\n\r", BOM]
    for _ in range(1500):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        text = data[len(BOM):] if data.startswith(BOM) else data
        want = [(n, line.rstrip(b"\r\n")) for n, line in
                enumerate(text.splitlines(keepends=True), 1) if line.strip()]
        got = [(n, line.rstrip(b"\r\n")) for n, line in
               jsonl.numbered_lines(io.BytesIO(data), "x")]
        assert got == want, data


def test_numbered_lines_keep_the_cap_across_blocks(monkeypatch):
    monkeypatch.setattr(jsonl, "READ_BYTES", 4)
    lines = list(jsonl.numbered_lines(io.BytesIO(b"0123456789\r" * 3), "f", max_line_bytes=10))
    assert [n for n, _ in lines] == [1, 2, 3]
    with pytest.raises(jsonl.JsonLineError, match="f, line 2: longer than 10 bytes"):
        list(jsonl.numbered_lines(io.BytesIO(b"0123456789\r\n0123456789A\r\n"), "f",
                                  max_line_bytes=10))


@pytest.mark.parametrize("ending", [b"\n", b"\r\n", b"\r"])
@pytest.mark.parametrize("bom", [b"", BOM])
def test_batch_lines_end_any_way_and_a_bom_is_ignored(tmp_path, ending, bom):
    source, out = tmp_path / "pairs.jsonl", tmp_path / "out.jsonl"
    lines = [pair(RENAMED, id=1), pair(WRONG, id=2), pair(GT, id=3)]
    source.write_bytes(bom + ending.join(lines) + ending)
    result = run("grade", "--batch", source, "--out", out, "--workers", 1)
    assert result.exit_code == 0, result.output
    rows = rows_of(out)
    assert [(r["id"], r["correct"]) for r in rows] == [(1, True), (2, False), (3, True)]
    assert [r["input_sha256"] for r in rows] == [hashlib.sha256(line).hexdigest()
                                                 for line in lines]


def test_other_json_lines_readers_take_them_too(tmp_path):
    path = tmp_path / "responses.jsonl"
    path.write_bytes(BOM + b'{"id": 1, "response": "yes"}\r{"id": 2, "response": "no"}\r')
    assert [(r["id"], r["_line"]) for r in read_rows(path, ("id", "response"), "a response")] \
        == [(1, 1), (2, 2)]


# --- 10. resuming lines edited after they were graded -------------------------------------

def _graded_then_cut(tmp_path, lines: list[bytes], keep: int):
    """A batch graded in full, its output then cut to its first ``keep`` rows (a killed run)."""
    source, out = tmp_path / "pairs.jsonl", tmp_path / "out.jsonl"
    source.write_bytes(b"\n".join(lines) + b"\n")
    assert run("grade", "--batch", source, "--out", out, "--workers", 1).exit_code == 0
    out.write_text("".join(line + "\n" for line in out.read_text().splitlines()[:keep]))
    return source, out


def test_resume_refuses_graded_lines_edited_since(tmp_path):
    lines = [pair(RENAMED), pair(RENAMED), pair(WRONG), pair(GT)]  # no ids: only content tells
    source, out = _graded_then_cut(tmp_path, lines, keep=3)
    kept = out.read_bytes()
    edited = [lines[0], pair(WRONG), *lines[2:]]  # the second line now asks something else
    source.write_bytes(b"\n".join(edited) + b"\n")
    result = run("grade", "--batch", source, "--out", out, "--resume", "--workers", 1)
    assert result.exit_code == 1
    assert f"cannot resume: {out}, row 2: input line 2 changed since it was graded" in \
        result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output
    assert out.read_bytes() == kept  # nothing graded or appended


def test_resume_goes_on_over_unchanged_lines_in_another_form(tmp_path):
    lines = [pair(RENAMED), pair(WRONG), pair(GT)]
    source, out = _graded_then_cut(tmp_path, lines, keep=2)
    source.write_bytes(BOM + b"\r\n".join(b"  " + line for line in lines) + b"\r\n")  # same items
    result = run("grade", "--batch", source, "--out", out, "--resume", "--workers", 1)
    assert result.exit_code == 0, result.output
    assert [r["correct"] for r in rows_of(out)] == [True, False, True]


def test_rows_written_before_digests_resume_by_id(tmp_path):
    lines = [pair(RENAMED, id="a"), pair(WRONG, id="b"), pair(GT, id="c")]
    source, out = _graded_then_cut(tmp_path, lines, keep=2)
    old = [{k: v for k, v in row.items() if k != "input_sha256"} for row in rows_of(out)]
    out.write_text("".join(json.dumps(row) + "\n" for row in old))
    result = run("grade", "--batch", source, "--out", out, "--resume", "--workers", 1)
    assert result.exit_code == 0, result.output
    assert [r["id"] for r in rows_of(out)] == ["a", "b", "c"]


# --- 11. a resumed batch reports the whole file -------------------------------------------

def test_a_resumed_batch_reports_every_row_of_its_output(tmp_path):
    lines = [pair(RENAMED), b"{not json", pair(WRONG), pair(GT), pair(RENAMED)]
    source, out = tmp_path / "pairs.jsonl", tmp_path / "out.jsonl"
    source.write_bytes(b"\n".join(lines[:2]) + b"\n")  # a first run grades the bad line
    assert run("grade", "--batch", source, "--out", out, "--workers", 1).exit_code == 1
    source.write_bytes(b"\n".join(lines) + b"\n")  # the batch had been cut short: three more
    result = run("grade", "--batch", source, "--out", out, "--resume", "--workers", 1)
    rows = rows_of(out)
    assert len(rows) == 5
    # the exit status and the summary are the whole file's: one bad line, three correct of five
    assert result.exit_code == 1, result.output
    assert "pairs           5" in result.output
    assert "correct         3 ( 60.0%)" in result.output
    assert "status     decided: 4, invalid-input: 1" in result.output
    assert "1 input line(s) could not be graded" in result.output
