"""Sets of atoms or actions as Python integers: bit ``i`` set means member ``i``.

The searches and proofs over ground tasks (:mod:`.search`, :mod:`.ff`, :mod:`.mutex`,
:mod:`.invariants`, :mod:`.forced`) keep states, preconditions and effects as bit sets, because
union, intersection and subset tests are then single integer operations; this is the one way
back from a bit set to its members.
"""

from __future__ import annotations


def indices(bits: int) -> list[int]:
    """The members of the bit set ``bits``, in increasing order (lowest bit first).

    A sparse set is taken apart lowest bit by lowest bit (each step costs the integer's
    length); a dense one (a state, with its "false" bits) is read off its binary digits, about
    twice as fast there and many times slower on a sparse one.
    """
    if bits.bit_count() * 6 > bits.bit_length():
        return [i for i, digit in enumerate(bin(bits)[:1:-1]) if digit == "1"]
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out
