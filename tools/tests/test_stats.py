"""The pure-Python Mann-Whitney U-test against scipy.stats.mannwhitneyu.

Expected values came from scipy 1.10.1 (Debian 12's python3-scipy),
mannwhitneyu(first, second, alternative="two-sided") with its default method="auto",
printed with repr() and written here as literals.
"""

import math
import random
import unittest
from unittest import mock

from wbtools import stats

# (first, second, scipy's statistic, scipy's p-value, the method ours must have used)
SCIPY_1_10_1 = [
    # No ties, the smaller sample <= 8 values: scipy's exact distribution.
    ([1, 2, 3, 4, 5], [6, 7, 8, 9, 10], 0.0, 0.007936507936507936, "exact"),
    ([19, 22, 16, 29, 24], [20, 11, 17, 12], 17.0, 0.1111111111111111, "exact"),
    ([0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5], [1, 2, 3, 4, 5, 6, 7, 8], 28.0,
     0.7209013209013208, "exact"),
    ([10, 20], [15, 25, 30], 1.0, 0.4, "exact"),
    ([1.0], [2.0], 0.0, 1.0, "exact"),
    ([1.5, 4.5, 7.5], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 12.0, 0.6923076923076923, "exact"),
    # Ties: normal approximation with tie and continuity corrections.
    ([1, 2, 2, 3, 4], [2, 3, 5, 5, 6], 4.5, 0.11049202405566802, "normal"),
    ([1.0, 2.0, 3.0], [3.0, 4.0, 5.0], 0.5, 0.12118327283746319, "normal"),
    ([1.0, 1.0, 1.0], [1.0, 1.0, 1.0], 4.5, 1.0, "normal"),
    # More than 8 values in both: normal approximation even without ties.
    ([3.1, 4.7, 2.2, 5.9, 6.4, 1.8, 7.3, 8.8, 4.1, 5.2],
     [6.6, 9.1, 7.7, 8.2, 10.4, 5.5, 9.9, 11.3, 6.9, 8.5], 11.0, 0.0036105143123296027, "normal"),
    ([5, 6, 7, 8, 9, 10, 11, 12, 13], [1, 2, 3, 4, 5.5, 6.5, 7.5, 8.5, 9.5], 66.0,
     0.0272753837615853, "normal"),
]


class MannWhitneyU(unittest.TestCase):
    def test_matches_scipy(self):
        for first, second, u, p, method in SCIPY_1_10_1:
            with self.subTest(first=first, second=second):
                result = stats.mann_whitney_u(first, second)
                self.assertEqual(result.u, u)
                self.assertAlmostEqual(result.p, p, places=12)
                self.assertEqual(result.method, method)

    def test_symmetric_in_its_samples(self):
        for first, second, _, p, _ in SCIPY_1_10_1:
            swapped = stats.mann_whitney_u(second, first)
            self.assertAlmostEqual(swapped.p, p, places=12)
            self.assertEqual(swapped.u, len(first) * len(second) - stats.mann_whitney_u(
                first, second).u)

    def test_exact_counts_cover_every_ordering(self):
        # C(5+4, 5) = 126 orderings; U = 0 and U = 20 happen once each, U = 1 once (swap the
        # two middle values), U = 2 twice.
        counts = stats._u_counts(5, 4)
        self.assertEqual(sum(counts), 126)
        self.assertEqual((counts[0], counts[1], counts[2], counts[-1], len(counts)),
                         (1, 1, 2, 1, 21))
        self.assertEqual(counts, stats._u_counts(4, 5))
        self.assertEqual(sum(stats._u_counts(8, 3000)), math.comb(3008, 8))

    def test_empty_sample_rejected(self):
        with self.assertRaises(ValueError):
            stats.mann_whitney_u([], [1.0])


if __name__ == "__main__":
    unittest.main()


class Intervals(unittest.TestCase):
    def test_median_interval_needs_six_values_for_95_percent(self):
        self.assertIsNone(stats.median_interval([1, 2, 3, 4, 5]))
        six = stats.median_interval([6, 1, 5, 2, 4, 3])
        self.assertEqual((six.low, six.high), (1, 6))
        self.assertAlmostEqual(six.confidence, 1 - 2 / 64)
        # 20 values: the 6th to the 15th (binomial tail 0.0207 on each side).
        twenty = stats.median_interval(list(range(1, 21)))
        self.assertEqual((twenty.low, twenty.high), (6, 15))
        self.assertGreaterEqual(twenty.confidence, 0.95)

    def test_ratio_interval_six_against_six(self):
        old = [10.0, 10.1, 10.2, 10.3, 10.4, 10.5]
        new = [11.0, 11.1, 11.2, 11.3, 11.4, 11.5]
        point, interval = stats.ratio_interval(new, old)
        pairs = sorted(a / b for a in new for b in old)
        # U's exact distribution for 6 and 6: P(U <= 5) = 0.0206 <= 0.025 < P(U <= 6), so the
        # interval runs from the 6th smallest to the 6th largest of the 36 ratios.
        self.assertEqual((interval.low, interval.high), (pairs[5], pairs[30]))
        self.assertAlmostEqual(interval.confidence, 1 - 2 * 0.02056277056277056)
        self.assertAlmostEqual(point, (pairs[17] + pairs[18]) / 2)
        self.assertGreater(interval.low, 1)

    def test_ratio_interval_agrees_with_the_u_test(self):
        # The interval excludes 1 exactly when the two-sided exact p is below 5 % (no ties).
        old = [1.0, 1.2, 1.4, 1.6, 1.8, 2.0]
        for shift in (0.0, 0.1, 0.3, 0.5, 0.7, 0.9):
            new = [t + shift + 0.01 for t in old]
            _, interval = stats.ratio_interval(new, old)
            p = stats.mann_whitney_u(old, new).p
            self.assertEqual(interval.low > 1, p < 0.05, (shift, interval, p))

    def test_ratio_interval_of_large_samples_cuts_where_the_exact_one_does(self):
        # Two probes of a thousand runs each: the exact counts would take hours, the normal
        # cut takes the same order statistics to within a pair or two.
        rng = random.Random(7)
        first = [rng.lognormvariate(0, 0.1) for _ in range(40)]
        second = [rng.lognormvariate(0.05, 0.1) for _ in range(40)]
        _, exact = stats.ratio_interval(first, second)
        with mock.patch.object(stats, "EXACT_INTERVAL_MAX_SIZE", 10):
            _, normal = stats.ratio_interval(first, second)
        self.assertAlmostEqual(normal.low / exact.low, 1, delta=0.002)
        self.assertAlmostEqual(normal.high / exact.high, 1, delta=0.002)
        big = [rng.lognormvariate(0, 0.1) for _ in range(1500)]
        point, interval = stats.ratio_interval(big, big)
        self.assertAlmostEqual(point, 1.0)
        self.assertLess(interval.low, 1)
        self.assertGreater(interval.high, 1)

    def test_ratio_interval_too_few(self):
        point, interval = stats.ratio_interval([2.0, 2.2], [1.0, 1.1])
        self.assertIsNone(interval)
        # Pairwise ratios 1.818, 2.0, 2.0, 2.2: their median.
        self.assertAlmostEqual(point, 2.0)
