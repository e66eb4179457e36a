"""``grade --batch`` on a Ray Data dataset: grading past one machine, unchanged on a laptop.

    import ray
    from planetarium.integrations.ray import grade_dataset

    ray.init()                                  # or ray.init(address=...) / RAY_ADDRESS: a cluster
    pairs = ray.data.read_json("pairs.jsonl")   # rows {"id", "gt", "pred", ...}: grade --batch's
    graded = grade_dataset(pairs)               # rows: GradeResult.to_dict(), grade --batch's
    graded.write_json("results/")

The rows are ``grade --batch``'s items — ``gt`` and ``pred`` (PDDL text), optional ``id``,
``is_placeholder`` and ``anchored_objects`` (a null reads as a missing value: Arrow cannot tell
them apart) — and each output row is the row ``grade --batch`` writes for the item
(:meth:`~planetarium.grading.GradeResult.to_dict`), the same verdicts and statuses: a time limit
is ``timeout``, a bad item ``invalid-input``, never an exception.  Only the command's
``input_sha256`` is missing: it is the digest of an input line, for ``--resume``, and a Ray
dataset's rows have no lines.  ``keep`` names input columns
to carry over beside the result (the answer, a prompt id for rejection sampling).

:class:`Grader` is the callable class ``Dataset.map_batches`` runs as Ray actors: one per
worker slot, each holding ``grade --batch``'s item loop (:func:`planetarium.batch.grading_loop`,
a pool of ``workers_per_actor`` grading processes) open for its whole life, so the per-item hard
deadline, the replacement of dead workers and the ground-truth memo each grading process keeps
(``planetarium.grading.TRUTHS``) carry over from batch to batch.

``benchmark="acpbench"`` / ``"arb"`` (any registered benchmark but Planetarium) grades another
benchmark's answers instead: rows ``{"item", "answer"}``, ``item`` the benchmark's published
record (JSON text or a struct, as the reward reads it), each graded by the benchmark's own
grader on the item loop (:class:`~planetarium.benchmarks.ItemGrader`, ``timeout_s`` per answer
on the benchmark's clock); each output row is the shared result (``id``, ``status``,
``correct``, ``score``, ``reason``) with ``metrics``, ``groups`` and ``details`` as JSON text
(their keys differ from benchmark to benchmark and row to row).  A record the benchmark does not
read is that row's ``invalid-input``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..batch import grading_loop
from ..benchmarks import ItemGrader, ItemResult, get_benchmark
from ..benchmarks.base import RESULT_KEYS
from ..errors import require
from ..grading import GradeOptions, GradeResult, Stage, Status
from ..reward.inputs import record_row

if TYPE_CHECKING:
    import pyarrow
    import ray.data

#: The input columns an item is made of (``grade --batch``'s keys); other columns are ignored
#: unless kept.
ITEM_KEYS = ("id", "gt", "pred", "is_placeholder", "anchored_objects")
#: Rows per batch handed to an actor: each batch costs Ray a scheduling round and two Arrow
#: conversions (on two CPUs, 64 rows a batch graded 300-315 rows/s where 256 graded 400-490 and
#: 1,024 415-450), and a slow row holds back only its own batch.
BATCH_SIZE = 256
#: The benchmark whose rows are ``grade --batch``'s items.
BATCH_BENCHMARK = "planetarium"
#: Seconds per answer of another benchmark (on its clock), unless ``timeout_s`` says.
DEFAULT_TIMEOUT_S = 10.0


class Grader:
    """Grades Ray Data batches (``pyarrow.Table`` in, ``pyarrow.Table`` out) in a persistent
    pool of ``workers`` grading processes, with ``options`` as ``grade --batch``'s defaults.

    ``options.explain`` is refused: an explanation's keys are object names, which no columnar
    schema holds (``grade --batch --explain`` writes them).  ``keep``: input columns copied to
    each output row beside the result's.  ``benchmark``: another registered benchmark's
    ``{"item", "answer"}`` rows instead (see the module docstring; ``timeout_s`` per answer).
    """

    def __init__(self, options: GradeOptions | None = None, workers: int = 1,
                 keep: Sequence[str] = (), benchmark: str = BATCH_BENCHMARK,
                 timeout_s: float | None = None) -> None:
        if benchmark == BATCH_BENCHMARK:
            self.keep = check_keep(keep)
            self.loop = grading_loop(check_options(options), workers=workers)
            self.grader: ItemGrader | None = None
            return
        if options is not None:
            raise ValueError(f"options are Planetarium's grading options; {benchmark} takes none")
        self.keep = check_keep(keep, set(RESULT_KEYS))
        bench = get_benchmark(benchmark)
        self.grader = ItemGrader(bench, bench.reward_config(timeout_s or DEFAULT_TIMEOUT_S),
                                 workers=workers)

    def __call__(self, batch: pyarrow.Table) -> pyarrow.Table:
        import pyarrow

        rows = batch.to_pylist()
        if self.grader is None:
            out = [result.to_dict() for result in self.loop.run([item_of(row) for row in rows])]
        else:
            out = [_columns(result) for result in self._benchmark_results(rows)]
        return pyarrow.Table.from_pylist(
            [{**result, **{name: row.get(name) for name in self.keep}}
             for result, row in zip(out, rows, strict=True)])

    def _benchmark_results(self, rows: list[dict[str, Any]]) -> list[ItemResult]:
        """Each row's result: graded where its record and answer are usable, else
        ``invalid-input`` saying why."""
        assert self.grader is not None
        items = [record_row(self.grader.benchmark, row.get("item")) for row in rows]
        usable = {i: item for i, (item, row) in enumerate(zip(items, rows, strict=True))
                  if not isinstance(item, str) and isinstance(row.get("answer"), str)}
        graded = self.grader.grade_many(list(usable.values()),
                                        [rows[i]["answer"] for i in usable])
        results = []
        for i, item in enumerate(items):
            if i in usable:
                results.append(next(graded))
                continue
            why = item if isinstance(item, str) else "the answer must be a string"
            results.append(ItemResult(str(i), Status.INVALID_INPUT, None, why))
        return results

    def close(self) -> None:
        """Stop the grading processes (Ray stops them with the actor anyway)."""
        (self.loop if self.grader is None else self.grader).close()


def _columns(result: ItemResult) -> dict[str, Any]:
    """A benchmark's result as flat columns: its nested parts as JSON text."""
    row = result.to_dict()
    return {**{key: row[key] for key in ("id", "status", "correct", "score", "reason")},
            **{key: json.dumps(row[key], sort_keys=True, default=str)
               for key in ("metrics", "groups")},
            "details": json.dumps(result.details, sort_keys=True, default=str)}


def grade_dataset(dataset: ray.data.Dataset, *, options: GradeOptions | None = None,
                  actors: int | None = None, workers_per_actor: int = 1,
                  batch_size: int = BATCH_SIZE, keep: Sequence[str] = (),
                  benchmark: str = BATCH_BENCHMARK,
                  timeout_s: float | None = None) -> ray.data.Dataset:
    """``dataset``'s rows graded as ``grade --batch`` grades them (lazily: Ray runs it when the
    result is read or written); with ``benchmark``, another benchmark's ``{"item", "answer"}``
    rows graded by its own grader (module docstring; ``timeout_s`` per answer).

    Up to ``actors`` grader actors (default: the cluster's CPUs / ``workers_per_actor``), each
    reserving ``workers_per_actor`` CPUs for its pool of grading processes.  Ray starts them as
    the work allows, from one: actors holding every CPU would leave none to the tasks that read
    the rows (one CPU each), and the dataset would wait for them forever, so an actor may not
    need every CPU either (``ValueError``).  Connects to Ray (``ray.init()``: ``RAY_ADDRESS`` or
    a local instance) when nothing is connected yet.
    """
    ray = require("ray", "ray")
    require("ray.data", "ray")
    if benchmark == BATCH_BENCHMARK:
        options, keep = check_options(options), check_keep(keep)
    else:
        get_benchmark(benchmark)  # an unknown name fails here, not in an actor
        keep = check_keep(keep, set(RESULT_KEYS))
    if not isinstance(workers_per_actor, int) or workers_per_actor < 1:
        raise ValueError(f"workers_per_actor must be a whole number >= 1, got {workers_per_actor!r}")
    if actors is not None and (not isinstance(actors, int) or actors < 1):
        raise ValueError(f"actors must be a whole number >= 1, got {actors!r}")
    if not ray.is_initialized():
        ray.init()
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if workers_per_actor >= cpus:
        raise ValueError(f"Ray has {cpus} CPU(s): an actor of {workers_per_actor} grading "
                         "process(es) would leave none to the tasks that read the rows (start "
                         "Ray with more, e.g. ray.init(num_cpus=...), or lower workers_per_actor)")
    if actors is None:
        actors = max(1, cpus // workers_per_actor)
    return dataset.map_batches(
        Grader, fn_constructor_kwargs={"options": options, "workers": workers_per_actor,
                                       "keep": keep, "benchmark": benchmark,
                                       "timeout_s": timeout_s},
        batch_format="pyarrow", batch_size=batch_size, num_cpus=workers_per_actor,
        compute=ray.data.ActorPoolStrategy(min_size=1, max_size=actors))


def item_of(row: dict[str, Any]) -> dict[str, Any]:
    """The ``grade --batch`` item of a dataset row: its item keys, nulls left out (a null
    ``is_placeholder`` takes the default, a null ``gt`` is a bad item, as a missing one)."""
    return {key: row[key] for key in ITEM_KEYS if row.get(key) is not None}


def check_options(options: GradeOptions | None) -> GradeOptions:
    """The batch's default options; explanations refused (see :class:`Grader`)."""
    options = options or GradeOptions()
    if options.explain:
        raise ValueError("explanations do not fit Ray Data's columns (their keys are object "
                         "names): grade with 'planetarium grade --batch --explain' instead")
    return options


def check_keep(keep: Sequence[str], results: set[str] | None = None) -> tuple[str, ...]:
    """``keep`` as a tuple of column names none of which is a result column (``results``;
    default: ``grade --batch``'s)."""
    names = (keep,) if isinstance(keep, str) else tuple(keep)
    if not all(isinstance(name, str) for name in names):
        raise ValueError(f"keep must name columns, got {keep!r}")
    clash = sorted(set(names) & (result_columns() if results is None else results))
    if clash:
        raise ValueError(f"keep: {', '.join(clash)} would overwrite the result's own column(s)")
    return names


def result_columns() -> set[str]:
    """The columns of a result row, read off a result (``explanation`` included)."""
    row = GradeResult.failed(Stage.INPUT, Status.INVALID_INPUT, "").to_dict()
    return {*row, "explanation"}
