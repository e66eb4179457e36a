"""Every command block of the README runs, verbatim (issue 31.9).

The blocks run in README order (a ``<!-- run after: SECTION -->`` block after that section's
blocks) from the root of one copy of the repository, so the outputs they write (``runs/``,
``data/planetarium``, ...) stay out of the checkout; a command that exits non-zero fails its
block.  A block that installs with pip runs in a fresh virtual environment (which sees this
environment's packages), so it installs what it says without touching the environment the tests
run in.  Blocks that cannot run here say why in a ``<!-- not run: WHY -->`` marker; the test
refuses unmarked ones it would not run.  Each command's wall time is printed (the README's
timings come from these runs).  The conventions are in ``tests/readme_blocks.py``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from readme_blocks import Block, ReadmeError, ordered, parse

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BLOCKS = parse(README.read_text(encoding="utf-8"))
RUN_ORDER = ordered(BLOCKS)
BLOCK_TIMEOUT_S = 1200


def test_the_reader_finds_blocks_markers_and_order():
    text = "\n".join([
        "# Top", "", "```console", "$ echo one   # a comment", "output line", "$ printf '%s' \\",
        "    two", "```", "", "## Later", "", "<!-- run after: Top -->", "```console",
        "$ echo after", "```", "", "<!-- not run: needs a CUDA GPU -->", "```console",
        "$ nvidia-smi", "```", "", "<!-- run by .ci/run -->", "```console", "$ pip install x",
        "```", "", "```python", "print('not a command block')", "```", "", "```bash",
        "echo bash", "# a comment line", "```", "",
    ])
    blocks = parse(text)
    assert [b.commands for b in blocks] == [["echo one   # a comment", "printf '%s' \\\n    two"],
                                            ["echo after"], ["nvidia-smi"], ["pip install x"],
                                            ["echo bash"]]
    assert blocks[1].after == "Top" and blocks[2].skip_reason == "needs a CUDA GPU"
    assert blocks[3].by_ci and not blocks[3].runnable
    assert [b.commands[0] for b in ordered(blocks)] == ["echo one   # a comment", "echo after",
                                                         "echo bash"]


@pytest.mark.parametrize("text, complaint", [
    ("Some text.\n\n    pip install x\n", "indented code block"),
    ("<!-- not run: -->\n```console\n$ x\n```\n", "must say why"),
    ("<!-- skip this -->\n```console\n$ x\n```\n", "is not a marker"),
    ("<!-- not run: why -->\nA paragraph.\n```console\n$ x\n```\n", "right before"),
    ("<!-- run after: Nowhere -->\n```console\n$ x\n```\n", "names no section"),
])
def test_the_reader_refuses_what_breaks_the_convention(text, complaint):
    with pytest.raises(ReadmeError, match=complaint):
        ordered(parse(text))


def test_every_readme_command_block_is_run_or_marked():
    """Reading the README applies the convention (unmarked blocks are all run); this names the
    blocks that are not run, so a new marker shows up in the test log."""
    assert RUN_ORDER, "the README has no runnable command block"
    skipped = [f"{b.name}: {b.skip_reason}" for b in BLOCKS if b.skip_reason]
    print("README blocks not run:\n  " + "\n  ".join(skipped))
    assert len(skipped) <= len(BLOCKS) // 2, "most README blocks are not run"


def test_ci_runs_the_readme_test_commands_verbatim():
    """``<!-- run by .ci/run -->`` blocks: each ``&&`` part of each command is a line there."""
    ci_lines = {line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()}
    by_ci = [b for b in BLOCKS if b.by_ci]
    assert by_ci, "the README's test commands are not marked as run by .ci/run"
    missing = [part.strip() for block in by_ci for command in block.commands
               for part in command.split("&&") if part.strip() not in ci_lines]
    assert missing == [], "README commands .ci/run does not run verbatim"


def _repository_copy(dest: Path) -> Path:
    """The files a fresh clone of this working tree has (no runs, no build leftovers)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return dest


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = _repository_copy(tmp_path_factory.mktemp("readme") / "repo")
    yield root
    shutil.rmtree(root, ignore_errors=True)  # the dataset block writes ~380 MB


def _script(block: Block, times: Path) -> str:
    """The block as a bash script that stops at the first failing command and records each
    command's start, end and exit code (bash's ``set -e`` would let a failing ``a && b`` pass)."""
    lines = []
    for command in block.commands:
        lines += ["__t=$EPOCHREALTIME", command, "__rc=$?",
                  f'echo "$__t $EPOCHREALTIME $__rc" >> "{times}"',
                  '[ "$__rc" -eq 0 ] || exit "$__rc"']
    return "\n".join(lines) + "\n"


def _environment(block: Block, checkout: Path, scratch: Path) -> dict[str, str]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(checkout), env.get("PYTHONPATH")]))
    if any("pip install" in command for command in block.commands):
        venv = scratch / "venv"
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                       check=True, timeout=300)
        env["VIRTUAL_ENV"] = str(venv)
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
        env.pop("PYTHONPATH")  # what the block installed is what runs
    return env


@pytest.mark.slow
@pytest.mark.parametrize("block", RUN_ORDER, ids=[b.name for b in RUN_ORDER])
def test_readme_block_runs(block: Block, checkout: Path, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
    times = tmp_path / "times"
    script = tmp_path / "block.sh"
    script.write_text(_script(block, times))
    env = _environment(block, checkout, tmp_path)
    started = time.monotonic()
    with open(tmp_path / "out", "w") as out, open(tmp_path / "err", "w") as err:
        done = subprocess.run(["bash", str(script)], cwd=checkout, env=env, stdout=out,
                              stderr=err, stdin=subprocess.DEVNULL, timeout=BLOCK_TIMEOUT_S)
    recorded = times.read_text().splitlines() if times.exists() else []
    with capsys.disabled():
        print(f"\nREADME {block.name}: {time.monotonic() - started:.1f} s")
        for command, record in zip(block.commands, recorded, strict=False):
            start, end, code = record.split()
            print(f"  {float(end) - float(start):7.1f} s  exit {code}  $ {command.splitlines()[0]}")
    if done.returncode != 0:
        failed = block.commands[len(recorded) - 1] if recorded else block.commands[0]
        tail = (tmp_path / "err").read_text()[-3000:] or (tmp_path / "out").read_text()[-3000:]
        pytest.fail(f"README {block.name}: `{failed}` exited {done.returncode}:\n{tail}")
