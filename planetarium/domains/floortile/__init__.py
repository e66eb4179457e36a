"""The simplified floor-tile domain of the Planetarium paper (typed: robot, tile, color)."""

from ..builtin import BuiltinDomain

DOMAIN = BuiltinDomain("floor-tile", __name__)
