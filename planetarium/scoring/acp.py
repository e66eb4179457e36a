"""``planetarium acp score``: ACPBench responses graded by the acpbench benchmark, one row per
question (:func:`planetarium.acp.score.answer_row`), a table per kind and task."""

from __future__ import annotations

from typing import Literal

import click

from ..acp.cli import TASKS, budget_options, fail, need_lark
from ..cliutil import RESUME, refuse_overwriting_inputs
from ..errors import PlanetariumError
from .run import ANSWERED_ONLY, Grading, ScoreFile, answered_only_line, score_to_file


@click.command("score")
@click.argument("data", type=click.Path(exists=True))
@click.option("--responses", "responses_path", required=True, type=click.Path(exists=True),
              help='JSONL: {"id", "response"[, "task", "kind"]} per line.')
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False))
@click.option("--semantics", type=click.Choice(["paper", "published"]), default="paper",
              show_default=True,
              help="paper: the ACPBench Hard paper's definitions; published: the published "
                   "evaluator's lookups in the stored examples for reach, areach and land.")
@click.option("--just-rule", type=click.Choice(["subsequence", "one-or-two-consecutive"]),
              default="subsequence", show_default=True,
              help="just: any proper in-order subsequence of the plan that is still a plan (the "
                   "paper's evaluation), or only one action / two consecutive ones removed.")
@click.option("--task", "tasks", multiple=True, type=click.Choice(TASKS),
              help="Only these tasks (repeatable): the benchmark.tasks of an acpbench eval run.")
@click.option("--kind", "kinds", multiple=True, type=click.Choice(["gen", "bool", "mcq"]),
              help="Only these question kinds (repeatable), as benchmark.kinds.")
@click.option("--limit", type=click.IntRange(0), help="Only the first N selected questions, "
              "as benchmark.limit.")
@ANSWERED_ONLY
@click.option("--progress/--no-progress", default=True, show_default=True)
@RESUME
@budget_options
def score_command(data: str, responses_path: str, out_path: str,
                  semantics: Literal["paper", "published"],
                  just_rule: Literal["subsequence", "one-or-two-consecutive"],
                  tasks: tuple[str, ...], kinds: tuple[str, ...],
                  limit: int | None, answered_only: bool, progress: bool, resume: bool,
                  max_states: int, seconds: float, workers: int) -> None:
    """Grade RESPONSES against the questions in DATA (a file or a folder of them).

    Only the questions selected by --task/--kind/--limit are graded (all by default); a
    selected question without a response scores 0 as 'missing' (--answered-only: it is left
    out).  A responses file that answers one question twice is refused.  --resume goes on
    after the rows a killed run wrote; a second command writing the same --out is refused.
    """
    from ..acp import grades
    from ..acp.data import load_items, select_items
    from ..acp.grades import Grade
    from ..acp.report import format_table, summarize
    from ..acp.score import ROW_KEYS, answer_row, match_responses, read_responses
    from ..benchmarks import ItemResult, Row
    from ..benchmarks.acpbench import BENCHMARK, AcpConfig, item_row

    need_lark()
    refuse_overwriting_inputs(out_path, [data, responses_path])
    try:
        questions = select_items(load_items(data), tasks, kinds, limit)
        responses = match_responses(questions, read_responses(responses_path), responses_path)
        selected = len(questions)
        if answered_only:
            questions = [q for q in questions if (q.kind, q.task, q.id) in responses]
        items = [item_row(question) for question in questions]
        by_id = {item["id"]: question for item, question in zip(items, questions, strict=True)}
        answers = {f"{kind}/{task}/{qid}": text for (kind, task, qid), text in responses.items()}

        def graded(item: Row, result: ItemResult) -> dict:
            grade = Grade(result.status, result.correct, result.reason,
                          parseable=result.metrics.get("parseable"),
                          bad_question=result.details.get("acp_outcome") == "bad-question")
            row = answer_row(by_id[item["id"]], grade, 0.0)
            return {**row, "seconds": result.details.get("seconds")}

        form = ScoreFile("acp score", graded,
                         lambda item: answer_row(by_id[item["id"]], grades.missing(), 0.0),
                         item_key=lambda item: item["id"],
                         row_key=lambda row: f"{row.get('kind')}/{row.get('task')}/{row.get('id')}",
                         row_keys=ROW_KEYS)
        config = AcpConfig(name=BENCHMARK.name, dataset=data, split=(None,), semantics=semantics,
                           just_rule=just_rule, max_states=max_states, timeout_s=seconds)
        rows = score_to_file(Grading(BENCHMARK, config, workers, progress), items, answers,
                             form, out_path, resume=resume)
    except (PlanetariumError, OSError, ValueError) as err:
        fail(err)
    if answered_only:
        click.echo(answered_only_line(len(items), selected))
    click.echo(format_table(summarize(rows)))
    missing = sum(r["answered"] is False for r in rows)
    if missing:
        click.echo(f"{missing} of {len(rows)} questions have no response and score 0 "
                   "('missing'); if the responses answered a selection (--task/--kind/--limit), "
                   "give 'acp score' the same options, or --answered-only")
    timed = [r for r in rows if r["seconds"] is not None]
    slowest = max(timed, key=lambda r: r["seconds"], default=None)
    if slowest:
        click.echo(f"slowest: {slowest['kind']}/{slowest['task']} {slowest['id']} "
                   f"{slowest['seconds']:.2f}s")
