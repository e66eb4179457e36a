"""`lm_eval --tasks planetarium` with the task group shipped inside the package (found with
``--include_path`` pointing into it), on the tiny local model with greedy decoding: the same
prompts, the same answers and the same verdicts as our own ``eval run`` + ``eval grade``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from llm_fixtures import (
    ADAPTER_MAX_NEW_TOKENS,
    ADAPTER_METRICS,
    adapter_metrics,
    offline_env,
    one_row_per_domain,
    our_answers_and_verdicts,
)

pytest.importorskip("lm_eval")

import planetarium.adapters.lm_eval as task_folder  # noqa: E402


def test_lm_eval_verdicts_equal_ours(tmp_path, tiny_model):
    rows = one_row_per_domain(tmp_path / "rows.jsonl")
    out = tmp_path / "lm_eval"
    env = offline_env(PLANETARIUM_DATASET=str(rows))
    done = subprocess.run(
        [sys.executable, "-m", "lm_eval", "--model", "hf", "--model_args",
         f"pretrained={tiny_model},dtype=float32", "--apply_chat_template",
         "--tasks", "planetarium", "--include_path", os.path.dirname(task_folder.__file__),
         "--gen_kwargs", f"max_gen_toks={ADAPTER_MAX_NEW_TOKENS}", "--device", "cpu", "--batch_size", "1",
         "--output_path", str(out), "--log_samples"],
        env=env, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    [results] = out.glob("*/results_*.json")
    group = json.loads(results.read_text())["results"]["planetarium"]
    assert {f"{m},none" for m in ADAPTER_METRICS} <= set(group)

    ours = our_answers_and_verdicts(tmp_path, tiny_model, rows, ADAPTER_MAX_NEW_TOKENS)
    theirs = {}
    for samples in out.glob("*/samples_planetarium_*.jsonl"):
        for line in samples.read_text().splitlines():
            sample = json.loads(line)
            theirs[str(sample["doc"]["id"])] = sample
    assert set(theirs) == set(ours) and len(ours) == 4  # one item of each domain
    for item_id, (answer, verdict) in ours.items():
        sample = theirs[item_id]
        assert sample["resps"] == [[answer]]
        assert {m: sample[m] for m in ADAPTER_METRICS} == adapter_metrics(verdict)


def test_process_results_equals_eval_grade_on_known_answers(tmp_path):
    """Right, wrongly typed, fenced and broken answers: the task's metrics are our verdicts."""
    from llm_fixtures import demo_rows, known_answers, make_answered_run, write_rows

    from planetarium.adapters.lm_eval import utils
    from planetarium.llm.grade import grade_run
    from planetarium.llm.store import read_jsonl

    rows = demo_rows(4)
    answers = dict(zip([row["id"] for row in rows], known_answers(rows), strict=True))
    make_answered_run(tmp_path, "known", rows, list(answers.values()))
    grade_run(tmp_path, workers=1, progress=False)
    verdicts = {v["id"]: v for v in read_jsonl(tmp_path / "verdicts.jsonl")}
    docs = utils.load_dataset("planetarium", dataset=str(write_rows(tmp_path / "rows.jsonl", rows)),
                              pretrained="ignored-model-argument")["test"]
    metrics = {doc["id"]: utils.process_results(doc, [answers[doc["id"]]]) for doc in docs}
    assert metrics == {item_id: adapter_metrics(v) for item_id, v in verdicts.items()}
    assert [metrics[row["id"]]["correct"] for row in rows] == [1, 0, 1, 0]  # strict, as eval grade
    assert [utils.doc_to_target(doc) for doc in docs] == [row["problem_pddl"] for row in rows]


def test_the_shipped_task_folder_is_what_the_generator_writes():
    """The package's folder holds exactly the built-in benchmarks' task files (the planetarium
    group and its four domain tasks, acpbench, arb), as :mod:`.tasks` writes them."""
    from planetarium.adapters.lm_eval.tasks import task_files
    from planetarium.benchmarks import get_benchmark
    from planetarium.benchmarks.registry import BUILTINS

    folder = Path(task_folder.__file__).parent
    expected = task_files(get_benchmark(name) for name in BUILTINS)
    assert {p.name: p.read_text() for p in folder.glob("*.yaml")} == expected
    assert {"planetarium.yaml", "planetarium_blocksworld.yaml", "planetarium_gripper.yaml",
            "planetarium_floortile.yaml", "planetarium_rover.yaml", "acpbench.yaml",
            "arb.yaml"} == set(expected)


def _task(name: str, metadata: dict):
    from lm_eval.tasks import TaskManager

    manager = TaskManager(include_path=str(Path(task_folder.__file__).parent), metadata=metadata)
    return manager.load([name])["tasks"][name]


def test_the_budget_fits_the_models_context(tmp_path, tiny_model):
    """4096 new tokens (the benchmark's budget) leave a 4096-token model no room for the prompt:
    without --gen_kwargs the task asks half the context; a budget that does not fit is refused
    in one line that says what to pass."""
    from planetarium.adapters.lm_eval.utils import model_context

    rows = str(one_row_per_domain(tmp_path / "rows.jsonl"))
    assert model_context({"pretrained": str(tiny_model)}) == 4096  # its config.json
    assert model_context({"pretrained": str(tiny_model), "max_length": "1000"}) == 1000
    assert model_context({"pretrained": str(tmp_path)}) is None  # nothing to read: not guessed
    assert model_context({"model": "gpt-4o"}) is None

    task = _task("planetarium_gripper", {"pretrained": str(tiny_model), "dataset": rows})
    assert task.config.generation_kwargs["max_gen_toks"] == 2048
    short = _task("planetarium_gripper", {"pretrained": str(tiny_model), "max_length": 1000,
                                           "dataset": rows})
    assert short.config.generation_kwargs["max_gen_toks"] == 500
    unknown = _task("planetarium_gripper", {"pretrained": str(tmp_path), "dataset": rows})
    assert unknown.config.generation_kwargs["max_gen_toks"] == 4096

    task.set_config(key="generation_kwargs", value={"max_gen_toks": 4096}, update=True)  # --gen_kwargs
    with pytest.raises(SystemExit) as stopped:
        task.build_all_requests(limit=1, rank=0, world_size=1)
    assert str(stopped.value) == (
        "Error: task planetarium_gripper: max_gen_toks 4096 leaves no room for the prompt in the "
        "model's 4096-token context: pass --gen_kwargs max_gen_toks=N with N well below 4096")


def test_the_readme_command_runs_on_the_tiny_model_without_gen_kwargs(tmp_path, tiny_model):
    """The README's lm_eval line, with the tiny model and one item: no --gen_kwargs needed."""
    rows = one_row_per_domain(tmp_path / "rows.jsonl")
    out = tmp_path / "lm_eval"
    done = subprocess.run(
        [sys.executable, "-m", "lm_eval", "--model", "hf", "--model_args",
         f"pretrained={tiny_model},dtype=float32", "--apply_chat_template",
         "--tasks", "planetarium_gripper", "--include_path", os.path.dirname(task_folder.__file__),
         "--metadata", json.dumps({"dataset": str(rows)}), "--device", "cpu", "--limit", "1",
         "--output_path", str(out)],
        env=offline_env(), capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert ("planetarium: task planetarium_gripper: max_gen_toks 2048, half the model's "
            "4096-token context") in done.stderr
    [results] = out.glob("*/results_*.json")
    assert "correct,none" in json.loads(results.read_text())["results"]["planetarium_gripper"]


def test_offline_without_a_dataset_is_one_line(tmp_path, tiny_model):
    """No --metadata, no PLANETARIUM_DATASET, the published dataset not cached and the Hub out
    of reach: one line that says what to pass, no traceback, no eval-config key."""
    env = {k: v for k, v in offline_env(HF_HOME=str(tmp_path / "empty-hf-home"),
                                        HF_DATASETS_OFFLINE="1").items()
           if k != "PLANETARIUM_DATASET"}
    done = subprocess.run(
        [sys.executable, "-m", "lm_eval", "--model", "hf", "--model_args",
         f"pretrained={tiny_model},dtype=float32", "--apply_chat_template", "--tasks", "planetarium",
         "--include_path", os.path.dirname(task_folder.__file__), "--device", "cpu"],
        env=env, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("Error: planetarium: dataset BatsResearch/planetarium: cannot download")
    assert last.endswith("""(pass another with --metadata '{"dataset": "PATH"}')""")
    assert "benchmark.dataset" not in done.stderr


def test_acpbench_is_a_task_that_keeps_its_few_shot_chat(tiny_model):
    """ACPBench by name in lm-eval: every document's prompt is the benchmark's five-turn chat
    through the model's template (the text ``eval run`` renders), not one flattened turn."""
    from transformers import AutoTokenizer

    from planetarium.adapters import common
    from planetarium.adapters.lm_eval import utils

    acp = Path(__file__).parent / "fixtures" / "acp"
    settings = {"dataset": str(acp / "land"), "prompts": str(acp / "configs"), "split": "dev"}
    task = _task("acpbench", {**settings, "pretrained": str(tiny_model)})
    assert task.config.generation_kwargs["max_gen_toks"] == 1024  # the default budget fits
    tokenizer = AutoTokenizer.from_pretrained(tiny_model)

    def template(turns, add_generation_prompt=True):
        return tokenizer.apply_chat_template(turns, tokenize=False,
                                             add_generation_prompt=add_generation_prompt)

    bench = common.benchmark("acpbench")
    config = common.benchmark_config(bench, settings, utils.HOW)
    chats = {row["id"]: bench.messages(config, row) for row in bench.load_items(config)}
    docs = list(task.test_docs())
    assert sorted(doc["id"] for doc in docs) == sorted(chats) and len(docs) == 11
    for doc in docs:
        chat = chats[doc["id"]]
        assert len(chat) == 5
        assert task.fewshot_context(doc, 0, apply_chat_template=True,
                                    chat_template=template) == template(chat)
        assert task.fewshot_context(doc, 0) == "\n\n".join(turn["content"] for turn in chat)
