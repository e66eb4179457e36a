"""ACPBench and ACPBench Hard: read the published questions, parse model answers, grade them.

ACPBench asks yes/no and multiple-choice questions about a PDDL task; ACPBench Hard asks eight
open-ended ones (applicable actions, progression, reachable atoms and actions, validation, plan
justification, landmarks, next action) whose answers must be checked symbolically.  Every
generative question stores the full PDDL domain and problem (the problem's initial state is the
"current state"), so this package grades each answer *exactly* with the STRIPS question
semantics of :mod:`planetarium.reasoning`: sound polynomial certificates first, exact search
second, ``timeout`` (score ``None``) when the deadline runs out, never a silent 0 or 1, and a
*bad question* with its proof when the question's premise is false.

This package holds what is ACPBench's own.  Its records: :mod:`.data` (reading files, the gold's
shape), :mod:`.questions` (what a question's text carries: its task, quoted plan, described
action), :mod:`.gold` (gold answers rendered in the prompt format).  Its answers: :mod:`.answers`
(the answer grammar), :mod:`.choice` (yes/no and multiple choice), :mod:`.gen` (the eight
scorers), :mod:`.grades` (one graded answer, with the shared status), :mod:`.score` (one answer
under a deadline; a responses file), :mod:`.report` (aggregates), :mod:`.prompts`, :mod:`.cli`
(``planetarium acp``).  The label check of the yes/no and multiple-choice questions, which carry
English only: :mod:`.phrases` (action and atom descriptions), :mod:`.reader` and :mod:`.rules`
(English contexts back into STRIPS), :mod:`.english` (what the generative records teach, checked
on them), :mod:`.labels` (deciding one label), :mod:`.labelreport` (a whole folder).  Nothing
heavy is imported here.
"""

from __future__ import annotations
