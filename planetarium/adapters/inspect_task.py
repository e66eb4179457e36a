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
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task
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


@task
def planetarium(benchmark: str = "planetarium", **settings: Any) -> Task:
    """One sample per item of ``benchmark`` (see the module docstring)."""
    bench = common.benchmark(benchmark)
    config = common.benchmark_config(bench, settings, HOW)
    items = common.load_items(bench, config, HOW)
    samples = [Sample(input=_chat(common.messages(bench, config, row)),
                      target=bench.reference_answer(row), id=str(row["id"]), metadata=row)
               for row in items]
    return Task(dataset=MemoryDataset(samples, name=bench.name), solver=generate(),
                scorer=benchmark_grader(bench, config))
