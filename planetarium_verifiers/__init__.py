"""Planetarium's verifiers taskset under the name verifiers' loader looks for.

verifiers 0.4 resolves ``--env.taskset.id planetarium-verifiers`` (or ``vf-eval
planetarium-verifiers``) by importing the top-level module ``planetarium_verifiers`` and taking
the one ``Taskset`` subclass its ``__all__`` names; the implementation is
:mod:`planetarium.integrations.verifiers` (extra ``[verifiers]``).  A module of its own keeps
``import planetarium`` light and its ``__all__`` free of verifiers' classes.
"""

from planetarium.integrations.verifiers import (
    PlanetariumData,
    PlanetariumTask,
    PlanetariumTaskConfig,
    PlanetariumTaskset,
    PlanetariumTasksetConfig,
    load_environment,
)

__all__ = ["PlanetariumData", "PlanetariumTask", "PlanetariumTaskConfig", "PlanetariumTaskset",
           "PlanetariumTasksetConfig", "load_environment"]
