"""The ``planetarium`` command: a thin click layer over the library.

Exit codes: 0 success (a "not equivalent" verdict is a success), 1 error in the input (missing
file, unreadable ground truth, bad batch lines), 2 usage error.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Iterator

import click

from . import __version__

INPUT_ERROR = 1


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
        raise click.ClickException(f"cannot read {path}: {err.strerror}") from err


def _json_lines(path: str) -> Iterator[dict]:
    """Yield one item per line; a line that is not a JSON object becomes a marked bad item."""
    from .batch import BAD_INPUT_KEY

    stream = sys.stdin if path == "-" else open(path, encoding="utf-8", errors="replace")
    with stream:
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as err:
                yield {"id": None, BAD_INPUT_KEY: f"line {number}: invalid JSON ({err.msg})"}
                continue
            if not isinstance(item, dict):
                item = {"id": None, BAD_INPUT_KEY: f"line {number}: not a JSON object"}
            yield item


def _summary(rows: list[dict]) -> str:
    n = len(rows)
    if not n:
        return "no pairs graded"
    count = lambda key: sum(1 for r in rows if r[key] is True)  # noqa: E731
    correct = sum(1 for r in rows if r["parseable"] and r["solvable"] and r["equivalent"])
    statuses = {}
    for r in rows:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    pct = lambda k: f"{k:6d} ({100 * k / n:5.1f}%)"  # noqa: E731
    return "\n".join([
        f"pairs      {n:6d}",
        f"parseable  {pct(count('parseable'))}",
        f"solvable   {pct(count('solvable'))}",
        f"equivalent {pct(count('equivalent'))}",
        f"correct    {pct(correct)}",
        "status     " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())),
    ])


def _run_batch(source: str, out: str | None, workers: int | None, timeout: float,
               options: dict) -> list[dict]:
    from .batch import grade_batch

    sink = open(out, "w", encoding="utf-8") if out else sys.stdout
    rows = []
    try:
        for row in grade_batch(_json_lines(source), workers=workers, timeout_s=timeout,
                               progress=sys.stderr.isatty(), **options):
            rows.append(row)
            sink.write(json.dumps(row) + "\n")
            sink.flush()
    finally:
        if out:
            sink.close()
    return rows


@main.command()
@click.argument("gt", required=False, type=click.Path(dir_okay=False))
@click.argument("pred", required=False, type=click.Path(dir_okay=False))
@click.option("--batch", "batch", type=click.Path(dir_okay=False, allow_dash=True),
              help="JSONL of {id, gt, pred, is_placeholder, anchored_objects} (PDDL texts); '-' reads stdin.")
@click.option("--out", type=click.Path(dir_okay=False), help="Batch results JSONL (default stdout).")
@click.option("--workers", type=click.IntRange(1), default=None, help="Processes (default: CPUs).")
@click.option("--placeholder", is_flag=True, help="Goal objects are placeholders (any permutation).")
@click.option("--ignore-typing", is_flag=True, help="Ignore object types (relaxed metric).")
@click.option("--no-solve", is_flag=True, help="Skip the solvability check.")
@click.option("--timeout", type=click.FloatRange(0.1), default=10.0, show_default=True,
              help="Seconds per pair; running out reports 'timeout', never 'not equivalent'.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@click.option("--anchor", "anchors", multiple=True, metavar="NAME",
              help="Object name every renaming must keep (repeatable).")
@click.option("--anchor-all", is_flag=True, help="Anchor every object of the ground truth.")
@click.option("--placeholder-semantics", type=click.Choice(["paper", "reachable-goal-states"]),
              default="paper", show_default=True,
              help="paper: init and fully specified goal scenes match separately; "
                   "reachable-goal-states: a renaming maps the sets of reachable goal states.")
def grade(gt, pred, batch, out, workers, placeholder, ignore_typing, no_solve, timeout, as_json,
          anchors, anchor_all, placeholder_semantics):
    """Grade PRED against the ground truth GT (or a whole --batch)."""
    options = {"relax_typing": ignore_typing, "check_solvable": not no_solve,
               "anchored_objects": list(anchors), "anchor_all": anchor_all,
               "placeholder_semantics": placeholder_semantics}
    if batch:
        if gt or pred:
            raise click.UsageError("give either GT PRED or --batch, not both")
        rows = _run_batch(batch, out, workers, timeout, options)
        click.echo(_summary(rows), err=True)
        bad = sum(1 for r in rows if r["reason"].startswith("bad input item"))
        if bad:
            click.echo(f"{bad} input line(s) could not be graded (see their 'reason')", err=True)
            sys.exit(INPUT_ERROR)
        return
    if not (gt and pred):
        raise click.UsageError("give GT and PRED files, or --batch PAIRS.jsonl")
    from .grading import grade as grade_pair

    result = grade_pair(_read_text(gt), _read_text(pred), is_placeholder=placeholder,
                        timeout_s=timeout, **options)
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    else:
        show = lambda v: {True: "yes", False: "no", None: "undecided"}[v]  # noqa: E731
        click.echo(f"parseable:  {show(result.parseable)}\nsolvable:   {show(result.solvable)}\n"
                   f"equivalent: {show(result.equivalent)}\nstatus:     {result.status}\n"
                   f"reason:     {result.reason}")
    if result.status == "error" and result.reason.startswith("ground truth"):
        sys.exit(INPUT_ERROR)


def _load_problem(problem_path: str, domain_arg: str | None, relax_typing: bool = False):
    """Read a problem file; the domain is a registered name, a domain file, or its (:domain)."""
    from .domains import Domain, get_domain
    from .errors import PlanetariumError
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
    except PlanetariumError as err:
        raise click.ClickException(f"{problem_path}: {err}") from err


@main.command()
@click.argument("args", nargs=-1, required=True)
@click.option("--timeout", type=click.FloatRange(0.1), default=60.0, show_default=True)
def plan(args, timeout) -> None:
    """Print a plan for a problem: plan [DOMAIN] PROBLEM.pddl.

    DOMAIN is a registered domain name or a domain file; by default the problem's (:domain).
    """
    if len(args) > 2:
        raise click.UsageError("expected [DOMAIN] PROBLEM.pddl")
    domain_arg, problem_path = (None, args[0]) if len(args) == 1 else args
    from .planning import check_solvable
    from .strips.plan_io import format_plan

    domain, problem = _load_problem(problem_path, domain_arg)
    result = check_solvable(domain, problem, timeout_s=timeout)
    if result.status == "solvable":
        click.echo(format_plan(result.plan).rstrip("\n"))
        click.echo(f"; {len(result.plan)} step(s), validated", err=True)
    else:
        click.echo(f"; {result.status}: {result.reason}")


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
        sys.exit(INPUT_ERROR)


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

    sample = files("planetarium").joinpath("samples", "pairs.jsonl")
    click.echo(f"Grading the built-in sample {sample.name} ...", err=True)
    rows = _run_batch(str(sample), None, workers, 10.0, {})
    click.echo(_summary(rows))


if __name__ == "__main__":
    main()
