"""Dataset sources: the published dataset's own Parquet files (a small copy in its column layout,
built from published rows) and its Hub id, which offline must fail in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from planetarium.dataset import load_rows
from planetarium.dataset.cli import data_group
from planetarium.dataset.generator import COLUMNS
from planetarium.dataset.sources import PUBLISHED_ID, DatasetSourceError

SAMPLE = Path(__file__).parent / "fixtures" / "published" / "published-sample.jsonl"


@pytest.fixture(scope="module")
def published() -> list[dict]:
    with open(SAMPLE, encoding="utf-8") as stream:
        return [json.loads(line) for line in stream]


@pytest.fixture(scope="module")
def parquet_copy(tmp_path_factory, published) -> Path:
    """The published repository's default configuration: data/{train,test}-*.parquet, the row
    columns only (no split columns)."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path_factory.mktemp("published")
    (out / "data").mkdir()
    for split in ("train", "test"):
        rows = [r for r in published if r["splits"]["heldout"] == split]
        table = pa.Table.from_pylist([{c: r[c] for c in COLUMNS} for r in rows])
        pq.write_table(table, out / "data" / f"{split}-00000-of-00001.parquet")
    return out


def test_the_published_parquet_files_load_with_their_held_out_split(parquet_copy, published):
    rows = load_rows(parquet_copy)
    assert [r["id"] for r in rows] == sorted(r["id"] for r in published)
    heldout = {r["id"]: r["splits"]["heldout"] for r in published}
    assert all(r["split_heldout"] == heldout[r["id"]] for r in rows)
    assert {"random_fold", "split_random"} <= set(rows[0])
    test = load_rows(parquet_copy, "heldout:test+domain:gripper")
    assert test and [r["id"] for r in test] == sorted(
        r["id"] for r in published if r["splits"]["heldout"] == "test" and r["domain"] == "gripper")
    assert load_rows(parquet_copy, "heldout:test")[0]["problem_pddl"].startswith("(define")


def test_an_eval_config_can_point_at_the_published_files(parquet_copy, published):
    from planetarium.benchmarks import get_benchmark
    from planetarium.llm.config import make_config

    config = make_config({"name": "published", "model": {"backend": "transformers", "model": "none"},
                          "benchmark": {"name": "planetarium", "dataset": str(parquet_copy)}})
    selected = get_benchmark("planetarium").load_items(config.benchmark)  # split: heldout:test
    assert len(selected) == sum(r["splits"]["heldout"] == "test" for r in published)


def test_report_reads_the_published_files(parquet_copy):
    result = CliRunner().invoke(data_group, ["report", str(parquet_copy)])
    assert result.exit_code == 0, result.output
    assert "| floor-tile |" in result.output


def test_the_hub_id_offline_fails_in_one_line(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))  # no cached copy to fall back on
    constants = pytest.importorskip("huggingface_hub.constants")
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hf" / "hub"))
    with pytest.raises(DatasetSourceError, match=f"cannot download the dataset '{PUBLISHED_ID}'") as info:
        load_rows(PUBLISHED_ID)
    assert "\n" not in str(info.value) and "data/train-*.parquet" in str(info.value)
    result = CliRunner().invoke(data_group, ["report", PUBLISHED_ID])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and result.output.startswith("Error: cannot download")


def test_a_missing_or_empty_source_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    with pytest.raises(FileNotFoundError):
        load_rows("data/planetarium")  # a path under an existing folder is a path, not a Hub id
    with pytest.raises(DatasetSourceError, match="neither rows.jsonl nor data/"):
        load_rows(tmp_path / "data")
