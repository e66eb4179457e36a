"""Planetarium as an Inspect task, scored by our grader.

    pip install 'planetarium-pddl[inspect]'
    inspect eval planetarium/planetarium --model hf/google/gemma-2-2b-it \\
        -M do_sample=false -M 'tokenizer_call_args={"add_special_tokens": false}' \\
        -T dataset=data/planetarium --max-tokens 4096

One sample per row of the held-out test split (``-T split=...`` for another; the dataset as in
:mod:`.common`: ``-T dataset=PATH``, else ``PLANETARIUM_DATASET``, else the published Hub id),
the pinned prompt as its one user turn, the model's answer graded by
:class:`~planetarium.benchmarks.planetarium.PlanetariumBenchmark`: the score holds
``parseable``, ``solvable`` and ``correct`` (1 or 0; strict typing, as ``eval grade``), its
explanation the grader's reason and its metadata the shared status, so a time limit reads as
``timeout``, not as a wrong answer.  With Inspect's ``hf`` provider, ``do_sample=false`` gives
greedy decoding and ``add_special_tokens: false`` keeps the BOS the chat template already wrote
from being doubled (the rendering ``planetarium eval run`` uses).
"""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser
from inspect_ai.scorer import Score, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState, generate

from planetarium.adapters import common


@scorer(metrics={metric: [mean(), stderr()] for metric in common.METRICS})
def planetarium_grader(timeout_s: float = common.DEFAULT_TIMEOUT_S):
    """Our grader on the model's answer; the row travels in the sample's metadata."""
    config = common.benchmark_config(timeout_s=timeout_s)

    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion
        verdict = common.grade(config, state.metadata, answer)
        return Score(value={m: int(verdict["metrics"][m] is True) for m in common.METRICS},
                     answer=answer, explanation=verdict["reason"],
                     metadata={"status": verdict["status"], "correct": verdict["correct"]})

    return score


@task
def planetarium(dataset: str | None = None, split: str = common.DEFAULT_SPLIT,
                timeout_s: float = common.DEFAULT_TIMEOUT_S) -> Task:
    config = common.benchmark_config(dataset, split, timeout_s)
    samples = [Sample(input=[ChatMessageUser(content=common.prompt(config, row))],
                      target=row["problem_pddl"], id=row["id"], metadata=row)
               for row in common.load_items(config)]
    return Task(dataset=MemoryDataset(samples, name="planetarium"), solver=generate(),
                scorer=planetarium_grader(timeout_s))
