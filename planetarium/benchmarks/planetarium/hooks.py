"""What the Planetarium benchmark shows: the presentation hooks of
:class:`~.benchmark.PlanetariumBenchmark`.

``eval report`` gets its grading modes' tables, the paper's breakdowns and error categories
(:mod:`.report`) and the paper's figures (:mod:`.figures`); ``eval
view`` its item and answer pages (:mod:`.view`); the harness adapters the published
dataset, the answer budget, the ground truth as reference and one lm-eval task per domain.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...dataset.sources import PUBLISHED_ID
from ...presentation.pages import AnswerView, ItemView
from ...presentation.plots import Figure
from ...presentation.tables import ReportRun, Table
from ..hooks import PresentationHooks
from . import report

Row = dict[str, Any]

#: The paper's domains, each its own lm-eval task in the ``planetarium`` group.
HARNESS_SUBSETS = {"blocksworld": {"domain": "blocksworld"}, "gripper": {"domain": "gripper"},
                   "floortile": {"domain": "floor-tile"}, "rover": {"domain": "rover-single"}}


class PlanetariumPresentation(PresentationHooks):
    """What Planetarium shows: its modes' tables, the paper's figures, pictures of the states."""

    published_dataset = PUBLISHED_ID
    answer_tokens = 4096

    def report_tables(self, runs: Sequence[ReportRun]) -> list[Table]:
        return report.paper_tables(runs)

    def report_figures(self) -> Mapping[str, Figure]:
        from .figures import FIGURES

        return FIGURES

    def how_to_read(self) -> str:
        return report.HOW_TO_READ

    def nothing_correct(self, run: ReportRun) -> str:
        return report.nothing_correct(run)

    def item_key(self, item: Row) -> str:
        return report.item_key(item)

    def reference_answer(self, item: Row) -> str:
        return str(item.get("problem_pddl") or "")

    def view_item(self, config: Any, item: Row, groups: Mapping[str, Any]) -> ItemView:
        from .view import item_view

        return item_view(item)

    def view_answer(self, row: Row, answer: str) -> AnswerView:
        from .view import answer_view

        return answer_view(row, answer)

    def harness_subsets(self) -> Mapping[str, Mapping[str, str]]:
        return HARNESS_SUBSETS
