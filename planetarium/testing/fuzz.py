"""Hostile model outputs for fuzzing the grader.

Each generator turns a valid problem text into something a language model might plausibly (or
implausibly) emit: truncations, character and token mutations, prose and fences, wrong domains,
typed objects, deep nesting, thousands of objects, megabytes of junk.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

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
}

#: Expensive mutators are drawn rarely so a 10,000-input run stays around a minute.
_WEIGHTS = {"deep-nesting": 0.02, "many-objects": 0.01, "huge-junk": 0.01, "repeated": 0.01}


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
