"""ACPBench and ACPBench Hard: read the published questions, parse model answers, grade them.

ACPBench asks yes/no and multiple-choice questions about a PDDL task; ACPBench Hard asks eight
open-ended ones (applicable actions, progression, reachable atoms and actions, validation, plan
justification, landmarks, next action) whose answers must be checked symbolically.  Every
generative question stores the full PDDL domain and problem (the problem's initial state is the
"current state"), so this package grades each answer *exactly* with the STRIPS core in
:mod:`planetarium.strips`: sound polynomial certificates first, exact search with a budget
second, and ``undecided`` (score ``None``) when the budget runs out, never a silent 0 or 1.

Modules: :mod:`.data` (reading files), :mod:`.answers` (the answer grammar), :mod:`.adl` (the
ADL subset of ACPBench's alfworld domain, compiled into STRIPS), :mod:`.model` (one question's
grounded task), :mod:`.gen` (the eight exact scorers), :mod:`.gold` (gold
answers rendered in the prompt format), :mod:`.choice` (yes/no and multiple choice),
:mod:`.report` (aggregates), :mod:`.cli` (``planetarium acp``).  The label check of the yes/no
and multiple-choice questions, which carry English only: :mod:`.phrases` (action and atom
descriptions), :mod:`.reader` and :mod:`.rules` (English contexts back into STRIPS),
:mod:`.english` (what the generative records teach, checked on them), :mod:`.labels` (deciding
one question), :mod:`.labelreport` (a whole folder).  Nothing heavy is imported here.
"""

from __future__ import annotations
