"""Slow-start arithmetic and the call model, against cases worked out by hand.

Conventions (tools/wbtools/transfer/tcp.py): MSS 1,448 B (Ethernet with TCP timestamps), each
segment an IP packet of 1,448 + 52 = 1,500 B, initial window 10 segments = 14,480 B, the window
doubles each round trip, so after k round trips 10 * (2**k - 1) segments have been sent:
k = 1: 10 segments (14,480 B), k = 2: 30 (43,440 B), k = 3: 70 (101,360 B), k = 4: 150 (217,200 B).
"""

import unittest

from wbtools.transfer import links, calls, tcp
from wbtools.wire import wire_model
from wbtools.cli import UserError


def link(**knobs):
    """A link profile with explicit knobs (bandwidth in Mbit/s, RTT in ms)."""
    profile = {"bandwidth_mbps": 100, "rtt_ms": 40}
    profile.update(knobs)
    return links.make_link("test", profile)


class SlowStartRounds(unittest.TestCase):
    def test_one_initial_window_is_one_round_trip(self):
        # 14,480 B = exactly 10 segments of 1,448 B = the initial window: the request goes out,
        # the whole response comes back in the first round trip.
        self.assertEqual(tcp.segments(14_480, 1448), 10)
        self.assertEqual(tcp.slow_start_rounds(14_480), 1)

    def test_one_byte_more_needs_a_second_round_trip(self):
        # 14,481 B = 11 segments: the 11th waits for the ACKs of the first window.
        self.assertEqual(tcp.segments(14_481, 1448), 11)
        self.assertEqual(tcp.slow_start_rounds(14_481), 2)

    def test_two_windows_fill_exactly_two_round_trips(self):
        # 43,440 B = 30 segments = 10 (first window) + 20 (doubled window): 2 round trips;
        # one byte more is a 31st segment and a third round trip.
        self.assertEqual(tcp.segments(43_440, 1448), 30)
        self.assertEqual(tcp.slow_start_rounds(43_440), 2)
        self.assertEqual(tcp.slow_start_rounds(43_441), 3)

    def test_larger_payloads(self):
        # 101,360 B = 70 segments = 10 + 20 + 40: 3 round trips.
        self.assertEqual(tcp.slow_start_rounds(101_360), 3)
        # 164,570 B (the JSON science page) = ceil(113.65) = 114 segments: 70 < 114 <= 150 -> 4.
        self.assertEqual(tcp.segments(164_570, 1448), 114)
        self.assertEqual(tcp.slow_start_rounds(164_570), 4)
        # 1,048,576 B = 725 segments: 10*(2**6-1) = 630 < 725 <= 10*(2**7-1) = 1,270 -> 7.
        self.assertEqual(tcp.slow_start_rounds(1_048_576), 7)

    def test_empty_response_still_costs_the_request_round_trip(self):
        self.assertEqual(tcp.slow_start_rounds(0), 1)
        self.assertEqual(tcp.slow_start_rounds(1), 1)

    def test_every_packet_carries_52_header_bytes(self):
        # 1,448 B fill one packet of 1,500 B; one byte more is a second packet of 53 B.
        self.assertEqual(tcp.wire_bytes(1_448, 1448, 52), 1_500)
        self.assertEqual(tcp.wire_bytes(1_449, 1448, 52), 1_449 + 2 * 52)
        self.assertEqual(tcp.wire_bytes(0, 1448, 52), 0)

    def test_stalls_end_when_a_window_outlasts_the_rtt(self):
        # 100 Mbit/s: one 1,500 B packet takes P/R = 120 us. After window k (w segments) the
        # sender idles P/R + RTT - w * P/R, which is > 0 while w < 1 + 40 ms / 120 us = 334.3:
        # windows 10, 20, 40, 80, 160, 320 stall, 640 does not.
        # 10,000,000 B = 6,907 segments = 10 windows (10*(2**10-1) = 10,230 >= 6,907).
        # Stalls: 6 * (120 us + 40 ms) - (10+20+40+80+160+320) * 120 us
        #       = 240.72 ms - 75.6 ms = 165.12 ms.
        idle, stalls = tcp.slow_start_stalls(10_000_000, 0.040, 100e6)
        self.assertEqual(stalls, 6)
        self.assertAlmostEqual(idle, 0.16512)
        # An infinitely fast link: every one of the K-1 = 9 stalls is a whole RTT.
        idle, stalls = tcp.slow_start_stalls(10_000_000, 0.040, 1e300)
        self.assertEqual(stalls, tcp.slow_start_rounds(10_000_000) - 1)
        self.assertAlmostEqual(idle, 9 * 0.040)
        # A window that outlasts the RTT from the start (slow link): no stall at all.
        self.assertEqual(tcp.slow_start_stalls(10_000_000, 0.001, 1e6), (0.0, 0))


class Transfer(unittest.TestCase):
    def test_warm_connection_that_restarts_slow_start(self):
        # 14,481 B on 100 Mbit/s, 40 ms, warm but idle for longer than an RTO: the request RTT
        # (40 ms), one stall after the first window of 10 segments (P/R + RTT - 10 P/R =
        # 40 ms - 9 * 120 us = 38.92 ms), and 14,481 + 11 * 52 = 15,053 B on the wire
        # (15,053 * 8 / 1e8 s = 1.20424 ms).
        parts = tcp.transfer(14_481, link(warm_keeps_window=False))
        self.assertEqual(parts["round_trips"], 2)
        self.assertAlmostEqual(parts["total"], 0.040 + 0.03892 + 0.00120424)

    def test_warm_connection_keeps_its_window(self):
        # The same request on a connection that kept its window: no stall, one round trip.
        parts = tcp.transfer(14_481, link())
        self.assertEqual(parts["round_trips"], 1)
        self.assertAlmostEqual(parts["total"], 0.040 + 0.00120424)
        # A cold connection on the same profile still starts slow.
        self.assertEqual(tcp.transfer(14_481, link(), connection="cold")["round_trips"], 2)

    def test_measured_cold_transfer(self):
        # wirebench_wire's case of 100,000 B cold on 100 Mbit/s, 40 ms, no TLS: 70 segments,
        # the TCP handshake (40 ms), the request (40 ms), stalls after the windows of 10 and
        # 20 (38.92 + 37.72 ms) and 100,000 + 70 * 52 = 103,640 B at the line rate (8.2912 ms).
        parts = tcp.transfer(100_000, link(connection="cold", tls_handshake_rtts=0))
        self.assertEqual(parts["round_trips"], 3)
        self.assertAlmostEqual(parts["total"], 0.080 + 0.03892 + 0.03772 + 0.0082912)

    def test_cold_tls_connection_and_auth_challenge(self):
        # cold: TCP 1 + TLS 2 round trips before the request, +1 for the 401: 4 x 40 ms extra.
        parts = tcp.transfer(1_000, link(connection="cold", auth_challenge=True))
        self.assertAlmostEqual(parts["setup"], 0.160)
        self.assertAlmostEqual(parts["total"], 0.160 + 0.040 + 1_052 * 8 / 100e6)
        # A warm request on the same profile skips the handshake but not the challenge.
        warm = tcp.transfer(1_000, link(connection="cold", auth_challenge=True), connection="warm")
        self.assertAlmostEqual(warm["setup"], 0.040)

    def test_classic_nagle_stalls_a_partial_last_segment_after_others(self):
        stalling = link(delayed_ack_ms=200, nagle="classic")
        self.assertEqual(tcp.transfer(1_000, stalling)["stall"], 0)  # one segment: nothing unACKed
        self.assertEqual(tcp.transfer(2 * 1448, stalling)["stall"], 0)  # last segment full
        self.assertAlmostEqual(tcp.transfer(2 * 1448 + 1, stalling)["stall"], 0.200)

    def test_linux_nagle_never_stalls_one_write(self):
        # Minshall's rule: the partial last segment goes out unless an earlier partial one is
        # unACKed, and a response written with one send() has none.
        one_write = link(delayed_ack_ms=40)
        for size in (1_000, 2 * 1448 + 1, 100_000):
            self.assertEqual(tcp.transfer(size, one_write)["stall"], 0)

    def test_linux_nagle_stalls_a_small_body_after_its_header_on_a_warm_connection(self):
        split = link(delayed_ack_ms=40, header_write="separate")
        self.assertAlmostEqual(tcp.transfer(1_000, split)["stall"], 0.040)
        # A body of a full segment or more is not held (it is not a partial segment), and a
        # cold connection's receiver ACKs at once (quick-ACK mode).
        self.assertEqual(tcp.transfer(1448, split)["stall"], 0)
        self.assertEqual(tcp.transfer(1_000, split, connection="cold")["stall"], 0)
        # TCP_NODELAY: never.
        self.assertEqual(tcp.transfer(1_000, link(delayed_ack_ms=40, header_write="separate",
                                                  nagle="off"))["stall"], 0)

    def test_bbr_paced_at_the_link_rate_has_no_stall(self):
        # 1 Mbit/s, 120 ms: 83.3 packets/s on the link, bbr's first pacing rate 238 packets/s,
        # so every packet leaves back to back: handshake + request + serialization, where
        # cubic idles after its first window (12 ms + 120 ms - 10 * 12 ms = 12 ms).
        slow = dict(bandwidth_mbps=1, rtt_ms=120, connection="cold", tls_handshake_rtts=0)
        serialization = tcp.wire_bytes(100_000, 1448, 52) * 8 / 1e6
        self.assertAlmostEqual(tcp.transfer(100_000, link(congestion="bbr", **slow))["total"],
                               0.240 + serialization)
        self.assertGreater(tcp.transfer(100_000, link(**slow))["total"], 0.240 + serialization)

    def test_no_slow_start_is_one_round_trip_per_request(self):
        # The fitted relay-2009 shape: latency + bytes*8/bandwidth, whatever the size (its
        # bandwidth is fitted to payload bytes: no header bytes).
        flat = link(slow_start=False, bandwidth_mbps=1, rtt_ms=500, header_bytes=0)
        self.assertAlmostEqual(tcp.transfer(1_000_000, flat)["total"], 0.5 + 8.0)

    def test_unknown_knob_values_are_refused(self):
        for knobs in ({"nagle": "bsd"}, {"congestion": "vegas"}, {"header_write": "x"},
                      {"warm_keeps_window": "yes"}, {"header_bytes": -1}):
            with self.assertRaises(UserError):
                link(**knobs)


class MeasuredCase(unittest.TestCase):
    def test_a_measured_case_is_modelled_as_plain_tcp(self):
        # wirebench_wire's exchange has no TLS, no 401 and TCP_NODELAY: wan's cold 100,000 B
        # is handshake + request + two stalls + packets, as test_measured_cold_transfer.
        ms = wire_model.current().ms("wan", "cubic", 100_000, "cold")
        self.assertAlmostEqual(ms, 80 + 38.92 + 37.72 + 8.2912, places=6)
        self.assertAlmostEqual(wire_model.current().ms("wan", "cubic", 100_000, "warm"),
                               40 + 8.2912, places=6)


class CallModel(unittest.TestCase):
    PAIR = calls.Pairing("json", "airport", 101, "reference", "rapidjson-dom", "none",
                         wire_bytes=16_000, encode=20e-6, decode=50e-6)

    def test_call_is_cpu_plus_wire(self):
        parts = calls.call(self.PAIR, link(rtt_ms=0.5, bandwidth_mbps=1000))
        # 16,000 B = 12 segments, 16,000 + 12 * 52 = 16,624 B on the wire: 132.992 us at
        # 1 Gbit/s. The warm connection kept its window: one round trip, 500 us.
        self.assertEqual(parts["round_trips"], 1)
        self.assertAlmostEqual(parts["wire"], 0.0005 + 0.000132992)
        self.assertAlmostEqual(parts["cpu"], 70e-6)
        self.assertAlmostEqual(parts["total"], parts["cpu"] + parts["wire"])

    def test_middleware_hop_adds_cpu_and_a_warm_leg(self):
        hop = link(rtt_ms=0.5, bandwidth_mbps=1000, middleware_hops=1)
        plain = link(rtt_ms=0.5, bandwidth_mbps=1000)
        with_hop, without = calls.call(self.PAIR, hop), calls.call(self.PAIR, plain)
        self.assertAlmostEqual(with_hop["cpu"] - without["cpu"], 70e-6)
        self.assertAlmostEqual(with_hop["wire"], 2 * without["wire"])

    def test_crossover_solves_cpu_equals_wire(self):
        # No round trips to speak of (RTT 0): wire = packets*8/bw, so CPU = wire at
        # bw = 16,624*8 / 70e-6 = 1.8999 Gbit/s, the closed form; the serialization crossover
        # counts the payload only.
        zero_rtt = link(rtt_ms=0)
        bandwidth, _ = calls.crossover(self.PAIR, zero_rtt)
        self.assertAlmostEqual(bandwidth / (16_624 * 8 / 70e-6), 1.0, places=6)
        self.assertAlmostEqual(calls.serialization_crossover(self.PAIR) / (16_000 * 8 / 70e-6), 1.0)

    def test_crossover_absent_when_latency_floor_exceeds_cpu(self):
        bandwidth, why = calls.crossover(self.PAIR, link(rtt_ms=40))
        self.assertIsNone(bandwidth)
        self.assertIn("latency floor", why)


if __name__ == "__main__":
    unittest.main()
