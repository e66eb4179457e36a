"""``acp score`` and ``arb score``: thin commands over a benchmark's own grading.

Each reads its questions and responses, and hands the answered ones to
:meth:`Benchmark.grade <planetarium.benchmarks.base.Benchmark.grade>` on the one item loop
(:func:`planetarium.benchmarks.grader.grade_items`: one deadline per answer on the benchmark's
clock, a hard kill past it), exactly as ``eval grade`` does; what it adds is its results file
(:mod:`.run`: locked, one row per question, resumable) and its table.  The commands join their
groups (``planetarium acp``, ``planetarium arb``) when the group loads, from this layer above
the benchmarks (``cli.LazyGroup.extra``): the ``acp`` and ``arb`` packages sit below them.
"""
