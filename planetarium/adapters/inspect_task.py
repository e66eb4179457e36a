"""Any registered benchmark as an Inspect task, scored by its own grader.

    pip install 'planetarium-pddl[inspect]'
    inspect eval planetarium/planetarium --model hf/google/gemma-2-2b-it \\
        -M do_sample=false -M 'tokenizer_call_args={"add_special_tokens": false}' \\
        -T dataset=data/planetarium --max-tokens 4096
    inspect eval planetarium/planetarium -T benchmark=acpbench -T dataset=DATA -T kinds=[bool] ...

``-T benchmark=NAME`` picks the benchmark (default ``planetarium``); every other ``-T`` sets a
key of that benchmark's ``benchmark:`` config (``-T split=...``, ``-T timeout_s=...``; the
dataset as in :mod:`.common`: ``-T dataset=PATH``, else ``PLANETARIUM_DATASET``, else the
benchmark's published dataset).  One sample per item, its chat exactly as ``eval run`` asks it,
the answer graded by the benchmark: the score holds the benchmark's metric chain (1 or 0 each,
as ``eval grade`` counts them), its explanation the grader's reason and its metadata the shared
status, so a time limit reads as ``timeout``, not as a wrong answer.  With Inspect's ``hf``
provider, ``do_sample=false`` gives greedy decoding and ``add_special_tokens: false`` keeps the
BOS the chat template already wrote from being doubled (the rendering ``eval run`` uses).

The task answers to ``planetarium/planetarium`` wherever the package is, a checkout included
(:func:`installed`), and to ``inspect_task.py@planetarium`` in the file form, where relative
``-T dataset=`` paths are still read against the directory the run started in
(:func:`launch_dir`).  A run that cannot start stops with one line, exit status 1.
"""

from __future__ import annotations

import os
import site
import sys
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai._util.error import PrerequisiteError
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState, generate

from planetarium.adapters import common
from planetarium.benchmarks import Benchmark, BenchmarkConfig

#: How a setting is passed to this task (for error messages).
HOW = "-T KEY=VALUE"
_ROLES = {"system": ChatMessageSystem, "user": ChatMessageUser, "assistant": ChatMessageAssistant}


def _chat(turns: list[dict[str, str]]) -> list[ChatMessage]:
    return [_ROLES[turn["role"]](content=turn["content"]) for turn in turns]


def benchmark_grader(bench: Benchmark, config: BenchmarkConfig) -> Scorer:
    """The benchmark's grader on the model's answer; the item travels in the sample's
    metadata."""

    @scorer(metrics={metric: [mean(), stderr()] for metric in bench.metrics},
            name="planetarium_grader")
    def planetarium_grader() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            answer = state.output.completion
            verdict = common.grade(bench, config, state.metadata, answer)
            return Score(value=common.scores(bench, verdict), answer=answer,
                         explanation=verdict["reason"],
                         metadata={"status": verdict["status"], "correct": verdict["correct"]})

        return score

    return planetarium_grader()


def launch_dir() -> Path:
    """The directory the run was started in, against which ``-T dataset=`` paths are read.

    Inspect builds a task it loaded from a file (``inspect eval .../inspect_task.py@planetarium``)
    inside that file's folder, so there the working directory is not the user's: the shell's
    ``PWD`` still is."""
    here = Path.cwd()
    shell = os.environ.get("PWD")
    if here.resolve() == Path(__file__).parent.resolve() and shell and Path(shell).is_dir():
        return Path(shell)
    return here


def build_task(benchmark: str = "planetarium", **settings: Any) -> Task:
    """One sample per item of ``benchmark`` (see the module docstring); a run that cannot start
    stops with Inspect's one-line error (its ``PrerequisiteError``), not a traceback."""
    try:
        bench = common.benchmark(benchmark)
        config = common.benchmark_config(bench, settings, HOW, base=launch_dir(), strict=True)
        items = common.load_items(bench, config, HOW)
    except common.AdapterError as err:
        raise PrerequisiteError(f"Error: {err}") from None
    samples = [Sample(input=_chat(common.messages(bench, config, row)),
                      target=bench.reference_answer(row), id=str(row["id"]), metadata=row)
               for row in items]
    return Task(dataset=MemoryDataset(samples, name=bench.name), solver=generate(),
                scorer=benchmark_grader(bench, config))


@task
def planetarium(benchmark: str = "planetarium", **settings: Any) -> Task:
    """The task: ``planetarium/planetarium`` installed, ``planetarium`` in the file form."""
    return build_task(benchmark, **settings)


def installed() -> bool:
    """Whether this module lies in a ``site-packages`` folder, where Inspect prefixes its task
    names with the package's by itself (it does not for a checkout or an editable install of a
    distribution named unlike the package, as ``planetarium-pddl``)."""
    here = os.path.abspath(__file__).lower()  # as imported: links not followed, as Inspect reads it
    folders = [*site.getsitepackages(), site.getusersitepackages(),
               *(p for p in sys.path if "site-packages" in p.lower())]
    return any(here.startswith(os.path.abspath(folder).lower()) for folder in folders)


if not installed():  # the name the entry point promises, from a checkout too
    task(name="planetarium/planetarium")(build_task)
