"""The built-in closed forms are accelerations of the generic fully specified goal: on dataset
ground truths of every built-in domain, at sizes from the smallest to the dataset's largest, the
generic path on the domain's own file (``Domain.fully_specify``, what the file under any other
name inherits) gives the closed form's answer (the conformance kit's check_against_generic).  A
sample, so the test stays fast; bench/bench_closed_forms.py runs every row of a generated
dataset and prints agreement and time per domain.
"""

from __future__ import annotations

import random

import pytest

from planetarium.domains import get_domain
from planetarium.domains.base import Domain
from planetarium.testing.conformance import check_against_generic
from planetarium.testing.generators import dataset_problem

#: Sizes (blocks, balls, tiles, waypoints) of the sampled ground truths: small to dataset-large.
SIZES = {"blocksworld": (3, 8, 16), "gripper": (2, 6, 12), "floor-tile": (4, 9, 16),
         "rover-single": (3, 5, 8)}


@pytest.mark.parametrize("name", sorted(SIZES))
def test_generic_path_agrees_with_the_closed_form(name):
    builtin = get_domain(name)
    rng = random.Random(37)
    problems = [dataset_problem(name, rng, size) for size in SIZES[name] for _ in range(3)]
    report = check_against_generic(builtin, problems, timeout_s=60)
    assert report.mismatches == [] and report.skipped == 0
    assert report.closed_form == report.checked == len(problems)


def test_the_kit_catches_a_plugin_fully_specify_that_drops_a_fact():
    """Past the brute force's reach (a 9-block tower), a plug-in's own ``fully_specify`` that
    forgets ``arm-empty`` is caught by the comparison with the generic method."""

    class Forgetful(Domain):
        def fully_specify(self, problem):
            facts = Domain.fully_specify(self, problem)
            return None if facts is None else facts - {("arm-empty",)}

    builtin = get_domain("blocksworld")
    forgetful = Forgetful("forgetful", builtin.pddl.replace("(domain blocksworld)",
                                                            "(domain forgetful)"))
    problem = dataset_problem("blocksworld", random.Random(1), 9)
    report = check_against_generic(forgetful, [problem], timeout_s=60)
    assert report.checked == 1 and len(report.mismatches) == 1
    assert report.mismatches[0].missing == {("arm-empty",)}
