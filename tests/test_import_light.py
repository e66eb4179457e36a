"""`import planetarium` (and the CLI) must not drag in heavy GPU/ML stacks."""

import subprocess
import sys
from pathlib import Path

HEAVY = ("torch", "vllm", "transformers", "peft", "datasets", "trl")


def _loaded_after(statement: str) -> list[str]:
    code = (f"import sys; {statement}; "
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_import_planetarium_is_light():
    assert _loaded_after("import planetarium") == []


def test_grading_and_cli_are_light():
    assert _loaded_after("import planetarium.grading, planetarium.batch, planetarium.cli") == []


def test_subcommand_modules_are_light():
    assert _loaded_after(
        "import planetarium.dataset.cli, planetarium.llm.cli, planetarium.finetune.cli, "
        "planetarium.viewer.cli, planetarium.viewer.html, planetarium.rl.cli, "
        "planetarium.reward") == []


#: What `planetarium grade GT PRED` of a built-in domain does not need (issue 33: its start-up):
#: the entry-point scan, the explanation machinery (unless --explain), progress bars, YAML.
NOT_AT_START_UP = ("importlib.metadata", "planetarium.equivalence.explain",
                   "planetarium.equivalence.explanation", "tqdm", "yaml")


def _loaded_by_grade(*options: str) -> list[str]:
    code = ("import sys; from planetarium.cli import main; "
            "sys.argv = ['planetarium', 'grade', 'examples/truth.pddl', 'examples/answer.pddl', "
            f"*{list(options)!r}]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            f"print(' '.join(m for m in {NOT_AT_START_UP!r} if m in sys.modules), file=sys.stderr)")
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=root)
    return out.stderr.split()


def test_grading_one_pair_imports_only_what_it_uses():
    assert _loaded_by_grade() == []
    assert "planetarium.equivalence.explain" in _loaded_by_grade("--explain")
