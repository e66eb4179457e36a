"""Which run is which: identities read from the run record, labels, and whether runs compare.

A label is what a reader sees in every table and figure, so two different runs must never share
one.  By default a run is called by its config's ``name``; when several runs share a name (two
runs of ``eval/vllm-serve.yaml`` with different ``--model``), each label gets the identity fields
that tell them apart, e.g. ``vllm-serve [model google/gemma-2-9b-it]``.  ``--label`` overrides.

Rates are only comparable over the same items: runs whose dataset hash (a hash of the selected
rows themselves, so it covers the split, sampling and limit too) or split differ are refused,
or reported with a warning when the caller asks for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import PlanetariumError
from .config import LEGACY_BENCHMARK


class ReportError(PlanetariumError, ValueError):
    """The runs cannot be reported together as asked (different items, clashing labels)."""


@dataclass(frozen=True)
class RunIdentity:
    """What a run was: model, adapter, backend, config, and the items it was graded on."""

    run_dir: Path
    benchmark: str
    config_name: str
    model: str
    adapter: str | None
    backend: str
    dataset: str
    splits: tuple[str | None, ...]
    dataset_hash: str
    config_hash: str
    prompt_template_hash: str
    graded_by: str

    @property
    def setting(self) -> str:
        """``fine-tuned`` when the run applied a LoRA adapter, else ``zero-shot`` (the paper's
        two settings; a merged fine-tuned model without an adapter reads as zero-shot)."""
        return "fine-tuned" if self.adapter else "zero-shot"

    @property
    def split(self) -> str:
        return "+".join(s or "all rows" for s in self.splits)

    @classmethod
    def from_results(cls, run_dir: Path, results: dict[str, Any]) -> RunIdentity:
        """Read the identity from ``results.json`` (the run manifest plus grading facts)."""
        model, benchmark = results["config"]["model"], results["config"]["benchmark"]
        return cls(
            run_dir=run_dir,
            benchmark=results.get("benchmark", LEGACY_BENCHMARK),
            config_name=results["name"],
            model=model["model"],
            adapter=model.get("adapter"),
            backend=model["backend"],
            dataset=str(benchmark["dataset"]),
            splits=tuple(benchmark.get("split") or (None,)),
            dataset_hash=results["dataset_hash"],
            config_hash=results["config_hash"],
            prompt_template_hash=results.get("prompt_template_hash", ""),
            graded_by=_grader(results),
        )


def _grader(results: dict[str, Any]) -> str:
    """The grading code's short git revision (``+dirty`` kept), else the package version."""
    revision = results.get("git_revision")
    if revision:
        return revision[:12] + ("+dirty" if revision.endswith("+dirty") else "")
    return f"planetarium {results.get('packages', {}).get('planetarium')}"


#: Identity fields that can tell two same-named runs apart, most readable first.
_DISTINGUISHING: tuple[tuple[str, Callable[[RunIdentity], str]], ...] = (
    ("model", lambda i: i.model),
    ("adapter", lambda i: i.adapter or "none"),
    ("backend", lambda i: i.backend),
    ("dataset", lambda i: i.dataset),
    ("split", lambda i: i.split),
    ("items", lambda i: i.dataset_hash),
    ("config", lambda i: i.config_hash),
    ("run", lambda i: str(i.run_dir)),
)


def default_labels(identities: Sequence[RunIdentity]) -> list[str]:
    """Config names, extended just enough to be unique (see the module docstring)."""
    labels = [identity.config_name for identity in identities]
    for name in dict.fromkeys(labels):
        members = [j for j, label in enumerate(labels) if label == name]
        if len(members) < 2:
            continue
        parts: dict[int, list[str]] = {j: [] for j in members}
        for field, show in _DISTINGUISHING:
            values = {j: show(identities[j]) for j in members}
            if len(set(values.values())) > 1:
                for j in members:
                    parts[j].append(f"{field} {values[j]}")
            if len({tuple(p) for p in parts.values()}) == len(members):
                break
        for j in members:
            labels[j] = f"{name} [{', '.join(parts[j])}]"
    return labels


def assign_labels(identities: Sequence[RunIdentity], overrides: Sequence[str] = ()) -> list[str]:
    """The labels to show: ``overrides`` (one per run, in order) or :func:`default_labels`."""
    if not overrides:
        labels = default_labels(identities)
    elif len(overrides) != len(identities):
        raise ReportError(
            f"{len(overrides)} --label for {len(identities)} runs: give one label per run, "
            "in the order of the run directories"
        )
    else:
        labels = [label.strip() for label in overrides]
    clashes = sorted({label for label in labels if labels.count(label) > 1 or not label})
    if clashes:
        raise ReportError(f"labels must be unique and non-empty: {clashes} used more than once")
    return labels


def check_comparable(
    identities: Sequence[RunIdentity], labels: Sequence[str], *, allow_mixed: bool
) -> list[str]:
    """Refuse runs graded on different items; return warnings for softer differences.

    With ``allow_mixed`` the refusal becomes the first warning instead.
    """
    warnings = []
    benchmarks = sorted({i.benchmark for i in identities})
    if len(benchmarks) > 1:
        raise ReportError(f"these runs are of different benchmarks ({', '.join(benchmarks)}); "
                          "report each benchmark's runs on their own")
    items = {(i.dataset_hash, i.splits) for i in identities}
    if len(items) > 1:
        lines = "\n".join(
            f"  {label}: dataset {i.dataset}, split {i.split}, dataset hash {i.dataset_hash}"
            for label, i in zip(labels, identities, strict=True)
        )
        problem = f"these runs were not graded on the same items:\n{lines}\n"
        if not allow_mixed:
            raise ReportError(
                problem + "Their rates are not comparable. Report runs of one dataset and split "
                "together, or pass --allow-mixed-datasets to report them anyway with a warning."
            )
        warnings.append(
            problem + "Their rates are over different items and are not comparable; paired "
            "comparisons use only the items the runs share (same id and content)."
        )
    if len({i.prompt_template_hash for i in identities}) > 1:
        warnings.append(
            "the runs used different prompt templates (prompt_template_hash differs): part of "
            "any difference between them may come from the prompt, not the model."
        )
    graders = sorted({i.graded_by for i in identities})
    if len(graders) > 1:
        warnings.append(
            f"the runs were graded by different versions of the grader ({', '.join(graders)}): "
            "regrade them with one version ('planetarium eval grade RUN_DIR') to be sure a "
            "difference is the model's."
        )
    return warnings
