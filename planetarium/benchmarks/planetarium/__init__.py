"""The Planetarium benchmark (the paper's task), one module per job, as ACPBench and ARB have
their own packages.

:mod:`.benchmark` is the benchmark itself (items, prompt, three grading modes per answer);
:mod:`.verdicts` its modes and stage chain; :mod:`.prompts` the pinned prompt; :mod:`.hooks`
what reports and pages show, drawn by :mod:`.report`, :mod:`.figures` and :mod:`.view`.  The
package exposes :data:`BENCHMARK` because the registry and the entry point name it here
(``planetarium.benchmarks.planetarium:BENCHMARK``, pyproject and
:data:`planetarium.benchmarks.registry.BUILTINS`).
"""

from .benchmark import BENCHMARK, PlanetariumBenchmark, PlanetariumConfig

__all__ = ["BENCHMARK", "PlanetariumBenchmark", "PlanetariumConfig"]
