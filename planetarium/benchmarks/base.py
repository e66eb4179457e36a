"""What a benchmark is to the evaluation loop: items, a prompt per item, a grader, report axes.

``planetarium eval run / grade / report`` know nothing about PDDL or ACPBench: they ask the
benchmark named in the config's ``benchmark:`` section for its items (plain JSON rows, written
to the run folder as they are), for the chat of one item, and, once the model has answered, to
grade *one* answer into one :class:`ItemResult`.  The loop (:mod:`planetarium.loop`, through
:mod:`.grader`) owns the rest: worker processes, the item's one
:class:`~planetarium.limits.Deadline` (made from ``timeout_s`` and the benchmark's
:attr:`Benchmark.clock`), a hard kill past it, input order, progress and resume.  Every
benchmark reports in the same vocabulary: the :class:`~planetarium.grading.Status` of the
grader (``decided``, ``timeout``, ``unsupported``, ``invalid-input``, ``internal-error``) and a
``correct`` that is ``None`` exactly when the status is not ``decided``; so a time limit is
never a wrong answer, in any benchmark.

A benchmark's own settings are a subclass of :class:`BenchmarkConfig` (its extra fields are
checked like every config value); ``Benchmark[MyConfig]`` makes every method take that type.
The benchmark says which of its metrics chain into ``correct`` and which item fields the report
breaks rates down by.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from ..config import at_least, between, setting
from ..errors import PlanetariumError
from ..grading import Status
from ..limits import MAX_TIMEOUT_S, Clock, Deadline
from .hooks import PresentationHooks

Messages = list[dict[str, str]]
Row = dict[str, Any]

#: Keys every verdicts.jsonl line has; a benchmark's own keys sit beside them (never these).
RESULT_KEYS = ("id", "status", "correct", "score", "metrics", "groups", "reason")


def _splits(value: tuple[str | None, ...]) -> str | None:
    return None if value else "at least one split (null selects every item)"


@dataclass(frozen=True)
class BenchmarkConfig:
    """The ``benchmark:`` section every benchmark shares; subclasses add their own fields.

    ``timeout_s`` is *the* grading time limit of one answer: ``eval grade --timeout`` overrides
    it and it reaches the grader's workers unchanged (no other name, no other channel).
    """

    name: str = setting(check=lambda v: None if v else "a registered benchmark name")
    dataset: str = setting(check=lambda v: None if v else "a dataset path or hub id")
    split: tuple[str | None, ...] = setting(("test",), check=_splits)
    limit: int | None = setting(None, check=at_least(1))
    seed: int = 0
    timeout_s: float = setting(10.0, check=between(0.001, MAX_TIMEOUT_S), affects_output=False)


@dataclass(frozen=True)
class ItemResult:
    """One graded answer in the shared schema (one line of ``verdicts.jsonl``); ``id`` is
    ``str`` of the item's id.

    ``metrics``: the benchmark's named stages (e.g. parseable, solvable, correct), true, false
    or null; ``groups``: the item fields the report breaks rates down by (domain, task, ...);
    ``details``: benchmark-specific keys written beside the shared ones.
    """

    id: str
    status: Status
    correct: bool | None
    reason: str = ""
    score: float | None = None
    metrics: dict[str, bool | None] = field(default_factory=dict)
    groups: dict[str, str] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if (self.correct is None) != (self.status is not Status.DECIDED):
            raise ValueError(f"a {self.status} result cannot carry correct={self.correct!r}")
        clash = set(self.details) & set(RESULT_KEYS)
        if clash:
            raise ValueError(f"details may not reuse the shared keys {sorted(clash)}")

    def to_dict(self) -> dict[str, Any]:
        return {**self.details, "id": self.id, "status": self.status.value,
                "correct": self.correct, "score": self.score, "metrics": dict(self.metrics),
                "groups": dict(self.groups), "reason": self.reason}


ConfigT = TypeVar("ConfigT", bound=BenchmarkConfig)


class ItemsError(PlanetariumError, TypeError):
    """A benchmark's ``load_items`` broke its contract (:meth:`Benchmark.load_items`): the
    benchmark's bug, reported in one line naming it."""


def _shown(row: object) -> str:
    """``row`` for a one-line message: its start only (a row may hold a whole problem)."""
    text = repr(row)
    return text if len(text) <= 80 else text[:77] + "..."


class Benchmark(PresentationHooks, ABC, Generic[ConfigT]):
    """One benchmark: subclass ``Benchmark[ItsConfig]``, set the class attributes, implement the
    four methods; override a presentation hook (:mod:`.hooks`) to show more than the defaults
    do."""

    #: The name a config's ``benchmark.name`` selects it by.
    name: ClassVar[str]
    #: Its ``benchmark:`` section (BenchmarkConfig or a subclass with its own fields).
    config_type: type[ConfigT] = BenchmarkConfig  # type: ignore[assignment]  # the bound: no own fields
    #: Stages in order, each counting only items that passed the ones before; the last is
    #: ``correct``.
    metrics: ClassVar[tuple[str, ...]] = ("correct",)
    #: Item fields the report breaks rates down by, one table per tuple.
    breakdowns: ClassVar[tuple[tuple[str, ...], ...]] = ()
    #: What ``timeout_s`` counts for one item: wall time, or CPU time where verdicts must not
    #: depend on how busy the machine is (a CPU deadline still ends after
    #: :data:`planetarium.limits.WALL_FACTOR` times as much wall time).
    clock: ClassVar[Clock] = Clock.WALL

    @abstractmethod
    def load_items(self, config: ConfigT) -> list[Row]:
        """The selected items as JSON-ready rows, each with a unique ``id`` (a string, or an
        integer: the loop, the completions and the results use ``str(id)``).

        The contract (the framework reads items only through :meth:`items`, which checks it):

        - *select*: only the items of ``config.split`` (a ``None`` in it selects every item),
          then at most ``config.limit`` of them (``None``: all), in a fixed order; any sampling
          or shuffling is drawn from ``config.seed`` alone, so one config always selects the
          same items (runs resume and compare by it);
        - *refuse with* :class:`~planetarium.config.ConfigError` (``key`` naming the setting,
          e.g. ``"benchmark.dataset"``) a config it cannot serve: a missing or unreadable
          dataset, an unknown split.  Every command reports a ``PlanetariumError`` in one line.

        :meth:`items` keeps the first ``config.limit`` rows whatever this returns, so applying
        the limit here is only an economy (not reading a whole hub dataset)."""

    def items(self, config: ConfigT) -> list[Row]:
        """:meth:`load_items`, checked: the framework's one way to get a benchmark's items (not
        to be overridden).

        The rows are cut to ``config.limit``; rows that are not mappings, ids that are missing,
        not a string or an integer, or repeated (completions and results are keyed by
        ``str(id)``) raise :class:`ItemsError` naming the benchmark."""
        rows = self.load_items(config)
        if not isinstance(rows, list):
            raise ItemsError(f"{self.name}: load_items must return a list of rows, "
                             f"got {type(rows).__name__}")
        if config.limit is not None:
            rows = rows[:config.limit]
        seen: set[str] = set()
        for row in rows:
            item_id = row.get("id") if isinstance(row, dict) else None
            if isinstance(item_id, bool) or not isinstance(item_id, (str, int)):
                raise ItemsError(f"{self.name}: every item must be a dict with an 'id' (a string "
                                 f"or an integer), got {_shown(row)}")
            if str(item_id) in seen:
                raise ItemsError(f"{self.name}: item id {str(item_id)!r} is not unique")
            seen.add(str(item_id))
        return rows

    def split_names(self, config: ConfigT) -> tuple[str, ...]:
        """The split names ``config.dataset`` holds, so that a selection with no items can say
        which to pick instead (the adapters' one-line error); default: none known."""
        return ()

    @abstractmethod
    def messages(self, config: ConfigT, item: Row) -> Messages:
        """The chat the model answers for ``item``."""

    @abstractmethod
    def prompt_fingerprint(self, config: ConfigT) -> str:
        """A short hash of everything that shapes the prompts: runs with different ones are
        never mixed or compared silently."""

    @abstractmethod
    def grade(self, config: ConfigT, item: Row, answer: str, deadline: Deadline, *,
              explain: bool = False) -> ItemResult:
        """The result of ``answer`` to ``item`` (id ``str(item["id"])``); never raises on a
        hostile answer.

        It runs in a worker process of the loop, under ``deadline`` (the item's one deadline,
        also in force for :func:`planetarium.limits.check_deadline`): work past it is reported
        ``timeout``, never a wrong answer, and a grader that overruns it by more than a second
        is killed (the item then gets :meth:`ungraded`).  ``explain``: attach why the verdict
        was reached where the benchmark can say it (Planetarium's renaming and differences,
        :mod:`planetarium.equivalence.explain`); a benchmark that cannot ignores it."""

    def ungraded(self, config: ConfigT, item: Row, status: Status, reason: str) -> ItemResult:
        """The result of an item whose grading gave none: its worker was killed past the
        deadline (``timeout``), died, or :meth:`grade` raised (``internal-error``).  By
        default the shared keys only, with the breakdown fields the item itself holds."""
        axes = {axis for axes in self.breakdowns for axis in axes}
        return ItemResult(str(item["id"]), status, None, reason,
                          groups={axis: str(item[axis]) for axis in sorted(axes) if axis in item})

    def summary(self, results: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Extra aggregates for ``results.json`` beside the shared ones (default: none)."""
        return {}

    # --- the reward (planetarium.reward): one answer of a trainer's rollout --------------------

    def item_from_record(self, record: dict[str, Any]) -> Row:
        """The item row of one *published* record (one line of the benchmark's data, as a
        trainer's dataset carries it), which :meth:`grade` then grades against; raises
        ``ValueError`` (one line) for a record that is not the benchmark's.  Default: the record
        is the row; an ``id`` is required."""
        if "id" not in record or isinstance(record["id"], (dict, list)):
            raise ValueError("the record has no scalar 'id'")
        return record

    def reward_config(self, timeout_s: float, *, headline_only: bool = False) -> ConfigT:
        """The settings the reward grades with (``timeout_s``: each answer's).  ``headline_only``:
        the reward's scheme reads ``correct`` alone, so a benchmark may skip work that only
        fills other metrics.  Default: the config type's defaults."""
        return self.config_type(name=self.name, dataset="(reward)", timeout_s=timeout_s)
