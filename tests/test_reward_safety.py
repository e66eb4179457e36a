"""The reward inside someone else's training loop (issue 30, classes 1-4).

1. One unusable value in a call (an unpicklable, pathological or hostile completion or ground
   truth) costs only its own item, as ``invalid-input``; the pool survives items and results
   that cannot cross a pipe.
2. Calls from several threads run at the same time on the shared workers, each within its own
   budget counted from its own start.
3. A process forked while another thread is inside a call can use the reward (and the pool).
4. Dataset values as pandas and NumPy hand them over (arrays, NumPy scalars, 0 / 1 flags) are
   accepted; a configuring value of any other kind is a :class:`RewardConfigError`, never a
   silent zero.
"""

from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pandas as pd
import pytest
from test_reward import nested_forall

from planetarium.grading import grade
from planetarium.pool import Lost, LostKind, WorkerPool
from planetarium.reward import PlanetariumReward, RewardConfigError, compute_score
from planetarium.reward.verl import shared_reward


@pytest.fixture(autouse=True, scope="module")
def _shared_reward_closed():
    """compute_score's process-wide reward starts workers: stop them after these tests (later
    tests count this process's children)."""
    yield
    shared_reward().close()


GT = """(define (problem p) (:domain blocksworld) (:objects b1 b2)
  (:init (arm-empty) (on-table b1) (on b2 b1) (clear b2))
  (:goal (and (on-table b2) (on b1 b2))))"""
RENAMED = GT.replace("b1", "x").replace("b2", "y")
WRONG = GT.replace("(on b1 b2)", "(on-table b1)")


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


class Hostile:
    """Every method a careless reader might call raises."""

    def _raise(self, *args, **kwargs):
        raise RuntimeError("hostile")

    __str__ = __repr__ = __len__ = __iter__ = __eq__ = __hash__ = __reduce__ = _raise
    __bool__ = __getitem__ = __getattr__ = _raise


class HostileMessage(dict):
    """A chat message whose lookups raise."""

    def get(self, *args, **kwargs):
        raise RuntimeError("hostile message")


class UnpicklableStr(str):
    """Text that is fine to read but refuses to be pickled (and shows itself wrongly)."""

    def __reduce__(self):
        raise TypeError("not picklable")

    def __str__(self):
        return "not the text"


class ErrorWithHostileStr(Exception):
    def __str__(self):
        raise RuntimeError("no message either")


def _raise_on_load(text: str):
    raise ValueError(text)


class Unloadable:
    """Pickles fine, fails when unpickled (in whichever process reads it)."""

    def __reduce__(self):
        return (_raise_on_load, ("cannot load me",))


#: Completions that are no completion at all: each must be invalid-input, its neighbours graded.
UNUSABLE_COMPLETIONS = {
    "generator": lambda: (i for i in range(3)),
    "nested-100000": lambda: nested(100_000),
    "hostile-object": Hostile,
    "hostile-message": lambda: [HostileMessage(role="assistant", content=GT)],
    "unpicklable-function": lambda: (lambda: GT),
    "none": lambda: None,
    "number": lambda: 42,
    "million-non-messages": lambda: list(range(1_000_000)),
    "a-set": lambda: {GT},
}


@pytest.mark.parametrize("workers", [1, 0])
@pytest.mark.parametrize("kind", sorted(UNUSABLE_COMPLETIONS))
def test_one_unusable_completion_never_sinks_the_others(kind, workers):
    bad = UNUSABLE_COMPLETIONS[kind]()
    with PlanetariumReward(workers=workers, undecided_reward=-1.0) as reward:
        got = reward(completions=[RENAMED, bad, WRONG], problem_pddl=[GT] * 3)
        details = reward.last_details
        assert got == [1.0, -1.0, 0.0], [d["reason"] for d in details]
        assert [d["status"] for d in details] == ["decided", "invalid-input", "decided"]
        assert "\n" not in details[1]["reason"] and len(details[1]["reason"]) < 300
        assert reward(completions=[RENAMED], problem_pddl=[GT]) == [1.0]  # the pool is whole
        assert reward.metrics()["internal_errors"] == 0


@pytest.mark.parametrize("workers", [1, 0])
def test_unusable_ground_truths_and_extra_columns_cost_only_their_item(workers):
    truths = [GT, nested(100_000), (i for i in range(2)), Hostile(), UnpicklableStr(GT), GT]
    completions = [RENAMED, RENAMED, RENAMED, RENAMED, UnpicklableStr(RENAMED), WRONG]
    with PlanetariumReward(workers=workers) as reward:
        got = reward(completions=completions, problem_pddl=truths, trainer_state=Hostile(),
                     callback=lambda: None, endless=(i for i in range(10**9)))
        statuses = [d["status"] for d in reward.last_details]
    # a str subclass is read as its characters (never through its methods) and graded
    assert got == [1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    assert statuses == ["decided"] + ["invalid-input"] * 3 + ["decided"] * 2


@pytest.mark.parametrize("column, make, message", [
    ("is_placeholder", Hostile, "is_placeholder must be true or false"),
    ("is_placeholder", lambda: nested(100_000), "is_placeholder must be true or false"),
    ("anchored_objects", Hostile, "anchored objects must be a list of object names"),
    ("anchored_objects", lambda: nested(100_000), "anchored objects must be a list"),
    ("anchored_objects", lambda: [Hostile()], "anchored objects must be a list of object names"),
])
def test_unusable_configuring_values_are_one_line_configuration_errors(column, make, message):
    first = False if column == "is_placeholder" else []
    with PlanetariumReward(workers=1, anchors_column="anchored_objects") as reward:
        with pytest.raises(RewardConfigError, match=message) as raised:
            reward(completions=[GT, GT], problem_pddl=[GT, GT], **{column: [first, make()]})
        assert f"column {column!r}, row 1" in str(raised.value)
        assert "\n" not in str(raised.value) and len(str(raised.value)) < 300
        assert reward(completions=[RENAMED], problem_pddl=[GT]) == [1.0]
    with pytest.raises(RewardConfigError, match="completions must be a sequence"):
        PlanetariumReward(workers=0)(completions=Hostile(), problem_pddl=[GT])


def _echo(item):
    if isinstance(item, str) and item == "unpicklable result":
        return lambda: None
    if isinstance(item, str) and item == "unloadable result":
        return Unloadable()
    if isinstance(item, str) and item == "hostile error":
        raise ErrorWithHostileStr()
    return item


def test_the_pool_reports_unsendable_items_and_results_one_by_one():
    items = [1, lambda: 2, nested(100_000), "unpicklable result", Unloadable(),
             "unloadable result", "hostile error", 8]
    pool = WorkerPool(1, _echo)
    try:
        got = {index: outcome for index, _, outcome in pool.run(items, deadline_s=20)}
        assert got[0] == 1 and got[7] == 8
        for index in range(1, 7):
            assert isinstance(got[index], Lost) and got[index].kind is LostKind.ERROR, index
        assert "could not be sent to a worker" in got[1].why
        assert "could not be sent to a worker" in got[2].why
        assert "result not sent back" in got[3].why
        assert "could not be read in the worker" in got[4].why
        assert "the result could not be read" in got[5].why
        assert got[6].why == "ErrorWithHostileStr"
        assert pool.replaced == 0  # no worker was lost to any of it
    finally:
        pool.close()


# --- 2. concurrent calls -----------------------------------------------------------------

SLOW = nested_forall(6, objects=12)  # past any short limit: 1.6 s at timeout_s=2


def in_threads(target, arguments: list[tuple], timeout_s: float = 120.0) -> None:
    """``target(*args)`` in one thread per entry of ``arguments``, all at once; wait for all."""
    threads = [threading.Thread(target=target, args=args) for args in arguments]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout_s)


def test_concurrent_calls_share_the_workers_each_within_its_own_budget():
    budget, slack = 2.5, 1.5  # slack for a loaded 2-core machine
    with PlanetariumReward(workers=2, timeout_s=2.0, call_budget_s=budget) as reward:
        assert reward(completions=[RENAMED, RENAMED], problem_pddl=[GT, GT]) == [1.0, 1.0]
        start = threading.Barrier(4)
        took = {}

        def call(number: int) -> None:
            start.wait()
            began = time.monotonic()
            reward(completions=[SLOW], problem_pddl=[SLOW])
            took[number] = time.monotonic() - began

        in_threads(call, [(n,) for n in range(4)])
        metrics = reward.metrics()
    assert len(took) == 4 and max(took.values()) <= budget + slack, took
    # two calls ran at once: both their slow items got a worker's verdict (a timeout) before
    # their budgets were spent; one call after another, three would have run out of budget
    assert metrics["timeouts"] == 4 and metrics["budget_exhausted"] <= 2, metrics


def test_many_concurrent_calls_get_their_own_rewards():
    expected = [1.0, 0.0, 1.0, 0.0]
    failures = []
    with PlanetariumReward(workers=2) as reward:
        def calls(seed: int) -> None:
            for i in range(15):
                completions = [RENAMED, WRONG, GT, "(define"] if (seed + i) % 2 else \
                    [WRONG, RENAMED, "(define", GT]
                got = reward(completions=completions, problem_pddl=[GT] * 4)
                want = expected if (seed + i) % 2 else [0.0, 1.0, 0.0, 1.0]
                if got != want:
                    failures.append((seed, i, got))

        in_threads(calls, [(n,) for n in range(6)])
        assert reward.metrics()["calls"] == 90 and reward.metrics()["internal_errors"] == 0
    assert not failures, failures[:3]


# --- 3. fork during a call ---------------------------------------------------------------

def in_forked_child(work, timeout_s: float = 20.0) -> int:
    """Run ``work()`` in a forked child; its exit status (0: it returned True), or -1 when it
    did not finish within ``timeout_s`` (then it is killed)."""
    pid = os.fork()
    if pid == 0:  # the child: never back into pytest
        code = 3
        try:
            code = 0 if work() else 1
        finally:
            os._exit(code)
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return -1


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_child_forked_during_a_call_gets_a_fresh_reward():
    with PlanetariumReward(workers=1, timeout_s=3.0) as reward:
        busy = threading.Thread(target=reward, kwargs={"completions": [SLOW],
                                                       "problem_pddl": [SLOW]})
        busy.start()
        time.sleep(0.5)  # the call is in flight: the pool and the reward hold their state
        code = in_forked_child(
            lambda: reward(completions=[RENAMED, WRONG], problem_pddl=[GT, GT]) == [1.0, 0.0]
            and compute_score("planetarium", RENAMED, GT) == 1.0)
        busy.join(timeout=30)
        assert reward(completions=[RENAMED], problem_pddl=[GT]) == [1.0]  # the parent's too
    assert code == 0, "the forked child blocked (-1) or got wrong rewards"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_compute_score_in_a_child_forked_during_a_compute_score_call():
    busy = threading.Thread(target=compute_score, args=("planetarium", SLOW, SLOW))
    busy.start()
    time.sleep(0.5)
    code = in_forked_child(lambda: compute_score("planetarium", RENAMED, GT) == 1.0)
    busy.join(timeout=30)
    assert code == 0


# --- 4. pandas and NumPy values ----------------------------------------------------------

def stacked(goal: str) -> str:
    """Blocks b1..b4, b1 on b2: the goal decides, with placeholders or not, what is equal."""
    return ("(define (problem p) (:domain blocksworld) (:objects b1 b2 b3 b4)\n"
            "(:init (arm-empty) (on b1 b2) (on-table b2) (on-table b3) (on-table b4) "
            f"(clear b1) (clear b3) (clear b4))\n(:goal (and {goal})))")


PLACEHOLDER_GT, PLACEHOLDER_PRED = stacked("(on b3 b4)"), stacked("(on b2 b3)")
ANCHORED = RENAMED.replace("x", "b1")  # keeps b1, renames b2: fine unless b2 is anchored


def _parquet_rows(tmp_path) -> pd.DataFrame:
    """verl-style rows written to parquet and read back: list columns come back as arrays."""
    frame = pd.DataFrame({
        "gt": [GT, GT, GT, PLACEHOLDER_GT, PLACEHOLDER_GT],
        "answer": [ANCHORED, ANCHORED, ANCHORED, PLACEHOLDER_PRED, PLACEHOLDER_PRED],
        "extra_info": [{"is_placeholder": False, "anchored_objects": ["b2"]},
                       {"is_placeholder": False, "anchored_objects": ["b1"]},
                       {"is_placeholder": False, "anchored_objects": []},
                       {"is_placeholder": True, "anchored_objects": []},
                       {"is_placeholder": False, "anchored_objects": []}],
        "flag": [0, 0, 0, 1, 0]})
    path = tmp_path / "rows.parquet"
    frame.to_parquet(path)
    return pd.read_parquet(path)


def _expected(gt: str, answer: str, placeholder: bool, anchors) -> float:
    return float(grade(gt, answer, is_placeholder=bool(placeholder),
                       anchored_objects=tuple(anchors)).correct)


def test_compute_score_takes_extra_info_as_pandas_reads_it_from_parquet(tmp_path):
    rows = _parquet_rows(tmp_path)
    assert isinstance(rows.iloc[0]["extra_info"]["anchored_objects"], np.ndarray)
    got, want = [], []
    for _, row in rows.iterrows():
        extra = row["extra_info"]
        got.append(compute_score("planetarium", row["answer"], row["gt"], extra))
        want.append(_expected(row["gt"], row["answer"], extra["is_placeholder"],
                              extra["anchored_objects"].tolist()))
    assert got == want == [0.0, 1.0, 1.0, 1.0, 0.0]


@pytest.mark.parametrize("flag", [1, np.int64(1), np.True_, True, np.array(True)])
def test_placeholder_flags_from_csv_and_numpy_round_trips(flag):
    assert compute_score("x", PLACEHOLDER_PRED, PLACEHOLDER_GT, {"is_placeholder": flag}) == 1.0
    off = 0 if isinstance(flag, int) and not isinstance(flag, bool) else np.False_
    assert compute_score("x", PLACEHOLDER_PRED, PLACEHOLDER_GT, {"is_placeholder": off}) == 0.0
    assert compute_score("x", ANCHORED, GT, {"anchored_objects": np.array([], dtype=object)}) == 1.0
    assert compute_score("x", ANCHORED, GT, {"anchored_objects": np.array(["b2"])}) == 0.0


@pytest.mark.parametrize("flag", ["yes", "true", 2, -1, 1.0, np.float64(1.0), float("nan"),
                                  np.int64(2), [True], pd.NA])
def test_other_placeholder_values_are_configuration_errors_not_silent_zeros(flag):
    with pytest.raises(RewardConfigError, match=r"extra_info\['is_placeholder'\]: is_placeholder "
                                                "must be true or false"):
        compute_score("x", PLACEHOLDER_PRED, PLACEHOLDER_GT, {"is_placeholder": flag})
    with PlanetariumReward(workers=0) as reward:
        with pytest.raises(RewardConfigError, match="column 'is_placeholder', row 0"):
            reward(completions=[PLACEHOLDER_PRED], problem_pddl=[PLACEHOLDER_GT],
                   is_placeholder=[flag])


@pytest.mark.parametrize("anchors", ["b1", 7, np.array([1, 2]), [["b1"]]])
def test_other_anchor_values_are_configuration_errors(anchors):
    with pytest.raises(RewardConfigError, match=r"extra_info\['anchored_objects'\]: anchored "
                                                "objects must be a list of object names"):
        compute_score("x", ANCHORED, GT, {"anchored_objects": anchors})


def test_the_reward_takes_pandas_columns(tmp_path):
    rows = _parquet_rows(tmp_path)
    anchors = rows["extra_info"].map(lambda extra: extra["anchored_objects"])
    with PlanetariumReward(workers=1, anchors_column="anchored_objects") as reward:
        got = reward(completions=rows["answer"], problem_pddl=rows["gt"],
                     is_placeholder=rows["flag"], anchored_objects=anchors)
    want = [_expected(gt, answer, flag, names) for gt, answer, flag, names in
            zip(rows["gt"], rows["answer"], rows["flag"], anchors, strict=True)]
    assert got == want == [0.0, 1.0, 1.0, 1.0, 0.0]
