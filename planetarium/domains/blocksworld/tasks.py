"""Dataset layouts for Blocks World: towers of blocks b1..bN, described explicitly or abstractly.

A parameter is a list of tower heights (``[2, 3]``: 5 blocks in towers of 2 and 3), the
published generator's ``blocks_list``, shared by both sides of a combination: ``stack -> tower``
with ``[2, 3]`` starts from one tower of 5 blocks and asks for towers of 2 and 3.  Layouts that
only need a block count (on_table, stack, holding_one, staircase) use the sum.

Each layout builds exactly the published generator's state, atoms in its order (the explicit
texts list them in that order, one sentence each, as the published ones did), so the dataset
holds the published problems:

* tower, staircase and invert number each tower from its top block; stack and equal_towers
  from the bottom (so ``stack [n]`` and ``tower [n]`` are different problems, as published);
* staircase needs a triangular block count (towers of heights 1, 2, ..., k);
* equal_towers stacks ``[n]`` into towers of the tallest height of 5, 4, 3, 2, 1 that divides
  n; a list of unequal heights is stacked so by its sum; a list of several equal heights does
  not fit (the published rule: its own list's ``[2, 2]``, ``[3, 3]`` ... build nothing);
* swap takes two towers of at least 2 blocks on the bases b1 and b2 and trades their upper
  parts; invert reverses every tower in place.

Why the abstract texts say what they say: a row with an abstract part is graded in placeholder
mode (init and goal each up to renaming), so an abstract text must pin the state's *shape* —
how many towers of which heights, what the arm holds.  The two tied layouts (swap, invert) are
graded with object identity; their goal text relates the goal to the initial towers ("each
tower reversed"), which fixes the joint problem up to isomorphism.  The published abstract
texts did not always do that (equal_towers gave the number of *listed* heights, not of towers);
ours do, and carry as de-duplication key what the published text stated
(:mod:`planetarium.tasks`), so the same rows survive.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
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

#: Tower heights equal_towers tries, tallest first (the published rule).
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


def _top_down(heights: Sequence[int], blocks: Sequence[str]) -> list[Atom]:
    """Towers of consecutive blocks, each numbered from its top: clear, on ..., on-table."""
    atoms: list[Atom] = [("arm-empty",)]
    start = 0
    for h in heights:
        column = blocks[start:start + h]
        atoms.append(("clear", column[0]))
        atoms.extend(("on", upper, lower) for upper, lower in pairwise(column))
        atoms.append(("on-table", column[-1]))
        start += h
    return atoms


def _bottom_up(heights: Sequence[int], blocks: Sequence[str]) -> list[Atom]:
    """Towers of consecutive blocks, each numbered from its bottom: on-table, on ..., clear."""
    atoms: list[Atom] = [("arm-empty",)]
    start = 0
    for h in heights:
        column = blocks[start:start + h]
        atoms.append(("on-table", column[0]))
        atoms.extend(("on", upper, lower) for lower, upper in pairwise(column))
        atoms.append(("clear", column[-1]))
        start += h
    return atoms


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
    """The towers equal_towers builds for a parameter (module docstring)."""
    if len(heights) > 1 and len(set(heights)) == 1:
        raise DoesNotFit("equal_towers takes one block count or a list of unequal heights")
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


@dataclass(frozen=True)
class _State:
    """One side of a problem: its atoms, its texts as an initial state and as a goal, and what
    the published texts of its layout stated (the de-duplication keys).

    States are cached (:func:`_side`): one initial state meets every goal layout, and its
    explicit text is rendered once.
    """

    atoms: tuple[Atom, ...]
    init_text: str
    goal_text: str
    init_key: Hashable
    goal_key: Hashable

    @cached_property
    def objects(self) -> tuple[str, ...]:
        return tuple(sorted({arg for atom in self.atoms for arg in atom[1:]}, key=lambda b: int(b[1:])))

    @cached_property
    def init_explicit(self) -> str:
        return EXPLICIT.render(self.atoms, True, self.objects)

    @cached_property
    def goal_explicit(self) -> str:
        return EXPLICIT.render(self.atoms, False)


def _towers(atoms: list[Atom], n: int, what: str, init_key: Hashable, goal_key: Hashable) -> _State:
    return _State(tuple(atoms), f"{_intro(n)}, {what}, and your arm is empty.",
                  f"Your goal is to have the blocks {what}, with your arm empty.", init_key, goal_key)


def _on_table(heights: tuple[int, ...]) -> _State:
    n = sum(heights)
    atoms: list[Atom] = [("arm-empty",)]
    for block in _blocks(n):
        atoms += [("clear", block), ("on-table", block)]
    return _State(
        tuple(atoms),
        f"{_intro(n)}, each directly on the table, and your arm is empty.",
        "Your goal is to unstack the blocks so that each block is directly on the table,"
        " with your arm empty.",
        ("on_table", n), ("on_table",),
    )


def _holding_one(heights: tuple[int, ...]) -> _State:
    n = sum(heights)
    atoms: list[Atom] = [("holding", "b1")]
    for block in _blocks(n - 1, 2):
        atoms += [("clear", block), ("on-table", block)]
    if n == 1:
        init_text = f"{_intro(n)}, and you are holding it."
        goal_text = "Your goal is to be holding the block."
    else:
        others = "the other block" if n == 2 else "every other block"
        init_text = (f"{_intro(n)}. You are holding one block, and {others} is directly on"
                     " the table.")
        goal_text = f"Your goal is to be holding one block, with {others} directly on the table."
    return _State(tuple(atoms), init_text, goal_text, ("holding_one", n), ("holding_one", n))


def _stack(heights: tuple[int, ...]) -> _State:
    n = sum(heights)
    blocks = _blocks(n)
    atoms: list[Atom] = [("arm-empty",)]
    atoms += [("on", upper, lower) for lower, upper in pairwise(blocks)]
    atoms += [("clear", blocks[-1]), ("on-table", blocks[0])]
    return _towers(atoms, n, "stacked into a single tower", ("stack", n), ("stack",))


def _tower(heights: tuple[int, ...]) -> _State:
    n = sum(heights)
    return _towers(_top_down(heights, _blocks(n)), n, f"stacked into {_shape(heights)}",
                   ("towers", heights), ("tower", heights))


def _staircase(heights: tuple[int, ...]) -> _State:
    n = sum(heights)
    k = _staircase_steps(n)
    what = ("stacked into a single tower of height 1 (a staircase of 1 step)" if k == 1 else
            f"stacked into a staircase of {k} towers of heights 1 through {k}")
    return _towers(_top_down(range(1, k + 1), _blocks(n)), n, what, ("staircase", n), ("staircase", k))


def _equal_towers(heights: tuple[int, ...]) -> _State:
    equal = _equal_heights(heights)
    n, count, h = sum(equal), len(equal), equal[0]
    what = (f"stacked into towers of equal height, here a single tower of height {h}" if count == 1
            else f"stacked into {count} towers of equal height {h}")
    # The published texts gave len(heights) as the number of towers.
    return _towers(_bottom_up(equal, _blocks(n)), n, what,
                   ("equal_towers", n, len(heights)), ("equal_towers", len(heights)))


_SIDES = {
    "on_table": _on_table,
    "stack": _stack,
    "holding_one": _holding_one,
    "staircase": _staircase,
    "equal_towers": _equal_towers,
    "tower": _tower,
}


def _swap_atoms(bases: tuple[str, str], uppers: tuple[list[str], list[str]]) -> list[Atom]:
    """Both bases on the table, then each base's tower upwards, its top clear."""
    atoms: list[Atom] = [("arm-empty",), ("on-table", bases[0]), ("on-table", bases[1])]
    for base, upper in zip(bases, uppers, strict=True):
        column = [base, *upper]
        atoms.extend(("on", top, below) for below, top in pairwise(column))
        atoms.append(("clear", column[-1]))
    return atoms


def _swap(heights: tuple[int, ...]) -> tuple[_State, _State]:
    """Two towers on the bases b1 and b2 whose upper parts trade bases."""
    if len(heights) != 2 or min(heights) < 2:
        raise DoesNotFit("swap needs two towers of at least 2 blocks")
    a, b = heights
    uppers = (_blocks(a - 1, 3), _blocks(b - 1, a + 2))
    init = _State(
        tuple(_swap_atoms(("b1", "b2"), uppers)),
        f"{_intro(a + b)}, stacked into 2 towers of heights {a} and {b}, and your arm is empty.",
        "", ("swap", a, b), None,
    )
    goal = _State(
        tuple(_swap_atoms(("b2", "b1"), uppers)),
        "",
        "Your goal is to swap the towers' upper parts: lift every block except the bottom one"
        " off each tower and place them, in the same order, on the other tower's bottom block,"
        " with your arm empty.",
        None, ("swap",),
    )
    return init, goal


def _invert(heights: tuple[int, ...]) -> tuple[_State, _State]:
    n = sum(heights)
    blocks = _blocks(n)
    goal = _State(
        tuple(_top_down(heights[::-1], blocks[::-1])),
        "",
        "Your goal is to invert each tower in place: every tower keeps its blocks, in reverse"
        " order, so the block that was on the bottom ends on top, with your arm empty.",
        None, ("invert",),
    )
    return _tower(heights), goal


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
        init_abstract_key=start.init_key,
        goal_abstract_key=end.goal_key,
    )


# --- parameter spaces (data/full.yaml lists the published parameters instead) ---------------


def _partitions(n: int, max_part: int, max_len: int) -> Iterator[tuple[int, ...]]:
    """Partitions of n (non-increasing parts) with at most max_len parts, each <= max_part."""
    if n == 0:
        yield ()
        return
    if max_len == 0:
        return
    for part in range(min(n, max_part), 0, -1):
        for rest in _partitions(n - part, part, max_len - 1):
            yield (part, *rest)


def tower_lists(max_blocks: int = 10, max_towers: int = 10) -> list[list[int]]:
    """Every list of tower heights (smallest first) of 1..max_blocks blocks in up to
    max_towers towers."""
    return [list(p[::-1]) for n in range(1, max_blocks + 1) for p in _partitions(n, n, max_towers)]


def stack_lists(max_blocks: int = 55) -> list[list[int]]:
    return [[n] for n in range(1, max_blocks + 1)]


def staircase_lists(max_blocks: int = 55) -> list[list[int]]:
    """Triangular block counts, as the published list gives them: [1], [3], [6], ..."""
    return [[k * (k + 1) // 2] for k in range(1, max_blocks + 1) if k * (k + 1) // 2 <= max_blocks]


def equal_tower_lists(max_blocks: int = 5) -> list[list[int]]:
    return [[n] for n in range(1, max_blocks + 1)]


def swap_lists(max_blocks: int = 30) -> list[list[int]]:
    """Both orders of two towers of at least 2 blocks each, up to max_blocks in all."""
    return [[a, total - a] for total in range(4, max_blocks + 1) for a in range(2, total - 1)]


TASKS = DomainTasks(
    domain="blocksworld",
    layouts=(
        Layout("on_table", "both", summary="every block on the table, clear; arm empty"),
        Layout("stack", "both", space=stack_lists, summary="one tower of all blocks"),
        Layout("staircase", "both", space=staircase_lists, summary="towers of heights 1..k"),
        Layout("swap", "both", tied=True, space=swap_lists,
               summary="two towers' upper parts trade bases"),
        Layout("tower", "both", space=tower_lists, summary="towers of the listed heights"),
        Layout("holding_one", "both", summary="arm holds b1, the rest on the table"),
        Layout("equal_towers", "both", space=equal_tower_lists,
               summary="towers of equal height (5, 4, 3, 2 or 1 blocks)"),
        Layout("invert", "both", tied=True, space=tower_lists,
               summary="every tower reversed in place"),
    ),
    build=build,
    explicit=EXPLICIT,
)
