"""Aggregates of graded ACPBench results: mean and standard error per task, undecided counts.

The mean is taken over decided questions (score 0 or 1); undecided and error questions are
counted separately so that a resource limit can never move a score.  The standard error is the
sample standard deviation over ``sqrt(n)``, as the published harness reports it.
"""

from __future__ import annotations

import math
from collections import defaultdict


def summarize(results: list[dict]) -> list[dict]:
    """One row per (kind, task): n, decided, mean, stderr, and the count of each status."""
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for row in results:
        groups[(row.get("kind", "gen"), row["task"])].append(row)
    out = []
    for (kind, task), rows in sorted(groups.items()):
        scores = [r["score"] for r in rows if r.get("score") is not None]
        n = len(scores)
        mean = sum(scores) / n if n else None
        stderr = (math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1) / n)
                  if n > 1 else None)
        statuses: dict[str, int] = defaultdict(int)
        for r in rows:
            statuses[r.get("status", "?")] += 1
        out.append({"kind": kind, "task": task, "n": len(rows), "decided": n, "mean": mean,
                    "stderr": stderr, "undecided": statuses.get("undecided", 0),
                    "statuses": dict(sorted(statuses.items()))})
    return out


def format_table(rows: list[dict]) -> str:
    lines = [(f"{'kind':5} {'task':7} {'n':>5} {'decided':>7} {'mean':>7} {'stderr':>7} "
              f"{'undecided':>9}  statuses")]
    for r in rows:
        mean = "-" if r["mean"] is None else f"{r['mean']:.3f}"
        err = "-" if r["stderr"] is None else f"{r['stderr']:.3f}"
        statuses = " ".join(f"{k}={v}" for k, v in r["statuses"].items())
        lines.append(f"{r['kind']:5} {r['task']:7} {r['n']:>5} {r['decided']:>7} {mean:>7} "
                     f"{err:>7} {r['undecided']:>9}  {statuses}")
    return "\n".join(lines)
