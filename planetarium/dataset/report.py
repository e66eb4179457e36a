"""A markdown report of a generated dataset: split sizes per domain, compared with the published
dataset (Planetarium paper, Table 1, and the published v2 files) where the domain is one of its
three, and the row count of every combination."""

from __future__ import annotations

from collections import Counter, defaultdict

from .splits import ABSTRACTION_CLASSES, abstraction, size_bin, size_bins

#: The published v2 dataset: rows, combinations, held-out test rows, then Table 1's
#: abstractness classes (in ABSTRACTION_CLASSES order) and size bins (20/40/60/80).
PUBLISHED = {
    "blocksworld": (85_605, 34, 4_993, (22_595, 20_152, 20_152, 22_706),
                    (963, 10_011, 47_153, 25_766, 1_712)),
    "gripper": (54_141, 30, 4_778, (13_683, 10_565, 12_466, 17_427),
                (2_334, 13_640, 16_405, 20_325, 1_437)),
    "floor-tile": (6_172, 9, 6_172, (2_289, 797, 793, 2_293), (706, 2_114, 2_224, 404, 724)),
}


def _table(header: list[str], lines: list[list]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(f"{v:,}" if isinstance(v, int) else str(v) for v in line) + " |"
            for line in lines]
    return out


def _diff(ours: int, published: int) -> str:
    return f"{100.0 * (ours - published) / published:+.1f}%" if published else "n/a"


def render_report(rows: list[dict], bins: tuple[int, ...] = (20, 40, 60, 80)) -> str:
    by_domain: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_domain[row["domain"]].append(row)
    bin_names = size_bins(bins)
    lines = ["# Planetarium dataset report", "",
             f"{len(rows):,} rows in {len(by_domain)} domain(s).", "", "## Split sizes", ""]
    header = ["domain", "rows", "combinations", *ABSTRACTION_CLASSES, *bin_names,
              "placeholder", "random train", "random test", "heldout train", "heldout test",
              "heldout excluded"]
    table = []
    comparison = []
    for domain, drows in by_domain.items():
        classes = Counter(abstraction(r) for r in drows)
        sizes = Counter(size_bin(r, bins) for r in drows)
        combos = {(r["init"], r["goal"]) for r in drows}
        random = Counter(r["split_random"] for r in drows)
        heldout = Counter(r["split_heldout"] for r in drows)
        table.append([domain, len(drows), len(combos), *(classes[c] for c in ABSTRACTION_CLASSES),
                      *(sizes[b] for b in bin_names), sum(r["is_placeholder"] for r in drows),
                      random["train"], random["test"], heldout["train"], heldout["test"],
                      heldout["excluded"]])
        if domain in PUBLISHED:
            total, n_combos, test, pub_classes, pub_sizes = PUBLISHED[domain]
            comparison.append([domain, len(drows), total, _diff(len(drows), total),
                               len(combos), n_combos, heldout["test"], test,
                               _diff(heldout["test"], test)])
            if tuple(bins) == (20, 40, 60, 80):
                table.append([f"{domain} (published)", total, n_combos, *pub_classes, *pub_sizes,
                              "", "", "", total - test, test, ""])
    lines += _table(header, table)
    if comparison:
        lines += ["", "## Compared with the published dataset", ""]
        lines += _table(["domain", "rows", "published", "diff", "combinations", "published",
                         "heldout test", "published", "diff"], comparison)
    lines += ["", "## Combinations", ""]
    combo_lines = []
    for domain, drows in by_domain.items():
        counts = Counter((r["init"], r["goal"]) for r in drows)
        held = {(r["init"], r["goal"]) for r in drows if r["split_heldout"] == "test"}
        combo_lines += [[domain, f"{i} -> {g}", n, "test" if (i, g) in held else "train"]
                        for (i, g), n in counts.items()]
    lines += _table(["domain", "combination", "rows", "heldout"], combo_lines)
    return "\n".join(lines) + "\n"
