"""h^2 mutexes over bit sets: which pairs of atoms can never hold together.

The same fixpoint as :func:`~planetarium.strips.relaxed.h2_reachable_pairs` (Haslum and
Geffner's h^2 read as reachability: an action adds ``p`` next to a surviving ``q`` only when
``q`` may hold with every precondition), on Python ints instead of sets of atoms: the fully
specified goals of :mod:`.forced` need it on every problem, where the set version cost most of
the time.  Atoms no action changes hold in every reachable state, so they are left out of the
fixpoint and made compatible with every reachable atom afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..limits import check_deadline
from .bits import indices as bit_indices
from .regression import BitOp

#: Actions looked at between two looks at the deadline.
_CLOCK_EVERY = 256


def h2_masks(ops: Sequence[BitOp], init: int, changing: int, n: int) -> list[int]:
    """Per atom index ``i < n``, the bit set of atoms that may hold together with it (``i``
    itself included when it is reachable at all; ``0`` when it is not)."""
    comp = [0] * n
    reached = init
    fluent_init = init & changing
    for i in bit_indices(fluent_init):
        comp[i] = fluent_init
    fluent_ops = [(pre & changing, add & changing, delete & changing) for pre, add, delete in ops]
    changed = True
    while changed:
        changed = False
        for number, (pre, add, delete) in enumerate(fluent_ops):
            if not number % _CLOCK_EVERY:
                check_deadline("h^2 mutexes")
            if pre & ~reached:
                continue
            survivors = reached
            ok = True
            for p in bit_indices(pre):
                if pre & ~comp[p]:
                    ok = False
                    break
                survivors &= comp[p]
            if not ok:
                continue
            survivors &= ~delete & ~add
            gain = add | survivors
            for q in bit_indices(add):
                new = gain & ~comp[q]
                if new:
                    comp[q] |= new
                    changed = True
                    bit = 1 << q
                    for r in bit_indices(new):
                        comp[r] |= bit
            if add & ~reached:
                reached |= add
                changed = True
    static = init & ~changing
    everything = reached | static
    return [everything if static >> i & 1 else (comp[i] | static if reached >> i & 1 else 0)
            for i in range(n)]
