"""A benchmark defined outside Planetarium: add two numbers.  One module, one registration
(an entry point ``toy-arith = toy_arith:BENCHMARK`` in the ``planetarium.benchmarks`` group)."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from planetarium.benchmarks import Benchmark, BenchmarkConfig, ItemResult
from planetarium.config import ConfigError, setting
from planetarium.grading import Status

PROMPT = "What is {a} + {b}? Answer with the number only."


@dataclass(frozen=True)
class ArithConfig(BenchmarkConfig):
    """``dataset``: a JSONL file of ``{"id", "a", "b"}``; ``max_digits``: longer answers are not
    read (an answer is hostile input)."""

    max_digits: int = setting(12, check=lambda v: None if v > 0 else "a positive count")


class ToyArith(Benchmark[ArithConfig]):
    name = "toy-arith"
    config_type = ArithConfig
    metrics = ("parseable", "correct")
    breakdowns = (("size",),)

    def load_items(self, config):
        try:
            lines = Path(config.dataset).read_text(encoding="utf-8").splitlines()
        except OSError as err:
            raise ConfigError(str(err), key="benchmark.dataset") from err
        rows = [json.loads(line) for line in lines if line.strip()]
        rows = [{**row, "id": str(row["id"])} for row in rows if row["id"] and "a" in row]
        return rows[: config.limit] if config.limit else rows

    def messages(self, config, item):
        return [{"role": "user", "content": PROMPT.format(a=item["a"], b=item["b"])}]

    def prompt_fingerprint(self, config):
        return hashlib.sha256(PROMPT.encode()).hexdigest()[:16]

    def grade(self, config, item, answer, deadline, *, explain=False):
        size = "large" if max(item["a"], item["b"]) >= 100 else "small"
        found = re.search(rf"-?\d{{1,{config.max_digits}}}", answer or "")
        correct = found is not None and int(found.group()) == item["a"] + item["b"]
        reason = f"read {found.group()}" if found else "no number in the answer"
        return ItemResult(item["id"], Status.DECIDED, correct, reason, score=float(correct),
                          metrics={"parseable": found is not None, "correct": correct},
                          groups={"size": size})


BENCHMARK = ToyArith()
