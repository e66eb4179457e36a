"""``planetarium finetune``: a thin click layer over :func:`planetarium.finetune.train.run`.

Importing this module loads no torch/transformers/peft: the training stack is imported when the
command runs, and a missing one is reported with the ``[train]`` extra to install.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import logging
from collections.abc import Callable
from typing import Any

import click

from planetarium.cliutil import OUT_DIR
from planetarium.errors import PlanetariumError

from .config import load_config
from .train import ADAPTER_DIR


def run_options(example: str, resume_help: str) -> Callable[[Callable], Callable]:
    """The options of a training command (``finetune``, ``rl``): ``--config`` (``example`` is a
    shipped one), ``--out``, ``--set``, ``--resume`` and ``--overwrite``."""

    def decorate(command: Callable) -> Callable:
        options = [
            click.option(
                "--config",
                "config_path",
                required=True,
                type=click.Path(exists=True, dir_okay=False),
                help=f"Training YAML, e.g. {example}.",
            ),
            click.option(
                "--out",
                "out_dir",
                type=OUT_DIR,
                help="Output directory (overrides out_dir).",
            ),
            click.option(
                "--set",
                "overrides",
                multiple=True,
                metavar="KEY=VALUE",
                help="Override a config key, e.g. --set training.max_steps=20 (validated like "
                "the YAML).",
            ),
            click.option("--resume", is_flag=True, help=resume_help),
            click.option("--overwrite", is_flag=True,
                         help="Start over in an output directory an earlier run used (its "
                              "checkpoints, adapter and record are replaced)."),
        ]
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def run_training(
    load: Callable[[str, tuple[str, ...]], Any],
    train_module: str,
    config_path: str,
    overrides: tuple[str, ...],
    out_dir: str | None,
    resume: bool,
    overwrite: bool = False,
) -> tuple[Any, Any]:
    """Load a training config (``--out`` replacing its out_dir) and pass it to ``train_module``'s
    ``run``, imported only now; returns the config and what ``run`` returned.  Library errors
    become one clean line, never a traceback."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        cfg = load(config_path, overrides)
        if out_dir:
            cfg = dataclasses.replace(cfg, out_dir=out_dir)
        return cfg, importlib.import_module(train_module).run(cfg, resume=resume, overwrite=overwrite)
    except (PlanetariumError, OSError) as err:  # OSError: missing data, model not on disk/hub
        raise click.ClickException(str(err)) from err


@click.command("finetune")
@run_options("finetune/tiny.yaml", "Continue from the newest checkpoint in the output directory "
             "(a run that finished with these settings is left as it is).")
def finetune_command(
    config_path: str, out_dir: str | None, overrides: tuple[str, ...], resume: bool,
    overwrite: bool,
) -> None:
    """QLoRA fine-tuning on the training split (paper Appendix F); saves a LoRA adapter."""
    cfg, outcome = run_training(
        load_config, "planetarium.finetune.train", config_path, overrides, out_dir, resume,
        overwrite,
    )
    record = outcome.record
    if not outcome.trained:
        click.echo(f"{cfg.out_dir}: this run finished with these settings already; nothing "
                   "to do (--overwrite starts it over)", err=True)
    summary = {
        "adapter": f"{cfg.out_dir}/{ADAPTER_DIR}",
        "quantization": record["quantization"]["mode"],
        "examples": record["data"]["trained"],
        "steps": record["train"]["steps"],
        "loss": record["train"]["loss"],
        "seconds": record["train"]["seconds"],
    }
    click.echo(json.dumps(summary))
