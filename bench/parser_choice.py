"""Why Planetarium reads PDDL with its own regex tokenizer: measure the alternatives.

    python bench/parser_choice.py

Times, on the same generated problems, (1) a lark LALR S-expression grammar built once,
(2) the ``pddl`` package's problem parser (built once, given the domain), (3)
planetarium.pddl.sexpr.read_sexprs (the exact reader: every list with its line) and (4)
planetarium.pddl.sexpr.read_quick (the quick reader ``read_problem`` tries first: tuples, no
line numbers), and prints the median milliseconds per problem.
"""

from __future__ import annotations

import random
import statistics
import time

import lark

from planetarium.pddl.sexpr import read_quick, read_sexprs
from planetarium.testing import pairs
from planetarium.testing.generators import blocksworld_problem

GRAMMAR = r"""
start: _item*
_item: list | SYMBOL
list: "(" _item* ")"
SYMBOL: /[^\s();]+/
COMMENT: /;[^\n]*/
%import common.WS
%ignore WS
%ignore COMMENT
"""


class _ToLists(lark.Transformer):
    def list(self, items):
        return items

    def start(self, items):
        return items


def median_ms(fn, texts) -> float:
    times = []
    for text in texts:
        t0 = time.perf_counter()
        fn(text)
        times.append(time.perf_counter() - t0)
    return 1e3 * statistics.median(times)


def main() -> None:
    rng = random.Random(0)
    texts = [pairs.render(blocksworld_problem(rng, n), rng, rename=False)
             for n in (8, 16, 30) for _ in range(30)]
    lark_parser = lark.Lark(GRAMMAR, parser="lalr", lexer="basic", transformer=_ToLists())
    print(f"lark LALR (built once)      {median_ms(lark_parser.parse, texts):8.3f} ms/problem")
    try:
        from pddl.parser.problem import ProblemParser

        problem_parser = ProblemParser()
        print(f"pddl package (built once)   {median_ms(problem_parser, texts):8.3f} ms/problem")
    except Exception as err:  # the pddl package is optional here; say why it was not timed
        print(f"pddl package                 not timed: {type(err).__name__}: {err}")
    print(f"planetarium exact reader    {median_ms(read_sexprs, texts):8.3f} ms/problem")
    print(f"planetarium quick reader    {median_ms(read_quick, texts):8.3f} ms/problem")


if __name__ == "__main__":
    main()
