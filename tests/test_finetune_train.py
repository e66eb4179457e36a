"""Fine-tuning end to end on CPU with the tiny random-weight Gemma 2 model.

One short CLI run (module fixture) over generated training rows is shared by the checks on its
adapter, record and resume; the loss and LoRA-placement checks build their own small models.
"""

from __future__ import annotations

import dataclasses
import json
import math
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
peft = pytest.importorskip("peft")

from click.testing import CliRunner
from llm_fixtures import demo_rows, write_rows
from peft.tuners.lora import LoraLayer

from planetarium.finetune.cli import finetune_command
from planetarium.finetune.config import load_config
from planetarium.finetune.data import CompletionCollator, rows_hash, tokenize_rows
from planetarium.finetune.model import add_lora, load_base, resolve_base, use_4bit
from planetarium.finetune.train import make_trainer

ROOT = Path(__file__).resolve().parents[1]
TINY_YAML = ROOT / "finetune" / "tiny.yaml"
N_ROWS = 40  # the longest 5% is then exactly 2 rows


def invoke(*args: str):
    """``planetarium finetune`` on the tiny config as shipped: 4-bit QLoRA, on a CPU too."""
    return CliRunner().invoke(finetune_command, ["--config", str(TINY_YAML), *args])


@pytest.fixture(scope="module")
def trained(tmp_path_factory, tiny_model):  # noqa: F811 (fixture)
    """A 2-step run over 40 generated training rows, checkpointing after every step."""
    tmp = tmp_path_factory.mktemp("finetune")
    rows = [dict(row, split_random="train", split_heldout="train") for row in demo_rows(N_ROWS)]
    data = write_rows(tmp / "train.jsonl", rows)
    out = tmp / "run"
    result = invoke(
        "--out",
        str(out),
        "--set",
        f"model={tiny_model}",
        "--set",
        f"data.source={data}",
        "--set",
        "training.max_steps=2",
        "--set",
        "training.save_steps=1",
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    return {"out": out, "rows": rows, "data": data, "summary": summary}


def test_short_run_writes_adapter_and_record(trained, tiny_model):  # noqa: F811
    out, rows, summary = trained["out"], trained["rows"], trained["summary"]
    assert summary["steps"] == 2 and math.isfinite(summary["loss"])
    assert summary["quantization"] == "4bit-nf4-double-quant"
    adapter = json.loads((out / "adapter" / "adapter_config.json").read_text())
    assert (adapter["r"], adapter["lora_alpha"], adapter["lora_dropout"]) == (16, 32, 0.05)
    assert adapter["base_model_name_or_path"] == str(tiny_model)
    assert (out / "adapter" / "adapter_model.safetensors").is_file()

    record = json.loads((out / "finetune_record.json").read_text())
    assert record["config"]["training"]["max_steps"] == 2
    data = record["data"]
    assert (data["rows"], data["trained"], len(data["dropped_longest_ids"])) == (
        N_ROWS,
        N_ROWS - 2,
        2,
    )
    assert data["dropped_too_long_ids"] == [] and data["truncated"] == 0
    kept = [row for row in rows if row["id"] not in data["dropped_longest_ids"]]
    assert data["data_hash"] == rows_hash(kept)
    assert record["prompt_template_hash"] and record["versions"]["bitsandbytes"]
    quant = record["quantization"]  # read back from the loaded layers (test_finetune_qlora)
    assert quant["mode"] == "4bit-nf4-double-quant" and quant["linear_4bit"] > 0


def test_adapter_reloads_and_changes_the_models_outputs(trained, tiny_model):  # noqa: F811
    tokenizer = transformers.AutoTokenizer.from_pretrained(trained["out"] / "adapter")
    ids = tokenizer(trained["rows"][0]["problem_pddl"], return_tensors="pt")["input_ids"]
    load = transformers.AutoModelForCausalLM.from_pretrained
    with torch.no_grad():
        base_logits = load(tiny_model).eval()(ids).logits
        tuned = peft.PeftModel.from_pretrained(load(tiny_model), trained["out"] / "adapter").eval()
        tuned_logits = tuned(ids).logits
    assert base_logits.shape == tuned_logits.shape
    assert not torch.allclose(base_logits, tuned_logits, atol=1e-4)


def test_resume_continues_from_the_last_checkpoint(trained, tiny_model, tmp_path):  # noqa: F811
    out = tmp_path / "run"
    shutil.copytree(trained["out"], out)
    common = (
        "--out",
        str(out),
        "--set",
        f"model={tiny_model}",
        "--set",
        f"data.source={trained['data']}",
        "--set",
        "training.max_steps=3",
    )
    refused = invoke(*common)
    assert refused.exit_code != 0 and "pass --resume" in refused.output
    resumed = invoke(*common, "--resume")
    assert resumed.exit_code == 0, resumed.output
    record = json.loads((out / "finetune_record.json").read_text())
    assert record["train"]["resumed_from"].endswith("checkpoint-2")
    assert record["train"]["steps"] == 3


def test_4bit_is_what_the_config_says_on_any_machine():
    assert use_4bit(load_config(TINY_YAML)) is True
    assert use_4bit(load_config(TINY_YAML, ["quantization.load_in_4bit=false"])) is False


def test_tiny_model_is_built_into_the_run_directory(tiny_model, tmp_path):  # noqa: F811
    shutil.copytree(tiny_model, tmp_path / "tiny-base")  # a same-seed build is reused as is
    assert resolve_base(load_config(TINY_YAML), tmp_path) == str((tmp_path / "tiny-base").resolve())


def test_lora_sits_on_every_linear_layer_but_the_lm_head(tiny_model):  # noqa: F811
    cfg = dataclasses.replace(load_config(TINY_YAML), model=str(tiny_model))
    _, base = load_base(cfg, str(tiny_model), quantize=False)
    linear = {name for name, mod in base.named_modules() if isinstance(mod, torch.nn.Linear)}
    model = add_lora(base, cfg.lora, quantized=False)
    adapted = {
        name.removeprefix("base_model.model.")
        for name, mod in model.named_modules()
        if isinstance(mod, LoraLayer)
    }
    assert "lm_head" in linear
    assert adapted == linear - {"lm_head"}
    trainable = {name for name, p in model.named_parameters() if p.requires_grad}
    assert trainable and all("lora_" in name for name in trainable)


def test_loss_on_a_fixed_batch_goes_down(tiny_model, tmp_path):  # noqa: F811
    cfg = load_config(
        TINY_YAML,
        [
            f"model={tiny_model}",
            f"out_dir={tmp_path}",
            "training.learning_rate=2e-2",
            "training.max_steps=5",
            "training.gradient_checkpointing=false",
            "training.logging_steps=1",
            "training.save_steps=100",
        ],
    )
    tokenizer, base = load_base(cfg, str(tiny_model), quantize=False)
    # A stub domain keeps the sequences short; the mechanics do not depend on the prompt's size.
    examples = tokenize_rows(
        demo_rows(2), tokenizer, {"blocksworld": "(define)", "gripper": "(define)"}
    )
    batch = CompletionCollator(tokenizer.pad_token_id)(examples)
    transformers.set_seed(0)  # the LoRA initialisation
    model = add_lora(base, cfg.lora, quantized=False)

    def loss() -> float:
        model.eval()
        with torch.no_grad():
            return model(
                **{key: value.to(model.device) for key, value in batch.items()}
            ).loss.item()

    before = loss()
    make_trainer(cfg, model, tokenizer, examples, tmp_path).train()
    after = loss()
    assert after < before - 0.1, (before, after)


def test_trainer_runs_the_appendix_f_recipe(tiny_model, tmp_path):  # noqa: F811
    cfg = load_config(ROOT / "finetune" / "gemma-2-2b-it.yaml", [f"out_dir={tmp_path}"])
    tokenizer, base = load_base(cfg, str(tiny_model), quantize=False)
    trainer = make_trainer(cfg, add_lora(base, cfg.lora, quantized=False), tokenizer, [], tmp_path)
    optimizer = trainer.create_optimizer()
    assert isinstance(optimizer, torch.optim.AdamW)
    assert optimizer.defaults["lr"] == 2e-5 and optimizer.defaults["betas"] == (0.9, 0.999)
    assert optimizer.defaults["eps"] == 1e-8 and optimizer.defaults["weight_decay"] == 0.01
    args = trainer.args
    assert (args.per_device_train_batch_size, args.num_train_epochs) == (1, 1.0)
    assert args.gradient_checkpointing and args.gradient_checkpointing_kwargs == {
        "use_reentrant": False
    }


def _same_run(trained, tiny_model, out: Path) -> tuple[str, ...]:  # noqa: F811
    """The arguments of the module's finished run, into ``out``."""
    return ("--out", str(out), "--set", f"model={tiny_model}", "--set",
            f"data.source={trained['data']}", "--set", "training.max_steps=2", "--set",
            "training.save_steps=1")


def test_resume_of_a_finished_run_does_nothing_and_says_so(trained, tiny_model):  # noqa: F811
    record = trained["out"] / "finetune_record.json"
    before = (record.read_bytes(), record.stat().st_mtime_ns)
    again = invoke(*_same_run(trained, tiny_model, trained["out"]), "--resume")
    assert again.exit_code == 0, again.output
    assert "finished with these settings already; nothing to do" in again.output
    assert (record.read_bytes(), record.stat().st_mtime_ns) == before
    assert json.loads(again.output.strip().splitlines()[-1]) == trained["summary"]


def test_a_used_run_folder_is_refused_before_any_model_loads(trained, tiny_model, tmp_path):  # noqa: F811
    out = tmp_path / "run"
    shutil.copytree(trained["out"], out)
    shutil.rmtree(out / "checkpoints")  # an adapter and a record, no checkpoint
    args = list(_same_run(trained, tiny_model, out))
    args[args.index(f"model={tiny_model}")] = f"model={tmp_path / 'no-such-model'}"
    refused = invoke(*args)
    assert refused.exit_code == 1 and "already holds a run (adapter, finetune_record.json)" in (
        refused.output) and "--overwrite to start over" in refused.output
    both = invoke(*args, "--resume", "--overwrite")
    assert both.exit_code == 1 and "pick one" in both.output
    failed = invoke(*args, "--overwrite")  # the model cannot load: the old run is kept
    assert failed.exit_code == 1 and (out / "adapter").is_dir()
