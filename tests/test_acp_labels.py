"""The label check: English contexts read back into STRIPS, checked on the generative records,
and every yes/no and multiple-choice label decided on real dev questions (fixtures)."""

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from planetarium.acp.data import load_items
from planetarium.acp.english import domain_key, domain_of, induce_goal_templates, learn
from planetarium.acp.labelreport import check_labels, summarize
from planetarium.acp.labels import check_label, label_outcome, label_row
from planetarium.acp.phrases import Dictionary, PhraseError, harvest
from planetarium.acp.reader import compare
from planetarium.acp.score import CLOCK, SECONDS
from planetarium.cli import main
from planetarium.limits import Deadline
from planetarium.pddl.problem import read_problem

FIXTURES = Path(__file__).parent / "fixtures" / "acp_labels"
DOMAINS = {"blocksworld-4ops", "ferry", "floor-tile", "grid", "grid-visit-all", "gripper-strips",
           "logistics-strips", "rover"}


@pytest.fixture(scope="module")
def items():
    return load_items(FIXTURES)


@pytest.fixture(scope="module")
def known(items):
    return learn(items)


def check_item(item, known) -> dict:
    """The label check's report row of one question, with its outcome word."""
    row = label_row(item, check_label(item, known, Deadline.start(SECONDS, CLOCK)), 0.0)
    return {**row, "outcome": label_outcome(row)}


def _question(items, kind, task, domain=None):
    return next(i for i in items if i.kind == kind and i.task == task
                and (domain is None or domain in i.context[:40]))


def test_reader_reproduces_the_generative_records_of_all_eight_domains(items, known):
    assert set(known) == DOMAINS and all(d.supported for d in known.values())
    for record in (i for i in items if i.kind == "gen"):
        domain = known[domain_key(record)]
        truth = read_problem(record.problem_pddl.lower(), domain.domain)
        verdict = next(k for k, v in domain.verdicts.items() if record.id in dict(v))
        if verdict == "exact":
            with_goal = "The goal is to reach" in record.context
            assert compare(domain.read(record.context), truth, with_goal) is None, record.id
    # What the English omits or drops is reported, never read wrongly.
    grid, tiles = known["grid"], known["floor-tile"]
    assert grid.count("equivalent") == 2 and "lock-shape" in grid.verdicts["equivalent"][0][1]
    assert tiles.count("refused") == 1 and "names no tile" in tiles.verdicts["refused"][0][1]
    assert all(not d.verdicts.get("wrong") for d in known.values())
    assert all("wrong" not in d.action_checks for d in known.values())
    assert known["grid"].action_checks.keys() == {"right"}


def test_every_label_of_the_fixtures_is_true(items):
    known, rows = check_labels(items)
    statuses = {(r["kind"], r["task"], label_outcome(r)) for r in rows}
    assert {s for _, _, s in statuses} == {"true", "unsupported"}
    unread = [r for r in rows if r["status"] == "unsupported"]
    assert len(unread) == 1 and "into the airplane" in unread[0]["reason"]
    tasks = {(k, t) for k, t, s in statuses if s == "true"}
    assert {t for k, t in tasks if k == "mcq"} == {"app", "prog", "reach", "areach", "val",
                                                    "just", "land"}
    total = summarize(rows, ("kind",))
    assert [r["checked"] + r["unsupported"] for r in total] == [r["n"] for r in total]


def test_a_flipped_label_is_reported_false(items, known):
    question = _question(items, "bool", "reach", "ferry")
    flipped = dataclasses.replace(question, answer="no" if question.answer == "yes" else "yes")
    assert check_item(question, known)["outcome"] == "true"
    row = check_item(flipped, known)
    assert row["outcome"] == "false" and row["reason"].startswith(f"{question.answer}:")
    choice = _question(items, "mcq", "land", "ferry")
    other = next(x for x in choice.choices["label"] if x != choice.answer)
    row = check_item(dataclasses.replace(choice, answer=other), known)
    assert row["outcome"] == "false" and f"right: {choice.answer}" in row["reason"]


def test_two_right_options_are_ambiguous(items, known):
    choice = _question(items, "mcq", "app", "ferry")
    texts = list(choice.choices["text"])
    right = choice.choices["label"].index(choice.answer)
    texts[(right + 1) % len(texts)] = texts[right]
    twice = dataclasses.replace(choice, choices={**choice.choices, "text": texts})
    row = check_item(twice, known)
    assert row["outcome"] == "ambiguous" and "but option" in row["reason"]


def test_a_question_whose_action_cannot_run_is_a_bad_question(items, known):
    question = next(i for i in items if i.kind == "bool" and i.task == "prog"
                    and "sail from location l0 to location l1" in i.question)
    assert "the ferry is at l0" in question.context
    moved = dataclasses.replace(question, question=question.question.replace(
        "sail from location l0 to location l1", "sail from location l1 to location l0"))
    row = check_item(moved, known)
    assert row["outcome"] == "bad-question" and row["status"] == "invalid-input"
    assert "(sail l1 l0) is not applicable" in row["reason"] and "(at-ferry l1)" in row["reason"]


def test_wrong_types_never_hold_and_unknown_objects_are_not_guessed(items, known):
    question = _question(items, "bool", "reach", "ferry")
    ask = "Is it possible to transition to a state where the following holds: {}?"
    typed = dataclasses.replace(question, question=ask.format("Car c1 is at location c0"),
                                answer="no")
    row = check_item(typed, known)
    assert row["outcome"] == "true" and "can never hold" in row["reason"]
    unknown = dataclasses.replace(typed, question=ask.format("Car c99 is at location l0"))
    row = check_item(unknown, known)
    assert row["outcome"] == "unsupported" and "c99" in row["reason"]


def test_a_sentence_the_reader_does_not_know_makes_the_context_unreadable(items, known):
    question = _question(items, "bool", "app", "ferry")
    odd = dataclasses.replace(question, context=question.context + " The moon is full.")
    row = check_item(odd, known)
    assert row["outcome"] == "unsupported" and "unread text" in row["reason"]
    assert domain_of(odd.context, known).name == "ferry"


def test_a_reader_wrong_on_one_record_leaves_its_domain_unchecked(items):
    record = next(i for i in items if i.kind == "gen" and domain_key(i) == "ferry")
    tampered = dataclasses.replace(record, problem_pddl=record.problem_pddl.replace(
        "(:init ", "(:init (on c0) ", 1))
    rest = [i for i in items if i is not record]
    known = learn([tampered, *rest])
    assert not known["ferry"].supported and "wrong" in known["ferry"].why_unsupported()
    row = check_item(_question(items, "bool", "app", "ferry"), known)
    assert row["outcome"] == "skipped" and "generative records wrong" in row["reason"]


def test_without_generative_records_nothing_is_checked(items):
    only = [i for i in items if i.kind != "gen"]
    known, rows = check_labels(only)
    assert known == {} and {r["status"] for r in rows} == {"skipped"}


def test_descriptions_are_harvested_and_sequences_split_by_them():
    context = ("... The available actions are: (sample_soil ?x ?s ?p) - sample the soil at "
               "waypoint ?p using the rover ?x, then store it in the storage unit ?s, and "
               "(drop ?x ?y) - drop store ?y of rover ?x.")
    actions = Dictionary(harvest(context, "actions"))
    assert len(actions) == 2
    plan = ("sample the soil at waypoint w1 using the rover r0, then store it in the storage "
            "unit s0, drop store s0 of rover r0")
    assert actions.read_list(plan, (", ",)) == [("sample_soil", "r0", "s0", "w1"),
                                                 ("drop", "r0", "s0")]
    with pytest.raises(PhraseError, match="no known description"):
        actions.read("fly the drone d0")


def test_goal_templates_are_induced_only_from_clear_pairs(items, known):
    record = _question(items, "gen", "land", "ferry")
    problem = read_problem(record.problem_pddl.lower(), known["ferry"].domain)
    templates = induce_goal_templates(record.context, problem)
    assert {(t.name, t.text) for t in templates} == {("at", "Car ?x0 is at location ?x1")}


def test_check_labels_command_prints_a_line_per_task_and_writes_the_report(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(FIXTURES, data)
    out = tmp_path / "report.json"
    result = CliRunner().invoke(main, ["acp", "check-labels", str(data), "--out", str(out)])
    assert result.exit_code == 0, result.output
    grid = next(line for line in result.output.splitlines() if line.startswith("grid "))
    assert "4 generative records: exact 2, equivalent 2" in grid and grid.endswith("supported")
    assert "bool  reach" in result.output and "mcq   val" in result.output
    report = json.loads(out.read_text())
    assert set(report) == {"domains", "by_task", "by_task_and_domain", "questions"}
    assert report["domains"]["floor-tile"]["records"] == {"exact": 3, "refused": 1}


def test_a_differing_static_fact_is_forgiven_only_when_no_action_can_use_it(items):
    grid = [i for i in items if i.kind == "gen" and domain_key(i) == "grid"]
    record = next(i for i in grid if "(conn f0-0f f0-1f) " in i.problem_pddl)
    without = dataclasses.replace(record, problem_pddl=record.problem_pddl.replace(
        "(conn f0-0f f0-1f) ", "", 1))  # the reader derives it from the grid; move can use it
    known = learn([without] + [i for i in grid if i is not record])
    assert known["grid"].verdicts["wrong"][0][0] == record.id and known["grid"].count("wrong") == 1
    assert "conn f0-0f f0-1f" in known["grid"].verdicts["wrong"][0][1]
    assert not known["grid"].supported
