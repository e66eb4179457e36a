"""Aggregates of graded ACPBench results: mean and standard error per task, outcome counts.

The mean is taken over decided questions (score 0 or 1); timeouts, bad questions and other
undecided ones are counted separately so that a resource limit can never move a score.  The
standard error is the sample standard deviation over ``sqrt(n)``, as the published harness
reports it.  Outcomes are the one-word summaries of :func:`.grades.outcome`.
"""

from __future__ import annotations

import math
from collections import defaultdict

from .grades import outcome


def summarize(results: list[dict]) -> list[dict]:
    """One row per (kind, task): n, decided, mean, stderr, timeouts, bad questions, and the
    count of each outcome."""
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
        outcomes: dict[str, int] = defaultdict(int)
        for r in rows:
            outcomes[outcome(r)] += 1
        out.append({"kind": kind, "task": task, "n": len(rows), "decided": n, "mean": mean,
                    "stderr": stderr, "timeout": outcomes.get("timeout", 0),
                    "bad_questions": outcomes.get("bad-question", 0),
                    "outcomes": dict(sorted(outcomes.items()))})
    return out


def format_table(rows: list[dict]) -> str:
    lines = [(f"{'kind':5} {'task':7} {'n':>5} {'decided':>7} {'mean':>7} {'stderr':>7} "
              f"{'timeout':>7}  outcomes")]
    for r in rows:
        mean = "-" if r["mean"] is None else f"{r['mean']:.3f}"
        err = "-" if r["stderr"] is None else f"{r['stderr']:.3f}"
        outcomes = " ".join(f"{k}={v}" for k, v in r["outcomes"].items())
        lines.append(f"{r['kind']:5} {r['task']:7} {r['n']:>5} {r['decided']:>7} {mean:>7} "
                     f"{err:>7} {r['timeout']:>7}  {outcomes}")
    return "\n".join(lines)


def format_columns(summaries: dict[str, list[dict]]) -> str:
    """One row per (kind, task), one column per results file: ``mean±stderr (decided/n)``."""
    names = list(summaries)
    cells: dict[tuple[str, str], dict[str, str]] = {}
    for name, rows in summaries.items():
        for r in rows:
            mean = "-" if r["mean"] is None else f"{r['mean']:.3f}"
            err = "" if r["stderr"] is None else f"±{r['stderr']:.3f}"
            cells.setdefault((r["kind"], r["task"]), {})[name] = (
                f"{mean}{err} ({r['decided']}/{r['n']})")
    width = max([len(c) for row in cells.values() for c in row.values()] + [12])
    lines = [f"{'kind':5} {'task':7}  " + "  ".join(f"[{i + 1}]".rjust(width)
                                                     for i in range(len(names)))]
    for (kind, task), row in sorted(cells.items()):
        lines.append(f"{kind:5} {task:7}  " + "  ".join(row.get(n, "-").rjust(width)
                                                        for n in names))
    lines += [f"[{i + 1}] {name}" for i, name in enumerate(names)]
    lines.append("mean±stderr over decided questions (decided/n); runs are never pooled")
    return "\n".join(lines)
