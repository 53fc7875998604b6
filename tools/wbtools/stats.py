"""Mann-Whitney U-test, two-sided, in pure Python.

It replaces scipy.stats.mannwhitneyu (what Google Benchmark's compare.py calls), whose Debian
package conflicts with libboost-json1.81-dev. It follows scipy 1.10's method="auto": the exact
distribution of U when one sample has at most 8 values and there are no ties, else the normal
approximation with tie correction and continuity correction. tools/tests/test_stats.py checks
it against values scipy 1.10.1 computed.
"""

import math
import statistics
from dataclasses import dataclass

# scipy's threshold for the exact test: used when the smaller sample has at most 8 values
# (and there are no ties); with both larger the normal approximation is close.
EXACT_MAX_SIZE = 8
# ratio_interval's exact cut up to this smaller sample; the normal approximation beyond.
EXACT_INTERVAL_MAX_SIZE = 40


@dataclass(frozen=True)
class UTest:
    u: float  # U of the first sample: pairs (a, b) with a > b, ties counting 1/2
    p: float  # two-sided p-value
    method: str  # "exact" or "normal" (approximation with tie and continuity corrections)


def _ranks(values):
    """Ranks 1..n of values, ties sharing their mean rank; also the tie group sizes."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    ties = []
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for i in order[start:end + 1]:
            ranks[i] = (start + end) / 2 + 1
        ties.append(end - start + 1)
        start = end + 1
    return ranks, ties


def _u_counts(m, n):
    """How many of the C(m+n, m) orderings of m and n values give U = 0, 1, ..., m*n.

    They are the coefficients of the Gaussian binomial prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i).
    Multiplying by (1 - q^k) and dividing by (1 - q^i) are one pass each over a power series
    cut at degree m*n (exact, as the quotient is a polynomial of that degree): O(m^2 n) with
    m the smaller sample, fast even for 8 values against thousands.
    """
    m, n = min(m, n), max(m, n)
    size = m * n + 1
    counts = [1] + [0] * (size - 1)
    for i in range(1, m + 1):
        for u in range(size - 1, n + i - 1, -1):
            counts[u] -= counts[u - n - i]
        for u in range(i, size):
            counts[u] += counts[u - i]
    return counts


def mann_whitney_u(first, second):
    """Two-sided Mann-Whitney U-test of two samples (sequences of numbers, at least one each)."""
    m, n = len(first), len(second)
    if m == 0 or n == 0:
        raise ValueError("mann_whitney_u needs at least one value in each sample")
    ranks, ties = _ranks(list(first) + list(second))
    u1 = sum(ranks[:m]) - m * (m + 1) / 2
    # The distribution is symmetric about m*n/2: the larger of U1 and U2 gives the upper tail.
    upper = max(u1, m * n - u1)
    if min(m, n) <= EXACT_MAX_SIZE and all(t == 1 for t in ties):
        counts = _u_counts(m, n)
        tail = sum(counts[int(upper):]) / math.comb(m + n, m)
        return UTest(u1, min(1.0, 2 * tail), "exact")
    total = m + n
    tie_term = sum(t ** 3 - t for t in ties) / (total * (total - 1))
    sigma = math.sqrt(m * n / 12 * ((total + 1) - tie_term))
    shifted = upper - 0.5 - m * n / 2  # continuity correction towards the mean
    if sigma == 0:  # every value equal: no evidence of a difference
        return UTest(u1, 1.0, "normal")
    z = shifted / sigma
    return UTest(u1, min(1.0, math.erfc(z / math.sqrt(2))), "normal")  # 2 * P(Z > z)


# Confidence intervals without a distribution assumed: benchmark times are skewed (a slow
# repetition is common, a fast outlier impossible), so order statistics, not mean +- t*sd.
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Interval:
    low: float
    high: float
    confidence: float  # the coverage actually reached (order statistics give discrete levels)


def _binomial_tail_index(n, confidence):
    """Largest k >= 1 with P(Binomial(n, 1/2) < k) <= (1 - confidence) / 2, or 0 if none."""
    alpha_half = (1 - confidence) / 2
    below, k = 0.0, 0
    while k < n:
        below_next = below + math.comb(n, k) / 2 ** n  # P(X <= k) = P(X < k + 1)
        if below_next > alpha_half:
            break
        below, k = below_next, k + 1
    return k


def median_interval(values, confidence=CONFIDENCE):
    """Distribution-free interval for the median: [x_(k), x_(n+1-k)] of the sorted values,
    k from the Binomial(n, 1/2) tail. With 6 values it is [min, max] at 96.9 %; with 5 or
    fewer no pair of order statistics reaches 95 % and None is returned."""
    ordered = sorted(values)
    n = len(ordered)
    k = _binomial_tail_index(n, confidence)
    if k == 0:
        return None
    coverage = 1 - 2 * sum(math.comb(n, i) for i in range(k)) / 2 ** n
    return Interval(ordered[k - 1], ordered[n - k], coverage)


def min_max_interval(values):
    """[min, max] of the values with the coverage it has for their median, 1 - 2^(1-n): the
    widest interval order statistics give. A settled competitor (benchmarks/race.hpp) ran 3
    to 5 rounds, too few for 95 % (3: 75 %, 4: 87.5 %, 5: 93.75 %); None without values."""
    if not values:
        return None
    return Interval(min(values), max(values), 1 - 2 ** (1 - len(values)))


def ratio_interval(numerator, denominator, confidence=CONFIDENCE, widest=False):
    """Interval for the ratio of the two samples' typical values (numerator / denominator):
    the Hodges-Lehmann/Moses interval of the shift in log times, that is order statistics
    of the m*n pairwise ratios, cut where the exact distribution of U puts the two-sided
    tail. It is the interval the U-test inverts: it excludes 1 when p < 1 - confidence
    (no ties). With 6 against 6: the 6th smallest to the 6th largest of 36 ratios (95.9 %).
    Returns (point estimate = median of the pairwise ratios, Interval or None when the
    samples are too small for the confidence). widest: samples too small for it get the
    widest interval instead, the smallest to the largest pairwise ratio, with the coverage
    that has (3 against 3: 90 %)."""
    m, n = len(numerator), len(denominator)
    if m == 0 or n == 0:
        raise ValueError("ratio_interval needs at least one value in each sample")
    pairs = sorted(a / b for a in numerator for b in denominator)
    middle = len(pairs) // 2
    point = (pairs[middle] if len(pairs) % 2 else (pairs[middle - 1] + pairs[middle]) / 2)
    alpha_half = (1 - confidence) / 2
    if min(m, n) > EXACT_INTERVAL_MAX_SIZE:
        # The exact counts cost O(m^2 n): hours for two probes of a thousand runs each.
        # U's normal approximation puts the cut; at these sizes it is the exact one to
        # within a pair or two of the m*n.
        z = statistics.NormalDist().inv_cdf(1 - alpha_half)
        c = int(math.floor(m * n / 2 - z * math.sqrt(m * n * (m + n + 1) / 12)))
        if c < 1:
            return point, None
        return point, Interval(pairs[c - 1], pairs[m * n - c], confidence)
    counts = _u_counts(m, n)
    total = math.comb(m + n, m)
    # The largest c with P(U < c) <= alpha/2: the interval is [pairs[c], pairs[m*n - 1 - c]].
    below, c = 0.0, 0
    while c < len(counts) and below + counts[c] / total <= alpha_half:
        below += counts[c] / total
        c += 1
    if c == 0:
        if widest:
            return point, Interval(pairs[0], pairs[-1], 1 - 2 * counts[0] / total)
        return point, None
    return point, Interval(pairs[c - 1], pairs[m * n - c], 1 - 2 * below)
