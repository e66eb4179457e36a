"""Time ``planetarium arb score`` with the stored answers fed back, and watch its memory.

    python bench/bench_arb.py [QUESTIONS ...] [--repeat 3] [--workers N]

QUESTIONS defaults to ARB's released sample when a copy is at hand (``ARB_REFERENCE`` or
``/work/shared/reference/arb/questions``), else this project's fixtures.  Prints, for each of
``--repeat`` runs of the whole command in a fresh process (start-up included): wall seconds,
CPU seconds (every process's) and the largest process's peak resident memory (``--workers``:
the command's worker processes, default its own: the usable CPUs); then, in this process, the
resident memory after every tenth of the questions, to show it stays flat (rows are written as
they are scored, records and instances are the only things kept).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _default() -> list[str]:
    for candidate in (os.environ.get("ARB_REFERENCE"), "/work/shared/reference/arb"):
        if candidate and (Path(candidate) / "questions").is_dir():
            return [str(Path(candidate) / "questions")]
    return [str(REPO / "tests" / "fixtures" / "arb")]


def _rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("questions", nargs="*")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, help="arb score --workers (default: its own)")
    args = parser.parse_args()
    questions = args.questions or _default()
    with tempfile.TemporaryDirectory() as tmp:
        gold = Path(tmp) / "gold.jsonl"
        subprocess.run([sys.executable, "-m", "planetarium.cli", "arb", "gold", *questions,
                        "--out", str(gold)], check=True, capture_output=True)
        n = sum(1 for _ in gold.open())
        print(f"{n} questions: {' '.join(questions)}")
        for run in range(args.repeat):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            workers = [] if args.workers is None else ["--workers", str(args.workers)]
            subprocess.run([sys.executable, "-m", "planetarium.cli", "arb", "score", *questions,
                            "--responses", str(gold), "--out", str(Path(tmp) / "s.jsonl"),
                            *workers], check=True, capture_output=True)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            print(f"run {run + 1}: arb score {wall:.2f} s wall, {cpu:.2f} s CPU, peak RSS "
                  f"{after.ru_maxrss / 1024:.0f} MB (largest child so far)")
        from planetarium.arb.records import load_records
        from planetarium.arb.score import deadline_for_item, score_record

        records = load_records(questions)
        answers = {row["id"]: row["response"] for row in map(json.loads, gold.open())}
        marks = {max(1, len(records) * k // 10) for k in range(1, 11)}
        line = []
        start = time.perf_counter()
        for i, record in enumerate(records, 1):
            score_record(record, answers[record.id], deadline_for_item())
            if i in marks:
                line.append(f"{i}:{_rss_mb():.0f}")
        print(f"in-process scoring {time.perf_counter() - start:.2f} s; RSS MB after question "
              + " ".join(line))


if __name__ == "__main__":
    main()
