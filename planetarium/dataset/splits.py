"""Deterministic splits, per domain: random folds, held-out combinations, size and abstraction.

* **random**: the domain's ids, sorted, are shuffled with ``random.Random(seed)`` and dealt
  round-robin into ``folds`` folds; fold ``test_fold`` is "test".  Each domain gets a fresh
  generator seeded alike, so adding or resizing one domain never reshuffles another.
* **heldout**: a row is "test" when its (init, goal) layouts match a configured rule — whole
  combinations are held out, so a model is tested on task shapes it never trained on.  Layouts
  can coincide on degenerate parameters (inverting towers of height 1 leaves them as they are;
  drop_and_pickup with nothing held is pickup), so a row outside the rules whose problem is
  also a test problem is "excluded" rather than "train": training on it would leak the test.
* **size** and **abstraction** are functions of a row's columns (:func:`size_bin`,
  :func:`abstraction`), used by the report and by :func:`select`.
"""

from __future__ import annotations

import random
from itertools import pairwise

from .config import DatasetConfig, DomainConfig
from .problem_text import problem_key

ABSTRACTION_CLASSES = ("explicit_to_explicit", "explicit_to_abstract",
                       "abstract_to_explicit", "abstract_to_abstract")


def assign_splits(rows: list[dict], domain: DomainConfig, config: DatasetConfig) -> None:
    """Add ``random_fold``, ``split_random`` and ``split_heldout`` to one domain's rows."""
    ids = sorted(row["id"] for row in rows)
    random.Random(config.seed).shuffle(ids)
    fold_of = {row_id: i % config.folds for i, row_id in enumerate(ids)}
    held = [any(rule.matches(row["init"], row["goal"]) for rule in domain.heldout) for row in rows]
    test_problems = {problem_key(row["problem_pddl"]) for row, h in zip(rows, held) if h}
    for row, h in zip(rows, held):
        fold = fold_of[row["id"]]
        row["random_fold"] = fold
        row["split_random"] = "test" if fold == config.test_fold else "train"
        if h:
            row["split_heldout"] = "test"
        else:
            leaks = problem_key(row["problem_pddl"]) in test_problems
            row["split_heldout"] = "excluded" if leaks else "train"


def abstraction(row: dict) -> str:
    """``"explicit_to_abstract"`` etc.: the row's abstractness class."""
    init = "abstract" if row["init_is_abstract"] else "explicit"
    goal = "abstract" if row["goal_is_abstract"] else "explicit"
    return f"{init}_to_{goal}"


def size_bin(row: dict, bins: tuple[int, ...] = (20, 40, 60, 80)) -> str:
    """``"(20,40]"``: the bin of the row's init + goal proposition count."""
    size = row["init_num_propositions"] + row["goal_num_propositions"]
    lower = 0
    for upper in bins:
        if size <= upper:
            return f"({lower},{upper}]"
        lower = upper
    return f"({lower},inf)"


def size_bins(bins: tuple[int, ...] = (20, 40, 60, 80)) -> list[str]:
    edges = (0, *bins)
    return [f"({lo},{hi}]" for lo, hi in pairwise(edges)] + [f"({bins[-1]},inf)"]


def select(rows: list[dict], split: str | None) -> list[dict]:
    """Rows of one split: ``"heldout:test"``, ``"heldout:excluded"``, ``"random:train"``,
    ``"random:3"`` (a fold), ``"abstraction:abstract_to_explicit"``, ``"placeholder:true"``,
    ``"domain:gripper"``; ``None`` keeps every row.  Several selectors may be joined with ``+``
    (all must hold)."""
    if split is None:
        return list(rows)
    selected = rows
    for part in split.split("+"):
        kind, _, value = part.partition(":")
        selected = [row for row in selected if _matches(row, kind, value, part)]
    return selected


def _matches(row: dict, kind: str, value: str, part: str) -> bool:
    if kind == "heldout" and value in ("train", "test", "excluded"):
        return row["split_heldout"] == value
    if kind == "random" and value in ("train", "test"):
        return row["split_random"] == value
    if kind == "random" and value.isdigit():
        return row["random_fold"] == int(value)
    if kind == "abstraction" and value in ABSTRACTION_CLASSES:
        return abstraction(row) == value
    if kind == "placeholder" and value in ("true", "false"):
        return row["is_placeholder"] == (value == "true")
    if kind == "domain" and value:
        return row["domain"] == value
    raise ValueError(
        f"unknown split '{part}': use heldout:train|test|excluded, random:train|test|<fold>, "
        f"abstraction:<class>, placeholder:true|false or domain:<name>")
