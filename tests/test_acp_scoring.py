"""Exact ACP scoring on real ACPBench Hard dev questions (tests/fixtures/acp, CDLA-P-2.0).

Gold answers rendered in the prompt format must score 1.0 except where our certificates refute
the stored gold; perturbing one action or atom must flip the score with the right diagnostic.
"""

from pathlib import Path

import pytest

from planetarium.acp.data import as_step, load_items
from planetarium.acp.gen import Rules, score_gen
from planetarium.acp.gold import render_gold
from planetarium.acp.grades import Grade
from planetarium.acp.questions import question_plan, question_task
from planetarium.acp.score import CLOCK, SECONDS
from planetarium.grading import Status
from planetarium.limits import Deadline
from planetarium.reasoning import Planner

FIXTURES = Path(__file__).parent / "fixtures" / "acp"
ITEMS = [i for i in load_items(FIXTURES) if i.kind == "gen"]


def score(item, response, task=None, **rules) -> Grade:
    return score_gen(item, response, Deadline.start(SECONDS, CLOCK), Rules(**rules), task=task)


def _items(task):
    return [i for i in ITEMS if i.task == task]


def _paren(step):
    return "(" + " ".join(step) + ")"


def _refuted_gold(item):
    """Stored golds that say "None" while a sound certificate finds an answer (found on the dev
    split: every floor-tile reach question with gold [] and every visit-all land question with
    no stored landmark)."""
    domain = question_task(item).domain.name
    return ((item.task == "reach" and item.answer == [] and domain == "floor-tile")
            or (item.task == "land" and item.answer["yes"] == [] and domain == "grid-visit-all"))


@pytest.mark.parametrize("item", ITEMS, ids=lambda i: f"{i.task}-{i.id}")
def test_gold_scores_one_unless_refuted(item):
    verdict = score(item, render_gold(item))
    if _refuted_gold(item):
        # e.g. floor-tile: a painted tile is never clear again; visit-all: the robot must stand
        # on every unvisited cell.  Both are certificates (delete relaxation), not searches.
        assert verdict.correct is False and "delete-relaxed" in verdict.reason, verdict
    else:
        assert verdict.score == 1.0, verdict


def test_the_fixture_holds_refuted_golds():
    assert any(_refuted_gold(i) for i in _items("reach"))
    assert any(_refuted_gold(i) for i in _items("land"))


@pytest.mark.parametrize("response", [None, "", "   ", "lorem ipsum", "((("])
@pytest.mark.parametrize("item", ITEMS[::3], ids=lambda i: f"{i.task}-{i.id}")
def test_empty_and_garbage_score_zero(item, response):
    verdict = score(item, response)
    assert verdict.score == 0.0 and verdict.status is Status.DECIDED, verdict


def test_app_perturbations():
    item = _items("app")[0]
    truth = [as_step(a) for a in item.answer]
    verdict = score(item, "[" + ", ".join(_paren(s) for s in truth[1:]) + "]")
    assert verdict.score == 0.0 and "missing" in verdict.reason and _paren(truth[0]) in verdict.reason
    task = question_task(item)
    inapplicable = next(s for s in task.universe_actions()
                        if s not in task.applicable_actions() and task.why_not_action(s) is None)
    verdict = score(item, "[" + ", ".join(_paren(s) for s in truth + [inapplicable]) + "]")
    assert verdict.score == 0.0 and "not applicable" in verdict.reason
    assert "false precondition" in verdict.reason


def test_prog_perturbations():
    item = _items("prog")[0]
    pos, neg = item.answer["pos"], item.answer["neg"]
    verdict = score(item, f"[{', '.join(pos[1:])}] [{', '.join(neg)}]")
    assert verdict.score == 0.0 and "missing positive effect" in verdict.reason
    verdict = score(item, f"[{', '.join(pos + neg)}] []")
    assert verdict.score == 0.0 and "not a positive effect" in verdict.reason
    assert score(item, f"Positive effects: {' '.join(pos)}\nNegative effects: "
                           f"{' '.join(neg)}").score == 1.0


def test_val_off_by_one():
    for item in _items("val"):
        gold = int(item.answer)
        after = score(item, str(gold + 1))
        assert after.score == 0.0 and "past the first inapplicable" in after.reason
        if gold > 0:
            before = score(item, str(gold - 1))
            assert before.score == 0.0 and "is applicable there" in before.reason


def test_just_needs_a_proper_subsequence_that_stays_a_plan():
    item = _items("just")[0]
    plan = question_plan(item.question)
    unchanged = score(item, " ".join(_paren(s) for s in plan))
    assert unchanged.score == 0.0 and "proper" in unchanged.reason
    no_first = score(item, " ".join(_paren(s) for s in plan[1:]))
    assert no_first.score == 0.0 and "not a plan" in no_first.reason
    gold = render_gold(item)
    shorter = [s for s in plan if _paren(s) in gold]
    assert score(item, gold).score == 1.0
    assert shorter  # the gold plan's actions come from the quoted plan


def test_just_gold_removals_pass_every_rule():
    """The stored removals (one action or two consecutive ones) are right under the paper's
    subsequence rule, the published semantics and the narrow generator's rule alike."""
    item = _items("just")[0]
    task = question_task(item)
    plan = question_plan(item.question)
    from planetarium.strips.validate import validate_plan

    gold = render_gold(item)
    assert score(item, gold, semantics="published").score == 1.0
    assert score(item, gold, just="one-or-two-consecutive").score == 1.0
    assert validate_plan(task.domain, task.problem, plan).ok


def test_reach_and_areach_reject_reachable_answers():
    for item in _items("reach"):
        task = question_task(item)
        held = next(a for a in sorted(task.state) if a[0] in task.fluents)
        verdict = score(item, _paren(held))
        assert verdict.score == 0.0 and "reachable atom" in verdict.reason
        static = [a for a in task.state if a[0] not in task.fluents]
        if static:
            verdict = score(item, _paren(static[0]))
            assert verdict.score == 0.0 and "static predicate" in verdict.reason
    for item in _items("areach"):
        task = question_task(item)
        now = min(task.applicable_actions())
        verdict = score(item, _paren(now))
        assert verdict.score == 0.0 and "reachable action" in verdict.reason
        assert score(item, "None").score == (0.0 if item.answer else 1.0)


def _goal_unreachable_without(task, atom, max_states=300_000):
    from planetarium.strips.grounding import ground_actions, reachable_states

    actions = [a for a in ground_actions(task.domain, task.problem) if atom not in a.add]
    return not any(task.problem.goal <= state
                   for state in reachable_states(actions, task.state, max_states))


def test_land_trivial_and_non_landmarks():
    contradicted = 0
    for item in _items("land"):
        task = question_task(item)
        goal_atom = min(task.problem.goal)
        verdict = score(item, _paren(goal_atom))
        assert verdict.score == 0.0 and "trivial" in verdict.reason
        for atom in item.answer["no"]:
            step = as_step(atom)
            if step in task.state or step in task.problem.goal:
                continue
            verdict = score(item, _paren(step), task)
            if verdict.score == 1.0:
                # The stored "no" lists are atoms the generator did not prove to be landmarks,
                # not proofs that they are not (e.g. blocksworld: the block to move must be
                # held).  Confirm our "landmark" verdict by brute force, independently.
                assert "delete-relaxed" in verdict.reason or "exhaustive" in verdict.reason
                assert _goal_unreachable_without(task, step)
                contradicted += 1
            else:
                assert verdict.score == 0.0 and "not a landmark" in verdict.reason, verdict
    assert contradicted > 0  # the fixture holds such stored labels (reported, not hidden)


def test_nexta_stored_no_actions_score_zero_and_opt_matches():
    from planetarium.reasoning import optimal_cost

    for item in _items("nexta"):
        task = question_task(item)
        assert optimal_cost(Planner(task), Deadline.start(SECONDS, CLOCK)) == int(item.answer["opt"])
        for action in item.answer["no"]:
            verdict = score(item, action, task)
            assert verdict.score == 0.0, verdict
        assert score(item, "None").score == 0.0


def test_published_semantics_are_lookups():
    item = next(i for i in _items("reach") if i.answer)
    assert score(item, _paren(as_step(item.answer[0])), semantics="published").score == 1.0
    refuted = next(i for i in _items("land") if not i.answer["yes"])
    assert score(refuted, "None", semantics="published").score == 1.0
    assert score(refuted, "None").score == 0.0
