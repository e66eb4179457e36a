"""``planetarium data ...``: generate, report on and check the dataset.

Importing this module is light: the library parts load inside the commands.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..cliutil import OUT_DIR, SECONDS
from ..limits import Stopwatch

if TYPE_CHECKING:
    from .config import DatasetConfig


@click.group("data")
def data_group() -> None:
    """Generate the Planetarium text-to-PDDL dataset, report on it, check it."""


@data_group.command("generate")
@click.option("--config", "config_path", required=True, type=click.Path(exists=True, dir_okay=False),
              help="Dataset configuration (data/full.yaml, data/demo.yaml).")
@click.option("--out", "out_dir", required=True, type=OUT_DIR,
              help="Output directory (rows.jsonl, a folder of Parquet files per configuration, "
                   "README.md, config.yaml).")
@click.option("--workers", type=int, default=None,
              help="Worker processes (default: the CPUs this process may use).")
@click.option("--progress/--no-progress", default=True, show_default=True)
@click.option("--force", is_flag=True, help="Write into OUT even if it holds other files.")
def generate_command(config_path: str, out_dir: str, workers: int | None, progress: bool,
                     force: bool) -> None:
    """Generate the dataset described by CONFIG into OUT.

    OUT must be new, empty, or an earlier output of this command (which is replaced, with a
    word); anything else needs --force, so a README or data of someone else's is never
    overwritten silently.
    """
    from ..config import ConfigError
    from ..errors import PlanetariumError
    from .config import load_config
    from .generator import generate
    from .writer import MARKER_FILE, arrow_modules, write_dataset

    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise click.ClickException(f"{out_dir} is a file, not a directory")
    if out.is_dir() and any(out.iterdir()):
        if not (out / MARKER_FILE).is_file() and not force:
            raise click.ClickException(
                f"{out_dir} is not empty and holds no {MARKER_FILE} (this command did not write "
                "it): choose a new or empty directory, or pass --force to write into it anyway")
        click.echo(f"replacing the files of {out_dir}", err=True)
    watch = Stopwatch()
    try:
        arrow_modules()  # before the minutes of generation, not after them
        config = _load_with_bar(load_config, config_path, progress)
        rows = generate(config, workers=workers, progress=progress)
        write_dataset(rows, out_dir, config, progress=progress)
    except ConfigError as err:
        raise click.ClickException(str(err.at(config_path))) from err
    except PlanetariumError as err:
        raise click.ClickException(str(err)) from err
    click.echo(f"{len(rows):,} rows written to {out_dir} in {watch.seconds:.1f} s", err=True)


def _load_with_bar(load: Callable[[str], DatasetConfig], config_path: str,
                   progress: bool) -> DatasetConfig:
    """Read the configuration under a labelled bar (the full one takes seconds)."""
    if not progress:
        return load(config_path)
    from tqdm import tqdm

    with tqdm(total=1, desc=f"reading {config_path}", unit="file") as bar:
        config = load(config_path)
        bar.update()
    return config


@data_group.command("report")
@click.argument("source")
@click.option("--strict", is_flag=True,
              help="Exit non-zero when any cell compared with the published dataset differs.")
def report_command(source: str, strict: bool) -> None:
    """Print the markdown report of SOURCE (a generated directory, its rows.jsonl, the published
    dataset's Parquet files or its Hub id): split sizes, and every cell of the paper's Table 1
    and every combination's rows and placeholder rows compared with the published dataset."""
    from ..errors import PlanetariumError
    from . import load_rows
    from .config import load_config
    from .report import PUBLISHED_BINS, differences, render_report

    config_file = Path(source) / "config.yaml"
    try:
        bins = load_config(config_file).size_bins if config_file.is_file() else PUBLISHED_BINS
        rows = load_rows(source)
    except (PlanetariumError, OSError) as err:
        raise click.ClickException(str(err)) from err
    if not rows:
        raise click.ClickException(f"{source}: no dataset rows to report on")
    click.echo(render_report(rows, bins), nl=False)
    if strict:
        differ = differences(rows, bins)
        for cell in differ[:20]:
            click.echo(f"DIFFERS {cell.domain} {cell.what}: ours {cell.ours:,}, "
                       f"published {cell.published:,}", err=True)
        if differ:
            raise click.ClickException(f"{len(differ):,} cell(s) differ from the published dataset")
        click.echo("every compared cell equals the published dataset's", err=True)


@data_group.command("check")
@click.argument("directory", type=click.Path(exists=True))
@click.option("--workers", type=int, default=None, help="Worker processes (default: CPU count).")
@click.option("--timeout", "timeout_s", type=SECONDS, default=60.0, show_default=True,
              help="Seconds per problem.")
@click.option("--split", default=None, help="Check only these rows (e.g. heldout:test).")
@click.option("--progress/--no-progress", default=True, show_default=True)
def check_command(directory: str, workers: int | None, timeout_s: float, split: str | None,
                  progress: bool) -> None:
    """Grade every ground truth of DIRECTORY against itself; fail on any row that is not
    parseable, solvable and equivalent."""
    from ..errors import PlanetariumError
    from . import load_rows
    from .check import check_rows

    try:
        rows = load_rows(directory, split)
    except (PlanetariumError, OSError) as err:
        raise click.ClickException(str(err)) from err
    if not rows:
        raise click.ClickException(f"{directory}: no dataset rows to check"
                                   + (f" in split {split}" if split else ""))
    failures = check_rows(rows, workers=workers, timeout_s=timeout_s, progress=progress,
                          desc=f"self-check of {directory}")
    for row, result in failures[:20]:
        click.echo(f"FAIL id={row['id']} {row['name']} placeholder={row['is_placeholder']}: "
                   f"parseable={result.parseable} solvable={result.solvable} "
                   f"equivalent={result.equivalent} status={result.status}: {result.reason}",
                   err=True)
    if failures:
        click.echo(f"{len(failures):,} of {len(rows):,} rows failed the self-check", err=True)
        sys.exit(1)
    click.echo(f"all {len(rows):,} rows: parseable, solvable and equivalent to themselves", err=True)
