"""A markdown report of a generated dataset: split sizes per domain and, for the domains of the
published dataset, every cell compared with it — the paper's Table 1 (abstractness classes,
size bins, train/test) and each init -> goal combination's rows and placeholder rows.

The published counts (``published/counts.json``) come from the original authors' generator run
on their configuration; :func:`differences` lists the cells that differ, so ``planetarium data
report --strict`` can fail on any.  The published held-out train split had no "excluded" rows:
its train cell is compared with our train plus excluded.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

from .splits import ABSTRACTION_CLASSES, abstraction, size_bin, size_bins

#: The published generator's size bins; its size cells are compared only for these.
PUBLISHED_BINS = (20, 40, 60, 80)
_COUNTS = Path(__file__).with_name("published") / "counts.json"


@cache
def published_counts() -> dict:
    """The published dataset's counts (``published/counts.json``)."""
    return json.loads(_COUNTS.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Cell:
    """One compared number: where it is, ours and the published one."""

    domain: str
    what: str
    ours: int
    published: int


def _table1(domain: str) -> dict[str, int]:
    """The domain's published Table 1 cells by our names."""
    counts = published_counts()
    cells = {"rows": counts["by_domain"][domain]}
    by_split = {(t, v): n for d, t, v, n in counts["splits_by_domain"] if d == domain}
    cells.update({c: by_split.get(("abstraction", c), 0) for c in ABSTRACTION_CLASSES})
    published_bins = [f"{lo}-{hi}" for lo, hi in pairwise((0, *PUBLISHED_BINS))] + ["80-inf"]
    cells.update({ours: by_split.get(("size", theirs), 0)
                  for ours, theirs in zip(size_bins(PUBLISHED_BINS), published_bins, strict=True)})
    cells["heldout train+excluded"] = by_split.get(("heldout", "train"), 0)
    cells["heldout test"] = by_split.get(("heldout", "test"), 0)
    cells.update({f"random fold {k}": n for (t, k), n in by_split.items() if t == "random"})
    return cells


def _ours_table1(rows: list[dict], bins: tuple[int, ...]) -> dict[str, int]:
    heldout = Counter(r["split_heldout"] for r in rows)
    cells = {"rows": len(rows)}
    classes = Counter(abstraction(r) for r in rows)
    cells.update({c: classes[c] for c in ABSTRACTION_CLASSES})
    if tuple(bins) == PUBLISHED_BINS:
        sizes = Counter(size_bin(r, bins) for r in rows)
        cells.update({b: sizes[b] for b in size_bins(bins)})
    cells["heldout train+excluded"] = heldout["train"] + heldout["excluded"]
    cells["heldout test"] = heldout["test"]
    folds = Counter(r["random_fold"] for r in rows)
    cells.update({f"random fold {k}": n for k, n in sorted(folds.items())})
    return cells


def _by_domain(rows: list[dict]) -> dict[str, list[dict]]:
    grouped: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        grouped[row["domain"]].append(row)
    return grouped


def compared_cells(rows: list[dict], bins: tuple[int, ...] = PUBLISHED_BINS) -> list[Cell]:
    """Every cell of the published dataset for the domains ``rows`` share with it: Table 1, and
    per combination (of either side) its rows and placeholder rows."""
    counts = published_counts()
    cells = []
    for domain, drows in _by_domain(rows).items():
        if domain not in counts["by_domain"]:
            continue
        ours, theirs = _ours_table1(drows, bins), _table1(domain)
        if tuple(bins) != PUBLISHED_BINS:  # other bins: nothing to compare sizes with
            theirs = {k: v for k, v in theirs.items() if k not in size_bins(PUBLISHED_BINS)}
        cells += [Cell(domain, what, ours.get(what, 0), n) for what, n in theirs.items()]
        combos = Counter((r["init"], r["goal"]) for r in drows)
        placeholder = Counter((r["init"], r["goal"]) for r in drows if r["is_placeholder"])
        published = {tuple(k.split("|")[1:]): n for k, n in counts["by_combination"].items()
                     if k.startswith(f"{domain}|")}
        published_ph = {tuple(k.split("|")[1:]): n for k, n in counts["placeholder_by_combination"].items()
                        if k.startswith(f"{domain}|")}
        for combo in sorted(set(combos) | set(published)):
            name = f"{combo[0]} -> {combo[1]}"
            cells.append(Cell(domain, f"{name}: rows", combos[combo], published.get(combo, 0)))
            cells.append(Cell(domain, f"{name}: placeholder rows", placeholder[combo],
                              published_ph.get(combo, 0)))
    return cells


def differences(rows: list[dict], bins: tuple[int, ...] = PUBLISHED_BINS) -> list[Cell]:
    """The compared cells where ours and the published dataset differ."""
    return [cell for cell in compared_cells(rows, bins) if cell.ours != cell.published]


def _table(header: list[str], lines: list[list]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v)
                              for v in line) + " |" for line in lines]
    return out


def render_report(rows: list[dict], bins: tuple[int, ...] = PUBLISHED_BINS) -> str:
    by_domain = _by_domain(rows)
    bin_names = size_bins(bins)
    lines = ["# Planetarium dataset report", "",
             f"{len(rows):,} rows in {len(by_domain)} domain(s).", "", "## Split sizes", ""]
    header = ["domain", "rows", "combinations", *ABSTRACTION_CLASSES, *bin_names,
              "placeholder", "random train", "random test", "heldout train", "heldout test",
              "heldout excluded"]
    table = []
    for domain, drows in by_domain.items():
        classes = Counter(abstraction(r) for r in drows)
        sizes = Counter(size_bin(r, bins) for r in drows)
        random = Counter(r["split_random"] for r in drows)
        heldout = Counter(r["split_heldout"] for r in drows)
        table.append([domain, len(drows), len({(r["init"], r["goal"]) for r in drows}),
                      *(classes[c] for c in ABSTRACTION_CLASSES), *(sizes[b] for b in bin_names),
                      sum(r["is_placeholder"] for r in drows), random["train"], random["test"],
                      heldout["train"], heldout["test"], heldout["excluded"]])
    lines += _table(header, table)
    cells = compared_cells(rows, bins)
    if cells:
        differ = sum(c.ours != c.published for c in cells)
        combos = [c for c in cells if ": " in c.what]
        lines += ["", "## Compared with the published dataset", "",
                  f"{len(cells):,} cells compared: {differ:,} differ.", "",
                  "### Table 1 of the paper, and the random folds", ""]
        lines += _table(["domain", "cell", "ours", "published", ""],
                        [[c.domain, c.what, c.ours, c.published, _mark(c.ours, c.published)]
                         for c in cells if ": " not in c.what])
        lines += ["", "### Combinations", ""]
        lines += _table(["domain", "combination", "rows", "published", "placeholder rows",
                         "published", ""],
                        [[rows_cell.domain, rows_cell.what.split(": ")[0], rows_cell.ours,
                          rows_cell.published, ph.ours, ph.published,
                          _mark((rows_cell.ours, ph.ours), (rows_cell.published, ph.published))]
                         for rows_cell, ph in zip(combos[::2], combos[1::2], strict=True)])
    return "\n".join(lines) + "\n"


def _mark(ours: object, published: object) -> str:
    return "" if ours == published else "DIFFERS"
