"""lm-evaluation-harness tasks for every registered benchmark; this folder is an ``--include_path``.

    pip install 'planetarium-pddl[harness]'
    TASKS=$(python -m planetarium.adapters.lm_eval)     # every registered benchmark, plug-ins too
    lm_eval --model hf --model_args pretrained=google/gemma-2-2b-it --apply_chat_template \\
        --tasks planetarium --include_path "$TASKS"

Each benchmark is a task of its name, or a group of its name with a task per subset:
``planetarium`` groups one task per domain (``planetarium_blocksworld``, ...), each the domain's
items of the held-out test split; the group reports their means weighted by size.  The metrics
are the benchmark's metric chain (Planetarium: ``parseable``, ``solvable``, ``correct``, strict
typing, as ``eval grade``), 1 or 0 per answer from the benchmark's own grader.
``--apply_chat_template`` sends the benchmark's chat as ``planetarium eval run`` does.  Settings
of the benchmark's config go in ``--metadata`` (``'{"dataset": "PATH", "split": "..."}'``); the
dataset defaults to the ``PLANETARIUM_DATASET`` variable, then the benchmark's published dataset
(:mod:`..common`).  The generation budget is the benchmark's (Planetarium: 4096 new tokens), cut
to half the model's context when that is smaller; ``--gen_kwargs max_gen_toks=N`` sets it.

This folder holds the built-in benchmarks' tasks (:mod:`.tasks` writes them);
``python -m planetarium.adapters.lm_eval [--out DIR]`` writes a folder with a task for every
benchmark registered where it runs (entry points included) and prints its path.
"""
