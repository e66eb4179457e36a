"""The few statistics a report needs, in exact arithmetic, so no rate is shown without its doubt.

A benchmark rate over a few hundred items moves by several points from sampling alone, and a
tiny run has a handful of items: every proportion therefore carries its Wilson score interval
(good coverage even at 0% and 100%, where the textbook Wald interval collapses to a point).
Two runs over the same items are compared item by item: only the items on which they disagree
carry information about which is better, and the exact McNemar test asks whether those
disagreements split more unevenly than fair coin flips would.  Holm's step-down adjustment keeps
the chance of any false "B beats A" at 5% when a report makes many such comparisons.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The standard normal quantile for a two-sided 95% interval, Phi^-1(0.975).
Z95 = 1.959963984540054


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials (Wilson 1927, no continuity
    correction); raises ``ValueError`` for ``n == 0``, where there is no rate to bound."""
    if n <= 0:
        raise ValueError("no trials: a rate over 0 items has no interval")
    if not 0 <= k <= n:
        raise ValueError(f"successes {k} outside 0..{n}")
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # at k == 0 or k == n one bound is exactly 0 or 1; clamp the rounding error away
    return (0.0 if k == 0 else max(0.0, centre - half), 1.0 if k == n else min(1.0, centre + half))


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value from the discordant pairs.

    ``only_a``: items run A got right and run B wrong; ``only_b``: the reverse.  Under "no
    difference" each discordant item is equally likely to fall either way, so the smaller count
    is Binomial(only_a + only_b, 1/2); the p-value doubles its lower tail (capped at 1).  With
    no discordant pair there is no evidence either way: p = 1.
    """
    if only_a < 0 or only_b < 0:
        raise ValueError("discordant counts cannot be negative")
    total = only_a + only_b
    tail = sum(math.comb(total, i) for i in range(min(only_a, only_b) + 1))
    return min(1.0, 2 * tail / 2**total)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the input order (family-wise error control)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


@dataclass(frozen=True)
class Rate:
    """``k`` of ``n`` items passed; ``n == 0`` means there were no items, not a 0% rate."""

    k: int
    n: int

    @property
    def value(self) -> float | None:
        return self.k / self.n if self.n else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson_interval(self.k, self.n) if self.n else None

    def __str__(self) -> str:
        """``45.0% [25.8, 65.8] (9/20)``: the rate, its 95% interval in points, and the counts."""
        interval, value = self.interval, self.value
        if interval is None or value is None:
            return "no items"
        low, high = interval
        return f"{100 * value:.1f}% [{100 * low:.1f}, {100 * high:.1f}] ({self.k}/{self.n})"
