"""``planetarium serve-scripted``: the tests' scripted chat endpoint as a command, for smoke
tests of the OpenAI-compatible clients (vf-eval's chat program streams; ours does not)."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path


def _post(url: str, body: dict) -> tuple[str, bytes]:
    request = urllib.request.Request(f"{url}/chat/completions", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.headers["Content-Type"], answer.read()


def test_the_command_answers_from_its_file_streaming_or_not(tmp_path: Path):
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"prompt_contains": "two blocks", "answer": "(define ...)"}) + "\n")
    server = subprocess.Popen([sys.executable, "-m", "planetarium.cli", "serve-scripted",
                               "--port", "0", "--answers", str(answers)],
                              stdout=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline()
        assert first.startswith("serving a scripted chat endpoint at http://127.0.0.1:")
        url = first.split(" at ")[1].split()[0]
        chat = {"model": "m", "messages": [{"role": "user", "content": "Stack two blocks."}]}
        kind, body = _post(url, chat)
        assert kind == "application/json"
        assert json.loads(body)["choices"][0]["message"]["content"] == "(define ...)"
        kind, body = _post(url, {**chat, "stream": True})
        events = [line.removeprefix(b"data: ") for line in body.splitlines() if line]
        assert kind == "text/event-stream" and events[-1] == b"[DONE]"
        assert json.loads(events[0])["choices"][0]["delta"]["content"] == "(define ...)"
        _, body = _post(url, {"model": "m", "messages": [{"role": "user", "content": "Other."}]})
        assert json.loads(body)["choices"][0]["message"]["content"] == "Other."  # the echo
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_bad_answers_file_is_one_line(tmp_path: Path):
    answers = tmp_path / "answers.jsonl"
    answers.write_text('{"prompt": "x"}\n')
    done = subprocess.run([sys.executable, "-m", "planetarium.cli", "serve-scripted", "--port",
                           "0", "--answers", str(answers)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip() == (f'Error: {answers}:1: expected {{"prompt_contains": TEXT, '
                                   '"answer": TEXT}')
