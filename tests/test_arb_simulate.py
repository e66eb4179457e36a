"""ARB's simulation on the shared STRIPS layer (issue 28.5): :class:`planetarium.arb.simulate.World`
asks :class:`planetarium.reasoning.GroundedTask` what actions do, over ARB's own ground universe.

Checked in every one of the thirteen built-in domains against brute force: each lifted action
instantiated by hand (substituting its parameters, no planetarium grounding code), along random
walks of the test instances, for applicability, the false preconditions, the successor state
and where a sequence first fails.
"""

from __future__ import annotations

import random

import pytest
from arb_instances import INSTANCES

from planetarium.arb.builtin import NAMES, builtin_domain
from planetarium.arb.simulate import World, flat
from planetarium.reasoning import GroundedTask, NotAnAction


def _instantiate(domain, step):
    """(pre, add, delete) of ``step`` by substitution, written out independently."""
    lifted = domain.actions[step[0]].action
    binding = {var: arg for (var, _), arg in zip(lifted.parameters, step[1], strict=True)}

    def ground(atoms):
        return frozenset((a[0], *(binding.get(x, x) for x in a[1:])) for a in atoms)
    return ground(lifted.precondition), ground(lifted.add), ground(lifted.delete)


@pytest.mark.parametrize("name", NAMES)
def test_the_world_answers_as_brute_force_in_every_domain(name):
    type_of, init = INSTANCES[name]
    domain = builtin_domain(name)
    world = World(domain, type_of)
    rng = random.Random(name)
    triples = {step: _instantiate(domain, step) for step in world.actions}
    assert triples, name
    state, walked, runs = frozenset(init), [], 0
    for _ in range(8):
        brute = [s for s, (pre, _, _) in triples.items() if pre <= state]
        assert world.executable(state) == brute
        for step, (pre, add, delete) in triples.items():
            assert world.missing(step, state) == pre - state
            if pre <= state:
                assert world.apply(step, state) == (state - delete) | add
            else:
                with pytest.raises(NotAnAction):
                    world.apply(step, state)
        inexecutable = [s for s in triples if s not in set(brute)]
        if inexecutable:  # the walk so far, then an action that cannot run here
            bad = rng.choice(inexecutable)
            trace = world.run(frozenset(init), [*walked, bad])
            assert trace.failure is not None and trace.failure.index == len(walked)
            assert trace.failure.missing == triples[bad][0] - state
            assert trace.failure.step == flat(bad) and trace.final == state
            runs += 1
        if not brute:
            break
        step = rng.choice(brute)
        walked.append(step)
        state = (state - triples[step][2]) | triples[step][1]
    trace = world.run(frozenset(init), walked)
    assert trace.failure is None and trace.final == state and len(trace.states) == len(walked) + 1
    assert runs > 0


def test_arb_pairs_that_must_differ_stay_out_of_the_universe_the_shared_layer_would_ground():
    world = World(builtin_domain("blocksworld"), INSTANCES["blocksworld"][0])
    assert ("stack", ("b1", "b1")) not in world.actions
    assert world.task.why_not_action(flat(("stack", ("b1", "b1")))) is None  # PDDL grounds it
    assert world.is_action(("stack", ("b1", "b2"))) and not world.is_action(("stack", ("b1", "b1")))


def test_a_task_over_objects_grounds_each_step_once_and_refuses_what_names_no_action():
    domain = builtin_domain("grippers")
    type_of, init = INSTANCES["grippers"]
    task = GroundedTask.over_objects(domain.definition, type_of, init)
    assert task.state == init and task.goal == frozenset() and task.types == type_of
    step = ("pick", "robot1", "ball1", "room1", "lgripper1")
    assert task.action(step) is task.action(step)
    assert task.applicable(init, step)
    for bad in (("pick", "robot1", "ball9", "room1", "lgripper1"), ("fly", "robot1")):
        for _ in range(2):  # a refusal is never remembered as an action
            with pytest.raises(NotAnAction):
                task.action(bad)


def test_arb_asks_strips_semantics_of_the_shared_layer_only():
    """No ARB module reaches below :mod:`planetarium.reasoning` into ``planetarium.strips``."""
    import ast
    from pathlib import Path

    import planetarium.arb

    offenders = []
    for path in sorted(Path(planetarium.arb.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                module = ("." * node.level) + (node.module or "")
                if module.lstrip(".").split(".")[0] == "strips" or "planetarium.strips" in module:
                    offenders.append(f"{path.name}:{node.lineno} {module}")
            elif isinstance(node, ast.Import):
                offenders += [f"{path.name}:{node.lineno} {a.name}" for a in node.names
                              if a.name.startswith("planetarium.strips")]
    assert offenders == []
