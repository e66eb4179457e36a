"""`import planetarium` (and the CLI) must not drag in heavy GPU/ML stacks."""

import subprocess
import sys

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
