"""The lm-evaluation-harness task group ``planetarium``: this folder is an ``--include_path``.

    pip install 'planetarium-pddl[harness]'
    TASKS=$(python -c 'import planetarium.adapters.lm_eval as m, os; print(os.path.dirname(m.__file__))')
    lm_eval --model hf --model_args pretrained=google/gemma-2-2b-it --apply_chat_template \\
        --tasks planetarium --include_path "$TASKS"

``planetarium`` groups one task per domain (``planetarium_blocksworld``, ...), each the domain's
rows of the held-out test split, with metrics ``parseable``, ``solvable`` and ``correct``
computed by our grader (strict typing, as ``eval grade``); the group reports their means
weighted by size.  ``--apply_chat_template`` sends the pinned prompt as the one user turn, as
``planetarium eval run`` does.  The dataset: ``--metadata '{"dataset": "PATH"}'``, else the
``PLANETARIUM_DATASET`` variable, else the published Hub id (:mod:`..common`).
"""
