"""`planetarium acp` end to end, and readable errors for malformed question files."""

import gzip
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from planetarium.acp.data import AcpDataError, load_items, read_file
from planetarium.acp.grades import outcome
from planetarium.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "acp"


def test_gold_then_score_then_report(tmp_path):
    runner = CliRunner()
    gold = tmp_path / "gold.jsonl"
    result = runner.invoke(main, ["acp", "gold", str(FIXTURES / "app"), "--out", str(gold)])
    assert result.exit_code == 0, result.output
    out = tmp_path / "results.jsonl"
    result = runner.invoke(main, ["acp", "score", str(FIXTURES / "app"), "--responses", str(gold),
                                  "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert {r["kind"] for r in rows} == {"gen", "bool", "mcq"}
    assert all(r["score"] == 1.0 and outcome(r) == "correct" for r in rows)
    assert {"id", "task", "score", "status", "reason"} <= set(rows[0])
    result = runner.invoke(main, ["acp", "report", str(out), "--json"])
    summary = json.loads(result.output)
    assert {(r["kind"], r["mean"], r["n"]) for r in summary} == {
        ("gen", 1.0, 4), ("bool", 1.0, 3), ("mcq", 1.0, 3)}


def test_missing_and_wrong_responses(tmp_path):
    items = [i for i in load_items(FIXTURES / "val") if i.kind == "gen"]
    responses = tmp_path / "r.jsonl"
    responses.write_text(json.dumps({"id": items[0].id, "task": "val", "kind": "gen",
                                     "response": "None"}) + "\n")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(main, ["acp", "score", str(FIXTURES / "val" / "dev.gen.json"),
                                       "--responses", str(responses), "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert outcome(rows[items[0].id]) == "unparseable" and rows[items[0].id]["score"] == 0.0
    assert outcome(rows[items[1].id]) == "missing"


def test_ambiguous_id_is_refused_with_its_line(tmp_path):
    src = tmp_path / "data"
    for task in ("land", "areach"):
        (src / task).mkdir(parents=True)
    first = json.loads((FIXTURES / "land" / "dev.gen.json").read_text())[0]
    clash = json.loads((FIXTURES / "areach" / "dev.gen.json").read_text())[0]
    clash["id"] = first["id"]
    (src / "land" / "dev.gen.json").write_text(json.dumps([first]))
    (src / "areach" / "dev.gen.json").write_text(json.dumps([clash]))
    responses = tmp_path / "r.jsonl"
    responses.write_text(json.dumps({"id": first["id"], "response": "None"}) + "\n")
    result = CliRunner().invoke(main, ["acp", "score", str(src), "--responses", str(responses),
                                       "--out", str(tmp_path / "o.jsonl")])
    assert result.exit_code == 1
    assert "line 1" in result.output and "several tasks" in result.output


def test_gzip_and_folder_layouts_read_the_same(tmp_path):
    plain = FIXTURES / "prog" / "dev.gen.json"
    packed = tmp_path / "prog" / "test.gen.json.gz"
    packed.parent.mkdir()
    with gzip.open(packed, "wt") as handle:
        handle.write(plain.read_text())
    assert read_file(packed) == read_file(plain)
    assert load_items(tmp_path) == read_file(plain)


def test_parquet_layout(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow as pa

    records = json.loads((FIXTURES / "app" / "dev.bool.json").read_text())
    path = tmp_path / "app_bool.parquet"
    pq.write_table(pa.Table.from_pylist(records), path)
    assert [i.answer for i in read_file(path)] == [r["answer"] for r in records]


@pytest.mark.parametrize("content, message", [
    ("{not json", "line 1: not valid JSON"),
    ('{"a": 1}', "expected a JSON list"),
    ('[{"id": 1, "group": "nonsense_gen"}]', "record 0: unknown group 'nonsense_gen'"),
    ('[{"id": 1, "group": "validation_gen", "context": "c", "question": "q", "answer": 3}]',
     "key 'PDDL_domain' must be a string"),
    (('[{"id": 1, "group": "progression_gen", "context": "c", "question": "q", '
      '"answer": [1], "PDDL_domain": "d", "PDDL_problem": "p"}]'), "key 'answer': expected {'pos'"),
])
def test_malformed_files_get_one_line_errors(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(AcpDataError) as info:
        read_file(path)
    assert message in str(info.value) and str(path) in str(info.value)
    result = CliRunner().invoke(main, ["acp", "gold", str(path), "--out", str(tmp_path / "o")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert message in result.output


def test_truncated_gzip_is_a_readable_error(tmp_path):
    path = tmp_path / "x.json.gz"
    shutil.copy(FIXTURES / "LICENSE", path)
    with pytest.raises(AcpDataError, match="cannot read"):
        read_file(path)


def test_acp_modules_are_light():
    import subprocess
    import sys

    code = ("import sys, planetarium.acp.cli, planetarium.acp.gen, planetarium.acp.prompts, "
            "planetarium.acp.labelreport, planetarium.acp.score, planetarium.reasoning; "
            "print(' '.join(m for m in ('torch', 'transformers', 'vllm', 'datasets', 'lark', "
            "'planetarium.llm') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == []


def test_process_pool_gives_the_same_rows(tmp_path):
    from planetarium.acp.gold import render_gold

    items = [i for i in load_items(FIXTURES / "reach") if i.kind == "gen"]
    responses = tmp_path / "responses.jsonl"
    responses.write_text("".join(json.dumps({"id": i.id, "task": i.task, "kind": i.kind,
                                             "response": render_gold(i)}) + "\n"
                                 for i in items[1:]))

    def rows(workers: int) -> list[dict]:
        out = tmp_path / f"scores{workers}.jsonl"
        result = CliRunner().invoke(main, ["acp", "score", str(FIXTURES / "reach"), "--kind",
                                           "gen", "--responses", str(responses), "--out",
                                           str(out), "--workers", str(workers),
                                           "--no-progress"])
        assert result.exit_code == 0, result.output
        return [{k: v for k, v in json.loads(line).items() if k != "seconds"}
                for line in out.read_text().splitlines()]

    strip = rows(1)
    assert rows(2) == strip and outcome(strip[0]) == "missing"
    assert [r["id"] for r in strip] == [i.id for i in items]


def test_unsupported_question_pddl_is_an_error_row_not_a_crash(tmp_path):
    record = json.loads((FIXTURES / "just" / "dev.gen.json").read_text())[0]
    record["PDDL_domain"] = record["PDDL_domain"].replace(
        "(:requirements", "(:requirements :negative-preconditions", 1)
    path = tmp_path / "just.gen.json"
    path.write_text(json.dumps([record]))
    runner = CliRunner()
    gold = tmp_path / "gold.jsonl"
    result = runner.invoke(main, ["acp", "gold", str(path), "--out", str(gold)])
    assert result.exit_code == 0 and "skipped gen/just" in result.output
    responses = tmp_path / "r.jsonl"
    responses.write_text(json.dumps({"id": record["id"], "response": "(a b)"}) + "\n")
    out = tmp_path / "o.jsonl"
    result = runner.invoke(main, ["acp", "score", str(path), "--responses", str(responses),
                                  "--out", str(out)])
    row = json.loads(out.read_text())
    assert result.exit_code == 0
    assert row["status"] == "unsupported" and row["score"] is None
    assert "negative-preconditions" in row["reason"]


@pytest.mark.parametrize("command", ["score", "gold", "check-labels"])
def test_missing_lark_is_one_line(tmp_path, command):
    import subprocess
    import sys

    args = {"score": ["--responses", str(FIXTURES / "LICENSE"), "--out", str(tmp_path / "o")],
            "gold": ["--out", str(tmp_path / "o")], "check-labels": []}[command]
    code = ("import sys; sys.modules['lark'] = None; from planetarium.cli import main; "
            f"sys.argv = ['planetarium', 'acp', {command!r}, {str(FIXTURES / 'val')!r}, "
            f"*{args!r}]; main()")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 1, out.stderr
    assert out.stderr.strip().splitlines() == [
        "Error: this feature needs 'lark', which is not installed: pip install 'planetarium-pddl[acp]'"]
    assert not (tmp_path / "o").exists()


def test_report_gives_each_file_its_own_column(tmp_path):
    runner = CliRunner()
    gold = tmp_path / "gold.jsonl"
    runner.invoke(main, ["acp", "gold", str(FIXTURES / "val"), "--out", str(gold)])
    full, half = tmp_path / "full.jsonl", tmp_path / "half.jsonl"
    for out, responses in ((full, gold), (half, tmp_path / "some.jsonl")):
        if out is half:
            lines = gold.read_text().splitlines()
            responses.write_text("\n".join(lines[::2]) + "\n")
        result = runner.invoke(main, ["acp", "score", str(FIXTURES / "val"), "--responses",
                                      str(responses), "--out", str(out), "--no-progress"])
        assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["acp", "report", str(full), str(half)])
    assert result.exit_code == 0, result.output
    gen = next(line for line in result.output.splitlines() if line.startswith("gen "))
    assert "1.000±0.000 (4/4)" in gen and "0.500±0.289 (4/4)" in gen  # never one pooled mean
    assert f"[1] {full}" in result.output and f"[2] {half}" in result.output
    data = json.loads(runner.invoke(main, ["acp", "report", str(full), str(half),
                                           "--json"]).output)
    assert set(data) == {str(full), str(half)}


def test_score_says_what_it_is_doing(tmp_path):
    gold = tmp_path / "gold.jsonl"
    CliRunner().invoke(main, ["acp", "gold", str(FIXTURES / "val"), "--out", str(gold)])
    result = CliRunner().invoke(main, ["acp", "score", str(FIXTURES / "val"), "--responses",
                                       str(gold), "--out", str(tmp_path / "o.jsonl")])
    assert result.exit_code == 0
    assert "acp score" in result.stderr and "question" in result.stderr
