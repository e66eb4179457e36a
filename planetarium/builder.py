"""``planetarium.builder`` of the original package: ``build(problem_pddl) -> ProblemGraph``.

A front on :mod:`planetarium.compat`, for code written against the original package.
"""

from .compat import ProblemGraph, SceneGraph, build

__all__ = ["ProblemGraph", "SceneGraph", "build"]
