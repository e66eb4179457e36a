"""The type check CI runs (``python3 -m mypy`` with pyproject's ``[tool.mypy]``), and the bugs
type-checking the whole package found that no other test pins down.

The check itself is not run here (a cold run takes a minute or more): ``.ci/run`` runs it
before the tests, and this file makes sure that it does, on the whole package, with a
configuration that ignores nothing wholesale.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from planetarium.errors import PDDLSyntaxError
from planetarium.pddl.domain import parse_domain

ROOT = Path(__file__).resolve().parent.parent


def _pyproject() -> dict:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_ci_type_checks_the_whole_package_with_the_checked_in_configuration():
    config = _pyproject()["tool"]["mypy"]
    assert config["files"] == ["planetarium"]
    for flag in ("check_untyped_defs", "disallow_incomplete_defs", "no_implicit_optional",
                 "warn_unused_ignores", "warn_redundant_casts"):
        assert config[flag] is True, flag
    for key in ("ignore_missing_imports", "ignore_errors", "follow_imports"):
        assert key not in config, f"no global {key}"
    steps = (ROOT / ".ci" / "run").read_text().splitlines()
    mypy = steps.index("python3 -m mypy")  # reads the configuration: no arguments
    assert mypy < next(i for i, line in enumerate(steps) if line.startswith("python -m pytest"))


def test_only_named_untyped_modules_are_excused():
    for override in _pyproject()["tool"]["mypy"].get("overrides", []):
        assert set(override) <= {"module", "ignore_missing_imports"}, override
        assert all(not m.startswith("planetarium") for m in override["module"]), override


def test_the_dev_extra_pins_mypy():
    dev = _pyproject()["project"]["optional-dependencies"]["dev"]
    assert any(re.fullmatch(r"mypy==[\d.]+", requirement) for requirement in dev)


def test_every_ignore_comment_in_the_package_names_its_code_and_says_why():
    """``# type: ignore[code]`` only, each with a comment on its line or just above it."""
    for path in sorted((ROOT / "planetarium").rglob("*.py")):
        lines = path.read_text().splitlines()
        for number, line in enumerate(lines, 1):
            if "# type: ignore" not in line:
                continue
            where = f"{path.relative_to(ROOT)}:{number}"
            assert re.search(r"# type: ignore\[[a-z-]+(, *[a-z-]+)*\]", line), where
            before = line.split("# type: ignore")[0]
            after = line.split("]", 1)[-1] if "# type: ignore[" in line else ""
            above = lines[max(0, number - 4):number - 1]
            reason = "#" in before or "#" in after or any(x.lstrip().startswith("#") for x in above)
            assert reason, f"{where}: say why the ignore is needed"


def test_parameters_given_a_symbol_are_a_syntax_error():
    """Found while type-checking: ``:parameters xyz`` was read letter by letter, as the three
    parameters x, y and z."""
    domain = ("(define (domain d) (:requirements :strips) (:predicates (p ?x))\n"
              "(:action a :parameters xyz :precondition (p ?x) :effect (not (p ?x))))")
    with pytest.raises(PDDLSyntaxError, match="':parameters' takes a list, found 'xyz'"):
        parse_domain(domain)
    listed = parse_domain(domain.replace(":parameters xyz", ":parameters (?x)"))
    assert listed.actions["a"].parameters == (("?x", "object"),)
