"""No process pool but the one item loop's (issue 28.1).

Every command that runs many items hands them to :mod:`planetarium.loop` (on
:class:`planetarium.pool.WorkerPool`: hard kill, dead workers replaced, input order); only
dataset generation keeps its own parallel map.  An AST scan of the package finds any module
that reaches for processes another way: ``multiprocessing`` (pools, ``Process``, contexts),
``concurrent.futures.ProcessPoolExecutor``, ``os.fork``, or another process-pool library.
"""

from __future__ import annotations

import ast
from pathlib import Path

import planetarium

PACKAGE = Path(planetarium.__file__).resolve().parent
#: Where processes may be started: the pool and the loop on it, and dataset generation's map.
ALLOWED = ("pool.py", "loop.py", "dataset/")
#: Modules whose import means worker processes of one's own.
PROCESS_MODULES = ("multiprocessing", "joblib", "loky", "billiard", "pathos")
PROCESS_NAMES = ("ProcessPoolExecutor", "fork", "forkpty")


def process_pools(source: str) -> list[str]:
    """``"line N: what"`` for every way ``source`` could start worker processes of its own."""
    found = []
    for node in ast.walk(ast.parse(source)):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules = [node.module]
            found += [f"line {node.lineno}: imports {alias.name}" for alias in node.names
                      if alias.name in PROCESS_NAMES and node.module in ("os",
                                                                          "concurrent.futures")]
        found += [f"line {node.lineno}: imports {name}" for name in modules
                  if name.split(".")[0] in PROCESS_MODULES]
        if isinstance(node, ast.Attribute) and node.attr in PROCESS_NAMES:
            found.append(f"line {node.lineno}: uses .{node.attr}")
    return found


def test_the_scan_finds_each_way_of_starting_processes():
    snippets = {
        "import multiprocessing\nmultiprocessing.Pool(2)": 1,
        "import multiprocessing as mp\nmp.get_context('fork').Process()": 1,
        "from multiprocessing.pool import Pool": 1,
        "from concurrent.futures import ProcessPoolExecutor": 1,
        "import concurrent.futures\nconcurrent.futures.ProcessPoolExecutor()": 1,
        "import os\nos.fork()": 1,
        "from os import fork": 1,
        "from joblib import Parallel": 1,
        "from concurrent.futures import ThreadPoolExecutor\nimport os\nos.register_at_fork()": 0,
        "from .pool import WorkerPool\nfrom .loop import run_items": 0,
    }
    for source, expected in snippets.items():
        assert len(process_pools(source)) == expected, (source, process_pools(source))


def test_no_process_pool_outside_the_loop_and_dataset_generation():
    scanned, allowed_hits, offenders = 0, 0, []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        hits = process_pools(path.read_text(encoding="utf-8"))
        scanned += 1
        if relative.startswith(ALLOWED):
            allowed_hits += bool(hits)
        else:
            offenders += [f"planetarium/{relative}: {hit}" for hit in hits]
    assert scanned > 100
    assert allowed_hits >= 2  # the scan sees the pool's and dataset generation's processes
    assert offenders == [], "\n".join(offenders)
