"""The Planetarium dataset: task layouts, text templates, generator, splits, writer, report.

Importing this package is light (no ``datasets``, no pyarrow).  The interface the domains' task
modules implement lives below the domains, in :mod:`planetarium.tasks`.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["load_rows"]


def load_rows(source: str | Path, split: str | None = None) -> list[dict]:
    """Dataset rows from a generated directory, its ``rows.jsonl``, or a YAML configuration
    (generated in memory).

    ``split`` selects rows, e.g. ``"heldout:test"``, ``"random:train"``, ``"random:3"`` (one
    fold), ``"abstraction:abstract_to_explicit"``, ``"domain:gripper"``; join selectors with
    ``+`` (``"heldout:test+domain:gripper"``).  ``None`` returns every row.
    """
    from .splits import select
    from .writer import ROWS_FILE, read_jsonl

    path = Path(source)
    if path.suffix in (".yaml", ".yml"):
        from .config import load_config
        from .generator import generate

        rows = generate(load_config(path))
    elif path.is_dir():
        rows = read_jsonl(path / ROWS_FILE)
    else:
        rows = read_jsonl(path)
    return select(rows, split)
