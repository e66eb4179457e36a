"""The gripper domain (untyped, :strips) as used by the Planetarium dataset."""

from ..builtin import BuiltinDomain

DOMAIN = BuiltinDomain("gripper", __name__)
