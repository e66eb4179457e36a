"""``planetarium rl``: a thin click layer over :func:`planetarium.rl.train.run`.

Importing this module loads no torch/transformers/trl: the training stack is imported when the
command runs, and a missing one is reported with the ``[train]`` extra to install.
"""

from __future__ import annotations

import dataclasses
import json
import logging

import click

from planetarium.errors import PlanetariumError

from .config import load_config


@click.command("rl")
@click.option(
    "--config",
    "config_path",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="GRPO YAML, e.g. rl/tiny.yaml.",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    help="Output directory (overrides out_dir).",
)
@click.option(
    "--set",
    "overrides",
    multiple=True,
    metavar="KEY=VALUE",
    help="Override a config key, e.g. --set training.max_steps=20 (validated like the YAML).",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue from the newest checkpoint in the output directory (a finished run is left as is).",
)
def rl_command(
    config_path: str, out_dir: str | None, overrides: tuple[str, ...], resume: bool
) -> None:
    """GRPO with a LoRA adapter, rewarded by the grader (TRL); saves an adapter for eval run."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        cfg = load_config(config_path, overrides)
        if out_dir:
            cfg = dataclasses.replace(cfg, out_dir=out_dir)
        from planetarium.finetune.train import ADAPTER_DIR

        from .train import run

        outcome = run(cfg, resume=resume)
    except (PlanetariumError, OSError) as err:  # OSError: missing data, model not on disk/hub
        raise click.ClickException(str(err)) from err
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
