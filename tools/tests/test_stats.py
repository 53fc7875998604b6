"""The pure-Python Mann-Whitney U-test against scipy.stats.mannwhitneyu.

Expected values came from scipy 1.10.1 (Debian 12's python3-scipy),
mannwhitneyu(first, second, alternative="two-sided") with its default method="auto",
printed with repr() and written here as literals.
"""

import math
import unittest

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
