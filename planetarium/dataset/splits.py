"""Deterministic splits: random folds, held-out combinations, size and abstraction.

* **random** (the published generator's split): one ``random.Random(seed)`` for the whole
  dataset; domain by domain in name order, the domain's ids, sorted, are shuffled with it and
  dealt round-robin into ``folds`` folds; fold ``test_fold`` is "test".  With the published
  ids this gives the published folds.
* **heldout**: a row is "test" when its (init, goal) layouts match a configured rule — whole
  combinations are held out, so a model is tested on task shapes it never trained on.  A row
  outside the rules whose problem is a test problem up to renaming objects (:mod:`.leaks`:
  inverting towers of height 1 leaves them as they are, say) is "excluded" rather than
  "train": training on it would leak the test.  The published dataset had no such column; its
  train split is our train plus excluded.
* **size** and **abstraction** are functions of a row's columns (:func:`size_bin`,
  :func:`abstraction`), used by the report and by :func:`select`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from itertools import pairwise

from ..errors import PlanetariumError
from .config import DatasetConfig, DomainConfig
from .leaks import LeakFinder, problem_invariant
from .problem_text import read_generated

ABSTRACTION_CLASSES = ("explicit_to_explicit", "explicit_to_abstract",
                       "abstract_to_explicit", "abstract_to_abstract")


def assign_splits(rows: dict[str, list[dict]], config: DatasetConfig, *, progress: bool = False) -> None:
    """Add ``random_fold``, ``split_random`` and ``split_heldout`` to every domain's rows."""
    assign_random(rows, config.seed, config.folds, config.test_fold)
    for domain in config.domains:
        assign_heldout(rows[domain.name], domain, progress=progress)


def assign_random(rows: dict[str, list[dict]], seed: int, folds: int, test_fold: int) -> None:
    """The random folds (module docstring); ``rows`` maps domain names to their rows."""
    rng = random.Random(seed)
    for name in sorted(rows):
        ids = sorted(row["id"] for row in rows[name])
        rng.shuffle(ids)
        fold_of = {row_id: i % folds for i, row_id in enumerate(ids)}
        for row in rows[name]:
            row["random_fold"] = fold = fold_of[row["id"]]
            row["split_random"] = "test" if fold == test_fold else "train"


def assign_heldout(rows: list[dict], domain: DomainConfig, *, progress: bool = False) -> None:
    """``split_heldout`` of one domain's rows: test, train, or excluded (module docstring).

    Rows may carry their problem's leak-check invariant under ``"_invariant"`` (the generator
    computes it where it builds the problem); it is removed here, and computed for rows
    without it.
    """
    from ..domains import get_domain

    held = [any(rule.matches(row["init"], row["goal"]) for rule in domain.heldout) for row in rows]
    given = [row.pop("_invariant", _MISSING) for row in rows]
    leaked: set[str] = set()
    if any(held) and not all(held):
        kind = get_domain(domain.name)
        invariant: dict[str, int | None] = {}
        for row, value in zip(rows, given, strict=True):
            pddl = row["problem_pddl"]
            if pddl not in invariant:
                invariant[pddl] = (problem_invariant(read_generated(pddl), kind) if value is _MISSING
                                   else value)
        test = dict.fromkeys(r["problem_pddl"] for r, h in zip(rows, held, strict=True) if h)
        outside = dict.fromkeys(r["problem_pddl"] for r, h in zip(rows, held, strict=True) if not h)
        finder = LeakFinder(kind, ((read_generated(pddl), invariant[pddl]) for pddl in test))
        candidates: Iterable[str] = [pddl for pddl in outside
                                     if finder.may_be_test_problem(invariant[pddl])]
        if progress:
            from tqdm import tqdm

            candidates = tqdm(candidates, desc=f"{domain.name}: held-out leak check", unit="problem")
        leaked = {pddl for pddl in candidates
                  if finder.is_test_problem(read_generated(pddl), invariant[pddl])}
    for row, h in zip(rows, held, strict=True):
        row["split_heldout"] = "test" if h else "excluded" if row["problem_pddl"] in leaked else "train"


#: Marks a row without a leak-check invariant (``None`` is one: no goal state is reachable).
_MISSING = object()


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


class SplitError(PlanetariumError, ValueError):
    """A split selector that names no split."""


#: What each selector kind accepts, for error messages.
_USAGE = ("heldout:train|test|excluded", "random:train|test|<fold>", "abstraction:<class>",
          "placeholder:true|false", "domain:<name>")


def _selector(kind: str, value: str) -> Callable[[dict], bool] | None:
    """The row test of one ``kind:value`` selector, or ``None`` if it names nothing."""
    if kind == "heldout" and value in ("train", "test", "excluded"):
        return lambda row: row["split_heldout"] == value
    if kind == "random" and value in ("train", "test"):
        return lambda row: row["split_random"] == value
    if kind == "random" and value.isdigit():
        return lambda row: row["random_fold"] == int(value)
    if kind == "abstraction" and value in ABSTRACTION_CLASSES:
        return lambda row: abstraction(row) == value
    if kind == "placeholder" and value in ("true", "false"):
        return lambda row: row["is_placeholder"] == (value == "true")
    if kind == "domain" and value:
        return lambda row: row["domain"] == value
    return None


def split_filter(split: str | None) -> Callable[[dict], bool]:
    """A row predicate for ``split`` (see :func:`select`), checked once, before any row is
    read, so a typo in a config fails at once and names what would have been accepted."""
    if split is None:
        return lambda row: True
    tests = []
    for part in split.split("+"):
        kind, _, value = part.partition(":")
        test = _selector(kind, value)
        if test is None:
            raise SplitError(f"unknown split '{part}': use {', '.join(_USAGE)} (joined with '+')")
        tests.append(test)
    return lambda row: all(test(row) for test in tests)


def split_problem(split: str | None) -> str | None:
    """What is wrong with ``split`` (a config check), or ``None``."""
    try:
        split_filter(split)
    except SplitError as err:
        return str(err)
    return None


def select(rows: list[dict], split: str | None) -> list[dict]:
    """Rows of one split: ``"heldout:test"``, ``"heldout:excluded"``, ``"random:train"``,
    ``"random:3"`` (a fold), ``"abstraction:abstract_to_explicit"``, ``"placeholder:true"``,
    ``"domain:gripper"``; ``None`` keeps every row.  Several selectors may be joined with ``+``
    (all must hold)."""
    keep = split_filter(split)
    return [row for row in rows if keep(row)]
