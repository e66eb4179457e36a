"""How well ACPBench's yes/no and multiple-choice answers are read: the grader against a human.

    python bench/bench_acp_reading.py [--show-disagreements]

Reads ``tests/fixtures/acp_reading/answers.json``: answers written by hand to ACPBench dev
questions, each with the reading a careful human gives it (``yes``/``no``, a letter, or
``null`` where a human could not tell), decided before any grading.  Prints, per task and kind
and overall, how often two scorers give the human's score (1 when the reading equals the label,
else 0):

* ``grader``: :func:`planetarium.acp.choice.extract_choice` (``acp score``);
* ``published``: ACPBench's own rule, reimplemented from its lm-evaluation-harness configs
  (``tests/fixtures/acp/configs``; the regular expressions are read from them, not copied):
  the yes/no ``regex`` filter (first match) or the multiple-choice ``multi_choice_regex`` filter
  (last match; its fallbacks tried on the option texts), then ``exact_match`` ignoring case and
  punctuation.

and, for the grader, how often its reading is exactly the human's (``reading``: stricter than
the score, which counts a wrong letter and an unreadable answer alike).  ``round 1`` answers
were written before the grader's reading rules, ``round 2`` after them and before grading them
(the rules were then corrected for what round 2 found).
"""

from __future__ import annotations

import argparse
import json
import re
import string
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

import yaml

from planetarium.acp.choice import extract_choice

ROOT = Path(__file__).resolve().parents[1]
ANSWERS = ROOT / "tests" / "fixtures" / "acp_reading" / "answers.json"
CONFIGS = ROOT / "tests" / "fixtures" / "acp" / "configs"
_INVALID = "[invalid]"
_PUNCT = dict.fromkeys(i for i in range(sys.maxunicode) if unicodedata.category(chr(i))[0] == "P")


def _config(folder: str) -> dict:
    return yaml.safe_load((CONFIGS / folder / f"_{folder}_yaml").read_text(encoding="utf-8"))


def _first_group(match: str | tuple) -> str:
    """A ``findall`` result as the harness takes it: the first non-empty group, stripped."""
    if isinstance(match, tuple):
        match = next((m for m in match if m), "")
    return match.strip()


class Published:
    """ACPBench's scoring rule for yes/no and multiple-choice answers (see the module doc)."""

    def __init__(self) -> None:
        bool_config, mcq_config = _config("boolq_cot_2shot"), _config("mcq_cot_2shot")
        self.bool_regex = re.compile(bool_config["filter_list"][0]["filter"][0]["regex_pattern"])
        mcq_filter = mcq_config["filter_list"][0]["filter"][0]
        self.mcq_regex = re.compile(mcq_filter["regex_pattern"])
        self.mcq_ignores = mcq_config["metric_list"][0]["regexes_to_ignore"]

    def _normal(self, text: str, ignores: list[str]) -> str:
        for pattern in ignores:
            text = re.sub(pattern, "", text)
        return text.lower().translate(_PUNCT)

    def _exact(self, prediction: str, label: str, ignores: list[str]) -> bool:
        table = str.maketrans("", "", string.punctuation)
        return (self._normal(prediction, ignores).translate(table)
                == self._normal(label, ignores).translate(table))

    def score(self, response: str, kind: str, label: str, choices: list[str]) -> int:
        if kind == "bool":
            found = self.bool_regex.findall(response)
            prediction = _first_group(found[0]) if found else _INVALID
            return int(self._exact(prediction, label, []))
        prediction = self._mcq(response, choices)
        return int(self._exact(prediction, label, self.mcq_ignores))

    def _mcq(self, response: str, choices: list[str]) -> str:
        found = self.mcq_regex.findall(response)
        if found:
            return _first_group(found[-1])
        letters = "ABCD"[:len(choices)]
        texts = [self._normal(c.strip(), []) for c in choices]
        by_text = re.compile("|".join(re.escape(t) for t in texts))
        hits = by_text.findall(self._normal(response, []))
        if hits:
            return f"({letters[texts.index(hits[-1].strip())]})"
        hits = re.findall(rf":\s*([{letters}])", response)
        return f"({hits[-1]})" if hits else _INVALID


def rows() -> list[dict]:
    """Each hand-written answer with its question's task, kind, label and options."""
    data = json.loads(ANSWERS.read_text(encoding="utf-8"))
    out = []
    for answer in data["answers"]:
        item = data["items"][answer["item"]]
        task, kind, _ = answer["item"].split("/", 2)
        out.append({**answer, "task": task, "kind": kind, "label": item["label"],
                    "choices": item.get("choices", [])})
    return out


def human_score(row: dict) -> int:
    return int(row["human"] is not None and row["human"] == row["label"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show-disagreements", action="store_true",
                        help="print each answer the grader reads differently from the human")
    args = parser.parse_args(argv)
    published = Published()
    tally: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for row in rows():
        got = extract_choice(row["response"], row["kind"], row["choices"])
        grader = int(got is not None and got == row["label"])
        rule = published.score(row["response"], row["kind"], row["label"], row["choices"])
        human = human_score(row)
        for key in ((row["task"], row["kind"]), ("all", row["kind"]),
                    (f"round {row['round']}", "all"), ("all", "all")):
            counts = tally[key]
            counts[0] += 1
            counts[1] += grader == human
            counts[2] += rule == human
            counts[3] += got == row["human"]
        if args.show_disagreements and got != row["human"]:
            print(f"  {row['item']}: human {row['human']}, grader {got}: {row['response']!r}")
    print(f"{'task':9} {'kind':5} {'answers':>7} {'grader':>15} {'published':>15} {'reading':>15}")
    for (task, kind), (n, grader, rule, reading) in sorted(
            tally.items(), key=lambda kv: (kv[0][1] == "all", kv[0][0] == "all", kv[0])):
        cells = [f"{k}/{n} {k / n:6.1%}" for k in (grader, rule, reading)]
        print(f"{task:9} {kind:5} {n:7d} " + " ".join(f"{c:>15}" for c in cells))


if __name__ == "__main__":
    main()
