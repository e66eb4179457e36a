"""Planetarium inside other evaluation frameworks, graded by our own grader.

- :mod:`.lm_eval`: an lm-evaluation-harness task group ``planetarium`` (YAML + ``utils.py``,
  used with ``--include_path`` pointing into the installed package; extra ``[harness]``);
- :mod:`.inspect_task`: an Inspect task ``planetarium``, registered in Inspect's ``inspect_ai``
  entry-point group (``inspect eval planetarium/planetarium``; extra ``[inspect]``).

Both ask the pinned prompt of the Planetarium benchmark on the held-out test split and score
with :class:`planetarium.benchmarks.planetarium.PlanetariumBenchmark` (:mod:`.common`), so their
verdicts are the verdicts of ``planetarium eval grade``.  This package is the top layer: nothing
in Planetarium imports it.
"""
