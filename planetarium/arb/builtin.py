"""The thirteen domains of ARB's generator, defined here in PDDL with ARB's names.

These are the IPC domains as ARB simulates them (its ASP encodings are the reference the tests
compare with when a copy is at hand): the same predicates, parameters, preconditions and
effects, written with ARB's ASP names so that records and answers line up.  PDDL cannot say that
two parameters differ, so :data:`_DISTINCT` lists, per predicate and action, the parameter pairs
ARB requires to be different objects; :data:`_KINDS` gives ARB's fluent kinds (base, derived,
persistent, static).  ARB classifies by name prefix, and three goldminer fluents (``holds_bomb``,
``holds_laser``, ``holds_gold``) match none of its prefixes: they belong to no kind, as in ARB.
The one difference between generator versions in kinds: spanner's ``useable`` is base *and*
derived in the 2024 generator, derived only in the final one.

Supertypes not in ARB's type tree appear twice: zenotravel's ``at`` is declared by ARB for
persons and for aircraft separately, here it is one predicate over ``locatable`` (persons and
aircraft), the same set of ground fluents; and grippers' types hang under ``thing``, since ARB
calls its balls' type ``object`` (which here is no root: see :meth:`ArbDomain.is_a`).
"""

from __future__ import annotations

import functools

from ..pddl.domain import parse_domain
from .domain import ActionSchema, ArbDomain, ArbDomainError, Signature, make_domain

VERSIONS = ("2024", "final")

_PDDL = {
    "blocksworld": """
(define (domain blocksworld)
  (:requirements :strips :typing)
  (:types block)
  (:predicates (on ?top ?below - block) (ontable ?b - block) (clear ?b - block)
               (handempty) (holding ?b - block))
  (:action pick_up :parameters (?b - block)
    :precondition (and (clear ?b) (ontable ?b) (handempty))
    :effect (and (holding ?b) (not (ontable ?b)) (not (clear ?b)) (not (handempty))))
  (:action put_down :parameters (?b - block)
    :precondition (holding ?b)
    :effect (and (clear ?b) (handempty) (ontable ?b) (not (holding ?b))))
  (:action stack :parameters (?top ?below - block)
    :precondition (and (holding ?top) (clear ?below))
    :effect (and (clear ?top) (handempty) (on ?top ?below)
                 (not (holding ?top)) (not (clear ?below))))
  (:action unstack :parameters (?top ?below - block)
    :precondition (and (on ?top ?below) (clear ?top) (handempty))
    :effect (and (holding ?top) (clear ?below)
                 (not (clear ?top)) (not (handempty)) (not (on ?top ?below)))))
""",
    "depots": """
(define (domain depots)
  (:requirements :strips :typing)
  (:types place locatable - object depot distributor - place
          truck hoist surface - locatable pallet crate - surface)
  (:predicates (at ?x - locatable ?p - place) (on ?c - crate ?s - surface)
               (in ?c - crate ?t - truck) (lifting ?h - hoist ?c - crate)
               (available ?h - hoist) (clear ?s - surface))
  (:action drive :parameters (?t - truck ?from ?to - place)
    :precondition (at ?t ?from)
    :effect (and (at ?t ?to) (not (at ?t ?from))))
  (:action lift :parameters (?h - hoist ?c - crate ?s - surface ?p - place)
    :precondition (and (at ?h ?p) (available ?h) (at ?c ?p) (on ?c ?s) (clear ?c))
    :effect (and (lifting ?h ?c) (clear ?s)
                 (not (at ?c ?p)) (not (clear ?c)) (not (available ?h)) (not (on ?c ?s))))
  (:action drop :parameters (?h - hoist ?c - crate ?s - surface ?p - place)
    :precondition (and (at ?h ?p) (at ?s ?p) (clear ?s) (lifting ?h ?c))
    :effect (and (available ?h) (at ?c ?p) (clear ?c) (on ?c ?s)
                 (not (lifting ?h ?c)) (not (clear ?s))))
  (:action load :parameters (?h - hoist ?c - crate ?t - truck ?p - place)
    :precondition (and (at ?h ?p) (at ?t ?p) (lifting ?h ?c))
    :effect (and (in ?c ?t) (available ?h) (not (lifting ?h ?c))))
  (:action unload :parameters (?h - hoist ?c - crate ?t - truck ?p - place)
    :precondition (and (at ?h ?p) (at ?t ?p) (available ?h) (in ?c ?t))
    :effect (and (lifting ?h ?c) (not (in ?c ?t)) (not (available ?h)))))
""",
    "driverlog": """
(define (domain driverlog)
  (:requirements :strips :typing)
  (:types location locatable - object driver truck obj - locatable)
  (:predicates (at ?x - locatable ?l - location) (in ?o - obj ?t - truck)
               (driving ?d - driver ?t - truck) (link ?a ?b - location)
               (path ?a ?b - location) (empty ?t - truck))
  (:action load_truck :parameters (?o - obj ?t - truck ?l - location)
    :precondition (and (at ?t ?l) (at ?o ?l))
    :effect (and (in ?o ?t) (not (at ?o ?l))))
  (:action unload_truck :parameters (?o - obj ?t - truck ?l - location)
    :precondition (and (at ?t ?l) (in ?o ?t))
    :effect (and (at ?o ?l) (not (in ?o ?t))))
  (:action board_truck :parameters (?d - driver ?t - truck ?l - location)
    :precondition (and (at ?d ?l) (at ?t ?l) (empty ?t))
    :effect (and (driving ?d ?t) (not (empty ?t)) (not (at ?d ?l))))
  (:action disembark_truck :parameters (?d - driver ?t - truck ?l - location)
    :precondition (and (at ?t ?l) (driving ?d ?t))
    :effect (and (at ?d ?l) (empty ?t) (not (driving ?d ?t))))
  (:action drive_truck :parameters (?t - truck ?from ?to - location ?d - driver)
    :precondition (and (at ?t ?from) (driving ?d ?t) (link ?from ?to))
    :effect (and (at ?t ?to) (not (at ?t ?from))))
  (:action walk :parameters (?d - driver ?from ?to - location)
    :precondition (and (at ?d ?from) (path ?from ?to))
    :effect (and (at ?d ?to) (not (at ?d ?from)))))
""",
    "goldminer": """
(define (domain goldminer)
  (:requirements :strips :typing)
  (:types loc)
  (:predicates (robot_at ?l - loc) (bomb_at ?l - loc) (laser_at ?l - loc)
               (soft_rock_at ?l - loc) (hard_rock_at ?l - loc) (gold_at ?l - loc)
               (arm_empty) (holds_bomb) (holds_laser) (holds_gold) (clear ?l - loc)
               (connected ?a ?b - loc))
  (:action move :parameters (?from ?to - loc)
    :precondition (and (robot_at ?from) (connected ?from ?to) (clear ?to))
    :effect (and (robot_at ?to) (not (robot_at ?from))))
  (:action pickup_laser :parameters (?l - loc)
    :precondition (and (robot_at ?l) (laser_at ?l) (arm_empty))
    :effect (and (holds_laser) (not (arm_empty)) (not (laser_at ?l))))
  (:action pickup_bomb :parameters (?l - loc)
    :precondition (and (robot_at ?l) (bomb_at ?l) (arm_empty))
    :effect (and (holds_bomb) (not (arm_empty))))
  (:action putdown_laser :parameters (?l - loc)
    :precondition (and (robot_at ?l) (holds_laser))
    :effect (and (arm_empty) (laser_at ?l) (not (holds_laser))))
  (:action detonate_bomb :parameters (?from ?to - loc)
    :precondition (and (robot_at ?from) (holds_bomb) (connected ?from ?to) (soft_rock_at ?to))
    :effect (and (arm_empty) (clear ?to) (not (holds_bomb)) (not (soft_rock_at ?to))))
  (:action fire_laser :parameters (?from ?to - loc)
    :precondition (and (robot_at ?from) (holds_laser) (connected ?from ?to))
    :effect (and (clear ?to)
                 (not (soft_rock_at ?to)) (not (gold_at ?to)) (not (hard_rock_at ?to))))
  (:action pick_gold :parameters (?l - loc)
    :precondition (and (robot_at ?l) (arm_empty) (gold_at ?l))
    :effect (and (holds_gold) (not (arm_empty)))))
""",
    "grippers": """
(define (domain grippers)
  (:requirements :strips :typing)
  (:types robot object room gripper - thing)
  (:predicates (at_robby ?r - robot ?room - room) (at ?o - object ?room - room)
               (free ?r - robot ?g - gripper) (carry ?r - robot ?o - object ?g - gripper))
  (:action move :parameters (?r - robot ?from ?to - room)
    :precondition (at_robby ?r ?from)
    :effect (and (at_robby ?r ?to) (not (at_robby ?r ?from))))
  (:action pick :parameters (?r - robot ?o - object ?room - room ?g - gripper)
    :precondition (and (at ?o ?room) (at_robby ?r ?room) (free ?r ?g))
    :effect (and (carry ?r ?o ?g) (not (at ?o ?room)) (not (free ?r ?g))))
  (:action drop :parameters (?r - robot ?o - object ?room - room ?g - gripper)
    :precondition (and (carry ?r ?o ?g) (at_robby ?r ?room))
    :effect (and (at ?o ?room) (free ?r ?g) (not (carry ?r ?o ?g)))))
""",
    "logistics": """
(define (domain logistics)
  (:requirements :strips :typing)
  (:types city place physobj - object airport location - place
          package vehicle - physobj truck airplane - vehicle)
  (:predicates (in_city ?p - place ?c - city) (at ?x - physobj ?p - place)
               (in ?pkg - package ?v - vehicle))
  (:action load_truck :parameters (?pkg - package ?t - truck ?p - place)
    :precondition (and (at ?t ?p) (at ?pkg ?p))
    :effect (and (in ?pkg ?t) (not (at ?pkg ?p))))
  (:action load_airplane :parameters (?pkg - package ?a - airplane ?p - place)
    :precondition (and (at ?pkg ?p) (at ?a ?p))
    :effect (and (in ?pkg ?a) (not (at ?pkg ?p))))
  (:action unload_truck :parameters (?pkg - package ?t - truck ?p - place)
    :precondition (and (at ?t ?p) (in ?pkg ?t))
    :effect (and (at ?pkg ?p) (not (in ?pkg ?t))))
  (:action unload_airplane :parameters (?pkg - package ?a - airplane ?p - place)
    :precondition (and (at ?a ?p) (in ?pkg ?a))
    :effect (and (at ?pkg ?p) (not (in ?pkg ?a))))
  (:action drive_truck :parameters (?t - truck ?from ?to - place ?c - city)
    :precondition (and (at ?t ?from) (in_city ?from ?c) (in_city ?to ?c))
    :effect (and (at ?t ?to) (not (at ?t ?from))))
  (:action fly_airplane :parameters (?a - airplane ?from ?to - airport)
    :precondition (at ?a ?from)
    :effect (and (at ?a ?to) (not (at ?a ?from)))))
""",
    "miconic": """
(define (domain miconic)
  (:requirements :strips :typing)
  (:types passenger floor)
  (:predicates (origin ?p - passenger ?f - floor) (destin ?p - passenger ?f - floor)
               (above ?low ?high - floor) (boarded ?p - passenger) (served ?p - passenger)
               (lift_at ?f - floor))
  (:action board :parameters (?f - floor ?p - passenger)
    :precondition (and (lift_at ?f) (origin ?p ?f))
    :effect (boarded ?p))
  (:action depart :parameters (?f - floor ?p - passenger)
    :precondition (and (lift_at ?f) (destin ?p ?f) (boarded ?p))
    :effect (and (served ?p) (not (boarded ?p))))
  (:action up :parameters (?from ?to - floor)
    :precondition (and (lift_at ?from) (above ?from ?to))
    :effect (and (lift_at ?to) (not (lift_at ?from))))
  (:action down :parameters (?from ?to - floor)
    :precondition (and (lift_at ?from) (above ?to ?from))
    :effect (and (lift_at ?to) (not (lift_at ?from)))))
""",
    "mystery": """
(define (domain mystery)
  (:requirements :strips :typing)
  (:types space fuel location movable - object vehicle cargo - movable)
  (:predicates (at ?m - movable ?l - location) (conn ?a ?b - location)
               (has_fuel ?l - location ?f - fuel) (fuel_neighbor ?lower ?higher - fuel)
               (in ?c - cargo ?v - vehicle) (has_space ?v - vehicle ?s - space)
               (space_neighbor ?lower ?higher - space))
  (:action move :parameters (?v - vehicle ?from ?to - location ?f ?f_left - fuel)
    :precondition (and (at ?v ?from) (conn ?from ?to) (has_fuel ?from ?f)
                       (fuel_neighbor ?f_left ?f))
    :effect (and (at ?v ?to) (has_fuel ?from ?f_left)
                 (not (at ?v ?from)) (not (has_fuel ?from ?f))))
  (:action load :parameters (?c - cargo ?v - vehicle ?l - location ?s ?s_left - space)
    :precondition (and (at ?c ?l) (at ?v ?l) (has_space ?v ?s) (space_neighbor ?s_left ?s))
    :effect (and (in ?c ?v) (has_space ?v ?s_left) (not (at ?c ?l)) (not (has_space ?v ?s))))
  (:action unload :parameters (?c - cargo ?v - vehicle ?l - location ?s ?s_left - space)
    :precondition (and (in ?c ?v) (at ?v ?l) (has_space ?v ?s) (space_neighbor ?s ?s_left))
    :effect (and (at ?c ?l) (has_space ?v ?s_left) (not (in ?c ?v)) (not (has_space ?v ?s)))))
""",
    "npuzzle": """
(define (domain npuzzle)
  (:requirements :strips :typing)
  (:types tile position)
  (:predicates (at ?t - tile ?p - position) (neighbor ?a ?b - position)
               (empty ?p - position))
  (:action move :parameters (?t - tile ?from ?to - position)
    :precondition (and (neighbor ?from ?to) (at ?t ?from) (empty ?to))
    :effect (and (at ?t ?to) (empty ?from) (not (at ?t ?from)) (not (empty ?to)))))
""",
    "satellite": """
(define (domain satellite)
  (:requirements :strips :typing)
  (:types satellite direction instrument mode)
  (:predicates (on_board ?i - instrument ?s - satellite) (supports ?i - instrument ?m - mode)
               (pointing ?s - satellite ?d - direction) (power_avail ?s - satellite)
               (power_on ?i - instrument) (calibrated ?i - instrument)
               (have_image ?d - direction ?m - mode)
               (calibration_target ?i - instrument ?d - direction))
  (:action turn_to :parameters (?s - satellite ?to ?from - direction)
    :precondition (pointing ?s ?from)
    :effect (and (pointing ?s ?to) (not (pointing ?s ?from))))
  (:action switch_on :parameters (?i - instrument ?s - satellite)
    :precondition (and (on_board ?i ?s) (power_avail ?s))
    :effect (and (power_on ?i) (not (calibrated ?i)) (not (power_avail ?s))))
  (:action switch_off :parameters (?i - instrument ?s - satellite)
    :precondition (and (on_board ?i ?s) (power_on ?i))
    :effect (and (power_avail ?s) (not (power_on ?i))))
  (:action calibrate :parameters (?s - satellite ?i - instrument ?d - direction)
    :precondition (and (on_board ?i ?s) (calibration_target ?i ?d) (pointing ?s ?d)
                       (power_on ?i))
    :effect (calibrated ?i))
  (:action take_image :parameters (?s - satellite ?d - direction ?i - instrument ?m - mode)
    :precondition (and (calibrated ?i) (on_board ?i ?s) (supports ?i ?m) (power_on ?i)
                       (pointing ?s ?d))
    :effect (have_image ?d ?m)))
""",
    "spanner": """
(define (domain spanner)
  (:requirements :strips :typing)
  (:types location locatable - object man nut spanner - locatable)
  (:predicates (at ?x - locatable ?l - location) (carrying ?m - man ?s - spanner)
               (useable ?s - spanner) (link ?a ?b - location) (tightened ?n - nut)
               (loose ?n - nut))
  (:action walk :parameters (?from ?to - location ?m - man)
    :precondition (and (at ?m ?from) (link ?from ?to))
    :effect (and (at ?m ?to) (not (at ?m ?from))))
  (:action pick_up_spanner :parameters (?l - location ?s - spanner ?m - man)
    :precondition (and (at ?m ?l) (at ?s ?l))
    :effect (and (carrying ?m ?s) (not (at ?s ?l))))
  (:action tighten_nut :parameters (?l - location ?s - spanner ?m - man ?n - nut)
    :precondition (and (at ?m ?l) (at ?n ?l) (carrying ?m ?s) (useable ?s) (loose ?n))
    :effect (and (tightened ?n) (not (loose ?n)) (not (useable ?s)))))
""",
    "visitall": """
(define (domain visitall)
  (:requirements :strips :typing)
  (:types place)
  (:predicates (connected ?a ?b - place) (at_robot ?p - place) (visited ?p - place))
  (:action move :parameters (?from ?to - place)
    :precondition (and (at_robot ?from) (connected ?from ?to))
    :effect (and (at_robot ?to) (visited ?to) (not (at_robot ?from)))))
""",
    "zenotravel": """
(define (domain zenotravel)
  (:requirements :strips :typing)
  (:types locatable city flevel - object person aircraft - locatable)
  (:predicates (at ?x - locatable ?c - city) (in ?p - person ?a - aircraft)
               (fuel_level ?a - aircraft ?l - flevel) (next ?lower ?higher - flevel))
  (:action board :parameters (?p - person ?a - aircraft ?c - city)
    :precondition (and (at ?p ?c) (at ?a ?c))
    :effect (and (in ?p ?a) (not (at ?p ?c))))
  (:action debark :parameters (?p - person ?a - aircraft ?c - city)
    :precondition (and (in ?p ?a) (at ?a ?c))
    :effect (and (at ?p ?c) (not (in ?p ?a))))
  (:action fly :parameters (?a - aircraft ?from ?to - city ?l ?l_left - flevel)
    :precondition (and (at ?a ?from) (fuel_level ?a ?l) (next ?l_left ?l))
    :effect (and (at ?a ?to) (fuel_level ?a ?l_left)
                 (not (at ?a ?from)) (not (fuel_level ?a ?l))))
  (:action zoom :parameters (?a - aircraft ?from ?to - city ?l ?l_mid ?l_left - flevel)
    :precondition (and (at ?a ?from) (fuel_level ?a ?l) (next ?l_mid ?l) (next ?l_left ?l_mid))
    :effect (and (at ?a ?to) (fuel_level ?a ?l_left)
                 (not (at ?a ?from)) (not (fuel_level ?a ?l))))
  (:action refuel :parameters (?a - aircraft ?c - city ?l ?l_up - flevel)
    :precondition (and (fuel_level ?a ?l) (next ?l ?l_up) (at ?a ?c))
    :effect (and (fuel_level ?a ?l_up) (not (fuel_level ?a ?l)))))
""",
}

#: Parameter pairs (0-based positions) that must name different objects, per predicate/action.
_DISTINCT: dict[str, dict[str, tuple[tuple[int, int], ...]]] = {
    "blocksworld": {"on": ((0, 1),), "stack": ((0, 1),), "unstack": ((0, 1),)},
    "depots": {"drive": ((1, 2),)},
    "driverlog": {"link": ((0, 1),), "path": ((0, 1),), "drive_truck": ((1, 2),),
                  "walk": ((1, 2),)},
    "goldminer": {"connected": ((0, 1),), "move": ((0, 1),), "detonate_bomb": ((0, 1),),
                  "fire_laser": ((0, 1),)},
    "grippers": {"move": ((1, 2),)},
    "logistics": {"drive_truck": ((1, 2),), "fly_airplane": ((1, 2),)},
    "miconic": {"above": ((0, 1),), "up": ((0, 1),), "down": ((0, 1),)},
    "mystery": {"conn": ((0, 1),), "fuel_neighbor": ((0, 1),), "space_neighbor": ((0, 1),),
                "move": ((1, 2), (3, 4)), "load": ((3, 4),), "unload": ((3, 4),)},
    "npuzzle": {"neighbor": ((0, 1),), "move": ((1, 2),)},
    "satellite": {"turn_to": ((1, 2),)},
    "spanner": {"link": ((0, 1),), "walk": ((0, 1),)},
    "visitall": {"connected": ((0, 1),), "move": ((0, 1),)},
    "zenotravel": {"next": ((0, 1),), "fly": ((1, 2), (3, 4)),
                   "zoom": ((1, 2), (3, 4), (3, 5), (4, 5)), "refuel": ((2, 3),)},
}

#: Fluent kinds per predicate in the final generator: "kind: predicates".
_KINDS: dict[str, dict[str, str]] = {
    "blocksworld": {"base": "ontable", "derived": "clear handempty", "persistent": "holding on"},
    "depots": {"derived": "clear available", "persistent": "at on in lifting"},
    "driverlog": {"derived": "empty", "persistent": "at in driving", "static": "link path"},
    "goldminer": {"base": "bomb_at laser_at soft_rock_at hard_rock_at",
                  "derived": "arm_empty clear", "persistent": "robot_at gold_at",
                  "static": "connected"},
    "grippers": {"base": "carry", "derived": "free", "persistent": "at_robby at"},
    "logistics": {"persistent": "at in", "static": "in_city"},
    "miconic": {"base": "boarded", "derived": "served", "persistent": "lift_at",
                "static": "origin destin above"},
    "mystery": {"persistent": "at in has_space has_fuel",
                "static": "space_neighbor fuel_neighbor conn"},
    "npuzzle": {"derived": "empty", "persistent": "at", "static": "neighbor"},
    "satellite": {"base": "power_on calibrated have_image", "derived": "power_avail",
                  "persistent": "pointing", "static": "on_board supports calibration_target"},
    "spanner": {"base": "carrying tightened", "derived": "loose useable", "persistent": "at",
                "static": "link"},
    "visitall": {"derived": "visited", "persistent": "at_robot", "static": "connected"},
    "zenotravel": {"base": "fuel_level", "persistent": "at in", "static": "next"},
}
#: Where the 2024 generator classified differently: (domain, predicate) -> its kinds.
_KINDS_2024 = {("spanner", "useable"): frozenset({"base", "derived"})}

NAMES = tuple(sorted(_PDDL))


def _kinds(name: str, version: str) -> dict[str, frozenset[str]]:
    kinds: dict[str, set[str]] = {}
    for kind, predicates in _KINDS[name].items():
        for predicate in predicates.split():
            kinds.setdefault(predicate, set()).add(kind)
    frozen = {p: frozenset(k) for p, k in kinds.items()}
    if version == "2024":
        frozen.update({p: k for (d, p), k in _KINDS_2024.items() if d == name})
    return frozen


def domain_from_pddl(text: str, name: str,
                     distinct: dict[str, tuple[tuple[int, int], ...]] | None = None,
                     kinds: dict[str, frozenset[str]] | None = None) -> ArbDomain:
    """An :class:`ArbDomain` from a STRIPS PDDL domain (typed), the parameter pairs that must
    differ (none by default) and the fluent kinds (none by default)."""
    definition = parse_domain(text)
    distinct = distinct or {}
    unknown = set(distinct) - set(definition.predicates) - set(definition.actions)
    if unknown:
        raise ArbDomainError(f"domain {name}: distinct pairs for unknown {sorted(unknown)[0]}")
    fluents = {p: (Signature(tuple(types), frozenset(distinct.get(p, ()))),)
               for p, types in definition.predicates.items()}
    actions = {a: ActionSchema(action, Signature(tuple(t for _, t in action.parameters),
                                                 frozenset(distinct.get(a, ()))))
               for a, action in definition.actions.items()}
    return make_domain(name, dict(definition.types), fluents, actions, kinds)


@functools.cache
def builtin_domain(name: str, version: str = "final") -> ArbDomain:
    """One of ARB's thirteen domains (``KeyError`` for another name), with the fluent kinds of
    generator ``version`` ("2024" or "final")."""
    if version not in VERSIONS:
        raise ValueError(f"unknown ARB generator version {version!r}")
    return domain_from_pddl(_PDDL[name], name, _DISTINCT[name], _kinds(name, version))
