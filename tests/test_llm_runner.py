"""The batch loop, in process, with a scripted backend: resume, refusal, selection, records."""

from __future__ import annotations

import json

import pytest
from llm_fixtures import demo_rows, sections

import planetarium.dataset
import planetarium.llm.backends as backends
from planetarium.benchmarks.planetarium import BENCHMARK
from planetarium.llm.backends import BackendError, Completion
from planetarium.llm.config import make_config
from planetarium.llm.runner import COMPLETIONS, run_eval
from planetarium.llm.store import RunDirError, read_jsonl

ROWS = demo_rows(10)


class ScriptedBackend:
    """Answers with the item's ground truth; crashes after ``fail_after`` batches if set."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.fail_after = fail_after
        self.batches: list[int] = []
        self.answers = {row["natural_language"]: row["problem_pddl"] for row in ROWS}

    def generate(self, conversations):
        if self.fail_after is not None and len(self.batches) == self.fail_after:
            raise BackendError("engine died")
        self.batches.append(len(conversations))
        texts = [
            next(a for nl, a in self.answers.items() if nl in c[0]["content"])
            for c in conversations
        ]
        return [Completion(text=t, finish_reason="stop", completion_tokens=5) for t in texts]

    def close(self) -> None:
        pass


@pytest.fixture
def fake(monkeypatch):
    """Serve ROWS as the dataset and route make_backend to the scripted backend it returns."""
    monkeypatch.setattr(
        planetarium.dataset,
        "load_rows",
        lambda source, split=None: [dict(r) for r in ROWS],
        raising=False,
    )
    state = {"backend": ScriptedBackend()}
    monkeypatch.setattr(backends, "make_backend", lambda config, model: state["backend"])
    return state


def _config(**extra):
    return make_config(sections("scripted", **{"dataset": "rows.jsonl", "batch_size": 3, **extra}))


def test_run_writes_one_line_per_item(fake, tmp_path):
    summary = run_eval(_config(), tmp_path)
    assert summary == {
        "run_dir": str(tmp_path),
        "items": 10,
        "skipped": 0,
        "generated": 10,
        "errors": 0,
    }
    records = read_jsonl(tmp_path / COMPLETIONS)
    assert sorted(r["id"] for r in records) == sorted(r["id"] for r in ROWS)
    first = records[0]
    assert first["config_hash"] == _config().config_hash() and len(first["prompt_hash"]) == 16
    assert first["output"].startswith("(define (problem")
    assert set(first["timings"]) == {"latency_s", "batch_s", "at"}
    manifest = json.loads((tmp_path / "run.json").read_text())
    assert manifest["n_items"] == 10 and manifest["prompt_template_hash"]
    assert fake["backend"].batches == [3, 3, 3, 1]


def test_crash_then_resume_loses_and_duplicates_nothing(fake, tmp_path):
    fake["backend"] = ScriptedBackend(fail_after=2)
    with pytest.raises(BackendError):
        run_eval(_config(), tmp_path)
    assert len(read_jsonl(tmp_path / COMPLETIONS)) == 6
    fake["backend"] = ScriptedBackend()
    summary = run_eval(_config(batch_size=8), tmp_path)  # speed settings may change on resume
    assert (summary["skipped"], summary["generated"]) == (6, 4)
    ids = [r["id"] for r in read_jsonl(tmp_path / COMPLETIONS)]
    assert len(ids) == len(set(ids)) == 10
    assert run_eval(_config(), tmp_path)["generated"] == 0


def test_resume_with_another_config_is_refused(fake, tmp_path):
    run_eval(_config(limit=4), tmp_path)
    with pytest.raises(RunDirError, match=r"other settings \(model\.max_new_tokens: .* -> 5\)"):
        run_eval(_config(limit=4, max_new_tokens=5), tmp_path)


def test_selection_limit_and_per_domain_sample(fake):
    def select_rows(config):
        return BENCHMARK.load_items(config.benchmark)

    assert [r["id"] for r in select_rows(_config(limit=3))] == [r["id"] for r in ROWS[:3]]
    sampled = select_rows(_config(sample_per_domain=2, seed=1))
    assert sorted(r["domain"] for r in sampled) == ["blocksworld"] * 2 + ["gripper"] * 2
    assert sampled == select_rows(_config(sample_per_domain=2, seed=1))  # seeded, reproducible
