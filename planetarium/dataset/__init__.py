"""The Planetarium dataset: task layouts, text templates, generator, splits, writer, report.

Importing this package is light (no ``datasets``, no pyarrow).  The interface the domains' task
modules implement lives below the domains, in :mod:`planetarium.tasks`.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["load_rows"]


def load_rows(source: str | Path, split: str | None = None) -> list[dict]:
    """Dataset rows from a generated directory, its ``rows.jsonl``, a YAML configuration
    (generated in memory), a local copy of the published dataset's Parquet files (a folder
    with ``data/train-*.parquet`` and ``data/test-*.parquet``), or a Hugging Face Hub id such
    as ``"BatsResearch/planetarium"`` (the published dataset; :mod:`.sources`).

    ``split`` selects rows, e.g. ``"heldout:test"``, ``"random:train"``, ``"random:3"`` (one
    fold), ``"abstraction:abstract_to_explicit"``, ``"domain:gripper"``; join selectors with
    ``+`` (``"heldout:test+domain:gripper"``).  ``None`` returns every row.
    """
    from .sources import read_rows
    from .splits import select

    return select(read_rows(source), split)
