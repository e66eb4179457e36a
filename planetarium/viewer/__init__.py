"""``planetarium eval view``: a static, offline HTML viewer of graded runs.

:mod:`.load` reads run folders (the only module that knows their layout), :mod:`.states` and
:mod:`.scenes` draw the ground truth's and the answer's states as inline SVG with an
explanation's differences marked, :mod:`.html` writes the pages, :mod:`.cli` is the command.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def build_viewer(run_dirs: Sequence[str | Path], out: str | Path,
                 labels: Sequence[str] = ()) -> Path:
    """Write the viewer of ``run_dirs`` into ``out``; return the path of its ``index.html``."""
    from .html import write_viewer
    from .load import load_runs

    return write_viewer(load_runs(run_dirs, labels), out)
