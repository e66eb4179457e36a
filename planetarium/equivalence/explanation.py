"""What an explanation holds, and how it reads: the data model of
:mod:`planetarium.equivalence.explain`, its error categories and its text.

An :class:`Explanation` is plain data (JSON via :meth:`Explanation.to_dict`, back via
:meth:`Explanation.from_dict`), so a result row, a report and the run viewer read the same thing;
:func:`categorise` derives the error categories from it, :func:`summarise` its one-line summary
and :func:`describe` the text ``planetarium grade --explain`` prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

IDENTITY, PLACEHOLDER, STRICT_PLACEHOLDER = "identity", "placeholder", "strict-placeholder"
NOT_EQUIVALENT, UNSOLVABLE, NOT_PARSEABLE, EQUIVALENT = (
    "not-equivalent", "unsolvable", "not-parseable", "equivalent")
#: The goal a difference list is over: the fully specified goal, or the goal as written (where
#: that is no longer and still a certificate — a literal the other side's goal implies is then
#: no difference — or where no goal state is reachable), or nothing itemised (a goal with
#: ``or`` / ``exists`` / ...).  Either way without the literals the initial state alone decides
#: (facts true in every reachable state, static facts false in it): a difference there is an
#: initial-state difference, listed once, under ``init``.
FULLY_SPECIFIED, AS_WRITTEN, FORMULA = "fully-specified", "as-written", "formula"
#: Prefix of a prediction object with no counterpart whose name a ground-truth object also has
#: (repeated while the prefixed name is taken too; :attr:`Explanation.extra_as` says which).
PRED_PREFIX = "pred:"

#: Error categories (see :func:`categorise`), in the order reports list them.
CATEGORIES = ("not-parseable", "unsolvable", "wrong-object-count", "init-differs",
              "goal-under-specified", "goal-over-specified", "wrong-goal", "placeholder-misuse")


@dataclass(frozen=True)
class Differences:
    """Atoms (or objects) the ground truth has and the prediction lacks, and the reverse."""

    missing: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.missing) + len(self.extra)


@dataclass(frozen=True)
class Explanation:
    """What differs between a prediction and its ground truth, and under which renaming.

    Serialised by :meth:`to_dict` (the ``"explanation"`` key of a result row); see the module
    docstring for the meaning of each part.  ``complete`` is ``False`` when the time limit cut
    the explanation short (the verdict stands; the renaming is then the best found so far).
    """

    kind: str
    mode: str = IDENTITY
    anchored: tuple[str, ...] = ()
    optimal: bool = False
    renaming: dict[str, str] = field(default_factory=dict)
    goal_renaming: dict[str, str] | None = None
    #: Placeholder mode: a ground-truth object the goal renaming leaves over -> the one the init
    #: renaming leaves over that stands for the same added object.
    goal_missing_as: dict[str, str] = field(default_factory=dict)
    objects: Differences = Differences()
    #: Prediction object with no counterpart -> the name the explanation writes it under, for
    #: those whose own name a ground-truth object has (every name an explanation writes is
    #: then exactly one object's, whatever characters the reader accepted in names).
    extra_as: dict[str, str] = field(default_factory=dict)
    missing_types: dict[str, str] = field(default_factory=dict)
    init: Differences = Differences()
    goal: Differences = Differences()
    goal_false: Differences = Differences()
    goal_basis: str = FULLY_SPECIFIED
    #: Why no change to the prediction can make it equivalent (an anchored name the ground
    #: truth lacks), else ``None``.
    unrepairable: str | None = None
    unsolvable: dict[str, str | None] | None = None
    categories: tuple[str, ...] = ()
    summary: str = ""
    complete: bool = True

    @property
    def size(self) -> int:
        """The number of differing facts (objects not counted)."""
        return len(self.init) + len(self.goal) + len(self.goal_false)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (tuples as lists)."""
        out = asdict(self)
        for key in ("objects", "init", "goal", "goal_false"):
            out[key] = {k: list(v) for k, v in out[key].items()}
        out["anchored"] = list(self.anchored)
        out["categories"] = list(self.categories)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Explanation:
        """The inverse of :meth:`to_dict` (for reading result rows back)."""
        values = dict(data)
        for key in ("objects", "init", "goal", "goal_false"):
            part = values.get(key) or {}
            values[key] = Differences(tuple(part.get("missing", ())), tuple(part.get("extra", ())))
        values["anchored"] = tuple(values.get("anchored", ()))
        values["categories"] = tuple(values.get("categories", ()))
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in values.items() if k in known})


def not_parseable(reason: str) -> Explanation:
    """A prediction that could not be read: the reader's reason is the whole explanation."""
    return Explanation(NOT_PARSEABLE, optimal=True, categories=("not-parseable",),
                       summary=f"the prediction is not a valid problem: {reason}")


def base_categories(kind: str) -> tuple[str, ...]:
    """The categories a verdict's kind alone implies (also for explanations cut short)."""
    return {NOT_PARSEABLE: ("not-parseable",), UNSOLVABLE: ("unsolvable",)}.get(kind, ())


def categorise(explanation: Explanation, placeholder_misuse: bool = False) -> tuple[str, ...]:
    """Error categories of an explanation, in :data:`CATEGORIES` order (several may apply).

    ``wrong-object-count``: objects without counterpart; ``init-differs``: initial facts differ;
    goal literals only missing: ``goal-under-specified``, only added: ``goal-over-specified``,
    both: ``wrong-goal``; ``placeholder-misuse``: identity mode, the goal has the right
    arrangement on the wrong objects (placeholder mode would accept it).  Goal differences
    never include literals the initial state alone decides (static facts among them), so an
    initial-state mistake is an init category only.
    """
    if explanation.kind == EQUIVALENT:
        return ()
    found = set(base_categories(explanation.kind))
    if explanation.objects:
        found.add("wrong-object-count")
    if explanation.init:
        found.add("init-differs")
    missing = bool(explanation.goal.missing or explanation.goal_false.missing)
    extra = bool(explanation.goal.extra or explanation.goal_false.extra)
    if missing and extra:
        found.add("wrong-goal")
    elif missing:
        found.add("goal-under-specified")
    elif extra:
        found.add("goal-over-specified")
    if placeholder_misuse:
        found.add("placeholder-misuse")
    return tuple(c for c in CATEGORIES if c in found)


def _listed(atoms: tuple[str, ...], limit: int = 3) -> str:
    shown = ", ".join(atoms[:limit])
    return shown + (f" and {len(atoms) - limit} more" if len(atoms) > limit else "")


def _part(what: str, diff: Differences, lacks: str = "lacks", has: str = "has extra") -> str | None:
    bits = []
    if diff.missing:
        bits.append(f"{lacks} {_listed(diff.missing)}")
    if diff.extra:
        bits.append(f"{has} {_listed(diff.extra)}")
    return f"{what} " + " and ".join(bits) if bits else None


def _negated(atoms: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f"(not {x})" for x in atoms)


def _goal_parts(e: Explanation) -> tuple[tuple[str, Differences], ...]:
    """The goal's differences as a reader sees them: over the goal as written, its negative
    literals as ``(not ...)`` among the others (as the answer wrote them); over the fully
    specified goal, the facts false in every goal state apart."""
    if e.goal_basis == AS_WRITTEN:
        return (("goal as written",
                 Differences(e.goal.missing + _negated(e.goal_false.missing),
                             e.goal.extra + _negated(e.goal_false.extra))),)
    title = "fully specified goal" if e.goal_basis == FULLY_SPECIFIED else "goal"
    return ((title, e.goal), ("facts false in every goal state", e.goal_false))


def summarise(e: Explanation) -> str:
    """One line a person reads: what differs, under which kind of renaming."""
    if e.kind == NOT_PARSEABLE:
        return e.summary
    parts = [p for p in (
        _part("objects:", e.objects, "missing", "extra"), _part("init", e.init),
        *(_part(title, diff) for title, diff in _goal_parts(e))) if p]
    head = {EQUIVALENT: "equivalent", NOT_EQUIVALENT: "not equivalent",
            UNSOLVABLE: "unsolvable"}[e.kind]
    if e.kind == UNSOLVABLE and e.unsolvable:
        fact = e.unsolvable.get("fact")
        head += (f" ({fact} never holds: {e.unsolvable['certificate']})" if fact
                 else f" ({e.unsolvable['certificate']})")
    if e.goal_basis == FORMULA:
        parts.append("the goal formula's differences are not itemised")
    renaming = "best renaming" if e.optimal else "renaming found (best effort, not proven best)"
    if e.goal_renaming is not None:
        renaming += ", goal objects renamed separately"
    if e.anchored:
        renaming += f", anchored: {', '.join(e.anchored)}"
    if e.unrepairable:
        parts.append(f"no repair exists: {e.unrepairable}")
    body = "; ".join(parts) if parts else "no differing facts"
    cut = "" if e.complete else " [cut short by the time limit]"
    return f"{head} — under the {renaming}: {body}{cut}"


def describe(e: Explanation) -> str:
    """The explanation as indented text for a terminal (``planetarium grade --explain``)."""
    lines = ["explanation:", f"  {e.summary}"]
    if e.kind == NOT_PARSEABLE:
        return "\n".join(lines)
    if e.categories:
        lines.append(f"  categories: {', '.join(e.categories)}")
    lines.append(f"  mode: {e.mode}" + (f" (anchored: {', '.join(e.anchored)})" if e.anchored
                                          else ""))
    proof = "proven to have the fewest differences" if e.optimal else "best effort"
    lines.append(f"  renaming (prediction -> ground truth; {proof}):")
    lines += [f"    {p} -> {g}" for p, g in e.renaming.items() if p != g] or ["    (names kept)"]
    if e.goal_renaming is not None and e.goal_renaming != e.renaming:
        lines.append("  goal renaming (placeholder mode):")
        lines += [f"    {p} -> {g}" for p, g in e.goal_renaming.items() if p != g]
    for title, diff in (("objects", e.objects), ("init", e.init), *_goal_parts(e)):
        for sign, items, what in (("-", diff.missing, "only the ground truth has"),
                                  ("+", diff.extra, "only the prediction has")):
            if items:
                lines.append(f"  {title}, {what}:")
                lines += [f"    {sign} {x}" for x in items]
    if e.unsolvable:
        lines.append(f"  unsolvable: {e.unsolvable.get('fact') or '(no single fact)'} — "
                     f"{e.unsolvable['certificate']}")
    return "\n".join(lines)
