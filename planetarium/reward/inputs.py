"""A reward call's columns as plain data, checked in the caller's process before any item is sent.

Trainers hand the reward whatever their data pipeline holds: Python lists, NumPy arrays and
scalars (what pandas gives for a parquet list column, or for a CSV round trip that turned
booleans into 0 and 1), and now and then, by mistake, objects that are no completion at all (a
generator, a list nested 100,000 deep, an object whose ``__str__`` raises).  What a worker gets
is built here from exact ``str``, ``bool`` and tuples of ``str`` only, so it always pickles and
a worker never runs code of the caller's objects.  The rules:

* Completions and items are *data*, judged per item: a completion that is not a string or chat
  messages, or that raises while it is read, a ground truth that is not a string, and a
  benchmark record that is not a JSON object (text or mapping) its benchmark reads, make that
  item ``invalid-input``; every other item is graded.
* The placeholder flag and the anchored objects *configure* grading, so a wrong value would
  silently grade items the wrong way: the flag is ``True``/``False``, the integers 0 and 1
  (NumPy's too) or ``None`` (the options' default); the anchors are a list, tuple or NumPy array
  of names, or ``None``.  Anything else raises :class:`RewardConfigError` on the first call that
  holds it, before anything is graded.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Iterable, Mapping
from typing import Any

from ..benchmarks import Benchmark, ItemResult, Row
from ..grading import Status
from ..jsonl import decode
from ..pool import why
from .answer import NotACompletion, answer_of, completion_text
from .schemes import RewardConfigError
from .task import Rollout, settled


def values_of(column: Any, what: str) -> list[Any]:
    """A column's values as a list; a column that cannot be read is a configuration error."""
    try:
        return list(column)
    except Exception as err:  # noqa: BLE001 - whatever its __iter__ / __len__ raise
        raise RewardConfigError(f"{what} must be a sequence of values, got {shown(column)} "
                                f"({why(err)})") from None


def column(columns: dict[str, Any], name: str | None, n: int) -> list[Any] | None:
    """The values of the dataset column ``name``, one per completion (``None``: not passed)."""
    if name is None or name not in columns:
        return None
    values = values_of(columns[name], f"column {name!r}")
    if len(values) != n:
        raise RewardConfigError(f"column {name!r} has {len(values)} values for {n} completions")
    return values


def required_column(columns: dict[str, Any], name: str, n: int) -> list[Any]:
    """:func:`column`, for the column the reward cannot do without (the ground truth's)."""
    values = column(columns, name, n)
    if values is None:
        raise RewardConfigError(
            f"no dataset column {name!r} reached the reward (columns: "
            f"{', '.join(sorted(columns)) or 'none'}); set gt_column= to the ground truth's")
    return values


def placeholder_flags(values: Iterable[Any], where: str) -> list[bool | None]:
    """Each row's placeholder flag (see the module docstring for what is accepted)."""
    return [placeholder_flag(value, f"{where}, row {row}") for row, value in enumerate(values)]


def placeholder_flag(value: Any, where: str) -> bool | None:
    scalar = _python(value)
    if scalar is None or type(scalar) is bool:
        return scalar
    if type(scalar) is int and scalar in (0, 1):
        return bool(scalar)
    raise RewardConfigError(f"{where}: is_placeholder must be true or false (or 0 / 1), got "
                            f"{shown(value)}")


def anchor_lists(values: Iterable[Any], where: str) -> list[tuple[str, ...]]:
    """Each row's anchored object names (see the module docstring for what is accepted)."""
    return [anchor_names(value, f"{where}, row {row}") for row, value in enumerate(values)]


def anchor_names(value: Any, where: str) -> tuple[str, ...]:
    names = _python(value)
    if names is None:
        return ()
    if isinstance(names, (list, tuple)) and all(isinstance(name, str) for name in names):
        return tuple(exact_str(name) for name in names)
    raise RewardConfigError(f"{where}: anchored objects must be a list of object names, got "
                            f"{shown(value)}")


def planetarium_row(gt: Any, is_placeholder: bool | None, anchors: tuple[str, ...]
                    ) -> Row | str:
    """Planetarium's item row from the reward's columns (ground truth, placeholder flag,
    anchored objects), or why it cannot be one."""
    if not isinstance(gt, str):
        return f"the ground truth must be a string of PDDL, got {type(gt).__name__}"
    return {"id": "-", "problem_pddl": exact_str(gt), "is_placeholder": is_placeholder,
            "anchored_objects": list(anchors)}


def record_row(benchmark: Benchmark, record: Any) -> Row | str:
    """The item row of one published record (JSON text or a mapping), read by its benchmark,
    or why it cannot be one.  A mapping is copied through JSON (NumPy values, as pandas gives
    them, as lists), so the row is plain data whatever the caller's objects are."""
    try:
        if isinstance(record, (str, bytes)):
            value = decode(record)
        elif isinstance(record, Mapping):
            value = decode(json.dumps(dict(record), default=_python_or_refuse))
        else:
            return f"the item must be a JSON object (text or mapping), got {type(record).__name__}"
        if not isinstance(value, dict):
            return f"the item must be a JSON object, got {type(value).__name__}"
        return dict(benchmark.item_from_record(value))
    except Exception as err:  # noqa: BLE001 - a hostile record is that item's verdict
        return f"the {benchmark.name} benchmark cannot read the item: {why(err)}"


def settled_or_rollout(completion: Any, row: Row | str, number: int, think_marker: str | None,
                       metrics: tuple[str, ...]) -> Rollout | ItemResult:
    """The rollout to grade, or the result it gets without grading: ``invalid-input`` for an
    unusable item row (``row`` is then why) or a completion that is not one; every metric
    failed for a completion that holds no answer."""
    if isinstance(row, str):
        return settled(number, Status.INVALID_INPUT, row)
    try:
        text = completion_text(completion)
        answer, no_answer = (None, "no answer: the completion holds no text") if text is None \
            else answer_of(exact_str(text), think_marker)
    except NotACompletion as err:
        return settled(number, Status.INVALID_INPUT, str(err))
    except Exception as err:  # noqa: BLE001 - a message whose get / __eq__ / __iter__ raises
        return settled(number, Status.INVALID_INPUT, f"the completion could not be read: {why(err)}")
    if answer is None:
        return settled(number, Status.DECIDED, no_answer, metrics)
    key = row["problem_pddl"] if isinstance(row.get("problem_pddl"), str) else str(row.get("id"))
    return Rollout(answer, row, key)


def _python_or_refuse(value: Any) -> Any:
    """JSON's ``default``: NumPy values as plain Python; anything else is no JSON."""
    if type(value).__module__ == "numpy":
        return value.tolist()
    raise TypeError(f"a {type(value).__name__} is not JSON")


def exact_str(text: str) -> str:
    """A ``str`` subclass (``numpy.str_``, or one with hostile methods) as a plain ``str``,
    copied without calling any of its methods."""
    return text if type(text) is str else str.__getitem__(text, slice(None))


def _python(value: Any) -> Any:
    """NumPy scalars and arrays as plain Python (``numpy.bool_`` -> ``bool``, arrays -> lists)."""
    if type(value).__module__ == "numpy":
        try:
            return value.tolist()
        except Exception:  # noqa: BLE001 - refused by the caller as a value of the wrong kind
            return value
    return value


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 60


def shown(value: Any) -> str:
    """A short ``repr`` for an error message: bounded in length and depth, never raising."""
    try:
        return _SHORT.repr(value)
    except Exception:  # noqa: BLE001 - a hostile __repr__
        return f"a {type(value).__name__}"
