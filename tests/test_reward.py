"""The training reward: it equals the grader's verdict, never hangs or raises, and is deterministic.

Pairs come from the demo dataset's rows (generated in memory) and from the conformance corpus; the
hostile ones from the fuzz generators plus cases that make the in-process grader overrun its limit
(a 20,000-block tower takes minutes), and plug-in domains that hang or kill their worker.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest
from test_corpus import CASES, MODES

from planetarium.dataset import load_rows
from planetarium.domains import Domain, register_domain, unregister_domain
from planetarium.grading import (
    GradeOptions,
    grade,
    grade_correct,
    load_ground_truth,
    prepare_ground_truth,
)
from planetarium.loop import GRACE_S
from planetarium.pddl.writer import problem_to_pddl
from planetarium.reward import PlanetariumReward, RewardConfigError, compute_score
from planetarium.reward.answer import answer_of, completion_text
from planetarium.testing.fuzz import hostile_outputs
from planetarium.testing.pairs import near_miss, render

ROOT = Path(__file__).resolve().parent.parent
GT = """(define (problem p) (:domain blocksworld) (:objects b1 b2)
  (:init (arm-empty) (on-table b1) (on b2 b1) (clear b2))
  (:goal (and (on-table b2) (on b1 b2))))"""
RENAMED = GT.replace("b1", "x").replace("b2", "y")
WRONG = GT.replace("(on b1 b2)", "(on-table b1)")
#: Parseable and solvable, but the wrong problem (staged credit for two stages).
UNSOLVABLE = GT.replace("(on b1 b2)", "(on b1 b2) (on b2 b1)")


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    return load_rows(ROOT / "data" / "demo.yaml")


def variants(row: dict, rng: random.Random) -> list:
    """Completions for one row: right, renamed, wrong goal, wrong init, fenced, reasoning first,
    chat form, garbage."""
    gt = row["problem_pddl"]
    _, problem = load_ground_truth(gt)
    wrong_init = problem_to_pddl(replace(problem, init=frozenset(sorted(problem.init)[1:])))
    return [gt, render(problem, rng), problem_to_pddl(near_miss(problem, rng)), wrong_init,
            f"Here it is:\n```pddl\n{render(problem, rng)}\n```\nDone.",
            f"<think>maybe (define (problem decoy) (:domain x))</think>\n{render(problem, rng)}",
            [{"role": "assistant", "content": render(problem, rng)}],
            "I cannot write PDDL (sorry"]


def reference(completion, gt: str, placeholder: bool) -> float:
    """What the reward must equal: ``grade(...).correct`` of the answer text."""
    answer, _ = answer_of(completion_text(completion))
    return float(grade(gt, answer, is_placeholder=placeholder).correct)


def pairs_from(rows: list[dict], seed: int = 0) -> tuple[list, list[str], list[bool]]:
    rng = random.Random(seed)
    completions, truths, flags = [], [], []
    for row in rows:
        for completion in variants(row, rng):
            completions.append(completion)
            truths.append(row["problem_pddl"])
            flags.append(row["is_placeholder"])
    return completions, truths, flags


# --- the reward equals the grader's verdict -------------------------------------------------------

def test_rewards_equal_grade_correct_on_the_conformance_corpus():
    by_options: dict[tuple, list[dict]] = {}
    for _, case in CASES:
        placeholder, semantics = MODES[case["mode"]]
        key = (bool(case.get("relax_typing", False)), semantics)
        by_options.setdefault(key, []).append({**case, "is_placeholder": placeholder})
    checked = 0
    for (relax, semantics), cases in by_options.items():
        options = GradeOptions(relax_typing=relax, placeholder_semantics=semantics)
        with PlanetariumReward(workers=1, anchors_column="anchored_objects",
                               options=options) as reward:
            rewards = reward(completions=[c["pred"] for c in cases],
                             problem_pddl=[c["gt"] for c in cases],
                             is_placeholder=[c["is_placeholder"] for c in cases],
                             anchored_objects=[c.get("anchored_objects", []) for c in cases])
        for case, value in zip(cases, rewards, strict=True):
            expected = grade(case["gt"], case["pred"], options=options,
                             is_placeholder=case["is_placeholder"],
                             anchored_objects=case.get("anchored_objects", [])).correct
            assert value == float(expected), case["name"]
            checked += 1
    assert checked == len(CASES) > 500


@pytest.mark.slow
def test_rewards_equal_grade_correct_on_5000_dataset_pairs(rows):
    completions, truths, flags = pairs_from(rows)
    assert len(completions) >= 5000
    with PlanetariumReward(workers=2) as reward:
        rewards = reward(completions=completions, problem_pddl=truths, is_placeholder=flags)
        metrics = reward.metrics()
    expected = [reference(c, gt, p) for c, gt, p in zip(completions, truths, flags, strict=True)]
    assert rewards == expected
    assert 0.3 < sum(rewards) / len(rewards) < 0.9  # both verdicts are well represented
    assert metrics["timeouts"] == metrics["internal_errors"] == 0
    assert metrics["cache_hit_rate"] > 0.8


def test_rewards_do_not_depend_on_worker_count_or_order(rows):
    completions, truths, flags = pairs_from(rows[::20], seed=1)
    order = list(range(len(completions)))
    random.Random(2).shuffle(order)
    outcomes = []
    for workers, permutation in ((0, None), (1, order), (2, None), (2, order)):
        index = permutation or list(range(len(completions)))
        with PlanetariumReward(workers=workers, scheme="staged") as reward:
            got = reward(completions=[completions[i] for i in index],
                         problem_pddl=[truths[i] for i in index],
                         is_placeholder=[flags[i] for i in index])
        back = [0.0] * len(got)
        for position, i in enumerate(index):
            back[i] = got[position]
        outcomes.append(back)
    assert all(o == outcomes[0] for o in outcomes[1:])
    assert len(set(outcomes[0])) >= 3  # staged credit really varies


def test_grade_correct_decides_equivalence_first_and_agrees_with_grade():
    truth = prepare_ground_truth(GT)
    right = grade_correct(truth, RENAMED)
    assert right.correct and right.solvable is True and "equivalent to the ground truth" in \
        right.solve.reason
    wrong = grade_correct(truth, UNSOLVABLE)
    assert not wrong.correct and wrong.solvable is None and wrong.stage.value == "equivalence"
    assert grade(GT, UNSOLVABLE).solvable is False  # grade() plans; grade_correct() need not
    # an unsolvable ground truth: an equivalent answer is unsolvable too, so not correct
    stuck = GT.replace("(arm-empty) ", "")
    for graded in (grade(stuck, stuck), grade_correct(stuck, stuck)):
        assert graded.solvable is False and graded.equivalent is False and not graded.correct
    assert grade_correct(stuck, stuck, equivalence_for_unsolvable=True).equivalent is True


# --- completions as trainers hand them over ---------------------------------------------------------

@pytest.mark.parametrize("completion, expected, why", [
    (RENAMED, 1.0, ""),
    ([{"role": "assistant", "content": RENAMED}], 1.0, ""),
    ([{"role": "user", "content": "hi"}, {"role": "assistant", "content": RENAMED}], 1.0, ""),
    ([{"role": "assistant", "content": [{"type": "text", "text": RENAMED}]}], 1.0, ""),
    (f"<think>(define (problem p) nonsense</think>{RENAMED}", 1.0, ""),
    (f"<think>let me think {RENAMED}", 0.0, "no answer: the reasoning block <think> never closes"),
    (f"{RENAMED}</think>", 0.0, "no '(define (problem"),
    ([{"role": "user", "content": RENAMED}], 0.0, "no answer: the completion holds no text"),
    (WRONG, 0.0, ""),
])
def test_completion_forms(completion, expected, why):
    with PlanetariumReward(workers=0) as reward:
        assert reward(prompts=["p"], completions=[completion], problem_pddl=[GT]) == [expected]
        detail = reward.last_details[0]
    assert detail["reason"].startswith(why) or why in detail["reason"]
    assert detail["reward"] == expected and detail["status"] == "decided"


def test_verdicts_reach_trl_log_callbacks():
    extra, metrics = {}, {}
    with PlanetariumReward(workers=0) as reward:
        reward(completions=[RENAMED, "garbage", WRONG], problem_pddl=[GT] * 3,
               trainer_state=object(), completion_ids=[[1], [2], [3]],
               log_extra=lambda column, values: extra.setdefault(column, []).extend(values),
               log_metric=lambda name, value: metrics.setdefault(name, []).append(value))
    assert extra["planetarium_correct_status"] == ["decided"] * 3
    assert "no '(define (problem" in extra["planetarium_correct_reason"][1]
    assert metrics["planetarium_correct/timeouts"] == [0.0]
    assert metrics["planetarium_correct/cache_hit_rate"] == [2 / 3]


def test_the_think_marker_is_configurable():
    text = f"[[reasoning]] (define (problem x)) [[/reasoning]]{RENAMED}"
    with PlanetariumReward(workers=0, think_marker="[[/reasoning]]") as reward:
        assert reward(completions=[text], problem_pddl=[GT]) == [1.0]
    assert answer_of(text, None) == (text, "")


# --- schemes and undecided verdicts -------------------------------------------------------------

def test_staged_credit_follows_the_pipeline():
    completions = ["garbage", UNSOLVABLE, WRONG, RENAMED]
    with PlanetariumReward(scheme="staged", workers=0) as reward:
        assert reward.__name__ == "planetarium_staged"
        got = reward(completions=completions, problem_pddl=[GT] * 4)
    assert got == pytest.approx([0.0, 0.1, 0.3, 1.0])
    weights = {"parseable": 0.5, "solvable": 0.25, "equivalent": 0.25}
    with PlanetariumReward(scheme="staged", weights=weights, workers=0) as reward:
        assert reward(completions=completions, problem_pddl=[GT] * 4) == \
            pytest.approx([0.0, 0.5, 0.75, 1.0])


@pytest.mark.parametrize("kwargs, message", [
    ({"scheme": "best"}, "scheme must be one of correct, staged"),
    ({"weights": {"parse": 1.0}}, "unknown stage(s) in weights: parse"),
    ({"weights": {"equivalent": -1}}, "weights.equivalent must be a finite number >= 0"),
    ({"weights": {"equivalent": math.nan}}, "weights.equivalent must be a finite number >= 0"),
    ({"undecided_reward": math.inf}, "undecided_reward must be a finite number"),
    ({"timeout_s": 0}, "timeout_s must be finite, positive"),
    ({"call_budget_s": math.nan}, "call_budget_s must be finite, positive"),
    ({"workers": -1}, "workers must be a whole number >= 0 or None"),
])
def test_bad_options_are_refused_when_the_reward_is_built(kwargs, message):
    with pytest.raises(RewardConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        PlanetariumReward(**kwargs)


def test_a_missing_ground_truth_column_is_a_configuration_error():
    with PlanetariumReward(workers=0) as reward:
        with pytest.raises(RewardConfigError, match="no dataset column 'problem_pddl'"):
            reward(completions=[GT], answer=[GT])
        with pytest.raises(RewardConfigError, match="has 2 values for 1 completions"):
            reward(completions=[GT], problem_pddl=[GT, GT])


def test_bad_data_values_are_undecided_not_raised():
    with PlanetariumReward(workers=0, undecided_reward=-0.5) as reward:
        got = reward(completions=[GT, GT, None], problem_pddl=[None, "(define (problem", GT],
                     is_placeholder=[False, False, False])
        assert got == [-0.5, -0.5, -0.5]
        assert [d["status"] for d in reward.last_details] == ["invalid-input"] * 3
        assert reward.metrics()["invalid_inputs"] == 3


def test_a_configuring_column_of_the_wrong_kind_is_a_configuration_error():
    with PlanetariumReward(workers=0, anchors_column="anchors") as reward:
        with pytest.raises(RewardConfigError, match="column 'is_placeholder', row 1: "
                                                    "is_placeholder must be true or false"):
            reward(completions=[GT, GT], problem_pddl=[GT, GT], is_placeholder=[False, "yes"])
        with pytest.raises(RewardConfigError, match="column 'anchors', row 0: anchored objects "
                                                    "must be a list of object names, got 'b1'"):
            reward(completions=[GT], problem_pddl=[GT], anchors=["b1"])
        assert reward.metrics()["calls"] == 0  # refused before anything was graded


def test_unsupported_output_gets_the_undecided_reward_and_is_counted():
    unsupported = RENAMED.replace("(:goal", "(:metric minimize (total-cost)) (:goal")
    for scheme in ("correct", "staged"):
        with PlanetariumReward(workers=0, undecided_reward=0.25, scheme=scheme) as reward:
            assert reward(completions=[unsupported], problem_pddl=[GT]) == [0.25]
            assert reward.last_details[0]["status"] == "unsupported"
            assert reward.metrics()["unsupported"] == 1


# --- hard deadlines, dead workers, budgets ---------------------------------------------------------

class _Stuck(Domain):
    """fully_specify ignores every time limit (what a buggy plug-in or a pathological input does)."""

    def fully_specify(self, problem):
        time.sleep(3600)


class _Crashing(Domain):
    """fully_specify takes its process down."""

    def fully_specify(self, problem):
        os._exit(3)


PLUGIN_PDDL = """(define (domain {name}) (:requirements :strips)
  (:predicates (p ?x) (q ?x))
  (:action go :parameters (?x) :precondition (p ?x) :effect (q ?x)))"""
PLUGIN_GT = "(define (problem s) (:domain {name}) (:objects a b) (:init (p a) (p b)) (:goal (q a)))"


@pytest.fixture
def plugins():
    register_domain(_Stuck("stuck", PLUGIN_PDDL.format(name="stuck")), replace=True)
    register_domain(_Crashing("crashing", PLUGIN_PDDL.format(name="crashing")), replace=True)
    yield {name: (PLUGIN_GT.format(name=name),
                  PLUGIN_GT.format(name=name).replace("(q a)", "(and (q a) (q b))"))
           for name in ("stuck", "crashing")}
    unregister_domain("stuck")
    unregister_domain("crashing")


def test_a_hung_item_costs_its_deadline_and_a_dead_worker_is_replaced(plugins):
    stuck_gt, stuck = plugins["stuck"]
    crash_gt, crash = plugins["crashing"]
    completions = [RENAMED, stuck, WRONG, crash, RENAMED, stuck]
    truths = [GT, stuck_gt, GT, crash_gt, GT, stuck_gt]
    with PlanetariumReward(workers=2, timeout_s=0.5, undecided_reward=-1.0) as reward:
        start = time.monotonic()
        got = reward(completions=completions, problem_pddl=truths)
        took = time.monotonic() - start
        assert got == [1.0, -1.0, 0.0, -1.0, 1.0, -1.0]
        assert [d["status"] for d in reward.last_details] == \
            ["decided", "timeout", "decided", "internal-error", "decided", "timeout"]
        assert "worker killed" in reward.last_details[1]["reason"]
        # the pool is whole again: the next call is graded normally and quickly
        assert reward(completions=[RENAMED] * 4, problem_pddl=[GT] * 4) == [1.0] * 4
        metrics = reward.metrics()
    assert took < (0.5 + GRACE_S) * math.ceil(6 / 2) + 2
    assert metrics["timeouts"] == 2 and metrics["internal_errors"] == 1
    assert metrics["workers_replaced"] == 3


@pytest.mark.skipif("forkserver" not in multiprocessing.get_all_start_methods(),
                    reason="needs the forkserver start method")
def test_forkserver_workers_keep_the_deadline():
    """What ``planetarium rl`` uses inside a trainer (no fork of a process with CUDA state)."""
    huge = tower(20_000)  # the in-process grader takes minutes on it
    with PlanetariumReward(workers=1, timeout_s=1.0, start_method="forkserver") as reward:
        assert reward(completions=[RENAMED], problem_pddl=[GT]) == [1.0]  # workers started
        start = time.monotonic()
        got = reward(completions=[huge, RENAMED], problem_pddl=[huge, GT])
        assert time.monotonic() - start < (1.0 + GRACE_S) * 2 + 2
    assert got == [0.0, 1.0]
    assert reward.last_details[0]["status"] == "timeout"


def test_the_call_budget_bounds_a_whole_call(plugins):
    stuck_gt, stuck = plugins["stuck"]
    with PlanetariumReward(workers=1, timeout_s=5.0, call_budget_s=0.5) as reward:
        start = time.monotonic()
        got = reward(completions=[RENAMED, stuck, stuck], problem_pddl=[GT, stuck_gt, stuck_gt])
        assert time.monotonic() - start < 2.0
        assert got == [1.0, 0.0, 0.0]
        assert "call budget of 0.5 s" in reward.last_details[2]["reason"]
        assert reward.last_details[1]["status"] == "timeout"
        assert reward.metrics()["budget_exhausted"] == 2
        assert reward(completions=[RENAMED], problem_pddl=[GT]) == [1.0]


def test_the_call_budget_bounds_an_in_process_call_too():
    tall = tower(1000)  # graded in about 0.1-0.3 s: the 10 ms budget is spent after it
    with PlanetariumReward(workers=0, call_budget_s=0.01, undecided_reward=-1.0) as reward:
        got = reward(completions=[tall, RENAMED, RENAMED], problem_pddl=[tall, GT, GT])
        assert got == [1.0, -1.0, -1.0]
        assert reward.metrics()["budget_exhausted"] == 2


def tower(n: int) -> str:
    blocks = [f"b{i}" for i in range(n)]
    init = ["(arm-empty)", f"(on-table {blocks[0]})", f"(clear {blocks[-1]})"]
    init += [f"(on {blocks[i + 1]} {blocks[i]})" for i in range(n - 1)]
    goal = [f"(on-table {blocks[-1]})"] + [f"(on {blocks[i]} {blocks[i + 1]})" for i in range(n - 1)]
    return (f"(define (problem t) (:domain blocksworld) (:objects {' '.join(blocks)}) "
            f"(:init {' '.join(init)}) (:goal (and {' '.join(goal)})))")


def nested_forall(n: int, objects: int | None = None) -> str:
    """A goal of ``n`` nested foralls over ``objects`` (default ``n``) blocks: its ground goal
    has objects^n disjunctions."""
    blocks = [f"b{i}" for i in range(n if objects is None else objects)]
    body = "(or " + " ".join(f"(on ?x{i} ?x{i + 1})" for i in range(n - 1)) + ")"
    for i in reversed(range(n)):
        body = f"(forall (?x{i}) {body})"
    init = " ".join(["(arm-empty)"] + [f"(on-table {b}) (clear {b})" for b in blocks])
    return (f"(define (problem f) (:domain blocksworld) (:objects {' '.join(blocks)}) "
            f"(:init {init}) (:goal {body}))")


def gripper_with_or_goals(balls: int) -> str:
    names = [f"ball{i}" for i in range(balls)]
    init = ("(at-robby rooma) (free left) (free right) (room rooma) (room roomb) (gripper left) "
            "(gripper right) " + " ".join(f"(ball {b}) (at {b} rooma)" for b in names))
    goal = " ".join(f"(or (at {b} roomb) (carry {b} left))" for b in names)
    return (f"(define (problem g) (:domain gripper) (:objects rooma roomb left right "
            f"{' '.join(names)}) (:init {init}) (:goal (and {goal})))")


def slow_cases() -> list[tuple[str, str]]:
    """(ground truth, completion) pairs that run the in-process grader past its limit."""
    huge = tower(20_000)
    return [(huge, huge), (tower(12), nested_forall(12)),
            (gripper_with_or_goals(8), gripper_with_or_goals(8))]


@pytest.mark.slow
def test_10000_hostile_completions_never_raise_and_keep_the_deadline(rows):
    rng = random.Random(7)
    truths = [row["problem_pddl"] for row in rows[::7]]
    hostile = [(rng.choice(truths), text) for _, text in hostile_outputs(truths, 9_970, rng)]
    slow = slow_cases() * 10
    items = hostile + slow
    rng.shuffle(items)
    deadline, workers, calls = 1.0, 2, 0
    with PlanetariumReward(workers=workers, timeout_s=deadline, scheme="staged") as reward:
        # one call of only slow items: the bound is tight there
        batches = [slow[:6]] + [items[i:i + 512] for i in range(0, len(items), 512)]
        for batch in batches:
            start = time.monotonic()
            got = reward(completions=[c for _, c in batch], problem_pddl=[gt for gt, _ in batch])
            took = time.monotonic() - start
            # a worker silent past the deadline plus the loop's grace is killed
            bound = (deadline + GRACE_S) * math.ceil(len(batch) / workers) + 2
            assert took <= bound, (len(batch), took)
            assert len(got) == len(batch) and all(0.0 <= r <= 1.0 for r in got)
            calls += 1
        metrics = reward.metrics()
    assert metrics["items"] == 10_006 and metrics["calls"] == calls
    assert metrics["internal_errors"] == 0
    assert metrics["timeouts"] >= 6  # the slow cases really were cut off


# --- life cycle, metrics, the verl form --------------------------------------------------------

def test_cache_hit_rate_for_grpo_groups():
    truths = [GT, GT.replace("(problem p)", "(problem q)")]
    completions, gts = [], []
    for gt in truths:  # G = 8 rollouts per prompt
        completions += [RENAMED, WRONG] * 4
        gts += [gt] * 8
    with PlanetariumReward(workers=1) as reward:
        reward(completions=completions, problem_pddl=gts)
        first = reward.metrics()
        reward(completions=completions, problem_pddl=gts)
        second = reward.metrics()
    assert first["cache_misses"] == 2 and first["cache_hits"] == 14
    assert second["cache_misses"] == 2 and second["cache_hit_rate"] == 30 / 32
    assert second["calls"] == 2 and second["items"] == 32 and second["correct"] == 16


def test_metrics_are_plain_json_before_and_after_calls():
    with PlanetariumReward(workers=1) as reward:
        json.dumps(reward.metrics(), allow_nan=False)
        assert reward(prompts=[], completions=[], problem_pddl=[]) == []
        reward(completions=[RENAMED], problem_pddl=[GT])
        metrics = json.loads(json.dumps(reward.metrics(), allow_nan=False))
        assert metrics["items"] == 1 and metrics["calls"] == 2


def test_a_closed_reward_starts_again_and_workers_end_with_it():
    reward = PlanetariumReward(workers=2)
    assert reward(completions=[RENAMED], problem_pddl=[GT]) == [1.0]
    processes = [w.process for w in reward._loop.pool.workers]
    reward.close()
    assert not any(p.is_alive() for p in processes)
    assert reward(completions=[RENAMED], problem_pddl=[GT]) == [1.0]
    reward.close()


def test_workers_outlive_the_thread_that_started_them_and_are_replaced_if_killed():
    with PlanetariumReward(workers=2) as reward:
        with ThreadPoolExecutor(1) as executor:  # verl calls from short-lived executor threads
            call = executor.submit(reward, completions=[RENAMED], problem_pddl=[GT])
            assert call.result() == [1.0]
        time.sleep(0.2)
        workers = [w.process for w in reward._loop.pool.workers]
        assert all(p.is_alive() for p in workers)
        os.kill(workers[0].pid, signal.SIGKILL)
        workers[0].join()
        assert reward(completions=[RENAMED] * 4, problem_pddl=[GT] * 4) == [1.0] * 4
        assert reward.metrics()["internal_errors"] == 0


def test_compute_score_is_the_verl_form():
    assert compute_score("planetarium", RENAMED, GT) == 1.0
    assert compute_score("planetarium", WRONG, GT, {"index": 3}) == 0.0
    anchored = RENAMED.replace("x", "b1")  # keeps b1, renames b2: fine unless b2 is anchored
    assert compute_score("planetarium", anchored, GT, {"anchored_objects": ["b2"]}) == 0.0
    assert compute_score("planetarium", anchored, GT, {"anchored_objects": ["b1"]}) == 1.0
    assert compute_score(data_source="x", solution_str="<think>", ground_truth=GT,
                         extra_info={"is_placeholder": True}, reward_router_address=None) == 0.0


def test_importing_the_reward_loads_no_heavy_stack():
    code = ("import sys, planetarium.reward, planetarium; "
            "print(sorted(m for m in ('torch', 'transformers', 'vllm', 'trl', 'peft', 'datasets') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
