"""Ground truths read once (issues 33.2 and 28.8): the process's memo of prepared truths.

Reads are counted where they happen: the memo's reading function is wrapped to append a line
(the process id) to a file, which forked workers inherit, so a test sees the reads of every
worker.  The claim that relaxed typing needs no second read is checked against the reader
itself on every built-in domain.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
import yaml
from llm_fixtures import demo_rows, known_answers, make_answered_run

import planetarium.grading.truths as truths
from planetarium.batch import grade_batch, grade_item
from planetarium.domains import get_domain, register_domain, unregister_domain
from planetarium.domains.base import Domain
from planetarium.grading import TRUTHS, GradeOptions, TruthCache, grade, load_ground_truth
from planetarium.llm.grade import grade_run
from planetarium.pddl.writer import problem_to_pddl
from planetarium.testing.generators import DOMAINS, dataset_problem

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def reads(tmp_path, monkeypatch) -> Path:
    """A file that gets one line, the reading process's id and the text's hash, per read."""
    log = tmp_path / "reads.log"
    real = truths._read

    def counted(gt, relax_typing, domain=None):
        with open(log, "a") as handle:
            handle.write(f"{os.getpid()} {hash(gt)} {relax_typing}\n")
        return real(gt, relax_typing, domain)

    monkeypatch.setattr(truths, "_read", counted)
    log.touch()
    return log


def _lines(log: Path) -> list[tuple[str, str, str]]:
    return [tuple(line.split()) for line in log.read_text().splitlines()]


def _truth_texts() -> list[str]:
    """Ground truths and answers of the conformance corpus, and dataset-shaped problems of
    every built-in domain (typed ones written with their types), a few with quantified goals."""
    texts = []
    for path in sorted((ROOT / "equivalence").glob("*.yaml")):
        for case in yaml.safe_load(path.read_text())["cases"]:
            texts += [case["gt"], case["pred"]]
    rng = random.Random(7)
    for domain in DOMAINS:
        typed = get_domain(domain).definition.typed
        for size in (2, 4, 7):
            texts.append(problem_to_pddl(dataset_problem(domain, rng, size), typed=typed))
    tiles = problem_to_pddl(dataset_problem("floor-tile", rng, 4), typed=True)
    start = tiles.index("(:goal")
    texts.append(tiles[:start] + "(:goal (forall (?t - tile) (exists (?c - color) "
                                 "(painted ?t ?c)))))\n")
    return texts


def test_relaxed_typing_reads_as_the_strict_read_says():
    """The reader claim the memo relies on: a text read with types checked reads, with typing
    relaxed, as the same problem (untyped domains) or as it with every type ``object``."""
    checked = typed = quantified = 0
    for text in _truth_texts():
        try:
            domain, strict = load_ground_truth(text)
        except Exception:  # noqa: BLE001 - only texts the strict reader accepts make the claim
            continue
        _, relaxed = load_ground_truth(text, relax_typing=True)
        if domain.definition.typed:
            assert relaxed == truths.relaxed_typing(strict), text
            assert relaxed != strict or set(strict.object_types) <= {"object"}
            typed += 1
        else:
            assert relaxed == strict, text
        quantified += strict.goal_formula is not None and domain.definition.typed
        checked += 1
    assert checked >= 100 and typed >= 20 and quantified >= 1, (checked, typed, quantified)


def test_the_memo_counts_hits_and_misses_and_keeps_what_is_read(reads):
    cache = TruthCache()
    gt = problem_to_pddl(dataset_problem("blocksworld", random.Random(1), 3))
    first, hit = cache.get(gt)
    again, hit_again = cache.get(gt)
    assert (hit, hit_again) == (False, True) and again is first
    relaxed, hit_relaxed = cache.get(gt, relax_typing=True)  # untyped: the strict read serves
    assert hit_relaxed and relaxed is first
    assert (cache.hits, cache.misses, len(_lines(reads))) == (2, 1, 1)


def test_a_typed_truth_is_relaxed_without_a_second_read(reads):
    cache = TruthCache()
    gt = problem_to_pddl(dataset_problem("rover-single", random.Random(2), 4), typed=True)
    strict, _ = cache.get(gt)
    relaxed, hit = cache.get(gt, relax_typing=True)
    assert hit and relaxed.relax_typing and relaxed.problem == load_ground_truth(
        gt, relax_typing=True)[1]
    assert set(relaxed.problem.object_types) == {"object"} != set(strict.problem.object_types)
    assert len(_lines(reads)) == 1


def test_the_memo_is_bounded_least_recently_used_first(reads):
    cache = TruthCache(entries=2)
    texts = [problem_to_pddl(dataset_problem("gripper", random.Random(i), 2)) for i in range(3)]
    for text in (texts[0], texts[1], texts[0], texts[2], texts[0], texts[1]):
        cache.get(text)
    # texts[1] was the least recently used when texts[2] came, so it is read twice
    assert len(cache) == 2 and cache.misses == 4 and cache.hits == 2
    small = TruthCache(chars=10)
    small.get(texts[0])
    assert len(small) == 0  # a text over the character bound is read, never kept


def test_a_replaced_domain_plugin_makes_its_truths_stale():
    pddl = get_domain("blocksworld").pddl.replace("(domain blocksworld)", "(domain toy-stale)")
    gt = problem_to_pddl(dataset_problem("blocksworld", random.Random(3), 2)).replace(
        "(:domain blocksworld)", "(:domain toy-stale)")
    register_domain(Domain("toy-stale", pddl))
    try:
        first, _ = TRUTHS.get(gt)
        register_domain(Domain("toy-stale", pddl), replace=True)
        second, hit = TRUTHS.get(gt)
        assert not hit and second.domain is get_domain("toy-stale") is not first.domain
    finally:
        unregister_domain("toy-stale")


def test_a_truth_of_an_unknown_domain_is_read_again_once_the_domain_is_added():
    pddl = get_domain("gripper").pddl.replace("(domain gripper)", "(domain toy-late)")
    gt = problem_to_pddl(dataset_problem("gripper", random.Random(6), 2)).replace(
        "(:domain gripper)", "(:domain toy-late)")
    item = {"gt": gt, "pred": gt}
    assert "unknown domain 'toy-late'" in grade_item(item, GradeOptions()).reason
    register_domain(Domain("toy-late", pddl))
    try:
        assert grade_item(item, GradeOptions()).correct
    finally:
        unregister_domain("toy-late")


def test_batch_items_use_the_memo_and_a_single_grade_keeps_nothing(reads):
    gt = problem_to_pddl(dataset_problem("blocksworld", random.Random(4), 3))
    assert grade(gt, gt).correct and len(TRUTHS) == 0  # read, not kept
    for _ in range(3):
        assert grade_item({"gt": gt, "pred": gt}, GradeOptions()).correct
        assert grade_item({"gt": gt, "pred": gt}, GradeOptions(relax_typing=True)).correct
    assert len(_lines(reads)) == 2 and len(TRUTHS) == 2  # the single grade, then the batch's


def _typed_row(index: int, domain: str) -> dict:
    problem = dataset_problem(domain, random.Random(index), 3)
    row = demo_rows(1)[0]
    return {**row, "id": f"{domain}-{index}", "domain": domain,
            "problem_pddl": problem_to_pddl(problem, typed=True),
            "natural_language": f"objects {' '.join(problem.objects)}"}


def test_eval_grade_reads_each_ground_truth_once(tmp_path, reads):
    rows = demo_rows(8) + [_typed_row(1, "floor-tile"), _typed_row(2, "rover-single")]
    rows += [{**row, "id": f"{row['id']}-again"} for row in rows[:4]]  # the same truths again
    make_answered_run(tmp_path, "reads", rows, known_answers(rows))
    results = grade_run(tmp_path, workers=1, progress=False)
    assert results["overall"]["n"] == len(rows)
    lines = _lines(reads)
    assert len({pid for pid, _, _ in lines}) == 1  # one worker
    assert sorted(h for _, h, _ in lines) == sorted({str(hash(r["problem_pddl"])) for r in rows})
    assert {relax for _, _, relax in lines} == {"False"}


def test_grade_batch_reads_each_ground_truth_once_per_worker(reads):
    rng = random.Random(5)
    gts = [problem_to_pddl(dataset_problem("gripper", rng, n)) for n in (2, 3, 4)]
    items = [{"id": i, "gt": gts[i % 3], "pred": gts[i % 3]} for i in range(60)]
    results = list(grade_batch(items, options=GradeOptions(check_solvable=False), workers=2,
                               progress=False))
    assert all(r.equivalent for r in results)
    lines = _lines(reads)
    per_worker = [(pid, h) for pid, h, _ in lines]
    assert len(per_worker) == len(set(per_worker)), "a worker read a truth twice"
    assert {h for _, h in per_worker} == {str(hash(gt)) for gt in gts}
    assert len(lines) <= 2 * len(gts)


def test_a_resumed_eval_grade_gives_the_same_verdicts(tmp_path):
    rows = demo_rows(6)
    make_answered_run(tmp_path, "resume", rows, known_answers(rows))
    whole = grade_run(tmp_path, workers=1, progress=False)
    lines = (tmp_path / "verdicts.jsonl").read_text().splitlines(keepends=True)
    # a grading killed after two verdicts and half of a third
    (tmp_path / "verdicts.jsonl").write_text("".join(lines[:2]) + lines[2][: len(lines[2]) // 2])
    (tmp_path / "results.json").unlink()
    resumed = grade_run(tmp_path, workers=1, progress=False, resume=True)
    assert (tmp_path / "verdicts.jsonl").read_text().splitlines(keepends=True) == lines
    assert resumed["overall"] == whole["overall"] and resumed["summary"] == whole["summary"]


def test_resuming_the_verdicts_of_other_answers_is_refused(tmp_path):
    from planetarium.llm.store import RunDirError

    rows = demo_rows(4)
    make_answered_run(tmp_path, "other", rows, known_answers(rows))
    (tmp_path / "verdicts.jsonl").write_text(json.dumps({"id": "x", "status": "decided"}) + "\n")
    with pytest.raises(RunDirError, match="cannot resume: .*line 1 answers 'x', not item 1"):
        grade_run(tmp_path, workers=1, progress=False, resume=True)
