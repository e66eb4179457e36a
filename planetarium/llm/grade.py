"""Grade a finished (or partial) run on CPU and write a reproducibility record.

Every completion is graded three times: with strict typing, with typing relaxed (the paper's
Figure 4: models add ``:typing`` to untyped domains), and *anchored* (strict typing, and every
ground-truth object the description names must keep its name).  ``results.json`` records what is needed
to say two numbers are comparable: the config, package versions, dataset and prompt-template
hashes and the git revision.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..grading import GradeOptions, GradeResult
from .breakdown import STAGES, passed, undecided
from .runner import COMPLETIONS, ITEMS, read_manifest
from .store import read_jsonl, write_json, write_jsonl

VERDICTS = "verdicts.jsonl"
RESULTS = "results.json"
MODES = {"strict": False, "relaxed": True}
#: Also graded, with strict typing and the objects the description names anchored
#: (name-anchored equivalence); kept apart from MODES so reports built on MODES are unchanged.
ANCHORED = "anchored"
ALL_MODES = {**MODES, ANCHORED: False}
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
    is imported."""
    versions = {}
    for name in names:
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


def text_anchors(problem_pddl: str, text: str) -> list[str]:
    """Ground-truth objects that the description names (whole words, any letter case): an
    explicit description pins them, so the anchored score keeps their names."""
    from ..errors import PlanetariumError
    from ..grading import load_ground_truth

    try:
        _, truth = load_ground_truth(problem_pddl)
    except PlanetariumError:
        return []  # grading reports the broken ground truth itself
    words = set(re.findall(r"[\w\-]+", text.lower()))
    return sorted(o for o in truth.objects if o in words)


_VERDICT_KEYS = ("parseable", "solvable", "equivalent", "correct", "status", "stage", "reason")


def _verdict(result: GradeResult) -> dict[str, Any]:
    """The part of a result row a verdict file keeps (``correct``: None counts as not passed)."""
    row = result.to_dict()
    return {key: row[key] for key in _VERDICT_KEYS}


def summarize(verdicts: list[dict[str, Any]], modes=MODES) -> dict[str, dict[str, Any]]:
    """Counts and rates of each stage, per grading mode, plus items that got no verdict
    (a null stage before any failed one; see :mod:`.breakdown`)."""
    total = len(verdicts)
    summary = {}
    for mode in modes:
        counts = {stage: sum(passed(v[mode], stage) for v in verdicts) for stage in STAGES}
        summary[mode] = {
            "n": total,
            **counts,
            **{f"{stage}_rate": counts[stage] / total if total else 0.0 for stage in STAGES},
            "undecided": sum(undecided(v[mode]) for v in verdicts),
        }
    return summary


def grade_run(
    run_dir: str | Path,
    *,
    workers: int | None = None,
    timeout_s: float | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Write ``verdicts.jsonl`` and ``results.json`` for ``run_dir`` and return the results."""
    from ..batch import grade_batch

    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    rows = read_jsonl(run_dir / ITEMS)
    answers: dict[str, dict[str, Any]] = {}
    for record in read_jsonl(run_dir / COMPLETIONS):
        answers.setdefault(record["id"], record)
    answered = [row for row in rows if str(row["id"]) in answers]
    jobs = [
        {
            "id": str(row["id"]),
            "gt": row["problem_pddl"],
            "pred": answers[str(row["id"])]["output"],
            "is_placeholder": bool(row.get("is_placeholder", False)),
        }
        for row in answered
    ]
    anchored_jobs = [{**job, "anchored_objects": text_anchors(row["problem_pddl"],
                                                             row.get("natural_language", ""))}
                     for job, row in zip(jobs, answered, strict=True)]
    timeout = timeout_s if timeout_s is not None else manifest["config"]["grade_timeout_s"]
    graded = {}
    for number, (mode, relax) in enumerate(ALL_MODES.items(), start=1):
        if progress:  # one bar per pass; say which pass it is
            print(f"grading {len(jobs)} answers: {mode} ({number}/{len(ALL_MODES)})",
                  file=sys.stderr, flush=True)
        graded[mode] = {
            result.id: _verdict(result)
            for result in grade_batch(
                anchored_jobs if mode == ANCHORED else jobs,
                options=GradeOptions(timeout_s=timeout, relax_typing=relax),
                workers=workers,
                progress=progress,
                total=len(jobs),
            )
        }
    verdicts = [
        {"id": job["id"], "domain": row["domain"], **{m: graded[m][job["id"]] for m in ALL_MODES}}
        for job, row in zip(jobs, answered, strict=True)
    ]
    write_jsonl(run_dir / VERDICTS, verdicts)
    results = {
        **manifest,
        "packages": package_versions(),
        "git_revision": git_revision(),
        "graded_at": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "n_answered": len(answered),
        "n_missing": len(rows) - len(answered),
        "summary": summarize(verdicts, ALL_MODES),
    }
    write_json(run_dir / RESULTS, results)
    return results
