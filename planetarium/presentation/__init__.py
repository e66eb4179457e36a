"""What reports, figures, the run viewer and the harness adapters show, as plain data.

A benchmark (:class:`planetarium.benchmarks.Benchmark`) is asked what to show through its
presentation hooks; they answer with the types here — :class:`~.tables.Table` (rates with their
:class:`~.stats.Rate` and Wilson interval), figures drawn with :mod:`.plots`, and the viewer's
page sections (:mod:`.pages`) — and the defaults are built here from the shared result schema
alone.  This layer sits below the benchmarks and above grading: it imports neither the
evaluation loop (:mod:`planetarium.llm`) nor the viewer, so a benchmark never does either.
"""

from __future__ import annotations

from .pages import AnswerView, ItemView, Section
from .stats import Rate
from .tables import Axis, ReportRun, Table

__all__ = ["AnswerView", "Axis", "ItemView", "Rate", "ReportRun", "Section", "Table"]
