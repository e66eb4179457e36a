"""``planetarium rl``: a thin click layer over :func:`planetarium.rl.train.run`.

Importing this module loads no torch/transformers/trl: the training stack is imported when the
command runs, and a missing one is reported with the extra to install (``[rl]``).
"""

from __future__ import annotations

import json

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
    summary = {
        "adapter": f"{cfg.out_dir}/{ADAPTER_DIR}",
        "trained": outcome.trained,
        "steps": record["train"]["steps"],
        "seconds_per_step": record["train"]["seconds_per_step"],
        "reward": record["reward"]["name"],
        "reward_metrics": record["reward"]["metrics"],
    }
    click.echo(json.dumps(summary))
