"""Hostile input for fuzzing: model outputs, batch lines and configuration values.

Each output generator turns a valid problem text into something a language model might
plausibly (or implausibly) emit: truncations, character and token mutations, prose and fences,
wrong domains, typed objects, deep nesting, thousands of objects, megabytes of junk, problems in
comments, runs of unclosed ``(define (problem``.  :func:`slow_pairs` makes well-formed pairs
whose grading grows fast with their size (``or``/quantified/negated goals, tall towers, long rover
maps) to check time limits.  :func:`hostile_lines` makes JSONL batch lines
(deep nesting, wrong types, broken JSON) and :func:`hostile_values` values for configuration
fields and limits (wrong types, NaN, infinities, huge numbers).
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise

_JUNK = "()(;:-?`\n\t abcdefghijklmnopqrstuvwxyz0123456789ÄßЖ漢🙂\x00\x7f"


def _truncate(text: str, rng: random.Random) -> str:
    return text[: rng.randrange(len(text) + 1)]


def _char_mutations(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(3)
        pos = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            del chars[min(pos, len(chars) - 1)]
        elif op == 1:
            chars.insert(pos, rng.choice(_JUNK))
        elif chars:
            chars[min(pos, len(chars) - 1)] = rng.choice(_JUNK)
    return "".join(chars)


def _token_mutations(text: str, rng: random.Random) -> str:
    tokens = text.replace("(", " ( ").replace(")", " ) ").split()
    words = [t for t in tokens if t not in "()"]
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(tokens))
        op = rng.randrange(4)
        if op == 0:
            tokens[i] = rng.choice(words)
        elif op == 1:
            tokens.insert(i, rng.choice(words + ["(", ")", "-", "and", "not", "or", ":goal"]))
        elif op == 2:
            del tokens[i]
        else:
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
    return " ".join(tokens)


def _wrapped(text: str, rng: random.Random) -> str:
    before = rng.choice(["", "Sure (of course)! Here it is:\n", "```pddl\n", "(define (domain x))\n"])
    after = rng.choice(["", "\n```", "\nNote: (on a b) means a is on b.", "\n)))((("])
    return before + text + after


def _wrong_domain(text: str, rng: random.Random) -> str:
    return text.replace("(:domain", f"(:domain {rng.choice(['blocks', 'gripper', 'x', ''])} ", 1)


def _typed(text: str, rng: random.Random) -> str:
    start = text.find("(:objects")
    end = text.find(")", start)
    if start < 0 or end < 0:
        return text
    names = text[start + len("(:objects"):end].split()
    typed = " ".join(f"{n} - {rng.choice(['block', 'object', 'ball', 'thing'])}" for n in names)
    return text[:start] + "(:objects " + typed + text[end:]


def _deep_nesting(text: str, rng: random.Random) -> str:
    depth = rng.choice([70, 1000, 20000])
    return text.replace("(:goal", "(:goal " + "(and " * depth + ")" * depth, 1)


def _many_objects(text: str, rng: random.Random) -> str:
    count = rng.choice([1000, 5000])
    names = " ".join(f"o{i}" for i in range(count))
    facts = " ".join(f"(clear o{i})" for i in range(0, count, 2))
    return text.replace("(:objects", f"(:objects {names}", 1).replace("(:init", f"(:init {facts}", 1)


def _huge_junk(text: str, rng: random.Random) -> str:
    return "".join(rng.choice(_JUNK) for _ in range(rng.choice([10_000, 200_000])))


def _repeated(text: str, rng: random.Random) -> str:
    return text[: len(text) // 2] + "(on b1 b2) " * rng.choice([1000, 50_000])


def _commented(text: str, rng: random.Random) -> str:
    """The problem hidden in a comment, before or inside another text: comments are comments."""
    hidden = "; " + " ".join(text.split())
    other = _token_mutations(text, rng)
    return rng.choice([f"{hidden}\n{other}", other.replace("(:init", f"{hidden}\n(:init", 1)])


def _unclosed_defines(text: str, rng: random.Random) -> str:
    """Many ``(define (problem`` that never close, before (or instead of) the answer."""
    runs = "(define (problem x " * rng.choice([10, 1000, 10_000])
    return rng.choice([runs + text, runs, text + runs])


def _redundant_goal(text: str, rng: random.Random) -> str:
    """Goal literals wrapped in ``(or X)`` or ``(not (not X))``: the same problem as before."""
    wrap = rng.choice(["(or {})", "(not (not {}))", "(or (not (not {})))"])
    start = text.find("(:goal")
    head = text.find("(", text.find("(and", start) + 1) if "(and" in text[start:] else -1
    end = text.find(")", head)
    if start < 0 or head < 0 or end < 0:
        return text
    return text[:head] + wrap.format(text[head:end + 1]) + text[end + 1:]


def _typed_variable(text: str, rng: random.Random) -> str:
    """A quantifier whose variable is typed: refused by untyped domains, like typed objects."""
    kind = rng.choice(["block", "ball", "object", "thing"])
    return text.replace("(:goal (and", f"(:goal (and (exists (?v - {kind}) (clear ?v))", 1)


def _oversize(text: str, rng: random.Random) -> str:
    """The right answer first, then padding past the size cap: refused as such, never "no"."""
    return text + "\n" + "x" * (2_000_001 - len(text) + rng.randrange(1000))


MUTATORS: dict[str, Callable[[str, random.Random], str]] = {
    "truncate": _truncate,
    "chars": _char_mutations,
    "tokens": _token_mutations,
    "wrapped": _wrapped,
    "wrong-domain": _wrong_domain,
    "typed": _typed,
    "deep-nesting": _deep_nesting,
    "many-objects": _many_objects,
    "huge-junk": _huge_junk,
    "repeated": _repeated,
    "commented": _commented,
    "unclosed-defines": _unclosed_defines,
    "redundant-goal": _redundant_goal,
    "typed-variable": _typed_variable,
    "oversize": _oversize,
}

#: Expensive mutators are drawn rarely so a 10,000-input run stays around a minute.
_WEIGHTS = {"deep-nesting": 0.02, "many-objects": 0.01, "huge-junk": 0.01, "repeated": 0.01,
            "unclosed-defines": 0.05, "oversize": 0.005}


def hostile_outputs(seeds: list[str], n: int, rng: random.Random) -> Iterator[tuple[str, str]]:
    """Yield ``n`` (mutator name, hostile text) pairs derived from the ``seeds`` texts."""
    names = list(MUTATORS)
    weights = [_WEIGHTS.get(name, 1.0) for name in names]
    for _ in range(n):
        name = rng.choices(names, weights)[0]
        text = rng.choice(seeds)
        for _ in range(rng.choice([1, 1, 2])):
            text = MUTATORS[name](text, rng)
        yield name, text


# ------------------------------------------------------------------- slow (gt, pred) pairs
# Well-formed problems whose grading grows fast with their size: each builder draws a size from
# referee-small to far past any time limit, and a goal variant, so some pairs are equivalent and
# some are not.  Used to check that every call honours its limit (issue 21).

def _problem(domain: str, objects: list[str], init: list[str], goal: str) -> str:
    declared = " ".join(objects)
    return (f"(define (problem p) (:domain {domain}) (:objects {declared})\n"
            f"  (:init {' '.join(init)})\n  (:goal {goal}))")


def gripper_text(balls: int, goal: str) -> str:
    """``balls`` balls in room1 of two rooms, the robot there with two free grippers."""
    names = [f"ball{i}" for i in range(1, balls + 1)]
    init = ["(room room1)", "(room room2)", "(gripper left)", "(gripper right)", "(free left)",
            "(free right)", "(at-robby room1)"]
    init += [f"(ball {b}) (at {b} room1)" for b in names]
    return _problem("gripper", ["room1", "room2", "left", "right", *names], init, goal)


def _or_goal(balls: int, rng: random.Random) -> str:
    """Disjunctive Gripper goals: each ball in either room, or a ball or the robot moved."""
    ball, room = rng.randint(1, balls), rng.choice(["room1", "room2"])
    either = " ".join(f"(or (at ball{i} room1) (at ball{i} room2))" for i in range(1, balls + 1))
    return rng.choice([f"(or (at ball{ball} room2) (at-robby {room}))",
                       f"(and {either} (at-robby {room}))",
                       f"(or (carry ball{ball} left) (at ball{ball} {room}))"])


def _or_goals(rng: random.Random) -> tuple[str, str]:
    balls = rng.choice([2, 3, 4, 6, 8])
    return gripper_text(balls, _or_goal(balls, rng)), gripper_text(balls, _or_goal(balls, rng))


def blocks_text(names: list[str], goal: str, tower: bool = False) -> str:
    """Blocks on the table (or, with ``tower``, one tower in ``names`` order, bottom first)."""
    if tower:
        init = [f"(on-table {names[0]})", f"(clear {names[-1]})", "(arm-empty)"]
        init += [f"(on {upper} {lower})" for lower, upper in pairwise(names)]
    else:
        init = ["(arm-empty)"] + [f"(on-table {b}) (clear {b})" for b in names]
    return _problem("blocksworld", names, init, goal)


def quantified_goal(depth: int, rng: random.Random) -> str:
    """``depth`` nested ``forall``/``exists`` over a chain of ``on`` atoms."""
    variables = [f"?v{i}" for i in range(depth)]
    chain = " ".join(f"(on {x} {y})" for x, y in pairwise(variables)) or "(clear ?v0)"
    body = rng.choice([f"(not (and {chain}))", f"(and {chain})", f"(or {chain} (holding ?v0))"])
    for variable in reversed(variables):
        body = f"({rng.choice(['forall', 'exists'])} ({variable}) {body})"
    return body


def _quantified_goals(rng: random.Random) -> tuple[str, str]:
    names = [f"b{i}" for i in range(1, rng.choice([3, 4, 6, 12]) + 1)]
    depth = rng.randint(1, 4)
    return (blocks_text(names, quantified_goal(depth, rng)),
            blocks_text(names, quantified_goal(depth, rng)))


def _negated_goals(rng: random.Random) -> tuple[str, str]:
    """A positive goal with negative literals, some redundant, some cutting goal states."""
    names = [f"b{i}" for i in range(1, rng.choice([3, 4, 50, 400, 1000]) + 1)]
    positive = f"(on {names[0]} {names[1]})"

    def goal() -> str:
        picks = rng.sample(names, min(len(names), rng.randint(1, 3)))
        negative = " ".join(f"(not ({rng.choice(['on-table', 'clear', 'holding'])} {b}))"
                            for b in picks)
        return f"(and {positive} {negative})"
    return blocks_text(names, f"(and {positive})"), blocks_text(names, goal())


def tower_goal(names: list[str]) -> str:
    """One tower of ``names``, bottom first."""
    return "(and " + " ".join(f"(on {u} {v})" for v, u in pairwise(names)) + ")"


def _tall_towers(rng: random.Random) -> tuple[str, str]:
    """One goal tower of every block; the prediction as written, renamed, or upside down."""
    names = [f"b{i}" for i in range(1, rng.choice([4, 100, 2000, 20_000]) + 1)]
    tower = rng.random() < 0.5  # the initial state: one tower, or every block on the table
    truth = blocks_text(names, tower_goal(names), tower)
    variant = rng.choice(["same", "renamed", "reversed"])
    if variant == "same":
        return truth, truth
    if variant == "reversed":
        return truth, blocks_text(names, tower_goal(names[::-1]), tower)
    shuffled = names[:]
    rng.shuffle(shuffled)
    renamed = {b: f"c{other[1:]}" for b, other in zip(names, shuffled, strict=True)}
    order = [renamed[b] for b in names]
    return truth, blocks_text(order, tower_goal(order), tower)


def rover_chain_text(waypoints: int, goal_every: int) -> str:
    """A two-way chain of waypoints with a soil sample on each and the lander and rover at the
    first; objective ``i`` seen from the ``i``-th waypoint from the far end.  The goal asks for
    every ``goal_every``-th soil sample and image."""
    names = [f"w{i}" for i in range(1, waypoints + 1)]
    objectives = [f"o{i}" for i in range(1, waypoints // 3 + 1)]
    init = ["(available)", "(channel_free)", "(at_rover w1)", "(at_lander w1)",
            "(visible w1 w1)", "(supports camera1 colour)"]
    for a, b in pairwise(names):
        init.append(f"(can_traverse {a} {b}) (can_traverse {b} {a}) (visible {a} {b}) "
                    f"(visible {b} {a})")
    init += [f"(at_soil_sample {w})" for w in names]
    init += [f"(visible_from {o} {w})" for o, w in zip(objectives, names[::-1], strict=False)]
    goal = [f"(communicated_soil_data {w})" for w in names[::goal_every]]
    goal += [f"(communicated_image_data {o} colour)" for o in objectives[::goal_every]]
    declared = [*names, "- waypoint", *objectives, "- objective camera1 - camera colour - mode"]
    return _problem("rover-single", declared, init, f"(and {' '.join(goal)})")


def _rover_maps(rng: random.Random) -> tuple[str, str]:
    waypoints = rng.choice([3, 10, 300, 3000])
    return (rover_chain_text(waypoints, rng.choice([1, 2])),
            rover_chain_text(waypoints, rng.choice([1, 2])))


#: Generators of slow (ground truth, prediction) pairs, by goal class.
SLOW_PAIRS: dict[str, Callable[[random.Random], tuple[str, str]]] = {
    "or-goals": _or_goals,
    "quantified-goals": _quantified_goals,
    "negated-goals": _negated_goals,
    "tall-towers": _tall_towers,
    "rover-maps": _rover_maps,
}


def slow_pairs(n: int, rng: random.Random) -> Iterator[tuple[str, str, str]]:
    """Yield ``n`` (class name, ground truth, prediction) triples from :data:`SLOW_PAIRS`."""
    names = sorted(SLOW_PAIRS)
    for _ in range(n):
        name = rng.choice(names)
        yield (name, *SLOW_PAIRS[name](rng))


def hostile_lines(items: list[dict], n: int, rng: random.Random) -> Iterator[tuple[str, str]]:
    """Yield ``n`` (kind, JSONL line) pairs: valid items mixed with broken and misshapen ones."""
    def nested(depth: int) -> str:
        return "[" * depth + "]" * depth

    kinds: dict[str, Callable[[dict], str]] = {
        "valid": lambda item: json.dumps(item),
        "deep-json": lambda item: nested(rng.choice([100, 3000, 50_000])),
        "deep-value": lambda item: json.dumps({**item, "pred": None})[:-1].replace(
            "null", "[" * 3000 + "]" * 3000) + "}",
        "broken-json": lambda item: json.dumps(item)[: rng.randrange(1, 40)],
        "not-object": lambda item: json.dumps(rng.choice([[item], "text", 42, None, True])),
        "wrong-types": lambda item: json.dumps({**item, rng.choice(
            ["gt", "pred", "is_placeholder", "anchored_objects"]): rng.choice(
            [None, 7, 1.5, [], {}, "yes", ["a", 3], True])}),
        "missing-key": lambda item: json.dumps({k: v for k, v in item.items()
                                                if k != rng.choice(["gt", "pred", "id"])}),
        "junk": lambda item: "".join(rng.choice(_JUNK) for _ in range(rng.randint(1, 200))),
        "long-number": lambda item: json.dumps(item)[:-1] + ', "n": ' + "9" * 5000 + "}",
    }
    names = list(kinds)
    for _ in range(n):
        name = rng.choice(names)
        line = kinds[name](rng.choice(items)).replace("\n", " ")
        yield name, line if line.strip() else "{"


#: Values that break naive configuration and limit handling.
HOSTILE_VALUES: tuple = (
    None, True, False, 0, -1, 1, 10**12, -(10**12), 0.0, -0.5, 1e308, math.nan, math.inf,
    -math.inf, "", "3", "nan", "hot", "tiny:abc", "/etc/passwd", "many", [], [1, 2], [[-1, 2]],
    [None], {}, {"x": 1}, {"max_blocks": "many"}, "a" * 10_000,
)


def hostile_values(rng: random.Random) -> object:
    """One value from :data:`HOSTILE_VALUES`."""
    return rng.choice(HOSTILE_VALUES)


@dataclass
class FuzzReport:
    """What a grading fuzz run found; everything but the counters must be empty or zero."""

    items: int = 0
    statuses: Counter = field(default_factory=Counter)
    crashes: list[str] = field(default_factory=list)      # exceptions that escaped grade()
    internal: list[str] = field(default_factory=list)     # status internal-error
    overruns: list[str] = field(default_factory=list)     # longer than the limit + grace
    refereed: int = 0                                     # verdicts checked by brute force
    wrong: list[str] = field(default_factory=list)        # verdicts the brute force contradicts
    slowest: tuple[float, str] = (0.0, "")

    def summary(self) -> str:
        return (f"items {self.items}, statuses {dict(sorted(self.statuses.items()))}, "
                f"crashes {len(self.crashes)}, internal errors {len(self.internal)}, "
                f"overruns {len(self.overruns)}, refereed by brute force {self.refereed}, "
                f"wrong verdicts {len(self.wrong)}, slowest {self.slowest[0]:.2f} s "
                f"({self.slowest[1]})")


def small_truths(rng: random.Random, count: int = 12) -> list[str]:
    """Ground truths small enough for the brute-force referee (3-4 blocks, 2 balls)."""
    from ..pddl.writer import problem_to_pddl
    from .generators import blocksworld_problem, gripper_problem

    problems = [blocksworld_problem(rng, rng.randint(2, 4)) for _ in range(count // 2)]
    problems += [gripper_problem(rng, 2, n_rooms=2, n_grippers=1) for _ in range(count // 2)]
    return [problem_to_pddl(p) for p in problems]


def fuzz_grading(truths: list[str], n: int, rng: random.Random, *, timeout_s: float = 5.0,
                 grace_s: float = 1.0, referee_objects: int = 8,
                 referee_states: int = 20_000, slow_share: float = 0.0,
                 slow_timeout_s: float = 1.0) -> FuzzReport:
    """Grade ``n`` hostile outputs against random ``truths``.

    A ``slow_share`` of the items are instead :func:`slow_pairs`, graded under
    ``slow_timeout_s`` (most of them would use any limit up, so a short one keeps the run
    short).  Every verdict on a pair small enough for explicit enumeration (at most
    ``referee_objects`` objects and ``referee_states`` reachable states on each side) is checked
    against Definition 2 decided by brute force
    (:func:`~planetarium.testing.bruteforce.equivalent_by_definition`).
    """
    report = FuzzReport()
    outputs = hostile_outputs(truths, n, rng)
    slow = slow_pairs(n, rng)
    for _ in range(n):
        if slow_share and rng.random() < slow_share:
            name, gt, text = next(slow)
            limit = slow_timeout_s
        else:
            name, text = next(outputs)
            gt, limit = rng.choice(truths), timeout_s
        _grade_one(report, name, gt, text, limit, grace_s, referee_objects, referee_states)
    return report


def _grade_one(report: FuzzReport, name: str, gt: str, text: str, timeout_s: float,
               grace_s: float, referee_objects: int, referee_states: int) -> None:
    """Grade one pair into ``report``; referee its verdict when the pair is small enough."""
    import time

    from ..errors import PlanetariumError, ResourceLimitError, UnsupportedFeatureError
    from ..grading import Status, grade, load_ground_truth
    from ..pddl.problem import read_problem
    from .bruteforce import equivalent_by_definition

    report.items += 1
    start = time.monotonic()
    try:
        result = grade(gt, text, timeout_s=timeout_s)
    except Exception as err:  # noqa: BLE001 - counting escapes is the point
        report.crashes.append(f"{name}: {type(err).__name__}: {err}")
        return
    elapsed = time.monotonic() - start
    report.slowest = max(report.slowest, (elapsed, name))
    report.statuses[result.status.value] += 1
    if elapsed > timeout_s + grace_s:
        report.overruns.append(f"{name}: {elapsed:.2f} s")
    if result.status is Status.INTERNAL_ERROR:
        report.internal.append(f"{name}: {result.reason}")
    if result.equivalent is None or result.solvable is not True:
        return
    domain, truth = load_ground_truth(gt)
    try:
        pred = read_problem(text, domain.definition)
        if max(len(truth.objects), len(pred.objects)) > referee_objects:
            return
        expected = equivalent_by_definition(domain.definition, truth, pred,
                                            is_placeholder=False, max_states=referee_states)
    except (ResourceLimitError, UnsupportedFeatureError, PlanetariumError, RecursionError):
        return  # too large (or outside the fragment) for the referee
    report.refereed += 1
    if expected != result.equivalent:
        report.wrong.append(f"{name}: grader {result.equivalent}, brute force {expected}")


# ------------------------------------------------------------------- hostile reward calls
# What a training loop may hand the reward (issue 30): values that are no completion or ground
# truth at all, completions in every form a trainer uses, and dataset values as pandas and NumPy
# give them (NumPy strings, booleans and integers, arrays for list columns).

class Raising:
    """An object every method of which raises: str, repr, len, iteration, equality, hashing,
    truth, attribute lookup and pickling."""

    def _raise(self, *args: object, **kwargs: object) -> object:
        raise RuntimeError("hostile object")

    # Ignored: these methods break their signatures on purpose (they raise instead of returning).
    __str__ = __repr__ = __len__ = __iter__ = __eq__ = __hash__ = __reduce__ = _raise  # type: ignore[assignment]
    __bool__ = __getitem__ = __getattr__ = _raise


class RaisingMessage(dict):
    """A chat message whose lookups raise."""

    def get(self, *args: object, **kwargs: object) -> object:
        raise RuntimeError("hostile message")


class UnpicklableStr(str):
    """Text that reads fine but refuses to be pickled and shows itself wrongly."""

    def __reduce__(self) -> tuple:
        raise TypeError("not picklable")

    def __str__(self) -> str:
        return "not the text"


def nested_list(depth: int) -> list:
    """``[[[...]]]``, ``depth`` deep, built without recursion."""
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


#: Values that are no completion (and no ground truth): each must cost only its own item.
UNUSABLE: dict[str, Callable[[random.Random], object]] = {
    "generator": lambda rng: (i for i in range(3)),
    "deep-list": lambda rng: nested_list(rng.choice([1000, 100_000])),
    "raising-object": lambda rng: Raising(),
    "raising-message": lambda rng: [RaisingMessage(role="assistant", content="(define")],
    "function": lambda rng: (lambda: None),
    "none": lambda rng: None,
    "number": lambda rng: rng.choice([0, 7, 1.5, math.nan]),
    "bytes": lambda rng: b"(define (problem",
    "huge-list": lambda rng: list(range(rng.choice([10_000, 1_000_000]))),
    "set": lambda rng: {"(define"},
}

#: Cheap answer mutators (the reward's fuzz grades a few hundred items in seconds).
_CHEAP = ("truncate", "chars", "tokens", "wrapped", "typed", "commented", "redundant-goal")


@dataclass
class RewardCall:
    """One hostile reward call: its arguments and, per item, what grading it must mean.

    ``answers[i]`` is the text item ``i`` must be graded on, with ``flags[i]`` and
    ``anchors[i]`` as plain Python, or ``None`` when the item is unusable (``invalid-input``).
    """

    completions: list
    columns: dict
    truths: list[str]
    answers: list[str | None]
    flags: list[bool]
    anchors: list[tuple[str, ...]]


def hostile_reward_call(truths: list[str], n: int, rng: random.Random,
                        unusable_share: float = 0.15) -> RewardCall:
    """A call of ``n`` items against ``truths``, with NumPy and pandas values here and there."""
    import numpy as np
    import pandas as pd

    from ..grading import load_ground_truth

    completions: list = []
    gts: list = []
    answers: list[str | None] = []
    flags: list[bool] = []
    anchors: list[tuple[str, ...]] = []
    flag_values: list = []
    anchor_values: list = []
    for _ in range(n):
        gt = rng.choice(truths)
        answer: str | None = gt if rng.random() < 0.3 else MUTATORS[rng.choice(_CHEAP)](gt, rng)
        completion: object = rng.choice([
            answer, np.str_(answer), UnpicklableStr(answer), f"<think>(define x</think>{answer}",
            [{"role": "user", "content": "PDDL?"}, {"role": "assistant", "content": answer}],
            {"role": "assistant", "content": [{"type": "text", "text": answer}]}])
        truth: object = rng.choice([gt, np.str_(gt)])
        if rng.random() < unusable_share:
            completion, answer = rng.choice(list(UNUSABLE.values()))(rng), None
        elif rng.random() < unusable_share / 3:
            truth, answer = rng.choice(list(UNUSABLE.values()))(rng), None
        flag = rng.random() < 0.3
        flag_values.append(rng.choice([flag, int(flag), np.bool_(flag), np.int64(flag)]))
        names = sorted(load_ground_truth(gt)[1].objects)
        chosen = tuple(rng.sample(names, rng.randint(0, min(2, len(names)))))
        anchor_values.append(rng.choice([list(chosen), np.array(chosen, dtype=object)])
                             if chosen or rng.random() < 0.5 else None)
        completions.append(completion)
        gts.append(truth)
        answers.append(answer)
        flags.append(flag)
        anchors.append(chosen)
    as_series = rng.random() < 0.5  # a pandas frame's columns, or plain lists
    columns = {"problem_pddl": pd.Series(gts, dtype=object) if as_series else gts,
               "is_placeholder": pd.Series(flag_values, dtype=object) if as_series
               else flag_values,
               "anchored_objects": anchor_values,
               "trainer_state": Raising(), "log_extra": None, "unrelated": (i for i in range(3))}
    return RewardCall(completions, columns, [gt if isinstance(gt, str) else "" for gt in gts],
                      answers, flags, anchors)


#: Values a configuring column (placeholder flag, anchors) must refuse loudly.
BAD_FLAGS: tuple = ("yes", "true", 2, -1, 1.0, math.nan, [True], Raising())
BAD_ANCHORS: tuple = ("b1", 7, [1, 2], [["b1"]], {"b1": 1})
