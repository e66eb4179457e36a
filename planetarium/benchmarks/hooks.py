"""What ``eval report``, ``eval view`` and the lm-eval / Inspect adapters ask a benchmark.

Every hook has a default built from the shared result schema (the metric chain, the ``groups``
the benchmark breaks results down by, the grading ``status`` and ``reason``), so a benchmark
that overrides none still gets report tables, viewer pages and both harness adapters.  A
benchmark overrides a hook to show more of its own (Planetarium: its grading modes, the paper's
tables and figures, error categories, pictures of the states).  Hooks return plain data
(:mod:`planetarium.presentation`): nothing here, and nothing a benchmark writes, imports the
evaluation loop or the viewer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..presentation import pages, plots, tables
from ..presentation.pages import AnswerView, ItemView
from ..presentation.plots import Figure
from ..presentation.tables import ReportRun, Table

Row = dict[str, Any]


class PresentationHooks:
    """The presentation half of :class:`~planetarium.benchmarks.Benchmark` (see the module
    docstring); the benchmark supplies ``name``, ``metrics``, ``breakdowns`` and ``messages``."""

    name: ClassVar[str]
    metrics: ClassVar[tuple[str, ...]]
    breakdowns: ClassVar[tuple[tuple[str, ...], ...]]
    #: Where the benchmark's items are published (e.g. a Hub id): the dataset of an adapter
    #: run that names none (task argument, ``PLANETARIUM_DATASET``).
    published_dataset: ClassVar[str | None] = None
    #: New tokens an answer may need: the harness adapters' generation budget (lm-eval fits
    #: it to the model's context where it can read it).
    answer_tokens: ClassVar[int] = 1024

    if TYPE_CHECKING:
        def messages(self, config: Any, item: Row) -> list[dict[str, str]]: ...

    # --- eval report ---------------------------------------------------------------------

    def report_tables(self, runs: Sequence[ReportRun]) -> list[Table]:
        """The report's tables (after the runs table).  Default: overall rates along the metric
        chain with n, 95% Wilson intervals, undecided and status counts; one table per
        :attr:`breakdowns` tuple; paired comparisons of runs on their shared items."""
        return tables.default_tables(self.name, self.metrics, self.breakdowns, runs,
                                     self.item_key)

    def report_figures(self) -> Mapping[str, Figure]:
        """``file name.png -> draw(runs, path)`` (:mod:`planetarium.presentation.plots`).
        Default: ``breakdowns.png``, the last metric of the chain per group of each of
        :attr:`breakdowns`, one bar per run with its 95% interval."""
        return {"breakdowns.png": plots.breakdown_figure(self.metrics, self.breakdowns)}

    def how_to_read(self) -> str:
        """The report's paragraph on reading its rates."""
        return tables.how_to_read(self.metrics)

    def nothing_correct(self, run: ReportRun) -> str:
        """Why a run with graded answers has no correct one, in the benchmark's words (the
        report adds what it knows of the model: refusals, answers cut at the token limit, the
        random-weight test model).  Default: where the answers stopped along the metric chain
        and the grader's most common reasons."""
        return tables.nothing_correct(run, self.metrics)

    def item_key(self, item: Row) -> str:
        """An item's identity across runs (paired comparisons, the viewer's rows).  Default:
        its whole ``items.jsonl`` row."""
        return tables.item_key(item)

    def reference_answer(self, item: Row) -> str:
        """The expected answer as text, where the item has one ("" if not): the viewer's
        reference section, Inspect's target, lm-eval's ``doc_to_target``."""
        return ""

    # --- eval view -----------------------------------------------------------------------

    def view_item(self, config: Any, item: Row, groups: Mapping[str, Any]) -> ItemView:
        """The item on the viewer's index and at the top of its page (``groups``: the result's
        groups).  Default: the groups as facets, the prompt, the reference answer."""
        return pages.default_item_view(item, groups, lambda: self.messages(config, item),
                                       self.reference_answer(item))

    def view_answer(self, row: Row, answer: str) -> AnswerView:
        """One run's answer on the item page (``row``: the item with its result over it;
        ``answer``: the model's text).  Default: status along the metric chain; verdict,
        metrics and groups."""
        return pages.default_answer_view(row, self.metrics)

    # --- lm-eval and Inspect -------------------------------------------------------------

    def harness_subsets(self) -> Mapping[str, Mapping[str, str]]:
        """Subsets that get their own lm-eval task in a group named after the benchmark:
        ``{suffix: {item field: value}}`` (task ``NAME_SUFFIX`` holds the items whose fields have
        those values).  Default: none, one task ``NAME``."""
        return {}
