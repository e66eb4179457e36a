"""``planetarium finetune``: a thin click layer over :func:`planetarium.finetune.train.run`.

Importing this module loads no torch/transformers/peft: the training stack is imported when the
command runs, and a missing one is reported with the ``[train]`` extra to install.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from pathlib import Path

import click

from planetarium.cliutil import OUT_DIR
from planetarium.errors import PlanetariumError

from .config import load_config


@click.command("finetune")
@click.option(
    "--config",
    "config_path",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="Fine-tuning YAML, e.g. finetune/tiny.yaml.",
)
@click.option(
    "--out",
    "out_dir",
    type=OUT_DIR,
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
    "--resume", is_flag=True, help="Continue from the newest checkpoint in the output directory "
    "(a run that finished with these settings is left as it is)."
)
@click.option(
    "--overwrite", is_flag=True, help="Start over in an output directory an earlier run used "
    "(its checkpoints, adapter and record are replaced)."
)
def finetune_command(
    config_path: str, out_dir: str | None, overrides: tuple[str, ...], resume: bool,
    overwrite: bool,
) -> None:
    """QLoRA fine-tuning on the training split (paper Appendix F); saves a LoRA adapter."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        cfg = load_config(config_path, overrides)
        if out_dir:
            cfg = dataclasses.replace(cfg, out_dir=out_dir)
        from .train import ADAPTER_DIR, finished_record, run

        record = finished_record(cfg, Path(cfg.out_dir)) if resume else None
        if record is not None:
            click.echo(f"{cfg.out_dir}: this run finished with these settings already; nothing "
                       "to do (--overwrite starts it over)", err=True)
        else:
            record = run(cfg, resume=resume, overwrite=overwrite)
    except (PlanetariumError, OSError) as err:  # OSError: missing data, model not on disk/hub
        raise click.ClickException(str(err)) from err
    summary = {
        "adapter": f"{cfg.out_dir}/{ADAPTER_DIR}",
        "quantization": record["quantization"]["mode"],
        "examples": record["data"]["trained"],
        "steps": record["train"]["steps"],
        "loss": record["train"]["loss"],
        "seconds": record["train"]["seconds"],
    }
    click.echo(json.dumps(summary))
