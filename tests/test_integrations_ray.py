"""Grading on Ray Data gives ``grade --batch``'s rows, on a local Ray instance.

Ray installs where verl's reward path is tested (``.ci/verl-tests``: ``.venv-verl``, layered on
the main environment), where every test here must run; elsewhere the module skips.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", exc_type=ImportError)
pytest.importorskip("ray.data", exc_type=ImportError)

from click.testing import CliRunner  # noqa: E402
from integration_cases import TIMEOUT_S, cases, check_kind  # noqa: E402

from planetarium.cli import main  # noqa: E402
from planetarium.grading import GradeOptions, grade  # noqa: E402
from planetarium.integrations.ray import Grader, grade_dataset  # noqa: E402

PLACEHOLDER_GT = """(define (problem p) (:domain blocksworld) (:objects a b c)
  (:init (arm-empty) (on a b) (on-table b) (on-table c) (clear a) (clear c))
  (:goal (and (on c a))))"""
#: c on the tower's foot instead of its top: equivalent as placeholders only.
PLACEHOLDER_PRED = PLACEHOLDER_GT.replace("(on c a)", "(on c b)")


def pairs() -> list[dict]:
    """``grade --batch`` items of every kind: the cases' answers, placeholder and anchored
    items, an item without an id and items that are no pairs at all."""
    items: list[dict] = [{"id": row["id"], "gt": row["problem_pddl"], "pred": answer,
                          "model": f"m-{kind}"} for row, kind, answer in cases()]
    items += [
        {"id": "placeholder", "gt": PLACEHOLDER_GT, "pred": PLACEHOLDER_PRED, "is_placeholder": True},
        {"id": "identity", "gt": PLACEHOLDER_GT, "pred": PLACEHOLDER_PRED, "is_placeholder": False},
        {"id": "anchored", "gt": PLACEHOLDER_GT, "pred": PLACEHOLDER_PRED, "is_placeholder": True,
         "anchored_objects": ["a"]},
        {"gt": PLACEHOLDER_GT, "pred": PLACEHOLDER_GT},
        {"id": "no-gt", "pred": PLACEHOLDER_GT},
        {"id": "no-pred", "gt": PLACEHOLDER_GT, "pred": None},
    ]
    return items


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    context = ray.data.DataContext.get_current()
    context.execution_options.preserve_order = True
    context.enable_progress_bars = False
    yield
    ray.shutdown()


def batch_rows(tmp_path: Path, items: list[dict]) -> list[dict]:
    """What ``planetarium grade --batch`` writes for ``items`` (2 workers, the tests' limit),
    less each row's ``input_sha256``: the digest of its input line, which serves ``--resume``
    and which rows of a Ray dataset, read and parsed already, do not have."""
    source, out = tmp_path / "pairs.jsonl", tmp_path / "results.jsonl"
    source.write_text("".join(json.dumps(item) + "\n" for item in items))
    result = CliRunner().invoke(main, ["grade", "--batch", str(source), "--out", str(out),
                                       "--workers", "2", "--timeout", str(TIMEOUT_S)])
    assert out.exists(), result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(len(row.pop("input_sha256")) == 64 for row in rows)
    return rows


def test_ray_data_rows_are_the_rows_of_grade_batch(local_ray, tmp_path):
    items = pairs()
    expected = batch_rows(tmp_path, items)
    dataset = ray.data.read_json(str(tmp_path / "pairs.jsonl"))
    got = grade_dataset(dataset, options=GradeOptions(timeout_s=TIMEOUT_S), actors=2,
                        batch_size=4).take_all()
    assert len(got) == len(expected) == len(items)
    for row, want in zip(got, expected, strict=True):
        if want["status"] == "timeout":  # where the limit struck may differ: the status may not
            assert (row["id"], row["status"], row["correct"]) == (want["id"], "timeout", False)
        else:
            assert row == want
    statuses = [row["status"] for row in got]
    assert statuses == ["decided"] * 4 + ["timeout"] + ["decided"] * 4 + ["invalid-input"] * 2
    assert [row["correct"] for row in got[5:9]] == [True, False, False, True]
    for row, (case, kind, answer) in zip(got, cases(), strict=False):
        check_kind(kind, grade(case["problem_pddl"], answer, timeout_s=TIMEOUT_S))
        assert row["correct"] == (kind == "right")


def test_kept_columns_ride_beside_the_result(local_ray):
    items = pairs()[:4]
    got = grade_dataset(ray.data.from_items(items), options=GradeOptions(timeout_s=TIMEOUT_S),
                        actors=1, keep=["pred", "model"]).take_all()
    assert [(row["pred"], row["model"]) for row in got] == [(i["pred"], i["model"]) for i in items]
    assert [row["correct"] for row in got] == [True, True, False, False]


@pytest.mark.parametrize(("settings", "words"), [
    ({"keep": ["status"]}, "status would overwrite"),
    ({"options": GradeOptions(explain=True)}, "explanations do not fit"),
    ({"actors": 0}, "actors must be"),
    ({"workers_per_actor": 0}, "workers_per_actor must be"),
    ({"workers_per_actor": 2}, "Ray has 2 CPU.s.: an actor of 2 grading process.es. would leave none"),
])
def test_bad_settings_are_refused_before_anything_runs(local_ray, settings, words):
    with pytest.raises(ValueError, match=words):
        grade_dataset(ray.data.from_items(pairs()[:1]), **settings)


def test_the_grader_keeps_its_pool_across_batches():
    """One actor's pool serves batch after batch: the second batch starts no process."""
    import pyarrow

    grader = Grader(GradeOptions(timeout_s=TIMEOUT_S), workers=1)
    try:
        batch = pyarrow.Table.from_pylist(pairs()[:2])
        first = grader(batch).to_pylist()
        processes = [worker.process.pid for worker in grader.loop.pool.workers]
        assert grader(batch).to_pylist() == first
        assert [worker.process.pid for worker in grader.loop.pool.workers] == processes
        assert len(processes) == 1 and grader.loop.replaced == 0
    finally:
        grader.close()


def test_the_readme_recipe_prints_grade_batch_verdicts(local_ray, tmp_path):
    """The README's recipe, verbatim, in a fresh interpreter from the repository root, on
    examples/pairs.jsonl; ``RAY_ADDRESS`` points it at the running instance, as at a cluster."""
    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Grading on Ray Data"):]
    recipe = section[section.index("```python\n") + len("```python\n"):section.index("\n```\n")]
    environ = {**os.environ, "RAY_ADDRESS": ray.get_runtime_context().gcs_address}
    run = subprocess.run([sys.executable, "-c", recipe], cwd=root, capture_output=True,
                         text=True, env=environ, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    printed = sorted(line.split(" ", 3)[:3] for line in run.stdout.splitlines())
    source = tmp_path / "pairs.jsonl"
    source.write_text((root / "examples" / "pairs.jsonl").read_text(encoding="utf-8"))
    expected = [json.loads(line) for line in CliRunner().invoke(
        main, ["grade", "--batch", str(source)]).stdout.splitlines()]
    assert printed == sorted([row["id"], row["status"], str(row["correct"])] for row in expected)
