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
    itself included when it is reachable at all; ``0`` when it is not).

    An action's contribution depends only on the compatible sets of its preconditions (on the
    reached atoms when it has none), so each pass looks again only at the actions one of whose
    preconditions gained a pair since their last look: the fixpoint is the same as sweeping
    every action until nothing changes, with most of the sweeps skipped.
    """
    comp = [0] * n
    reached = init
    fluent_init = init & changing
    for i in bit_indices(fluent_init):
        comp[i] = fluent_init
    table = []
    for pre, add, delete in ops:
        pre &= changing
        add &= changing
        table.append((pre, bit_indices(pre), add, bit_indices(add), ~(delete & changing) & ~add))
    clock = 1  # stamps: an atom's compatible set (or ``reached``) changed at this time
    stamp = [1] * n
    reached_stamp = 1
    looked = [0] * len(table)  # the clock when an action was last looked at
    changed = True
    while changed:
        changed = False
        for number, (pre, pres, add, adds, keep) in enumerate(table):
            if not number % _CLOCK_EVERY:
                check_deadline("h^2 mutexes")
            since = looked[number]
            if pres:
                if all(stamp[p] <= since for p in pres):
                    continue
            elif reached_stamp <= since:
                continue
            looked[number] = clock
            if pre & ~reached:
                continue
            survivors = reached
            ok = True
            for p in pres:
                mates = comp[p]
                if pre & ~mates:
                    ok = False
                    break
                survivors &= mates
            if not ok:
                continue
            gain = add | (survivors & keep)
            for q in adds:
                new = gain & ~comp[q]
                if new:
                    clock += 1
                    comp[q] |= new
                    stamp[q] = clock
                    changed = True
                    bit = 1 << q
                    for r in bit_indices(new):
                        comp[r] |= bit
                        stamp[r] = clock
            if add & ~reached:
                clock += 1
                reached |= add
                reached_stamp = clock
                changed = True
    static = init & ~changing
    everything = reached | static
    return [everything if static >> i & 1 else (comp[i] | static if reached >> i & 1 else 0)
            for i in range(n)]
