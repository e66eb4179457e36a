"""Dataset layouts for Blocks World: towers of blocks b1..bN, described explicitly or abstractly.

A parameter is a list of tower heights (``[2, 3]``: 5 blocks in towers of 2 and 3), the
published generator's vocabulary, shared by both sides of a combination: ``stack -> tower`` with
``[2, 3]`` starts from one tower of 5 blocks and asks for towers of 2 and 3.  Layouts that only
need a block count (on_table, stack, holding_one, staircase, and equal_towers for an unequal
list) use the sum.

Blocks are numbered tower by tower, as the published generator did: from the top for tower,
staircase and invert, from the bottom for stack and equal_towers (so ``stack [n]`` and
``tower [n]`` are different problems, as they were in the published dataset).  Every state
keeps the arm-empty / clear / on-table facts explicit, so an explicit text lists the complete
state, one sentence per atom.

Why the abstract texts say what they say: a row with an abstract part is graded in placeholder
mode (init and goal each up to renaming), so an abstract text must pin the state's *shape* —
how many towers of which heights, what the arm holds.  The two tied layouts (swap, invert) are
graded with object identity; their goal text relates the goal to the initial towers ("each
tower reversed"), which fixes the joint problem up to isomorphism.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, cached_property
from itertools import pairwise

from ...tasks import (
    Atom,
    DoesNotFit,
    DomainTasks,
    ExplicitTemplates,
    Instance,
    Layout,
    Param,
)
from ...tasks.text import join_words, name_list, plural

#: Tower heights from which equal_towers picks, tallest first, for a borrowed unequal list.
_EQUAL_HEIGHTS = (5, 4, 3, 2, 1)

EXPLICIT = ExplicitTemplates(
    intro=lambda objects, _types: f"You have {plural(len(objects), 'block')}.",
    sentences={
        "arm-empty": ("Your arm is empty.", "Your arm should be empty."),
        "holding": ("You are holding {0}.", "You should be holding {0}."),
        "on-table": ("{0} is on the table.", "{0} should be on the table."),
        "on": ("{0} is on {1}.", "{0} should be on {1}."),
        "clear": ("{0} is clear.", "{0} should be clear."),
    },
)


def _blocks(n: int, start: int = 1) -> list[str]:
    return [f"b{i}" for i in range(start, start + n)]


def _towers(columns: Sequence[Sequence[str]], arm_empty: bool = True) -> list[Atom]:
    """Atoms of towers listed bottom to top (and the arm-empty fact)."""
    atoms: list[Atom] = [("arm-empty",)] if arm_empty else []
    for column in columns:
        atoms.append(("on-table", column[0]))
        atoms.extend(("on", upper, lower) for lower, upper in pairwise(column))
        atoms.append(("clear", column[-1]))
    return atoms


def _columns(heights: Sequence[int], top_down: bool) -> list[list[str]]:
    """Blocks b1..bN cut into consecutive towers of the given heights, each listed bottom to
    top; ``top_down`` numbers each tower from its top block (the published convention for
    tower, staircase and invert; stack and equal_towers number from the bottom)."""
    columns, start = [], 1
    for h in heights:
        column = _blocks(h, start)
        columns.append(column[::-1] if top_down else column)
        start += h
    return columns


def _heights(param: Param) -> tuple[int, ...]:
    """A parameter, checked: malformed ones are configuration errors, never skipped."""
    if (not isinstance(param, (list, tuple)) or not param
            or any(not isinstance(h, int) or isinstance(h, bool) or h < 1 for h in param)):
        raise ValueError(f"a blocksworld parameter is a non-empty list of tower heights: {param!r}")
    return tuple(param)


def _staircase_steps(n: int) -> int:
    """k with 1 + 2 + ... + k == n, or DoesNotFit."""
    k = 0
    while k * (k + 1) // 2 < n:
        k += 1
    if k * (k + 1) // 2 != n:
        raise DoesNotFit(f"{n} blocks do not form a staircase")
    return k


def _equal_heights(heights: tuple[int, ...]) -> tuple[int, ...]:
    """An all-equal list is used as given; otherwise the sum in towers of the tallest height
    from :data:`_EQUAL_HEIGHTS` dividing it (the published rule)."""
    if len(set(heights)) == 1:
        return heights
    n = sum(heights)
    height = next(h for h in _EQUAL_HEIGHTS if n % h == 0)
    return (height,) * (n // height)


def _shape(heights: Sequence[int]) -> str:
    """"a single tower of height 3" / "2 towers of heights 2 and 3"."""
    if len(heights) == 1:
        return f"a single tower of height {heights[0]}"
    return f"{len(heights)} towers of heights {join_words([str(h) for h in heights])}"


def _intro(n: int) -> str:
    return f"You have {plural(n, 'block')}, {name_list(_blocks(n))}"


class _State:
    """One side of a problem: its atoms and its texts as an initial state and as a goal.

    States are cached (:func:`_side`): one initial state meets every goal layout, and its
    explicit text is rendered once.
    """

    def __init__(self, atoms: list[Atom], init_text: str, goal_text: str) -> None:
        self.atoms = tuple(atoms)
        self.init_text = init_text
        self.goal_text = goal_text

    @cached_property
    def objects(self) -> tuple[str, ...]:
        return tuple(sorted({arg for atom in self.atoms for arg in atom[1:]}, key=lambda b: int(b[1:])))

    @cached_property
    def init_explicit(self) -> str:
        return EXPLICIT.render(self.atoms, True, self.objects)

    @cached_property
    def goal_explicit(self) -> str:
        return EXPLICIT.render(self.atoms, False)


def _tower_state(heights: Sequence[int], what: str, top_down: bool = True) -> _State:
    n = sum(heights)
    return _State(
        _towers(_columns(heights, top_down)),
        f"{_intro(n)}, {what}, and your arm is empty.",
        f"Your goal is to have the blocks {what}, with your arm empty.",
    )


def _on_table(heights: tuple[int, ...]) -> _State:
    n = sum(heights)
    return _State(
        _towers([[b] for b in _blocks(n)]),
        f"{_intro(n)}, each directly on the table, and your arm is empty.",
        "Your goal is to unstack the blocks so that each block is directly on the table,"
        " with your arm empty.",
    )


def _holding_one(heights: tuple[int, ...]) -> _State:
    n = sum(heights)
    rest = [[b] for b in _blocks(n - 1, 2)]
    if n == 1:
        init_text = f"{_intro(n)}, and you are holding it."
        goal_text = "Your goal is to be holding the block."
    else:
        others = "the other block" if n == 2 else "every other block"
        init_text = (f"{_intro(n)}. You are holding one block, and {others} is directly on"
                     " the table.")
        goal_text = f"Your goal is to be holding one block, with {others} directly on the table."
    return _State([("holding", "b1")] + _towers(rest, arm_empty=False), init_text, goal_text)


def _stack(heights: tuple[int, ...]) -> _State:
    return _tower_state([sum(heights)], "stacked into a single tower", top_down=False)


def _tower(heights: tuple[int, ...]) -> _State:
    return _tower_state(heights, f"stacked into {_shape(heights)}")


def _staircase(heights: tuple[int, ...]) -> _State:
    k = _staircase_steps(sum(heights))
    steps = list(range(1, k + 1))
    what = ("stacked into a single tower of height 1 (a staircase of 1 step)" if k == 1 else
            f"stacked into a staircase of {k} towers of heights 1 through {k}")
    return _tower_state(steps, what)


def _equal_towers(heights: tuple[int, ...]) -> _State:
    equal = _equal_heights(heights)
    count, h = len(equal), equal[0]
    what = (f"stacked into a single tower of height {h}" if count == 1 else
            f"stacked into {count} towers of equal height {h}")
    return _tower_state(equal, what, top_down=False)


_SIDES = {
    "on_table": _on_table,
    "stack": _stack,
    "holding_one": _holding_one,
    "staircase": _staircase,
    "equal_towers": _equal_towers,
    "tower": _tower,
}


def _swap(heights: tuple[int, ...]) -> tuple[_State, _State]:
    """Two towers whose upper parts trade bases: b1 and b2 are the bases."""
    if len(heights) != 2 or min(heights) < 2:
        raise DoesNotFit("swap needs two towers of at least 2 blocks")
    a, b = heights
    upper_a, upper_b = _blocks(a - 1, 3), _blocks(b - 1, a + 2)
    init = _State(
        _towers([["b1", *upper_a], ["b2", *upper_b]]),
        f"{_intro(a + b)}, stacked into 2 towers of heights {a} and {b}, and your arm is empty.",
        "",
    )
    goal = _State(
        _towers([["b1", *upper_b], ["b2", *upper_a]]),
        "",
        "Your goal is to swap the towers' upper parts: lift every block except the bottom one"
        " off each tower and place them, in the same order, on the other tower's bottom block,"
        " with your arm empty.",
    )
    return init, goal


def _invert(heights: tuple[int, ...]) -> tuple[_State, _State]:
    columns = _columns(heights, top_down=True)
    init = _tower_state(heights, f"stacked into {_shape(heights)}")
    goal = _State(
        _towers([column[::-1] for column in columns]),
        "",
        "Your goal is to invert each tower in place: every tower keeps its blocks, in reverse"
        " order, so the block that was on the bottom ends on top, with your arm empty.",
    )
    return init, goal


_TIED = {"swap": _swap, "invert": _invert}


@cache
def _side(name: str, heights: tuple[int, ...]) -> _State:
    return _SIDES[name](heights)


@cache
def _tied(name: str, heights: tuple[int, ...]) -> tuple[_State, _State]:
    return _TIED[name](heights)


def build(init: Layout, goal: Layout, param: Param) -> Instance:
    """The problem for one combination and one list of tower heights."""
    heights = _heights(param)
    if init.name in _TIED:
        if goal.name != init.name:
            raise DoesNotFit(f"{init.name} is tied")
        start, end = _tied(init.name, heights)
    else:
        start, end = _side(init.name, heights), _side(goal.name, heights)
    return Instance(
        objects=start.objects,
        init=start.atoms,
        goal=end.atoms,
        init_explicit=start.init_explicit,
        goal_explicit=end.goal_explicit,
        init_abstract=start.init_text,
        goal_abstract=end.goal_text,
    )


def _partitions(n: int, max_part: int, max_len: int):
    """Partitions of n (non-increasing parts) with at most max_len parts, each <= max_part."""
    if n == 0:
        yield ()
        return
    if max_len == 0:
        return
    for part in range(min(n, max_part), 0, -1):
        for rest in _partitions(n - part, part, max_len - 1):
            yield (part, *rest)


def tower_lists(max_blocks: int = 25, max_towers: int = 10, per_size: int = 150) -> list[list[int]]:
    """Height lists (smallest first) of 1..max_blocks blocks in up to max_towers towers.

    Block counts with more than ``per_size`` partitions keep an evenly spaced selection of
    ``per_size`` of them (deterministic), so large sizes do not swamp the dataset; the defaults
    give 2,143 lists (the published list has 2,119) and row counts within 1% of the published ones.
    """
    lists: list[list[int]] = []
    for n in range(1, max_blocks + 1):
        every = [p[::-1] for p in _partitions(n, n, max_towers)]
        if len(every) > per_size:
            every = [every[i * len(every) // per_size] for i in range(per_size)]
        lists.extend(list(p) for p in every)
    return lists


def stack_lists(max_blocks: int = 55) -> list[list[int]]:
    return [[n] for n in range(1, max_blocks + 1)]


def staircase_lists(max_blocks: int = 55) -> list[list[int]]:
    lists, k = [], 1
    while k * (k + 1) // 2 <= max_blocks:
        lists.append(list(range(1, k + 1)))
        k += 1
    return lists


def equal_tower_lists(max_height: int = 5, max_towers: int = 10, max_blocks: int = 25) -> list[list[int]]:
    """k towers of height h for h <= max_height, k <= max_towers and h * k <= max_blocks."""
    return [[h] * k for k in range(1, max_towers + 1) for h in range(1, max_height + 1)
            if h * k <= max_blocks]


def swap_lists(max_blocks: int = 30) -> list[list[int]]:
    """Both orders of two towers of at least 2 blocks each, up to max_blocks in all."""
    return [[a, total - a] for total in range(4, max_blocks + 1) for a in range(2, total - 1)]


TASKS = DomainTasks(
    domain="blocksworld",
    layouts=(
        Layout("on_table", "both", summary="every block on the table, clear; arm empty"),
        Layout("stack", "both", space=stack_lists, summary="one tower of all blocks"),
        Layout("staircase", "both", space=staircase_lists, summary="towers of heights 1..k"),
        Layout("tower", "both", space=tower_lists, summary="towers of the listed heights"),
        Layout("holding_one", "both", summary="arm holds b1, the rest on the table"),
        Layout("equal_towers", "both", space=equal_tower_lists, summary="towers of equal height"),
        Layout("swap", "both", tied=True, space=swap_lists,
               summary="two towers' upper parts trade bases"),
        Layout("invert", "both", tied=True, space=tower_lists,
               summary="every tower reversed in place"),
    ),
    build=build,
    explicit=EXPLICIT,
)
