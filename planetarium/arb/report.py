"""Tables of ARB result rows: accuracy per category and domain, label checks, ARB's own reading.

Two accuracies are printed for true/false questions and kept apart: ours (every question counts;
an answer that does not read is wrong) and ARB's own (its keyword rule, questions where both
or neither keyword appears dropped from the denominator, compared with the *stored* label),
labelled as such, for comparison with published numbers.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from .questions import ILL_POSED

#: The columns of the score table: how the answers read (a row's ``arb_outcome``; the last two
#: are the shared statuses of questions no reading was reached on).
OUTCOMES = ("correct", "wrong", "unparsed", "ambiguous", "unsupported", "timeout",
            "internal-error")


def _key(row: dict[str, Any], axes: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(str(row.get(a)) for a in axes)


def summarize(rows: Iterable[dict[str, Any]], axes: tuple[str, ...] = ("category", "domain")
              ) -> list[dict[str, Any]]:
    """One line per group of ``axes`` and a final "all" line: counts per outcome, accuracy over
    decided rows, label disagreements, and ARB's dropped-denominator accuracy."""
    groups: dict[tuple[str, ...], list[dict]] = defaultdict(list)
    everything = []
    for row in rows:
        groups[_key(row, axes)].append(row)
        everything.append(row)
    lines = [_line(dict(zip(axes, key, strict=True)), group) for key, group in sorted(groups.items())]
    lines.append(_line({a: "all" for a in axes}, everything))
    return lines


def _line(head: dict[str, str], rows: list[dict[str, Any]]) -> dict[str, Any]:
    outcomes = Counter(r["arb_outcome"] for r in rows)
    scored = [r for r in rows if r.get("score") is not None]
    keyword = [r for r in rows if r.get("arb_keyword") in ("True", "False")]
    tf = [r for r in rows if "arb_keyword" in r]
    return {**head, "n": len(rows), **{s: outcomes.get(s, 0) for s in OUTCOMES},
            "accuracy": round(sum(r["score"] for r in scored) / len(scored), 4) if scored
            else None,
            "label_disagrees": sum(r.get("label_agrees") is False for r in rows),
            "arb_tf_n": len(keyword), "arb_tf_dropped": len(tf) - len(keyword),
            "arb_tf_accuracy": round(sum(r["arb_keyword"] == r["label"] for r in keyword)
                                     / len(keyword), 4) if keyword else None}


def format_table(lines: list[dict[str, Any]], axes: tuple[str, ...] = ("category", "domain")
                 ) -> str:
    head = [*axes, "n", *OUTCOMES, "accuracy", "label≠", "ARB TF acc (dropped)"]
    body = []
    for line in lines:
        arb = ("-" if line["arb_tf_accuracy"] is None
               else f"{line['arb_tf_accuracy']:.3f} (n={line['arb_tf_n']}, "
                    f"-{line['arb_tf_dropped']})")
        acc = "-" if line["accuracy"] is None else f"{line['accuracy']:.3f}"
        body.append([*(line[a] for a in axes), line["n"], *(line[s] for s in OUTCOMES), acc,
                     line["label_disagrees"], arb])
    return _grid(head, body)


def _grid(head: list[str], body: list[list[Any]]) -> str:
    cells = [head] + [[str(c) for c in row] for row in body]
    widths = [max(len(row[i]) for row in cells) for i in range(len(head))]
    out = [" | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in cells]
    out.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(out)


def label_summary(rows: Iterable[dict[str, Any]], axes: tuple[str, ...] = ("category", "domain")
                  ) -> list[dict[str, Any]]:
    """Per group: how many stored labels agree with the recomputed answer, disagree, or could
    not be checked (and why, by status)."""
    groups: dict[tuple[str, ...], list[dict]] = defaultdict(list)
    everything = []
    for row in rows:
        groups[_key(row, axes)].append(row)
        everything.append(row)

    def line(head: dict[str, str], group: list[dict]) -> dict[str, Any]:
        return {**head, "n": len(group), "agree": sum(r["label_agrees"] is True for r in group),
                "disagree": sum(r["label_agrees"] is False for r in group),
                "unchecked": sum(r["label_agrees"] is None for r in group)}
    lines = [line(dict(zip(axes, key, strict=True)), group) for key, group in sorted(groups.items())]
    lines.append(line({a: "all" for a in axes}, everything))
    return lines


def format_labels(lines: list[dict[str, Any]], axes: tuple[str, ...] = ("category", "domain")
                  ) -> str:
    head = [*axes, "n", "agree", "disagree", "unchecked"]
    return _grid(head, [[*(line[a] for a in axes), line["n"], line["agree"], line["disagree"],
                         line["unchecked"]] for line in lines])


def disagreement_line(row: dict[str, Any]) -> str:
    """One line: which question, what the label says, what holds, and the certificate."""
    why = row.get("label_why") or {}
    cert = why.get("certificate") or {}
    shown = {k: v for k, v in cert.items() if k in ("step", "action", "fact", "missing", "said")}
    return (f"{row['category']}/{row['domain']} {row['id']} ({row.get('frame')}): label "
            f"{_short(why.get('stored'))}, recomputed {_short(why.get('recomputed'))}: "
            f"{why.get('reason', '')}" + (f" {shown}" if shown else ""))


def _short(value: Any, limit: int = 6) -> str:
    if isinstance(value, list) and len(value) > limit:
        return str(value[:limit])[:-1] + f", ... {len(value) - limit} more]"
    return str(value)


def ill_posed_lines(rows: Iterable[dict[str, Any]]) -> str:
    """The ill-posed question families met, with how many questions each (out of the label
    count: their text does not say what the generator asked), or a line saying there were
    none."""
    found = Counter(row["ill_posed"]["family"] for row in rows if "ill_posed" in row)
    if not found:
        return "ill-posed questions: none"
    lines = ["ill-posed questions (scored as written, both readings in each row, labels not "
             "checked):"]
    lines += [f"  {n} {family}: {ILL_POSED[family]}" for family, n in sorted(found.items())]
    return "\n".join(lines)
