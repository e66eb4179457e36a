"""The shape shared by the built-in domains: PDDL file beside the code, exact algorithms in
sibling modules (``specify`` for fully_specify, ``planner`` for solve), loaded on first use."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Sequence
from importlib.resources import files
from types import ModuleType
from typing import Any

from ..limits import Deadline, required
from ..pddl.domain import Atom
from ..pddl.problem import Problem
from .base import Domain, Plan


class BuiltinDomain(Domain):
    """A domain whose package holds ``domain.pddl``, ``specify.py`` and ``planner.py``."""

    has_planner = True

    def __init__(self, name: str, package: str) -> None:
        super().__init__(name, files(package).joinpath("domain.pddl").read_text())
        self.package = package

    def _module(self, name: str) -> ModuleType:
        return importlib.import_module(f"{self.package}.{name}")

    def fully_specify(self, problem: Problem) -> frozenset[Atom] | None:
        return self._module("specify").fully_specify(self, problem)

    def closed_form_covers(self, problem: Problem) -> bool:
        covers = getattr(self._module("specify"), "closed_form_covers", None)
        return bool(covers and covers(problem))

    def reachability_signature(self, problem: Problem) -> frozenset[Atom] | None:
        signature = getattr(self._module("specify"), "reachability_signature", None)
        return signature(problem) if signature else None

    def solve(self, problem: Problem, deadline: Deadline | None = None) -> Plan | None:
        return self._module("planner").solve(self, problem, required("Domain.solve", deadline))

    def dataset_tasks(self) -> Sequence[Any]:
        """The package's ``tasks.TASKS``; none when the package has no ``tasks`` module.  An
        import failing *inside* that module is an error, not "no tasks" (the domain would
        silently vanish from the dataset)."""
        if importlib.util.find_spec(f"{self.package}.tasks") is None:
            return ()
        return self._module("tasks").TASKS
