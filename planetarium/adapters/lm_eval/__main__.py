"""``python -m planetarium.adapters.lm_eval [--out DIR]``: write an lm-eval ``--include_path``
folder with a task for every registered benchmark and print its path.

Without ``--out`` the folder is ``planetarium-lm-eval-tasks`` in the user's cache
(``$XDG_CACHE_HOME`` or ``~/.cache``), rewritten on every call, so that
``TASKS=$(python -m planetarium.adapters.lm_eval)`` always lists what is registered now.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ...benchmarks import available_benchmarks
from .tasks import write_tasks


def default_folder() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "planetarium-lm-eval-tasks"


@click.command()
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="The folder to write (default: planetarium-lm-eval-tasks in the user cache).")
def main(out: str | None) -> None:
    """Write one lm-eval task (or group) per registered benchmark; print the folder."""
    try:
        folder = write_tasks(out or default_folder(), available_benchmarks().values())
    except OSError as err:
        raise click.ClickException(f"{err.filename or out}: {err.strerror or err}") from err
    click.echo(str(folder.resolve()))


if __name__ == "__main__":
    sys.exit(main())
