"""The English ARB renders each ground fluent and action in, per domain and generator version.

ARB writes every fluent and action in one of two to five wordings chosen at random; to read its
questions, its stored answers and answers that follow its wording, every wording is listed here
in a compact notation of this project's own:

- ``{0}``, ``{1}`` ... stand for the fluent's or action's arguments (ARB's ASP order);
- `` | `` separates wordings;
- in a fluent's wording, ``~`` is where the negation goes ("block {0} is ~clear": "block b1 is
  clear" / "block b1 is not clear"), and ``<pos|neg>`` is text that differs by sign ("there is
  <a|no> link ...");
- a pair ``(positive, negative)`` lists the two signs separately where they do not line up;
- :class:`Case` makes a wording depend on an argument's *name* (ARB does this: mystery's
  ``at`` says "vehicle v0" or "cargo c0" by the object's name, depots' ``at`` only renders for
  trucks, crates, hoists and pallets).

The wording is ARB's, slips included ("detontaed", "postion", "does not boards", two wordings
run together without a comma): an answer that copies a question's English must be read back.
Where generator versions differ, :data:`_CHANGES_2024` says so (driverlog's and logistics'
``drive_truck``, mystery's vehicle names).  :func:`phrases` expands the table into
:class:`Phrase` values, the one source for reading (:mod:`.reader`) and rendering
(:mod:`.render`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .builtin import VERSIONS

Spec = str | tuple[str, str]


@dataclass(frozen=True)
class Case:
    """Wordings used when argument ``arg``'s name starts with one of ``prefixes`` (``None``:
    any name; cases are tried in order, and an object no case covers has no wording)."""

    arg: int
    prefixes: tuple[str, ...] | None
    spec: Spec


Entry = Spec | tuple[Case, ...]

_VEHICLE_AT = ("vehicle {0} is ~at location {1} | vehicle {0} is ~present at location {1} "
               "| vehicle {0} is ~situated at location {1}")
_CARGO_AT = ("cargo {0} is at location {1} | cargo {0} is present at location {1} "
             "| cargo {0} is situated at location {1}",
             "cargo {0} is not at location {1}cargo {0} is not present at location {1} "
             "| cargo {0} is not situated at location {1}")

_FLUENTS: dict[str, dict[str, Entry]] = {
    "blocksworld": {
        "on": "block {0} is ~on block {1} | block {0} is ~on top of block {1} "
              "| block {0} is ~placed on top of block {1}",
        "ontable": "block {0} is ~on the table | block {0} is ~located on the table",
        "clear": "block {0} is ~clear",
        "holding": "block {0} is ~being held | the hand is ~holding the block {0} "
                   "| block {0} is ~being held by the hand",
        "handempty": ("hand is empty | hand is not holding anything",
                      "hand is not empty | hand is holding some block"),
    },
    "depots": {
        "at": (Case(0, ("truck", "crate", "hoist", "pallet"),
                    "{0} is ~at {1} | {0} is ~located at {1} | {1} is where {0} is ~located "
                    "| {0} <can|cannot> be found located at {1}"),),
        "on": "{0} is ~on {1} | {1} <has|does not have> {0} on it | {0} is ~on top of {1}",
        "in": "{0} is ~in {1} | {1} <contains|does not contain> {0} | {0} is ~inside {1}",
        "lifting": "{0} is ~lifting {1} | {0} is ~raising {1} | {0} is ~elevating {1}",
        "available": "{0} is ~available | {0} is ~accessible | {0} is ~available for work",
        "clear": "{0} is ~clear | {0} is ~clear of any crates",
    },
    "driverlog": {
        "at": "{0} is ~at location {1} | {0} is ~present at location {1} "
              "| {0} is ~currently at location {1}",
        "in": "{0} is ~in {1} | {0} is ~placed in {1} | {0} is ~located in {1}",
        "driving": "{0} is ~driving {1} | {1} is ~being driven by {0} | {0} is ~driving {1} currently",
        "link": "there is <a|no> link between location {0} and location {1} "
                "| there <exists|doesn't exist> a link between the locations {0} and {1} "
                "| locations {0} and {1} <have|does not have> a link between them",
        "path": "there is <a|no> path between location {0} and location {1} "
                "| there <exists|doesn't exist> a path between the locations {0} and {1} "
                "| locations {0} and {1} <have|does not have> a path between them",
        "empty": ("{0} is empty | {0} contains nothing", "{0} is not empty | {0} contains some package"),
    },
    "goldminer": {
        "robot_at": "robot is ~at location {0} | robot is ~present at location {0} "
                    "| robot is ~located at {0}",
        "bomb_at": "bomb is ~at location {0} | bomb is ~present at location {0} "
                   "| bomb is ~located at {0}",
        "laser_at": "laser is ~at location {0} | laser is ~present at location {0} "
                    "| laser is ~located at {0}",
        "soft_rock_at": "soft rock is ~at location {0} | soft rock is ~present at location {0} "
                        "| soft rock is ~located at {0}",
        "hard_rock_at": "hard rock is ~at location {0} | hard rock is ~present at location {0} "
                        "| hard rock is ~located at {0}",
        "gold_at": "gold is ~at location {0} | gold is ~present at location {0} "
                   "| gold is ~located at {0}",
        "arm_empty": ("robot's arm is empty | arm of robot is empty | robot's arm contains nothing",
                      "robot's arm is not empty | arm of robot is not empty "
                      "| robot's arm contains something"),
        "holds_bomb": "robot <holds|does not hold> a bomb | bomb is ~held by robot",
        "holds_laser": "robot <holds|does not hold> laser | laser is ~held by robot",
        "holds_gold": "robot <holds|does not hold> gold | gold is ~held by robot",
        "clear": ("location {0} is clear | location {0} has nothing",
                  "location {0} is not clear | location {0} has something"),
        "connected": "there is <a|no> connection between location {0} and location {1} "
                     "| location {0} and location {1} are ~connected "
                     "| locations {0} and {1} are ~connected",
    },
    "grippers": {
        "at_robby": "{0} is ~at {1} | {0} is ~present in {1} | {0} is ~located at {1}",
        "at": "{0} is ~at {1} | {0} is ~located at {1} | {0} is ~present at {1}",
        "free": "{1} of {0} is ~free | {0}'s {1} is ~free | {0}'s {1} is ~available",
        "carry": "{0} is ~carrying {1} with {2} | {1} is ~being carried by {0}'s {2} "
                 "| {2} of {0} is ~carrying {1}",
    },
    "logistics": {
        "in_city": ("airport {0} is in city {1} | airport {0} is located in city {1} "
                    "| city {1} contains airport {0}",
                    "airport {0} is not in city {1}airport {0} is not located in city {1} "
                    "| city {1} does not contain airport {0}"),
        "at": "object {0} is ~at airport {1} | object {0} is ~located at airport {1} "
              "| at airport {1}, object {0} is ~located",
        "in": "package {0} is ~in vehicle {1} | package {0} is ~present in vehicle {1} "
              "| package {0} is ~located in vehicle {1}",
    },
    "miconic": {
        "origin": "passenger {0} <enters|does not enter> at floor {1} "
                  "| passenger {0} <|does not >boards at floor {1} "
                  "| passenger {0} <|does not >boards on level {1}",
        "destin": "destination of passenger {0} is ~floor {1} "
                  "| floor {1} is ~the destination of <the |>passenger {0} "
                  "| destination of passenger {0} is ~level {1}",
        "above": "floor {1} is ~above floor {0} | floor {1} is ~located above floor {0} "
                 "| floor {0} is ~below floor {1}",
        "boarded": "passenger {0} is ~boarded | passenger {0} <has|has not> boarded the lift",
        "served": "passenger {0} is ~served | passenger {0} is ~attended to",
        "lift_at": "lift is ~at floor {0} | lift is ~positioned at level {0}",
    },
    "mystery": {
        "at": (Case(0, ("v",), _VEHICLE_AT), Case(0, None, _CARGO_AT)),
        "conn": "location {0} is ~connected to location {1} "
                "| there is <a|no> connection between locations {0} and {1} "
                "| location {0} and location {1} are ~connected",
        "has_fuel": "location {0} <has|does not have> fuel {1} "
                    "| location {0} <has|does not have> a fuel-level of {1} "
                    "| fuel {1} <exists|does not exist> in location {0}",
        "fuel_neighbor": "fuel level {0} <neighbors|does not neighbour> fuel level {1} "
                         "| fuel-levels {0} and {1} are ~neighbors",
        "in": "cargo {0} is ~in vehicle {1} | cargo {0} is ~located in vehicle {1} "
              "| vehicle {1} <contains|does not contain> cargo {0}",
        "has_space": "vehicle {0} <has|does not have> space {1} "
                     "| vehicle {0} <contains|does not contain> space {1}",
        "space_neighbor": "space {0} <neighbors|does not neighbour> space {1} "
                          "| spaces {0} and {1} are ~neighbors",
    },
    "npuzzle": {
        "at": "tile {0} is ~at position {1} | tile {0} is ~located at position {1} "
              "| tile {0} is ~present in the position {1}",
        "neighbor": "position {0} is ~a neighbor of position {1} "
                    "| position {0} and position {1} are ~neighbors "
                    "| positions {0} and {1} are ~neighbors",
        "empty": ("position {0} is empty | position {0} does not contain any tile",
                  "position {0} is not empty | position {0} contains a tile"),
    },
    "satellite": {
        "on_board": "{0} is ~on board {1} | {1} <carries|does not carry> {0} on board "
                    "| {1} <has|does not have> {0} on board",
        "supports": "{0} <supports|does not support> {1} | {1} is ~supported by {0} "
                    "| {1} is ~compatible with {0}",
        "pointing": "{0} is ~pointing to {1} | {0} is ~aimed towards {1} "
                    "| {1} is ~where {0} is pointed",
        "power_avail": "{0} <has|does not have> power available | power is ~available for {0} "
                       "| {0} <has|does not have> power",
        "power_on": "{0} is ~powered on | {0} is ~switched on | {0} is ~turned on",
        "calibrated": "{0} is ~calibrated | calibration of {0} is <complete|incomplete>",
        "have_image": "there is <an image of|no image of direction> {0} in {1} "
                      "| image of {0} <exists|does not exist> in {1}",
        "calibration_target": "{0} is ~calibrated for {1} "
                              "| calibration of {0} for {1} is <complete|incomplete> "
                              "| for {1}, {0} is ~calibrated",
    },
    "spanner": {
        "at": "{0} is ~at {1} | {0} is ~located at {1} | {0} is ~currently at {1}",
        "carrying": "{0} is ~carrying {1} | {1} is ~carried by {0}",
        "useable": "{0} is ~usable | {0} <can|can't> be used | {0} is ~functional",
        "link": "{0} is ~linked to {1} | {0} and {1} are ~linked "
                "| a link between {0} and {1} <exists|does not exist>",
        "tightened": "{0} is ~tightened | tightening of {0} is <complete|incomplete>",
        "loose": ("{0} is loose | {0} is not secured", "{0} is not loose | {0} is secured"),
    },
    "visitall": {
        "connected": "{0} is ~connected to {1} | {0} and {1} are ~connected "
                     "| there is <a|no> connection between {0} and {1}",
        "at_robot": "robot is ~at {0} | robot is ~located at {0} | robot is ~placed at {0}",
        "visited": "{0} is ~visited | {0} is ~marked as visited",
    },
    "zenotravel": {
        "at": "{0} is ~at {1} | {0} is ~located at {1} | {0} is ~present at {1}",
        "in": "{0} is ~in {1} | {0} is ~present in {1} | {0} is ~located in {1}",
        "fuel_level": "{0} <has|does not have> fuel level {1} "
                      "| {0}'s current fuel-level is ~{1} "
                      "| {0} <possesses|doesn't possesses> a fuel level of {1}",
        "next": "fuel level {1} is ~next to fuel level {0} "
                "| fuel-levels {1} and {0} are ~next to each other "
                "| fuel level {1} is ~next to {0}",
    },
}

_ACTIONS: dict[str, dict[str, Entry]] = {
    "blocksworld": {
        "pick_up": "block {0} is picked up | block {0} is picked up by the hand "
                   "| block {0} is picked up from the table",
        "put_down": "block {0} is put down | block {0} is put down on the table "
                    "| the hand puts down the block {0}",
        "stack": "block {0} is stacked on top of block {1} | on top of block {1}, block {0} is stacked",
        "unstack": "block {0} is unstacked from block {1} | block {0} is unstacked from top of "
                   "block {1} | from top of block {1}, block {0} is unstacked",
    },
    "depots": {
        "drive": "{0} is driven from {1} to {2} | {0} is driven to {2} from {1} "
                 "| from {1}, {0} is driven to {2}",
        "lift": "{0} lifts {1} from {2} at {3} | {1} is lifted from {2} at {3} by {0} "
                "| at {3}, {0} lifts {1} off {2}",
        "drop": "{0} drops {1} on {2} at {3} | {1} is dropped on {2} at {3} by {0} "
                "| at {3}, {0} drops {1} on {2}",
        "load": "{1} is loaded by {0} into {2} at {3} | {0} loads {1} into {2} at {3} "
                "| at {3}, {0} loads {1} into {2}",
        "unload": "{1} is unloaded by {0} from {2} at {3} | {0} unloads {1} from {2} at {3} "
                  "| at {3}, {0} unloads {1} from {2}",
    },
    "driverlog": {
        "load_truck": "{0} is loaded in {1} at location {2} | {1} is loaded with {0} at location {2} "
                      "| at location {2}, {0} is loaded in {1}",
        "unload_truck": "{0} is unloaded from {1} at location {2} "
                        "| {1} is unloaded with {0} at location {2} "
                        "| at location {2}, {0} is unloaded in {1}",
        "board_truck": "{0} boards {1} at location {2} | {1} is boarded by {0} at location {2} "
                       "| at location {2}, {0} boards {1}",
        "disembark_truck": "{0} disembarks from {1} at location {2} "
                           "| at location {2}, {0} disembarks from {1} "
                           "| from {1}, {0} disembarks at location {2}",
        "drive_truck": "{3} drives {0} from location {1} to location {2} "
                       "| {0} is driven from location {1} to {2} by {3} "
                       "| {3} drives {0} to location {2} from location {1}",
        "walk": "{0} walks from location {1} to location {2} | {0} walks to location {2} from "
                "location {1} | {0} walks from location {1} to {2}",
    },
    "goldminer": {
        "move": "robot moves from location {0} to location {1} | robot moves from locations {0} "
                "to {1} | robot moves to location {1} from location {0}",
        "pickup_laser": "laser is picked up at location {0} | at location {0}, laser is picked up "
                        "| robot picks up laser at location {0}",
        "pickup_bomb": "bomb is picked up at location {0} | at location {0}, bomb is picked up "
                       "| robot picks up bomb at location {0}",
        "putdown_laser": "robot puts down laser at location {0} "
                         "| at location {0}, robot puts down the laser "
                         "| laser is put down at location {0}",
        "detonate_bomb": "bomb is detontaed at location {1} from location {0} "
                         "| from location {0}, bomb is detonated at location {1} "
                         "| robot detonates bomb at location {1} from location {0}",
        "fire_laser": "laser is fired at location {1} from location {0} "
                      "| from location {0}, laser is fired at location {1} "
                      "| robot fires laser at location {1} from location {0}",
        "pick_gold": "gold is picked up at location {0} | at location {0}, gold is picked up "
                     "| robot picks up gold at location {0}",
    },
    "grippers": {
        "move": "{0} moves from {1} to {2} | {0} moves to {2} from {1} | from {1}, {0} moves to {2}",
        "pick": "{1} is picked from {2} with {3} by {0} | from {2}, {0}'s {3} picks up {1} "
                "| {3} of {0} picks up {1} in {2}",
        "drop": "{1} is dropped in {2} with {3} by {0} | in {2}, {0}'s {3} drops {1} "
                "| {3} of {0} drops {1} in {2}",
    },
    "logistics": {
        "load_truck": "package {0} is loaded in truck {1} at airport {2} "
                      "| at airport {2}, package {0} is loaded in truck {1} "
                      "| truck {1} is loaded with package {0} at airport {2}",
        "load_airplane": "package {0} is loaded into airplane {1} at airport {2} "
                         "| at airport {2}, package {0} is loaded in airplane {1} "
                         "| airplane {1} is loaded with package {0} at airport {2}",
        "unload_truck": "package {0} is unloaded from truck {1} at airport {2} "
                        "| at airport {2}, package {0} is unloaded from truck {1} "
                        "| from truck {1} package {0} is unloaded at airport {2}",
        "unload_airplane": "package {0} is unloaded from airplane {1} at airport {2} "
                           "| at airport {2}, package {0} is unloaded from airplane {1} "
                           "| from airplane {1} package {0} is unloaded at airport {2}",
        "drive_truck": "truck {0} is driven from airport {1} to airport {2} in city {3} "
                       "| truck {0} is driven to airport {2} from airport {1} in city {3} "
                       "| in city {3}, truck {0} is driven from airports {1} to {2}",
        "fly_airplane": "airplane {0} is flown from airport {1} to airport {2} "
                        "| airplane {0} is flown to airport {2} from airport {1} "
                        "| airplane {0} flies from airports {1} to {2}",
    },
    "miconic": {
        "board": "passenger {1} boards at floor {0} | passenger {1} boards at level {0} "
                 "| at floor {0}, passenger {1} boards the lift",
        "depart": "passenger {1} departs at floor {0} | passenger {1} departs at level {0} "
                  "| at floor {0}, passenger {1} departs the lift",
        "up": "the elevator goes up from floor {0} to floor {1} "
              "| the lift goes up to floor {1} from floor {0} "
              "| elevator goes from level {0} up to level {1}",
        "down": "the elevator goes down from floor {0} to floor {1} "
                "| the lift goes down to floor {1} from floor {0} "
                "| elevator goes from level {0} down to level {1}",
    },
    "mystery": {
        "move": "vehicle {0} moves to location {2} from location {1} that has fuel level {3} "
                "and {4} | vehicle {0} moves from location {1} which has fuel-levels {3} and {4} "
                "to location {2}",
        "load": "cargo {0} is loaded in vehicle {1} with space {3} and space {4} at location {2} "
                "| at location {2}, cargo {0} is loaded in vehicle {1} with spaces {3} and {4}",
        "unload": "cargo {0} is unloaded from vehicle {1} with space {3} and space {4} at "
                  "location {2} | at location {2}, cargo {0} is unloaded from vehicle {1} with "
                  "spaces {3} and {4}",
    },
    "npuzzle": {
        "move": "tile {0} is moved from position {1} to position {2} "
                "| tile {0} is moved to position {2} from postion {1} "
                "| tile {0} is moved from position {1} to {2}",
    },
    "satellite": {
        "turn_to": "{0} turns to {1} from {2} | {0} turns from {2} to {1} | from {2}, {0} turns to {1}",
        "switch_on": "{0} on {1} is switched on | {0} that is on {1} is turned on "
                     "| on {1}, {0} is switched on",
        "switch_off": "{0} on {1} is switched off | {0} that is on {1} is turned off "
                      "| on {1}, {0} is switched off",
        "calibrate": "{1} is calibrated on {0} to {2} | {1} that is on {0} is calibrated to {2} "
                     "| calibration of {1} which is on {0} to {2} is complete",
        "take_image": "image of {1} is taken with {2} on {0} in {3} "
                      "| {2} which is on {0} takes an image of {1} in {3} "
                      "| {0}'s {2} takes an image of {1} in {3}",
    },
    "spanner": {
        "walk": "{2} walks from {0} to {1} | {2} walks to {1} from {0} | from {0} to {1}, {2} walks",
        "pick_up_spanner": "{2} picks up {1} from {0} | from {0}, {2} picks up {1} "
                           "| {1} is picked up by {2} from {0}",
        "tighten_nut": "{2} tightens {3} with {1} at {0} | {3} is tightened by {2} using {1} at {0} "
                       "| at {0}, {2} uses {1} to tighten {3}",
    },
    "visitall": {
        "move": "moves from {0} to {1} | robot moves from {0} to {1} "
                "| from {0}, the robot moves to {1} | moves to {1} from {0}",
    },
    "zenotravel": {
        "board": "{0} boards {1} at {2} | {1} is boarded by {0} at {2} | at {2}, {0} boards {1}",
        "debark": "{0} debarks {1} at {2} | {1} is debarked by {0} at {2} | at {2}, {0} debarks {1}",
        "fly": "{0} flies from {1} to {2} with fuel level {3} to {4} "
               "| {0} with fuel-levels {3} to {4} flies from {1} to {2} "
               "| from {1}, {0} flies to {2} with fuel level {3} to {4}",
        "zoom": "{0} zooms from {1} to {2} with fuel level {3} to {5} "
                "| {0} with fuel-levels {3} to {5} zooms from {1} to {2} "
                "| from {1}, {0} zooms to {2} with fuel level {3} to {5} "
                "| {0} zooms from {1} to {2} and the fuel level drops from {3} to {5}",
        "refuel": "{0} gets refueled at {1} with fuel level {2} to {3} "
                  "| at {1}, {0} gets refueled with fuel levels {2} to {3} "
                  "| {0} with fuel-levels {2} and {3} gets refueled at {1}",
    },
}

#: What the 2024 generator said differently: (domain, "fluent"/"action", name) -> its entry.
#: Its driverlog drive_truck read the arguments in the wrong order (truck, driver, from, to),
#: its logistics drive_truck left the truck out of one wording, and its mystery told vehicles
#: by the name prefix "vehicle" (the final generator: "v").
_CHANGES_2024: dict[tuple[str, str, str], Entry] = {
    ("driverlog", "action", "drive_truck"):
        "{1} drives {0} from location {2} to location {3} "
        "| {0} is driven from location {2} to {3} by {1} "
        "| {1} drives {0} to location {3} from location {2}",
    ("logistics", "action", "drive_truck"):
        "truck {0} is driven from airport {1} to airport {2} in city {3} "
        "| truck {0} is driven to airport {2} from airport {1} in city {3} "
        "| in city {3}, truck is driven from airports {1} to {2}",
    ("mystery", "fluent", "at"): (Case(0, ("vehicle",), _VEHICLE_AT), Case(0, None, _CARGO_AT)),
}
@dataclass(frozen=True)
class Phrase:
    """One wording: of a fluent (``positive`` says its sign) or an action (always positive);
    ``template`` holds ``{i}`` for argument ``i``; ``when`` the name condition, if any."""

    kind: str  # "fluent" or "action"
    name: str
    positive: bool
    template: str
    when: Case | None = None

    def render(self, args: tuple[str, ...]) -> str:
        return self.template.format(*args)


_SIGN = re.compile(r"<([^|>]*)\|([^>]*)>")


def _signed(spec: str, positive: bool) -> str:
    text = spec.replace("~", "" if positive else "not ")
    return _SIGN.sub(lambda m: m.group(1 if positive else 2), text)


def _wordings(spec: Spec, positive: bool) -> list[str]:
    text = spec[0 if positive else 1] if isinstance(spec, tuple) else _signed(spec, positive)
    return [w.strip() for w in text.split(" | ")]


def _expand(kind: str, name: str, entry: Entry) -> list[Phrase]:
    # Ignored below: an entry that is no tuple of cases is a Spec, which mypy cannot tell from
    # the first item (tuple[str, str] and tuple[Case, ...] are both tuples).
    cases = entry if isinstance(entry, tuple) and entry and isinstance(entry[0], Case) \
        else (Case(0, None, entry),)  # type: ignore[arg-type]
    found = []
    for case in cases:
        earlier = [c for c in cases[:cases.index(case)] if c.prefixes is not None]
        # "otherwise" cases apply where no earlier prefix case did: keep that as a condition
        when = case if case.prefixes is not None else (
            Case(earlier[0].arg, None, case.spec) if earlier else None)
        signs = (True, False) if kind == "fluent" else (True,)
        for positive in signs:
            for template in _wordings(case.spec, positive):
                found.append(Phrase(kind, name, positive, template, when))
    return found


def _excluded_prefixes(entry: Entry) -> tuple[str, ...]:
    if isinstance(entry, tuple) and entry and isinstance(entry[0], Case):
        return tuple(p for c in entry if c.prefixes for p in c.prefixes)
    return ()


@dataclass(frozen=True, eq=False)  # one object per domain and version: hashed by identity
class PhraseBook:
    """Every wording of one domain under one generator version."""

    domain: str
    version: str
    phrases: tuple[Phrase, ...]
    #: name -> prefixes that an "otherwise" case excludes (mystery's cargo wording is used
    #: exactly when the name does *not* start with the vehicle prefix)
    otherwise: tuple[tuple[tuple[str, str], tuple[str, ...]], ...]

    def usable(self, phrase: Phrase, args: tuple[str, ...]) -> bool:
        """Whether ARB would render ``args`` with ``phrase`` (name conditions included)."""
        if phrase.when is None:
            return True
        if phrase.when.prefixes is not None:
            return args[phrase.when.arg].startswith(phrase.when.prefixes)
        excluded = dict(self.otherwise).get((phrase.kind, phrase.name), ())
        return not args[phrase.when.arg].startswith(excluded)

    def wordings(self, kind: str, name: str, positive: bool, args: tuple[str, ...]) -> list[str]:
        """ARB's wordings of one ground fluent or action (empty: ARB cannot render it)."""
        return [p.render(args) for p in self.phrases
                if p.kind == kind and p.name == name and p.positive == positive
                and self.usable(p, args)]


def make_phrase_book(domain: str, version: str, fluents: dict[str, Entry],
                     actions: dict[str, Entry]) -> PhraseBook:
    """A phrase book from tables in this module's notation (a domain of one's own)."""
    phrases: list[Phrase] = []
    otherwise = []
    for kind, table in (("fluent", fluents), ("action", actions)):
        for name, entry in table.items():
            phrases.extend(_expand(kind, name, entry))
            excluded = _excluded_prefixes(entry)
            if excluded:
                otherwise.append(((kind, name), excluded))
    return PhraseBook(domain, version, tuple(phrases), tuple(otherwise))


@functools.cache
def phrase_book(domain: str, version: str = "final") -> PhraseBook:
    """The wordings of ``domain`` (one of the built-in tables' domains, else ``KeyError``) under
    generator ``version``."""
    if version not in VERSIONS:
        raise ValueError(f"unknown ARB generator version {version!r}")
    changes = _CHANGES_2024 if version == "2024" else {}
    fluents = {n: changes.get((domain, "fluent", n), e) for n, e in _FLUENTS[domain].items()}
    actions = {n: changes.get((domain, "action", n), e) for n, e in _ACTIONS[domain].items()}
    return make_phrase_book(domain, version, fluents, actions)
