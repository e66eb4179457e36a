"""Conformance checks for benchmark and backend authors, like the domain kit's
(:mod:`planetarium.testing.conformance`): what the evaluation loop relies on, checked on the
real thing, each problem reported as one line.

    from planetarium.testing.extensions import check_benchmark
    assert check_benchmark(MY_BENCHMARK, MY_CONFIG) == []

:func:`check_benchmark` loads the items, builds every prompt twice, and grades hostile answers
(empty, binary noise, a megabyte of brackets, the items' own prompts echoed back), one item at a
time under a deadline as the loop does: the loop needs unique ids, JSON rows, deterministic
prompts, a result for the item asked (by id), the shared status vocabulary, no exception
whatever the model wrote, and a grader that returns within its deadline plus a second.
:func:`check_backend` builds a backend from its options and asks it two chats.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..benchmarks import Benchmark, BenchmarkConfig, ItemResult
from ..grading import Status
from ..limits import Clock, Deadline, Stopwatch

#: Answers no grader may crash or hang on.
HOSTILE = ("", "\x00\xff\ufffd" * 50, "(" * 100_000, "```\n(define (problem\n```", "yes no A B C")
#: What a grader may take beyond its deadline (the loop kills it after this much).
GRACE_S = 1.0


def _items(benchmark: Benchmark, config: BenchmarkConfig, problems: list[str]) -> list[dict]:
    items = benchmark.load_items(config)
    ids = [item.get("id") for item in items]
    if not items:
        problems.append("load_items returned no items for this config")
    if config.limit is not None and len(items) > config.limit:
        problems.append(f"load_items returned {len(items)} items for limit {config.limit} "
                        "(Benchmark.items cuts them; apply the limit to read less)")
    if any(isinstance(i, bool) or not isinstance(i, (str, int)) for i in ids):
        problems.append("every item needs an 'id', a string or an integer")
    if len({str(i) for i in ids}) != len(ids):
        problems.append("item ids are not unique")
    for item in items:
        try:
            if json.loads(json.dumps(item)) != item:
                problems.append(f"item {item.get('id')}: changes through JSON (items.jsonl)")
        except (TypeError, ValueError) as err:
            problems.append(f"item {item.get('id')}: not JSON-ready: {err}")
    return items


def _prompts(benchmark: Benchmark, config: BenchmarkConfig, items: list[dict],
             problems: list[str]) -> None:
    if benchmark.prompt_fingerprint(config) != benchmark.prompt_fingerprint(config):
        problems.append("prompt_fingerprint is not deterministic")
    for item in items:
        chat = benchmark.messages(config, item)
        if chat != benchmark.messages(config, item):
            problems.append(f"item {item['id']}: messages are not deterministic")
        if not chat or not all(isinstance(m, dict) and isinstance(m.get("role"), str)
                               and isinstance(m.get("content"), str) for m in chat):
            problems.append(f"item {item['id']}: messages must be role/content string pairs")


def _result_problems(benchmark: Benchmark, result: Any, item: dict) -> list[str]:
    where = f"item {item['id']}"
    if not isinstance(result, ItemResult):
        return [f"{where}: grade yielded {type(result).__name__}, not an ItemResult"]
    problems = []
    if result.id != str(item["id"]):
        problems.append(f"{where}: result for id {result.id!r} (out of order?)")
    status: object = result.status  # what the plug-in put there, whatever it declares
    if not isinstance(status, Status):
        problems.append(f"{where}: status {result.status!r} is not a planetarium Status")
    if set(result.metrics) - set(benchmark.metrics):
        problems.append(f"{where}: metrics {sorted(set(result.metrics) - set(benchmark.metrics))} "
                        "are not declared in Benchmark.metrics")
    axes = {axis for axes in benchmark.breakdowns for axis in axes}
    if axes - set(result.groups):
        problems.append(f"{where}: groups lack the breakdown axes {sorted(axes - set(result.groups))}")
    try:
        json.dumps(result.to_dict())
    except (TypeError, ValueError) as err:
        problems.append(f"{where}: result not JSON-ready: {err}")
    return problems


def _graded(benchmark: Benchmark, config: BenchmarkConfig, item: dict, answer: str,
            timeout_s: float, problems: list[str]) -> Any:
    """``benchmark.grade`` on one answer as the loop calls it (in this process, so that an
    exception is reported rather than turned into an internal error)."""
    deadline = Deadline.start(timeout_s, benchmark.clock)
    watch = Stopwatch()
    try:
        with deadline.applied():
            result = benchmark.grade(config, item, answer, deadline)
    except Exception as err:  # the one thing a grader must never do
        problems.append(f"grade raised {type(err).__name__} on answer {answer[:30]!r}: {err}")
        return None
    if watch.seconds > deadline.wall_limit_s + GRACE_S:
        problems.append(f"item {item['id']}: grade took {watch.seconds:.1f} s at a "
                        f"{timeout_s:g} s deadline (the loop would have killed it)")
    return result


def check_benchmark(benchmark: Benchmark, config: BenchmarkConfig, *,
                    answers: Sequence[str] = HOSTILE, max_items: int = 8,
                    timeout_s: float = 5.0) -> list[str]:
    """Every way ``benchmark`` breaks the loop's assumptions on ``config``; [] when none."""
    problems: list[str] = []
    if not isinstance(config, benchmark.config_type):
        return [f"config is a {type(config).__name__}, not {benchmark.config_type.__name__}"]
    if not benchmark.metrics or benchmark.metrics[-1] != "correct":
        problems.append("Benchmark.metrics must end with 'correct'")
    items = _items(benchmark, config, problems)[:max_items]
    _prompts(benchmark, config, items, problems)
    echoed = [benchmark.messages(config, item)[-1]["content"] for item in items[:2]]
    clock: object = benchmark.clock  # what the plug-in declares, checked
    if not isinstance(clock, Clock):
        return [*problems, f"Benchmark.clock {benchmark.clock!r} is not a planetarium Clock"]
    for answer in [*answers, *echoed]:
        for item in items:
            result = _graded(benchmark, config, item, answer, timeout_s, problems)
            if result is not None:
                problems += _result_problems(benchmark, result, item)
    for item in items[:1]:  # what the loop reports for an item whose worker was killed
        lost = benchmark.ungraded(config, item, Status.TIMEOUT, "no verdict (worker killed)")
        if not (isinstance(lost, ItemResult) and lost.id == str(item["id"])
                and lost.status is Status.TIMEOUT):
            problems.append("ungraded must return the item's ItemResult with the status given")
        else:
            problems += [p for p in _result_problems(benchmark, lost, item)
                         if "breakdown axes" not in p]  # a lost item may lack derived groups
    return sorted(set(problems))


def check_backend(spec: Any, options: Any, model: str) -> list[str]:
    """Build the backend of ``spec`` (a :class:`planetarium.llm.backends.BackendSpec`) from
    ``options`` for ``model`` and ask it two chats: one completion each, in order, text a string."""
    from ..llm.options import ModelConfig

    problems = []
    if not (isinstance(spec.options, type) and issubclass(spec.options, ModelConfig)):
        return [f"{spec.name}: options must subclass planetarium.llm.options.ModelConfig"]
    if not isinstance(options, spec.options):
        return [f"options are a {type(options).__name__}, not {spec.options.__name__}"]
    chats = [[{"role": "user", "content": "Say yes."}], [{"role": "user", "content": "Say no."}]]
    backend = spec.load(options, model)
    try:
        completions = backend.generate(chats)
    finally:
        backend.close()
    if len(completions) != len(chats):
        problems.append(f"{len(chats)} chats got {len(completions)} completions")
    if any(not isinstance(getattr(c, "text", None), str) for c in completions):
        problems.append("every completion needs a string text")
    return problems
