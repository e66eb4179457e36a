"""Planetarium where RL practitioners share and scale their work, thin over the reward and the
batch rows.

- :mod:`.verifiers`: a `verifiers <https://github.com/PrimeIntellect-ai/verifiers>`_ 0.4 taskset
  whose reward is :class:`planetarium.reward.PlanetariumReward`; verifiers' loader finds it by
  the id ``planetarium-verifiers`` (the top-level module :mod:`planetarium_verifiers` this
  distribution ships; extra ``[verifiers]``);
- :mod:`.ray`: ``grade --batch`` on a Ray Data dataset, one grader actor per worker slot, each
  with a persistent pool of grading processes (extra ``[ray]``).

Neither stack is a dependency of the base install: each module names its extra in one line when
the stack is missing (:func:`planetarium.errors.require`).  This package is the top layer:
nothing in Planetarium imports it.
"""
