"""The relay-2009 fit: solved by hand, and links.json must hold the same numbers."""

import unittest

from wbtools.transfer import fit, links, published


class Relay2009Fit(unittest.TestCase):
    def test_solution_by_hand(self):
        # Subtracting the JSON equation from the Atom one removes the latency:
        #   9 * (1,048,576 - 166,912) * 8 / bw = 55 - 14  ->  bw = 63,479,808 / 41 = 1,548,288 bit/s
        # then 9 * latency = 14 - 9 * 166,912 * 8 / 1,548,288 = 14 - 7.7619... = 6.2381 s
        #   -> latency = 0.69312 s.
        latency, bandwidth = fit.relay_2009()
        self.assertAlmostEqual(bandwidth, 1_548_288.0, places=3)
        self.assertAlmostEqual(latency, (14 - 9 * 166_912 * 8 / 1_548_288) / 9)
        self.assertAlmostEqual(latency, 0.693122, places=6)

    def test_fit_reproduces_both_published_timings(self):
        latency, bandwidth = fit.relay_2009()
        for fmt, (page_bytes, seconds) in published.AZURE.items():
            with self.subTest(fmt=fmt):
                self.assertAlmostEqual(fit.subset_seconds(page_bytes, latency, bandwidth), seconds)

    def test_links_json_holds_the_fit(self):
        latency, bandwidth = fit.relay_2009()
        relay = links.load_links()["relay-2009"]
        self.assertAlmostEqual(relay.rtt_s, latency, places=9)
        self.assertAlmostEqual(relay.bandwidth_bps, bandwidth, places=3)
        self.assertFalse(relay.slow_start)
        self.assertEqual(relay.connection, "warm")
        self.assertIn("55 s", relay.fitted_from)

    def test_equal_sizes_cannot_be_fitted(self):
        with self.assertRaises(ValueError):
            fit.solve(1000, 5.0, 1000, 3.0)


if __name__ == "__main__":
    unittest.main()
