"""A benchmark defined outside Planetarium: add two numbers.

One module, one object, one registration: the entry point ``toy-arith =
planetarium_example.arith:BENCHMARK`` in the ``planetarium.benchmarks`` group (this package's
pyproject.toml).  Everything else — ``eval run / grade / report / view``, lm-eval, Inspect, the
item loop with its deadline per answer — comes from the framework.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from planetarium.benchmarks import Benchmark, BenchmarkConfig, ItemResult, Messages, Row
from planetarium.config import ConfigError, setting
from planetarium.grading import Status
from planetarium.limits import Deadline

PROMPT = "What is {a} + {b}? Answer with the number only."


@dataclass(frozen=True)
class ArithConfig(BenchmarkConfig):
    """``dataset``: a JSONL file of ``{"id", "a", "b", "split"}`` (``split`` defaults to
    ``"test"``); ``max_digits``: longer answers are not read (an answer is hostile input)."""

    max_digits: int = setting(12, check=lambda v: None if v > 0 else "a positive count")


class ToyArith(Benchmark[ArithConfig]):
    name = "toy-arith"
    config_type = ArithConfig
    metrics = ("parseable", "correct")
    breakdowns = (("size",),)

    def load_items(self, config: ArithConfig) -> list[Row]:
        """The rows of the configured splits in file order, at most ``limit`` (no sampling:
        ``seed`` plays no part); an unreadable file or line is a ConfigError."""
        try:
            lines = Path(config.dataset).read_text(encoding="utf-8").splitlines()
            rows = [json.loads(line) for line in lines if line.strip()]
        except (OSError, ValueError) as err:
            raise ConfigError(f"cannot read {config.dataset}: {err}",
                              key="benchmark.dataset") from err
        if not all(isinstance(row, dict) and {"id", "a", "b"} <= set(row) for row in rows):
            raise ConfigError(f"{config.dataset}: every line needs id, a and b",
                              key="benchmark.dataset")
        chosen = [{**row, "id": str(row["id"])} for row in rows
                  if None in config.split or row.get("split", "test") in config.split]
        return chosen[:config.limit] if config.limit is not None else chosen

    def messages(self, config: ArithConfig, item: Row) -> Messages:
        return [{"role": "user", "content": PROMPT.format(a=item["a"], b=item["b"])}]

    def prompt_fingerprint(self, config: ArithConfig) -> str:
        return hashlib.sha256(PROMPT.encode()).hexdigest()[:16]

    def grade(self, config: ArithConfig, item: Row, answer: str, deadline: Deadline, *,
              explain: bool = False) -> ItemResult:
        """The first number of the answer (at most ``max_digits`` digits) against the sum;
        reading it is linear, so the deadline can never run out here."""
        size = "large" if max(item["a"], item["b"]) >= 100 else "small"
        found = re.search(rf"-?\d{{1,{config.max_digits}}}", answer or "")
        correct = found is not None and int(found.group()) == item["a"] + item["b"]
        reason = f"read {found.group()}" if found else "no number in the answer"
        return ItemResult(item["id"], Status.DECIDED, correct, reason, score=float(correct),
                          metrics={"parseable": found is not None, "correct": correct},
                          groups={"size": size})


BENCHMARK = ToyArith()
