"""The viewer's pages: a filterable index of items and one page per item.

What an item and an answer show is the benchmark's to say (:class:`~.load.Item` and
:class:`~.load.Answer` carry its :mod:`planetarium.presentation.pages` views); this module
renders those sections.  Every string from a run (descriptions, answers, reasons, object names,
explanation fields) goes through :func:`markup.element`, which escapes it and shows
bidirectional controls as markers; text from a dataset or a model runs in its own direction
(``dir="auto"``, ``<bdi>``).  Pages carry a content security policy that forbids loading
anything but the viewer's own stylesheet and script (files beside them: no inline script, style
or event handler, and the policy forbids those), so they open from disk and never touch the
network.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..presentation import pages
from .assets import CONTENT_SECURITY_POLICY, CSS, JS, SCRIPT, STYLESHEET
from .load import Answer, Item, Runs
from .markup import element as e
from .markup import isolated
from .scenes import EXTRA, MARK_COLOUR, MISSING, Drawing, Scene, draw, fact_text
from .states import build_states

#: Answers longer than this are cut on the page (the run folder keeps them whole).
ANSWER_CHARS = 20_000
#: Whether every run's answer to an item got the same status (items all runs answered).
AGREEMENT = ("same status", "different status")


def join(parts: Iterable[str]) -> str:
    return "".join(parts)


def page(title: str, body: str, n_runs: int, script: bool = False, root: str = "") -> str:
    """A whole page; ``root``: the path from it to the viewer's folder (``"../"`` for items),
    where the stylesheet and the script are."""
    head = (
        '<meta charset="utf-8">'
        + e("meta", {"http-equiv": "Content-Security-Policy", "content": CONTENT_SECURITY_POLICY})
        + '<meta name="viewport" content="width=device-width, initial-scale=1">'
        + e("title", text=title) + e("link", {"rel": "stylesheet", "href": root + STYLESHEET})
    )
    tail = e("script", {"src": root + SCRIPT}) if script else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head>" + head + "</head>"
            + e("body", {"data-runs": n_runs}, body, tail) + "</html>\n")


def item_file(index: int, item: Item) -> str:
    """A file name safe on every system, unique by the item's position."""
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", item.id)[:40].strip("._") or "item"
    return f"items/{index:05d}-{slug}.html"


def status_badge(answer: Answer) -> str:
    tone = answer.view.tone if answer.view.tone in pages.TONES else pages.NONE
    return e("span", {"class": f"status status-{tone}"}, text=answer.view.status)


def _slug(name: str) -> str:
    """A facet's name as it goes into ids and ``data-`` attributes."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "facet"


# ----------------------------------------------------------------------------- index page


def _options(select_id: str, caption: str, values: Iterable[tuple[str, str]],
             field: str | None = None) -> str:
    options = e("option", {"value": ""}, text="any") + join(
        e("option", {"value": value}, text=shown) for value, shown in values)
    select = e("select", {"id": select_id, "data-field": field}, options)
    return e("label", None, e("span", None, text=caption), select)


def _facets(runs: Runs) -> list[str]:
    """The index's facet columns: every facet any item has, first item's order first."""
    return list(dict.fromkeys(name for item in runs.items for name in item.view.facets))


def index_page(runs: Runs) -> str:
    """The index: one row per item, its facets, each run's status and (where any answer has
    them) error categories.  Every filter and column is named once: the benchmark's facets
    (ARB's question ``category``) and the grader's error categories (``error category``) never
    share a name, an id or a ``data-`` attribute, and a column no answer fills is left out."""
    items = runs.items
    facets = _facets(runs)
    statuses = sorted({a.view.status for i in items for a in i.answers if a})
    categories = sorted({c for i in items for a in i.answers if a for c in a.view.categories})

    def values(facet: str) -> list[tuple[str, str]]:
        return [(v, v) for v in sorted({i.view.facets.get(facet, "") for i in items})]

    filters = e(
        "form", {"class": "filters", "id": "filters"},
        e("label", None, e("span", None, text="search"), e("input", {"id": "filter-text", "type": "search",
                                               "placeholder": "id or words of the item"})),
        join(_options(f"filter-{_slug(f)}", f, values(f), _slug(f)) for f in facets),
        _options("filter-run", "run", [(str(n), label) for n, label in enumerate(runs.labels)]),
        _options("filter-status", "status", [(s, s) for s in statuses]),
        _options("filter-error-category", "error category", [(c, c) for c in categories])
        if categories else "",
        # side by side: where the runs' answers fare differently
        _options("filter-agreement", "runs", [(a, a) for a in AGREEMENT], "agreement")
        if len(runs.labels) > 1 else "",
    )
    head = e("tr", None, join(e("th", None, text=t) for t in ("item", *facets)),
             join(e("th", None, text=f"{label}: status")
                  + (e("th", None, text=f"{label}: error category") if categories else "")
                  for label in runs.labels))
    body = join(_index_row(n, item, facets, bool(categories)) for n, item in enumerate(items))
    runs_list = e("ul", None, join(
        e("li", None, e("b", None, text=label), text=f" — {path} ({sum(1 for i in items if i.answers[n])} "
          f"graded items{f', {missing} not answered yet' if missing else ''})")
        for n, (label, path, missing) in enumerate(zip(runs.labels, runs.paths, runs.n_missing,
                                                         strict=True))))
    body_html = (
        e("h1", None, text="Planetarium run viewer") + runs_list
        + e("p", {"class": "muted"}, text=f"Benchmark: {runs.benchmark}") + filters
        + e("p", {"id": "count", "class": "muted"}, text=f"{len(items)} items")
        + e("table", {"id": "items"}, e("thead", None, head), e("tbody", None, body))
        + e("p", {"class": "muted"}, text="Each item's page shows every answer's whole verdict.")
    )
    return page("Planetarium run viewer", body_html, len(runs.labels), script=True)


def _index_row(index: int, item: Item, facets: list[str], categories: bool) -> str:
    attrs: dict[str, object] = {f"data-{_slug(f)}": item.view.facets.get(f, "") for f in facets}
    attrs["data-search"] = " ".join([item.id, item.view.search]).lower()
    cells = [e("td", None, e("a", {"href": item_file(index, item)}, text=item.id)),
             *(e("td", None, text=item.view.facets.get(f, "")) for f in facets)]
    for n, answer in enumerate(item.answers):
        if answer is None:
            cells += [e("td", {"class": "muted"}, text="—")] + [e("td", None)] * categories
            continue
        attrs[f"data-status-{n}"] = answer.view.status
        cells.append(e("td", None, status_badge(answer)))
        if categories:
            attrs[f"data-error-category-{n}"] = "|".join(answer.view.categories)
            cells.append(e("td", None, join(e("span", {"class": "cat"}, text=c)
                                            for c in answer.view.categories)))
    statuses = {a.view.status for a in item.answers if a is not None}
    if all(item.answers):
        attrs["data-agreement"] = AGREEMENT[len(statuses) > 1]
    return e("tr", attrs, join(cells))


# ----------------------------------------------------------------------------- item pages


def item_page(runs: Runs, index: int) -> str:
    item = runs.items[index]
    nav = [e("a", {"href": "../index.html"}, text="← all items")]
    if index > 0:
        nav.append(e("a", {"href": "../" + item_file(index - 1, runs.items[index - 1])},
                     text="← previous"))
    if index + 1 < len(runs.items):
        nav.append(e("a", {"href": "../" + item_file(index + 1, runs.items[index + 1])},
                     text="next →"))
    columns = join(
        _run_column(label, item, answer) for label, answer in zip(runs.labels, item.answers,
                                                                  strict=True))
    drawn = any(isinstance(section, pages.Scenes) for answer in item.answers if answer
                for section in answer.view.sections)
    meta = item.view.fields
    body = (
        e("nav", None, " · ".join(nav)) + e("h1", None, text=f"Item {item.id}")
        + (_pairs(meta) if meta else "")
        + join(section(s, "h2") for s in item.view.question)
        + (_legend() if drawn else "")
        + e("div", {"class": "runs"}, columns)
        + join(section(s, "h2") for s in item.view.reference)
    )
    return page(f"Item {item.id}", body, len(runs.labels), root="../")


def _legend() -> str:
    def swatch(mark: str) -> str:
        dash = "6 3" if mark == MISSING else None
        return e("svg", {"width": 30, "height": 14, "viewBox": "0 0 30 14"},
                 e("rect", {"x": 2, "y": 2, "width": 26, "height": 10, "fill": "#fff",
                            "stroke": MARK_COLOUR[mark], "stroke-width": 3,
                            "stroke-dasharray": dash}))

    return e("div", {"class": "legend", "id": "legend"},
             e("span", None, swatch(MISSING), text=" missing: in the ground truth, not in the answer"),
             e("span", None, swatch(EXTRA), text=" extra: in the answer, not in the ground truth"))


def _run_column(label: str, item: Item, answer: Answer | None) -> str:
    if answer is None:
        return e("section", {"class": "run"}, e("h2", None, text=label),
                 e("p", {"class": "note"}, text="This run has no answer for this item."))
    output = answer.output
    notes = [f"finish reason: {answer.finish_reason}"] if answer.finish_reason else []
    if answer.error:
        notes.append(f"server error: {answer.error}")
    return e(
        "section", {"class": "run"},
        e("h2", None, text=label), status_badge(answer),
        join(section(s, "h3") for s in answer.view.sections),
        e("h3", None, text="The model's answer"),
        e("p", {"class": "muted"}, text="; ".join(notes)) if notes else "",
        _long_text(output, "answer"),
    )


def _long_text(text: str, css: str) -> str:
    """Preformatted text, cut past :data:`ANSWER_CHARS` (the run folder keeps it whole)."""
    cut = (e("p", {"class": "note"}, text=f"(cut: {len(text)} characters in all)")
           if len(text) > ANSWER_CHARS else "")
    return e("pre", {"class": css, "dir": "auto"}, text=text[:ANSWER_CHARS]) + cut


def section(part: pages.Section | object, heading: str) -> str:
    """One section of a page, under a ``heading`` (h2 on the item, h3 in a run's column); a
    plug-in's section of another kind is named, not shown."""
    title = getattr(part, "title", "")
    head = e(heading, None, text=title) if title else ""
    if isinstance(part, pages.Text):
        return head + e("p", {"class": "text", "dir": "auto"}, text=part.text)
    if isinstance(part, pages.Note):
        return e("p", {"class": "note", "dir": "auto"}, text=part.text)
    if isinstance(part, pages.Code):
        return head + _long_text(part.text, "code")
    if isinstance(part, pages.Fields):
        return head + _pairs(part.pairs)
    if isinstance(part, pages.Grid):
        return head + _grid(part)
    if isinstance(part, pages.Chat):
        return head + join(e("div", {"class": "turn"}, e("b", None, text=role),
                             _long_text(text, "code")) for role, text in part.turns)
    if isinstance(part, pages.Explanation):
        return head + _explanation(part.explanation)
    if isinstance(part, pages.Scenes):
        return head + _scenes(part)
    return head + e("p", {"class": "note"}, text=f"(a {type(part).__name__} section: not shown)")


def _pairs(pairs: Iterable[tuple[str, str]]) -> str:
    """Name: value pairs; a value (often from a dataset or a model) runs in its own direction."""
    return e("dl", {"class": "meta"}, join(e("dt", None, text=k) + e("dd", {"dir": "auto"}, text=v)
                                           for k, v in pairs))


def _grid(grid: pages.Grid) -> str:
    """A table: the row's key, then one cell per column, each its value and detail."""
    head = e("tr", None, join(e("th", None, text=t) for t in grid.columns))
    rows = [e("tr", {"data-key": key}, e("td", None, text=key),
              join(e("td", None, e("b", None, text=cell.value),
                     e("div", {"class": "detail", "dir": "auto"}, text=cell.detail)
                     if cell.detail else "")
                   for cell in cells))
            for key, cells in grid.rows]
    return e("table", {"class": f"grid {grid.name}".strip()}, e("thead", None, head),
             e("tbody", None, join(rows)))


def _facts(words: Any, mark: str) -> str:
    if not isinstance(words, list) or not words:
        return ""
    return e("ul", {"class": "facts"}, join(e("li", {"class": mark}, text=str(w)) for w in words))


def _explanation(found: Mapping[str, Any] | None) -> str:
    """The explanation's fields in words; unknown or malformed fields are skipped, the raw JSON
    is one click away."""
    if not found:
        return e("p", {"class": "note"}, text="No explanation recorded for this verdict.")
    parts = []
    if found.get("summary"):
        parts.append(e("p", {"class": "summary"}, text=str(found["summary"])))
    compared = found.get("kind") != "not-parseable"  # nothing was compared: no mode, no renaming
    facts = [("kind", found.get("kind")), ("compared as", compared and found.get("mode")),
             ("renaming", None if not compared else "proven optimal (fewest differences)"
              if found.get("optimal") is True else "best effort"
              if found.get("optimal") is False else None),
             ("anchored objects", ", ".join(map(str, found.get("anchored") or [])) or None),
             ("goal compared", compared and found.get("goal_basis")),
             ("cut short", "yes: the time limit ran out; the renaming is the best found"
              if found.get("complete") is False else None),
             ("categories", ", ".join(map(str, found.get("categories") or [])) or None)]
    parts.append(e("dl", {"class": "meta"}, join(e("dt", None, text=k) + e("dd", None, text=str(v))
                                                 for k, v in facts if v)))
    for key, title in (("renaming", "renamed (answer → ground truth): "),
                       ("goal_renaming", "renamed in the goal: ")):
        renaming = found.get(key)
        pairs = ", ".join(isolated(str(k)) + " → " + isolated(str(v))
                          for k, v in sorted(renaming.items(), key=str) if k != v
                          ) if isinstance(renaming, dict) else ""
        if pairs:
            parts.append(e("p", None, e("b", None, text=title), pairs))
    written = found.get("goal_basis") == "as-written"
    for part, title in (("objects", "Objects"), ("init", "Initial state"),
                        ("goal", "Goal as written" if written else "Goal"),
                        ("goal_false", "Goal as written, negated literals (not …)" if written
                         else "Goal facts that must be false")):
        block = found.get(part)
        if not isinstance(block, dict):
            continue
        lists = _facts(block.get("missing"), MISSING) + _facts(block.get("extra"), EXTRA)
        if lists:
            parts.append(e("h4", None, text=f"{title}: missing / extra") + lists)
    unsolvable = found.get("unsolvable")
    if isinstance(unsolvable, dict):
        parts.append(e("p", None, e("b", None, text="unsolvable: "),
                       text=f"{unsolvable.get('fact', '')} — {unsolvable.get('certificate', '')}"))
    parts.append(e("details", None, e("summary", None, text="raw explanation"),
                   e("pre", None, text=json.dumps(found, indent=1, sort_keys=True,
                                                   ensure_ascii=False, default=str))))
    return e("div", {"class": "explanation"}, join(parts))


def _scenes(scenes: pages.Scenes) -> str:
    states = build_states(scenes.truth, scenes.answer, scenes.explanation)
    if states is None:
        return e("p", {"class": "note"}, text="The ground truth does not read; nothing to draw.")
    if states.answer_init is None or states.answer_goal is None:  # the answer does not read
        figures = [_figure(states.truth_init),
                   e("figure", None, e("figcaption", None, text="answer"),
                     e("p", {"class": "note"}, text=states.answer_error or "no answer")),
                   _figure(states.truth_goal)]
    else:
        figures = [_figure(states.truth_init), _figure(states.answer_init),
                   _figure(states.truth_goal), _figure(states.answer_goal)]
    return e("div", {"class": "scenes"}, join(figures))


def _figure(scene: Scene) -> str:
    drawing: Drawing | None = draw(scene)
    if drawing is None:
        body = e("p", {"class": "note"}, text=f"too large to draw ({len(scene.objects)} objects, "
                 f"{len(scene.facts)} facts)")
        undrawn = [(f, scene.marks.get(f)) for f in sorted(scene.facts)]
    else:
        body, undrawn = drawing.svg, list(drawing.undrawn)
    listed = ""
    if undrawn:
        listed = e("details", {"open": "open"} if any(m for _, m in undrawn) else None,
                   e("summary", None, text=f"{len(undrawn)} facts not in the picture"),
                   e("ul", {"class": "facts"}, join(e("li", {"class": mark or None},
                                                         text=fact_text(f)) for f, mark in undrawn)))
    return e("figure", {"class": "scene-figure"}, e("figcaption", None, text=scene.title), body,
             listed)


def write_viewer(runs: Runs, out: str | Path) -> Path:
    """Write ``index.html``, ``items/*.html`` and the stylesheet and script they link under
    ``out``; return the index's path."""
    out = Path(out)
    (out / "items").mkdir(parents=True, exist_ok=True)
    for stale in (out / "items").glob("[0-9][0-9][0-9][0-9][0-9]-*.html"):  # an earlier build's
        stale.unlink()
    for index in range(len(runs.items)):
        (out / item_file(index, runs.items[index])).write_text(item_page(runs, index),
                                                               encoding="utf-8")
    (out / STYLESHEET).write_text(CSS, encoding="utf-8")
    (out / SCRIPT).write_text(JS, encoding="utf-8")
    index_path = out / "index.html"
    index_path.write_text(index_page(runs), encoding="utf-8")
    return index_path
