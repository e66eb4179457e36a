"""``planetarium.evaluate``: the original Planetarium package's entry point, on this grader.

Code written against the original package calls
``planetarium.evaluate(gt_pddl_str, pred_pddl_str)`` and unpacks ``(parseable, solveable,
equivalent)``; it keeps working when only the install changes.  The meaning is the original's:

* ``parseable``: the prediction is read as a problem of the ground truth's domain;
* ``solveable``: with ``check_solveable`` (default), a plan exists for the prediction; without it,
  always ``False`` (the original's documented value) and equivalence is decided regardless;
* ``equivalent``: decided only for a solvable prediction when solvability is checked.

The answers are booleans, so anything this grader leaves *undecided* (a time limit, PDDL outside
the fragment it decides, an unreadable ground truth) comes back ``False`` and is logged as
undecided on the ``planetarium`` logger — use :func:`planetarium.grading.grade` to see it as data.
The original ran Fast Downward and VAL from paths given as arguments (``val``, ``fast_downward``,
``alias``, ...); planning and validation are built in here, so such arguments are accepted and
ignored, with a note logged once per argument name.  Keyword arguments that are
:class:`~planetarium.grading.GradeOptions` fields (``timeout_s``, ``relax_typing``, ...) apply.
"""

from __future__ import annotations

import logging
from dataclasses import fields
from typing import Any

from .grading import GradeOptions, GradeResult, Status, grade

log = logging.getLogger("planetarium")

_OPTION_NAMES = frozenset(f.name for f in fields(GradeOptions))
_noted: set[str] = set()


def evaluate(source_pddl_str: str, target_pddl_str: str, domain_str: str | None = None,
             is_placeholder: bool = False, check_solveable: bool = True,
             **kwargs: Any) -> tuple[bool, bool, bool]:
    """``(parseable, solveable, equivalent)`` of ``target_pddl_str`` against the ground truth
    ``source_pddl_str``, as the original package's ``evaluate`` answers (module docstring).

    ``domain_str`` is accepted for compatibility: the domain is the registered one the ground
    truth names in ``(:domain ...)``; the original only handed ``domain_str`` to its planner.
    """
    options = {k: v for k, v in kwargs.items() if k in _OPTION_NAMES}
    _note_ignored([k for k in kwargs if k not in _OPTION_NAMES] + (["domain_str"] if domain_str
                                                                    else []))
    options.update(is_placeholder=is_placeholder, check_solvable=check_solveable)
    result = grade(source_pddl_str, target_pddl_str, **options)
    if result.status not in (Status.DECIDED, Status.SKIPPED):
        _log_undecided(result)
    solveable = check_solveable and result.solvable is True
    return (result.parseable is True, solveable,
            result.equivalent is True and (solveable or not check_solveable))


def _note_ignored(names: list[str]) -> None:
    for name in names:
        if name not in _noted:
            _noted.add(name)
            log.info("planetarium.evaluate: argument %r is accepted for compatibility with the "
                     "original package and ignored (planning and plan validation are built in; "
                     "the domain is the registered one the ground truth names)", name)


def _log_undecided(result: GradeResult) -> None:
    level = logging.WARNING if result.status in (Status.TIMEOUT, Status.UNSUPPORTED) \
        else logging.ERROR
    log.log(level, "planetarium.evaluate: undecided (%s at %s), answered False: %s",
            result.status, result.stage, result.reason)
