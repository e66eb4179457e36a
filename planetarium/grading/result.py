"""What grading returns: a verdict per stage, each with a status kind and a reason.

Results are data, not bools.  Every stage (reading the ground truth, parsing the prediction,
solvability, equivalence) gets a :class:`StageVerdict`: its answer (``True`` / ``False`` /
``None`` when undecided or not run), a :class:`Status` saying what *kind* of outcome that is, and
a reason that names the offending fact or line.  Callers branch on the status kind — exit codes,
retries, report columns — never on the wording of a reason.  A resource limit is a ``TIMEOUT``,
never a "no".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..equivalence.explain import Explanation


class Status(str, Enum):
    """The kind of outcome of one stage (and, for a whole result, of its deciding stage)."""

    DECIDED = "decided"              # the stage answered yes or no
    UNSUPPORTED = "unsupported"      # valid PDDL outside the fragment Planetarium decides
    TIMEOUT = "timeout"              # a time or search limit ran out: undecided, never "no"
    INVALID_INPUT = "invalid-input"  # the caller's input is unusable (bad item, bad ground truth)
    INTERNAL_ERROR = "internal-error"  # a bug in Planetarium (or a plug-in); please report it
    SKIPPED = "skipped"              # not run: an earlier stage settled the result, or not asked

    def __str__(self) -> str:
        return self.value


class Stage(str, Enum):
    """Where in the pipeline an outcome arose."""

    INPUT = "input"                # the batch item itself (not a JSON object, wrong field types)
    GROUND_TRUTH = "ground-truth"  # reading the ground-truth problem
    PARSE = "parse"                # reading the prediction
    SOLVE = "solve"                # solvability
    EQUIVALENCE = "equivalence"    # equivalence with the ground truth
    GRADER = "grader"              # the grader itself: an internal error, a hung or dead worker

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class StageVerdict:
    """One stage's answer: ``value`` is ``None`` unless ``status`` is ``DECIDED``."""

    value: bool | None
    status: Status
    reason: str = ""

    def __post_init__(self) -> None:
        if (self.value is not None) != (self.status is Status.DECIDED):
            raise ValueError(f"a {self.status} stage cannot carry the answer {self.value!r}")


def decided(value: bool, reason: str = "") -> StageVerdict:
    return StageVerdict(value, Status.DECIDED, reason)


def undecided(status: Status, reason: str) -> StageVerdict:
    return StageVerdict(None, status, reason)


SKIPPED = StageVerdict(None, Status.SKIPPED)
_SKIPPED, _DECIDED = Status.SKIPPED, Status.DECIDED  # (module constants: read per row)
#: The stages of one prediction, in pipeline order (the ground truth comes before all of them).
PREDICTION_STAGES = (Stage.PARSE, Stage.SOLVE, Stage.EQUIVALENCE)


@dataclass(frozen=True)
class GradeResult:
    """The verdict on one (ground truth, prediction) pair.

    ``parseable`` / ``solvable`` / ``equivalent`` are the stages' answers; ``status``, ``stage``
    and ``reason`` describe the whole result: the first stage that was not decided (its kind,
    where, why), else the stage that settled the result (a "no", or the final "yes").
    """

    parse: StageVerdict = SKIPPED
    solve: StageVerdict = SKIPPED
    equivalence: StageVerdict = SKIPPED
    domain: str | None = None
    id: Any = None
    #: Set when the pair never reached the prediction's stages (bad item, bad ground truth,
    #: hung worker): where that happened and what it was.
    failure: tuple[Stage, StageVerdict] | None = None
    #: Why the answer is what it is (``GradeOptions(explain=True)`` only; else ``None``).
    explanation: Explanation | None = None

    @classmethod
    def failed(cls, stage: Stage, status: Status, reason: str, *, domain: str | None = None,
               id: Any = None) -> GradeResult:
        """A pair that got no verdict at all: ``stage`` could not be completed."""
        return cls(domain=domain, id=id, failure=(stage, undecided(status, reason)))

    @property
    def parseable(self) -> bool | None:
        return self.parse.value

    @property
    def solvable(self) -> bool | None:
        return self.solve.value

    @property
    def equivalent(self) -> bool | None:
        return self.equivalence.value

    @property
    def correct(self) -> bool:
        """The paper's headline metric: parseable, solvable and equivalent."""
        return bool(self.parseable and self.solvable and self.equivalent)

    def stages(self) -> dict[Stage, StageVerdict]:
        return {Stage.PARSE: self.parse, Stage.SOLVE: self.solve,
                Stage.EQUIVALENCE: self.equivalence}

    def _settling(self) -> tuple[Stage | None, StageVerdict]:
        """The stage that describes the result (see the class docstring)."""
        if self.failure is not None:
            return self.failure
        ran = [(s, v) for s, v in zip(PREDICTION_STAGES, (self.parse, self.solve,
                                                          self.equivalence), strict=True)
               if v.status is not _SKIPPED]
        for stage, verdict in ran:
            if verdict.status is not _DECIDED:
                return stage, verdict
        for stage, verdict in ran:
            if verdict.value is False:
                return stage, verdict
        return ran[-1] if ran else (None, SKIPPED)

    @property
    def status(self) -> Status:
        return self._settling()[1].status

    @property
    def stage(self) -> Stage | None:
        return self._settling()[0]

    @property
    def reason(self) -> str:
        return self._settling()[1].reason

    def to_dict(self) -> dict[str, Any]:
        """The flat row batch grading writes (JSON-ready; enums as their string values);
        ``"explanation"`` only when one was computed."""
        stage, settling = self._settling()  # once: a batch writes a row per pair
        parse, solve, equivalence = self.parse, self.solve, self.equivalence
        row = {
            "id": self.id,
            "domain": self.domain,
            "parseable": parse.value,
            "solvable": solve.value,
            "equivalent": equivalence.value,
            "correct": bool(parse.value and solve.value and equivalence.value),
            "status": settling.status._value_,
            "stage": None if stage is None else stage._value_,
            "reason": settling.reason,
            "stages": {"parse": {"status": parse.status._value_, "reason": parse.reason},
                       "solve": {"status": solve.status._value_, "reason": solve.reason},
                       "equivalence": {"status": equivalence.status._value_,
                                       "reason": equivalence.reason}},
        }
        if self.explanation is not None:
            row["explanation"] = self.explanation.to_dict()
        return row
