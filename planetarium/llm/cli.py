"""``planetarium eval run|grade|report``: a thin click layer over the runner, grader and report,
the same three commands for every benchmark (the config's ``benchmark:`` section names it).

Importing this module loads no torch, transformers or vLLM; the commands import them when run.
Also runnable on its own as ``python -m planetarium.llm.cli`` (used by the resume test).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..cliutil import OUT_DIR, SECONDS
from ..errors import PlanetariumError


class _Group(click.Group):
    """Turn library errors into one clean line and exit status 1 instead of a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        from .runner import RunInterrupted

        try:
            return super().invoke(ctx)
        except RunInterrupted as err:
            click.echo(str(err), err=True)
            ctx.exit(130)
        except PlanetariumError as err:
            raise click.ClickException(str(err)) from err


@click.group("eval", cls=_Group)
def eval_group() -> None:
    """Run a model over a benchmark, grade its answers and report (any registered benchmark)."""


@eval_group.command("run")
@click.option(
    "--config", "config_path", required=True, type=click.Path(exists=True, dir_okay=False)
)
@click.option(
    "--out", type=OUT_DIR, help="Run directory (default eval/runs/NAME-HASH)."
)
@click.option("--model", help="Override the model path or id.")
@click.option("--adapter", help="Override the LoRA adapter directory.")
@click.option("--limit", type=int, help="Only the first N selected items (benchmark.limit).")
@click.option("--max-new-tokens", type=int)
@click.option("--batch-size", type=int)
@click.option(
    "--set", "settings", multiple=True, metavar="KEY=VALUE",
    help="Override any config field, e.g. --set model.temperature=0.5 (checked like the YAML)."
)
def run_command(config_path: str, out: str | None, settings: tuple[str, ...], **named: Any) -> None:
    """Generate completions; a rerun resumes where the last one stopped."""
    from .config import load_config
    from .runner import run_eval

    summary = run_eval(load_config(config_path, settings, **named), out)
    click.echo(
        f"{summary['run_dir']}: {summary['items']} items, {summary['skipped']} already done, "
        f"{summary['generated']} generated, {summary['errors']} refused by the server"
    )


@eval_group.command("grade")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--workers", type=int, help="Grading processes (default: all cores).")
@click.option("--timeout", "timeout_s", type=SECONDS,
              help="Grading time limit per answer in seconds (default: benchmark.timeout_s).")
@click.option("--progress/--no-progress", default=True)
@click.option("--explain/--no-explain", default=True, show_default=True,
              help="Attach an explanation (renaming, differences, error categories) to every "
                   "verdict; the report's error-category table needs them.")
@click.option("--resume", is_flag=True,
              help="Keep the verdicts a killed grading wrote and grade the answers after them "
                   "(give the same settings).")
def grade_command(
    run_dir: str, workers: int | None, timeout_s: float | None, progress: bool, explain: bool,
    resume: bool,
) -> None:
    """Grade every answer with the run's benchmark; write verdicts.jsonl (as it goes) and
    results.json."""
    from ..presentation.stats import Rate
    from .grade import grade_run

    try:
        results = grade_run(run_dir, workers=workers, timeout_s=timeout_s, progress=progress,
                            explain=explain, resume=resume)
    except KeyboardInterrupt:
        click.echo(f"interrupted: the verdicts graded so far are in {Path(run_dir) / 'verdicts.jsonl'}; "
                   "rerun with --resume to grade the rest", err=True)
        raise SystemExit(130) from None
    row = results["overall"]
    rates = ", ".join(f"{metric} {Rate(k, row['n'])}" for metric, k in row["metrics"].items())
    statuses = ", ".join(f"{status} {count}" for status, count in row["statuses"].items())
    click.echo(f"{results['benchmark']}: n={row['n']}: {rates}; status: {statuses or '-'}")
    if results["n_missing"]:
        click.echo(f"warning: {results['n_missing']} items have no completion yet", err=True)


@eval_group.command("report")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
@click.option(
    "--out",
    type=OUT_DIR,
    help="Output directory (default RUN_DIR/report, or next to the runs).",
)
@click.option(
    "--label",
    "labels",
    multiple=True,
    metavar="LABEL",
    help="Name a run in tables and figures; give it once per run, in the order of RUN_DIRS "
    "(default: the config name, extended with what tells same-named runs apart).",
)
@click.option(
    "--allow-mixed-datasets",
    is_flag=True,
    help="Report runs graded on different items (dataset hash or split) with a warning "
    "instead of refusing.",
)
def report_command(
    run_dirs: tuple[str, ...], out: str | None, labels: tuple[str, ...], allow_mixed_datasets: bool
) -> None:
    """Tables with n and 95% intervals, paired comparisons, the paper's figures; CSV/JSON."""
    from .report import write_report

    first = Path(run_dirs[0])
    out_dir = (Path(out) if out is not None else first / "report" if len(run_dirs) == 1
               else first.parent / "report")
    report = write_report(list(run_dirs), out_dir, labels, allow_mixed=allow_mixed_datasets)
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(report.markdown(summary=True))
    click.echo(f"full report, figures and CSV/JSON tables: {out_dir / 'report.md'}", err=True)


if __name__ == "__main__":
    eval_group()
