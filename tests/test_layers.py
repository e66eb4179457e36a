"""The import contracts (pyproject ``[tool.importlinter]``) hold: layers, no test kit in production,
no import cycle; each would catch a back-edge.

CI runs ``lint-imports`` on the package itself; these tests run it on a copy of the package so
that a deliberately added upward import can be shown to break it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _lint(tree: Path) -> subprocess.CompletedProcess:
    """Run import-linter over the package copy in ``tree`` with the project's contracts (a dev
    dependency: skipped per test, not per module, so environments that deselect these tests,
    like the vLLM one, collect no skip)."""
    pytest.importorskip("importlinter")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    code = ("import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, no_logo=True))")
    return subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def package_copy(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "planetarium", tmp_path / "planetarium",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_package_keeps_its_layers(package_copy: Path):
    result = _lint(package_copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize("module, back_edge, contract", [
    # a domain reaching up into the dataset package (the cycle this contract removed)
    ("domains/base.py", "from ..dataset import load_rows", "Layers only point down"),
    # even a lazy import inside a function counts
    ("strips/search.py", "def _late():\n    from ..grading import grade\n", "Layers only point down"),
    # production code leaning on the test kit
    ("domains/blocksworld/specify.py", "from ...testing import bruteforce",
     "Production code never imports the test kit"),
    # the eval config and the backends registry importing each other (the cycle broken by
    # moving the model options to llm/options.py), even lazily
    ("llm/backends/registry.py", "def _late():\n    from ..config import EvalConfig\n",
     "No import cycles"),
    # two files of one package round a loop
    ("viewer/markup.py", "def _late():\n    from .html import page\n", "No import cycles"),
])
def test_a_back_edge_breaks_the_contract(package_copy: Path, module, back_edge, contract):
    path = package_copy / "planetarium" / module
    path.write_text(path.read_text() + "\n" + back_edge + "\n")
    result = _lint(package_copy)
    assert result.returncode != 0
    assert f"{contract} BROKEN" in result.stdout, result.stdout
