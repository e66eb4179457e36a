"""``planetarium.limits`` is the only module that reads clocks (issue 28.2).

Deadlines, watchdogs and timings all go through it (``Deadline``, ``wall_now``, ``Stopwatch``,
``unix_time``), so there is one place that says which clock a limit counts and no second
deadline can creep in as a bare ``time.monotonic()``.  The test kit (``planetarium.testing``)
measures the grader from outside and may read clocks itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import planetarium

PACKAGE = Path(planetarium.__file__).parent
CLOCKS = {"monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns", "process_time",
          "process_time_ns", "thread_time", "thread_time_ns", "time", "time_ns", "clock_gettime"}
ALLOWED = {PACKAGE / "limits.py"}


def _clock_reads(path: Path, root: Path = PACKAGE.parent) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    where = path.relative_to(root)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in CLOCKS \
                and isinstance(node.value, ast.Name) and node.value.id == "time":
            found.append(f"{where}:{node.lineno}: time.{node.attr}")
        if isinstance(node, ast.ImportFrom) and node.module == "time":
            found += [f"{where}:{node.lineno}: from time import {alias.name}"
                      for alias in node.names if alias.name in CLOCKS]
    return found


def test_only_limits_reads_clocks():
    modules = [p for p in PACKAGE.rglob("*.py")
               if p not in ALLOWED and "testing" not in p.relative_to(PACKAGE).parts]
    assert len(modules) > 100
    reads = [line for path in modules for line in _clock_reads(path)]
    assert reads == [], "read the clock through planetarium.limits:\n" + "\n".join(reads)


def test_the_scan_finds_a_clock_read(tmp_path):
    """The scan itself can fail: both spellings of a clock read are found, a sleep is not."""
    sample = tmp_path / "sample.py"
    sample.write_text("import time\nfrom time import perf_counter\nstart = time.monotonic()\n"
                      "time.sleep(0)\n")
    assert _clock_reads(sample, tmp_path) == ["sample.py:2: from time import perf_counter",
                                              "sample.py:3: time.monotonic"]
