"""The blocksworld domain (untyped, :strips) as used by the Planetarium dataset."""

from ..builtin import BuiltinDomain

DOMAIN = BuiltinDomain("blocksworld", __name__)
