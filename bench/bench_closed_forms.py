"""The built-in closed forms against the generic fully specified goal, on dataset ground truths.

Every built-in domain's ``fully_specify`` is a closed form; the generic method
(:mod:`planetarium.strips.forced`) decides the same question from the domain file alone.  Here
the generic path runs on each built-in domain's own file under another name (so no closed form
can apply) and must give the closed form's answer on every ground truth of a dataset generated
in memory from ``--config`` (default data/demo.yaml: every layout at every size).  Prints, per
domain: rows, agreement, rows the generic path left undecided within ``--timeout`` seconds, and
median / p95 / max time of each side.  Run it on a quiet machine and note the load.

    PYTHONPATH=$PWD python bench/bench_closed_forms.py [--config data/demo.yaml] [--timeout 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import defaultdict
from pathlib import Path

from bench_grading import percentile  # the benches' one percentile (run as scripts)

from planetarium.dataset import load_rows
from planetarium.domains import get_domain
from planetarium.domains.base import Domain
from planetarium.errors import ResourceLimitError
from planetarium.grading import load_ground_truth
from planetarium.limits import Deadline

ROOT = Path(__file__).resolve().parent.parent


def renamed(domain: Domain) -> Domain:
    """The same domain file under another name: only the generic path applies."""
    return Domain(f"generic-{domain.name}",
                  domain.pddl.replace(f"(domain {domain.name})", f"(domain generic-{domain.name})"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=str(ROOT / "data" / "demo.yaml"))
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--limit", type=int, default=0, help="rows per domain (0: all)")
    args = parser.parse_args()
    rows = load_rows(args.config)
    closed: dict[str, list[float]] = defaultdict(list)
    generic: dict[str, list[float]] = defaultdict(list)
    agree: dict[str, int] = defaultdict(int)
    undecided: dict[str, int] = defaultdict(int)
    disagreements: list[str] = []
    others: dict[str, Domain] = {}
    for row in rows:
        name = row["domain"]
        if args.limit and len(closed[name]) >= args.limit:
            continue
        domain = get_domain(name)
        other = others.setdefault(name, renamed(domain))
        _, problem = load_ground_truth(row["problem_pddl"])
        start = time.perf_counter()
        with Deadline.start(args.timeout).applied():  # each row's deadline, as grading's
            expected = domain.fully_specify(problem)
        closed[name].append(time.perf_counter() - start)
        start = time.perf_counter()
        try:
            with Deadline.start(args.timeout).applied():
                got = other.fully_specify(problem)
        except ResourceLimitError:
            undecided[name] += 1
            generic[name].append(args.timeout)
            continue
        generic[name].append(time.perf_counter() - start)
        if got == expected:
            agree[name] += 1
        else:
            disagreements.append(f"{name} row {row.get('id')}: generic {sorted(got or ())} "
                                 f"closed form {sorted(expected or ())}")
    print(f"load average {os.getloadavg()[0]:.1f}; {args.config}; timeout {args.timeout} s")
    print(f"{'domain':14s} {'rows':>5s} {'agree':>6s} {'undec':>6s}  closed form med/p95/max ms"
          "    generic med/p95/max ms")
    for name in sorted(closed):
        c, g = sorted(closed[name]), sorted(generic[name])
        print(f"{name:14s} {len(c):5d} {agree[name]:6d} {undecided[name]:6d}  "
              f"{_ms(c)}    {_ms(g)}")
    for line in disagreements:
        print("DISAGREE", line)


def _ms(times: list[float]) -> str:
    return (f"{statistics.median(times) * 1000:.0f}/{percentile(times, 0.95) * 1000:.0f}/"
            f"{times[-1] * 1000:.0f}")


if __name__ == "__main__":
    main()
