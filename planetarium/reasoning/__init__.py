"""STRIPS question semantics: what benchmarks about plans and states ask, decided exactly.

ACPBench and ActionReasoningBench ask the same questions of a planning task in a current state:
is this action applicable (and if not, which precondition fails), what state follows, where does
a sequence of actions first fail, can a fact ever hold or an action ever apply, is a fact a
landmark, is a sequence a plan and which of its actions are needed, how far is the goal and which
action brings it closer.  This package answers them on Planetarium's STRIPS core
(:mod:`planetarium.strips`), each with its certificate, and says when a question's premise is
false instead of answering it:

* :class:`GroundedTask` (:mod:`.task`): a domain and a problem whose initial state is the
  current state; names steps (``(name arg ...)``) as ground actions or says why they are none;
  ``applicable``, ``unmet`` (the false preconditions), ``progress``, ``effects``, ``run``
  (a :class:`Trace` up to the first :class:`Inexecutable` step), ``applicable_actions``.
* :func:`check_plan` and friends (:mod:`.plans`): validation and justification.
* :class:`Planner` (:mod:`.planner`): the searches over one task and what they share;
  :func:`reachable`, :func:`action_reachable`, :func:`all_atoms_reachable`,
  :func:`all_actions_reachable` (:mod:`.reachability`); :func:`is_landmark`,
  :func:`nontrivial_landmark` (:mod:`.landmarks`); :func:`optimal_cost`, :func:`next_action`
  (:mod:`.optimal`).  Each returns a :class:`Proof` (holds, method, reason, witness plan),
  raises :class:`~planetarium.errors.ResourceLimitError` when its
  :class:`~planetarium.limits.Deadline` or state budget runs out, and
  :class:`FalsePremise` when the question presupposes something false (a landmark or a next
  action when the goal is unreachable).
* :func:`read_task` (:mod:`.adl`): question PDDL with the ADL subset ACPBench's alfworld uses,
  compiled into STRIPS.

It sits above :mod:`planetarium.strips` and below the benchmarks that use it (``acp``, ``arb``).
"""

from __future__ import annotations

from .adl import read_task
from .landmarks import is_landmark, nontrivial_landmark
from .optimal import next_action, optimal_cost
from .planner import MAX_STATES, Planner
from .plans import PlanCheck, check_plan, is_subsequence
from .proof import FalsePremise, Method, Proof
from .reachability import action_reachable, all_actions_reachable, all_atoms_reachable, reachable
from .task import GroundedTask, Inexecutable, NotAnAction, State, Step, Trace, show, shows

__all__ = ["MAX_STATES", "FalsePremise", "GroundedTask", "Inexecutable", "Method",
           "NotAnAction", "PlanCheck", "Planner", "Proof", "State", "Step", "Trace",
           "action_reachable", "all_actions_reachable", "all_atoms_reachable", "check_plan",
           "is_landmark", "is_subsequence", "next_action", "nontrivial_landmark",
           "optimal_cost", "reachable", "read_task", "show", "shows"]
