"""How to grade: one frozen set of options, the single source of their defaults.

``grade``, the batch grader, the CLI and the eval loop all build a :class:`GradeOptions`; a
field added here reaches every one of them, and a wrong value is refused here, loudly, as the
caller's bug (never reported as a verdict on the model's output).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field, fields

from ..equivalence import PlaceholderSemantics
from ..errors import PlanetariumError
from ..limits import LimitValueError, check_seconds


class GradeOptionsError(PlanetariumError, ValueError):
    """A grading option has a wrong type or value (the caller's bug)."""


def check_option_names(names: Iterable[str]) -> None:
    """``TypeError`` naming the valid options (and the closest one) for any unknown name."""
    valid = [option.name for option in fields(GradeOptions)]
    for name in sorted(set(names) - set(valid)):
        close = difflib.get_close_matches(name, valid, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise TypeError(f"unknown grading option {name!r}{hint}; the options are "
                        + ", ".join(valid))


@dataclass(frozen=True)
class GradeOptions:
    """Everything that shapes a verdict besides the two PDDL texts.

    ``is_placeholder``: goal objects may be permuted (the dataset's abstract rows).
    ``relax_typing``: ignore object types (the paper's relaxed metric).
    ``check_solvable``: ``False`` leaves ``solvable`` undecided (stage skipped).
    ``equivalence_for_unsolvable``: decide Definition 2 even for a prediction proven unsolvable.
    ``timeout_s``: the per-pair time limit; running out reports ``timeout``.
    ``anchored_objects``: names every renaming must keep (case-insensitive, like PDDL names);
    ``anchor_all``: anchor every object of the ground truth.
    ``placeholder_semantics``: ``paper`` (Algorithm 1) or ``reachable-goal-states``.
    ``explain``: attach an :class:`~planetarium.equivalence.explain.Explanation` to every
    decided "no" (and "yes"): the renaming and the differences (costs time; off by default).
    """

    is_placeholder: bool = False
    relax_typing: bool = False
    check_solvable: bool = True
    equivalence_for_unsolvable: bool = False
    timeout_s: float = 10.0
    anchored_objects: tuple[str, ...] = field(default=())
    anchor_all: bool = False
    placeholder_semantics: PlaceholderSemantics = PlaceholderSemantics.PAPER
    explain: bool = False

    def __post_init__(self) -> None:
        for option in fields(self):  # annotations are strings here (PEP 563)
            if option.type == "bool" and not isinstance(getattr(self, option.name), bool):
                raise GradeOptionsError(
                    f"{option.name} must be true or false, got {getattr(self, option.name)!r}")
        try:
            object.__setattr__(self, "timeout_s", check_seconds(self.timeout_s))
        except LimitValueError as err:
            raise GradeOptionsError(str(err)) from None
        object.__setattr__(self, "anchored_objects", _names(self.anchored_objects))
        try:
            semantics = PlaceholderSemantics(self.placeholder_semantics)
        except ValueError:
            choices = ", ".join(s.value for s in PlaceholderSemantics)
            raise GradeOptionsError(f"placeholder_semantics must be one of {choices}, "
                                    f"got {self.placeholder_semantics!r}") from None
        object.__setattr__(self, "placeholder_semantics", semantics)


def _names(value: Iterable[str]) -> tuple[str, ...]:
    """Anchored names as a sorted tuple of lower-case names (PDDL names are case-insensitive)."""
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise GradeOptionsError(f"anchored_objects must be a list of object names, got {value!r}")
    names = list(value)
    if not all(isinstance(n, str) for n in names):
        raise GradeOptionsError(f"anchored_objects must be a list of object names, got {names!r}")
    return tuple(sorted({n.lower() for n in names}))
