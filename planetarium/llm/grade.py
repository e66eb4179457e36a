"""Grade a finished (or partial) run on CPU and write its results in the one shared schema.

The run's benchmark (named in ``run.json``) grades every answer into an
:class:`~planetarium.benchmarks.ItemResult`, on the one item loop
(:func:`planetarium.benchmarks.grader.grade_items`: worker processes, one deadline per answer
on the benchmark's clock, a hard kill past it).  ``verdicts.jsonl`` gets one line per answer as
it is graded (the shared keys ``id, status, correct, score, metrics, groups, reason`` and the
benchmark's own beside them), so ``eval grade --resume`` continues a killed grading; once every
answer is graded, ``results.json`` gets the run manifest, the shared aggregates (``overall``),
the benchmark's own (``summary``) and what is needed to say two numbers are comparable: package
versions and the git revision.  The time limit per answer is the config's
``benchmark.timeout_s`` unless ``eval grade --timeout`` overrides it.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import subprocess
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .. import __version__
from ..benchmarks import Benchmark, get_benchmark
from ..benchmarks.grader import grade_items
from ..config import build
from ..limits import unix_time
from ..presentation.tables import metric_rate
from .runner import COMPLETIONS, ITEMS, read_manifest
from .store import ResultLog, read_jsonl, write_json

VERDICTS = "verdicts.jsonl"
RESULTS = "results.json"
_PACKAGES = (
    "planetarium",
    "rustworkx",
    "pyyaml",
    "torch",
    "transformers",
    "tokenizers",
    "peft",
    "vllm",
    "httpx",
)


def package_versions(names: Iterable[str] = _PACKAGES) -> dict[str, str | None]:
    """Installed versions (``None`` for a missing package), read from metadata so nothing heavy
    is imported.  ``planetarium`` is the version of the code running (its distribution is named
    ``planetarium-pddl``; PyPI's ``planetarium`` is another project)."""
    versions: dict[str, str | None] = {}
    for name in names:
        if name == "planetarium":
            versions[name] = __version__
            continue
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def git_revision() -> str | None:
    """The checkout's commit, suffixed ``+dirty`` when it has local changes; None outside git."""
    here = Path(__file__).resolve().parent

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=here, capture_output=True, text=True, check=True, timeout=10
        ).stdout.strip()

    try:
        revision = git("rev-parse", "HEAD")
        return revision + ("+dirty" if git("status", "--porcelain") else "")
    except (OSError, subprocess.SubprocessError):
        return None


def overall(benchmark: Benchmark, verdicts: list[dict[str, Any]]) -> dict[str, Any]:
    """The shared aggregates: n, each metric's count (passing it and every one before it, as
    :attr:`Benchmark.metrics` chains them), the correct rate, and the count of each status."""
    total = len(verdicts)
    counts = {m: metric_rate(verdicts, benchmark.metrics, m).k for m in benchmark.metrics}
    correct = sum(v["correct"] is True for v in verdicts)
    return {"n": total, "correct": correct, "correct_rate": correct / total if total else 0.0,
            "metrics": counts, "statuses": dict(sorted(Counter(v["status"] for v in verdicts).items()))}


def grade_run(
    run_dir: str | Path,
    *,
    workers: int | None = None,
    timeout_s: float | None = None,
    progress: bool = True,
    explain: bool = True,
    resume: bool = False,
) -> dict[str, Any]:
    """Write ``verdicts.jsonl`` and ``results.json`` for ``run_dir`` and return the results.

    ``explain`` (on by default: the report's error categories come from explanations) asks the
    benchmark to attach why each verdict was reached, where it can (Planetarium: the renaming
    and the differences, :mod:`planetarium.equivalence.explain`).  ``resume``: keep the
    verdicts a killed grading wrote (they must be those of the first answers, in order) and
    grade the answers after them, with the same settings.
    """
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    benchmark = get_benchmark(manifest.get("benchmark", "planetarium"))
    config = build(benchmark.config_type, manifest["config"]["benchmark"], source=str(run_dir),
                   key="benchmark")
    rows = read_jsonl(run_dir / ITEMS, required=("id",))
    answers: dict[str, dict[str, Any]] = {}
    for record in read_jsonl(run_dir / COMPLETIONS, required=("id", "output")):
        answers.setdefault(record["id"], record)
    answered = [row for row in rows if str(row["id"]) in answers]
    (run_dir / RESULTS).unlink(missing_ok=True)  # it would no longer describe verdicts.jsonl
    with ResultLog(run_dir / VERDICTS, resume=resume) as log:
        done = log.resume([str(row["id"]) for row in answered]) if resume else 0
        for result in grade_items(
                benchmark, config, answered,
                [answers[str(row["id"])]["output"] for row in answered],
                timeout_s=timeout_s, workers=workers, progress=progress, explain=explain,
                skip=done, total=len(answered)):
            log.append(result.to_dict())
    verdicts = read_jsonl(run_dir / VERDICTS, required=("id", "status"))
    results = {
        **manifest,
        "benchmark": benchmark.name,
        "packages": package_versions(),
        "git_revision": git_revision(),
        "graded_at": datetime.datetime.fromtimestamp(unix_time(), datetime.timezone.utc).isoformat(),
        "n_answered": len(answered),
        "n_missing": len(rows) - len(answered),
        "overall": overall(benchmark, verdicts),
        "summary": benchmark.summary(verdicts),
    }
    write_json(run_dir / RESULTS, results)
    return results
