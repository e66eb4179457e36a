"""Check that an explanation is a certificate: undo its differences, grade again.

:func:`check_certificate` grades a pair with ``explain=True``, applies the explanation's
differences to the prediction (:func:`~planetarium.equivalence.explain.apply_explanation`),
writes the result as PDDL and grades it against the ground truth: it must be equivalent.  On
small problems the brute-force referee (:mod:`planetarium.testing.bruteforce`) must agree.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..equivalence.explain import (
    FORMULA,
    NOT_EQUIVALENT,
    UNSOLVABLE,
    CertificateError,
    apply_explanation,
)
from ..grading import GradeOptions, GradeResult, grade, load_ground_truth
from ..pddl.problem import read_problem
from ..pddl.writer import problem_to_pddl
from .bruteforce import equivalent_by_definition


@dataclass(frozen=True)
class CertificateCheck:
    """``checked``: the explanation was one to check (a complete "no" with itemised goals and
    a repair: not one whose ground truth lacks an anchored name);
    ``ok``: undoing its differences gave an equivalent problem; ``why``: what failed."""

    result: GradeResult
    checked: bool
    ok: bool = True
    why: str = ""
    repaired: str | None = None


def check_certificate(gt: str, pred: str, options: GradeOptions | None = None, *,
                      brute_force_max_objects: int = 0) -> CertificateCheck:
    """Grade ``pred`` with an explanation and verify the explanation (see the module docstring).

    ``brute_force_max_objects``: also ask the brute-force referee when both problems have at
    most this many objects (0: never).
    """
    options = replace(options or GradeOptions(), explain=True)
    result = grade(gt, pred, options=options)
    e = result.explanation
    if e is None or e.kind not in (NOT_EQUIVALENT, UNSOLVABLE) or not e.complete or (
            e.goal_basis == FORMULA or e.unrepairable):
        return CertificateCheck(result, False)
    relax = options.relax_typing
    domain, truth = load_ground_truth(gt, relax_typing=relax)
    prediction = read_problem(pred, domain.definition, relax_typing=relax)
    try:
        fixed = apply_explanation(domain, prediction, e)
    except CertificateError as err:
        return CertificateCheck(result, True, False, f"does not apply: {err}")
    text = problem_to_pddl(fixed, typed=domain.definition.typed and not relax)
    again = grade(gt, text, options=replace(options, explain=False))
    if again.equivalent is not True:
        return CertificateCheck(result, True, False, f"repaired answer graded {again.status}: "
                                f"{again.reason}", text)
    if max(len(truth.objects), len(fixed.objects)) <= brute_force_max_objects:
        anchors = frozenset(options.anchored_objects) | (
            frozenset(truth.objects) if options.anchor_all else frozenset())
        if not equivalent_by_definition(domain.definition, truth, fixed,
                                        is_placeholder=options.is_placeholder,
                                        max_states=20_000, anchors=anchors,
                                        placeholder_semantics=str(options.placeholder_semantics)):
            return CertificateCheck(result, True, False, "the brute force disagrees", text)
    return CertificateCheck(result, True, True, "", text)
