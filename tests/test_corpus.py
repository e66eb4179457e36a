"""Run every case of the conformance corpus in equivalence/*.yaml.

Each case is two problems, a mode, an expected verdict and one line saying why.  Where both
problems are small, the brute-force oracle (reachable-state enumeration) must agree too, so a
wrong expectation in the corpus cannot hide a wrong algorithm or vice versa.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from planetarium.errors import PlanetariumError, ResourceLimitError
from planetarium.grading import grade, load_ground_truth
from planetarium.pddl import read_problem
from planetarium.testing.bruteforce import equivalent_by_definition

CORPUS = Path(__file__).resolve().parent.parent / "equivalence"
EXPECTED = {"equivalent", "not-equivalent", "not-parseable", "unsupported"}
#: mode -> (is_placeholder, placeholder_semantics)
MODES = {"identity": (False, "paper"), "placeholder": (True, "paper"),
         "strict-placeholder": (True, "reachable-goal-states")}
BRUTE_FORCE_MAX_OBJECTS = 7
#: Files whose every verdict must be confirmed by the brute force (none may be skipped as large).
REFEREED_FILES = {"negative-goals", "anchored", "strict-placeholder"}


def load_cases() -> list[tuple[str, dict]]:
    cases = []
    for path in sorted(CORPUS.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text())["cases"]:
            cases.append((f"{path.stem}:{case['name']}", case))
    return cases


CASES = load_cases()


def verdict_of(result) -> str:
    if result.status == "unsupported":
        return "unsupported"
    if result.parseable is False:
        return "not-parseable"
    return {True: "equivalent", False: "not-equivalent"}.get(result.equivalent, result.status)


def test_corpus_is_substantial_and_well_formed():
    names = [name for name, _ in CASES]
    assert len(names) == len(set(names)), "case names must be unique per file"
    for name, case in CASES:
        assert case["expected"] in EXPECTED, name
        assert case["mode"] in MODES, name
        assert isinstance(case.get("anchored_objects", []), list), name
        assert case.get("why", "").strip(), f"{name} must say why"


@pytest.mark.parametrize("name, case", CASES, ids=[n for n, _ in CASES])
def test_case(name, case):
    relax = bool(case.get("relax_typing", False))
    placeholder, semantics = MODES[case["mode"]]
    anchors = frozenset(case.get("anchored_objects", []))
    result = grade(case["gt"], case["pred"], is_placeholder=placeholder, relax_typing=relax,
                   check_solvable=False, equivalence_for_unsolvable=True,
                   anchored_objects=anchors, placeholder_semantics=semantics)
    assert verdict_of(result) == case["expected"], f"{case['why']}\n-> {result.reason}"
    if case["expected"] in ("equivalent", "not-equivalent"):
        refereed = _check_against_brute_force(case, placeholder, relax, anchors, semantics)
        if name.split(":")[0] in REFEREED_FILES:
            assert refereed, f"{name}: too large for the brute force, but its file promises it"


def _check_against_brute_force(case: dict, placeholder: bool, relax: bool,
                               anchors: frozenset[str], semantics: str) -> bool:
    """Assert the brute force agrees; False when the case is too large for it to decide."""
    domain, truth = load_ground_truth(case["gt"], relax_typing=relax)
    pred = read_problem(case["pred"], domain.definition, relax_typing=relax)
    if max(len(truth.objects), len(pred.objects)) > BRUTE_FORCE_MAX_OBJECTS:
        return False
    try:
        oracle = equivalent_by_definition(domain.definition, truth, pred,
                                          is_placeholder=placeholder, max_states=20_000,
                                          anchors=anchors, placeholder_semantics=semantics)
    except (ResourceLimitError, PlanetariumError):
        return False  # too big to enumerate: the graded verdict stands alone
    assert oracle == (case["expected"] == "equivalent"), "brute force disagrees: " + case["why"]
    return True
