"""A harness run that cannot start ends in one line naming the cause and the fix, in every
adapter (issue 40.1, 39.5): an empty selection names the splits the dataset has, a missing path
names the path, anything a benchmark's ``load_items`` raises becomes the adapter's error, an
unknown Inspect setting lists the settings; relative dataset paths are read against the
directory the run started in, Inspect's file form included."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from llm_fixtures import offline_env

from planetarium.adapters import common
from planetarium.benchmarks.acpbench import AcpBenchmark

ACP = Path(__file__).parent / "fixtures" / "acp"
HOW = "-T KEY=VALUE"


def _error(settings: dict, bench: str = "acpbench", **kwargs) -> str:
    bench_ = common.benchmark(bench)
    with pytest.raises(common.AdapterError) as stopped:
        common.load_items(bench_, common.benchmark_config(bench_, settings, HOW, **kwargs), HOW)
    message = str(stopped.value)
    assert "\n" not in message
    return message


def test_an_empty_split_names_the_splits_the_dataset_has():
    message = _error({"dataset": str(ACP)})
    assert message == (f"acpbench: no items in split `test` of dataset {ACP}: it has `dev` "
                       "(pass -T split=dev)")


def test_an_empty_selection_without_known_splits_names_what_narrowed_it():
    arb = Path(__file__).parent / "fixtures" / "arb"
    message = _error({"dataset": str(arb), "split": "no-such-split"}, bench="arb")
    assert message == (f"arb: no items in split `no-such-split` of dataset {arb} (pass another "
                       "-T split=NAME, or another dataset)")
    message = _error({"dataset": str(ACP), "split": "dev", "tasks": ["nexta"], "kinds": ["mcq"],
                      "prompts": str(ACP / "configs")}, bench="acpbench")
    assert message == (f"acpbench: no items in split `dev` of dataset {ACP} with kinds, tasks as "
                       "set (pass another -T split=NAME, or another dataset)")


def test_a_missing_path_is_one_line_naming_it():
    message = _error({"dataset": "no/such/folder", "split": "dev"})
    assert message == ("acpbench: dataset no/such/folder: no/such/folder: no such file or "
                       "folder (pass another with -T dataset=PATH)")


class _Broken(AcpBenchmark):
    """A benchmark whose loader fails the way third-party code does (not our error type)."""

    def load_items(self, config):
        return {}["question_file"]


def test_any_load_items_exception_is_the_adapters_one_line():
    bench = _Broken()
    config = common.benchmark_config(bench, {"dataset": str(ACP)}, HOW)
    with pytest.raises(common.AdapterError) as stopped:
        common.load_items(bench, config, HOW)
    assert str(stopped.value) == (f"acpbench: dataset {ACP}: KeyError: 'question_file' (pass "
                                  "another with -T dataset=PATH)")


def test_a_relative_dataset_is_read_against_the_runs_directory(tmp_path):
    bench = common.benchmark("acpbench")
    config = common.benchmark_config(bench, {"dataset": "acp"}, HOW, base=ACP.parent)
    assert config.dataset == str(ACP)
    hub_id = common.benchmark_config(common.benchmark("planetarium"),
                                     {"dataset": "BatsResearch/planetarium"}, HOW, base=tmp_path)
    assert hub_id.dataset == "BatsResearch/planetarium"  # not a path here: left as it is


def test_an_unknown_setting_lists_the_settings_where_every_key_is_ours():
    bench = common.benchmark("acpbench")
    with pytest.raises(common.AdapterError, match=r"no setting 'kind': its settings are "
                       r"dataset, just_rule, kinds, .* \(pass them with -T KEY=VALUE\)"):
        common.benchmark_config(bench, {"dataset": str(ACP), "kind": "bool"}, HOW, strict=True)
    # lm-eval hands over the model's arguments too: not ours, not refused there
    common.benchmark_config(bench, {"dataset": str(ACP), "pretrained": "m"}, HOW)


def test_lm_eval_stops_with_the_line():
    pytest.importorskip("lm_eval")
    from planetarium.adapters.lm_eval import utils

    with pytest.raises(SystemExit) as stopped:
        utils.load_dataset("acpbench", dataset=str(ACP))
    assert str(stopped.value) == (f"Error: acpbench: no items in split `test` of dataset {ACP}: "
                                  """it has `dev` (pass --metadata '{"split": "dev"}')""")


@pytest.mark.parametrize("form", ["planetarium/planetarium",
                                  "{repo}/planetarium/adapters/inspect_task.py@planetarium"])
def test_inspect_from_a_checkout_reads_relative_paths_here_and_stops_in_one_line(form, tmp_path):
    """Both forms from a checkout (the entry point's name too): ``-T dataset=`` relative to the
    working directory, not to the task file's folder, and the error in one line, exit 1."""
    pytest.importorskip("inspect_ai")
    repo = Path(__file__).resolve().parents[1]
    (tmp_path / "data").symlink_to(ACP, target_is_directory=True)
    done = subprocess.run(
        [sys.executable, "-m", "inspect_ai", "eval", form.format(repo=repo), "--model",
         "mockllm/model", "-T", "benchmark=acpbench", "-T", "dataset=data", "--display", "plain",
         "--log-dir", str(tmp_path / "logs")],
        env={**offline_env(), "PWD": str(tmp_path), "COLUMNS": "400"}, cwd=tmp_path,
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr
    lines = [line.strip() for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert (f"Error: acpbench: no items in split `test` of dataset {tmp_path / 'data'}: it has "
            "`dev` (pass -T split=dev)") in lines
