"""Planetarium as a verifiers 0.4 taskset, rewarded by :class:`~planetarium.reward.PlanetariumReward`.

verifiers resolves a taskset by id: ``vf-eval planetarium-verifiers`` imports the top-level
module :mod:`planetarium_verifiers` (shipped by this distribution; it re-exports this module)
and takes the one :class:`verifiers.v1.Taskset` subclass its ``__all__`` names.  ``import
planetarium`` stays light: only that module and this one import verifiers.

One task per dataset row: the benchmark's pinned prompt as the one user turn, the row's ground
truth on the task's data.  The dataset is ``dataset`` when configured, else the
``PLANETARIUM_DATASET`` environment variable, else the published Hub id; ``split`` selects its
rows (the held-out test split unless named) — as in the lm-eval and Inspect adapters
(:mod:`planetarium.adapters.common`).  The task's reward, ``planetarium``, is the training
reward itself: the same persistent worker pool with its hard per-answer deadline and
ground-truth cache, the ``correct`` or ``staged`` scheme; a verdict that is not decided (a
timeout) earns the reward's undecided value (0), never a crash.  ``benchmark`` (default
``planetarium``) names another registered benchmark (``acpbench``, ``arb``): its items become
the tasks (``dataset`` and ``split`` are then that benchmark's, ``settings`` the rest of its
eval config's ``benchmark:`` section), its prompt each task's (one user turn as text, a few-shot
chat as messages), and the reward is its grader's score of the last reply.  One reward per scoring
configuration serves every task of the process (:func:`close_rewards` stops its workers; at
exit at the latest).

``load_environment(...)`` serves the older verifiers convention (a module function returning the
environment): verifiers 0.4's own ``vf.load_environment`` takes an ``EnvConfig``, so ours builds
that config around this taskset and returns the 0.4 environment it loads.
"""

from __future__ import annotations

import asyncio
import atexit
import json
import shutil
import threading
from collections.abc import Iterator
from typing import Any

from ..errors import require

require("verifiers.v1", "verifiers")  # without it: the one line naming the extra

import verifiers.v1 as vf  # noqa: E402
from pydantic import Field, field_validator  # noqa: E402 - verifiers brings pydantic

from ..adapters import common  # noqa: E402
from ..benchmarks.planetarium import PlanetariumConfig  # noqa: E402
from ..limits import check_seconds  # noqa: E402
from ..reward import PlanetariumReward  # noqa: E402
from ..reward.schemes import scheme_of  # noqa: E402

#: The id verifiers' loader resolves to :mod:`planetarium_verifiers` (``-`` reads as ``_``).
TASKSET_ID = "planetarium-verifiers"
#: The benchmark's own defaults (one source: its config): the held-out test split, and the
#: grading time limit of one answer.
DEFAULT_SPLIT = PlanetariumConfig.split[0]
DEFAULT_TIMEOUT_S = PlanetariumConfig.timeout_s
#: How a setting is passed, for the adapters' one-line errors.
HOW = "--env.taskset.KEY VALUE"


class PlanetariumTaskConfig(vf.TaskConfig):
    """How an answer is scored (``--env.taskset.task.*``): read when scoring, so ``vf-replay``
    re-scores saved traces under the replay's own settings."""

    scheme: str = "correct"
    """A registered reward scheme: ``correct`` (1 for a parseable, solvable, equivalent answer,
    else 0), ``staged`` (partial credit along the stage chain: 0.1 / 0.2 / 0.7), or a plug-in's."""
    timeout_s: float = DEFAULT_TIMEOUT_S
    """The hard per-answer grading deadline in seconds; past it the answer is undecided."""
    workers: int | None = Field(None, ge=0)
    """Grading processes of the reward (None: min(4, CPUs); 0: grade in the eval process)."""

    @field_validator("scheme")
    @classmethod
    def _scheme(cls, value: str) -> str:
        return scheme_of(value).name

    @field_validator("timeout_s")
    @classmethod
    def _seconds(cls, value: float) -> float:
        return check_seconds(value)


class PlanetariumTasksetConfig(vf.TasksetConfig):
    """Which rows load (``--env.taskset.*``)."""

    benchmark: str = "planetarium"
    """The registered benchmark whose items are the tasks and whose grader is the reward."""
    dataset: str | None = None
    """A generated folder, its rows.jsonl, a dataset YAML (generated in memory), a local copy
    of the published Parquet files or a Hub id; None: $PLANETARIUM_DATASET, else the Hub's.
    Another benchmark: its dataset (a question file or folder)."""
    split: str | None = DEFAULT_SPLIT
    """Split selector, e.g. heldout:test, random:train, heldout:test+domain:gripper; another
    benchmark: its split name (e.g. test; None: every item)."""
    settings: dict[str, Any] = Field(default_factory=dict)
    """Another benchmark's further config settings (e.g. ACPBench's prompts folder)."""
    task: PlanetariumTaskConfig = PlanetariumTaskConfig()


class PlanetariumData(vf.TaskData):
    """A dataset row as a task: the prompt, plus what grading needs."""

    problem_pddl: str = ""
    """The ground truth (Planetarium)."""
    is_placeholder: bool = False
    domain: str = ""
    benchmark: str = "planetarium"
    """The benchmark that grades the task."""
    item: str = ""
    """Another benchmark's item row as JSON (what its reward reads)."""


class PlanetariumTask(vf.Task[PlanetariumData, vf.State, PlanetariumTaskConfig]):
    """One row; its reward grades the agent's last reply against the row's ground truth."""

    @property
    def key(self) -> str:
        """The dataset row's id: durable across runs, unlike the content hash (which holds the
        run-local ``idx``)."""
        return self.data.id or self.hash

    @vf.reward
    async def planetarium(self, trace: vf.Trace) -> float:
        """The Planetarium reward of the last reply, graded in the reward's worker pool (off the
        event loop: other rollouts go on meanwhile)."""
        reward = shared_reward(self.config, self.data.benchmark)
        columns = {"item": [self.data.item]} if self.data.benchmark != "planetarium" else \
            {"problem_pddl": [self.data.problem_pddl],
             "is_placeholder": [self.data.is_placeholder]}
        [value] = await asyncio.to_thread(reward, completions=[trace.last_reply], **columns)
        return value


#: Why no rollout could run without uv: vf-eval's harness runs its chat program with it.
UV_MISSING = ("uv is not on PATH: vf-eval runs the harness's chat program with it; pip install uv "
              "(its first run fetches the program's packages, later runs use uv's cache)")


class PlanetariumTaskset(vf.Taskset[PlanetariumTask, PlanetariumTasksetConfig]):
    """The Planetarium benchmark's rows (see the module docstring)."""

    def load(self) -> Iterator[PlanetariumTask]:
        if shutil.which("uv") is None:  # else every rollout fails later and vf-eval exits 0
            raise SystemExit(f"Error: {UV_MISSING}")
        try:
            bench = common.benchmark(self.config.benchmark)
            settings = common.benchmark_config(
                bench, {**self.config.settings, "dataset": self.config.dataset,
                        "split": self.config.split}, HOW)
            rows = common.load_items(bench, settings, HOW)
        except common.AdapterError as err:  # vf-eval ends on it in one line, exit status 1
            raise SystemExit(f"Error: {err}") from None
        for row in rows:
            if self.config.benchmark != "planetarium":
                yield PlanetariumTask(self._other(bench, settings, row), self.config.task)
                continue
            [turn] = common.messages(bench, settings, row)
            data = PlanetariumData(
                id=str(row["id"]), name=str(row.get("name") or row["id"]),
                prompt=turn["content"], problem_pddl=row["problem_pddl"],
                is_placeholder=bool(row.get("is_placeholder", False)), domain=row["domain"])
            yield PlanetariumTask(data, self.config.task)

    def _other(self, bench: Any, settings: Any, row: dict[str, Any]) -> PlanetariumData:
        """Another benchmark's item as a task: its prompt, and its row for the reward."""
        messages = common.messages(bench, settings, row)
        prompt: Any = messages[0]["content"] if len(messages) == 1 and \
            messages[0]["role"] == "user" else messages
        return PlanetariumData(id=str(row["id"]), name=str(row["id"]), prompt=prompt,
                               benchmark=bench.name, item=json.dumps(row))


def load_environment(dataset: str | None = None, split: str | None = DEFAULT_SPLIT,
                     scheme: str = "correct",
                     timeout_s: float = DEFAULT_TIMEOUT_S, workers: int | None = None,
                     **env: Any) -> Any:
    """The verifiers environment over this taskset (a ``vf.Env``; ``SingleAgentEnv`` unless
    ``env`` names another).  ``env``: further ``EnvConfig`` fields, e.g.
    ``agent={"harness": {"id": "null"}}``."""
    taskset = {"id": TASKSET_ID, "dataset": dataset, "split": split,
               "task": {"scheme": scheme, "timeout_s": timeout_s, "workers": workers}}
    return vf.load_environment(vf.resolve_env_config({**env, "taskset": taskset}))


#: One reward per scoring configuration, shared by every task of this process.
_REWARDS: dict[tuple[str, str, float, int | None], PlanetariumReward] = {}
_REWARDS_LOCK = threading.Lock()


def shared_reward(config: PlanetariumTaskConfig,
                  benchmark: str = "planetarium") -> PlanetariumReward:
    """The process's reward of ``benchmark`` for ``config`` (made on first use; its workers
    start on its first call and stay, with their ground-truth caches, for every later answer)."""
    key = (benchmark, config.scheme, config.timeout_s, config.workers)
    with _REWARDS_LOCK:
        reward = _REWARDS.get(key)
        if reward is None:
            reward = _REWARDS[key] = PlanetariumReward(config.scheme, config.timeout_s,
                                                       config.workers, benchmark=benchmark)
        return reward


@atexit.register
def close_rewards() -> None:
    """Stop the shared rewards' worker processes (a later answer starts them again)."""
    with _REWARDS_LOCK:
        while _REWARDS:
            _REWARDS.popitem()[1].close()


__all__ = ["PlanetariumData", "PlanetariumTask", "PlanetariumTaskConfig", "PlanetariumTaskset",
           "PlanetariumTasksetConfig", "close_rewards", "load_environment", "shared_reward"]
