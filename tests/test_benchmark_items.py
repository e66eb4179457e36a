"""Benchmark.items: the framework's one reading of load_items enforces the contract where it can
(the limit, row shapes, unique ids); check_benchmark reports a load_items that ignores the limit;
eval run reads items through it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from planetarium.benchmarks import ItemsError
from planetarium.config import ConfigError, build
from planetarium.testing.extensions import check_benchmark

PACKAGE = Path(__file__).resolve().parents[1] / "examples" / "plugin"
sys.path.insert(0, str(PACKAGE))
from planetarium_example.arith import ArithConfig, ToyArith  # noqa: E402

ROWS = [{"id": f"q{i}", "a": i, "b": 1} for i in range(6)]


class Returns(ToyArith):
    """A benchmark whose load_items returns ``rows`` whatever the config says."""

    name = "returns"

    def __init__(self, rows):
        self.rows = rows

    def load_items(self, config):
        return self.rows


def _config(limit=None):
    return build(ArithConfig, {"name": "returns", "dataset": "unused", "limit": limit})


def test_the_framework_cuts_to_the_limit_a_benchmark_ignored():
    bench = Returns(ROWS)
    assert [row["id"] for row in bench.items(_config(limit=2))] == ["q0", "q1"]
    assert bench.items(_config()) == ROWS
    assert "load_items returned 6 items for limit 4 (Benchmark.items cuts them; apply the limit " \
           "to read less)" in check_benchmark(bench, _config(limit=4), max_items=1, timeout_s=2.0)


@pytest.mark.parametrize("rows, complaint", [
    ((), "must return a list of rows, got tuple"),
    ([["q0", 1, 2]], "every item must be a dict with an 'id'"),
    ([{"a": 1, "b": 2}], "every item must be a dict with an 'id'"),
    ([{"id": True, "a": 1, "b": 2}], "every item must be a dict with an 'id'"),
    ([{"id": 1, "a": 1, "b": 2}, {"id": "1", "a": 2, "b": 2}], "item id '1' is not unique"),
])
def test_rows_that_break_the_contract_are_one_error_naming_the_benchmark(rows, complaint):
    with pytest.raises(ItemsError, match=complaint) as caught:
        Returns(rows).items(_config())
    assert str(caught.value).startswith("returns: ")


def test_a_repeated_id_past_the_limit_is_not_read():
    rows = [*ROWS, {"id": "q0", "a": 0, "b": 0}]
    assert len(Returns(rows).items(_config(limit=6))) == 6


def test_an_unreadable_dataset_is_a_config_error(tmp_path):
    (tmp_path / "bad.jsonl").write_text('{"id": "q1", "a": 1}\n')
    for dataset in (tmp_path / "missing.jsonl", tmp_path / "bad.jsonl"):
        config = build(ArithConfig, {"name": "toy-arith", "dataset": str(dataset)})
        with pytest.raises(ConfigError) as caught:
            ToyArith().items(config)
        assert caught.value.key == "benchmark.dataset"
