"""Domains are plug-ins: a domain defined outside the package is graded without editing core files.

The toy ``switches`` domain lives in the outside package examples/plugin/.  It is made known
once at run time with ``register_domain`` and once the way an installed package would be,
through an entry point in the ``planetarium.domains`` group (a dist-info directory on
``sys.path``, no pip, no network).  The conformance kit is exercised on it — against a
hand-written closed form, since comparing the inherited enumeration with the kit's would compare
a function with itself — and on the built-in floor-tile and rover domains.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from dataclasses import replace
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
from planetarium.testing.conformance import check_fully_specify, random_problems, small_problem
from planetarium.testing.generators import problem_of, random_atoms

TOY_DIR = Path(__file__).resolve().parents[1] / "examples" / "plugin"  # its outside package

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
    from planetarium_example.switches import DOMAIN

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
        "[planetarium.domains]\nswitches = planetarium_example.switches:DOMAIN\n"
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


SWITCHES_STATIC = {("wired", "s1", "l1"), ("wired", "s2", "l2")}
# (init, goal, every fact true in all reachable goal states; None = no goal state), worked out
# by hand: from a well-formed init (each switch on or off) a switch can be flipped at will and a
# lamp wired to a switch lit at any time, lit lamps stay lit; a switch neither on nor off never
# moves.
HAND_CASES = [
    ("(off s1) (on s2)", "(lit l1)", SWITCHES_STATIC | {("lit", "l1")}),
    ("(off s1) (on s2)", "(on s1) (off s2)", SWITCHES_STATIC | {("on", "s1"), ("off", "s2")}),
    ("(off s1) (on s2) (lit l2)", "(lit l1) (off s1)",
     SWITCHES_STATIC | {("lit", "l1"), ("lit", "l2"), ("off", "s1")}),
    ("(off s1) (on s2)", "(on s1) (off s1)", None),
    ("(off s1) (on s2)", "(wired s1 l2)", None),
    # s1 is stuck (neither on nor off): l1 can never be lit, s2 still moves
    ("(on s2)", "(lit l2)", SWITCHES_STATIC | {("lit", "l2")}),
    ("(on s2)", "(lit l1)", None),
    # s1 both on and off: flipping either way leaves one of them, so neither is forced
    ("(on s1) (off s1) (on s2)", "(lit l1)", SWITCHES_STATIC | {("lit", "l1")}),
]


def _switches_problem(init: str, goal: str) -> Problem:
    return small_problem(get_domain("switches"), "s1 s2 - switch l1 l2 - lamp",
                         "(wired s1 l1) (wired s2 l2) " + init, goal)


@pytest.mark.parametrize("init, goal, expected", HAND_CASES)
@pytest.mark.usefixtures("item_deadline")
def test_inherited_brute_force_matches_hand_worked_cases(toy_domain: Domain, init: str, goal: str,
                                                         expected: set[Atom] | None) -> None:
    """The toy domain's fully_specify is the inherited generic method: checked against facts
    worked out by hand, not against an enumeration."""
    problem = _switches_problem(init, goal)
    assert toy_domain.fully_specify(problem) == expected
    closed = _ClosedFormSwitches("switches", toy_domain.pddl)
    if closed.closed_form_covers(problem):
        assert closed.fully_specify(problem) == expected


class _ClosedFormSwitches(Domain):
    """The toy domain with a hand-written closed form, as a plug-in author would write one.

    From an initial state where every switch is on or off (exactly one), the reachable states
    are every on/off setting with every superset of the lit lamps among the lamps some switch is
    wired to: so a goal forces only its own atoms, the wires and the lamps lit already.  Other
    initial states go to the inherited enumeration.
    """

    def closed_form_covers(self, problem: Problem) -> bool:
        switches = [o for o, t in zip(problem.objects, problem.object_types, strict=True) if t == "switch"]
        return all((("on", s) in problem.init) != (("off", s) in problem.init) for s in switches)

    def fully_specify(self, problem: Problem) -> frozenset[Atom] | None:
        if not self.closed_form_covers(problem):
            return super().fully_specify(problem)
        init, goal = problem.init, problem.goal
        litable = {a[2] for a in init if a[0] == "wired"} | {a[1] for a in init if a[0] == "lit"}
        if (any(a[0] == "wired" and a not in init for a in goal)
                or any(a[0] == "lit" and a[1] not in litable for a in goal)
                or any(("on", a[1]) in goal and ("off", a[1]) in goal for a in goal)):
            return None
        return frozenset(a for a in init if a[0] in ("wired", "lit")) | goal


def _well_formed_switch_problems(count: int, seed: int) -> list[Problem]:
    """Random problems over three switches and three lamps, each switch on or off at the start,
    random wires and lit lamps, random goals (often unreachable)."""
    domain = get_domain("switches")
    rng = random.Random(seed)
    objects = {"s1": "switch", "s2": "switch", "s3": "switch", "l1": "lamp", "l2": "lamp",
               "l3": "lamp"}
    problems = []
    for _ in range(count):
        init = {(rng.choice(("on", "off")), s) for s in ("s1", "s2", "s3")}
        init |= {("wired", s, lamp) for s in ("s1", "s2", "s3") for lamp in ("l1", "l2", "l3")
                 if rng.random() < 0.3}
        init |= {("lit", lamp) for lamp in ("l1", "l2", "l3") if rng.random() < 0.2}
        start = problem_of("switches", objects, init)
        goal = random_atoms(domain.definition, start, rng, rng.randint(1, 3))
        problems.append(replace(start, goal=frozenset(goal)))
    return problems


class _ForgetfulSwitches(Domain):
    """A plug-in whose fully_specify forgets that switches stay on or off when nothing flips."""

    def fully_specify(self, problem: Problem) -> frozenset[Atom] | None:
        return self.static_facts(problem) | problem.goal


def test_conformance_kit_passes_a_right_closed_form(toy_domain: Domain) -> None:
    """The kit compares the hand-written closed form with enumeration (so the test can fail);
    the random problems from the domain file alone are rarely well-formed, so well-formed ones
    are added."""
    closed = _ClosedFormSwitches("switches", toy_domain.pddl)
    problems = random_problems(toy_domain, count=60, seed=3) + _well_formed_switch_problems(60, 3)
    report = check_fully_specify(closed, problems)
    assert report.mismatches == []
    assert (report.checked, report.skipped) == (120, 0)
    assert report.closed_form >= 60, report


def test_conformance_kit_catches_a_wrong_fully_specify(toy_domain: Domain) -> None:
    problems = random_problems(toy_domain, count=60, seed=3)
    wrong = _ForgetfulSwitches("switches", toy_domain.pddl)
    report = check_fully_specify(wrong, problems)
    assert report.checked == 60
    assert any(m.missing and not m.extra for m in report.mismatches)


#: (floor on problems checked, ceiling on skipped, floor on decided in closed form) of 80.
BUILTIN_FLOORS = {"floor-tile": (80, 0, 80), "rover-single": (80, 0, 60)}


@pytest.mark.parametrize("name", ["floor-tile", "rover-single"])
def test_conformance_kit_on_builtin_domains(name: str) -> None:
    domain = get_domain(name)
    report = check_fully_specify(domain, random_problems(domain, count=80, seed=11),
                                 max_states=5_000)
    print(f"\n{name}: {report.checked} checked ({report.closed_form} in closed form), "
          f"{report.skipped} skipped")
    assert report.mismatches == []
    least_checked, most_skipped, least_closed = BUILTIN_FLOORS[name]
    assert report.checked >= least_checked and report.skipped <= most_skipped, report
    assert report.closed_form >= least_closed, report
