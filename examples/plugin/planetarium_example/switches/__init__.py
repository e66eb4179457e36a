"""A third-party domain as a plug-in author would write it: one module, one object,
registered by the entry point ``switches = planetarium_example.switches:DOMAIN`` in the
``planetarium.domains`` group.

It defines no fully_specify or planner of its own, so Planetarium grades it with the generic
exact method (each fact settled by a witness goal state or a proof, under the item's deadline)
and the generic search inherited from :class:`planetarium.domains.Domain`.
"""

from importlib.resources import files

from planetarium.domains import Domain

DOMAIN = Domain("switches", files(__name__).joinpath("domain.pddl").read_text())
