"""Reading and grading speed of two checkouts side by side (issue 33), and a check that they read alike.

    python bench/bench_reader.py pairs --out PAIRS.jsonl
    python bench/bench_reader.py ab --base DIR [--new DIR] [--rounds 5] [--only read,grade,...]
    python bench/bench_reader.py check --base DIR [--new DIR] [--mutants 20000]
    python bench/bench_reader.py profile [--top 25]

``DIR`` is a checkout of the repository (``--new`` defaults to this one), e.g. main at the branch
point: ``git worktree add --detach ../base main``.  Every figure is taken in a fresh process with
``PYTHONPATH=DIR`` (and byte-code caching on, as an installed package has it: the first round
writes the caches), the two checkouts alternating round by round, so load on this shared machine
hits both alike.  Each measurement gives two figures, wall time and CPU time (the process and
every process it started; CPU time moves far less with other jobs' load); printed per figure:
the best and the median over the rounds for each checkout, and new/base of the best.

The pairs (``pairs``; the other commands build them when ``--pairs`` is not given) are the
published sample's ground truths (``/work/shared/reference/planetarium/published-sample.jsonl``,
1,426 rows, 1,147 distinct texts; else ``planetarium/samples/pairs.jsonl``), each with
``--per-truth`` model-like answers (default 1): alternately the ground truth renamed and
redeclared in a random order, and a near miss (one goal fact changed), written by the package's
writer (typed where the domain is), inside a fenced block with prose around it.

Measurements (``--only`` picks some):

* ``read``: ``read_problem`` of every ground truth and answer, in process (microseconds per
  problem; the best of 5 passes).
* ``grade``: ``grade(..., check_solvable=False)`` of every pair, in process (ms per pair; the
  best of 3 passes).
* ``batch``: ``planetarium grade --batch PAIRS --workers 1 --no-solve``, per pair, net of the same
  command on the first pair alone (start-up and the worker's start cancel out).
* ``startup``: ``planetarium grade examples/truth.pddl examples/answer.pddl`` (seconds; the best
  of 3 runs).
* ``reward``: ``bench/bench_reward.py --prompts 32 --steps 3 --workers 1`` (each checkout's own
  copy): its rewards/s (more is better) and CPU ms per reward.
* ``data``: ``planetarium data generate --config data/demo.yaml`` (seconds).
* ``acp``: ``planetarium acp gold`` then ``acp score`` of those answers on the ACPBench dev data
  (``/work/shared/reference/acpbench/dataset``; seconds for both).

``check`` reads every problem of the pairs and ``--mutants`` hostile copies of them (the fuzzer's
model outputs, :func:`planetarium.testing.fuzz.hostile_outputs`: truncations, character and token
mutations, prose, typed objects, deep nesting, megabytes of junk, ...) with both checkouts and
compares what comes back: the same problem, or the same error class with the same message.
``profile`` prints cProfile's top entries for ``grade`` over the pairs in this checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = Path("/work/shared/reference/planetarium/published-sample.jsonl")
ACP_DATA = Path("/work/shared/reference/acpbench/dataset")
#: Runs the checkout's command line exactly as the installed ``planetarium`` script does.
CLI = "import sys; from planetarium.cli import main; sys.argv[0] = 'planetarium'; sys.exit(main())"
MEASUREMENTS = ("read", "grade", "batch", "startup", "reward", "data", "acp")


def make_pairs(out: Path, seed: int = 0, per_truth: int = 1) -> int:
    """Write the pairs file (see the module docstring), ``per_truth`` answers to each ground
    truth; returns how many pairs."""
    from planetarium.grading import load_ground_truth
    from planetarium.testing import pairs

    if SAMPLE.exists():
        truths = [(row["id"], row["problem_pddl"], row["is_placeholder"])
                  for row in map(json.loads, SAMPLE.read_text().splitlines())]
    else:
        rows = map(json.loads, (ROOT / "planetarium/samples/pairs.jsonl").read_text().splitlines())
        truths = [(row["id"], row["gt"], row.get("is_placeholder", False)) for row in rows]
    rng = random.Random(seed)
    with open(out, "w") as sink:
        for i, (item_id, gt, placeholder) in enumerate(truths):
            domain, truth = load_ground_truth(gt)
            for j in range(per_truth):
                equivalent = (i + j) % 2 == 0 or truth.goal_formula is not None
                answer = truth if equivalent else pairs.near_miss(truth, rng)
                text = pairs.render(answer, rng, typed=domain.definition.typed)
                pred = f"Here is the problem:\n```pddl\n{text}\n```\nIt keeps every fact (as asked)."
                sink.write(json.dumps({"id": item_id if per_truth == 1 else f"{item_id}-{j}",
                                       "gt": gt, "pred": pred,
                                       "is_placeholder": placeholder}) + "\n")
    return len(truths) * per_truth


# ------------------------------------------------------------------ one measurement, one process

#: Run in a fresh process inside a checkout: prints one number.
_IN_PROCESS = {
    "read": """
import json, sys, time
from planetarium.grading import load_ground_truth
from planetarium.pddl import read_problem
rows = [json.loads(line) for line in open(sys.argv[1])]
jobs = []
for row in rows:
    domain = load_ground_truth(row["gt"])[0].definition
    jobs += [(row["gt"], domain), (row["pred"], domain)]
best = [float("inf")] * 2
for _ in range(5):
    start = time.perf_counter(), time.process_time()
    for text, domain in jobs:
        read_problem(text, domain)
    best = [min(b, now - then) for b, now, then in
            zip(best, (time.perf_counter(), time.process_time()), start)]
print(*(1e6 * b / len(jobs) for b in best))
""",
    "grade": """
import json, sys, time
from planetarium.grading import grade
rows = [json.loads(line) for line in open(sys.argv[1])]
best = [float("inf")] * 2
for _ in range(3):
    start = time.perf_counter(), time.process_time()
    for row in rows:
        grade(row["gt"], row["pred"], check_solvable=False, is_placeholder=row["is_placeholder"])
    best = [min(b, now - then) for b, now, then in
            zip(best, (time.perf_counter(), time.process_time()), start)]
print(*(1e3 * b / len(rows) for b in best))
""",
}


Figure = tuple[float, float]  # wall, CPU (of the process and all it started)


def _run(tree: Path, argv: list[str]) -> tuple[Figure, str]:
    """Wall and CPU seconds, and standard output, of ``argv`` run in ``tree`` with
    ``PYTHONPATH=tree``.  CPU time counts the command's worker processes too (reaped children's
    usage adds up), and moves far less than wall time with the load of other jobs."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # start-up as installed: compiled once, then cached
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, timeout=1800)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} in {tree} failed:\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return (seconds, cpu), done.stdout


def _cli(tree: Path, *args: str) -> Figure:
    return _run(tree, [sys.executable, "-c", CLI, *args])[0]


def _plus(a: Figure, b: Figure, scale: float = 1.0) -> Figure:
    return (scale * (a[0] + b[0]), scale * (a[1] + b[1]))


def measure(name: str, tree: Path, pairs: Path, first: Path, scratch: Path) -> Figure:
    """One figure (wall, CPU) of measurement ``name`` for the checkout ``tree``."""
    if name in _IN_PROCESS:
        wall, cpu = _run(tree, [sys.executable, "-c", _IN_PROCESS[name], str(pairs)])[1].split()
        return float(wall), float(cpu)
    if name == "batch":
        count = sum(1 for _ in open(pairs))
        base = ["grade", "--workers", "1", "--no-solve", "--no-progress", "--out", os.devnull]
        whole = _cli(tree, *base, "--batch", str(pairs))
        alone = _cli(tree, *base, "--batch", str(first))
        return _plus(whole, (-alone[0], -alone[1]), 1e3 / (count - 1))
    if name == "startup":
        runs = [_cli(tree, "grade", "examples/truth.pddl", "examples/answer.pddl")
                for _ in range(3)]
        return min(wall for wall, _ in runs), min(cpu for _, cpu in runs)
    if name == "reward":
        figure, out = _run(tree, [sys.executable, "bench/bench_reward.py", "--prompts", "32",
                                  "--steps", "3", "--workers", "1"])
        return (float(re.search(r"rewards/s\s+([\d.]+)", out)[1]),
                float(re.search(r"CPU per reward\s+([\d.]+) ms", out)[1]))
    if name == "data":
        return _cli(tree, "data", "generate", "--config", "data/demo.yaml",
                    "--out", str(scratch / f"data-{tree.name}"))
    if name == "acp":
        gold = scratch / f"gold-{tree.name}.jsonl"
        return _plus(_cli(tree, "acp", "gold", str(ACP_DATA), "--out", str(gold)),
                     _cli(tree, "acp", "score", str(ACP_DATA), "--responses", str(gold),
                          "--out", str(scratch / f"acp-{tree.name}.jsonl"), "--no-progress"))
    raise ValueError(name)


#: Per measurement: the unit of its two figures (wall, CPU), and whether more is better.
UNITS = {"read": ("us/problem", False), "grade": ("ms/pair", False),
         "batch": ("ms/pair", False), "startup": ("s", False),
         "reward": ("rewards/s | CPU ms/reward", True), "data": ("s", False), "acp": ("s", False)}


def ab(base: Path, new: Path, pairs: Path, rounds: int, only: list[str]) -> None:
    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = Path(scratch_dir)
        first = scratch / "first.jsonl"
        first.write_text(pairs.read_text().splitlines()[0] + "\n")
        figures: dict[tuple[str, str], list[Figure]] = {}
        for round_number in range(rounds):
            for name in only:
                order = [("base", base), ("new", new)]
                if round_number % 2:
                    order.reverse()
                for label, tree in order:
                    figures.setdefault((name, label), []).append(
                        measure(name, tree, pairs, first, scratch))
            print(f"round {round_number + 1} of {rounds} done", file=sys.stderr, flush=True)
    print(f"{'measurement':18s} {'unit':>24s} {'base best':>10s} {'base med':>10s} "
          f"{'new best':>10s} {'new med':>10s} {'new/base':>9s}")
    for name in only:
        unit, more_is_better = UNITS[name]
        for k, clock in enumerate(("wall", "cpu")):
            old = [figure[k] for figure in figures[(name, "base")]]
            fresh = [figure[k] for figure in figures[(name, "new")]]
            pick = max if more_is_better and k == 0 else min
            label = unit.split(" | ")[k] if " | " in unit else unit
            print(f"{name + ' ' + clock:18s} {label:>24s} {pick(old):10.4g} "
                  f"{statistics.median(old):10.4g} {pick(fresh):10.4g} "
                  f"{statistics.median(fresh):10.4g} {pick(fresh) / pick(old):9.3f}")


# ------------------------------------------------------------------ the same reading, both trees

#: Run inside a checkout: reads every text of a JSON list, prints one JSON line per text.
_READ_ALL = """
import json, sys
from planetarium.domains import get_domain
from planetarium.errors import PlanetariumError
from planetarium.pddl import read_problem
for text, domain_name, relax in json.load(open(sys.argv[1])):
    try:
        p = read_problem(text, get_domain(domain_name).definition, relax_typing=relax)
    except (PlanetariumError, RecursionError) as err:
        out = [type(err).__name__, str(err)]
    else:
        out = [p.name, p.domain, list(p.objects), list(p.object_types), sorted(p.init),
               sorted(p.goal), sorted(p.negative_goal), repr(p.goal_formula)]
    print(json.dumps(out))
"""


def check(base: Path, new: Path, pairs: Path, count: int, seed: int) -> int:
    """Read the pairs' texts and ``count`` mutants with both checkouts; 0 when all agree."""
    from planetarium.grading import load_ground_truth
    from planetarium.testing.fuzz import hostile_outputs

    rng = random.Random(seed)
    rows = [json.loads(line) for line in open(pairs)]
    jobs = []
    for row in rows:
        name = load_ground_truth(row["gt"])[0].name
        jobs += [(row["gt"], name, False), (row["pred"], name, False), (row["pred"], name, True)]
    originals = list(jobs)
    per_text = max(1, count // len(originals))
    for text, name, relax in originals:
        if len(jobs) - len(originals) >= count:
            break
        jobs += [(hostile, name, relax) for _, hostile in hostile_outputs([text], per_text, rng)]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(jobs, handle)
    try:
        old = _run(base, [sys.executable, "-c", _READ_ALL, handle.name])[1].splitlines()
        fresh = _run(new, [sys.executable, "-c", _READ_ALL, handle.name])[1].splitlines()
    finally:
        os.unlink(handle.name)
    differ = [(job, a, b) for job, a, b in zip(jobs, old, fresh, strict=True) if a != b]
    errors = sum(1 for line in fresh if json.loads(line)[0].endswith(("Error", "Exception")))
    print(f"{len(jobs)} texts ({len(originals)} from the pairs, {len(jobs) - len(originals)} "
          f"mutants; {errors} refused): {len(differ)} read differently")
    for (text, name, relax), a, b in differ[:5]:
        print(f"--- {name} relax={relax}\n{text}\nbase: {a}\nnew:  {b}")
    return 1 if differ else 0


def profile(pairs: Path, top: int) -> None:
    import cProfile
    import pstats

    from planetarium.grading import grade

    rows = [json.loads(line) for line in open(pairs)]

    def run() -> None:
        for row in rows:
            grade(row["gt"], row["pred"], check_solvable=False,
                  is_placeholder=row["is_placeholder"])

    run()
    profiler = cProfile.Profile()
    profiler.runcall(run)
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("pairs")
    make.add_argument("--out", type=Path, required=True)
    for name in ("ab", "check", "profile"):
        cmd = sub.add_parser(name)
        cmd.add_argument("--pairs", type=Path, help="pairs file (default: built afresh)")
    for cmd in sub.choices.values():
        cmd.add_argument("--seed", type=int, default=0)
        cmd.add_argument("--per-truth", type=int, default=1,
                         help="answers per ground truth when building pairs (default 1; more "
                              "shows what reading each ground truth once saves)")
    for name in ("ab", "check"):
        cmd = sub.choices[name]
        cmd.add_argument("--base", type=Path, required=True)
        cmd.add_argument("--new", type=Path, default=ROOT)
    sub.choices["ab"].add_argument("--rounds", type=int, default=5)
    sub.choices["ab"].add_argument("--only", default=",".join(MEASUREMENTS),
                                   help=f"comma-separated, of {','.join(MEASUREMENTS)}")
    sub.choices["check"].add_argument("--mutants", type=int, default=20_000)
    sub.choices["profile"].add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    if args.command == "pairs":
        print(f"{make_pairs(args.out, args.seed, args.per_truth)} pairs written to {args.out}")
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        pairs = args.pairs
        if pairs is None:
            pairs = Path(scratch) / "pairs.jsonl"
            make_pairs(pairs, args.seed, args.per_truth)
        if args.command == "profile":
            profile(pairs, args.top)
            return 0
        base, new = args.base.resolve(), args.new.resolve()
        if args.command == "check":
            return check(base, new, pairs, args.mutants, args.seed)
        only = args.only.split(",")
        unknown = set(only) - set(MEASUREMENTS)
        if unknown:
            parser.error(f"unknown measurements: {sorted(unknown)}")
        ab(base, new, pairs, args.rounds, only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
