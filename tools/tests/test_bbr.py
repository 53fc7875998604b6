"""bbr's start-up and warm responses (tools/wbtools/transfer/bbr.py), against cases worked out
by hand and the departures that captures of wirebench_wire's server show (docs/wire.md).

wan: 100 Mbit/s, 40 ms; a packet of 1,500 B takes 120 us on the link. bbr's first pacing rate
is high_gain * 10 / RTT * 0.99 = 739/256 * 250 * 0.99 = 714.46 packets/s.
"""

import unittest

from wbtools.transfer import bbr, links, tcp

PACE_0 = 739 / 256 * 10 / 0.040 * 0.99


def link(**knobs):
    """A wan-like link with the measured exchange's knobs (no TLS, no 401)."""
    profile = {"bandwidth_mbps": 100, "rtt_ms": 40, "tls_handshake_rtts": 0}
    profile.update(knobs)
    return links.make_link("test", profile)


def wan():
    """A connection on wan under bbr."""
    return bbr._Connection(0.040, 100e6, 1448, 10, 52)


class Bursts(unittest.TestCase):
    def test_a_burst_is_a_millisecond_of_the_pacing_rate_and_at_least_two_segments(self):
        # 714.46 packets/s = 8.3 Mbit/s: 1,034 B a millisecond, under a segment: bbr's 2.
        self.assertEqual(bbr.burst_segments(PACE_0, 1448, 0.040), 2)
        # Under 1.2 Mbit/s of pacing (100 packets/s = 1.16 Mbit/s): 1.
        self.assertEqual(bbr.burst_segments(100, 1448, 0.040), 1)
        # 3,896 packets/s: 5,509 B a millisecond, 3 segments.
        self.assertEqual(bbr.burst_segments(3896, 1448, 0.040), 3)
        # On a path of 0.5 ms (500 us >> 9 = 0) tcp_tso_autosize adds the whole GSO size:
        # 64 KiB, 45 segments; bbr_tso_segs_goal (no RTT) leaves it out.
        self.assertEqual(bbr.burst_segments(PACE_0, 1448, 0.0005), 45)
        self.assertEqual(bbr.burst_segments(PACE_0, 1448), 2)


class Startup(unittest.TestCase):
    def test_the_first_ten_segments_leave_as_a_burst(self):
        # Linux paces a connection's data only from its 10th segment on: a cold response of
        # up to 10 segments costs bbr what it costs cubic, and so does a warm one while the
        # connection has sent fewer than 10 (4,617 B: 4 segments, after an opening of 4).
        for size, connection in ((4_617, "cold"), (14_480, "cold"), (4_617, "warm")):
            self.assertAlmostEqual(
                tcp.transfer(size, link(congestion="bbr", connection=connection))["total"],
                tcp.transfer(size, link(connection=connection))["total"], places=9)
        # A warm 14,480 B, segments 11 to 20, is paced.
        self.assertGreater(tcp.transfer(14_480, link(congestion="bbr"))["total"],
                           tcp.transfer(14_480, link())["total"] + 0.005)

    def test_pacing_starts_after_the_tenth_segment_with_half_a_slot(self):
        # 48,310 B = 34 segments (a capture: 10 at 0, then pairs at 40.12, 41.54, 44.37 ms).
        # The first window leaves at 0 in 5 bursts of 2; the first ACK (packet 0 back at
        # 40.12 ms) lets cwnd grow to 11 and a pair go; the sender had been cwnd-limited past
        # its departure time, so the next pair follows half a slot (1 / 714.46 s) later and
        # every later one a full slot (2 / 714.46 s) after that.
        connection = wan()
        connection.respond(48_310)
        sent = connection.departures
        self.assertEqual(sent[:5], [(0.0, 2)] * 5)
        self.assertAlmostEqual(sent[5][0], 0.04012, places=9)
        self.assertAlmostEqual(sent[6][0] - sent[5][0], 1 / PACE_0, places=9)
        self.assertAlmostEqual(sent[7][0] - sent[6][0], 2 / PACE_0, places=9)
        self.assertEqual(sum(segs for _, segs in sent), 34)

    def test_the_pacing_rate_never_falls_in_startup(self):
        connection = wan()
        rates = []
        while connection.sent < 30:
            connection.respond(14_480)
            connection.idle_until(connection.last_arrival + 0.020)
            rates.append(connection.pace)
        self.assertEqual(rates, sorted(rates))
        self.assertGreaterEqual(rates[0], PACE_0)


class Warm(unittest.TestCase):
    def test_a_warm_response_is_paced_at_the_rate_the_first_one_left(self):
        # 164,570 B = 114 segments. The cold response leaves bbr pacing at about 3,894
        # packets/s (a capture: 3 segments every 0.77 ms, 3,896/s), so the warm one goes in
        # bursts of 3: the second half a slot after the first (the sender was idle), then
        # one every 3 / pace; below the link's 8,333 packets/s each burst finds it idle.
        connection = wan()
        connection.respond(164_570)
        connection.idle_until(connection.last_arrival + 0.020)
        pace, opened = connection.pace, len(connection.departures)
        self.assertTrue(3_800 < pace < 4_000, pace)
        first, last, _ = connection.respond(164_570)
        warm = connection.departures[opened:]
        self.assertEqual([segs for _, segs in warm], [3] * 38)
        self.assertAlmostEqual(warm[1][0] - warm[0][0], 1.5 / pace, places=9)
        for before, after in zip(warm[1:], warm[2:]):
            self.assertAlmostEqual(after[0] - before[0], 3 / pace, places=9)
        # The last packet (946 B of payload, 998 B on the link) arrives after its burst's
        # serialization and half an RTT ...
        self.assertAlmostEqual(last - first,
                               warm[-1][0] - first + 2 * 120e-6 + 998 * 8 / 100e6 + 0.020,
                               places=9)
        self.assertAlmostEqual(bbr.warm(164_570, 0.040, 100e6), last - first, places=12)
        # ... and the response's time is the request's half RTT on top.
        self.assertAlmostEqual(tcp.transfer(164_570, link(congestion="bbr"))["total"],
                               0.020 + last - first, places=9)

    def test_a_warm_response_at_the_link_rate_goes_back_to_back(self):
        # 1,448,000 B: the cold response's pacing reaches the link rate, so the warm one is
        # cubic's kept window: RTT + serialization.
        self.assertAlmostEqual(tcp.transfer(1_448_000, link(congestion="bbr"))["total"],
                               tcp.transfer(1_448_000, link())["total"], places=9)


class ProbeRtt(unittest.TestCase):
    def test_bbr_probes_the_rtt_every_10_s(self):
        # Past 10 s of a connection bbr drains to 4 packets for one RTT + max(200 ms, RTT).
        self.assertEqual(bbr.probe_rtt(9.9, 0.120), 0)
        self.assertAlmostEqual(bbr.probe_rtt(13.5, 0.120), 0.120 + 0.200)
        self.assertAlmostEqual(bbr.probe_rtt(25.0, 0.500), 2 * (0.500 + 0.500))
        slow = dict(bandwidth_mbps=5, rtt_ms=120, connection="cold")
        size = 8_054_845  # the Atom science subset: 13.8 s at 5 Mbit/s
        self.assertAlmostEqual(tcp.transfer(size, link(congestion="bbr", **slow))["total"] -
                               tcp.transfer(size, link(**slow))["total"], 0.320, delta=0.05)


if __name__ == "__main__":
    unittest.main()
