"""Scene graphs as networkx graphs: the paper's attributes, and networkx's own isomorphism test
agreeing with the grader's verdicts."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from planetarium.domains import Domain, get_domain
from planetarium.errors import PlanetariumError, ResourceLimitError
from planetarium.grading import grade
from planetarium.pddl.writer import problem_to_pddl
from planetarium.scenes import to_networkx
from planetarium.strips.forced import forget_ground_tasks
from planetarium.testing.generators import DOMAINS, dataset_problem
from planetarium.testing.pairs import near_miss, render

TOWER = """(define (problem p) (:domain blocksworld) (:objects b1 b2 b3)
(:init (arm-empty) (on-table b1) (on-table b2) (on-table b3) (clear b1) (clear b2) (clear b3))
(:goal (and (on b1 b2) (on b2 b3))))"""


def test_init_scene_nodes_and_edges_carry_the_papers_attributes():
    g = to_networkx(TOWER, "init")
    assert g.nodes["b1"] == {"kind": "object", "name": "b1", "typing": "object"}
    fact = g.nodes["(on-table b2)"]
    assert fact["kind"] == "proposition" and fact["predicate"] == "on-table"
    assert fact["scene"] == "init" and not fact["implied"]
    assert g.number_of_nodes() == 3 + 7 and g.number_of_edges() == 6
    [(_, target, data)] = g.out_edges("(on-table b2)", data=True)
    assert target == "b2" and data == {"predicate": "on-table", "position": 0, "scene": "init"}


def test_goal_scene_is_fully_specified_and_marks_implied_facts():
    goal = to_networkx(TOWER, "goal")
    implied = {d["atom"] for _, d in goal.nodes(data=True) if d.get("implied")}
    assert {"(on-table b3)", "(clear b1)", "(arm-empty)"} <= implied
    assert not goal.nodes["(on b1 b2)"]["implied"]
    positions = {(v, d["position"]) for _, v, d in goal.out_edges("(on b1 b2)", data=True)}
    assert positions == {("b1", 0), ("b2", 1)}
    written = to_networkx(TOWER, "goal", fully_specified=False)
    assert {n for n, d in written.nodes(data=True) if d["kind"] == "proposition"} == {
        "(on b1 b2)", "(on b2 b3)"}
    problem = to_networkx(TOWER, "problem")
    assert "init:(on-table b3)" in problem and "goal:(on-table b3)" in problem


def test_goal_scene_of_a_domain_without_a_closed_form_has_its_own_time_limit():
    """A domain from a file is fully specified by search (the generic engine, which needs a
    deadline): ``to_networkx`` makes one (``timeout_s``), and running past it is a
    ResourceLimitError, never a goal scene short of facts."""
    domain = Domain.from_pddl(get_domain("blocksworld").pddl.replace("(domain blocksworld)",
                                                                   "(domain other)"))
    text = TOWER.replace("(:domain blocksworld)", "(:domain other)")
    implied = {d["atom"] for _, d in to_networkx(text, "goal", domain=domain).nodes(data=True)
               if d.get("implied")}
    assert implied == {d["atom"] for _, d in to_networkx(TOWER, "goal").nodes(data=True)
                       if d.get("implied")}
    forget_ground_tasks()  # the answer found above is kept (and returned past any deadline)
    with pytest.raises(ResourceLimitError):
        to_networkx(text, "goal", domain=domain, timeout_s=1e-6)


def test_a_repeated_argument_keeps_one_edge_per_position():
    text = TOWER.replace("(on b1 b2) (on b2 b3)", "(on b1 b1)")
    g = to_networkx(text, "goal", fully_specified=False)
    assert sorted(d["position"] for _, _, d in g.out_edges("(on b1 b1)", data=True)) == [0, 1]
    with pytest.raises(PlanetariumError, match="no reachable state"):
        to_networkx(text, "goal")


def _same(first, second) -> bool:
    match = lambda a, b: all(a.get(k) == b.get(k) for k in ("kind", "typing", "predicate",  # noqa: E731
                                                            "scene"))
    edge = lambda a, b: sorted((d["position"], d["predicate"]) for d in a.values()) == sorted(  # noqa: E731
        (d["position"], d["predicate"]) for d in b.values())
    return nx.is_isomorphic(first, second, node_match=match, edge_match=edge)


@pytest.mark.parametrize("domain", DOMAINS)
def test_networkx_isomorphism_agrees_with_the_grader(domain):
    """Problem graphs with fully specified goals are isomorphic exactly when the grader (identity
    mode) says equivalent — for renamed answers and near misses."""
    rng = random.Random(11)
    for _ in range(4):
        truth = dataset_problem(domain, rng, 3)
        gt = problem_to_pddl(truth, typed=True)
        for pred in (render(truth, rng, typed=True), problem_to_pddl(near_miss(truth, rng),
                                                                     typed=True)):
            verdict = grade(gt, pred, check_solvable=False)
            if verdict.equivalent is None:
                continue
            try:
                ours = _same(to_networkx(gt, "problem"), to_networkx(pred, "problem"))
            except PlanetariumError:  # an unreachable near-miss goal has no fully specified scene
                assert verdict.equivalent is False
                continue
            assert ours == verdict.equivalent, (gt, pred, verdict.reason)


def test_parsed_problems_and_bad_arguments():
    from planetarium.grading import load_ground_truth

    domain, problem = load_ground_truth(TOWER)
    assert set(to_networkx(problem, "init", domain=domain)) == set(to_networkx(TOWER, "init"))
    assert to_networkx(problem).graph["domain"] == "blocksworld"
    with pytest.raises(ValueError, match="which"):
        to_networkx(TOWER, "start")
    with pytest.raises(PlanetariumError):
        to_networkx("(define (problem", "init")
