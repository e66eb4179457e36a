"""Ray Data grading of another benchmark's answers: the actor's :class:`Grader` on Arrow tables
(no Ray needed to build or call it; ``tests/test_integrations_ray.py`` runs Ray itself).  Each
row's result is the benchmark's own grade of the answer, the same as the reward's."""

from __future__ import annotations

import json

import pytest

pyarrow = pytest.importorskip("pyarrow")

from test_reward_benchmarks import TIMEOUT_S, arb_answers, arb_records, expected, scored  # noqa: E402

from planetarium.integrations.ray import Grader  # noqa: E402


def test_the_ray_grader_grades_another_benchmarks_rows():
    records = arb_records()[:6]
    answers = arb_answers(records)
    items = [records[i // 2] for i in range(len(answers))]
    rows = [{"item": json.dumps(item), "answer": answer, "prompt_id": n}
            for n, (item, answer) in enumerate(zip(items, answers, strict=True))]
    rows.append({"item": "{not json", "answer": "[ANSWER] True", "prompt_id": -1})
    grader = Grader(workers=1, keep=["prompt_id"], benchmark="arb", timeout_s=TIMEOUT_S)
    try:
        out = grader(pyarrow.Table.from_pylist(rows)).to_pylist()
    finally:
        grader.close()
    want = expected(scored("arb", records, answers))
    got = [float(r["correct"]) if r["status"] == "decided" else 0.0 for r in out[:-1]]
    assert got == want and [r["prompt_id"] for r in out] == [*range(len(answers)), -1]
    assert out[-1]["status"] == "invalid-input"
    assert "the arb benchmark cannot read the item" in out[-1]["reason"]
    assert json.loads(out[0]["groups"])["domain"] == "blocksworld"
    with pytest.raises(ValueError, match="would overwrite"):
        Grader(benchmark="arb", keep=["status"])
