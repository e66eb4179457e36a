"""STRIPS semantics: grounding, progression, plan validation, planning."""

from .grounding import GroundAction, State, ground_action, ground_actions, reachable_states
from .plan_io import format_plan, parse_plan
from .search import solve_by_search
from .validate import ValidationResult, validate_plan

__all__ = ["GroundAction", "State", "ValidationResult", "format_plan", "ground_action",
           "ground_actions", "parse_plan", "reachable_states", "solve_by_search", "validate_plan"]
