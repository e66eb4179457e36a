"""Ray Data grading against ``grade --batch``: rows/s with the same number of workers, same rows.

    python bench/bench_ray.py [--pairs 4000] [--workers 2] [--rounds 2]   # needs '.[ray]'

The rows are bench_batch.py's: dataset-sized pairs spread evenly over blocksworld, gripper,
floor-tile and rover-single, half equivalent renamings, half near misses, solvability checked.
Each round times, one after the other on the same JSONL file, ``planetarium grade --batch
--workers W`` (a fresh process: start-up included) and :func:`planetarium.integrations.ray.
grade_dataset` with ``W`` grader actors of one grading process each on a local Ray instance
started once beforehand (its start is printed apart), reading the file and writing JSON lines as
the command does.  Both outputs are checked to hold the same verdicts, row for row.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_batch import make_items  # the benches' pairs (run as scripts)


def verdicts(rows: list[dict]) -> list[tuple]:
    return [(row["id"], row["status"], row["correct"]) for row in rows]


def run_batch(source: Path, out: Path, workers: int) -> tuple[float, list[dict]]:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "planetarium.cli", "grade", "--batch", str(source),
                    "--out", str(out), "--workers", str(workers), "--no-progress"],
                   check=False, capture_output=True)
    took = time.perf_counter() - start
    return took, [json.loads(line) for line in out.read_text().splitlines()]


def run_ray(source: Path, out: Path, workers: int) -> tuple[float, list[dict]]:
    import ray

    from planetarium.integrations.ray import grade_dataset

    start = time.perf_counter()
    grade_dataset(ray.data.read_json(str(source)), actors=workers).write_json(str(out))
    took = time.perf_counter() - start
    rows = [json.loads(line) for path in sorted(out.glob("*.json*"))
            for line in path.read_text().splitlines()]
    return took, sorted(rows, key=lambda row: row["id"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    import ray

    items = make_items(args.pairs, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "pairs.jsonl"
        source.write_text("".join(json.dumps(item) + "\n" for item in items))
        start = time.perf_counter()
        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
        context = ray.data.DataContext.get_current()
        context.enable_progress_bars = False
        print(f"{args.pairs} pairs, {args.workers} workers, load average "
              f"{os.getloadavg()[0]:.1f}; local Ray instance started in "
              f"{time.perf_counter() - start:.1f} s")
        for round_number in range(1, args.rounds + 1):
            batch_s, batch_rows = run_batch(source, Path(tmp) / f"batch-{round_number}.jsonl",
                                            args.workers)
            ray_s, ray_rows = run_ray(source, Path(tmp) / f"ray-{round_number}", args.workers)
            same = verdicts(sorted(batch_rows, key=lambda row: row["id"])) == verdicts(ray_rows)
            correct = sum(row["correct"] for row in batch_rows)
            print(f"round {round_number}: grade --batch {batch_s:.1f} s = "
                  f"{args.pairs / batch_s:.0f} rows/s | Ray Data {ray_s:.1f} s = "
                  f"{args.pairs / ray_s:.0f} rows/s | same verdicts: {same} "
                  f"({correct} correct) | load {os.getloadavg()[0]:.1f}")
        ray.shutdown()


if __name__ == "__main__":
    main()
