"""Hostile model output never escapes ``grade`` and never exceeds its time limit."""

from __future__ import annotations

import json
import random
import time
from importlib.resources import files

import pytest

from planetarium.grading import Status, grade
from planetarium.testing.fuzz import MUTATORS, hostile_outputs

TRUTHS = sorted({json.loads(line)["gt"] for line in
                 files("planetarium").joinpath("samples", "pairs.jsonl").read_text().splitlines()})


def _fuzz(n: int, seed: int) -> None:
    rng = random.Random(seed)
    for name, text in hostile_outputs(TRUTHS, n, rng):
        start = time.monotonic()
        result = grade(rng.choice(TRUTHS), text, timeout_s=5.0)
        assert time.monotonic() - start < 6.0, name
        assert result.status is not Status.INTERNAL_ERROR, (name, result.reason)
        assert result.status in (Status.DECIDED, Status.UNSUPPORTED, Status.TIMEOUT), name
        assert result.reason, name
        if result.parseable is False:
            assert result.equivalent is None and result.solvable is None


@pytest.mark.parametrize("mutator", sorted(MUTATORS))
def test_each_mutator(mutator):
    rng = random.Random(1)
    for _ in range(5):
        text = MUTATORS[mutator](rng.choice(TRUTHS), rng)
        result = grade(rng.choice(TRUTHS), text, timeout_s=5.0)
        assert result.status is not Status.INTERNAL_ERROR, result.reason


def test_fuzz_quick():
    _fuzz(500, seed=0)


@pytest.mark.slow
def test_fuzz_ten_thousand():
    _fuzz(10_000, seed=1)
