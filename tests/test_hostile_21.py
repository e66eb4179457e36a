"""Issue 21, as a hostile user and a new user try it: no batch row lost or duplicated, hostile
values as verdicts or one-line errors, the rules said out loud, and the new-user edges."""

from __future__ import annotations

import fcntl
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from planetarium.cli import main

GT = """(define (problem p) (:domain blocksworld) (:objects b1 b2)
  (:init (arm-empty) (on-table b1) (on b2 b1) (clear b2))
  (:goal (and (on-table b2) (on b1 b2))))"""
ROOT = Path(__file__).resolve().parents[1]
HUGE = "1" * 5000  # longer than Python's int-string limit (4,300 digits)


def run(*args, **kwargs):
    return CliRunner().invoke(main, [str(a) for a in args], **kwargs)


def cli(*args, **kwargs) -> subprocess.CompletedProcess:
    """The real command in a subprocess (for file descriptors, signals and pipes)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kwargs}
    return subprocess.run([sys.executable, "-m", "planetarium.cli", *map(str, args)], env=env,
                          text=True, timeout=120, **streams)


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _one_line_error(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    return len(lines) == 1 and lines[0].startswith("Error: ") and "Traceback" not in text


def _batch(path: Path, ids: list) -> None:
    """Pairs with the given ids (``...``: a line that is not JSON)."""
    path.write_text("".join("nonsense\n" if i is ... else json.dumps(
        {"gt": GT, "pred": GT} if i is None else {"id": i, "gt": GT, "pred": GT}) + "\n"
        for i in ids))


# --- 1. no batch row lost or duplicated ------------------------------------------------------

def test_results_never_overwrite_the_batch_being_read(tmp_path):
    batch = tmp_path / "b.jsonl"
    _batch(batch, [1, 2])
    before = batch.read_text()
    (tmp_path / "link.jsonl").symlink_to(batch)
    for out in (batch, tmp_path / "link.jsonl"):
        result = run("grade", "--batch", batch, "--out", out)
        assert result.exit_code == 1 and "would overwrite the batch" in result.output
    with batch.open("a") as appended:  # `grade --batch b.jsonl >> b.jsonl`
        redirected = cli("grade", "--batch", batch, stdout=appended)
    assert redirected.returncode == 1 and _one_line_error(redirected.stderr)
    assert batch.read_text() == before


def test_resume_is_exact_by_position_with_repeated_missing_and_bad_ids(tmp_path):
    """Rows are in input order, so the k-th row answers the k-th line whatever its id."""
    batch, full, part = tmp_path / "b.jsonl", tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    _batch(batch, [1, 1, None, ..., 2, 1, None, ..., 3])
    assert run("grade", "--batch", batch, "--out", full, "--workers", 1).exit_code == 1
    complete = full.read_text()
    assert len(complete.splitlines()) == 9
    for keep in range(10):
        lines = complete.splitlines(keepends=True)
        torn = lines[keep][:7] if keep < 9 else ""  # a batch killed mid-write
        part.write_text("".join(lines[:keep]) + torn)
        result = run("grade", "--batch", batch, "--out", part, "--resume", "--workers", 1)
        assert result.exit_code in (0, 1) and "Traceback" not in result.output
        assert part.read_text() == complete, f"resuming after {keep} row(s)"
    _batch(batch, [1, 2, 3, 4, 5, 6, 7, 8, 9])  # another input: the rows are not its output
    part.write_text("".join(complete.splitlines(keepends=True)[:3]))
    refused = run("grade", "--batch", batch, "--out", part, "--resume")
    assert refused.exit_code == 1 and "cannot resume" in refused.output


def test_a_second_batch_writing_the_same_output_is_refused(tmp_path):
    batch, out = tmp_path / "b.jsonl", tmp_path / "out.jsonl"
    _batch(batch, [1])
    out.write_text("rows of the batch that holds the lock\n")
    with out.open("a") as holder:
        fcntl.flock(holder, fcntl.LOCK_EX)
        for extra in ([], ["--resume"]):
            result = run("grade", "--batch", batch, "--out", out, *extra)
            assert result.exit_code == 1 and "another batch is writing it" in result.output
    assert out.read_text() == "rows of the batch that holds the lock\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_write_failures_are_one_line_errors_naming_the_output(tmp_path):
    batch = tmp_path / "b.jsonl"
    _batch(batch, list(range(40)))
    full = cli("grade", "--batch", batch, "--out", "/dev/full", "--no-progress")
    assert full.returncode == 1 and _one_line_error(full.stderr), full.stderr
    assert "cannot write /dev/full: No space left on device" in full.stderr
    with open("/dev/full", "w") as disk_full:
        stdout_full = cli("grade", "--batch", batch, stdout=disk_full)
    assert stdout_full.returncode == 1 and _one_line_error(stdout_full.stderr)
    assert "cannot write standard output" in stdout_full.stderr
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    reader = subprocess.Popen([sys.executable, "-m", "planetarium.cli", "grade", "--batch",
                               str(batch)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    assert reader.stdout.readline().startswith("{")
    reader.stdout.close()  # `| head -1`: a broken pipe
    stderr = reader.stderr.read()
    assert reader.wait(timeout=60) == 1
    assert _one_line_error(stderr) and "cannot write standard output: Broken pipe" in stderr


# --- 3. hostile values are verdicts or one-line errors ---------------------------------------

def test_json_numbers_over_the_int_limit_are_bad_lines_in_every_reader(tmp_path):
    from llm_fixtures import demo_rows

    from planetarium.acp.score import read_responses
    from planetarium.batch import BadItem, read_items, resume_output
    from planetarium.errors import PlanetariumError
    from planetarium.llm.store import RunDirError, read_jsonl

    huge = tmp_path / "huge.jsonl"
    first = {"id": 1, "gt": GT, "pred": GT, "status": "decided", "response": "yes",
             "task": "reach", "score": 1.0}
    huge.write_text(json.dumps(first) + "\n" + '{"id": 2, "n": ' + HUGE + '}\n')
    items = list(read_items(huge))
    assert items[0]["id"] == 1 and isinstance(items[1], BadItem) and "4300 digits" in items[1].why
    for reader in (resume_output, read_jsonl, read_responses):
        with pytest.raises((PlanetariumError, ValueError), match="line 2|:2:"):
            reader(huge)
    rows = tmp_path / "rows.jsonl"  # a dataset file with one hostile row among good ones
    rows.write_text("".join(json.dumps(row) + "\n" for row in demo_rows(2))
                    + '{"id": ' + HUGE + '}\n')
    for command in (["data", "check", rows], ["data", "report", rows],
                    ["acp", "report", huge]):
        result = run(*command)
        assert result.exit_code == 1 and "Traceback" not in result.output, command
        assert "line 3" in result.output or "line 2" in result.output, result.output
    with pytest.raises(RunDirError):
        read_jsonl(huge, ("id",))
    batch, out = tmp_path / "b.jsonl", tmp_path / "out.jsonl"
    batch.write_text(huge.read_text())
    result = run("grade", "--batch", batch, "--out", out, "--workers", 1)
    assert result.exit_code == 1 and [row["correct"] for row in _rows(out)] == [True, False]


def test_deeply_nested_acp_responses_are_one_line_errors(tmp_path):
    from planetarium.acp.data import AcpDataError
    from planetarium.acp.score import read_responses

    responses = tmp_path / "r.jsonl"
    responses.write_text('{"id": "1", "response": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    with pytest.raises(AcpDataError, match="line 1: not valid JSON: JSON nested too deeply"):
        read_responses(responses)


@pytest.mark.parametrize("damage", ["run.json", "completions.jsonl", "items.jsonl",
                                    "completion without output"])
def test_damaged_run_directories_are_one_line_errors(tmp_path, damage):
    from llm_fixtures import demo_rows, known_answers, make_answered_run

    rows = demo_rows(4)
    run_dir = tmp_path / "run"
    make_answered_run(run_dir, "hostile", rows, known_answers(rows))
    if damage == "completion without output":
        with (run_dir / "completions.jsonl").open("a") as log:
            log.write('{"id": "x"}\n')
    elif damage == "run.json":
        (run_dir / damage).write_text('{"config": ' + HUGE + "}")
    else:
        with (run_dir / damage).open("a") as log:
            log.write("[1, 2]\n")
    result = run("eval", "grade", run_dir, "--no-progress", "--workers", 1)
    assert result.exit_code == 1 and _one_line_error(result.output), result.output
    assert "damaged" in result.output
    if damage == "run.json":  # what `eval run` reads first to resume
        resumed = run("eval", "run", "--config", ROOT / "eval" / "tiny.yaml", "--out", run_dir)
        assert resumed.exit_code == 1 and _one_line_error(resumed.output), resumed.output
        assert "damaged" in resumed.output


def test_dataset_commands_on_empty_sources_and_rows_missing_columns(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "cols.jsonl").write_text('{"id": 1, "name": "p"}\n')
    for command in ("check", "report"):
        for source in ("empty", "empty.jsonl", "cols.jsonl"):
            result = run("data", command, tmp_path / source)
            assert result.exit_code == 1 and _one_line_error(result.output), (command, source)
    assert "no column" in run("data", "check", tmp_path / "cols.jsonl").output


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_dev_zero_as_an_input_file_is_refused_quickly():
    commands = [["grade", "/dev/zero", "/dev/zero"], ["plan", "/dev/zero"],
                ["validate", "/dev/zero", "/dev/zero"], ["eval", "run", "--config", "/dev/zero"],
                ["finetune", "--config", "/dev/zero"], ["data", "check", "/dev/zero"],
                ["acp", "report", "/dev/zero"]]
    for command in commands:
        start = time.monotonic()
        result = run(*command)
        assert result.exit_code == 1 and "Traceback" not in result.output, command
        assert time.monotonic() - start < 10, command
    with open("/dev/zero", "rb") as zeros:
        piped = cli("grade", "--batch", "-", stdin=zeros)
    assert piped.returncode == 1 and _one_line_error(piped.stderr), piped.stderr


def test_out_under_a_file_or_in_an_unwritable_place_is_one_line(tmp_path):
    batch = tmp_path / "b.jsonl"
    _batch(batch, [1])
    (tmp_path / "file").write_text("")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    places = [tmp_path / "file" / "out.jsonl"]
    if os.geteuid() != 0:  # root writes anywhere
        places.append(locked / "out.jsonl")
    for out in places:
        result = run("grade", "--batch", batch, "--out", out)
        assert result.exit_code == 1 and _one_line_error(result.output), result.output
        assert f"cannot write {out}" in result.output
    under_a_file = tmp_path / "file" / "out"
    for command in (["data", "generate", "--config", ROOT / "data" / "demo.yaml"],
                    ["eval", "run", "--config", ROOT / "eval" / "tiny.yaml"],
                    ["finetune", "--config", ROOT / "finetune" / "tiny.yaml"]):
        result = run(*command, "--out", under_a_file)
        assert result.exit_code == 2 and "Traceback" not in result.output, command
        assert f"{tmp_path / 'file'} is a file, not a folder" in result.output, result.output


def test_workers_are_capped_and_started_only_as_needed(tmp_path):
    import multiprocessing

    from planetarium.batch import MAX_WORKERS, grade_batch, max_workers

    assert 1 <= max_workers() <= min(MAX_WORKERS, 4 * (os.cpu_count() or 1))
    items = [{"id": i, "gt": GT, "pred": GT} for i in range(3)]  # at most one worker per item
    seen = []
    for result in grade_batch(items, workers=1000, progress=False):
        seen.append(len(multiprocessing.active_children()))
        assert result.correct
    assert max(seen) <= len(items) < max_workers()  # not the 1,000 asked for, nor the cap


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc (Linux)")
def test_ctrl_c_in_a_batch_is_one_line_that_says_how_to_resume(tmp_path):
    sys.path.insert(0, str(ROOT / "tests"))
    from test_hostile import _slow_batch

    batch, out = tmp_path / "b.jsonl", tmp_path / "out.jsonl"
    _slow_batch(batch, 40)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    batch_run = subprocess.Popen(
        [sys.executable, "-m", "planetarium.cli", "grade", "--batch", str(batch), "--out",
         str(out), "--workers", "2", "--no-progress"], env=env, stderr=subprocess.PIPE,
        text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (out.exists() and out.read_text().count("\n") >= 2):
        time.sleep(0.05)
    os.killpg(batch_run.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
    stderr = batch_run.stderr.read()
    assert batch_run.wait(timeout=30) == 130
    saved = len(out.read_text().splitlines())
    assert stderr.strip() == (f"interrupted: {saved} row(s) saved in {out}; "
                              "rerun with --resume to grade the rest"), stderr


# --- 4. the rules, said out loud ---------------------------------------------------------------

def test_an_answer_over_the_size_cap_is_refused_as_such_not_unparseable():
    from planetarium.grading import MAX_INPUT_CHARS, Status, grade

    answer = GT + "\n" + " " * MAX_INPUT_CHARS  # the right PDDL first, then a runaway
    result = grade(GT, answer)
    assert result.status is Status.UNSUPPORTED and result.parseable is None
    assert not result.correct
    assert f"answer is {len(answer):,} characters, over the 2,000,000-character cap" in result.reason


def test_typed_quantifier_variables_in_an_untyped_domain_are_refused_like_typed_objects():
    from planetarium.grading import grade

    typed = GT.replace("(:goal (and", "(:goal (and (exists (?x - block) (clear ?x))")
    result = grade(GT, typed)
    assert result.parseable is False and "untyped" in result.reason
    typed_object = GT.replace("(:objects b1 b2)", "(:objects b1 b2 - block)")
    assert grade(GT, typed_object).parseable is False
    assert grade(GT, typed, relax_typing=True).parseable is True  # as for objects


@pytest.mark.parametrize("goal", ["(and (or (on-table b2)) (not (not (on b1 b2))))",
                                  "(not (not (and (on-table b2) (on b1 b2))))",
                                  "(or (and (or (on-table b2)) (on b1 b2)))",
                                  "(and (on-table b2) (on b1 b2) (not (or (on b2 b1))))"])
def test_redundant_or_and_double_negation_read_as_the_plain_goal(goal):
    from planetarium.domains import get_domain
    from planetarium.pddl import read_problem

    definition = get_domain("blocksworld").definition
    plain = read_problem(GT, definition)
    problem = read_problem(GT.replace("(and (on-table b2) (on b1 b2))", goal), definition)
    assert problem.goal_formula is None
    assert problem.goal == plain.goal
    assert problem.negative_goal == ({("on", "b2", "b1")} if "(not (or" in goal else set())


def test_zero_training_steps_are_refused():
    from planetarium.config import ConfigError
    from planetarium.finetune.config import load_config

    with pytest.raises(ConfigError, match="training.max_steps"):
        load_config(ROOT / "finetune" / "tiny.yaml", ["training.max_steps=0"])
    assert load_config(ROOT / "finetune" / "tiny.yaml", ["training.max_steps=-1"])
    assert load_config(ROOT / "finetune" / "tiny.yaml", ["training.max_steps=1"])


def test_generate_never_replaces_the_files_of_a_folder_it_did_not_write(tmp_path):
    config = tmp_path / "d.yaml"
    config.write_text("domains:\n  - name: blocksworld\n    layouts:\n      on_table: {}\n")
    theirs = tmp_path / "theirs"  # someone's own data: a rows.jsonl and notes
    theirs.mkdir()
    (theirs / "rows.jsonl").write_text("my rows\n")
    (theirs / "README.md").write_text("my notes")
    refused = run("data", "generate", "--config", config, "--out", theirs, "--no-progress")
    assert refused.exit_code == 1 and "--force" in refused.output
    assert (theirs / "rows.jsonl").read_text() == "my rows\n"
    assert (theirs / "README.md").read_text() == "my notes"
    ours = tmp_path / "ours"
    assert run("data", "generate", "--config", config, "--out", ours, "--no-progress").exit_code == 0
    again = run("data", "generate", "--config", config, "--out", ours, "--no-progress")
    assert again.exit_code == 0 and "replacing" in again.output


# --- 5. the edges a new user hits --------------------------------------------------------------

_BLOCKED = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {missing!r}:
            raise ImportError(f"No module named {{name!r}}")
sys.meta_path.insert(0, Block())
sys.argv = ["planetarium", *{args!r}]
from planetarium.cli import main
main()
"""


def _without(missing: set[str], *args) -> subprocess.CompletedProcess:
    """The command in a Python where the ``missing`` packages cannot be imported."""
    code = _BLOCKED.format(missing=missing, args=[str(a) for a in args])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=300, cwd=ROOT)


def test_a_missing_extra_is_one_pip_line_and_nothing_is_written(tmp_path):
    generated = _without({"pyarrow", "datasets"}, "data", "generate", "--config",
                         ROOT / "data" / "demo.yaml", "--out", tmp_path / "gen", "--no-progress")
    assert generated.returncode == 1 and _one_line_error(generated.stderr), generated.stderr
    assert "pip install 'planetarium-pddl[data]'" in generated.stderr and not (tmp_path / "gen").exists()
    evaluated = _without({"torch", "transformers"}, "eval", "run", "--config",
                         ROOT / "eval" / "tiny.yaml", "--out", tmp_path / "run", "--limit", 1)
    assert evaluated.returncode == 1 and _one_line_error(evaluated.stderr), evaluated.stderr
    assert "pip install 'planetarium-pddl[train]'" in evaluated.stderr and not (tmp_path / "run").exists()


def test_grade_takes_a_domain_file_and_the_readme_examples_ship(tmp_path):
    from planetarium.domains.registry import unregister_domain

    examples = ROOT / "examples"
    right = run("grade", examples / "truth.pddl", examples / "answer.pddl", "--json")
    assert right.exit_code == 0 and json.loads(right.output)["correct"] is True
    wrong = run("grade", examples / "truth.pddl", examples / "wrong.pddl", "--json")
    assert json.loads(wrong.output)["equivalent"] is False
    switches = [examples / "switches-truth.pddl", examples / "switches-answer.pddl"]
    unknown = run("grade", *switches, "--json")
    assert unknown.exit_code == 1 and "unknown domain 'switches'" in unknown.output
    try:  # the command registers the domain in this process: leave the registry as it was
        graded = run("grade", "--domain", examples / "switches-domain.pddl", *switches, "--json")
    finally:
        unregister_domain("switches")
    assert graded.exit_code == 0 and json.loads(graded.output)["correct"] is True
    shadow = tmp_path / "blocksworld.pddl"  # a built-in name is refused, not shadowed
    shadow.write_text((examples / "switches-domain.pddl").read_text().replace(
        "(domain switches)", "(domain blocksworld)"))
    refused = run("grade", "--domain", shadow, examples / "truth.pddl", examples / "answer.pddl")
    assert refused.exit_code == 1 and "domain 'blocksworld' is built in" in refused.output


def test_unknown_grade_options_name_the_valid_ones():
    from planetarium.grading import grade

    with pytest.raises(TypeError, match=r"'timeout' \(did you mean timeout_s\?\); the options "
                                        r"are is_placeholder, .*placeholder_semantics"):
        grade(GT, GT, timeout=3)


def _readme_commands() -> list[str]:
    """The README's non-ACP command lines (``$ planetarium ...`` in console blocks)."""
    lines = (ROOT / "README.md").read_text().splitlines()
    return [line[2:].split("  #")[0] for line in lines if line.startswith("$ planetarium ")
            and not line.startswith(("$ planetarium acp", "$ planetarium eval acp"))]


def test_readme_commands_read_shipped_files_and_write_to_ignored_or_temporary_places():
    import shlex
    import shutil

    commands = _readme_commands()
    assert any("examples/truth.pddl" in command for command in commands)
    written, read = [], []
    for command in commands:
        words = shlex.split(command)
        for flag, value in itertools.pairwise(words):
            if flag in ("--out", ">"):
                written.append(value)
        if words[1] in ("grade", "plan", "validate"):
            read += [w for w in words[2:]
                     if w.endswith((".pddl", ".jsonl")) and not w.startswith("/tmp/")]
    read = [path for path in read if path not in written]  # outputs the commands write
    assert read and all((ROOT / path).is_file() for path in read), read
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout to ask which paths are ignored")
    for path in written:
        if path.startswith("/tmp/"):
            continue
        ignored = [subprocess.run(["git", "check-ignore", "-q", candidate], cwd=ROOT).returncode
                   for candidate in (path, path.rstrip("/") + "/")]  # a file or a folder
        assert 0 in ignored, f"the README writes {path}, which git would track"


def test_cpu_torch_threads_are_capped(tiny_model, monkeypatch):
    torch = pytest.importorskip("torch")
    from planetarium.llm.backends.hf_backend import TransformersBackend
    from planetarium.llm.config import make_config
    from planetarium.llm.threads import torch_threads, usable_cpus

    assert torch_threads() == max(1, usable_cpus() // 2)
    assert torch_threads(processes=10 * usable_cpus()) == 1
    before = torch.get_num_threads()
    try:
        monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
        torch.set_num_threads(max(2, usable_cpus()))
        config = make_config({"name": "t", "model": {"backend": "transformers",
                                                      "model": str(tiny_model), "device": "cpu"},
                              "benchmark": {"name": "planetarium", "dataset": "rows.jsonl",
                                            "split": [None]}}).model
        TransformersBackend(config, str(tiny_model))
        assert torch.get_num_threads() == torch_threads()
        monkeypatch.setenv("OMP_NUM_THREADS", "2")
        torch.set_num_threads(2)
        TransformersBackend(config, str(tiny_model))
        assert torch.get_num_threads() == 2  # the user's choice stands
    finally:
        torch.set_num_threads(before)


def test_data_generate_and_check_show_labelled_progress(tmp_path):
    config = tmp_path / "d.yaml"
    config.write_text("domains:\n  - name: blocksworld\n    layouts:\n      on_table: {}\n"
                      "      stack: {space: {max_blocks: 3}}\n")
    generated = run("data", "generate", "--config", config, "--out", tmp_path / "out", "--progress")
    assert generated.exit_code == 0, generated.output
    for label in (f"reading {config}", "planning combinations", "building combinations",
                  "writing files"):
        assert label in generated.output, label
    checked = run("data", "check", tmp_path / "out", "--progress", "--workers", 1)
    assert checked.exit_code == 0 and f"self-check of {tmp_path / 'out'}" in checked.output


def test_an_eval_run_whose_model_does_not_load_leaves_no_run_folder(tmp_path):
    out = tmp_path / "run"
    failed = run("eval", "run", "--config", ROOT / "eval" / "tiny.yaml", "--model",
                 tmp_path / "no-such-model", "--out", out, "--limit", 1)
    assert failed.exit_code == 1 and "no-such-model" in failed.output
    assert not out.exists()  # the corrected rerun (another --model) is not blocked
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("kept")
    run("eval", "run", "--config", ROOT / "eval" / "tiny.yaml", "--model",
        tmp_path / "no-such-model", "--out", tmp_path / "mine", "--limit", 1)
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == ["notes.txt"]
