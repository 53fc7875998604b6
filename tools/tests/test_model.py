"""Slow-start arithmetic and the call model, against cases worked out by hand.

Conventions (tools/wbtools/tcp.py): MSS 1,460 B, initial window 10 segments = 14,600 B, the
window doubles each round trip, so after k round trips 10 * (2**k - 1) segments have been sent:
k = 1: 10 segments (14,600 B), k = 2: 30 (43,800 B), k = 3: 70 (102,200 B), k = 4: 150 (219,000 B).
"""

import unittest

from wbtools import links, model, tcp


def link(**knobs):
    """A link profile with explicit knobs (bandwidth in Mbit/s, RTT in ms)."""
    profile = {"bandwidth_mbps": 100, "rtt_ms": 40}
    profile.update(knobs)
    return links.make_link("test", profile)


class SlowStartRounds(unittest.TestCase):
    def test_one_initial_window_is_one_round_trip(self):
        # 14,600 B = exactly 10 segments of 1,460 B = the initial window: the request goes out,
        # the whole response comes back in the first round trip.
        self.assertEqual(tcp.segments(14_600, 1460), 10)
        self.assertEqual(tcp.slow_start_rounds(14_600), 1)

    def test_one_byte_more_needs_a_second_round_trip(self):
        # 14,601 B = 11 segments: the 11th waits for the ACKs of the first window.
        self.assertEqual(tcp.segments(14_601, 1460), 11)
        self.assertEqual(tcp.slow_start_rounds(14_601), 2)

    def test_two_windows_fill_exactly_two_round_trips(self):
        # 43,800 B = 30 segments = 10 (first window) + 20 (doubled window): 2 round trips;
        # one byte more is a 31st segment and a third round trip.
        self.assertEqual(tcp.segments(43_800, 1460), 30)
        self.assertEqual(tcp.slow_start_rounds(43_800), 2)
        self.assertEqual(tcp.slow_start_rounds(43_801), 3)

    def test_larger_payloads(self):
        # 102,200 B = 70 segments = 10 + 20 + 40: 3 round trips.
        self.assertEqual(tcp.slow_start_rounds(102_200), 3)
        # 160,776 B (a JSON science page) = ceil(110.1) = 111 segments: 70 < 111 <= 150 -> 4.
        self.assertEqual(tcp.segments(160_776, 1460), 111)
        self.assertEqual(tcp.slow_start_rounds(160_776), 4)
        # 1,048,576 B = 719 segments: 10*(2**6-1) = 630 < 719 <= 10*(2**7-1) = 1,270 -> 7.
        self.assertEqual(tcp.slow_start_rounds(1_048_576), 7)

    def test_empty_response_still_costs_the_request_round_trip(self):
        self.assertEqual(tcp.slow_start_rounds(0), 1)
        self.assertEqual(tcp.slow_start_rounds(1), 1)

    def test_stalls_end_when_a_window_outlasts_the_rtt(self):
        # 100 Mbit/s: one 1,460 B segment takes S/R = 116.8 us. After window k (w segments) the
        # sender idles S/R + RTT - w * S/R, which is > 0 while w < 1 + 40 ms / 116.8 us = 343.5:
        # windows 10, 20, 40, 80, 160, 320 stall, 640 does not.
        # 10,000,000 B = 6,850 segments = 10 windows (10*(2**10-1) = 10,230 >= 6,850).
        # Stalls: 6 * (116.8 us + 40 ms) - (10+20+40+80+160+320) * 116.8 us
        #       = 240.7008 ms - 73.584 ms = 167.1168 ms.
        idle, stalls = tcp.slow_start_stalls(10_000_000, 0.040, 100e6)
        self.assertEqual(stalls, 6)
        self.assertAlmostEqual(idle, 0.1671168)
        # An infinitely fast link: every one of the K-1 = 9 stalls is a whole RTT.
        idle, stalls = tcp.slow_start_stalls(10_000_000, 0.040, 1e300)
        self.assertEqual(stalls, tcp.slow_start_rounds(10_000_000) - 1)
        self.assertAlmostEqual(idle, 9 * 0.040)
        # A window that outlasts the RTT from the start (slow link): no stall at all.
        self.assertEqual(tcp.slow_start_stalls(10_000_000, 0.001, 1e6), (0.0, 0))


class Transfer(unittest.TestCase):
    def test_warm_connection(self):
        # 14,601 B on 100 Mbit/s, 40 ms, warm: the request RTT (40 ms), one stall after the
        # first window of 10 segments (S/R + RTT - 10 S/R = 40 ms - 9 * 116.8 us = 38.9488 ms),
        # and 14,601 * 8 / 1e8 s = 1.16808 ms on the wire.
        parts = tcp.transfer(14_601, link())
        self.assertEqual(parts["round_trips"], 2)
        self.assertAlmostEqual(parts["total"], 0.040 + 0.0389488 + 0.00116808)

    def test_cold_tls_connection_and_auth_challenge(self):
        # cold: TCP 1 + TLS 2 round trips before the request, +1 for the 401: 4 x 40 ms extra.
        parts = tcp.transfer(1_000, link(connection="cold", auth_challenge=True))
        self.assertAlmostEqual(parts["setup"], 0.160)
        self.assertAlmostEqual(parts["total"], 0.160 + 0.040 + 1_000 * 8 / 100e6)
        # A warm request on the same profile skips the handshake but not the challenge.
        warm = tcp.transfer(1_000, link(connection="cold", auth_challenge=True), connection="warm")
        self.assertAlmostEqual(warm["setup"], 0.040)

    def test_delayed_ack_only_for_a_partial_last_segment_after_others(self):
        stalling = link(delayed_ack_ms=200)
        self.assertEqual(tcp.transfer(1_000, stalling)["stall"], 0)  # one segment: nothing unACKed
        self.assertEqual(tcp.transfer(2 * 1460, stalling)["stall"], 0)  # last segment full
        self.assertAlmostEqual(tcp.transfer(2 * 1460 + 1, stalling)["stall"], 0.200)

    def test_no_slow_start_is_one_round_trip_per_request(self):
        # The fitted relay-2009 shape: latency + bytes*8/bandwidth, whatever the size.
        flat = link(slow_start=False, bandwidth_mbps=1, rtt_ms=500)
        self.assertAlmostEqual(tcp.transfer(1_000_000, flat)["total"], 0.5 + 8.0)


class CallModel(unittest.TestCase):
    PAIR = model.Pairing("json", "airport", 101, "reference", "rapidjson-dom", "none",
                         wire_bytes=16_000, encode=20e-6, decode=50e-6)

    def test_call_is_cpu_plus_wire(self):
        parts = model.call(self.PAIR, link(rtt_ms=0.5, bandwidth_mbps=1000))
        # 16,000 B = 11 segments; at 1 Gbit/s a segment takes 11.68 us, so after the first
        # window the sender idles 11.68 us + 500 us - 116.8 us = 394.88 us. Wire: request RTT
        # 500 us + 394.88 us + 16,000 * 8 / 1e9 s = 128 us.
        self.assertEqual(parts["round_trips"], 2)
        self.assertAlmostEqual(parts["wire"], 0.0005 + 0.00039488 + 0.000128)
        self.assertAlmostEqual(parts["cpu"], 70e-6)
        self.assertAlmostEqual(parts["total"], parts["cpu"] + parts["wire"])

    def test_middleware_hop_adds_cpu_and_a_warm_leg(self):
        hop = link(rtt_ms=0.5, bandwidth_mbps=1000, middleware_hops=1)
        plain = link(rtt_ms=0.5, bandwidth_mbps=1000)
        with_hop, without = model.call(self.PAIR, hop), model.call(self.PAIR, plain)
        self.assertAlmostEqual(with_hop["cpu"] - without["cpu"], 70e-6)
        self.assertAlmostEqual(with_hop["wire"], 2 * without["wire"])

    def test_crossover_solves_cpu_equals_wire(self):
        # No round trips to speak of (RTT 0): wire = bytes*8/bw, so CPU = wire at
        # bw = 16,000*8 / 70e-6 = 1.8286 Gbit/s, the closed form.
        zero_rtt = link(rtt_ms=0)
        bandwidth, _ = model.crossover(self.PAIR, zero_rtt)
        self.assertAlmostEqual(bandwidth / (16_000 * 8 / 70e-6), 1.0, places=6)
        self.assertAlmostEqual(model.serialization_crossover(self.PAIR) / (16_000 * 8 / 70e-6), 1.0)

    def test_crossover_absent_when_latency_floor_exceeds_cpu(self):
        bandwidth, why = model.crossover(self.PAIR, link(rtt_ms=40))
        self.assertIsNone(bandwidth)
        self.assertIn("latency floor", why)


if __name__ == "__main__":
    unittest.main()
