"""STRIPS semantics: grounding, progression, plan validation, planning."""

from .grounding import GroundAction, State, ground_action, ground_actions, reachable_states

__all__ = ["GroundAction", "State", "ground_action", "ground_actions", "reachable_states"]
