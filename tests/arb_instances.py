"""Small instances of ARB's thirteen domains, written for the tests (ARB-like object names)."""

from __future__ import annotations


def _atoms(text: str) -> frozenset[tuple]:
    return frozenset(tuple(a.split()) for a in text.split(";") if a.strip())


def _objects(text: str) -> dict[str, str]:
    out = {}
    for group in text.split(";"):
        kind, names = group.split(":")
        out.update({n: kind.strip() for n in names.split()})
    return out


INSTANCES: dict[str, tuple[dict[str, str], frozenset[tuple]]] = {
    "blocksworld": (_objects("block: b1 b2 b3 b4"), _atoms(
        "ontable b1; ontable b2; on b3 b1; on b4 b2; clear b3; clear b4; handempty")),
    "grippers": (_objects("robot: robot1; gripper: lgripper1 rgripper1; room: room1 room2 room3;"
                          " object: ball1 ball2 ball3"), _atoms(
        "at_robby robot1 room1; at ball1 room1; at ball2 room2; at ball3 room1;"
        "free robot1 lgripper1; free robot1 rgripper1")),
    "depots": (_objects("depot: depot0; distributor: distributor0; truck: truck0;"
                        "hoist: hoist0 hoist1; pallet: pallet0 pallet1; crate: crate0 crate1"),
               _atoms("at pallet0 depot0; at pallet1 distributor0; at hoist0 depot0;"
                      "at hoist1 distributor0; at truck0 depot0; at crate0 depot0;"
                      "on crate0 pallet0; at crate1 distributor0; on crate1 pallet1; clear crate0;"
                      "clear crate1; available hoist0; available hoist1")),
    "driverlog": (_objects("location: s0 s1 p0_1; driver: driver1; truck: truck1; obj: package1"),
                  _atoms("at driver1 s0; at truck1 s0; empty truck1; at package1 s0; link s0 s1;"
                         "link s1 s0; path s0 p0_1; path p0_1 s0; path p0_1 s1; path s1 p0_1")),
    "goldminer": (_objects("loc: f0-0f f0-1f f0-2f"), _atoms(
        "robot_at f0-0f; clear f0-0f; connected f0-0f f0-1f; connected f0-1f f0-0f;"
        "connected f0-1f f0-2f; connected f0-2f f0-1f; soft_rock_at f0-1f; gold_at f0-2f;"
        "laser_at f0-0f; bomb_at f0-0f; arm_empty")),
    "logistics": (_objects("city: c0 c1; location: l0_0; airport: l0_1 l1_1; truck: t0 t1;"
                           "airplane: a0; package: p0 p1"), _atoms(
        "in_city l0_0 c0; in_city l0_1 c0; in_city l1_1 c1; at t0 l0_0; at t1 l1_1; at a0 l0_1;"
        "at p0 l0_0; at p1 l0_1")),
    "miconic": (_objects("floor: f0 f1 f2; passenger: p0 p1"), _atoms(
        "above f0 f1; above f0 f2; above f1 f2; origin p0 f1; destin p0 f2; origin p1 f2;"
        "destin p1 f0; lift_at f0")),
    "mystery": (_objects("location: l0 l1; vehicle: v0; cargo: c0; fuel: f0 f1 f2;"
                         "space: s0 s1"), _atoms(
        "at v0 l0; at c0 l0; conn l0 l1; conn l1 l0; has_fuel l0 f2; has_fuel l1 f1;"
        "fuel_neighbor f0 f1; fuel_neighbor f1 f2; has_space v0 s1; space_neighbor s0 s1")),
    "npuzzle": (_objects("tile: t_1 t_2 t_3; position: p_1_1 p_1_2 p_2_1 p_2_2"), _atoms(
        "at t_1 p_1_1; at t_2 p_1_2; at t_3 p_2_1; empty p_2_2; neighbor p_1_1 p_1_2;"
        "neighbor p_1_2 p_1_1; neighbor p_1_1 p_2_1; neighbor p_2_1 p_1_1; neighbor p_1_2 p_2_2;"
        "neighbor p_2_2 p_1_2; neighbor p_2_1 p_2_2; neighbor p_2_2 p_2_1")),
    "satellite": (_objects("satellite: satellite0; instrument: instrument0;"
                           "mode: thermograph0 image1; direction: groundstation0 star1 phenomenon2"),
                  _atoms("on_board instrument0 satellite0; supports instrument0 image1;"
                         "supports instrument0 thermograph0;"
                         "calibration_target instrument0 groundstation0; power_avail satellite0;"
                         "pointing satellite0 star1")),
    "spanner": (_objects("location: shed location1 gate; man: bob; spanner: spanner1 spanner2;"
                         "nut: nut1"), _atoms(
        "at bob shed; at spanner1 location1; at spanner2 shed; useable spanner1;"
        "useable spanner2; at nut1 gate; loose nut1; link shed location1; link location1 gate")),
    "visitall": (_objects("place: loc_x0_y0 loc_x0_y1 loc_x1_y0 loc_x1_y1"), _atoms(
        "connected loc_x0_y0 loc_x0_y1; connected loc_x0_y1 loc_x0_y0;"
        "connected loc_x0_y0 loc_x1_y0; connected loc_x1_y0 loc_x0_y0;"
        "connected loc_x0_y1 loc_x1_y1; connected loc_x1_y1 loc_x0_y1;"
        "at_robot loc_x0_y0; visited loc_x0_y0")),
    "zenotravel": (_objects("city: city0 city1; aircraft: plane1; person: person1 person2;"
                            "flevel: fl0 fl1 fl2"), _atoms(
        "at plane1 city0; at person1 city0; at person2 city1; fuel_level plane1 fl2;"
        "next fl0 fl1; next fl1 fl2")),
}
