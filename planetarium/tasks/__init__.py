"""The interface between the dataset generator and the domains' task modules.

A domain contributes dataset rows by exposing ``TASKS`` (a :class:`DomainTasks`) from
``planetarium/domains/<pkg>/tasks.py``; ``BuiltinDomain.dataset_tasks()`` returns it.  The
interface sits below :mod:`planetarium.domains` in the layer order and imports nothing else from
Planetarium: domains implement it, and :mod:`planetarium.dataset` (above them) consumes it.

Vocabulary, as in the published dataset:

* a **layout** is a named state shape ("stack", "one_room", "grid", ...).  It may serve as an
  initial state, a goal, or both (:attr:`Layout.kind`).
* a **combination** is an (init layout, goal layout) pair.  A *tied* layout's goal is derived
  from its own initial state (e.g. "invert every tower"), so it only combines with itself.
* a **parameter** is one JSON-like value (an int, a list or a mapping) that sizes the problem,
  e.g. Blocks World's list of tower heights ``[2, 3]``.  A combination is generated for the
  parameters of *both* its layouts (the published generator's rule): a goal layout such as
  "on_table" has no parameter list of its own and borrows the init layout's.  A parameter that
  does not fit a combination makes :attr:`DomainTasks.build` raise :class:`DoesNotFit`, and the
  generator skips it silently.
* every built :class:`Instance` gives rise to up to four rows, one per **abstractness class**
  (explicit/abstract init x explicit/abstract goal).  A combination involving a *strict* or
  *tied* layout only gets the two same-kind classes, and its rows are never placeholder rows.
* rows are **de-duplicated** per domain by what their two texts say: a row whose init text and
  goal text say what an earlier row's say is dropped (the published generator's rule, whose
  text column was unique).  What a text says is the text itself, unless the instance gives a
  key for it (:attr:`Instance.init_abstract_key`, :attr:`Instance.goal_abstract_key`).  The
  built-in domains reproduce the published dataset while writing better texts, so their
  abstract texts carry as key what the *published* abstract text of the layout stated (its
  equal_towers goal, say, stated only the number of towers); their explicit texts need no key,
  because they state the same atoms in the same order as the published ones did.

Example (a toy domain with one parameterised layout)::

    SENTENCES = ExplicitTemplates(
        intro=lambda objects, types: f"You have {len(objects)} blocks.",
        sentences={"on-table": ("{0} is on the table.", "{0} should be on the table."),
                   "clear": ("{0} is clear.", "{0} should be clear."),
                   "arm-empty": ("Your arm is empty.", "Your arm should be empty.")},
    )

    def build(init: Layout, goal: Layout, param) -> Instance:
        if init.name != "on_table" or goal.name != "on_table":
            raise DoesNotFit("only on_table")
        blocks = tuple(f"b{i}" for i in range(1, param + 1))
        atoms = (("arm-empty",),) + tuple(a for b in blocks
                                          for a in (("clear", b), ("on-table", b)))
        return SENTENCES.instance(
            objects=blocks, init=atoms, goal=atoms,
            init_abstract=f"You have {param} blocks, each on the table, and your arm is empty.",
            goal_abstract="Your goal is to leave every block alone on the table.")

    TASKS = DomainTasks(
        domain="blocksworld",
        layouts=(Layout("on_table", "both", space=lambda max_blocks=3: list(range(1, max_blocks + 1))),),
        build=build,
        explicit=SENTENCES,
    )

The dataset configuration (``data/*.yaml``) chooses each layout's parameters either as an
explicit list (``params: [...]``) or by calling the layout's :attr:`Layout.space` with keyword
arguments (``space: {max_blocks: 25}``); a layout not named in the configuration uses
``space()`` with its defaults.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Atom = tuple[str, ...]
#: One JSON-like parameter value (int, list, mapping), as loaded from YAML.
Param = Any
Kind = Literal["init", "goal", "both"]


class DoesNotFit(ValueError):
    """A parameter that cannot size a given combination (the generator skips it)."""


def param_key(param: Param) -> str:
    """Canonical text of a parameter: used to de-duplicate parameters and to name problems."""
    return json.dumps(param, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Layout:
    """A named state layout of one domain.

    ``space`` returns the layout's own parameter list; keyword arguments come from the dataset
    configuration.  ``None`` means the layout has no parameters of its own and only borrows the
    other layout's in a combination (two such layouts never combine: they produce no rows).
    """

    name: str
    kind: Kind
    tied: bool = False  # goal derived from the init: combines with itself only, identity rows
    strict: bool = False  # same-kind abstractness classes only, identity rows
    space: Callable[..., Sequence[Param]] | None = None
    summary: str = ""  # one line for reports and documentation

    @property
    def can_init(self) -> bool:
        return self.kind in ("init", "both")

    @property
    def can_goal(self) -> bool:
        return self.kind in ("goal", "both")


@dataclass(frozen=True)
class Instance:
    """One ground problem with its four texts (init/goal, explicit/abstract).

    ``objects`` are in declaration order; ``object_types`` is ``None`` for untyped domains,
    else aligned with ``objects``.  ``init``/``goal`` keep the order the texts use.

    ``init_abstract_key`` / ``goal_abstract_key``: what the abstract texts say, for
    de-duplication, when that is not the texts themselves (see the module docstring).
    ``init_size`` / ``goal_size``: the proposition counts of the dataset's size columns when
    they are not ``len(init)`` / ``len(goal)`` (a domain reproducing published counts).
    """

    objects: tuple[str, ...]
    init: tuple[Atom, ...]
    goal: tuple[Atom, ...]
    init_explicit: str
    goal_explicit: str
    init_abstract: str
    goal_abstract: str
    object_types: tuple[str, ...] | None = None
    init_abstract_key: Hashable | None = None
    goal_abstract_key: Hashable | None = None
    init_size: int | None = None
    goal_size: int | None = None


@dataclass(frozen=True)
class ExplicitTemplates:
    """Explicit text: an intro, then exactly one sentence per atom, from per-predicate formats.

    ``sentences[predicate] = (init_format, goal_format)`` with ``{0}``, ``{1}``, ... standing
    for the atom's arguments.  Every sentence ends with a period and sentences are joined by
    one space, so a test can split the text and map each atom to its sentence
    (:meth:`sentence`).  ``intro`` gets the instance's objects and types and introduces them
    (it must not state atoms, so the one-sentence-per-atom rule holds).
    """

    intro: Callable[[tuple[str, ...], tuple[str, ...] | None], str]
    sentences: Mapping[str, tuple[str, str]]
    goal_intro: str = "Your goal is to have the following:"
    #: Rendered sentences: the same atoms recur across ~10^5 problems, formatting dominated.
    _cache: dict[tuple[Atom, bool], str] = field(default_factory=dict, repr=False, compare=False)

    def sentence(self, atom: Atom, is_init: bool) -> str:
        key = (atom, is_init)
        text = self._cache.get(key)
        if text is None:
            init_fmt, goal_fmt = self.sentences[atom[0]]
            text = self._cache[key] = (init_fmt if is_init else goal_fmt).format(*atom[1:])
        return text

    def render(self, atoms: Sequence[Atom], is_init: bool,
               objects: tuple[str, ...] = (), object_types: tuple[str, ...] | None = None) -> str:
        head = self.intro(objects, object_types) if is_init else self.goal_intro
        body = " ".join(self.sentence(a, is_init) for a in atoms)
        return f"{head} {body}" if head else body

    def instance(self, *, objects: Sequence[str], init: Sequence[Atom], goal: Sequence[Atom],
                 init_abstract: str, goal_abstract: str,
                 object_types: Sequence[str] | None = None,
                 init_abstract_key: Hashable | None = None, goal_abstract_key: Hashable | None = None,
                 init_size: int | None = None, goal_size: int | None = None) -> Instance:
        """Build an :class:`Instance`, rendering both explicit texts with these templates; the
        optional keys and sizes go to the instance as they are."""
        objs = tuple(objects)
        types = tuple(object_types) if object_types is not None else None
        return Instance(
            objects=objs, init=tuple(init), goal=tuple(goal),
            init_explicit=self.render(init, True, objs, types),
            goal_explicit=self.render(goal, False),
            init_abstract=init_abstract, goal_abstract=goal_abstract, object_types=types,
            init_abstract_key=init_abstract_key, goal_abstract_key=goal_abstract_key,
            init_size=init_size, goal_size=goal_size,
        )


@dataclass(frozen=True)
class DomainTasks:
    """Everything a domain contributes to the dataset.

    ``build(init_layout, goal_layout, param)`` returns the :class:`Instance` or raises
    :class:`DoesNotFit`.  It must be deterministic and fast (pure string/tuple work: the full
    dataset builds ~150k instances in seconds) and must not parse or grade.
    ``typed`` selects ``name - type`` object declarations in the ground-truth PDDL.
    """

    domain: str
    layouts: tuple[Layout, ...]
    build: Callable[[Layout, Layout, Param], Instance]
    explicit: ExplicitTemplates
    typed: bool = False
    layout_by_name: dict[str, Layout] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [layout.name for layout in self.layouts]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.domain}: duplicate layout names in {names}")
        object.__setattr__(self, "layout_by_name", {lay.name: lay for lay in self.layouts})

    def combinations(self, names: Sequence[str] | None = None) -> list[tuple[Layout, Layout]]:
        """Every (init, goal) pair of the named layouts (default: all, in declaration order)
        allowed by the kinds and the tied flags: init layouts in order, each with the goal
        layouts in order (the published generator's loop, whose order decides which of two rows
        saying the same is kept)."""
        layouts = self.layouts if names is None else [self.layout_by_name[n] for n in names]
        pairs = []
        for init in layouts:
            if not init.can_init:
                continue
            for goal in layouts:
                if not goal.can_goal or ((init.tied or goal.tied) and init is not goal):
                    continue
                pairs.append((init, goal))
        return pairs


def same_kind_only(init: Layout, goal: Layout) -> bool:
    """Whether a combination gets only explicit->explicit and abstract->abstract rows."""
    return init.tied or goal.tied or init.strict or goal.strict


def is_placeholder(init: Layout, goal: Layout, init_is_abstract: bool, goal_is_abstract: bool) -> bool:
    """Whether a row is graded in placeholder mode (goal objects may be permuted).

    A fully explicit row names every object in both states, and a tied or strict combination
    relates its goal to named initial objects, so those rows need object identity; an abstract
    part leaves the choice of objects open, so the grader must accept any permutation.
    """
    if same_kind_only(init, goal):
        return False
    return init_is_abstract or goal_is_abstract
