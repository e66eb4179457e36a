"""Code written for the original Planetarium package works (issue 31.5).

The original (github.com/BatsResearch/planetarium) exports ``DOMAINS`` (domain name -> PDDL
text) and the modules ``builder`` (``build(pddl) -> ProblemGraph``), ``oracle``
(``fully_specify``, ``plan``, ``plan_to_string``) and ``metric`` (``equals``, ``isomorphic``);
its ``evaluate`` takes the domain's PDDL text as ``domain_str``.  A caller's own time limit
(SIGALRM and a handler that raises) must reach the caller; a timeout is logged as such.
"""

from __future__ import annotations

import json
import logging
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from test_corpus import CASES

from planetarium.domains import available_domains
from planetarium.grading import Status, grade
from planetarium.strips.forced import forget_ground_tasks
from planetarium.strips.plan_io import parse_plan
from planetarium.strips.validate import validate_plan

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SWITCHES = (EXAMPLES / "switches-domain.pddl").read_text()
SWITCHES_TRUTH = (EXAMPLES / "switches-truth.pddl").read_text()
SWITCHES_ANSWER = (EXAMPLES / "switches-answer.pddl").read_text()


def _tower(n: int, prefix: str) -> str:
    """n blocks on the table, goal one tower: a pair that takes grading a while when renamed."""
    names = [f"{prefix}{i}" for i in range(n)]
    init = " ".join(f"(on-table {b}) (clear {b})" for b in names)
    goal = " ".join(f"(on {a} {b})" for a, b in zip(names, names[1:], strict=False))
    return (f"(define (problem t) (:domain blocksworld) (:objects {' '.join(names)}) "
            f"(:init (arm-empty) {init}) (:goal (and {goal})))")


def test_the_original_public_names_are_there():
    from planetarium import DOMAINS, builder, metric, oracle

    assert DOMAINS == {name: d.pddl for name, d in available_domains().items()}
    assert {"blocksworld", "gripper", "floor-tile", "rover-single"} <= set(DOMAINS)
    assert "(define (domain blocksworld)" in " ".join(DOMAINS["blocksworld"].split()).lower()
    assert callable(builder.build) and callable(metric.equals) and callable(metric.isomorphic)
    assert callable(oracle.fully_specify) and callable(oracle.plan)
    assert issubclass(oracle.DomainNotSupportedError, LookupError)
    import planetarium.builder  # the module form of the import works too

    assert planetarium.builder.build is builder.build
    with pytest.raises(AttributeError):
        import planetarium as package

        package.NOT_A_NAME  # noqa: B018 - the attribute lookup is the test


def _plain_identity_cases():
    for name, case in CASES:
        if (case["mode"] == "identity" and not case.get("anchored_objects")
                and not case.get("relax_typing") and case["expected"] in ("equivalent",
                                                                         "not-equivalent")):
            yield name, case


def test_builder_oracle_metric_decide_as_the_grader_does_on_the_corpus():
    """The original's pipeline — build, fully specify, compare — on this package's pieces
    agrees with the conformance corpus's verdicts wherever that pipeline applies (identity mode,
    goals that are conjunctions of atoms, both problems solvable)."""
    from planetarium import builder, metric, oracle

    checked = 0
    for name, case in _plain_identity_cases():
        gt, pred = builder.build(case["gt"]), builder.build(case["pred"])
        if not (gt.problem.has_plain_goal and pred.problem.has_plain_goal):
            continue
        if not (grade(case["gt"], case["pred"]).solvable and grade(case["gt"], case["gt"]).solvable):
            continue  # the original's pipeline fully specifies solvable problems only
        same_init = metric.isomorphic(gt.init(), pred.init())
        verdict = same_init and metric.equals(oracle.fully_specify(gt), oracle.fully_specify(pred))
        assert verdict == (case["expected"] == "equivalent"), name
        checked += 1
    assert checked >= 20


def test_oracle_plan_is_a_plan_the_validator_accepts():
    from planetarium import builder, oracle

    for text in (_tower(5, "b"), (EXAMPLES / "truth.pddl").read_text()):
        problem = builder.build(text)
        steps = oracle.plan(problem)
        replayed = parse_plan(oracle.plan_to_string(steps))
        assert replayed == steps
        assert validate_plan(problem.domain_definition.definition, problem.problem, replayed).ok


def test_metric_equals_placeholder_compares_scenes_separately():
    from planetarium import builder, metric

    start = ("(define (problem t) (:domain blocksworld) (:objects b0 b1 b2) (:init (arm-empty) "
             "(on b0 b1) (on-table b1) (clear b0) (on-table b2) (clear b2)) (:goal (and {})))")
    on_top, on_bottom = builder.build(start.format("(on b2 b0)")), builder.build(
        start.format("(on b2 b1)"))
    # the initial state tells b0 (on top) from b1 (below it): one renaming cannot map both goals
    assert not metric.equals(on_top, on_bottom)
    assert metric.equals(on_top, on_bottom, is_placeholder=True)
    assert not metric.isomorphic(on_top, on_bottom)
    assert metric.isomorphic(on_top.goal(), on_bottom.goal())
    assert builder.build(start.format("(on b2 b0)")) == on_top != on_bottom
    assert hash(builder.build(start.format("(on b2 b0)"))) == hash(on_top)


def _grade_domain_cli(answer: str, tmp_path: Path) -> dict:
    (tmp_path / "answer.pddl").write_text(answer)
    done = subprocess.run([sys.executable, "-m", "planetarium.cli", "grade", "--domain",
                           str(EXAMPLES / "switches-domain.pddl"),
                           str(EXAMPLES / "switches-truth.pddl"), str(tmp_path / "answer.pddl"),
                           "--json"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    return json.loads(done.stdout)


@pytest.mark.parametrize("answer", [
    SWITCHES_ANSWER,
    SWITCHES_ANSWER.replace("(:goal (lit y))", "(:goal (lit x))"),
    SWITCHES_ANSWER.replace("(:goal (lit y))", "(:goal (and (lit y) (lit x)))"),
    SWITCHES_ANSWER.replace("(:goal (lit y))", "(:goal (lit z))"),
])
def test_evaluate_with_domain_str_grades_what_grade_domain_grades(answer, tmp_path):
    import planetarium

    cli = _grade_domain_cli(answer, tmp_path)
    expected = (cli["parseable"] is True, cli["solvable"] is True,
                cli["equivalent"] is True and cli["solvable"] is True)
    assert planetarium.evaluate(SWITCHES_TRUTH, answer, SWITCHES) == expected
    assert planetarium.evaluate(SWITCHES_TRUTH, answer, domain_str=SWITCHES) == expected


def test_evaluate_with_domain_str_on_the_first_example_is_correct():
    import planetarium

    assert planetarium.evaluate(SWITCHES_TRUTH, SWITCHES_ANSWER, SWITCHES) == (True, True, True)
    # without the domain it cannot be read, as in the original without its planner
    assert planetarium.evaluate(SWITCHES_TRUTH, SWITCHES_ANSWER) == (False, False, False)
    from planetarium import builder

    assert builder.build(SWITCHES_ANSWER, SWITCHES).domain == "switches"


def test_a_domain_str_that_cannot_be_read_is_undecided_and_logged(caplog):
    import planetarium

    caplog.set_level(logging.WARNING, logger="planetarium")
    assert planetarium.evaluate(SWITCHES_TRUTH, SWITCHES_ANSWER, "(define (domain") == (
        False, False, False)
    assert any("domain_str" in r.getMessage() for r in caplog.records)


class CallersTimeLimit(Exception):
    """What a user's SIGALRM wrapper raises (not one of the grader's exceptions)."""


def _raise_callers_limit(signum, frame):
    raise CallersTimeLimit()


@pytest.fixture
def sigalrm():
    previous = signal.signal(signal.SIGALRM, _raise_callers_limit)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("entry", ["evaluate", "grade"])
def test_a_callers_sigalrm_exception_reaches_the_caller(entry, sigalrm):
    """The wrapper public users put around ``evaluate``: ``signal.alarm`` and a handler that
    raises.  The exception reaches their ``except`` clause instead of becoming an internal
    error."""
    import planetarium

    gt, pred = _tower(12000, "b"), _tower(12000, "x")  # about 0.5 s of grading, cut short
    call = planetarium.evaluate if entry == "evaluate" else grade
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    with pytest.raises(CallersTimeLimit):
        call(gt, pred, timeout_s=600)


def test_the_graders_own_failures_are_still_converted(sigalrm, monkeypatch):
    """With a handler installed, an exception of the grader's own code is still an
    internal-error verdict (it was not raised by the handler)."""
    import planetarium.grading as grading

    def broken(*args, **kwargs):
        raise KeyError("a bug")

    monkeypatch.setattr(grading, "grade_strict", broken)
    result = grading.grade(_tower(3, "b"), _tower(3, "b"))
    assert result.status is Status.INTERNAL_ERROR and "KeyError" in result.reason


def test_a_timeout_is_logged_as_a_timeout(caplog):
    import planetarium

    caplog.set_level(logging.INFO, logger="planetarium")
    gt, pred = _tower(3000, "b"), _tower(3000, "x")
    assert grade(gt, pred, timeout_s=0.05).status is Status.TIMEOUT  # the pair does time out
    caplog.clear()
    assert planetarium.evaluate(gt, pred, timeout_s=0.05)[2] is False  # undecided reads False
    timeouts = [r for r in caplog.records if "timed out" in r.getMessage()]
    assert [r.levelno for r in timeouts] == [logging.WARNING]
    assert timeouts[0].name == "planetarium" and "not a wrong one" in timeouts[0].getMessage()
    unsupported = _tower(3, "b").replace("(:goal", "(:metric minimize (total-cost)) (:goal")
    caplog.clear()
    planetarium.evaluate(_tower(3, "b"), unsupported)
    assert not any("timed out" in r.getMessage() for r in caplog.records)
    assert any("undecided (unsupported" in r.getMessage() for r in caplog.records)


def test_the_original_modules_evaluate_and_downward_work():
    """``from planetarium.evaluate import evaluate`` and ``from planetarium import downward``,
    as the original's code imports them; ``planetarium.evaluate(...)`` keeps answering after the
    module import rebinds the name (in a fresh interpreter: the import order matters)."""
    script = (
        "import sys, planetarium\n"
        "from planetarium.evaluate import evaluate\n"
        "from planetarium import DOMAINS, downward\n"
        "gt, answer = sys.argv[1], sys.argv[2]\n"
        "assert evaluate(gt, answer) == planetarium.evaluate(gt, answer) == (True, True, True)\n"
        "plan, cost = downward.plan(DOMAINS['blocksworld'], gt, downward='fast-downward.py',"
        " alias='lama-first')\n"
        "assert cost == len(plan.splitlines()) and downward.validate(DOMAINS['blocksworld'],"
        " gt, plan, val='validate')\n"
        "assert not downward.validate(DOMAINS['blocksworld'], gt, '(pick-up b1)')\n"
        "print('ok')\n")
    gt = _tower(3, "b")
    done = subprocess.run([sys.executable, "-c", script, gt, _tower(3, "x")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_downward_plan_without_a_plan_answers_none_and_infinity():
    from planetarium import DOMAINS, downward

    stuck = ("(define (problem s) (:domain blocksworld) (:objects a) (:init (on-table a) "
             "(clear a)) (:goal (holding a)))")  # the arm is not empty, and never will be
    assert downward.plan(DOMAINS["blocksworld"], stuck) == (None, float("inf"))


def test_oracle_calls_are_entry_points_with_a_time_limit_of_their_own():
    """A domain given as text has no closed form: ``oracle.fully_specify`` runs the generic
    engine, which needs a deadline; each oracle call makes its own (``timeout_s``, default the
    grader's), so none needs to be in force, and running past it raises ResourceLimitError."""
    from planetarium import builder, downward, oracle
    from planetarium.compat import TIMEOUT_S
    from planetarium.errors import ResourceLimitError
    from planetarium.grading import GradeOptions

    assert TIMEOUT_S == GradeOptions().timeout_s
    truth = builder.build(SWITCHES_TRUTH, domain_str=SWITCHES)
    full = oracle.fully_specify(truth)
    assert full.problem.goal == truth.problem.goal | {("wired", "s1", "l1"), ("wired", "s2", "l2")}
    steps = oracle.plan(truth)
    assert validate_plan(truth.domain_definition.definition, truth.problem, steps).ok
    for call in (oracle.fully_specify, oracle.plan):
        forget_ground_tasks()  # answers found above are kept (and returned past any deadline)
        with pytest.raises(ResourceLimitError, match="time limit"):
            call(truth, timeout_s=1e-6)
    forget_ground_tasks()
    with pytest.raises(ResourceLimitError):
        downward.plan(SWITCHES, SWITCHES_TRUTH, timeout_s=1e-6)


def test_the_original_names_not_provided_fail_in_one_line_saying_what_to_use():
    from planetarium import DOMAINS

    with pytest.raises(KeyError) as missing:
        DOMAINS["rover"]
    assert "rover-single" in str(missing.value) and "domain_str" in str(missing.value)
    with pytest.raises(KeyError, match="not a registered domain"):
        DOMAINS["sokoban"]
    with pytest.raises(ImportError) as moved:
        from planetarium.graph import ProblemGraph  # noqa: F401 - the import is the test
    assert "from planetarium.builder import ProblemGraph" in str(moved.value)
    assert "\n" not in str(moved.value) and "\n" not in str(missing.value)
    from planetarium.builder import ProblemGraph  # where it is

    assert ProblemGraph.__name__ == "ProblemGraph"


def test_the_readme_original_api_block_runs():
    """The README's block for code written against the original package, run as it is."""
    readme = (ROOT / "README.md").read_text()
    start = readme.index("from planetarium import DOMAINS, builder, downward, metric, oracle")
    start = readme.rindex("```python\n", 0, start) + len("```python\n")
    block = readme[start:readme.index("```", start)]
    gt = _tower(3, "b")
    names = {"gt_pddl_str": gt, "pred_pddl_str": gt, "gt": gt, "pred": gt,
             "domain_str": available_domains()["blocksworld"].pddl}
    exec(compile(block, "README.md", "exec"), names)  # the project's own README, not input
    assert names["parseable"] and names["equivalent"] and names["cost"] >= 1
