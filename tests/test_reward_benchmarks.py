"""The reward is a benchmark's: for every registered benchmark, the reward of an answer is the
score the benchmark's grading gives it (``eval grade``'s loop, ``acp score``, ``arb score``), in
TRL's form (records in the ``item`` column, as JSON text or mappings) and verl's
(``compute_score`` dispatching on ``data_source``); and the round-3 rules (concurrent calls
from threads, a forked child) hold for ACPBench and ARB items as for Planetarium's.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from planetarium.acp.data import item_from_record
from planetarium.acp.gold import render_gold
from planetarium.benchmarks import ItemResult, get_benchmark, grade_items
from planetarium.config import build
from planetarium.dataset import load_rows
from planetarium.grading import Status
from planetarium.reward import PlanetariumReward, RewardConfigError, compute_score
from planetarium.reward.schemes import DEFAULT_WEIGHTS, STAGED

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
TIMEOUT_S = 20.0  # CPU seconds: every fixture question decides well within it


def acp_records() -> list[dict]:
    """ACPBench Hard's generative questions as published, one question object each."""
    files = sorted((FIXTURES / "acp-hard").glob("*/test.gen.json"))
    files += sorted((FIXTURES / "acp").glob("*/dev.gen.json"))
    return [record for path in files for record in json.loads(path.read_text())]


def acp_answers(records: list[dict]) -> list[str]:
    """Per question: its gold, another question's gold (wrong), and no answer at all."""
    golds = [render_gold(item_from_record(r, "fixture")) for r in records]
    return [golds[i // 3] if i % 3 == 0 else golds[(i // 3 + 1) % len(golds)] if i % 3 == 1
            else "I do not know." for i in range(3 * len(records))]


def arb_records() -> list[dict]:
    """ARB questions as its files hold them, one line each."""
    lines = (FIXTURES / "arb" / "blocksworld-2024.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines[:40]]


def arb_answers(records: list[dict]) -> list[str]:
    return [f"[ANSWER]\n{records[i // 2]['answer']}" if i % 2 == 0
            else "[ANSWER]\nFalse" for i in range(2 * len(records))]


CASES = {"acpbench": (acp_records, acp_answers), "arb": (arb_records, arb_answers)}


def scored(name: str, records: list[dict], answers: list[str]) -> list[ItemResult]:
    """What the benchmark's own grading gives (``eval grade``'s loop, the benchmark's settings)."""
    benchmark = get_benchmark(name)
    config = build(benchmark.config_type, {"name": name, "dataset": str(FIXTURES),
                                           "timeout_s": TIMEOUT_S})
    per = len(answers) // len(records)
    items = [benchmark.item_from_record(records[i // per]) for i in range(len(answers))]
    return list(grade_items(benchmark, config, items, answers, workers=2))


def expected(results: list[ItemResult]) -> list[float]:
    return [float(r.correct) if r.status is Status.DECIDED else 0.0 for r in results]


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request):
    records_of, answers_of = CASES[request.param]
    records = records_of()
    answers = answers_of(records)
    per = len(answers) // len(records)
    results = scored(request.param, records, answers)
    # no time limit decides a fixture question (bad questions of ACPBench Hard: invalid-input)
    assert {r.status for r in results} <= {Status.DECIDED, Status.UNSUPPORTED,
                                           Status.INVALID_INPUT}
    assert {r.correct for r in results} >= {True, False}  # both verdicts are represented
    return request.param, [records[i // per] for i in range(len(answers))], answers, results


def test_trl_rewards_equal_the_benchmark_scores(case):
    name, records, answers, results = case
    as_text = [json.dumps(r) for r in records]
    with PlanetariumReward(benchmark=name, workers=2, timeout_s=TIMEOUT_S) as reward:
        assert reward.__name__ == f"{name}_correct"
        assert reward(completions=answers, item=as_text) == expected(results)
        assert reward(completions=answers, item=records) == expected(results)  # mappings
        assert [d["status"] for d in reward.last_details] == [r.status.value for r in results]
        metrics = reward.metrics()
    assert metrics["correct"] == 2 * sum(r.correct is True for r in results)
    for key, status in (("unsupported", Status.UNSUPPORTED),
                        ("invalid_inputs", Status.INVALID_INPUT)):
        assert metrics[key] == 2 * sum(r.status is status for r in results)


def test_verl_compute_score_dispatches_on_data_source(case):
    name, records, answers, results = case
    got = [compute_score(name, answer, json.dumps(record) if i % 2 else record)
           for i, (answer, record) in enumerate(zip(answers, records, strict=True))]
    assert got == expected(results)


def test_planetarium_records_in_the_item_column_equal_eval_grade():
    rows = load_rows(ROOT / "data" / "demo.yaml")[::40]
    wrong = [rows[(i + 1) % len(rows)]["problem_pddl"] for i in range(len(rows))]
    answers = [row["problem_pddl"] for row in rows] + wrong
    items = rows + rows
    benchmark = get_benchmark("planetarium")
    config = build(benchmark.config_type, {"name": "planetarium", "dataset": "x"})
    results = list(grade_items(benchmark, config, items, answers, workers=2))
    with PlanetariumReward(benchmark="planetarium", workers=2) as reward:
        got = reward(completions=answers, item=[json.dumps(row) for row in items])
    assert got == expected(results) and 0 < sum(got) < len(got)
    assert compute_score("planetarium", answers[0], rows[0]["problem_pddl"]) == got[0]


def test_a_scheme_reads_any_benchmarks_metrics():
    """``staged`` on ACPBench: a parseable wrong answer earns the stages ACPBench does not grade
    like the one before them; a correct one earns everything."""
    records = acp_records()[:2]
    answers = acp_answers(records)[:3]
    with PlanetariumReward("staged", benchmark="acpbench", workers=0,
                           timeout_s=TIMEOUT_S) as reward:
        got = reward(completions=answers, item=records[:1] * 3)
        parseable = [d["parseable"] for d in reward.last_details]
    credit = DEFAULT_WEIGHTS["parseable"] + DEFAULT_WEIGHTS["solvable"]
    assert got[0] == 1.0
    assert got[1:] == [credit if p else 0.0 for p in parseable[1:]]
    result = ItemResult("x", Status.DECIDED, False, metrics={"parseable": True, "correct": False})
    assert STAGED.reward(result, DEFAULT_WEIGHTS) == credit


def test_bad_records_are_invalid_input_and_a_missing_column_is_refused():
    with PlanetariumReward(benchmark="arb", workers=0, undecided_reward=-1.0) as reward:
        got = reward(completions=["[ANSWER] True"] * 4,
                     item=["{not json", "[1, 2]", {"question_category": "nonsense"}, 7])
        assert got == [-1.0] * 4
        assert [d["status"] for d in reward.last_details] == ["invalid-input"] * 4
        assert "the arb benchmark cannot read the item" in reward.last_details[2]["reason"]
        with pytest.raises(RewardConfigError, match="no dataset column 'item'"):
            reward(completions=["x"], problem_pddl=["y"])
    with pytest.raises(RewardConfigError, match="benchmark: .*nope"):
        PlanetariumReward(benchmark="nope")
    from planetarium.grading import GradeOptions
    with pytest.raises(RewardConfigError, match="acpbench benchmark takes none"):
        PlanetariumReward(benchmark="acpbench", options=GradeOptions())


@pytest.mark.parametrize("name", sorted(CASES))
def test_concurrent_calls_from_threads_and_a_forked_child(name):
    """Round-3 rules for every benchmark: calls from several threads share the workers and each
    gets its own rewards; a child forked while calls run grades with its own workers and
    locks."""
    records_of, answers_of = CASES[name]
    records = records_of()[:6]
    answers = answers_of(records)
    per = len(answers) // len(records)
    items = [records[i // per] for i in range(len(answers))]
    want = expected(scored(name, records, answers))
    with PlanetariumReward(benchmark=name, workers=2, timeout_s=TIMEOUT_S) as reward:
        with ThreadPoolExecutor(4) as executor:
            calls = [executor.submit(reward, completions=answers, item=items) for _ in range(4)]
            pid = os.fork()
            if pid == 0:  # the child: its own reward state, whatever the threads held
                code = 0 if reward(completions=answers, item=items) == want else 1
                os._exit(code)
            assert [call.result() for call in calls] == [want] * 4
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert reward.metrics()["calls"] == 4


@pytest.mark.parametrize("name, dataset", [("acpbench", "acp-hard"), ("arb", "arb")])
def test_rows_of_load_items_are_records_too(name, dataset):
    """A GRPO dataset (``planetarium rl`` with ``data.benchmark``) and an eval run's items.jsonl
    hold the rows ``load_items`` gives: the reward reads them as it reads published records."""
    benchmark = get_benchmark(name)
    config = build(benchmark.config_type, {"name": name, "dataset": str(FIXTURES / dataset),
                                           "split": [None], "limit": 12})
    rows = benchmark.load_items(config)
    records = {"acpbench": acp_records, "arb": arb_records}[name]()
    answers = (acp_answers if name == "acpbench" else arb_answers)(records)[:len(rows)]
    assert [benchmark.item_from_record(row) for row in rows] == rows
    want = expected(list(grade_items(benchmark, config, rows, answers, workers=1)))
    with PlanetariumReward(benchmark=name, workers=1, timeout_s=TIMEOUT_S) as reward:
        assert reward(completions=answers, item=[json.dumps(row) for row in rows]) == want


def test_a_planetarium_record_without_a_ground_truth_is_invalid_input():
    with PlanetariumReward(workers=0) as reward:
        assert reward(completions=["(define"] * 2,
                      item=[{"domain": "blocksworld"}, '{"problem_pddl": 3}']) == [0.0, 0.0]
        assert [d["status"] for d in reward.last_details] == ["invalid-input"] * 2
        assert "no 'problem_pddl' text" in reward.last_details[0]["reason"]
