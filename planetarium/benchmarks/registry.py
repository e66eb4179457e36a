"""Finding benchmarks: built-ins and plug-ins, through the ``planetarium.benchmarks`` group.

Like the domains (:mod:`planetarium.domains.registry`), a benchmark is one module exposing a
:class:`~.base.Benchmark` instance plus one registration: an entry point in the
``planetarium.benchmarks`` group of the package that ships it, or :func:`register_benchmark` at
run time (tests, notebooks).  The built-ins are declared the same way (pyproject and
:data:`BUILTINS`; see :class:`planetarium.plugins.Registry`).
"""

from __future__ import annotations

from ..plugins import Registry
from .base import Benchmark

ENTRY_POINT_GROUP = "planetarium.benchmarks"
#: name -> "module:attribute", exactly as pyproject's entry points declare them.
BUILTINS = {
    "planetarium": "planetarium.benchmarks.planetarium:BENCHMARK",
    "acpbench": "planetarium.benchmarks.acpbench:BENCHMARK",
    "arb": "planetarium.benchmarks.arb:BENCHMARK",
}
REGISTRY: Registry[Benchmark] = Registry("benchmark", ENTRY_POINT_GROUP, Benchmark, BUILTINS,
                                         lambda benchmark: benchmark.name)


def register_benchmark(benchmark: Benchmark, *, replace: bool = False) -> Benchmark:
    return REGISTRY.register(benchmark, replace=replace)


def unregister_benchmark(name: str) -> None:
    REGISTRY.unregister(name)


def get_benchmark(name: str) -> Benchmark:
    return REGISTRY.get(name)


def available_benchmarks() -> dict[str, Benchmark]:
    return REGISTRY.available()

