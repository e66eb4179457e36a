"""The generic grading path at ACPBench's sizes: decided share and time per pair, per domain.

Every domain is graded from its file alone (``grade(..., domain=Domain.from_pddl(text))``, what
``grade --domain FILE`` does: no closed form), one pair at a time in this process (one worker),
under the grader's time limit (default 10 s).  The ground truths are ACPBench's own problems
where the records hold some (``PDDL_problem`` of ``--records``: the dev split's eight STRIPS
domains; alfworld's ``alfred`` from ``tests/fixtures/acp-test-style``), else problems of
:mod:`planetarium.testing.acp_problems` at ACPBench's sizes.  Each truth is graded against

* ``renamed``: its objects renamed and redeclared in another order (equivalent);
* ``implied``: renamed, with implied goal facts added — up to three the engine's
  ``fully_specify`` finds within the time limit, else static initial facts, which every goal
  state holds (equivalent);
* ``wrong``: one goal fact's last argument replaced by another object of its type, or one goal
  fact dropped (not equivalent unless a symmetry or an implication makes it so);
* ``strict`` (with ``--strict``; STRIPS files only): the goal's objects renamed, the initial
  state kept, graded in strict placeholder mode (``reachable-goal-states``): equivalent when a
  renaming maps one set of goal states onto the other — a round trip of initial states proves
  it, the facts of some goal state refute it, else the goal states are enumerated.

An ADL domain's problems (alfred) are compiled when read, so their variants are made by editing
the record's text (objects renamed word by word, domain constants kept; the goal rewritten).

Prints, per domain and variant (and ``all``: the domain's pairs pooled), the share decided
(not ``timeout``), the median and 95th percentile seconds per pair and the verdicts.  Each pair
starts cold: the ground tasks the engine keeps per process
(:func:`~planetarium.strips.forced.goal_states`) are dropped first, so a pair pays for its
ground truth too, as a single ``grade`` call does.  Timings belong to the machine: never
asserted.

    python bench/bench_generic_domains.py [--per-domain 5] [--timeout 10] [--domains ferry,grid]
        [--strict]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from planetarium.domains import Domain
from planetarium.errors import PlanetariumError
from planetarium.grading import Status, grade
from planetarium.limits import Deadline
from planetarium.pddl.problem import Problem
from planetarium.pddl.writer import problem_to_pddl
from planetarium.strips.forced import forget_ground_tasks
from planetarium.testing.acp_problems import GENERATORS, GRADED_NAMES, domain_text
from planetarium.testing.pairs import goal_renamed, renamed

ROOT = Path(__file__).resolve().parent.parent
RECORDS = (ROOT.parent / "shared" / "reference" / "acpbench" / "dataset",
           ROOT / "tests" / "fixtures" / "acp-test-style")
#: Domains graded from records only (no generator): ACPBench's file for each.
RECORD_ONLY = {"alfred": "alfred.pddl"}


def record_problems(folders: list[Path]) -> dict[str, list[str]]:
    """ACPBench's problem texts per domain name (deduplicated, in file order)."""
    found: dict[str, dict[str, None]] = {}
    for folder in folders:
        for path in sorted(folder.rglob("*.json")) if folder.is_dir() else ():
            for record in json.loads(path.read_text()):
                if not isinstance(record, dict) or "PDDL_problem" not in record:
                    continue
                name = re.search(r"\(domain\s+([^\s)]+)", record["PDDL_domain"])
                if name:
                    found.setdefault(name.group(1).lower(), {})[record["PDDL_problem"]] = None
    return {name: list(texts) for name, texts in found.items()}


def implied_goal(domain: Domain, truth: Problem, timeout_s: float) -> tuple[frozenset, str]:
    """Up to three implied goal facts: the engine's within ``timeout_s``, else static facts (a
    domain without static predicates then gets none: its ``implied`` answer is a renamed copy)."""
    try:
        with Deadline.start(timeout_s).applied():
            full = domain.fully_specify(truth)
        static = domain.definition.static_predicates
        facts = sorted((full or frozenset()) - truth.goal - {a for a in truth.init if a[0] in static})
        if facts:
            return frozenset(facts[:3]), "engine"
    except PlanetariumError:
        pass
    statics = sorted(a for a in domain.static_facts(truth) if not a[0].startswith("adl-"))
    return frozenset(statics[:3]), "static" if statics else "none (a renamed copy)"


def timed(domain: Domain, truth: str, pred: str, timeout_s: float,
          strict: bool = False) -> tuple[float, str, bool | None]:
    forget_ground_tasks()  # from cold: what the implied facts or the pair before left is dropped
    start = time.perf_counter()
    result = grade(truth, pred, domain=domain, timeout_s=timeout_s, is_placeholder=strict,
                   placeholder_semantics="reachable-goal-states" if strict else "paper")
    return time.perf_counter() - start, result.equivalence.status.value, result.equivalent


def truths_of(name: str, records: dict[str, list[str]], count: int,
              rng: random.Random) -> tuple[Domain, list[tuple[Problem, str]], str]:
    """The domain, and its ground truths with their texts."""
    file = RECORD_ONLY.get(name) or GENERATORS[name].file
    domain = Domain.from_pddl(domain_text(file))
    texts = records.get(name, [])
    if len(texts) >= count or name in RECORD_ONLY:
        graded = GRADED_NAMES.get(name, name)
        texts = [t.replace(f"(:domain {name})", f"(:domain {graded})") for t in texts[:count]]
        return domain, [(domain.read_problem(t), t) for t in texts], "records"
    gen = GENERATORS[name]
    problems = [gen.problem(rng, gen.acp) for _ in range(count)]
    return domain, [(p, "") for p in problems], f"generated, size {gen.acp}"


def wrong_goal(truth: Problem, rng: random.Random) -> frozenset:
    """The goal with one fact's last argument replaced by another object of its type, a fact
    the initial state lacks replaced by one it lacks where there is one (a fact true from the
    start and never undone is implied: dropping it would change nothing); where no such
    replacement exists, one goal fact the initial state lacks dropped."""
    type_of = truth.type_of
    goal = sorted(truth.goal)
    for victim in sorted(goal, key=lambda a: (a in truth.init, rng.random())):
        others = [(*victim[:-1], o) for o in truth.objects if len(victim) > 1
                  and type_of[o] == type_of[victim[-1]]]
        others = [a for a in others if a not in truth.init and a not in truth.goal]
        if others:
            return (truth.goal - {victim}) | {rng.choice(others)}
    pending = sorted(truth.goal - truth.init)  # every object taken (visit-all): drop one fact
    return truth.goal - {rng.choice(pending)} if len(pending) > 1 else truth.goal


def goal_text(text: str, goal: frozenset) -> str:
    """``text`` with its ``(:goal ...)`` section replaced by the conjunction of ``goal``."""
    start = text.index("(:goal")
    depth, end = 0, start
    for end in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[end], 0)
        if depth == 0:
            break
    atoms = " ".join("(" + " ".join(a) + ")" for a in sorted(goal))
    return f"{text[:start]}(:goal (and {atoms})){text[end + 1:]}"


def renamed_text(text: str, truth: Problem, domain: Domain, rng: random.Random) -> str:
    """``text`` with every object that is not a domain constant renamed (word by word)."""
    section = re.search(r"\(:constants([^)]*)\)", domain.pddl.lower())
    tokens = section.group(1).split() if section else []
    constants = {t for i, t in enumerate(tokens) if t != "-" and (i == 0 or tokens[i - 1] != "-")}
    names = [o for o in truth.objects if o not in constants and re.search(rf"\b{o}\b", text)]
    fresh = dict(zip(names, rng.sample([f"x{i}" for i in range(len(names))], len(names)),
                     strict=True))
    return re.sub(r"[\w-]+", lambda m: fresh.get(m.group(0), m.group(0)), text.lower())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-domain", type=int, default=5, help="ground truths per domain")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per pair")
    parser.add_argument("--domains", default="", help="comma-separated (default: all)")
    parser.add_argument("--records", type=Path, action="append",
                        help="folders of ACPBench records (repeatable)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--strict", action="store_true",
                        help="add the goal-renamed pairs graded in strict placeholder mode")
    args = parser.parse_args()
    strict_rng = random.Random(args.seed + 1)  # the other variants draw as without --strict
    records = record_problems(args.records or list(RECORDS))
    names = [n for n in args.domains.split(",") if n] or sorted({*GENERATORS, *RECORD_ONLY})
    rng = random.Random(args.seed)
    print(f"{'domain':18} {'variant':8} {'n':>3} {'decided':>8} {'median s':>9} {'p95 s':>7}  "
          "verdicts (yes/no/undecided)  source")
    for name in names:
        domain, truths, source = truths_of(name, records, args.per_domain, rng)
        typed = domain.definition.typed
        rows: dict[str, list[tuple[float, str, bool | None]]] = {"renamed": [], "implied": [],
                                                                 "wrong": [], "strict": []}
        origins: Counter[str] = Counter()
        for truth, original in truths:
            extra, origin = implied_goal(domain, truth, args.timeout)
            origins[origin] += 1
            if domain.compiles_adl:  # compiled problems are not written back: edit the text
                text = original
                variants = {"renamed": renamed_text(original, truth, domain, rng),
                            "implied": renamed_text(goal_text(original, truth.goal | extra),
                                                    truth, domain, rng),
                            "wrong": goal_text(original, wrong_goal(truth, rng))}
            else:
                text = problem_to_pddl(truth, typed=typed)
                variants = {label: problem_to_pddl(p, typed=typed) for label, p in (
                    ("renamed", renamed(truth, rng)),
                    ("implied", renamed(replace(truth, goal=truth.goal | extra), rng)),
                    ("wrong", replace(truth, goal=wrong_goal(truth, rng))))}
            for label, prediction in variants.items():
                rows[label].append(timed(domain, text, prediction, args.timeout))
            if args.strict and not domain.compiles_adl:
                prediction = problem_to_pddl(goal_renamed(truth, strict_rng), typed=typed)
                rows["strict"].append(timed(domain, text, prediction, args.timeout, strict=True))
        rows["all"] = [r for results in rows.values() for r in results]  # the domain pooled
        for label, results in rows.items():
            if not results:
                continue
            seconds = sorted(r[0] for r in results)
            decided = sum(r[1] == Status.DECIDED.value for r in results)
            verdicts = Counter({True: "yes", False: "no", None: "undecided"}[r[2]] for r in results)
            p95 = seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))] if seconds else 0.0
            note = f"{source}" + (f"; implied facts: {dict(origins)}" if label == "implied" else
                                  "; every pair above" if label == "all" else "")
            print(f"{name:18} {label:8} {len(results):3d} {decided / max(1, len(results)):8.0%} "
                  f"{statistics.median(seconds) if seconds else 0.0:9.3f} {p95:7.3f}  "
                  f"{verdicts['yes']}/{verdicts['no']}/{verdicts['undecided']:<24} {note}")


if __name__ == "__main__":
    main()
