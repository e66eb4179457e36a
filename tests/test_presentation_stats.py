"""The report's statistics against published values and p-values worked out by hand."""

from __future__ import annotations

import math

import pytest

from planetarium.presentation.stats import Rate, holm, mcnemar_exact, wilson_interval


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion: comparison
        # of seven methods", Statistics in Medicine 17:857-872, Table I, method 3 (Wilson score
        # interval without continuity correction), to the four decimals printed there.
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0000, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_newcombe_1998(k, n, low, high):
    got = wilson_interval(k, n)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_bounds_are_exact_at_the_extremes_and_symmetric():
    assert wilson_interval(0, 7)[0] == 0.0 and wilson_interval(7, 7)[1] == 1.0
    low, high = wilson_interval(3, 10)
    mirrored = wilson_interval(7, 10)
    assert (low, high) == pytest.approx((1 - mirrored[1], 1 - mirrored[0]))
    # z^2 / (n + z^2) is the upper bound at k = 0, in closed form
    z = 1.959963984540054
    assert wilson_interval(0, 20)[1] == pytest.approx(z * z / (20 + z * z))


def test_wilson_refuses_an_empty_sample():
    with pytest.raises(ValueError, match="0 items"):
        wilson_interval(0, 0)
    with pytest.raises(ValueError):
        wilson_interval(5, 4)


@pytest.mark.parametrize(
    ("only_a", "only_b", "expected"),
    [
        # 2 * P(X <= 1), X ~ Binomial(8, 1/2) = 2 * (1 + 8) / 256
        (1, 7, 18 / 256),
        (7, 1, 18 / 256),
        # 2 * P(X = 0), X ~ Binomial(5, 1/2) = 2 / 32
        (0, 5, 2 / 32),
        # 2 * P(X <= 6), X ~ Binomial(21, 1/2) = 2 * 82160 / 2^21
        (6, 15, 2 * 82160 / 2**21),
        # a tie: the doubled tail exceeds 1 and is capped
        (3, 3, 1.0),
        # no discordant pair: no evidence either way
        (0, 0, 1.0),
    ],
)
def test_exact_mcnemar_by_hand(only_a, only_b, expected):
    assert mcnemar_exact(only_a, only_b) == pytest.approx(expected, rel=1e-12)


def test_exact_mcnemar_handles_large_counts():
    p = mcnemar_exact(400, 600)
    assert 0 < p < 1e-9 and math.isfinite(p)


def test_holm_step_down():
    # sorted: 0.01 * 3 = 0.03; 0.03 * 2 = 0.06; 0.04 * 1 = 0.04 -> kept monotone at 0.06
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def test_rate_text_and_no_items():
    assert str(Rate(9, 20)) == "45.0% [25.8, 65.8] (9/20)"
    assert str(Rate(0, 0)) == "no items"
    assert Rate(0, 0).value is None and Rate(0, 0).interval is None
    assert Rate(0, 5).value == 0.0 and Rate(0, 5).interval[1] > 0.4
