"""Gripper: rooms side by side, balls in them, the robot with its grippers and what they carry.

Roles come from the type facts ``(room x)``, ``(ball x)``, ``(gripper x)`` first and from how an
object is used second, so an answer that forgets a type fact still draws (its missing fact is
then marked on the ground-truth side).  Each ball is drawn once: in a gripper if something
carries it, else in the first room it is at; a second location stays in the list below.
"""

from __future__ import annotations

from ..markup import label
from .canvas import INK, Canvas, Fact, Scene, SceneDrawer

ROOM_W, BALL_R, TOP = 150, 13, 22


def _roles(scene: Scene) -> dict[str, str]:
    roles: dict[str, str] = {f[1]: "room" for f in scene.layout_facts("room", 1)}  # all rooms
    for kind in ("room", "gripper", "ball"):
        for fact in scene.with_predicate(kind, 1):
            roles.setdefault(fact[1], kind)
    uses = [("at-robby", 1, "room"), ("at", 2, "room"), ("at", 1, "ball"), ("free", 1, "gripper"),
            ("carry", 2, "gripper"), ("carry", 1, "ball")]
    for predicate, position, kind in uses:
        for fact in scene.with_predicate(predicate):
            if len(fact) > position:
                roles.setdefault(fact[position], kind)
    return roles


def draw(scene: Scene, canvas: Canvas) -> None:
    roles = _roles(scene)
    rooms = sorted(o for o, r in roles.items() if r == "room")
    grippers = sorted(o for o, r in roles.items() if r == "gripper")
    carried: dict[str, str] = {}  # gripper -> ball
    placed: set[str] = set()
    for _, ball, gripper in scene.with_predicate("carry", 2):
        if roles.get(ball) == "ball" and gripper in grippers and gripper not in carried \
                and ball not in placed:
            carried[gripper] = ball
            placed.add(ball)
    robby = next((f for f in scene.with_predicate("at-robby", 1) if f[1] in rooms), None)
    in_room: dict[str, list[Fact]] = {room: [] for room in rooms}
    for fact in scene.with_predicate("at", 2):
        if fact[2] in in_room and roles.get(fact[1]) == "ball" and fact[1] not in placed:
            in_room[fact[2]].append(fact)
            placed.add(fact[1])
    rows = max([(len(balls) + 3) // 4 for balls in in_room.values()] + [1])
    height = 22 + rows * 32 + 70
    for index, room in enumerate(rooms):
        x = 10 + index * (ROOM_W + 20)
        canvas.shape("rect", {"x": x, "y": TOP, "width": ROOM_W, "height": height, "rx": 6,
                              "fill": "#f1f8e9", "stroke": INK},
                     facts=[("room", room)], objects=[room])
        canvas.text(x + ROOM_W / 2, TOP - 6, label(room))
        for slot, fact in enumerate(in_room[room]):
            _ball(canvas, fact[1], x + 22 + (slot % 4) * 35, TOP + 22 + (slot // 4) * 32,
                  [fact])
        if robby and robby[1] == room:
            _robot(canvas, robby, grippers, carried, x + 10, TOP + height - 62)
    below = TOP + height + 20
    if robby is None and grippers:  # a robot in no room (a goal about grippers): under the rooms
        canvas.text(10, below + 10, "robby, in no room:", text_anchor="start")
        _robot(canvas, None, grippers, carried, 130, below)
        below += 70
    _nowhere(canvas, roles, placed, below + 20)


def _ball(canvas: Canvas, ball: str, cx: float, cy: float, facts: list[Fact]) -> None:
    canvas.shape("circle", {"cx": cx, "cy": cy, "r": BALL_R, "fill": "#ffcc80", "stroke": INK},
                 facts=[("ball", ball), *facts], objects=[ball])
    canvas.text(cx, cy + 4, label(ball)[:6], font_size=9)


def _robot(canvas: Canvas, robby: Fact | None, grippers: list[str],
           carried: dict[str, str], x: float, y: float) -> None:
    width = max(len(grippers), 1) * 40 + 10
    canvas.shape("rect", {"x": x, "y": y, "width": width, "height": 14, "rx": 4,
                          "fill": "#cfd8dc", "stroke": INK},
                 facts=[robby] if robby else [], tooltip="robby" + (f" (at-robby {robby[1]})"
                                                                   if robby else ""))
    canvas.text(x + width / 2, y + 11, "robby", font_size=9)
    for index, gripper in enumerate(grippers):
        gx = x + 10 + index * 40
        canvas.shape("rect", {"x": gx, "y": y + 16, "width": 32, "height": 26, "rx": 4,
                              "fill": "#eceff1", "stroke": INK},
                     facts=[("gripper", gripper), ("free", gripper)], objects=[gripper])
        canvas.text(gx + 16, y + 54, label(gripper)[:8], font_size=9)
        if gripper in carried:
            ball = carried[gripper]
            _ball(canvas, ball, gx + 16, y + 29, [("carry", ball, gripper)])


def _nowhere(canvas: Canvas, roles: dict[str, str], placed: set[str], y: float) -> None:
    """Balls the state puts in no room and no gripper (a goal that does not mention them)."""
    loose = sorted(o for o, r in roles.items() if r == "ball" and o not in placed)
    if not loose:
        return
    canvas.text(10, y - 18, "balls in no room or gripper:", text_anchor="start")
    for index, ball in enumerate(loose):
        _ball(canvas, ball, 24 + (index % 12) * 32, y + (index // 12) * 32, [])


DRAWER = SceneDrawer("gripper", draw)
