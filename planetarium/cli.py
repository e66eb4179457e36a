"""The ``planetarium`` command: a thin click layer over the library.

Exit codes: 0 success (a "not equivalent" verdict is a success), 1 error in the input (missing
file, unreadable ground truth, bad batch lines), 2 usage error.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections import deque
from collections.abc import Iterable
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import click

from . import __version__
from .cliutil import SECONDS, file_id
from .equivalence import PlaceholderSemantics
from .grading import GradeOptions, GradeResult, Status

if TYPE_CHECKING:
    from .batch import PartialOutput, Tally
    from .domains import Domain
    from .pddl import Problem


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
    """Loads sub-command groups (data, eval, finetune, rl) only when they are invoked or listed, and
    turns a missing optional extra into one line."""

    lazy = {
        "data": ("planetarium.dataset.cli", "data_group"),
        "eval": ("planetarium.llm.cli", "eval_group"),
        "finetune": ("planetarium.finetune.cli", "finetune_command"),
        "rl": ("planetarium.rl.cli", "rl_command"),
        "acp": ("planetarium.acp.cli", "acp_group"),
        "arb": ("planetarium.arb.cli", "arb_group"),
    }

    #: Commands from a layer above a group's own, added when the group loads: ``eval view``
    #: reads what the llm layer writes, so the llm layer cannot import it; ``acp score`` and
    #: ``arb score`` grade through the benchmarks, which sit above the acp and arb packages.
    extra = {"eval": ("planetarium.viewer.cli", "view_command"),
             "acp": ("planetarium.scoring.acp", "score_command"),
             "arb": ("planetarium.scoring.arb", "score_command")}

    def invoke(self, ctx: click.Context) -> Any:
        """A missing optional extra (with its ``pip install``) and a file the system refused are
        one line in every command."""
        from .errors import MissingExtraError

        try:
            return super().invoke(ctx)
        except MissingExtraError as err:
            raise click.ClickException(str(err)) from err
        except OSError as err:  # a file or folder the system refused: say which, in one line
            where = f"{err.filename}: " if err.filename else ""
            raise click.ClickException(f"{where}{err.strerror or err}") from err
        except KeyboardInterrupt:  # commands that keep partial results say how many themselves
            click.echo("interrupted", err=True)
            ctx.exit(130)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy:
            import importlib

            module, attr = self.lazy[name]
            group = getattr(importlib.import_module(module), attr)
            if name in self.extra:
                module, attr = self.extra[name]
                group.add_command(getattr(importlib.import_module(module), attr))
            return group
        return super().get_command(ctx, name)


@click.group(cls=LazyGroup)
@click.version_option(__version__, prog_name="planetarium")
def main() -> None:
    """Planetarium: did the model write the right PDDL?"""
    from .llm.quiet import quiet_bitsandbytes

    quiet_bitsandbytes()  # its missing-`kernels` warning on every training-side command


def _read_text(path: str) -> str:
    """A whole input file, at most :data:`~planetarium.jsonl.MAX_LINE_BYTES` (not ``/dev/zero``)."""
    from .jsonl import JsonLineError, read_capped

    try:
        return read_capped(path).decode("utf-8", errors="replace")
    except OSError as err:
        raise click.ClickException(f"cannot read {path}: {err.strerror or err}") from err
    except JsonLineError as err:
        raise click.ClickException(f"cannot read {err}") from err


def _summary(tally: Tally) -> str:
    n = tally.rows
    if not n:
        return "no pairs graded"
    pct = lambda k: f"{k:6d} ({100 * k / n:5.1f}%)"  # noqa: E731
    return "\n".join([
        f"pairs      {n:6d}",
        f"parseable  {pct(tally.parseable)}",
        f"solvable   {pct(tally.solvable)}",
        f"equivalent {pct(tally.equivalent)}",
        f"correct    {pct(tally.correct)}",
        "status     " + ", ".join(f"{k.value}: {v}" for k, v in
                                  sorted(tally.statuses.items(), key=lambda kv: kv[0].value)),
    ])


def _refuse_same_file(source: str, out: str | None) -> None:
    """Writing results into the file being read would empty or endlessly grow the input.

    Compared by device and inode, so links, ``/dev/stdout`` and shell redirections are caught.
    """
    read_id = file_id(0 if source == "-" else source)
    write_id = file_id(1 if out is None else out)
    if read_id is not None and read_id == write_id:
        where = "standard output" if out is None else out
        raise click.ClickException(
            f"the results ({where}) would overwrite the batch being read ({source}); write them "
            "to another file")


def _open_output(out: str, resume: bool) -> tuple[BinaryIO, PartialOutput]:
    """The locked results file (:func:`planetarium.resume.open_output`: a second batch writing
    it is refused before it can empty the first one's rows) and, with ``resume``, the rows it
    already holds."""
    from .batch import PartialOutput, resume_output
    from .resume import OutputBusyError, open_output

    try:
        sink = open_output(out, resume, "batch")
    except OutputBusyError as err:
        raise click.ClickException(str(err)) from err
    except OSError as err:
        raise click.ClickException(f"cannot write {out}: {err.strerror or err}") from err
    try:
        return sink, resume_output(out) if resume else PartialOutput()
    except ValueError as err:
        sink.close()
        raise click.ClickException(f"cannot resume: {err}") from err
    except OSError as err:
        sink.close()
        raise click.ClickException(f"cannot write {out}: {err.strerror or err}") from err


def _write_rows(sink: BinaryIO, name: str, results: Iterable[GradeResult], digests: deque[str],
                tally: Tally) -> None:
    """Write each row as soon as it is graded, with its input line's ``input_sha256`` (the k-th
    of ``digests``), counting it in ``tally``; a failed write is one error naming the output."""
    written = 0
    for result in results:
        row = result.to_dict()
        row["input_sha256"] = digests.popleft()
        try:
            sink.write((json.dumps(row) + "\n").encode("utf-8"))
            sink.flush()
        except OSError as err:
            if sink is sys.stdout.buffer:  # no second complaint when Python flushes at exit
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise click.ClickException(
                f"cannot write {name}: {err.strerror or err}; the {written} row(s) before "
                "it were written") from err
        tally.add(row)
        written += 1


def _run_batch(source: str, out: str | None, workers: int | None, options: GradeOptions,
               resume: bool = False, progress: bool | None = None) -> Tally:
    """Grade a batch into ``out`` (or standard output); the counts over every row of the output,
    those kept by ``resume`` included."""
    from .batch import (
        PartialOutput,
        grade_batch,
        max_workers,
        read_lines,
        recording_digests,
        skip_done,
    )
    from .jsonl import JsonLineError

    if source != "-" and not Path(source).is_file():
        raise click.ClickException(f"cannot read {source}: no such file")
    if out is None and resume:
        raise click.UsageError("--resume needs --out (the partial results to continue)")
    if workers and workers > max_workers():
        click.echo(f"using {max_workers()} workers (the most for this machine), not {workers}",
                   err=True)
    _refuse_same_file(source, out)
    sink, done = (sys.stdout.buffer, PartialOutput()) if out is None else _open_output(out, resume)
    name = out or "standard output"
    digests: deque[str] = deque()
    try:
        try:
            lines = skip_done(read_lines(source), done.rows, name)
        except ValueError as err:
            raise click.ClickException(f"cannot resume: {err}") from err
        if done.rows:
            click.echo(f"resuming: {len(done.rows)} row(s) already graded in {out}", err=True)
        show = sys.stderr.isatty() if progress is None else progress
        _write_rows(sink, name, grade_batch(recording_digests(lines, digests), options=options,
                                            workers=workers, progress=show), digests, done.tally)
    except KeyboardInterrupt:
        again = "rerun with --resume to grade the rest" if out else "use --out to resume later"
        click.echo(f"interrupted: {done.tally.rows} row(s) saved in {name}; {again}", err=True)
        sys.exit(130)
    except (OSError, JsonLineError) as err:
        raise click.ClickException(f"cannot read {source}: {getattr(err, 'strerror', None) or err}"
                                   ) from err
    finally:
        if out:
            with contextlib.suppress(OSError):  # a failed write was reported above
                sink.close()
    return done.tally


@main.command()
@click.argument("gt", required=False, type=click.Path(dir_okay=False))
@click.argument("pred", required=False, type=click.Path(dir_okay=False))
@click.option("--batch", "batch", type=click.Path(dir_okay=False, allow_dash=True),
              help="JSONL of {id, gt, pred, is_placeholder, anchored_objects} (PDDL texts); '-' reads stdin.")
@click.option("--out", type=click.Path(dir_okay=False), help="Batch results JSONL (default stdout).")
@click.option("--resume", is_flag=True,
              help="Batch: keep the rows already in --out and grade the lines after them (rows are "
                   "in input order).")
@click.option("--workers", type=click.IntRange(1), default=None,
              help="Processes (default: CPUs; at most 4 per CPU and 64, started as needed).")
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
@click.option("--domain", "domain_file", type=click.Path(dir_okay=False),
              help="The domain file of a domain that is not built in (see 'planetarium domains'); "
                   "the ground truths' (:domain) must name it.")
@click.option("--placeholder-semantics",
              type=click.Choice([s.value for s in PlaceholderSemantics]),
              default=PlaceholderSemantics.PAPER.value, show_default=True,
              help="paper: init and fully specified goal scenes match separately; "
                   "reachable-goal-states: a renaming maps the sets of reachable goal states.")
@click.option("--explain", is_flag=True,
              help="Say why: the renaming and the facts that differ under it (a checked "
                   "certificate); in a batch, an 'explanation' field per row.")
def grade(gt: str | None, pred: str | None, batch: str | None, out: str | None, resume: bool,
          workers: int | None, progress: bool | None, placeholder: bool, ignore_typing: bool,
          no_solve: bool, timeout: float, as_json: bool, anchors: tuple[str, ...],
          anchor_all: bool, domain_file: str | None, placeholder_semantics: str,
          explain: bool) -> None:
    """Grade PRED against the ground truth GT (or a whole --batch).

    Exit status: 0 every pair got a verdict (a "no" or a timeout is a verdict), 1 bad input
    (unreadable file or ground truth, bad batch lines), 2 usage, 4 internal error.
    """
    if domain_file:
        _register_domain_file(domain_file)
    options = GradeOptions(is_placeholder=placeholder, relax_typing=ignore_typing,
                           check_solvable=not no_solve, timeout_s=timeout,
                           anchored_objects=anchors, anchor_all=anchor_all,
                           placeholder_semantics=PlaceholderSemantics(placeholder_semantics),
                           explain=explain)
    if batch:
        if gt or pred:
            raise click.UsageError("give either GT PRED or --batch, not both")
        tally = _run_batch(batch, out, workers, options, resume, progress)
        click.echo(_summary(tally), err=True)  # every row of the output, resumed ones too
        bad = tally.statuses[Status.INVALID_INPUT]
        if bad:
            click.echo(f"{bad} input line(s) could not be graded (see their 'reason')", err=True)
        sys.exit(exit_code_for(tally.statuses))
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
        if result.explanation is not None:
            from .equivalence.explain import describe

            click.echo(describe(result.explanation))
    sys.exit(exit_code_for([result.status]))


def _register_domain_file(path: str) -> None:
    """Make a domain file gradable by its name in this process (and the batch's workers, which
    are forked from it); a built-in name is refused rather than shadowed."""
    from .domains import Domain, available_domains, register_domain
    from .errors import PlanetariumError

    text = _read_text(path)
    try:
        domain = Domain.from_pddl(text)
    except PlanetariumError as err:
        raise click.ClickException(f"{path}: {err}") from err
    known = available_domains().get(domain.name)
    if known is not None:
        if " ".join(known.pddl.split()) == " ".join(text.split()):
            return
        raise click.ClickException(f"{path}: domain '{domain.name}' is built in (planetarium "
                                   "domains); --domain is for domains that are not")
    register_domain(domain)


def _load_problem(problem_path: str, domain_arg: str | None,
                  relax_typing: bool = False) -> tuple[Domain, Problem]:
    """Read a problem file; the domain is a registered name, a domain file, or its (:domain)."""
    from .domains import Domain, get_domain
    from .errors import PlanetariumError, ResourceLimitError
    from .grading import load_ground_truth

    text = _read_text(problem_path)
    try:
        if domain_arg and Path(domain_arg).is_file():
            domain = Domain.from_pddl(_read_text(domain_arg))
        elif domain_arg:
            domain = get_domain(domain_arg)
        else:
            return load_ground_truth(text, relax_typing=relax_typing)
        return domain, domain.read_problem(text, relax_typing=relax_typing)
    except ResourceLimitError:
        raise  # reading ran out of time: the caller reports a timeout, not bad input
    except PlanetariumError as err:
        raise click.ClickException(f"{problem_path}: {err}") from err


@main.command()
@click.argument("args", nargs=-1, required=True)
@click.option("--timeout", type=SECONDS, default=60.0, show_default=True)
def plan(args: tuple[str, ...], timeout: float) -> None:
    """Print a plan for a problem: plan [DOMAIN] PROBLEM.pddl.

    DOMAIN is a registered domain name or a domain file; by default the problem's (:domain).
    Exit status: 0 a validated plan was printed, 1 no plan exists (or unreadable input),
    3 undecided (the time limit ran out), 4 internal error (a planner bug).
    """
    if len(args) > 2:
        raise click.UsageError("expected [DOMAIN] PROBLEM.pddl")
    domain_arg, problem_path = (None, args[0]) if len(args) == 1 else args
    from .errors import ResourceLimitError
    from .limits import Deadline
    from .planning import SolveStatus, check_solvable
    from .strips.plan_io import format_plan

    deadline = Deadline.start(timeout)  # reading the problem counts against the limit too
    try:
        with deadline.applied():
            domain, problem = _load_problem(problem_path, domain_arg)
    except ResourceLimitError as err:
        click.echo(f"; {SolveStatus.TIMEOUT}: {err}", err=True)
        sys.exit(ExitCode.UNDECIDED)
    result = check_solvable(domain, problem, deadline)
    if result.status is SolveStatus.SOLVABLE and result.plan is not None:
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
def validate(problem_path: str, plan_path: str, domain_arg: str | None) -> None:
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


#: The module holding each kind of plug-in's registry (its ``REGISTRY``), in listing order.
PLUGIN_REGISTRIES = ("planetarium.domains.registry", "planetarium.benchmarks.registry",
                     "planetarium.llm.backends.registry", "planetarium.reward.schemes",
                     "planetarium.viewer.scenes")


@main.command()
def plugins() -> None:
    """List every plug-in (domains, benchmarks, backends, reward schemes, scene drawers): where
    each came from, and the ones that failed to load, with why."""
    import importlib

    for module in PLUGIN_REGISTRIES:
        for entry in importlib.import_module(module).REGISTRY.listing():
            where = entry.source if entry.failure is None else f"FAILED TO LOAD: {entry.failure}"
            click.echo(f"{entry.kind:14s} {entry.name:16s} {where}")


@main.command()
@click.option("--workers", type=click.IntRange(1), default=None)
def demo(workers: int | None) -> None:
    """Grade the built-in sample of model outputs and print the summary."""
    from importlib.resources import files

    from .batch import Tally, grade_batch, read_items

    sample = files("planetarium") / "samples" / "pairs.jsonl"  # joinpath takes one name on 3.10
    click.echo(f"Grading the built-in sample {sample.name} ...", err=True)
    tally = Tally()
    for result in grade_batch(read_items(str(sample)), workers=workers,
                              progress=sys.stderr.isatty()):
        tally.add(result.to_dict())
    click.echo(_summary(tally))


@main.command("serve-scripted")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free one).")
@click.option("--answers", type=click.Path(dir_okay=False), default=None,
              help='JSON Lines of {"prompt_contains": TEXT, "answer": TEXT}: the first line '
                   "whose text the prompt contains answers it (default, and for prompts no line "
                   "matches: the prompt's first 40 characters).")
def serve_scripted(host: str, port: int, answers: str | None) -> None:
    """Serve a scripted OpenAI-compatible chat endpoint (streaming and not) for smoke tests of
    `eval run`'s openai backend, lm-eval, Inspect or vf-eval without a model; Ctrl-C stops."""
    import threading

    from .jsonl import JsonLineError
    from .llm.scripted import ChatServer, answers_from

    try:
        answer = answers_from(answers) if answers else None
    except JsonLineError as err:
        raise click.ClickException(str(err)) from err
    with ChatServer(answer=answer, host=host, port=port) as server:
        click.echo(f"serving a scripted chat endpoint at {server.base_url} (Ctrl-C stops)")
        threading.Event().wait()


if __name__ == "__main__":
    main()
