"""Dataset layouts for Gripper: where the balls are, which grippers hold one, and what to reach.

A parameter is a mapping ``{"balls_in_grippers": [1, ..., 1, 0, ..., 0], "balls_in_rooms":
[count per room]}``, the published generator's vocabulary: the first k grippers hold the first
k balls, the other balls lie room by room.  It sizes the objects (one room per count, one
gripper per flag, every ball counted) and each layout reads it its own way, exactly as the
published generator did, with atoms in its order (the explicit texts list them in that order,
one sentence each, as the published ones did):

* one_room puts every ball in room1 and frees every gripper, whatever the parameter says;
  evenly_distributed puts ball i in room ((i - 1) mod rooms) + 1 (any room count that divides
  the balls, one room included); swap does so over two rooms (an even number of balls) and its
  goal trades the two rooms' balls;
* n_room_distributed places the balls room by room as counted (nothing held); holding also
  lets the first grippers hold the first balls, and as a goal asks only which grippers hold
  which balls (with nothing held: every gripper free, the balls anywhere); juggle (two or more
  held balls, every other ball in room1) rotates the held balls by one gripper;
* focus_max / focus_min bring every ball to the room that starts with the most / fewest balls
  (only where that room is unique); pickup has every ball carried, held balls staying put;
  drop_and_pickup drops the held balls in the first empty room after room1 and has the balls
  that lay in rooms carried by gripper1, gripper2, ...  focus_max, focus_min and
  drop_and_pickup read the start from the parameter, so they fit only an initial state that
  placed the balls as the parameter says (one_room and evenly_distributed may not have: their
  texts could not be true).

Robby always starts in room1; the kind atoms ``room``, ``ball``, ``gripper`` are part of every
initial state.  The dataset's ``init_num_propositions`` leaves out ``at-robby``, as the
published one did.

Why the texts look the way they do: every row must determine its ground truth, up to what the
row's grading mode forgives.  Placeholder rows (an abstract part) compare init and goal each up
to renaming, so an abstract text must pin the state's *shape* (how many balls in which room,
where robby is).  Tied and strict layouts (swap, juggle, focus_max, focus_min,
drop_and_pickup) are graded with object identity, so their abstract texts name the objects that
matter.  The published texts never stated robby's room or the object kinds although the ground
truth's init contains them, and some contradicted their ground truth (a holding start or goal
with nothing held was "1 balls are distributed across the same number of grippers"); ours state
both and say what the ground truth says, and carry as de-duplication key what the published text
stated (:mod:`planetarium.tasks`), so the same rows survive.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import product

from ...tasks import Atom, DoesNotFit, DomainTasks, ExplicitTemplates, Instance, Layout, Param
from ...tasks.text import join_words, name_list, plural


@dataclass(frozen=True)
class _Objects:
    """A parameter, checked, and the objects it sizes."""

    held: int  # the first `held` grippers hold the first `held` balls
    in_rooms: tuple[int, ...]
    n_grippers: int

    @classmethod
    def parse(cls, param: Param) -> _Objects:
        """Malformed parameters are configuration errors, not 'does not fit' (never skipped)."""
        if not isinstance(param, Mapping) or set(param) != {"balls_in_grippers", "balls_in_rooms"}:
            raise ValueError(f"gripper parameter needs balls_in_grippers and balls_in_rooms: {param!r}")
        flags, rooms = list(param["balls_in_grippers"]), list(param["balls_in_rooms"])
        held = sum(1 for f in flags if f == 1)
        if not flags or flags != [1] * held + [0] * (len(flags) - held):
            raise ValueError(f"balls_in_grippers must be 1s then 0s, one per gripper: {param!r}")
        if not rooms or any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in rooms):
            raise ValueError(f"balls_in_rooms must be a non-empty list of counts: {param!r}")
        if held + sum(rooms) == 0:
            raise DoesNotFit("a problem needs at least one ball")
        return cls(held, tuple(rooms), len(flags))

    @cached_property
    def rooms(self) -> tuple[str, ...]:
        return tuple(f"room{i}" for i in range(1, len(self.in_rooms) + 1))

    @cached_property
    def balls(self) -> tuple[str, ...]:
        return tuple(f"ball{i}" for i in range(1, self.held + sum(self.in_rooms) + 1))

    @cached_property
    def grippers(self) -> tuple[str, ...]:
        return tuple(f"gripper{i}" for i in range(1, self.n_grippers + 1))

    @cached_property
    def objects(self) -> tuple[str, ...]:
        return self.rooms + self.balls + self.grippers

    def counted(self) -> list[Atom]:
        """Balls placed room by room as counted, after the held ones."""
        balls = iter(self.balls[self.held:])
        return [("at", next(balls), room) for room, n in zip(self.rooms, self.in_rooms, strict=True)
                for _ in range(n)]

    def carried(self, held: int) -> list[Atom]:
        """The first ``held`` grippers carry the first ``held`` balls; the others are free."""
        return ([("carry", self.balls[i], self.grippers[i]) for i in range(held)]
                + [("free", g) for g in self.grippers[held:]])

    def free(self) -> list[Atom]:
        return [("free", g) for g in self.grippers]

    def spread(self, balls: Sequence[str], rooms: Sequence[str]) -> list[Atom]:
        """Ball i to room i mod len(rooms), listed room by room."""
        return [("at", b, r) for i, r in enumerate(rooms) for b in balls[i::len(rooms)]]


# --- the published states, atoms in its order ---------------------------------------------


def _one_room(o: _Objects) -> list[Atom]:
    return o.free() + [("at", b, o.rooms[0]) for b in o.balls]


def _evenly(o: _Objects) -> list[Atom]:
    if len(o.balls) % len(o.rooms):
        raise DoesNotFit("the balls do not divide evenly among the rooms")
    return o.free() + o.spread(o.balls, o.rooms)


def _n_rooms(o: _Objects) -> list[Atom]:
    if o.held:
        raise DoesNotFit("n_room_distributed has every gripper free")
    return o.free() + o.counted()


def _swap(o: _Objects, goal: bool) -> list[Atom]:
    if len(o.rooms) != 2 or len(o.balls) % 2:
        raise DoesNotFit("swap needs two rooms and an even number of balls")
    return o.free() + o.spread(o.balls[::-1] if goal else o.balls, o.rooms)


def _juggle(o: _Objects, goal: bool) -> list[Atom]:
    if o.held < 2 or any(o.in_rooms[1:]):
        raise DoesNotFit("juggle needs two held balls and every other ball in room1")
    held = list(o.balls[:o.held])
    if goal:
        held = held[1:] + held[:1]
    carried: list[Atom] = [("carry", b, g) for b, g in zip(held, o.grippers[:o.held], strict=True)]
    return (carried + [("free", g) for g in o.grippers[o.held:]]
            + [("at", b, o.rooms[0]) for b in o.balls[o.held:]])


def _holding(o: _Objects) -> list[Atom]:
    return o.carried(o.held) + o.counted()


def _extreme_room(o: _Objects, pick: Callable[[Sequence[int]], int]) -> str:
    if len(o.rooms) < 2 or sum(o.in_rooms) < 2:
        raise DoesNotFit("needs two rooms and two balls in rooms")
    target = pick(o.in_rooms)
    if o.in_rooms.count(target) > 1:
        raise DoesNotFit("the room with the most / fewest balls is not unique")
    return o.rooms[o.in_rooms.index(target)]


def _focus(o: _Objects, pick: Callable[[Sequence[int]], int]) -> list[Atom]:
    room = _extreme_room(o, pick)
    return o.free() + [("at", b, room) for b in o.balls]


def _pickup(o: _Objects) -> list[Atom]:
    if len(o.balls) > len(o.grippers):
        raise DoesNotFit("more balls than grippers")
    return [("carry", b, g) for b, g in zip(o.balls, o.grippers[:len(o.balls)], strict=True)]


def _drop_room(o: _Objects) -> str:
    """The first room after room1 that starts without balls."""
    if 0 not in o.in_rooms[1:]:
        raise DoesNotFit("no empty room besides room1")
    return o.rooms[o.in_rooms.index(0, 1)]


def _drop_and_pickup(o: _Objects) -> list[Atom]:
    if sum(o.in_rooms) > len(o.grippers):
        raise DoesNotFit("more loose balls than grippers")
    room, loose = _drop_room(o), o.balls[o.held:]
    dropped: list[Atom] = [("at", b, room) for b in o.balls[:o.held]]
    return (dropped + [("carry", b, g) for b, g in zip(loose, o.grippers[:len(loose)], strict=True)])


#: Goals that refer to the start as the parameter counts it (see the module docstring).
_FROM_THE_PARAMETER = frozenset({"focus_max", "focus_min", "drop_and_pickup"})

_INITS: dict[str, Callable[[_Objects], list[Atom]]] = {
    "one_room": _one_room,
    "evenly_distributed": _evenly,
    "n_room_distributed": _n_rooms,
    "swap": lambda o: _swap(o, False),
    "juggle": lambda o: _juggle(o, False),
    "holding": _holding,
}
_GOALS: dict[str, Callable[[_Objects], list[Atom]]] = {
    "one_room": _one_room,
    "evenly_distributed": _evenly,
    "n_room_distributed": _n_rooms,
    "swap": lambda o: _swap(o, True),
    "juggle": lambda o: _juggle(o, True),
    "holding": lambda o: o.carried(o.held),
    "focus_max": lambda o: _focus(o, max),
    "focus_min": lambda o: _focus(o, min),
    "pickup": _pickup,
    "drop_and_pickup": _drop_and_pickup,
}


# --- texts -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Scene:
    """Where a state puts each ball (a room or a gripper), for the texts."""

    objects: _Objects
    place: Mapping[str, str]

    @classmethod
    def of(cls, objects: _Objects, atoms: Sequence[Atom]) -> _Scene:
        return cls(objects, {a[1]: a[2] for a in atoms if a[0] in ("at", "carry")})

    def holders(self) -> dict[str, str]:
        """gripper -> ball it carries."""
        return {where: ball for ball, where in self.place.items() if where.startswith("gripper")}

    def in_room(self, room: str) -> list[str]:
        return [b for b in self.objects.balls if self.place.get(b) == room]

    def as_counted(self) -> bool:
        """Whether the state holds and places the balls as the parameter counts them."""
        return (len(self.holders()) == self.objects.held
                and tuple(len(self.in_room(r)) for r in self.objects.rooms) == self.objects.in_rooms)


def _every_other(names: Sequence[str]) -> str:
    """Every-other-numbered objects (ball1, ball3, ..., ball9)."""
    return join_words(names) if len(names) <= 3 else f"{names[0]}, {names[1]}, ..., {names[-1]}"


def _sentences(*clauses: str) -> str:
    """Non-empty clauses as sentences (object names keep their lower case, as in PDDL)."""
    return " ".join(f"{c}." for c in clauses if c)


def _intro(o: _Objects) -> str:
    return (
        f"You have {plural(len(o.rooms), 'room')} ({name_list(o.rooms)}), "
        f"{plural(len(o.balls), 'ball')} ({name_list(o.balls)}) and "
        f"{plural(len(o.grippers), 'gripper')} ({name_list(o.grippers)}) on the robot robby, "
        f"which is in {o.rooms[0]}."
    )


def _held_clause(scene: _Scene) -> str:
    holders = scene.holders()
    return join_words([f"{g} holds {holders[g]}" for g in scene.objects.grippers if g in holders])


def _free_clause(scene: _Scene, should: bool) -> str:
    holders = scene.holders()
    free = [g for g in scene.objects.grippers if g not in holders]
    if not free:
        return ""
    if not holders:
        return "every gripper should be free" if should else "Every gripper is free"
    verb = "should be" if should else "is" if len(free) == 1 else "are"
    return f"{name_list(free)} {verb} free"


def _rooms_clause(scene: _Scene, *, named: bool, verb: str = "has") -> str:
    """Per room, in order: 'room1 has 2 balls (ball2 and ball3)', 'room2 has no balls'."""
    parts = []
    for room in scene.objects.rooms:
        inside = scene.in_room(room)
        if not inside:
            parts.append(f"{room} {verb} no balls")
        else:
            parts.append(f"{room} {verb} {plural(len(inside), 'ball')}"
                         + (f" ({name_list(inside)})" if named else ""))
    return join_words(parts)


def _abstract_init(layout: str, scene: _Scene) -> str:
    o = scene.objects
    match layout:
        case "one_room":
            body = f"All the balls are in {o.rooms[0]} and every gripper is free."
        case "evenly_distributed" if len(o.rooms) > 1:
            body = (f"The balls are spread evenly over the rooms, {len(o.balls) // len(o.rooms)} in "
                    "each room, and every gripper is free.")
        case "evenly_distributed":
            body = f"All the balls are in {o.rooms[0]}, the only room, and every gripper is free."
        case "swap":
            body = (f"The odd-numbered balls ({_every_other(o.balls[0::2])}) are in "
                    f"{o.rooms[0]}, the even-numbered balls ({_every_other(o.balls[1::2])}) "
                    f"are in {o.rooms[1]}, and every gripper is free.")
        case "n_room_distributed":
            body = _sentences("Every gripper is free, and the balls lie in the rooms: "
                              + _rooms_clause(scene, named=True))
        case _ if not scene.holders():  # holding with nothing held
            body = _sentences("No gripper holds a ball and every gripper is free",
                              _rooms_clause(scene, named=True))
        case _:  # holding, juggle: every held ball and every room, balls named
            body = _sentences(_held_clause(scene), _rooms_clause(scene, named=True),
                              _free_clause(scene, False))
    return f"{_intro(o)} {body}"


def _abstract_goal(layout: str, o: _Objects, goal: Sequence[Atom]) -> str:
    end = _Scene.of(o, goal)
    match layout:
        case "one_room":
            return f"Your goal is to gather all the balls in {o.rooms[0]}, with every gripper free."
        case "evenly_distributed" if len(o.rooms) > 1:
            return (f"Your goal is to spread the balls evenly over the rooms, "
                    f"{len(o.balls) // len(o.rooms)} in each room, with every gripper free.")
        case "evenly_distributed":
            return f"Your goal is to have all the balls in {o.rooms[0]}, with every gripper free."
        case "n_room_distributed":
            return (f"Your goal is that {_rooms_clause(end, named=False, verb='should have')}, "
                    "with every gripper free.")
        case "holding":
            carrying = [g for g in o.grippers if g in end.holders()]
            free = _free_clause(end, True)
            if not carrying:
                return f"Your goal is that {free}; the balls may be in any room."
            each = "each " if len(carrying) > 1 else ""
            return (f"Your goal is that {join_words(carrying)} should {each}carry a ball"
                    + (f" and {free}." if free else "."))
        case "swap":
            return (f"Your goal is to swap the balls between {o.rooms[0]} and {o.rooms[1]}: "
                    "every ball should end up in the room it did not start in, with every gripper free.")
        case "juggle":
            used = o.grippers[:o.held]
            turns = [f"{g} should hold the ball {nxt} holds now"
                     for g, nxt in zip(used, (*used[1:], used[0]), strict=True)]
            return ("Your goal is to rotate the held balls by one gripper: " + join_words(turns)
                    + "; every other ball should stay in its room and every other gripper free.")
        case "focus_max" | "focus_min":
            most = "most" if layout == "focus_max" else "fewest"
            return (f"Your goal is to bring every ball to the room that started with the {most} "
                    f"balls ({goal[-1][2]}), with every gripper free.")
        case "pickup":
            return ("Your goal is for the robot to carry every ball, one ball per gripper; "
                    "balls already held stay in their grippers.")
        case "drop_and_pickup":
            dropped = [a[1] for a in goal if a[0] == "at"]
            carried = [a[1] for a in goal if a[0] == "carry"]
            parts = []
            if dropped:
                parts.append(f"drop every held ball ({name_list(dropped)}) in {_drop_room(o)}, "
                             f"the first room after {o.rooms[0]} that starts with no balls")
            if carried:
                parts.append(f"pick up the balls that started in rooms ({name_list(carried)}), "
                             "the first of them with gripper1, the next with gripper2, and so on")
            return f"Your goal is to {' and to '.join(parts)}."
    raise AssertionError(layout)


# What the published abstract texts stated (the de-duplication keys): an initial state's gave the
# object counts and at most the rooms' ball counts (in order of first occurrence) or a number of
# held balls (juggle and holding shared one sentence); a goal's at most one of those two.


def _published_init_key(layout: str, o: _Objects) -> Hashable:
    counts = (len(o.rooms), len(o.balls), len(o.grippers))
    if layout == "n_room_distributed":
        return layout, counts, tuple(Counter(o.in_rooms).items())
    if layout in ("juggle", "holding"):
        return "held", counts, o.held if layout == "juggle" else max(o.held, 1)
    return layout, counts


def _published_goal_key(layout: str, o: _Objects) -> Hashable:
    if layout == "n_room_distributed":
        return layout, tuple(Counter(o.in_rooms).items())
    if layout == "holding":
        return layout, max(o.held, 1)
    return (layout,)


# --- explicit texts and the build entry point ----------------------------------------------


def _explicit_intro(objects: tuple[str, ...], types: tuple[str, ...] | None) -> str:
    kinds = [sum(1 for o in objects if o.startswith(k)) for k in ("room", "ball", "gripper")]
    return (f"You have {plural(kinds[0], 'room')}, {plural(kinds[1], 'ball')} and "
            f"{plural(kinds[2], 'gripper')}.")


EXPLICIT = ExplicitTemplates(
    intro=_explicit_intro,
    sentences={
        "room": ("{0} is a room.", "{0} should be a room."),
        "ball": ("{0} is a ball.", "{0} should be a ball."),
        "gripper": ("{0} is a gripper.", "{0} should be a gripper."),
        "at-robby": ("The robby is in {0}.", "The robby should be in {0}."),
        "at": ("{0} is in {1}.", "{0} should be in {1}."),
        "free": ("{0} is free.", "{0} should be free."),
        "carry": ("{1} is carrying {0}.", "{1} should be carrying {0}."),
    },
)


@dataclass(frozen=True)
class _Side:
    """One side of a problem, with its texts: cached, as one initial state meets many goals."""

    atoms: tuple[Atom, ...]
    abstract: str
    explicit: str
    key: Hashable
    as_counted: bool = True


@cache
def _start(layout: str, o: _Objects) -> _Side:
    atoms = _INITS[layout](o)
    scene = _Scene.of(o, atoms)
    kinds = ([("room", r) for r in o.rooms] + [("ball", b) for b in o.balls]
             + [("gripper", g) for g in o.grippers])
    full = (("at-robby", o.rooms[0]), *kinds, *atoms)
    return _Side(full, _abstract_init(layout, scene), EXPLICIT.render(full, True, o.objects),
                 _published_init_key(layout, o), scene.as_counted())


@cache
def _end(layout: str, o: _Objects) -> _Side:
    atoms = tuple(_GOALS[layout](o))
    return _Side(atoms, _abstract_goal(layout, o, atoms), EXPLICIT.render(atoms, False),
                 _published_goal_key(layout, o))


def build(init: Layout, goal: Layout, param: Param) -> Instance:
    """One Gripper problem for ``init -> goal`` sized by ``param`` (or :class:`DoesNotFit`)."""
    o = _Objects.parse(param)
    start = _start(init.name, o)
    if goal.name in _FROM_THE_PARAMETER and not start.as_counted:
        raise DoesNotFit(f"{goal.name} reads the start from the parameter, which {init.name} rearranged")
    end = _end(goal.name, o)
    return Instance(
        objects=o.objects, init=start.atoms, goal=end.atoms,
        init_explicit=start.explicit, goal_explicit=end.explicit,
        init_abstract=start.abstract, goal_abstract=end.abstract,
        init_abstract_key=start.key, goal_abstract_key=end.key,
        init_size=len(start.atoms) - 1,  # at-robby is not counted (the published count)
    )


# --- parameter spaces (data/full.yaml lists the published parameters instead) ---------------


def _param(held: int, grippers: int, rooms: Sequence[int]) -> dict[str, list[int]]:
    return {"balls_in_grippers": [1] * held + [0] * (grippers - held), "balls_in_rooms": list(rooms)}


def _space_one_room(max_balls: int = 10, max_rooms: int = 4) -> list[Param]:
    """All balls in room1 of 1..max_rooms rooms, two grippers."""
    return [_param(0, 2, [n] + [0] * (r - 1))
            for r, n in product(range(1, max_rooms + 1), range(1, max_balls + 1))]


def _space_evenly(max_rooms: int = 4, max_per_room: int = 4) -> list[Param]:
    """1..max_per_room balls in each of 1..max_rooms rooms, two grippers."""
    return [_param(0, 2, [k] * r) for r, k in product(range(1, max_rooms + 1), range(1, max_per_room + 1))]


def _space_n_rooms(max_rooms: int = 3, max_per_room: int = 3) -> list[Param]:
    """Every vector of 1..max_per_room balls over 1..max_rooms rooms, two grippers."""
    return [_param(0, 2, rooms) for r in range(1, max_rooms + 1)
            for rooms in product(range(1, max_per_room + 1), repeat=r)]


def _space_swap(max_balls: int = 12) -> list[Param]:
    """Two rooms; every total of balls, split in every way, two grippers (swap uses the total)."""
    return [_param(0, 2, [a, n - a]) for n in range(2, max_balls + 1) for a in range(1, n)]


def _space_held(min_held: int) -> Callable[..., list[Param]]:
    """The first held grippers (at least ``min_held``) of up to max_grippers hold balls,
    0..max_loose more balls lie in room1 of 1..max_rooms rooms."""
    def space(max_grippers: int = 4, max_loose: int = 4, max_rooms: int = 3) -> list[Param]:
        return [_param(k, g, [n] + [0] * (r - 1))
                for g in range(1, max_grippers + 1) for k in range(min_held, g + 1)
                for r, n in product(range(1, max_rooms + 1), range(0, max_loose + 1))]
    return space


TASKS = DomainTasks(
    domain="gripper",
    layouts=(
        Layout("one_room", "both", space=_space_one_room, summary="all balls in room1"),
        Layout("evenly_distributed", "both", space=_space_evenly,
               summary="the same number of balls in every room"),
        Layout("n_room_distributed", "both", space=_space_n_rooms,
               summary="a given number of balls in each room"),
        Layout("swap", "both", tied=True, space=_space_swap,
               summary="two rooms; the goal swaps their balls"),
        Layout("focus_max", "goal", strict=True,
               summary="all balls to the room that started with the most"),
        Layout("focus_min", "goal", strict=True,
               summary="all balls to the room that started with the fewest"),
        Layout("juggle", "both", tied=True, strict=True, space=_space_held(2),
               summary="robby holds balls; the goal rotates them between the grippers"),
        Layout("pickup", "goal", summary="every ball carried"),
        Layout("drop_and_pickup", "goal", strict=True,
               summary="drop the held balls in an empty room, carry the balls that were in rooms"),
        Layout("holding", "both", space=_space_held(1),
               summary="some grippers hold a ball, the other balls lie in rooms"),
    ),
    build=build,
    explicit=EXPLICIT,
)
