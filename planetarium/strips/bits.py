"""Sets of atoms or actions as Python integers: bit ``i`` set means member ``i``.

The searches and proofs over ground tasks (:mod:`.search`, :mod:`.ff`, :mod:`.mutex`,
:mod:`.invariants`, :mod:`.forced`) keep states, preconditions and effects as bit sets, because
union, intersection and subset tests are then single integer operations; this is the one way
back from a bit set to its members.
"""

from __future__ import annotations


def indices(bits: int) -> list[int]:
    """The members of the bit set ``bits``, in increasing order (lowest bit first)."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out
