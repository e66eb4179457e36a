"""Training-side commands print nothing a newcomer reads as breakage (issue 31.8).

bitsandbytes' missing-``kernels`` warning and the FutureWarnings of transformers' gradient
checkpointing rename used to be printed on every run; they are dropped by exact message
(:mod:`planetarium.llm.quiet`), and other warnings still show.  The README quotes the tiny
fine-tuning run's data summary; it must be the command's own.
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

pytest.importorskip("transformers")
pytest.importorskip("peft")

from planetarium.llm.quiet import checkpointing_renames_silenced, quiet_bitsandbytes  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NOISE = ("FutureWarning", "pip install `kernels`", "kernels-community", "warnings.warn(")


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "planetarium.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=900,
                          env={**__import__("os").environ, "OMP_NUM_THREADS": "1"})


def _noise(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if any(word in line for word in NOISE)]


@pytest.mark.slow
def test_a_tiny_finetuning_run_prints_no_warning_noise(tmp_path):
    done = _cli("finetune", "--config", "finetune/tiny.yaml", "--out", str(tmp_path / "ft"),
                "--set", "training.max_steps=2")
    assert done.returncode == 0, done.stderr[-3000:]
    assert _noise(done.stderr) == []
    summary = re.search(r"training on \d+ of \d+ rows: .*? were cut to \d+ tokens", done.stderr)
    assert summary, done.stderr[-2000:]
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert summary.group(0) in readme, "the README quotes a stale fine-tuning summary"


@pytest.mark.slow
def test_a_tiny_grpo_run_prints_no_warning_noise(tmp_path):
    pytest.importorskip("trl")
    done = _cli("rl", "--config", "rl/tiny.yaml", "--out", str(tmp_path / "rl"),
                "--set", "training.max_steps=1", "--set", "reward.scheme=staged")
    assert done.returncode == 0, done.stderr[-3000:]
    assert _noise(done.stderr) == []
    # the printed summary: the record's figures, rounded for reading (tests/test_reward_display.py)
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    record = json.loads((tmp_path / "rl" / "rl_record.json").read_text())
    assert summary["reward_means"] == [round(c["mean"], 4) for c in record["reward"]["calls"]]
    assert summary["reward"] == "planetarium_staged"


def test_only_the_known_messages_are_dropped(caplog):
    quiet_bitsandbytes()
    quiet_bitsandbytes()  # idempotent
    logger = logging.getLogger("bitsandbytes.backends.cpu.ops")
    assert len(logger.filters) == 1
    with caplog.at_level(logging.WARNING, logger="bitsandbytes.backends.cpu.ops"):
        logger.warning("Failed to load CPU gemm_4bit_forward from kernels-community: No module "
                       "named 'kernels'. Please make sure you already `pip install kernels`")
        logger.warning("some other bitsandbytes problem")
    assert [r.getMessage() for r in caplog.records] == ["some other bitsandbytes problem"]
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with checkpointing_renames_silenced():
            warnings.warn("`is_gradient_checkpointing` is deprecated and will be removed in v6.",
                          FutureWarning, stacklevel=1)
            warnings.warn("something else is deprecated", FutureWarning, stacklevel=1)
    assert [str(w.message) for w in seen] == ["something else is deprecated"]
