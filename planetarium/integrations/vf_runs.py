"""``python -m planetarium.integrations.vf_runs OUTPUTS``: did a ``vf-eval`` run's rollouts run?

verifiers' ``vf-eval`` exits 0 even when every rollout failed (a harness that could not start,
an endpoint that does not stream): the failures are data in its ``traces.jsonl``.  This reads
the traces under ``OUTPUTS`` (a run folder, or the ``-o`` folder holding runs) and ends in one
line: how many rollouts ran and their mean reward, or — with exit status 1 — how many failed,
the first failure and, for the failures met in practice, what to do about it.  It reads JSON
only, so it runs without verifiers installed.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..jsonl import JsonLineError, decode, numbered_lines

TRACES = "traces.jsonl"
#: Words of a failure -> what to do (the causes a first run meets).
FIXES = (
    ("failed to prepare uv script",
     "put uv on PATH (pip install uv): the null harness runs its chat program with it, and its "
     "first run fetches the program's packages (later runs use uv's cache)"),
    ("upstream stream ended before its terminal event",
     "the endpoint must stream chat completions (stream: true); `planetarium serve-scripted` "
     "does, for a smoke test"),
)


def episodes(outputs: Path) -> list[dict[str, Any]]:
    """Every episode of every ``traces.jsonl`` at or below ``outputs``."""
    files = [outputs / TRACES] if (outputs / TRACES).is_file() else sorted(outputs.rglob(TRACES))
    found = []
    for path in files:
        with open(path, "rb") as stream:
            for number, line in numbered_lines(stream, str(path)):
                try:
                    episode = decode(line)
                except JsonLineError as err:
                    raise JsonLineError(f"{path}:{number}: {err}") from None
                if isinstance(episode, dict):
                    found.append(episode)
    return found


def failures(episode: dict[str, Any]) -> list[str]:
    """The error messages of an episode and of its traces (none: it ran)."""
    errors = list(episode.get("errors") or [])
    for trace in episode.get("traces") or []:
        errors += trace.get("errors") or []
    messages = [str(error.get("message", error)) if isinstance(error, dict) else str(error)
                for error in errors]
    if not messages and not episode.get("ok", False):
        messages = ["the episode is not ok (no error recorded)"]
    return messages


def rewards(episode: dict[str, Any]) -> list[float]:
    """Each trace's weighted reward (verifiers writes ``rewards``: name -> score and weight)."""
    found = []
    for trace in episode.get("traces") or []:
        parts = [part for part in (trace.get("rewards") or {}).values() if isinstance(part, dict)
                 and isinstance(part.get("score"), (int, float))]
        if parts:
            found.append(sum(float(p["score"]) * float(p.get("weight", 1.0)) for p in parts))
    return found


def verdict(found: list[dict[str, Any]], outputs: Path) -> tuple[bool, str]:
    """Whether every rollout ran, and the one line that says so."""
    if not found:
        return False, f"{outputs}: no {TRACES} with rollouts in it"
    failed = [(episode, failures(episode)) for episode in found]
    failed = [(episode, messages) for episode, messages in failed if messages]
    if failed:
        first = failed[0][1][0].strip().splitlines()[0]
        fix = next((f": {fix}" for words, fix in FIXES if words in first), "")
        return False, f"{len(failed)} of {len(found)} rollouts failed: {first}{fix}"
    values = [value for episode in found for value in rewards(episode)]
    mean = f", mean reward {sum(values) / len(values):.3f}" if values else ""
    return True, f"{len(found)} rollouts, all ran{mean}"


@click.command()
@click.argument("outputs", type=click.Path(exists=True, file_okay=False, path_type=Path))
def main(outputs: Path) -> None:
    """Check a vf-eval run's rollouts (see the module docstring)."""
    try:
        ok, line = verdict(episodes(outputs), outputs)
    except JsonLineError as err:
        raise click.ClickException(str(err)) from err
    if not ok:
        raise click.ClickException(line)
    click.echo(line)


if __name__ == "__main__":
    sys.exit(main())
