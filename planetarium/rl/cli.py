"""``planetarium rl``: a thin click layer over :func:`planetarium.rl.train.run`.

Importing this module loads no torch/transformers/trl: the training stack is imported when the
command runs, and a missing one is reported with the extra to install (``[rl]``).
"""

from __future__ import annotations

import json
from typing import Any

import click

from planetarium.finetune.cli import run_options, run_training
from planetarium.finetune.train import ADAPTER_DIR

from .config import load_config


@click.command("rl")
@run_options(
    "rl/tiny.yaml",
    "Continue from the newest checkpoint in the output directory (a finished run is left as is).",
)
def rl_command(
    config_path: str, out_dir: str | None, overrides: tuple[str, ...], resume: bool,
    overwrite: bool,
) -> None:
    """GRPO with a LoRA adapter, rewarded by the grader (TRL); saves an adapter for eval run."""
    cfg, outcome = run_training(
        load_config, "planetarium.rl.train", config_path, overrides, out_dir, resume, overwrite
    )
    record = outcome.record
    if not outcome.trained:
        click.echo(f"{cfg.out_dir}: the run finished at step {record['train']['steps']}; "
                   "nothing to resume", err=True)
    click.echo(json.dumps(summary_of(record, f"{cfg.out_dir}/{ADAPTER_DIR}", outcome.trained)))


def summary_of(record: dict[str, Any], adapter: str, trained: bool) -> dict[str, Any]:
    """The line the command prints: the record's figures rounded for reading (a staged reward's
    0.1 + 0.2 reads 0.3, not 0.30000000000000004); ``rl_record.json`` keeps them exact."""
    summary = {
        "adapter": adapter,
        "trained": trained,
        "steps": record["train"]["steps"],
        "seconds_per_step": record["train"]["seconds_per_step"],
        "reward": record["reward"]["name"],
        "reward_means": [call["mean"] for call in record["reward"]["calls"]],
        "reward_metrics": record["reward"]["metrics"],
    }
    return for_display(summary)


def for_display(value: Any) -> Any:
    """``value`` with every float rounded to 4 significant digits (lists and dicts inside too)."""
    if isinstance(value, float):
        return float(f"{value:.4g}")
    if isinstance(value, dict):
        return {key: for_display(item) for key, item in value.items()}
    if isinstance(value, list):
        return [for_display(item) for item in value]
    return value
