"""`inspect eval planetarium/planetarium` (the task registered in the ``inspect_ai`` entry-point
group, as an installed package declares it: the package and its dist-info directory in a
``site-packages`` folder on the path, no pip) with Inspect's ``hf`` provider on the tiny local
model (greedy): the same answers, verdicts and statuses as our own ``eval run`` + ``eval
grade``.

The installation is laid out as pip lays out a regular one, not as the checkout's editable
install: Inspect prefixes a task with its package's name only when the package lives in a
``site-packages`` folder or is an editable install of a distribution *named like the package*,
and ours is ``planetarium-pddl`` (from a checkout, name the file:
``inspect eval planetarium/adapters/inspect_task.py@planetarium``, as the README says)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from llm_fixtures import (
    ADAPTER_MAX_NEW_TOKENS,
    adapter_metrics,
    offline_env,
    one_row_per_domain,
    our_answers_and_verdicts,
)

import planetarium

pytest.importorskip("inspect_ai")


def test_inspect_verdicts_equal_ours(tmp_path, tiny_model):
    rows = one_row_per_domain(tmp_path / "rows.jsonl")
    logs = tmp_path / "logs"
    site = tmp_path / "site-packages"
    dist = site / "planetarium_pddl-0.1.dist-info"
    dist.mkdir(parents=True)
    (site / "planetarium").symlink_to(Path(planetarium.__file__).parent, target_is_directory=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: planetarium-pddl\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[inspect_ai]\nplanetarium = planetarium.adapters.inspect_task\n")
    env = offline_env(site, checkout=False)
    done = subprocess.run(
        [sys.executable, "-m", "inspect_ai", "eval", "planetarium/planetarium",
         "--model", f"hf/{tiny_model}", "-M", "do_sample=false", "-M", "device=cpu",
         "-M", "dtype=float32", "-M", 'tokenizer_call_args={"add_special_tokens": false}',
         "-T", f"dataset={rows}", "--max-tokens", str(ADAPTER_MAX_NEW_TOKENS), "--max-connections", "1",
         "--log-dir", str(logs), "--log-format", "json", "--display", "none"],
        env=env, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    [log_file] = logs.glob("*.json")
    log = json.loads(log_file.read_text())
    assert log["status"] == "success"

    ours = our_answers_and_verdicts(tmp_path, tiny_model, rows, ADAPTER_MAX_NEW_TOKENS)
    theirs = {str(sample["id"]): sample for sample in log["samples"]}
    assert set(theirs) == set(ours) and len(ours) == 4  # one item of each domain
    for item_id, (answer, verdict) in ours.items():
        sample = theirs[item_id]
        score = sample["scores"]["planetarium_grader"]
        assert sample["output"]["choices"][0]["message"]["content"] == answer
        assert score["value"] == adapter_metrics(verdict)
        assert score["metadata"] == {"status": verdict["status"], "correct": verdict["correct"]}


def test_scorer_equals_eval_grade_on_known_answers(tmp_path):
    """Right, wrongly typed, fenced and broken answers (Inspect's scripted mockllm model, in
    process): the scores and statuses are our verdicts."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage
    from llm_fixtures import demo_rows, known_answers, make_answered_run, write_rows

    from planetarium.adapters import common
    from planetarium.adapters.inspect_task import planetarium
    from planetarium.llm.grade import grade_run
    from planetarium.llm.store import read_jsonl

    rows = demo_rows(4)
    answers = known_answers(rows)
    make_answered_run(tmp_path / "ours", "known", rows, answers)
    grade_run(tmp_path / "ours", workers=1, progress=False)
    verdicts = {v["id"]: v for v in read_jsonl(tmp_path / "ours" / "verdicts.jsonl")}
    dataset = write_rows(tmp_path / "rows.jsonl", rows)
    bench = common.benchmark("planetarium")
    config = common.benchmark_config(bench, {"dataset": str(dataset)}, "-T KEY=VALUE")
    by_prompt = {common.messages(bench, config, row)[-1]["content"]: answer
                 for row, answer in zip(rows, answers, strict=True)}

    def answer(messages, *_):
        output = ModelOutput.from_content("mockllm/model", by_prompt[messages[-1].text])
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer
        return output

    [log] = inspect_eval(planetarium(dataset=str(dataset)), model="mockllm/model",
                         model_args={"custom_outputs": answer}, log_dir=str(tmp_path / "logs"),
                         display="none")
    assert log.status == "success" and len(log.samples) == 4, log.error
    for sample in log.samples:
        score, verdict = sample.scores["planetarium_grader"], verdicts[str(sample.id)]
        assert score.value == adapter_metrics(verdict)
        assert score.metadata == {"status": verdict["status"], "correct": verdict["correct"]}
    assert sorted(s.scores["planetarium_grader"].value["correct"] for s in log.samples) == [0, 0, 1, 1]


def test_acpbench_runs_in_inspect_by_name(tmp_path):
    """``-T benchmark=acpbench`` with its own config keys: every item asked as the benchmark's
    few-shot chat (turns and all), each score what ACP's grader says of the answer."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage

    from planetarium.acp.data import load_items
    from planetarium.acp.score import CLOCK, grade_answer
    from planetarium.adapters import common
    from planetarium.adapters.inspect_task import planetarium
    from planetarium.limits import Deadline

    acp = Path(__file__).parent / "fixtures" / "acp"
    settings = {"dataset": str(acp / "land"), "prompts": str(acp / "configs"), "split": "dev"}
    bench = common.benchmark("acpbench")
    config = common.benchmark_config(bench, settings, "-T KEY=VALUE")
    chats = {row["id"]: bench.messages(config, row) for row in bench.load_items(config)}
    by_last_turn = {chat[-1]["content"]: item_id for item_id, chat in chats.items()}
    canned = {"bool": "yes", "mcq": "The answer is A.", "gen": "[(on c3), (empty-ferry)]"}
    asked = {}

    def answer(messages, *_):
        item_id = by_last_turn[messages[-1].text]
        asked[item_id] = [(m.role, m.text) for m in messages]
        output = ModelOutput.from_content("mockllm/model", canned[item_id.split("/")[0]])
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    [log] = inspect_eval(planetarium(benchmark="acpbench", **settings), model="mockllm/model",
                         model_args={"custom_outputs": answer}, log_dir=str(tmp_path / "logs"),
                         display="none")
    assert log.status == "success" and len(log.samples) == len(chats) == 11, log.error
    assert asked == {i: [(m["role"], m["content"]) for m in chat] for i, chat in chats.items()}
    assert {len(chat) for chat in chats.values()} == {5}  # two worked examples, then the question
    items = {f"{i.kind}/{i.task}/{i.id}": i for i in load_items(acp / "land")}
    for sample in log.samples:
        direct = grade_answer(items[str(sample.id)], canned[str(sample.id).split("/")[0]],
                              Deadline.start(20.0, CLOCK))
        assert sample.scores["planetarium_grader"].value == {
            "parseable": int(direct.parseable is True), "correct": int(direct.correct is True)}
    values = [s.scores["planetarium_grader"].value for s in log.samples]
    assert any(v["correct"] for v in values) and not all(v["correct"] for v in values)
