"""Missing adapters and Hub models out of reach fail in one line, before any model is built."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from llm_fixtures import eval_run_argv, sections, write_eval_config

from planetarium.cli import main
from planetarium.llm.backends import BackendError, make_backend
from planetarium.llm.backends.hub import check_model, load_error
from planetarium.llm.config import ConfigError, make_config

REPO = Path(__file__).resolve().parents[1]
SHIPPED = REPO / "eval" / "tiny-finetuned.yaml"


def test_shipped_finetuned_config_without_its_adapter(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)  # the config's dataset path is relative to the checkout
    run_dir = tmp_path / "run"
    missing = tmp_path / "never-trained" / "adapter"
    result = CliRunner().invoke(main, eval_run_argv(SHIPPED, run_dir, "--adapter", str(missing)))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.startswith(f"Error: adapter {missing} does not exist")
    assert "planetarium finetune --config" in result.output
    assert not run_dir.exists()  # refused before a directory was written or a model built


def test_a_directory_that_is_not_an_adapter(tmp_path):
    config = write_eval_config(tmp_path, 2, backend="transformers", model="tiny:",
                               adapter=str(tmp_path))
    result = CliRunner().invoke(main, eval_run_argv(config, tmp_path / "run"))
    assert result.exit_code == 1
    assert "is not a LoRA adapter directory (no adapter_config.json)" in result.output


def test_hub_model_offline_is_one_line(tmp_path):
    config = write_eval_config(tmp_path, 2, backend="transformers", model="tiny:", device="cpu")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path / "empty-hf-home")}
    argv = eval_run_argv(config, tmp_path / "run", "--model", "google/gemma-2-2b-it")
    done = subprocess.run([sys.executable, "-m", "planetarium.cli", *argv], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(
        "Error: offline: model google/gemma-2-2b-it is not in the local cache; download it "
        "where the Hub is reachable ('hf download google/gemma-2-2b-it'")
    assert not (tmp_path / "run").exists()


def test_offline_check_lets_local_models_through(tiny_model, monkeypatch):  # noqa: F811
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    check_model(str(tiny_model))  # a directory on disk needs no Hub
    with pytest.raises(ConfigError, match="offline: model planetarium-tests/absent is not in"):
        check_model("planetarium-tests/absent")


def test_loader_errors_are_wrapped(tmp_path):
    config = make_config(sections("t", dataset="d", device="cpu"))
    with pytest.raises(BackendError, match=f"cannot load model {tmp_path}: "):
        make_backend(config.model, str(tmp_path))  # a directory without a model in it
    unreachable = load_error("planetarium-tests/absent", OSError("We couldn't connect"))
    assert str(unreachable).startswith("offline: model planetarium-tests/absent is not in the "
                                       "local cache")
    assert "(the Hub could not be reached)" in str(unreachable)
