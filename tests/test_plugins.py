"""Domains are plug-ins: a domain defined outside the package is graded without editing core files.

The toy ``switches`` domain lives in tests/toy_domain/.  It is made known once at run time with
``register_domain`` and once the way an installed package would be, through an entry point in
the ``planetarium.domains`` group (a dist-info directory on ``sys.path``, no pip, no network).
The conformance kit is exercised on it and on the built-in floor-tile and rover domains.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from planetarium.domains import (
    Domain,
    available_domains,
    get_domain,
    register_domain,
    unregister_domain,
)
from planetarium.grading import grade
from planetarium.pddl.domain import Atom
from planetarium.pddl.problem import Problem
from planetarium.testing.conformance import check_fully_specify, random_problems

TOY_DIR = Path(__file__).parent / "toy_domain"

GT = """(define (problem p) (:domain switches)
  (:objects s1 s2 - switch l1 l2 - lamp)
  (:init (off s1) (on s2) (wired s1 l1) (wired s2 l2))
  (:goal (and (lit l1))))"""
# The same problem with objects renamed and facts reordered, restating an implied goal fact
# (wires never change).
RENAMED = """(define (problem q) (:domain switches)
  (:objects a b - switch x y - lamp)
  (:init (wired b y) (on a) (wired a x) (off b))
  (:goal (and (wired b y) (lit y))))"""
# Lights the other lamp: a different problem.
OTHER = """(define (problem q) (:domain switches)
  (:objects s1 s2 - switch l1 l2 - lamp)
  (:init (off s1) (on s2) (wired s1 l1) (wired s2 l2))
  (:goal (and (lit l2))))"""


@pytest.fixture
def toy_domain(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.syspath_prepend(str(TOY_DIR))
    from toy_switches import DOMAIN

    register_domain(DOMAIN)
    yield DOMAIN
    unregister_domain(DOMAIN.name)


def test_registered_domain_is_graded(toy_domain: Domain) -> None:
    assert available_domains()["switches"] is toy_domain
    same = grade(GT, RENAMED)
    assert same.correct, same.reason
    other = grade(GT, OTHER)
    assert other.parseable and other.solvable and other.equivalent is False, other.reason


def test_register_refuses_to_shadow(toy_domain: Domain) -> None:
    with pytest.raises(ValueError, match="already registered"):
        register_domain(Domain("switches", toy_domain.pddl))


def test_entry_point_plugin_and_broken_plugin(tmp_path: Path) -> None:
    """An installed plug-in is found through its entry point; a broken one is listed with why."""
    dist = tmp_path / "toy_switches-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-switches\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[planetarium.domains]\nswitches = toy_switches:DOMAIN\n"
        "broken = toy_switches_missing:DOMAIN\n")
    script = textwrap.dedent(f"""
        import json
        from planetarium.domains import available_domains, failed_plugins
        from planetarium.grading import grade
        print(json.dumps({{
            "domains": sorted(available_domains()),
            "failed": failed_plugins(),
            "same": grade({GT!r}, {RENAMED!r}).correct,
            "other": grade({GT!r}, {OTHER!r}).equivalent,
        }}))
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(tmp_path), str(TOY_DIR), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                         timeout=120, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert {"blocksworld", "gripper", "floor-tile", "rover-single", "switches"} <= set(
        result["domains"])
    assert "ModuleNotFoundError" in result["failed"]["broken"]
    assert result["same"] is True
    assert result["other"] is False


class _ForgetfulSwitches(Domain):
    """A plug-in whose fully_specify forgets that switches stay on or off when nothing flips."""

    def fully_specify(self, problem: Problem) -> frozenset[Atom] | None:
        return self.static_facts(problem) | problem.goal


def test_conformance_kit_catches_a_wrong_fully_specify(toy_domain: Domain) -> None:
    problems = random_problems(toy_domain, count=60, seed=3)
    assert check_fully_specify(toy_domain, problems) == []
    wrong = _ForgetfulSwitches("switches", toy_domain.pddl)
    mismatches = check_fully_specify(wrong, problems)
    assert any(m.missing and not m.extra for m in mismatches)


@pytest.mark.parametrize("name", ["floor-tile", "rover-single"])
def test_conformance_kit_on_builtin_domains(name: str) -> None:
    domain = get_domain(name)
    problems = random_problems(domain, count=80, seed=11)
    assert check_fully_specify(domain, problems, max_states=5_000) == []
