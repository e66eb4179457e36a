"""Planetarium's verifiers taskset, loaded and scored by verifiers 0.4 itself.

verifiers installs in an environment of its own (``.ci/integrations-tests``: ``.venv-verifiers``,
layered on the main one), where every test here must run; elsewhere the module skips.  The
taskset is found the way ``vf-eval`` finds it — by id, through verifiers' loader — and its
reward runs on verifiers' scoring path (``Task.score`` on a trace holding the answer as the
sampled assistant turn).  The last test runs the README's ``vf-eval`` command against a local
scripted OpenAI-compatible endpoint: the null harness's chat program in a subprocess runtime (uv
installs its few packages on first use), the interception server, scoring and the saved traces.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

vf = pytest.importorskip("verifiers.v1", exc_type=ImportError)

from integration_cases import TIMEOUT_S, cases, check_kind  # noqa: E402
from llm_fixtures import ChatServer, write_rows  # noqa: E402
from verifiers.v1.utils.loaders import taskset_class  # noqa: E402

from planetarium.benchmarks.planetarium.prompts import build_messages  # noqa: E402
from planetarium.domains import get_domain  # noqa: E402
from planetarium.grading import grade  # noqa: E402
from planetarium.integrations import verifiers as ours  # noqa: E402
from planetarium.reward import PlanetariumReward  # noqa: E402

ID = "planetarium-verifiers"


@pytest.fixture
def rows_file(tmp_path: Path) -> Path:
    return write_rows(tmp_path / "rows.jsonl", [row for row, _, _ in cases()])


@pytest.fixture(autouse=True)
def _no_rewards_left():
    yield
    ours.close_rewards()


def load(rows_file: Path, **task) -> list:
    """The taskset's tasks, loaded through verifiers' own loader by id."""
    config = vf.taskset_config_type(ID).model_validate(
        {"id": ID, "dataset": str(rows_file), "task": task})
    return list(vf.load_taskset(config))


def scored(tasks: list, answers: list[str]) -> list:
    """Each answer as the sampled assistant turn of a trace, scored by ``Task.score`` (all at
    once, as concurrent rollouts score)."""
    traces = [vf.Trace(task=vf.TraceTask(type=type(task).__name__, data=task.data),
                       agent=vf.AgentInfo(config=vf.AgentConfig()),
                       nodes=[vf.MessageNode(message=vf.UserMessage(content=task.data.prompt)),
                              vf.MessageNode(parent=0, sampled=True,
                                             message=vf.AssistantMessage(content=answer))])
              for task, answer in zip(tasks, answers, strict=True)]

    async def score_all() -> None:
        await asyncio.gather(*(task.score(trace) for task, trace in zip(tasks, traces, strict=True)))

    asyncio.run(score_all())
    return traces


def test_verifiers_loader_resolves_the_id():
    for spelling in (ID, "planetarium_verifiers", "someone/planetarium-verifiers@0.1"):
        assert vf.import_taskset(spelling).__name__ == "planetarium_verifiers"
        assert taskset_class(spelling) is ours.PlanetariumTaskset
    assert vf.taskset_config_type(ID) is ours.PlanetariumTasksetConfig
    assert vf.task_type(ID) is ours.PlanetariumTask
    assert vf.environment_class(ID) is vf.SingleAgentEnv


def test_tasks_are_the_split_rows_under_the_pinned_prompt(rows_file, monkeypatch):
    rows = [row for row, _, _ in cases()]
    tasks = load(rows_file)
    assert [t.data.id for t in tasks] == [t.key for t in tasks] == [r["id"] for r in rows]
    for task, row in zip(tasks, rows, strict=True):
        [turn] = build_messages(row["natural_language"], get_domain(row["domain"]).pddl)
        assert task.data.prompt == turn["content"]
        assert (task.data.problem_pddl, task.data.domain) == (row["problem_pddl"], row["domain"])
    # the dataset from $PLANETARIUM_DATASET when none is configured; a split selector
    monkeypatch.setenv("PLANETARIUM_DATASET", str(rows_file))
    config = vf.taskset_config_type(ID).model_validate(
        {"id": ID, "split": "heldout:test+domain:gripper"})
    assert [t.data.id for t in vf.load_taskset(config)] == \
        [r["id"] for r in rows if r["domain"] == "gripper"]


def staged_from(result) -> float:
    """The staged scheme worked out from a verdict: 0.1 parseable, +0.2 solvable, +0.7 correct;
    an undecided verdict earns nothing."""
    if result.status.value != "decided":
        return 0.0
    return 0.1 * bool(result.parseable) + 0.2 * bool(result.parseable and result.solvable) \
        + 0.7 * bool(result.correct)


@pytest.mark.parametrize("scheme", ["correct", "staged"])
def test_verifiers_scoring_gives_the_planetarium_reward(rows_file, scheme):
    tasks = load(rows_file, scheme=scheme, timeout_s=TIMEOUT_S, workers=2)
    kinds = [kind for _, kind, _ in cases()]
    answers = [answer for _, _, answer in cases()]
    traces = scored(tasks, answers)
    rewards = [trace.rewards["planetarium"].score for trace in traces]
    assert [trace.reward for trace in traces] == rewards  # the one weighted reward
    verdicts = [grade(task.data.problem_pddl, answer, timeout_s=TIMEOUT_S)
                for task, answer in zip(tasks, answers, strict=True)]
    for kind, verdict in zip(kinds, verdicts, strict=True):
        check_kind(kind, verdict)
    if scheme == "correct":
        assert rewards == [float(v.correct) for v in verdicts] == [1.0, 1.0, 0.0, 0.0, 0.0]
    else:
        assert rewards == pytest.approx([staged_from(v) for v in verdicts])
        with PlanetariumReward("staged", timeout_s=TIMEOUT_S, workers=2) as reward:
            assert rewards == reward(completions=answers,
                                     problem_pddl=[t.data.problem_pddl for t in tasks])
        assert rewards == pytest.approx([1.0, 1.0, 0.3, 0.0, 0.0])


def test_load_environment_builds_the_environment_over_the_taskset(rows_file):
    env = ours.load_environment(dataset=str(rows_file), scheme="staged", timeout_s=2.5,
                                agent={"harness": {"id": "null"}})
    assert isinstance(env, vf.SingleAgentEnv)
    assert isinstance(env.taskset, ours.PlanetariumTaskset)
    task_config = env.taskset.config.task
    assert (task_config.scheme, task_config.timeout_s) == ("staged", 2.5)
    assert len(list(env.taskset)) == len(cases())


@pytest.mark.parametrize(("task", "words"), [({"timeout_s": 0}, "timeout_s must be finite"),
                                             ({"scheme": "best"}, "scheme must be one of correct, staged"),
                                             ({"workers": -1}, "greater than or equal to 0")])
def test_bad_settings_are_refused_when_the_config_is_read(task, words):
    with pytest.raises(ValueError, match=words):
        vf.taskset_config_type(ID).model_validate({"id": ID, "task": task})


@pytest.mark.parametrize(("dataset", "split", "words"), [
    ("no/such/rows.jsonl", None, "planetarium: dataset no/such/rows.jsonl: "),
    (None, "heldout:test+domain:rover-single", "planetarium: no items in split "
                                                "`heldout:test+domain:rover-single` of dataset ")])
def test_a_dataset_that_gives_no_tasks_is_one_line(rows_file, dataset, split, words):
    config = vf.taskset_config_type(ID).model_validate(
        {"id": ID, "dataset": dataset or str(rows_file), **({"split": split} if split else {})})
    with pytest.raises(SystemExit) as stopped:
        list(vf.load_taskset(config))
    assert str(stopped.value).startswith(f"Error: {words}") and "\n" not in str(stopped.value)
    assert "--env.taskset." in str(stopped.value)


def test_vf_eval_against_an_openai_compatible_endpoint(rows_file, tmp_path):
    """The README's command, verbatim but for the endpoint and dataset: a scripted server
    answers each prompt with that row's answer."""
    by_text = {row["natural_language"]: answer for row, _, answer in cases()}

    def answer(prompt: str) -> str:
        return next(text for nl, text in by_text.items() if nl in prompt)

    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "uv").exists(), "install uv in this environment (.ci/integrations-tests does)"
    environ = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
               "OPENAI_API_KEY": "unused"}
    with ChatServer(answer=answer) as server:
        run = subprocess.run(
            [str(bin_dir / "vf-eval"), ID, "-m", "scripted", "--client.base-url", server.base_url,
             "--client.api-key-var", "OPENAI_API_KEY", "--env.agent.harness.id", "null",
             "--env.agent.runtime.type", "subprocess", "--env.taskset.dataset", str(rows_file),
             "--env.taskset.task.timeout-s", str(TIMEOUT_S), "-n", str(len(cases())),
             "--no-push", "--no-rich", "-o", str(tmp_path / "outputs")],
            capture_output=True, text=True, env=environ, cwd=tmp_path, timeout=480)
    assert run.returncode == 0, run.stderr[-3000:]
    [traces_file] = (tmp_path / "outputs").glob("*/traces.jsonl")
    episodes = [json.loads(line) for line in traces_file.read_text().splitlines()]
    got = {e["task"]["data"]["id"]: e["traces"][0]["rewards"]["planetarium"]["score"]
           for e in episodes}
    expected = {row["id"]: float(grade(row["problem_pddl"], text, timeout_s=TIMEOUT_S).correct)
                for row, _, text in cases()}
    assert got == expected
    assert sorted(got.values()) == [0.0, 0.0, 0.0, 1.0, 1.0]
    assert all(e["ok"] and not e["errors"] for e in episodes)
    assert len(server.requests) == len(cases())
    checked = subprocess.run([sys.executable, "-m", "planetarium.integrations.vf_runs",
                              str(tmp_path / "outputs")], capture_output=True, text=True,
                             timeout=120)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip() == f"{len(cases())} rollouts, all ran, mean reward 0.400"


def test_vf_eval_without_uv_stops_in_one_line_with_a_non_zero_exit(rows_file, tmp_path):
    """What a first run offline meets: no uv on PATH, so the chat program could not be set up
    (nor uv downloaded); the taskset stops vf-eval before any rollout, in one line, exit 1."""
    bare = tmp_path / "bin"  # a PATH with the shell's tools, without uv (nor pip, curl, wget)
    bare.mkdir()
    for tool in ("sh", "mv", "grep"):
        (bare / tool).symlink_to(shutil.which(tool))
    environ = {**os.environ, "PATH": str(bare), "OPENAI_API_KEY": "unused",
               "HOME": str(tmp_path / "home")}
    with ChatServer() as server:
        run = subprocess.run(
            [str(Path(sys.executable).parent / "vf-eval"), ID, "-m", "scripted",
             "--client.base-url", server.base_url, "--client.api-key-var", "OPENAI_API_KEY",
             "--env.agent.harness.id", "null", "--env.agent.runtime.type", "subprocess",
             "--env.taskset.dataset", str(rows_file), "-n", "1", "--no-push", "--no-rich",
             "-o", str(tmp_path / "outputs")],
            capture_output=True, text=True, env=environ, cwd=tmp_path, timeout=480)
    assert run.returncode != 0
    assert f"Error: {ours.UV_MISSING}" in run.stderr.strip().splitlines()[-1], run.stderr[-3000:]
    assert not server.requests  # stopped before any rollout


def test_another_benchmarks_items_are_tasks_rewarded_by_its_grader():
    """``benchmark: arb``: ARB's questions are the tasks, under ARB's prompt, and the reward of
    an answer is the score ARB's grader gives it (tests/test_reward_benchmarks.py's cases)."""
    from test_reward_benchmarks import FIXTURES, arb_answers, expected
    from test_reward_benchmarks import scored as graded

    config = vf.taskset_config_type(ID).model_validate(
        {"id": ID, "benchmark": "arb", "dataset": str(FIXTURES / "arb" / "blocksworld-2024.jsonl"),
         "split": None, "task": {"timeout_s": 20.0, "workers": 1}})
    tasks = list(vf.load_taskset(config))[:6]
    rows = [json.loads(task.data.item) for task in tasks]
    assert all(task.data.benchmark == "arb" and isinstance(task.data.prompt, str) for task in tasks)
    records = [json.loads(line) for line in
               (FIXTURES / "arb" / "blocksworld-2024.jsonl").read_text().splitlines()[:6]]
    assert [row["id"] for row in rows] == [str(r["id"]) for r in records]
    answers = arb_answers(records)[::2]  # each question's stored answer
    traces = scored(tasks, answers)
    rewards = [trace.rewards["planetarium"].score for trace in traces]
    assert rewards == expected(graded("arb", records, answers))
