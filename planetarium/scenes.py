"""Scene graphs for your own analysis: a problem's initial and goal scenes as networkx graphs.

The grader compares scene graphs (Section 3.3 of the Planetarium paper) built for speed in
rustworkx with interned integer labels (:mod:`planetarium.graph`).  This module builds the same
graphs with readable attributes, for researchers who want to lay out, draw and query them with
networkx::

    from planetarium.scenes import to_networkx
    goal = to_networkx(pddl_text, which="goal")          # the fully specified goal scene
    [n for n, d in goal.nodes(data=True) if d.get("implied")]   # facts fullySpecify added

Nodes, as in the paper: one per **object** (``kind="object"``, ``name``, ``typing``: its type)
and one per **proposition** (``kind="proposition"``, ``predicate``, ``scene``, ``atom``: the fact
as PDDL text, ``implied``: added by fully specifying the goal rather than written); an object
node's id is its name, a proposition's its atom text (``"(on b1 b2)"``; in a problem graph
``"init:(on b1 b2)"`` / ``"goal:(on b1 b2)"``, since a fact may be in both scenes).  **Edges** go
from a proposition to each of its arguments with ``predicate``, ``position`` (0 for the first
argument) and ``scene``.  A proposition with a repeated argument (``(on b1 b1)``) has one edge
per position (a :class:`networkx.MultiDiGraph` keeps both).

networkx is imported only here, from the ``scenes`` extra (``pip install 'planetarium-pddl[scenes]'``).
"""

from __future__ import annotations

from typing import Any

from .domains import get_domain
from .domains.base import Domain
from .errors import PlanetariumError, require
from .grading import load_ground_truth
from .limits import deadline_for
from .pddl.domain import Atom
from .pddl.problem import Problem, read_problem
from .pddl.writer import atom_to_pddl

INIT, GOAL, PROBLEM = "init", "goal", "problem"


def _problem(source: str | Problem, domain: Domain | str | None) -> tuple[Domain, Problem]:
    if isinstance(domain, str):
        domain = get_domain(domain)
    if isinstance(source, Problem):
        return domain or get_domain(source.domain), source
    if domain is None:
        return load_ground_truth(source)
    return domain, read_problem(source, domain.definition)


def goal_facts(domain: Domain, problem: Problem, fully_specified: bool = True) -> frozenset[Atom]:
    """The goal scene's facts: fully specified (the paper's goal scene after ``fullySpecify``)
    or as written; a goal no reachable state satisfies has no fully specified form.  Fully
    specifying runs under the deadline in force (:func:`to_networkx` makes one)."""
    if not fully_specified:
        return problem.goal
    if not problem.has_plain_goal:
        raise PlanetariumError("fully specified goal scenes exist for conjunctions of positive "
                               "facts only; pass fully_specified=False")
    full = domain.fully_specify(problem)
    if full is None:
        raise PlanetariumError("no reachable state satisfies the goal: it has no fully "
                               "specified scene; pass fully_specified=False")
    return full


def to_networkx(source: str | Problem, which: str = INIT, *, domain: Domain | str | None = None,
                fully_specified: bool = True, timeout_s: float = 10.0) -> Any:
    """The ``which`` scene (``"init"``, ``"goal"``) or the ``"problem"`` graph (both scenes over
    one set of object nodes) of a problem given as PDDL text or a parsed
    :class:`~planetarium.pddl.problem.Problem`, as a :class:`networkx.MultiDiGraph`.

    ``domain``: a registered name or :class:`Domain` (default: the problem's ``(:domain)``);
    ``fully_specified``: the goal scene with every fact true in all reachable goal states
    (default, what the grader compares), else the goal as written.  Raises
    :class:`~planetarium.errors.PlanetariumError` for unreadable PDDL and
    :class:`~planetarium.errors.ResourceLimitError` when fully specifying the goal runs past
    ``timeout_s`` seconds (a domain without a closed form is fully specified by search).
    """
    if which not in (INIT, GOAL, PROBLEM):
        raise ValueError(f"which must be 'init', 'goal' or 'problem', got {which!r}")
    nx = require("networkx", "scenes")
    domain, problem = _problem(source, domain)
    graph = nx.MultiDiGraph(name=problem.name, domain=domain.name, scene=which)
    for name, typing in zip(problem.objects, problem.object_types, strict=True):
        graph.add_node(name, kind="object", name=name, typing=typing)
    scenes = []
    if which in (INIT, PROBLEM):
        scenes.append((INIT, problem.init))
    if which in (GOAL, PROBLEM):
        with deadline_for(timeout_s).applied():
            scenes.append((GOAL, goal_facts(domain, problem, fully_specified)))
    for scene, atoms in scenes:
        for atom in sorted(atoms):
            node = atom_to_pddl(atom) if which != PROBLEM else f"{scene}:{atom_to_pddl(atom)}"
            graph.add_node(node, kind="proposition", predicate=atom[0], scene=scene,
                           atom=atom_to_pddl(atom), implied=scene == GOAL and atom not in problem.goal)
            for position, argument in enumerate(atom[1:]):
                graph.add_edge(node, argument, key=position, predicate=atom[0],
                               position=position, scene=scene)
    return graph
