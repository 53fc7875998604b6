"""HTTP/2's flow-control window, packet by packet (wbtools/transfer/h2_flow.py), against the
frames and WINDOW_UPDATEs the measured wire counted (docs/wire-h2.md) and cases worked out
by hand: counts and round trips, never times measured."""

import unittest

from wbtools.transfer import h2_flow, links, tcp

STACKS = links.load_stacks()
H2_TLS = STACKS["h2+tls1.3"]
H2C = STACKS["h2c"]
WAN = (0.04, 1e8)  # RTT, bandwidth
SCIENCE_1000, SCIENCE_8100 = 164_570, 1_338_786


def cold(nbytes, stack, rtt_s=WAN[0], bandwidth_bps=WAN[1]):
    overhead = stack.tls.record_overhead_bytes if stack.tls else None
    return h2_flow.response(nbytes, rtt_s, bandwidth_bps, 65535, 0,
                            h2_flow.lead_bytes(stack, "cold"), overhead, 1448, 10, 52)


def warm_cycle(nbytes, stack, rtt_s=WAN[0], bandwidth_bps=WAN[1]):
    overhead = stack.tls.record_overhead_bytes if stack.tls else None
    leads = (h2_flow.lead_bytes(stack, "cold"), h2_flow.lead_bytes(stack, "warm"))
    return h2_flow.carried(nbytes, rtt_s, bandwidth_bps, 65535, leads, overhead, 1448, 10, 52)


class AsMeasured(unittest.TestCase):
    def test_science_8100_cold_takes_the_measured_frames_and_updates(self):
        # Measured (wan, TLS 1.3, default windows): 82 DATA frames, 40 WINDOW_UPDATEs on the
        # stream and 40 on the connection, one per 32 KB.
        got = cold(SCIENCE_8100, H2_TLS)
        self.assertEqual((got.data_frames, got.stream_updates, got.connection_updates),
                         (82, 40, 40))

    def test_warm_calls_cycle_with_a_period_of_three(self):
        # Measured: 99, 98 and 82 DATA frames in turn; the stream's WINDOW_UPDATEs 33, 32, 40.
        # The connection's window carries what the call before left unreturned.
        cycle = warm_cycle(SCIENCE_8100, H2_TLS)
        self.assertEqual([(c.data_frames, c.stream_updates) for c in cycle],
                         [(99, 33), (98, 32), (82, 40)])
        # The call in step with the window (full frames) is the fastest, by far.
        self.assertLess(cycle[2].seconds * 1.4, min(cycle[0].seconds, cycle[1].seconds))

    def test_science_1000_cold_waits_a_round_trip_for_its_last_bytes(self):
        # 164,570 B in 11 frames. Each round may send only the window plus the credit for
        # the halves of it read in the rounds before, so the fourth round, which cwnd would
        # let carry the rest, leaves the last bytes to wait for the credit it brings back:
        # 5 round trips where HTTP/1.1's slow start takes 4 (10 + 20 + 40 + 80 segments).
        got = cold(SCIENCE_1000, H2_TLS)
        self.assertEqual((got.data_frames, got.stream_updates, got.connection_updates),
                         (11, 5, 5))
        self.assertEqual(got.round_trips, 5)
        self.assertEqual(tcp.slow_start_rounds(SCIENCE_1000), 4)
        # Five updates of 32,767 B or more returned all but 732 B (the next call lacks them).
        self.assertEqual(got.unreturned, 732)


class ByHand(unittest.TestCase):
    def test_a_response_within_the_window_leaves_in_one_flight(self):
        # message/100 on a kept connection: the request's half RTT, then its packets back to
        # back and half an RTT to the client; the client returns no credit.
        nbytes = 4617
        got = h2_flow.response(nbytes, 0.04, 1e8, 65535, 0, 24, None, 1448, None, 52)
        wire = 24 + nbytes + 9
        self.assertAlmostEqual(got.seconds, tcp.wire_bytes(wire, 1448, 52) * 8 / 1e8 + 0.02)
        self.assertEqual((got.round_trips, got.data_frames, got.stream_updates,
                          got.connection_updates, got.unreturned), (1, 1, 0, 0, nbytes))

    def test_frames_are_cut_to_the_connections_credit(self):
        # 30,000 B unreturned from the call before: 35,535 B of credit, so the third frame is
        # cut to 2,767 B and the rest (4,465 B) waits a round trip for the connection's
        # update, which comes once 2,767 B more are read. 70,000 B read on the connection,
        # two updates of 32,767 B or more: under 4,466 B left unreturned.
        got = h2_flow.response(40_000, 0.04, 1e8, 65535, 30_000, 0, None, 1448, None, 52)
        self.assertEqual((got.data_frames, got.round_trips), (4, 2))
        self.assertEqual((got.stream_updates, got.connection_updates), (1, 2))
        self.assertLess(got.unreturned, 70_000 - 2 * 32_767)

    def test_an_update_returns_half_a_window_at_least(self):
        # No WINDOW_UPDATE before 32,767 B (65,535 // 2) are read; the stream's last frame
        # never asks for one.
        got = h2_flow.response(32_766, 0.04, 1e8, 65535, 0, 0, None, 1448, None, 52)
        self.assertEqual((got.data_frames, got.stream_updates, got.connection_updates), (2, 0, 0))
        got = h2_flow.response(32_767, 0.04, 1e8, 65535, 0, 0, None, 1448, None, 52)
        self.assertEqual((got.stream_updates, got.connection_updates, got.unreturned), (0, 1, 0))

    def test_only_a_response_the_window_can_hold_back_is_simulated(self):
        def limits(stack, nbytes, rtt_s=0.04, bandwidth_bps=1e8):
            return h2_flow.limits(stack, nbytes, rtt_s, bandwidth_bps, 1448)
        self.assertFalse(limits(H2_TLS, 4617))
        self.assertFalse(limits(H2_TLS, 32_768))  # a carried window keeps half and one byte
        self.assertTrue(limits(H2_TLS, 32_769))
        self.assertFalse(limits(STACKS["grpc"], SCIENCE_8100))
        self.assertFalse(limits(STACKS["http1+tls1.3"], SCIENCE_8100))
        self.assertFalse(limits(None, SCIENCE_8100))
        # Half a window less a record and a segment (14,936 B) is 119,488 bits: at an RTT of
        # 40 ms the credit outruns the sender below 2.99 Mbit/s.
        self.assertFalse(limits(H2_TLS, SCIENCE_8100, bandwidth_bps=119_488 / 0.04))
        self.assertTrue(limits(H2_TLS, SCIENCE_8100, bandwidth_bps=119_489 / 0.04))

    def test_a_long_response_grows_at_the_rate_of_its_simulated_second_half(self):
        size = h2_flow.SIMULATED_BYTES
        args = (0.04, 1e8, 65535, 0, 233, None, 1448, 10, 52)
        full, half = h2_flow.simulate(size, *args), h2_flow.simulate(size // 2, *args)
        longer = h2_flow.response(2 * size, *args)
        # Twice the simulated bytes: the second half's time twice more.
        self.assertAlmostEqual(longer.seconds, full.seconds + 2 * (full.seconds - half.seconds))
        self.assertEqual(longer.unreturned, full.unreturned)
        self.assertEqual(h2_flow.response(size, *args), full)

    def test_above_the_fast_bandwidth_the_idle_time_is_kept(self):
        # A window serializes in 1 % of a 40 ms RTT at 13.1 Gbit/s: above it, the same idle.
        fast = 65535 * 8 / (0.01 * 0.04)
        at = h2_flow.window_stalls(SCIENCE_8100, H2_TLS, "cold", 0.04, fast, 1448, 10, 52, 1e-3)
        above = h2_flow.window_stalls(SCIENCE_8100, H2_TLS, "cold", 0.04, 4 * fast, 1448, 10,
                                      52, 0.25e-3)
        self.assertEqual(at, above)

    def test_a_warm_call_is_priced_as_the_median_call_of_its_cycle(self):
        cycle = warm_cycle(SCIENCE_8100, H2_TLS)
        serialization = 0.1
        idle, stalls = h2_flow.window_stalls(SCIENCE_8100, H2_TLS, "warm", *WAN, 1448, 10, 52,
                                             serialization)
        middle = sorted(cycle)[1]
        self.assertAlmostEqual(idle, 0.02 + middle.seconds - 0.04 - serialization)
        self.assertEqual(stalls, middle.round_trips - 1)

    def test_the_lead_is_tickets_preface_and_headers_on_a_new_connection(self):
        self.assertEqual(h2_flow.lead_bytes(H2C, "warm"), 9 + 15)
        self.assertEqual(h2_flow.lead_bytes(H2C, "cold"), 9 + 200 + 24)
        self.assertEqual(h2_flow.lead_bytes(H2_TLS, "cold"),
                         9 + 200 + 24 + H2_TLS.tls.post_handshake_bytes)
        self.assertEqual(h2_flow.lead_bytes(H2_TLS, "resumed"),
                         9 + 200 + 24 + H2_TLS.tls.resumed_post_handshake_bytes)


if __name__ == "__main__":
    unittest.main()
