"""The crash-safe completions log: torn tails are repaired, whole lines never lost or doubled."""

from __future__ import annotations

import json

import pytest

from planetarium.llm.store import CompletionLog, RunDirError, read_jsonl, write_jsonl


def test_append_and_reopen(tmp_path):
    path = tmp_path / "completions.jsonl"
    with CompletionLog(path) as log:
        log.append([{"id": "a", "output": "x"}, {"id": "b", "output": "é"}])
        log.append([{"id": "c", "output": "line\nbreak"}])
    with CompletionLog(path) as log:
        assert log.finished_ids() == {"a", "b", "c"}
    assert path.read_text(encoding="utf-8").count("\n") == 3


def test_torn_last_line_is_truncated_on_open_but_not_by_readers(tmp_path):
    path = tmp_path / "completions.jsonl"
    whole = json.dumps({"id": "a"}) + "\n"
    path.write_text(whole + '{"id": "b", "outp')
    assert [r["id"] for r in read_jsonl(path)] == ["a"]
    assert path.read_text().endswith("outp")  # a reader never modifies the file
    with CompletionLog(path) as log:
        assert log.finished_ids() == {"a"}
        log.append([{"id": "b"}])
    assert [r["id"] for r in read_jsonl(path)] == ["a", "b"]
    assert path.read_text() == whole + json.dumps({"id": "b"}) + "\n"


def test_a_damaged_complete_line_is_an_error(tmp_path):
    path = tmp_path / "completions.jsonl"
    path.write_text('{"id": "a"}\nnot json\n')
    with pytest.raises(RunDirError, match="damaged: .*line 2: not a result row"):
        CompletionLog(path)


def test_second_writer_is_refused(tmp_path):
    path = tmp_path / "completions.jsonl"
    with CompletionLog(path), pytest.raises(RunDirError, match="another run"):
        CompletionLog(path)
    CompletionLog(path).close()  # the lock is released on close


def test_write_jsonl_replaces_atomically(tmp_path):
    path = tmp_path / "x.jsonl"
    write_jsonl(path, [{"n": 1}])
    write_jsonl(path, [{"n": 2}, {"n": 3}])
    assert read_jsonl(path) == [{"n": 2}, {"n": 3}]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.jsonl"]
