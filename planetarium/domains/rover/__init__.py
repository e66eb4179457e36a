"""The single-rover, single-lander rover domain (typed: waypoint, camera, mode, objective)."""

from ..builtin import BuiltinDomain

DOMAIN = BuiltinDomain("rover-single", __name__)
