"""The dataset framework: configuration, generation, explicit texts, splits, writer, loader, CLI.

Runs on data/demo.yaml (every built-in domain, a few hundred rows), so each check here covers
the other domains' task modules as well as Blocks World.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from planetarium.config import ConfigError
from planetarium.dataset import load_rows
from planetarium.dataset.cli import data_group
from planetarium.dataset.config import load_config, parse_config
from planetarium.dataset.generator import COLUMNS, generate, plan_jobs
from planetarium.dataset.problem_text import read_generated, shape_key
from planetarium.dataset.splits import select, size_bin
from planetarium.dataset.writer import write_dataset
from planetarium.domains import get_domain
from planetarium.equivalence import Limits, compare
from planetarium.limits import Deadline
from planetarium.tasks import is_placeholder, same_kind_only


def _limits():
    """A comparison's own deadline: compare has no default limit."""
    return Limits(Deadline.start(10.0))


ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "data" / "demo.yaml"
CONTRACT_COLUMNS = set(COLUMNS) | {"split_random", "split_heldout"}


@pytest.fixture(scope="module")
def demo_rows() -> list[dict]:
    return generate(load_config(DEMO), workers=1)


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory, demo_rows) -> Path:
    out = tmp_path_factory.mktemp("demo")
    return write_dataset(demo_rows, out, load_config(DEMO))


def test_demo_covers_every_domain_in_a_few_hundred_rows(demo_rows):
    domains = Counter(r["domain"] for r in demo_rows)
    assert set(domains) == {"blocksworld", "gripper", "floor-tile", "rover-single"}
    assert 200 <= len(demo_rows) <= 1500
    ids = [r["id"] for r in demo_rows]
    assert ids == sorted(set(ids)) and ids[0] == 1  # candidate numbers: increasing, with gaps
    assert ids[-1] > len(ids)
    assert all(CONTRACT_COLUMNS <= set(r) for r in demo_rows)
    assert not any(key.startswith("_") for r in demo_rows for key in r)


@pytest.mark.parametrize("path", sorted(set((ROOT / "data").glob("*.yaml")) - {ROOT / "data" / "full.yaml"}),
                         ids=lambda p: p.name)
def test_every_shipped_config_loads_and_plans_combinations(path):
    """(data/full.yaml: test_dataset_published.py)"""
    config = load_config(path)
    for domain in config.domains:
        jobs = plan_jobs(domain)
        assert jobs, f"{path.name}: {domain.name} plans no combination"


def test_a_text_names_one_problem_and_rows_follow_the_abstractness_rules(demo_rows):
    """Texts repeat only where the published texts differed by a parameter alone (Blocks World
    equal_towers from [1, 2] and from [3]): the same problem, so the same text."""
    by_text: dict[str, list[dict]] = {}
    for row in demo_rows:
        by_text.setdefault(row["natural_language"], []).append(row)
    for rows in by_text.values():
        assert all(_same_problem(r["domain"], rows[0]["problem_pddl"], r["problem_pddl"]) for r in rows)
    for row in demo_rows:
        if not row["init_is_abstract"] and not row["goal_is_abstract"]:
            assert not row["is_placeholder"], row["name"]
    placeholders = {(r["domain"], r["init"], r["goal"]) for r in demo_rows if r["is_placeholder"]}
    assert placeholders, "abstract rows of ordinary combinations are placeholder rows"


def _without(text: str, sentence: str) -> str:
    """``text`` with one whole-sentence occurrence of ``sentence`` removed (or unchanged)."""
    padded = f" {text} "
    at = padded.find(f" {sentence} ")
    if at < 0:
        return text
    return (padded[:at] + padded[at + len(sentence) + 1:]).strip()


def test_explicit_texts_state_every_atom_one_sentence_each(demo_rows):
    """Each explicit part is its intro plus exactly one sentence per ground-truth atom."""
    from planetarium.dataset.generator import domain_tasks
    from planetarium.domains import get_domain
    from planetarium.pddl import read_problem

    checked = 0
    for row in demo_rows:
        if row["init_is_abstract"] and row["goal_is_abstract"]:
            continue
        tasks = domain_tasks(row["domain"])
        problem = read_problem(row["problem_pddl"], get_domain(row["domain"]).definition)
        init_text, goal_text = row["natural_language"].split("\n")
        for atoms, text, is_init, explicit in (
                (problem.init, init_text, True, not row["init_is_abstract"]),
                (problem.goal, goal_text, False, not row["goal_is_abstract"])):
            if not explicit:
                continue
            rest = text
            for atom in atoms:
                sentence = tasks.explicit.sentence(atom, is_init)
                shorter = _without(rest, sentence)
                assert shorter != rest, f"{row['name']}: no sentence for {atom} in {text!r}"
                rest = shorter
            intro = (tasks.explicit.intro(problem.objects, None) if is_init
                     else tasks.explicit.goal_intro)
            if is_init and tasks.typed:
                intro = tasks.explicit.intro(problem.objects, problem.object_types)
            assert rest == intro, f"{row['name']}: text states more than its atoms: {rest!r}"
            checked += 1
    assert checked > 300


def test_sampled_ground_truths_grade_correct_against_themselves(demo_rows):
    from planetarium.grading import grade

    by_combo: dict[tuple, list[dict]] = {}
    for row in demo_rows:
        by_combo.setdefault((row["domain"], row["init"], row["goal"], row["is_placeholder"]), []).append(row)
    rng = random.Random(0)
    for rows in by_combo.values():
        row = rng.choice(rows)
        result = grade(row["problem_pddl"], row["problem_pddl"], is_placeholder=row["is_placeholder"])
        assert result.correct, (row["name"], result)


def test_same_kind_only_combinations_get_two_identity_classes(demo_rows):
    from planetarium.dataset.generator import domain_tasks

    for row in demo_rows:
        tasks = domain_tasks(row["domain"])
        init, goal = tasks.layout_by_name[row["init"]], tasks.layout_by_name[row["goal"]]
        if same_kind_only(init, goal):
            assert row["init_is_abstract"] == row["goal_is_abstract"]
        assert row["is_placeholder"] == is_placeholder(init, goal, row["init_is_abstract"],
                                                       row["goal_is_abstract"])


def _same_problem(domain: str, a: str, b: str) -> bool:
    return compare(read_generated(a), read_generated(b), get_domain(domain), limits=_limits(),
                   is_placeholder=False).equivalent


def test_splits_are_round_robin_and_heldout_by_combination(demo_rows):
    """Random folds: one generator for the dataset, domain by domain in name order (the
    published rule).  Held-out: by combination; outside it, a row whose problem is a test
    problem up to renaming (checked pairwise here) is excluded."""
    config = load_config(DEMO)
    rng = random.Random(config.seed)
    for name in sorted({r["domain"] for r in demo_rows}):
        rows = [r for r in demo_rows if r["domain"] == name]
        ids = sorted(r["id"] for r in rows)
        rng.shuffle(ids)
        assert {r["id"]: r["random_fold"] for r in rows} == {i: k % config.folds for k, i in enumerate(ids)}
        for row in rows:
            assert row["split_random"] == ("test" if row["random_fold"] == config.test_fold else "train")
    for domain in config.domains:
        rows = [r for r in demo_rows if r["domain"] == domain.name]
        test = {r["problem_pddl"] for r in rows if r["split_heldout"] == "test"}
        for row in rows:
            held = any(rule.matches(row["init"], row["goal"]) for rule in domain.heldout)
            leaks = not held and any(_same_problem(domain.name, t, row["problem_pddl"]) for t in test)
            assert row["split_heldout"] == ("test" if held else "excluded" if leaks else "train")
    assert all(r["split_heldout"] == "test" for r in demo_rows if r["domain"] == "floor-tile")
    bw_test = {(r["init"], r["goal"]) for r in demo_rows
               if r["domain"] == "blocksworld" and r["split_heldout"] == "test"}
    assert bw_test == {("invert", "invert"), ("swap", "swap")}
    assert select(demo_rows, "heldout:excluded")


def test_heldout_train_never_contains_a_test_problem():
    """Inverting one block changes nothing (invert [1] is tower -> tower [1]), and a stack of two
    blocks numbered from the bottom made a tower numbered from the top is inverting it."""
    config = parse_config({"domains": [{
        "name": "blocksworld",
        "layouts": {"stack": {"params": [[2]]}, "tower": {"params": [[1], [1, 2]]},
                    "invert": {"params": [[1], [2], [1, 2]]}},
        "heldout": [{"init": "invert", "goal": "invert"}]}]})
    rows = generate(config, workers=1)
    split = {r["name"]: r["split_heldout"] for r in rows}  # one split per problem here
    assert split["blocksworld_stack_to_tower_2"] == "excluded"
    assert split["blocksworld_tower_to_tower_1"] == "excluded"
    assert split["blocksworld_tower_to_stack_1"] == "excluded"
    assert split["blocksworld_tower_to_tower_1_2"] == "train"
    assert split["blocksworld_stack_to_stack_2"] == "train"
    test = [r["problem_pddl"] for r in rows if r["split_heldout"] == "test"]
    for row in rows:
        if row["split_heldout"] != "test":
            leaks = any(_same_problem("blocksworld", t, row["problem_pddl"]) for t in test)
            assert leaks == (row["split_heldout"] == "excluded"), row["name"]
    assert select(rows, "heldout:excluded") == [r for r in rows if r["split_heldout"] == "excluded"]


def test_select_understands_every_selector(demo_rows):
    assert select(demo_rows, None) == demo_rows
    test = select(demo_rows, "heldout:test")
    assert test and all(r["split_heldout"] == "test" for r in test)
    assert len(select(demo_rows, "random:train")) + len(select(demo_rows, "random:test")) == len(demo_rows)
    assert select(demo_rows, "random:4") == select(demo_rows, "random:test")
    both = select(demo_rows, "heldout:test+domain:gripper")
    assert both and all(r["domain"] == "gripper" for r in both)
    assert all(r["is_placeholder"] for r in select(demo_rows, "placeholder:true"))
    assert all(r["init_is_abstract"] and not r["goal_is_abstract"]
               for r in select(demo_rows, "abstraction:abstract_to_explicit"))
    with pytest.raises(ValueError, match="unknown split"):
        select(demo_rows, "heldout:dev")


def test_generation_is_byte_identical(tmp_path, demo_dir, demo_rows):
    again = write_dataset(generate(load_config(DEMO), workers=2), tmp_path / "again", load_config(DEMO))
    files = sorted(p.relative_to(demo_dir) for p in demo_dir.rglob("*") if p.is_file())
    assert {"rows.jsonl", "README.md", "config.yaml", "data/test-00000-of-00001.parquet"} <= {
        str(f) for f in files}
    nonempty_sizes = len({size_bin(r) for r in demo_rows})
    assert len(files) == 4 + 2 + 5 + 4 + 2 + nonempty_sizes  # rows, card, config, marker; default, ...
    for name in files:
        assert (demo_dir / name).read_bytes() == (again / name).read_bytes(), name


def test_load_rows_reads_a_directory_a_jsonl_and_a_config(demo_dir, demo_rows):
    from_dir = load_rows(demo_dir)
    assert from_dir == load_rows(demo_dir / "rows.jsonl")
    assert [r["natural_language"] for r in from_dir] == [r["natural_language"] for r in demo_rows]
    assert load_rows(demo_dir, "heldout:test") == [r for r in from_dir if r["split_heldout"] == "test"]
    assert len(load_rows(DEMO, "random:train")) == len(select(demo_rows, "random:train"))


def test_every_configuration_loads_with_datasets_offline(demo_dir, demo_rows, monkeypatch):
    """The default configuration is the held-out split; the others partition every row."""
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    datasets = pytest.importorskip("datasets")
    cache = str(demo_dir.parent / "hf-cache")
    loaded = datasets.load_dataset(str(demo_dir), cache_dir=cache)
    assert loaded["test"].num_rows == len(select(demo_rows, "heldout:test"))
    assert loaded["train"].num_rows == len(select(demo_rows, "heldout:train"))
    first = loaded["train"][0]
    assert CONTRACT_COLUMNS <= set(first)
    assert first["problem_pddl"] == select(demo_rows, "heldout:train")[0]["problem_pddl"]
    expected = {
        "random": {"zero": "random:0", "four": "random:4"},
        "abstraction": {c: f"abstraction:{c}" for c in ("explicit_to_explicit", "abstract_to_abstract")},
        "placeholder": {"placeholder": "placeholder:true", "non.placeholder": "placeholder:false"},
    }
    for name, splits in expected.items():
        config = datasets.load_dataset(str(demo_dir), name, cache_dir=cache)
        assert sum(config[split].num_rows for split in config) == len(demo_rows), name
        for split, selector in splits.items():
            assert config[split]["id"] == [r["id"] for r in select(demo_rows, selector)], (name, split)
    sizes = datasets.load_dataset(str(demo_dir), "size", cache_dir=cache)
    assert list(sizes) == ["zero.twenty", "twenty.forty"]  # the demo has no larger problems
    assert sum(sizes[s].num_rows for s in sizes) == len(demo_rows)
    assert all(r["init_num_propositions"] + r["goal_num_propositions"] <= 20 for r in sizes["zero.twenty"])


def test_cli_generate_report_and_check(tmp_path):
    runner = CliRunner()
    out = tmp_path / "out"
    result = runner.invoke(data_group, ["generate", "--config", str(DEMO), "--out", str(out),
                                        "--no-progress", "--workers", "1"])
    assert result.exit_code == 0, result.output
    report = runner.invoke(data_group, ["report", str(out)])
    assert report.exit_code == 0 and "| blocksworld |" in report.output
    assert "| gripper | swap -> swap |" in report.output  # the per-combination comparison
    strict = runner.invoke(data_group, ["report", str(out), "--strict"])
    assert strict.exit_code == 1 and "cell(s) differ from the published dataset" in strict.output
    check = runner.invoke(data_group, ["check", str(out), "--split", "domain:gripper",
                                       "--no-progress", "--workers", "1"])
    assert check.exit_code == 0, check.output


def test_cli_check_fails_loudly_on_a_broken_row(tmp_path, demo_rows):
    from planetarium.dataset.writer import write_jsonl

    broken = [dict(r) for r in demo_rows[:3]]
    broken[1]["problem_pddl"] = broken[1]["problem_pddl"].replace("(:goal (and", "(:goal (and (on b1 b1)", 1)
    broken[2]["problem_pddl"] = "(define (problem x"
    write_jsonl(broken, tmp_path / "rows.jsonl")
    result = CliRunner().invoke(data_group, ["check", str(tmp_path), "--no-progress", "--workers", "1"])
    assert result.exit_code == 1
    assert "2 of 3 rows failed" in result.output


def test_config_errors_are_loud(tmp_path):
    with pytest.raises(ConfigError, match="unknown key"):
        parse_config({"domains": [{"name": "blocksworld", "layout": {}}]})
    with pytest.raises(ConfigError, match="either params or space"):
        parse_config({"domains": [{"name": "blocksworld",
                                   "layouts": {"stack": {"params": [[1]], "space": {"max_blocks": 2}}}}]})
    with pytest.raises(ConfigError, match="unknown layout"):
        generate(parse_config({"domains": [{"name": "blocksworld", "layouts": {"stak": {}}}]}))
    with pytest.raises(ConfigError, match="unknown layout"):
        generate(parse_config({"domains": [{"name": "blocksworld", "heldout": [{"goal": "nope"}]}]}))
    bad = tmp_path / "bad.yaml"
    bad.write_text("domains: [", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(bad)


def test_shape_key_reads_types_and_predicates():
    typed = ("(define (problem p) (:domain d)\n  (:objects r1 - robot t1 t2 - tile)\n"
             "  (:init\n    (robot-at r1 t1))\n  (:goal (and\n      (painted t1 c1)))\n)")
    types, init, goal = shape_key(typed)[0], shape_key(typed)[1], shape_key(typed)[2]
    assert dict(types)["tile"] == 2 and dict(types)["robot"] == 1
    assert init == [("robot-at", 1)] and ("painted", 1) in goal


def test_importing_the_package_and_cli_stays_light():
    code = ("import sys, planetarium.dataset, planetarium.dataset.cli, planetarium.tasks\n"
            "heavy = {'datasets', 'pyarrow', 'torch', 'transformers'} & set(sys.modules)\n"
            "assert not heavy, heavy\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_english_helpers():
    from planetarium.tasks.text import join_words, name_list, ordinal, plural

    assert plural(1, "robot") == "1 robot" and plural(2, "robot") == "2 robots"
    assert plural(3, "box", "boxes") == "3 boxes"
    assert join_words(["a"]) == "a" and join_words(["a", "b", "c"]) == "a, b and c"
    assert [ordinal(n) for n in (1, 12, 20, 21, 40, 113)] == [
        "first", "twelfth", "twentieth", "twenty-first", "fortieth", "113th"]
    assert name_list(["b3", "b4", "b5", "b6"]) == "b3 to b6"
    assert name_list(["b1", "b2", "b4", "b5"]) == "b1, b2, b4 and b5"


def test_an_ambiguous_text_stops_generation():
    """Two problems of different shapes behind one text would make the text ambiguous."""
    from planetarium.dataset.generator import GenerationError
    from planetarium.domains import get_domain, register_domain, unregister_domain
    from planetarium.domains.base import Domain
    from planetarium.tasks import DomainTasks, ExplicitTemplates, Layout

    explicit = ExplicitTemplates(intro=lambda objects, types: "",
                                 sentences={"on-table": ("{0} is on the table.", "{0} on table.")})

    def build(init, goal, n):
        blocks = [f"b{i}" for i in range(1, n + 1)]
        atoms = [("on-table", b) for b in blocks]
        return explicit.instance(objects=blocks, init=atoms, goal=atoms,
                                 init_abstract="Some blocks.", goal_abstract="Leave them.")

    class Toy(Domain):
        def dataset_tasks(self):
            return DomainTasks("toy-bw", (Layout("flat", "both", space=lambda: [1, 2]),), build, explicit)

    register_domain(Toy("toy-bw", get_domain("blocksworld").pddl.replace("blocksworld", "toy-bw", 1)))
    try:
        with pytest.raises(GenerationError, match="share one text"):
            generate(parse_config({"domains": [{"name": "toy-bw"}]}), workers=1)
    finally:
        unregister_domain("toy-bw")
