"""ACPBench's five test-only domains (test-style records of tests/fixtures/acp-test-style), the
ADL subset alfworld needs, the paper's `just`, and a folder of all 13 domains end to end.

Every verdict asserted here was worked out by hand on the fixture's small problems (the
comments of bench/acp_test_style.py say how), not read back from the scorers.
"""

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from planetarium.acp.data import load_items
from planetarium.acp.english import domain_key
from planetarium.acp.gen import Rules, score_gen
from planetarium.acp.gold import render_gold
from planetarium.acp.grades import outcome
from planetarium.acp.questions import question_task
from planetarium.acp.score import CLOCK, SECONDS
from planetarium.cli import main
from planetarium.errors import UnsupportedFeatureError
from planetarium.limits import Deadline
from planetarium.reasoning import GroundedTask, read_task

FIXTURES = Path(__file__).parent / "fixtures"
STYLE = FIXTURES / "acp-test-style"
ITEMS = load_items(STYLE)
DOMAINS = {"swap", "gold-miner-typed", "satellite", "depots", "alfred"}


def graded(item, response, **rules):
    return score_gen(item, response, Deadline.start(SECONDS, CLOCK), Rules(**rules))


def _item(task: str, domain: str):
    return next(i for i in ITEMS if i.task == task and domain_key(i) == domain)


def test_the_fixture_covers_five_domains_and_eight_tasks():
    assert {domain_key(i) for i in ITEMS} == DOMAINS
    assert len(ITEMS) == 40


@pytest.mark.parametrize("item", ITEMS, ids=lambda i: f"{i.task}-{domain_key(i)}")
def test_gold_scores_one(item):
    verdict = graded(item, render_gold(item))
    assert verdict.score == 1.0, verdict


# --- alfworld: the ADL subset compiled away ----------------------------------------------------

ALFRED = _item("app", "alfred")


def _alfred_with(extra_init: str, drop: str = "") -> GroundedTask:
    problem = ALFRED.problem_pddl.replace(drop, "").replace("(notvalidated)",
                                                            f"(notvalidated) {extra_init}")
    return GroundedTask(*read_task(ALFRED.domain_pddl, problem))


def test_alfred_constants_equality_and_costs_compile():
    task = question_task(ALFRED)
    assert {"butterknifetype", "sinktype", "fridgetype"} <= set(task.types)  # constants only
    applicable = task.applicable_actions()
    assert ("go_to_location", "agent1", "loc1", "loc2", "drawer1") in applicable
    # (not (= ?lstart ?lend)): no action goes from a location to itself
    assert ("adl-distinct", "loc1", "loc2") in task.state
    assert ("adl-distinct", "loc2", "loc2") not in task.state
    assert not any(s[0] == "go_to_location" and s[2] == s[3] for s in applicable)
    assert "adl-distinct" not in task.fluents  # not one of the task's propositions


def test_alfred_disjunctive_precondition_over_static_atoms():
    at_apple = "(atlocation agent1 loc2)"
    knife = _alfred_with(f"{at_apple} (holds agent1 knife1)",
                         "(atlocation agent1 loc1) (handempty agent1)")
    assert ("slice_object", "agent1", "loc2", "apple1", "knife1") in knife.applicable_actions()
    mug = _alfred_with(f"{at_apple} (holds agent1 mug1)",
                       "(atlocation agent1 loc1) (handempty agent1)")
    assert not any(s[0] == "slice_object" for s in mug.applicable_actions())  # a mug: no knife


def test_alfred_two_objects_must_differ():
    task = _alfred_with("(inreceptacle mug1 countertop1) (objecttype mug1 appletype)")
    steps = {s for s in task.applicable_actions()
             if s[0] == "validate_pick_two_and_place_in_receptacle"}
    assert ("validate_pick_two_and_place_in_receptacle", "apple1", "mug1", "appletype",
            "countertop1", "countertoptype") in steps
    assert not any(s[1] == s[2] for s in steps)


def test_non_unit_action_costs_are_refused():
    domain = ALFRED.domain_pddl.replace("(isclean ?o)\n", "(and (isclean ?o) (increase (total-cost) 2))\n")
    assert domain != ALFRED.domain_pddl
    with pytest.raises(UnsupportedFeatureError, match="unit action costs"):
        read_task(domain, ALFRED.problem_pddl)


# --- perturbed answers get the paper's verdict -------------------------------------------------

def test_app_drop_and_add():
    item = _item("app", "swap")
    gold = item.answer
    assert len(gold) == 12  # ordered pairs of four agents
    dropped = graded(item, "[" + ", ".join(gold[1:]) + "]")
    assert dropped.score == 0.0 and "missing" in dropped.reason
    added = graded(item, "[" + ", ".join(gold + ["(swap a1 a1 r2 r2)"]) + "]")
    assert added.score == 0.0 and "not applicable" in added.reason


def test_prog_goldminer_tie_break_splits_run_together_words():
    item = _item("prog", "gold-miner-typed")
    verdict = graded(item, render_gold(item))
    assert verdict.score == 1.0 and "(pickup-laser f0-0f)" in verdict.reason
    swapped = graded(item, "[(holds-bomb)] [(arm-empty)]")
    assert swapped.score == 0.0 and "missing positive effect: (holds-laser)" in swapped.reason


@pytest.mark.parametrize("domain,reachable", [
    ("gold-miner-typed", "(clear f0-2f)"),  # the laser clears it
    ("satellite", "(have_image planet2 thermograph)"),
    ("depots", "(lifting hoist1 crate0)"),
    ("alfred", "(ishot apple1)"),
])
def test_reach_reachable_atom_is_wrong(domain, reachable):
    verdict = graded(_item("reach", domain), reachable)
    assert verdict.score == 0.0 and "reachable atom" in verdict.reason


def test_reach_none_and_static_atoms():
    swap = _item("reach", "swap")
    assert graded(swap, "None").score == 1.0  # every role assignment is reachable
    assert "static predicate" in graded(swap, "(not-eq a1 a2)").reason
    assert graded(_item("reach", "depots"), "None").score == 0.0


@pytest.mark.parametrize("domain,answer,score", [
    ("swap", "(swap a1 a2 r2 r3)", 0.0),  # applicable now
    ("swap", "(swap a2 a2 r2 r3)", 1.0),  # an agent never differs from itself
    ("depots", "(lift hoist0 crate0 pallet0 depot0)", 0.0),
    ("depots", "(lift hoist1 crate0 pallet1 distributor0)", 0.0),  # after the delivery
    ("satellite", "(calibrate satellite0 instrument0 planet2)", 1.0),
    ("alfred", "(heat_object agent1 loc3 microwave1 apple1)", 0.0),
])
def test_areach(domain, answer, score):
    assert graded(_item("areach", domain), answer).score == score


def test_val_off_by_one():
    for item in (i for i in ITEMS if i.task == "val"):
        gold = int(item.answer)
        assert graded(item, str(gold + 1)).score == 0.0
        if gold:
            assert graded(item, str(gold - 1)).score == 0.0


def test_just_non_consecutive_removals_are_the_papers_rule():
    swap = _item("just", "swap")
    both_pairs = ("(swap a1 a3 r2 r1) (swap a2 a3 r3 r2)")  # pairs 0-1 and 3-4 removed
    assert graded(swap, both_pairs).score == 1.0
    narrow = graded(swap, both_pairs, just="one-or-two-consecutive")
    assert narrow.score == 0.0 and "two consecutive" in narrow.reason
    alfred = _item("just", "alfred")
    plan = alfred.question.split('"')[1]
    without_open_and_close = plan.replace("(open_receptacle agent1 loc3 microwave1) ", "").replace(
        "(close_receptacle agent1 loc3 microwave1) ", "")
    assert graded(alfred, without_open_and_close).score == 1.0
    assert graded(alfred, without_open_and_close, just="one-or-two-consecutive").score == 0.0
    only_open = plan.replace("(open_receptacle agent1 loc3 microwave1) ", "")
    verdict = graded(alfred, only_open)
    assert verdict.score == 0.0 and "not a plan" in verdict.reason  # close needs it open


def test_just_swapped_argument_and_added_action():
    item = _item("just", "satellite")
    gold = render_gold(item)
    swapped = gold.replace("(calibrate satellite0 instrument0 star0)",
                           "(calibrate satellite0 instrument0 planet2)")
    assert graded(item, swapped).score == 0.0
    added = gold.replace("[", "[(turn_to satellite0 planet2 planet2), ", 1)
    verdict = graded(item, added)
    assert verdict.score == 0.0 and "adds" in verdict.reason


def test_land_perturbations():
    for item in (i for i in ITEMS if i.task == "land"):
        for atom in item.answer["no"]:
            assert graded(item, atom).score == 0.0, (item.id, atom)
        for atom in item.answer["yes"]:
            assert graded(item, atom).score == 1.0, (item.id, atom)
    gold_miner = _item("land", "gold-miner-typed")
    assert "trivial" in graded(gold_miner, "(holds-gold)").reason
    assert graded(_item("land", "swap"), "None").score == 1.0


def test_nexta_perturbations():
    for item in (i for i in ITEMS if i.task == "nexta"):
        for key in ("yes", "no", "maybe"):
            for action in item.answer[key]:
                verdict = graded(item, action)
                assert verdict.score == (1.0 if key == "yes" else 0.0), (item.id, action, verdict)
    verdict = graded(_item("nexta", "gold-miner-typed"), "(pickup-bomb f0-1f)")
    assert verdict.score == 0.0 and "not applicable" in verdict.reason


def test_a_wrong_stored_optimal_cost_does_not_make_a_wrong_answer_right():
    item = _item("nexta", "depots")
    lying = type(item)(**{**item.__dict__,
                          "answer": {**item.answer, "opt": "7",
                                     "yes": ["(drive truck0 depot0 distributor0)"]}})
    verdict = graded(lying, "(drive truck0 depot0 distributor0)")
    assert verdict.score == 0.0 and "stored optimal cost 7 is wrong" in verdict.reason
    assert graded(lying, "(lift hoist0 crate0 pallet0 depot0)").score == 1.0


# --- all 13 domains in one folder ---------------------------------------------------------------

@pytest.fixture(scope="module")
def thirteen(tmp_path_factory):
    root = tmp_path_factory.mktemp("acp13")
    for name in ("acp", "acp-more-domains", "acp-test-style"):
        shutil.copytree(FIXTURES / name, root / name, ignore=shutil.ignore_patterns("configs"))
    # swap's other domain file (no not-eq) in one more record: two PDDLs for one domain name
    swap = json.loads((STYLE / "app" / "test.gen.json").read_text())[0]
    other = dict(swap, id=99, PDDL_domain=swap["PDDL_domain"].replace(
        "  (not-eq ?x - object ?y - object)", "").replace(" (not-eq ?a1 ?a2) (not-eq ?r1 ?r2)", ""),
        PDDL_problem=re.sub(r"\(not-eq \w+ \w+\)", "", swap["PDDL_problem"]))
    assert "not-eq" not in other["PDDL_domain"] + other["PDDL_problem"]
    (root / "swap2" / "app").mkdir(parents=True)
    (root / "swap2" / "app" / "test.gen.json").write_text(json.dumps([other]))
    # a yes/no question of a test-only domain: there is no English reader for it
    alfred = _item("app", "alfred")
    (root / "bool" / "app").mkdir(parents=True)
    (root / "bool" / "app" / "test.bool.json").write_text(json.dumps([{
        "id": 7, "group": "applicable_actions_bool", "context": alfred.context.split(
            " The available")[0], "question": "Is the following action applicable in this "
        "state: agent agent1 goes from location loc1 to location loc2?", "answer": "yes"}]))
    return root


def test_score_and_check_labels_on_all_13_domains(thirteen, tmp_path):
    items = load_items(thirteen)
    assert len({domain_key(i) for i in items if i.kind == "gen"}) == 13
    runner = CliRunner()
    gold = tmp_path / "gold.jsonl"
    result = runner.invoke(main, ["acp", "gold", str(thirteen), "--out", str(gold)])
    assert result.exit_code == 0, result.output
    out = tmp_path / "scores.jsonl"
    result = runner.invoke(main, ["acp", "score", str(thirteen), "--responses", str(gold),
                                  "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == len(items)
    assert [outcome(r) for r in rows if outcome(r) not in ("correct", "wrong")] == []
    report = tmp_path / "labels.json"
    result = runner.invoke(main, ["acp", "check-labels", str(thirteen), "--out", str(report),
                                  "--no-progress", "--workers", "2"])  # learned domains pickle
    assert result.exit_code == 0, result.output
    data = json.loads(report.read_text())
    domains = data["domains"]
    assert not domains["alfred"]["supported"]
    assert "no English reader" in domains["alfred"]["why_unsupported"]
    assert "2 different domain PDDLs" in domains["swap"]["why_unsupported"]
    assert domains["ferry"]["supported"]
    unchecked = [q for q in data["questions"] if q["status"] == "skipped"]
    assert [q["id"] for q in unchecked] == ["7"] and "alfred" in unchecked[0]["reason"]
    assert "skipped" in result.output and "UNCHECKED" in result.output


def test_score_grades_only_the_selected_questions(thirteen, tmp_path):
    items = load_items(thirteen)
    land = [i for i in items if i.task == "land" and i.kind == "gen"][:2]
    responses = tmp_path / "r.jsonl"
    responses.write_text("".join(json.dumps({"id": i.id, "task": i.task, "kind": i.kind,
                                             "response": render_gold(i)}) + "\n" for i in land))
    out = tmp_path / "s.jsonl"
    result = CliRunner().invoke(main, ["acp", "score", str(thirteen), "--responses",
                                       str(responses), "--out", str(out), "--task", "land",
                                       "--kind", "gen", "--limit", "2", "--no-progress"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in rows] == [i.id for i in land]
    assert "missing" not in result.output


def test_the_search_budget_is_cpu_time_not_wall_time():
    """A machine busy with other work (here: this process asleep) spends no budget."""
    import time

    deadline = Deadline.start(1.0, CLOCK)
    time.sleep(1.2)
    assert deadline.remaining() > 0.5 and not deadline.expired()


def test_a_disjunction_with_too_many_helper_facts_is_refused():
    """The helper facts of ``(or (objecttype ?ko knifetype) (cancontain ?rt ?ot))`` are the
    knife times every (rtype, otype) pair plus every cancontain fact times every object: with
    505 of each type, 255,025 + 11 x 1,156 facts, over the limit of 200,000."""
    domain = ALFRED.domain_pddl.replace(
        "(or (objecttype ?ko knifetype) (objecttype ?ko butterknifetype))",
        "(or (objecttype ?ko knifetype) (cancontain ?rt ?ot))").replace(
        "?ko - object)\n        :precondition (and (sliceable ?co)",
        "?ko - object ?rt - rtype ?ot - otype)\n        :precondition (and (sliceable ?co)")
    assert domain.count("cancontain ?rt ?ot))") == 1 and "?ot - otype)" in domain
    objects = " ".join(f"extra{i}" for i in range(120))
    problem = ALFRED.problem_pddl.replace("apple1 knife1 mug1 - object",
                                          f"apple1 knife1 mug1 {objects} - object")
    read_task(domain, problem)  # 1 x 5 x 6 + 11 x ~150 helper facts: fine
    many = " ".join(f"kind{i}" for i in range(500))
    rtypes = many.replace("kind", "rk")
    problem = problem.replace("appletype mugtype knifetype - otype",
                              f"appletype mugtype knifetype {many} - otype").replace(
        "countertoptype drawertype - rtype", f"countertoptype drawertype {rtypes} - rtype")
    with pytest.raises(UnsupportedFeatureError, match="helper facts, more than the limit"):
        read_task(domain, problem)
