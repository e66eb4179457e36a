"""``acp score``, ``acp check-labels``, ``arb score`` and ``arb check-labels`` on the one item
loop (issue 28.1): one deadline per question made by the loop on the CPU clock from the user's
limit, a hard kill past its wall-time limit plus grace (``timeout``, never a wrong answer), a
dead worker replaced (``internal-error``), every row in input order.

The graders here misbehave on purpose, as in tests/test_item_loop.py: the module function a
task calls is replaced before the workers fork (they inherit it), so one chosen question
sleeps past every limit, or kills its worker, while the others are graded for real.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import pytest
from arb_instances import INSTANCES
from click.testing import CliRunner

from planetarium.acp import labelreport
from planetarium.acp import score as acp_score
from planetarium.acp.data import load_items
from planetarium.acp.gold import render_gold
from planetarium.arb import runner as arb_runner
from planetarium.arb import score as arb_score
from planetarium.arb.records import record_from_raw
from planetarium.arb.render import Renderer, random_plan
from planetarium.benchmarks import grade_items
from planetarium.benchmarks.acpbench import BENCHMARK as ACPBENCH
from planetarium.benchmarks.acpbench import AcpConfig, item_row
from planetarium.benchmarks.arb import BENCHMARK as ARB
from planetarium.benchmarks.arb import ArbConfig
from planetarium.cli import main
from planetarium.grading import Status
from planetarium.limits import WALL_FACTOR, current, wall_now

ACP = Path(__file__).parent / "fixtures" / "acp"
LABELS = Path(__file__).parent / "fixtures" / "acp_labels"
SECONDS = 0.3
#: The most wall time a killed question may take: its wall-time limit, the loop's grace, slack.
KILL_S = SECONDS * WALL_FACTOR + 1.0 + 3.0


def _misbehaving(real, victims: dict[str, str]):
    """``real``, except that the question whose id is a key of ``victims`` sleeps ("sleep",
    costing no CPU time, so only the wall-time kill ends it) or kills its worker ("die")."""
    def call(item, *args, **kwargs):
        what = victims.get(str(getattr(item, "id", None)))
        if what == "sleep":
            time.sleep(600)
        if what == "die":
            os._exit(3)
        return real(item, *args, **kwargs)
    return call


def _timed(call):
    start = wall_now()
    result = call()
    return result, wall_now() - start


def _verdicts(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


def _acp_rows(items, responses, seconds=acp_score.SECONDS, workers=None) -> list[dict]:
    """What ``acp score`` grades: the benchmark's results of the answered questions."""
    config = AcpConfig(name="acpbench", dataset=str(ACP / "reach"), split=(None,),
                       timeout_s=seconds)
    answers = [responses[(i.kind, i.task, i.id)] for i in items]
    return [result.to_dict() for result in grade_items(
        ACPBENCH, config, [item_row(i) for i in items], answers, workers=workers)]


@pytest.fixture(scope="module")
def acp_gen():
    """Generative questions, their stored answers, and the rows the loop gives them."""
    items = [i for i in load_items(ACP / "reach") if i.kind == "gen"]
    assert len(items) >= 4
    responses = {(i.kind, i.task, i.id): render_gold(i) for i in items}
    return items, responses, _verdicts(_acp_rows(items, responses))


def test_acp_score_gets_one_cpu_deadline_per_question_from_the_users_seconds(acp_gen,
                                                                             monkeypatch):
    items, responses, plain = acp_gen
    real = acp_score.score_gen

    def spy(item, response, deadline, rules, max_states):
        grade = real(item, response, deadline, rules, max_states)
        seen = [deadline.seconds, str(deadline.clock), current() is deadline, os.getpid()]
        return type(grade)(grade.status, grade.correct, json.dumps(seen))

    monkeypatch.setattr(acp_score, "score_gen", spy)
    rows = _acp_rows(items, responses, seconds=7.5, workers=2)
    assert [r["score"] for r in rows] == [r["score"] for r in plain]
    seen = [json.loads(row["reason"]) for row in rows]
    assert {tuple(s[:3]) for s in seen} == {(7.5, "cpu", True)}
    assert os.getpid() not in {s[3] for s in seen}  # graded in workers, never in the caller


def test_acp_score_kills_a_hung_question_and_replaces_a_dead_worker(acp_gen, monkeypatch):
    items, responses, plain = acp_gen
    victims = {items[0].id: "sleep", items[1].id: "die"}
    monkeypatch.setattr(acp_score, "score_gen", _misbehaving(acp_score.score_gen, victims))
    rows, elapsed = _timed(lambda: _acp_rows(items, responses, seconds=SECONDS, workers=1))
    assert [r["id"] for r in rows] == [item_row(i)["id"] for i in items]
    assert rows[0]["status"] == Status.TIMEOUT.value and rows[0]["correct"] is None
    assert "worker killed" in rows[0]["reason"] and rows[0]["score"] is None
    assert rows[1]["status"] == Status.INTERNAL_ERROR.value and rows[1]["score"] is None
    assert "worker died" in rows[1]["reason"]
    assert _verdicts(rows[2:]) == plain[2:]
    assert elapsed < KILL_S + 5  # one kill, then real grading of a handful of questions


def test_acp_score_command_reports_a_killed_question_as_timeout(acp_gen, tmp_path,
                                                                monkeypatch):
    items, _, _ = acp_gen
    monkeypatch.setattr(acp_score, "score_gen",
                        _misbehaving(acp_score.score_gen, {items[0].id: "sleep"}))
    gold = tmp_path / "gold.jsonl"
    runner = CliRunner()
    assert runner.invoke(main, ["acp", "gold", str(ACP / "reach"), "--out", str(gold)]
                         ).exit_code == 0
    out = tmp_path / "scores.jsonl"
    result = runner.invoke(main, ["acp", "score", str(ACP / "reach"), "--responses", str(gold),
                                  "--out", str(out), "--kind", "gen", "--seconds", str(SECONDS),
                                  "--no-progress"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows[0]["status"] == "timeout" and rows[0]["id"] == items[0].id
    assert "timeout=1" in result.output


def test_acp_check_labels_kills_a_hung_question_with_its_domain_named(monkeypatch):
    items = load_items(LABELS / "land")
    questions = [i for i in items if i.kind in ("bool", "mcq")]
    victims = {questions[0].id: "sleep", questions[1].id: "die"}
    monkeypatch.setattr(labelreport, "check_label",
                        _misbehaving(labelreport.check_label, victims))
    _, rows = labelreport.check_labels(items, seconds=SECONDS, workers=1)
    assert [r["id"] for r in rows] == [q.id for q in questions]
    assert rows[0]["status"] == "timeout" and "worker killed" in rows[0]["reason"]
    assert rows[0]["domain"] is not None and rows[0]["verdict"] is None
    assert rows[1]["status"] == "internal-error" and rows[1]["verdict"] is None
    assert all(r["verdict"] is not None or r["status"] != "decided" for r in rows[2:])
    assert any(r["verdict"] == "true" for r in rows[2:])


@pytest.fixture(scope="module")
def arb_records():
    objects, init = INSTANCES["grippers"]
    rng = random.Random(1)
    rendered = Renderer("grippers", "2024", objects, init,
                        random_plan("grippers", objects, init, 3, rng), rng)
    raws = rendered.questions(1)[:6]
    return [(raw, record_from_raw(raw, f"rendered:{n}")) for n, raw in enumerate(raws, 1)]


def test_arb_score_runs_on_the_loop_in_order_with_a_kill_and_a_replacement(arb_records,
                                                                            monkeypatch):
    arb_records = [record for _, record in arb_records]
    responses = {r.id: f"[ANSWER]\n{r.answer}" for r in arb_records}
    victims = {arb_records[0].id: "sleep", arb_records[1].id: "die"}
    monkeypatch.setattr(arb_score, "score_record", _misbehaving(arb_score.score_record, victims))
    config = ArbConfig(name="arb", dataset="rendered", split=(None,), timeout_s=SECONDS)
    rows, elapsed = _timed(lambda: [result.to_dict() for result in grade_items(
        ARB, config, [r.to_row() for r in arb_records],
        [responses[r.id] for r in arb_records], workers=1)])
    assert [r["id"] for r in rows] == [r.id for r in arb_records]
    assert rows[0]["status"] == Status.TIMEOUT.value and "worker killed" in rows[0]["reason"]
    assert rows[1]["status"] == Status.INTERNAL_ERROR.value and "died" in rows[1]["reason"]
    assert all(r["status"] == "decided" and r["arb_outcome"] == "correct" and r["score"] == 1
               for r in rows[2:])
    assert elapsed < KILL_S + 5


def test_arb_commands_use_the_users_timeout_and_workers(arb_records, tmp_path, monkeypatch):
    real = arb_runner.label_row

    def spy(record, catalog, deadline):
        row = real(record, catalog, deadline)
        row["deadline"] = [deadline.seconds, str(deadline.clock), os.getpid()]
        return row

    monkeypatch.setattr(arb_runner, "label_row", spy)
    questions = tmp_path / "q.jsonl"
    questions.write_text("".join(json.dumps(raw) + "\n" for raw, _ in arb_records))
    out = tmp_path / "labels.json"
    result = CliRunner().invoke(main, ["arb", "check-labels", str(questions), "--out", str(out),
                                       "--timeout", "4.5", "--workers", "2"])
    assert result.exit_code == 0, result.output
    rows = json.loads(out.read_text())["questions"]
    assert [r["id"] for r in rows] == [record.id for _, record in arb_records]
    assert {tuple(r["deadline"][:2]) for r in rows} == {(4.5, "cpu")}
    assert os.getpid() not in {r["deadline"][2] for r in rows}
