"""The ``planetarium`` command: a thin click layer over the library.

Exit codes: 0 success (a "not equivalent" verdict is a success), 1 error in the input (missing
file, unreadable ground truth, bad batch lines), 2 usage error.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Iterable
from enum import IntEnum
from pathlib import Path
from typing import TextIO

import click

from . import __version__
from .cliutil import SECONDS
from .equivalence import PlaceholderSemantics
from .grading import GradeOptions, GradeResult, Status


class ExitCode(IntEnum):
    """The command's exit status, derived from the kinds of the results, never their wording."""

    OK = 0
    INPUT_ERROR = 1      # unreadable file or ground truth, bad batch lines; `plan`: no plan exists
    USAGE = 2            # click's own usage errors
    UNDECIDED = 3        # `plan`: a time or search limit ran out
    INTERNAL_ERROR = 4   # a bug in Planetarium or a plug-in (see the rows' reasons)


def exit_code_for(statuses: Iterable[Status]) -> ExitCode:
    """Grading: an internal error outranks bad input; timeouts and "no" verdicts are results."""
    kinds = set(statuses)
    if Status.INTERNAL_ERROR in kinds:
        return ExitCode.INTERNAL_ERROR
    if Status.INVALID_INPUT in kinds:
        return ExitCode.INPUT_ERROR
    return ExitCode.OK


class LazyGroup(click.Group):
    """Loads sub-command groups (data, eval, finetune) only when they are invoked or listed."""

    lazy = {
        "data": ("planetarium.dataset.cli", "data_group"),
        "eval": ("planetarium.llm.cli", "eval_group"),
        "finetune": ("planetarium.finetune.cli", "finetune_command"),
        "acp": ("planetarium.acp.cli", "acp_group"),
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, name: str):
        if name in self.lazy:
            import importlib

            module, attr = self.lazy[name]
            return getattr(importlib.import_module(module), attr)
        return super().get_command(ctx, name)


@click.group(cls=LazyGroup)
@click.version_option(__version__, prog_name="planetarium")
def main() -> None:
    """Planetarium: did the model write the right PDDL?"""


def _read_text(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as err:
        raise click.ClickException(f"cannot read {path}: {err.strerror or err}") from err


def _summary(results: list[GradeResult]) -> str:
    n = len(results)
    if not n:
        return "no pairs graded"
    statuses = Counter(r.status.value for r in results)
    pct = lambda k: f"{k:6d} ({100 * k / n:5.1f}%)"  # noqa: E731
    return "\n".join([
        f"pairs      {n:6d}",
        f"parseable  {pct(sum(r.parseable is True for r in results))}",
        f"solvable   {pct(sum(r.solvable is True for r in results))}",
        f"equivalent {pct(sum(r.equivalent is True for r in results))}",
        f"correct    {pct(sum(r.correct for r in results))}",
        "status     " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())),
    ])


def _open_output(out: str | None, resume: bool) -> tuple[TextIO, set]:
    """The sink for result rows and, with ``resume``, the ids it already holds."""
    from .batch import resume_output

    if out is None:
        if resume:
            raise click.UsageError("--resume needs --out (the partial results to continue)")
        return sys.stdout, set()
    try:
        done = resume_output(out) if resume else set()
        return open(out, "a" if resume else "w", encoding="utf-8"), done
    except (OSError, ValueError) as err:
        raise click.ClickException(f"cannot write {out}: {getattr(err, 'strerror', None) or err}"
                                   ) from err


def _run_batch(source: str, out: str | None, workers: int | None, options: GradeOptions,
               resume: bool = False, progress: bool | None = None) -> list[GradeResult]:
    from .batch import grade_batch, item_key, read_items

    if source != "-" and not Path(source).is_file():
        raise click.ClickException(f"cannot read {source}: no such file")
    sink, done = _open_output(out, resume)
    items = (item for item in read_items(source) if item_key(item) not in done)
    if done:
        click.echo(f"resuming: {len(done)} id(s) already graded in {out}", err=True)
    results = []
    try:
        show = sys.stderr.isatty() if progress is None else progress
        for result in grade_batch(items, options=options, workers=workers, progress=show):
            results.append(result)
            sink.write(json.dumps(result.to_dict()) + "\n")
            sink.flush()
    except OSError as err:
        raise click.ClickException(f"cannot read {source}: {err.strerror or err}") from err
    finally:
        if out:
            sink.close()
    return results


@main.command()
@click.argument("gt", required=False, type=click.Path(dir_okay=False))
@click.argument("pred", required=False, type=click.Path(dir_okay=False))
@click.option("--batch", "batch", type=click.Path(dir_okay=False, allow_dash=True),
              help="JSONL of {id, gt, pred, is_placeholder, anchored_objects} (PDDL texts); '-' reads stdin.")
@click.option("--out", type=click.Path(dir_okay=False), help="Batch results JSONL (default stdout).")
@click.option("--resume", is_flag=True,
              help="Batch: keep the rows already in --out and grade only the ids not there yet.")
@click.option("--workers", type=click.IntRange(1), default=None, help="Processes (default: CPUs).")
@click.option("--progress/--no-progress", default=None,
              help="Batch progress bar on stderr (default: when stderr is a terminal).")
@click.option("--placeholder", is_flag=True,
              help="Goal objects are placeholders (any permutation); in a batch, the default for "
                   "lines without 'is_placeholder'.")
@click.option("--ignore-typing", is_flag=True, help="Ignore object types (relaxed metric).")
@click.option("--no-solve", is_flag=True, help="Skip the solvability check.")
@click.option("--timeout", type=SECONDS, default=10.0, show_default=True,
              help="Seconds per pair; running out reports 'timeout', never 'not equivalent'.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@click.option("--anchor", "anchors", multiple=True, metavar="NAME",
              help="Object name every renaming must keep (repeatable; in a batch, added to each "
                   "line's 'anchored_objects').")
@click.option("--anchor-all", is_flag=True, help="Anchor every object of the ground truth.")
@click.option("--placeholder-semantics",
              type=click.Choice([s.value for s in PlaceholderSemantics]),
              default=PlaceholderSemantics.PAPER.value, show_default=True,
              help="paper: init and fully specified goal scenes match separately; "
                   "reachable-goal-states: a renaming maps the sets of reachable goal states.")
def grade(gt, pred, batch, out, resume, workers, progress, placeholder, ignore_typing, no_solve,
          timeout, as_json, anchors, anchor_all, placeholder_semantics):
    """Grade PRED against the ground truth GT (or a whole --batch).

    Exit status: 0 every pair got a verdict (a "no" or a timeout is a verdict), 1 bad input
    (unreadable file or ground truth, bad batch lines), 2 usage, 4 internal error.
    """
    options = GradeOptions(is_placeholder=placeholder, relax_typing=ignore_typing,
                           check_solvable=not no_solve, timeout_s=timeout,
                           anchored_objects=anchors, anchor_all=anchor_all,
                           placeholder_semantics=placeholder_semantics)
    if batch:
        if gt or pred:
            raise click.UsageError("give either GT PRED or --batch, not both")
        results = _run_batch(batch, out, workers, options, resume, progress)
        click.echo(_summary(results), err=True)
        bad = sum(r.status is Status.INVALID_INPUT for r in results)
        if bad:
            click.echo(f"{bad} input line(s) could not be graded (see their 'reason')", err=True)
        sys.exit(exit_code_for(r.status for r in results))
    if not (gt and pred):
        raise click.UsageError("give GT and PRED files, or --batch PAIRS.jsonl")
    if out or resume:
        raise click.UsageError("--out and --resume apply to --batch only")
    from .grading import grade as grade_pair

    result = grade_pair(_read_text(gt), _read_text(pred), options=options)
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    else:
        show = lambda v: {True: "yes", False: "no", None: "undecided"}[v]  # noqa: E731
        click.echo(f"parseable:  {show(result.parseable)}\nsolvable:   {show(result.solvable)}\n"
                   f"equivalent: {show(result.equivalent)}\nstatus:     {result.status}"
                   + (f" ({result.stage})" if result.stage else "")
                   + f"\nreason:     {result.reason}")
    sys.exit(exit_code_for([result.status]))


def _load_problem(problem_path: str, domain_arg: str | None, relax_typing: bool = False):
    """Read a problem file; the domain is a registered name, a domain file, or its (:domain)."""
    from .domains import Domain, get_domain
    from .errors import PlanetariumError, ResourceLimitError
    from .grading import load_ground_truth
    from .pddl import read_problem

    text = _read_text(problem_path)
    try:
        if domain_arg and Path(domain_arg).is_file():
            from .pddl import parse_domain

            definition = parse_domain(_read_text(domain_arg))
            domain = Domain(definition.name, _read_text(domain_arg))
        elif domain_arg:
            domain = get_domain(domain_arg)
        else:
            return load_ground_truth(text, relax_typing=relax_typing)
        return domain, read_problem(text, domain.definition, relax_typing=relax_typing)
    except ResourceLimitError:
        raise  # reading ran out of time: the caller reports a timeout, not bad input
    except PlanetariumError as err:
        raise click.ClickException(f"{problem_path}: {err}") from err


@main.command()
@click.argument("args", nargs=-1, required=True)
@click.option("--timeout", type=SECONDS, default=60.0, show_default=True)
def plan(args, timeout) -> None:
    """Print a plan for a problem: plan [DOMAIN] PROBLEM.pddl.

    DOMAIN is a registered domain name or a domain file; by default the problem's (:domain).
    Exit status: 0 a validated plan was printed, 1 no plan exists (or unreadable input),
    3 undecided (the time limit ran out), 4 internal error (a planner bug).
    """
    if len(args) > 2:
        raise click.UsageError("expected [DOMAIN] PROBLEM.pddl")
    domain_arg, problem_path = (None, args[0]) if len(args) == 1 else args
    from .errors import ResourceLimitError
    from .limits import time_limit
    from .planning import SolveStatus, check_solvable
    from .strips.plan_io import format_plan

    deadline = time.monotonic() + timeout  # reading the problem counts against the limit too
    try:
        with time_limit(timeout):
            domain, problem = _load_problem(problem_path, domain_arg)
    except ResourceLimitError as err:
        click.echo(f"; {SolveStatus.TIMEOUT}: {err}", err=True)
        sys.exit(ExitCode.UNDECIDED)
    result = check_solvable(domain, problem, timeout_s=max(0.0, deadline - time.monotonic()))
    if result.status is SolveStatus.SOLVABLE:
        click.echo(format_plan(result.plan).rstrip("\n"))
        click.echo(f"; {len(result.plan)} step(s), validated", err=True)
        return
    click.echo(f"; {result.status}: {result.reason}", err=True)
    sys.exit({SolveStatus.UNSOLVABLE: ExitCode.INPUT_ERROR, SolveStatus.TIMEOUT: ExitCode.UNDECIDED,
              SolveStatus.ERROR: ExitCode.INTERNAL_ERROR}[result.status])


@main.command()
@click.argument("problem_path", metavar="PROBLEM.pddl", type=click.Path(dir_okay=False))
@click.argument("plan_path", metavar="PLAN", type=click.Path(dir_okay=False))
@click.option("--domain", "domain_arg", help="Domain name or domain file (default: the problem's).")
def validate(problem_path, plan_path, domain_arg) -> None:
    """Replay PLAN on PROBLEM.pddl; exit 0 if it reaches the goal, 1 if not."""
    from .errors import PDDLSyntaxError
    from .strips.plan_io import parse_plan
    from .strips.validate import validate_plan

    domain, problem = _load_problem(problem_path, domain_arg)
    try:
        steps = parse_plan(_read_text(plan_path))
    except PDDLSyntaxError as err:
        raise click.ClickException(f"{plan_path}: {err}") from err
    verdict = validate_plan(domain.definition, problem, steps)
    click.echo(verdict.message)
    if not verdict.ok:
        sys.exit(ExitCode.INPUT_ERROR)


@main.command()
def domains() -> None:
    """List the registered domains (and plug-ins that failed to load)."""
    from .domains import available_domains, failed_plugins

    for name, domain in available_domains().items():
        planner = "domain planner" if domain.has_planner else "generic planner"
        click.echo(f"{name:16s} {type(domain).__module__}  ({planner})")
    for name, why in failed_plugins().items():
        click.echo(f"{name:16s} FAILED TO LOAD: {why}")


@main.command()
@click.option("--workers", type=click.IntRange(1), default=None)
def demo(workers) -> None:
    """Grade the built-in sample of model outputs and print the summary."""
    from importlib.resources import files

    from .batch import grade_batch, read_items

    sample = files("planetarium").joinpath("samples", "pairs.jsonl")
    click.echo(f"Grading the built-in sample {sample.name} ...", err=True)
    results = list(grade_batch(read_items(str(sample)), workers=workers,
                               progress=sys.stderr.isatty()))
    click.echo(_summary(results))


if __name__ == "__main__":
    main()
