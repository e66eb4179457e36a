"""Atoms that never hold together with a pair of atoms: h^2 on the task with the pair made an atom.

h^2 proves that two atoms never hold together; some facts of a goal state need three.  In
Depots, "crate 2 on crate 1" and "crate 1 at depot 0" make "crate 2 at depot 0" true in every
goal state, but no two of the three atoms exclude a third place for crate 2: h^2 pairs each
with some reachable state.  Haslum's Pi^C compilation (Haslum 2009, "h^m(P) = h^1(P^m)")
adds a conjunction ``c`` of atoms as an atom ``pi_c`` of its own, kept equal to "all of ``c``
hold": then h^2 on the compiled task reasons about ``c`` and one more atom, a triple.

For one pair ``c = {x, y}`` (``pi`` below), every action ``a`` (``s' = (s - del) + add``):

* ``pi`` becomes a precondition wherever ``c`` is one (only strengthens what h^2 may combine);
* ``a`` deletes ``pi`` when it deletes ``x`` or ``y`` (without adding it back);
* ``a`` adds ``pi`` when it adds both;
* when it adds one and deletes neither, a copy of ``a`` that also needs the other adds ``pi``
  (the original stays, for states where the other is false).

Every plan of the task is a plan of the compiled task that keeps ``pi`` equal to ``c`` (take
the copy whenever the other atom holds), so a state with ``c`` and ``q`` reachable in the task
makes ``pi`` and ``q`` reachable together in the compiled one; h^2 over-approximates that.  So
``q`` h^2-mutex with ``pi`` never holds together with ``x`` and ``y``: sound, and exact
wherever it is used (:mod:`.forced` reads it as "false in every goal state").
"""

from __future__ import annotations

from collections.abc import Sequence

from .mutex import h2_masks
from .regression import BitOp


def pair_mutexes(ops: Sequence[BitOp], init: int, changing: int, n: int, x: int,
                 y: int) -> int:
    """The atoms (bits below ``n``) that hold in no reachable state where atoms ``x`` and ``y``
    both hold (module docstring), from the task's actions ``ops`` over ``n`` atoms, its
    initial state and the atoms some action changes; all atoms when the pair never holds.
    :class:`~planetarium.errors.ResourceLimitError` past the deadline in force (h^2's)."""
    pair = (1 << x) | (1 << y)
    pi = 1 << n
    compiled: list[BitOp] = []
    for pre, add, delete in ops:
        if pre & pair == pair:
            pre |= pi
        if delete & ~add & pair:
            compiled.append((pre, add, delete | pi))
        elif add & pair == pair:
            compiled.append((pre, add | pi, delete))
        elif add & pair:
            compiled.append((pre, add, delete))
            needs = pre | (pair & ~add)
            compiled.append((needs | pi if needs & pair == pair else needs, add | pi, delete))
        else:
            compiled.append((pre, add, delete))
    start = init | (pi if init & pair == pair else 0)
    compatible = h2_masks(compiled, start, changing | pi, n + 1)
    return ~compatible[n] & ((1 << n) - 1)
