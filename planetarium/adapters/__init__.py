"""Every registered benchmark inside other evaluation frameworks, graded by its own grader.

- :mod:`.lm_eval`: lm-evaluation-harness tasks, one per benchmark (YAML + ``utils.py``, used
  with ``--include_path``: the package's folder for the built-ins, or the folder
  ``python -m planetarium.adapters.lm_eval`` writes for every registered benchmark; extra
  ``[harness]``);
- :mod:`.inspect_task`: one Inspect task ``planetarium``, registered in Inspect's ``inspect_ai``
  entry-point group, that takes ``-T benchmark=NAME`` (``inspect eval planetarium/planetarium``;
  extra ``[inspect]``).

Both ask the benchmark's chat and score with the benchmark's grader through :mod:`.common`, so
their verdicts are the verdicts of ``planetarium eval grade``.  This package is the top layer:
nothing in Planetarium imports it.
"""
