"""GRPO end to end on CPU: TRL's GRPOTrainer, the tiny Gemma 2 model, our reward.

A random-weight model writes no valid PDDL, so every reward would be 0, every advantage 0 and no
step would move the adapter.  The module therefore first teaches the tiny model one training
row's answer (all weights, until it writes it about half the time at temperature 1), then runs
the shipped ``rl/tiny.yaml`` on it once (module fixture, 4 optimisation steps): groups of 4 get
mixed rewards, the gradient is not zero, the adapter moves.  The checks on the record, the
logged rewards, the adapter under ``eval run`` and resuming all share that run.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
pytest.importorskip("trl")
peft = pytest.importorskip("peft")

from click.testing import CliRunner
from llm_fixtures import blocksworld_row, eval_run_argv, write_eval_config, write_rows

from planetarium.cli import main
from planetarium.domains import get_domain
from planetarium.finetune.data import CompletionCollator, rows_hash, tokenize_rows
from planetarium.llm.prompts import prompt_template_hash
from planetarium.llm.store import read_jsonl
from planetarium.rl.cli import rl_command

ROOT = Path(__file__).resolve().parents[1]
TINY_YAML = ROOT / "rl" / "tiny.yaml"
STEPS = 4  # rl/tiny.yaml's max_steps: each step is one prompt's group of 4 completions
NAME = "planetarium_correct"
TAUGHT_LOSS = 0.01  # per answer token: the whole ~75-token answer comes out right ~half the time


def invoke(*args: str):
    """``planetarium rl`` on the tiny config as shipped."""
    return CliRunner().invoke(rl_command, ["--config", str(TINY_YAML), *args])


def common(out: Path, model: Path, data: Path, *extra: str) -> tuple[str, ...]:
    """Arguments of a run of ``model`` on ``data``, completions long enough for the answer."""
    return ("--out", str(out), "--set", f"model={model}", "--set", f"data.source={data}",
            "--set", "generation.max_completion_length=96", *extra)


def teach(base: Path, row: dict, out: Path) -> Path:
    """``base`` trained (all weights) on ``row``'s prompt and answer until its per-token loss is
    under :data:`TAUGHT_LOSS`; saved to ``out`` with its tokenizer."""
    tokenizer = transformers.AutoTokenizer.from_pretrained(base)
    torch.manual_seed(0)
    model = transformers.AutoModelForCausalLM.from_pretrained(base, attn_implementation="eager")
    examples = tokenize_rows([row], tokenizer, {row["domain"]: get_domain(row["domain"]).pddl})
    batch = CompletionCollator(tokenizer.pad_token_id)(examples)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3)
    for _ in range(400):
        loss = model(**batch).loss
        if loss.item() < TAUGHT_LOSS:
            break
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    else:
        pytest.fail(f"the tiny model did not learn the answer (loss {loss.item():.3f})")
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


@pytest.fixture(scope="module")
def trained(tmp_path_factory, tiny_model):  # noqa: F811 (fixture)
    """The shipped tiny config's 4 steps on the taught model over its one training row, with
    completions long enough for the answer."""
    tmp = tmp_path_factory.mktemp("rl")
    rows = [dict(blocksworld_row(0, 2), split_random="train", split_heldout="train")]
    data = write_rows(tmp / "train.jsonl", rows)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    model = teach(tiny_model, rows[0], tmp / "taught")
    out = tmp / "run"
    result = invoke(*common(out, model, data))
    torch.set_num_threads(threads)  # the run capped them (cpu_threads); leave the session as found
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    record = json.loads((out / "rl_record.json").read_text())
    return {"out": out, "rows": rows, "data": data, "model": model, "summary": summary,
            "record": record}


def test_four_real_grpo_steps_on_the_tiny_model(trained):
    record, summary = trained["record"], trained["summary"]
    assert summary["trained"] and summary["steps"] == STEPS
    train = record["train"]
    assert (train["steps"], train["max_steps"], train["steps_this_run"]) == (STEPS, STEPS, STEPS)
    assert train["resumed_from"] is None and train["cpu_threads"] == 1
    assert train["seconds_per_step"] > 0
    steps = [entry for entry in train["log_history"] if "loss" in entry]
    assert [entry["step"] for entry in steps] == [1, 2, 3, 4]
    assert all(math.isfinite(entry["loss"]) for entry in steps)
    # every step sampled a whole group of 4 completions for the prompt
    assert all(entry["num_tokens"] > 0 and entry["completions/mean_length"] > 0 for entry in steps)
    assert sorted(p.name for p in (trained["out"] / "checkpoints").iterdir()
                  if p.name.startswith("checkpoint-")) == ["checkpoint-2", "checkpoint-4"]


def test_mixed_rewards_in_a_group_give_a_gradient_and_move_the_adapter(trained):
    """Where a group's rewards differ, GRPO's advantages and gradient are not zero; the saved
    adapter's LoRA B matrices (zero at initialisation) have moved."""
    from safetensors.torch import load_file

    calls = trained["record"]["reward"]["calls"]
    mixed = [c["step"] for c in calls if 0.0 < c["mean"] < 1.0]
    assert mixed, f"no group with mixed rewards: {calls}"
    grad = {e["step"]: e["grad_norm"] for e in trained["record"]["train"]["log_history"]
            if "grad_norm" in e}
    assert all(grad[step] > 0 for step in mixed)
    weights = load_file(trained["out"] / "adapter" / "adapter_model.safetensors")
    lora_b = [w for name, w in weights.items() if "lora_B" in name]
    assert lora_b and any(w.abs().max() > 0 for w in lora_b)


def test_logged_reward_statistics_come_from_our_reward(trained):
    """The trainer's per-step ``reward`` and ``rewards/planetarium_correct/mean`` are the means
    of what PlanetariumReward itself returned on that step's call (its ``last_details``)."""
    record = trained["record"]
    calls = record["reward"]["calls"]
    assert [c["step"] for c in calls] == [1, 2, 3, 4] and [c["call"] for c in calls] == [1, 2, 3, 4]
    assert all(c["items"] == 4 and sum(c["statuses"].values()) == 4 for c in calls)
    logged = {e["step"]: e for e in record["train"]["log_history"] if f"rewards/{NAME}/mean" in e}
    assert sorted(logged) == [1, 2, 3, 4]
    for call in calls:
        entry = logged[call["step"]]
        assert entry[f"rewards/{NAME}/mean"] == pytest.approx(call["mean"])
        assert entry["reward"] == pytest.approx(call["mean"])  # our reward is the only one
    metrics = record["reward"]["metrics"]
    assert record["reward"]["name"] == NAME
    assert (metrics["calls"], metrics["items"]) == (STEPS, 4 * STEPS)
    assert metrics["correct"] == round(sum(4 * c["mean"] for c in calls))
    # one ground truth throughout: read once, then served from the cache; the reward's own
    # per-step figures (TRL's log_metric) add up to its totals
    assert (metrics["cache_misses"], metrics["cache_hits"]) == (1, 4 * STEPS - 1)
    rates = [logged[step][f"{NAME}/cache_hit_rate"] for step in sorted(logged)]
    assert sum(4 * rate for rate in rates) == pytest.approx(metrics["cache_hits"])
    assert all(logged[step][f"{NAME}/timeouts"] == 0 for step in logged)
    assert metrics["timeouts"] == metrics["internal_errors"] == 0


def test_record_names_config_data_prompt_and_versions(trained):
    record = trained["record"]
    assert record["config"]["training"]["max_steps"] == STEPS
    assert record["config"]["reward"] == {
        "scheme": "correct", "timeout_s": 5.0, "workers": 1, "call_budget_s": None,
        "undecided_reward": 0.0, "think_marker": "</think>", "weights": None}
    assert record["base_model"] == str(trained["model"])
    assert record["data"]["rows"] == 1 and record["data"]["split"] == "heldout:train"
    assert record["data"]["data_hash"] == rows_hash(trained["rows"])
    assert record["prompt_template_hash"] == prompt_template_hash()
    assert record["versions"]["trl"] and record["versions"]["peft"]
    assert record["quantization"]["mode"] == "none"


def test_the_adapter_is_a_lora_adapter_that_changes_the_model(trained):
    adapter = trained["out"] / "adapter"
    config = json.loads((adapter / "adapter_config.json").read_text())
    assert (config["r"], config["lora_alpha"], config["peft_type"]) == (16, 32, "LORA")
    assert config["base_model_name_or_path"] == str(trained["model"])
    tokenizer = transformers.AutoTokenizer.from_pretrained(adapter)
    ids = tokenizer(trained["rows"][0]["problem_pddl"], return_tensors="pt")["input_ids"]
    load = transformers.AutoModelForCausalLM.from_pretrained
    with torch.no_grad():
        base_logits = load(trained["model"]).eval()(ids).logits
        tuned = peft.PeftModel.from_pretrained(load(trained["model"]), adapter).eval()
        assert not torch.allclose(base_logits, tuned(ids).logits, atol=1e-6)


def test_eval_run_loads_the_adapter_like_a_qlora_one(trained, tmp_path, one_thread):  # noqa: F811
    adapter = trained["out"] / "adapter"
    config = write_eval_config(tmp_path, 2, model=str(trained["model"]), adapter=str(adapter),
                               backend="transformers", device="cpu", max_new_tokens=4)
    run_dir = tmp_path / "eval"
    done = CliRunner().invoke(main, eval_run_argv(config, run_dir))
    assert done.exit_code == 0, done.output
    assert "2 items, 0 already done, 2 generated" in done.output
    records = read_jsonl(run_dir / "completions.jsonl")
    assert len(records) == 2 and all(r["adapter"] == str(adapter) for r in records)


def test_a_used_run_folder_is_refused_before_any_model_loads(trained, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(trained["out"], out)
    refused = invoke(*common(out, tmp_path / "no-such-model", trained["data"]))
    assert refused.exit_code != 0 and "already holds a run" in refused.output
    assert "pass --resume" in refused.output


def test_resuming_a_finished_run_does_nothing_and_says_so(trained, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(trained["out"], out)
    before = (out / "rl_record.json").read_text()
    done = invoke(*common(out, trained["model"], trained["data"], "--resume"))
    assert done.exit_code == 0, done.output
    assert f"the run finished at step {STEPS}; nothing to resume" in done.output
    assert json.loads(done.output.strip().splitlines()[-1])["trained"] is False
    assert (out / "rl_record.json").read_text() == before


def test_an_interrupted_run_resumes_from_its_last_checkpoint(trained, tmp_path):
    """A run stopped after step 2 (checkpoint-2, no record) continues to step 4."""
    out = tmp_path / "run"
    shutil.copytree(trained["out"], out)
    for done in ("rl_record.json", "adapter", "checkpoints/checkpoint-4"):
        path = out / done
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    threads = torch.get_num_threads()
    resumed = invoke(*common(out, trained["model"], trained["data"], "--resume"))
    torch.set_num_threads(threads)
    assert resumed.exit_code == 0, resumed.output
    record = json.loads((out / "rl_record.json").read_text())
    train = record["train"]
    assert train["resumed_from"].endswith("checkpoint-2")
    assert (train["steps"], train["steps_this_run"]) == (STEPS, STEPS - 2)
    assert [c["step"] for c in record["reward"]["calls"]] == [3, 4]
    assert (out / "adapter" / "adapter_model.safetensors").is_file()


def test_trl_tokenizes_the_prompt_exactly_as_eval_run_does(trained, tmp_path):
    """The ids GRPOTrainer generates from are those ``eval run`` sends the model: one BOS, the
    pinned prompt, the generation prompt (TRL's own prompt tokenization, on the run's model)."""
    from planetarium.finetune.model import add_lora, load_base
    from planetarium.llm.backends.base import render_prompt_ids
    from planetarium.rl.config import load_config
    from planetarium.rl.train import make_reward, make_trainer, prompt_dataset

    cfg = load_config(TINY_YAML, [f"model={trained['model']}", f"out_dir={tmp_path}"])
    tokenizer, model = load_base(cfg, str(trained["model"]), quantize=False)
    dataset = prompt_dataset(trained["rows"])
    with make_reward(cfg.reward) as reward:
        trainer = make_trainer(cfg, add_lora(model, cfg.lora, quantized=False), tokenizer,
                               dataset, reward, tmp_path)
        prompt_ids = trainer._tokenize_prompts([dataset[0]["prompt"]])[0]
    expected = render_prompt_ids(tokenizer, dataset[0]["prompt"])
    assert list(prompt_ids[0]) == expected
    assert expected.count(tokenizer.bos_token_id) == 1
