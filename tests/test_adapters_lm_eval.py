"""`lm_eval --tasks planetarium` with the task group shipped inside the package (found with
``--include_path`` pointing into it), on the tiny local model with greedy decoding: the same
prompts, the same answers and the same verdicts as our own ``eval run`` + ``eval grade``."""

from __future__ import annotations

import json
import os
import subprocess
import sys

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
