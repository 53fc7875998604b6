"""What a stack adds to a call (wbtools/transfer/stacks.py, tcp.transfer over a stack),
against cases worked out by hand from links.json's measured figures: bytes and round trips,
never times measured."""

import dataclasses
import unittest

from wbtools.cli import UserError
from wbtools.transfer import calls, links, stacks, tcp

STACKS = links.load_stacks()
TLS13 = STACKS["http1+tls1.3"].tls


def wan(stack, **knobs):
    """wan (100 Mbit/s, RTT 40 ms, cold) over stack."""
    profile = {"bandwidth_mbps": 100, "rtt_ms": 40, "connection": "cold", **knobs}
    return links.with_stack(links.make_link("wan", profile, STACKS), stack, STACKS)


def ser(nbytes):
    """Seconds nbytes of payload take at 100 Mbit/s as 1,500-byte packets."""
    return tcp.wire_bytes(nbytes, 1448, 52) * 8 / 1e8


class ResponseBytes(unittest.TestCase):
    def test_plain_http1_adds_nothing(self):
        self.assertEqual(stacks.response_bytes(STACKS["http1"], 4617, "cold"), 4617)
        self.assertEqual(stacks.response_bytes(None, 4617, "cold"), 4617)

    def test_tls_records_of_16_kb_and_tickets_on_a_new_connection(self):
        # TLS 1.3: 22 B per record; the 478 B of session tickets go ahead of the response.
        self.assertEqual(stacks.response_bytes(STACKS["http1+tls1.3"], 4617, "warm"), 4617 + 22)
        self.assertEqual(stacks.response_bytes(STACKS["http1+tls1.3"], 4617, "cold"),
                         478 + 4617 + 22)
        self.assertEqual(stacks.response_bytes(STACKS["http1+tls1.3"], 4617, "resumed"),
                         239 + 4617 + 22)
        self.assertEqual(stacks.response_bytes(STACKS["http1+tls1.3"], 16384, "warm"), 16406)
        self.assertEqual(stacks.response_bytes(STACKS["http1+tls1.3"], 16385, "warm"), 16429)
        # TLS 1.2 with AES-GCM: 29 B per record, no tickets ahead of the response.
        self.assertEqual(stacks.response_bytes(STACKS["http1+tls1.2"], 164_570, "cold"),
                         164_570 + 11 * 29)

    def test_h2_frames_hpack_and_preface(self):
        # 40,000 B: 3 DATA frames (27 B); HEADERS 9 + 200 (new connection) or 9 + 15 (kept
        # alive); the preface's 24 B first; the head in a record of its own, the body in 3.
        self.assertEqual(stacks.response_bytes(STACKS["h2c"], 40_000, "cold"),
                         40_000 + 27 + 9 + 200 + 24)
        self.assertEqual(stacks.response_bytes(STACKS["h2+tls1.3"], 40_000, "cold"),
                         478 + (9 + 200 + 24 + 22) + (40_027 + 3 * 22))
        self.assertEqual(stacks.response_bytes(STACKS["h2+tls1.3"], 40_000, "warm"),
                         (9 + 15 + 22) + (40_027 + 3 * 22))
        # An empty body still ends its stream with one DATA frame.
        self.assertEqual(stacks.response_bytes(STACKS["h2c"], 0, "warm"), 9 + 9 + 15)

    def test_grpc_prefix_and_trailers(self):
        # 100 B message: 5 B prefix, one DATA frame, trailers' HEADERS 9 + 1 (kept alive).
        self.assertEqual(stacks.response_bytes(STACKS["grpc"], 100, "warm"),
                         (9 + 4 + 22) + (105 + 9 + 9 + 1 + 22))


class Handshake(unittest.TestCase):
    def test_the_first_flight_in_openssls_three_writes(self):
        # 6,743 B: writes of 4,096 (3 segments), 2,488 (2) and 159 (1).
        self.assertEqual(stacks.first_flight_segments(TLS13, 1448), 6)
        for flight, count in ((13_113, 3 + 7 + 1), (11_035, 3 + 5 + 1), (19_506, 3 + 11 + 1),
                              (1_824, 2 + 1)):
            tls = dataclasses.replace(TLS13, server_first_flight_bytes=flight)
            self.assertEqual(stacks.first_flight_segments(tls, 1448), count, flight)

    def test_a_flight_beyond_the_initial_window_costs_a_round_trip(self):
        # As measured (docs/wire-tls.md): 13,113 B and 19,506 B pay one, 11,035 B none, and
        # with an initial window of 20 neither chain does.
        for count, window, extra in ((6, 10, 0), (9, 10, 0), (11, 10, 1), (15, 10, 1),
                                     (11, 20, 0), (15, 20, 0), (31, 10, 2)):
            self.assertEqual(stacks.overflow_rtts(count, window), extra, (count, window))

    def test_handshake_bytes_as_packets_and_cpu_per_state(self):
        cold = stacks.handshake(STACKS["http1+tls1.3"], "cold", 1448, 10, 52)
        self.assertEqual(cold["rtts"], 1)
        self.assertEqual(cold["overflow_rtts"], 0)
        self.assertEqual(cold["bytes"], 6743 + 316 + (5 + 1) * 52)
        self.assertAlmostEqual(cold["cpu_s"], (1.62 + 0.90) / 1e3)
        resumed = stacks.handshake(STACKS["http1+tls1.2"], "resumed", 1448, 10, 52)
        self.assertEqual((resumed["rtts"], resumed["bytes"]), (1, 141 + 412 + 2 * 52))
        self.assertEqual(stacks.handshake(STACKS["http1+tls1.3"], "warm", 1448, 10, 52)["bytes"],
                         0)
        self.assertEqual(stacks.handshake(STACKS["h2c"], "cold", 1448, 10, 52)["rtts"], 0)


class Transfer(unittest.TestCase):
    def test_round_trips_per_stack_and_resumption(self):
        for stack, cold, resumed in (("http1", 0, 0), ("http1+tls1.2", 2, 1),
                                     ("http1+tls1.3", 1, 1), ("h2+tls1.3", 1, 1), ("h2c", 0, 0),
                                     ("grpc", 2, 1)):
            link = wan(stack)
            self.assertEqual(tcp.transfer(4617, link)["handshake_rtts"], cold, stack)
            self.assertEqual(tcp.transfer(4617, link, connection="resumed")["handshake_rtts"],
                             resumed, stack)
            self.assertEqual(tcp.transfer(4617, link, connection="warm")["handshake_rtts"], 0)
        # gRPC's channel waits a round trip more for the server's SETTINGS (links.json).
        self.assertEqual(STACKS["grpc"].ready_rtts, 1)

    def test_the_setup_is_round_trips_and_the_flights(self):
        parts = tcp.transfer(4617, wan("http1+tls1.3"))
        self.assertAlmostEqual(parts["setup"], 2 * 0.04 + (6743 + 316 + 6 * 52) * 8 / 1e8)
        self.assertAlmostEqual(parts["serialization"], ser(478 + 4617 + 22))
        self.assertAlmostEqual(parts["handshake_cpu"], 2.52e-3)

    def test_a_chain_that_overflows_the_window_adds_a_round_trip(self):
        link = wan("http1+tls1.3")
        chain = dataclasses.replace(link.stack_spec, tls=dataclasses.replace(
            TLS13, server_first_flight_bytes=13_113, server_bytes=13_113))
        two = tcp.transfer(4617, dataclasses.replace(link, stack_spec=chain))
        self.assertEqual(two["handshake_rtts"], 2)
        wide = dataclasses.replace(link, stack_spec=chain, initial_window_segments=20)
        self.assertEqual(tcp.transfer(4617, wide)["handshake_rtts"], 1)

    def test_a_profile_stating_its_round_trips_keeps_them_unless_the_stack_is_chosen(self):
        stated = links.make_link("x", {"bandwidth_mbps": 100, "rtt_ms": 40, "connection": "cold",
                                       "stack": "http1+tls1.3", "tls_handshake_rtts": 3}, STACKS)
        self.assertEqual(tcp.transfer(1000, stated)["handshake_rtts"], 3)
        self.assertEqual(tcp.transfer(1000, links.with_stack(stated, "http1+tls1.3", STACKS))
                         ["handshake_rtts"], 1)
        with self.assertRaisesRegex(UserError, "unknown stack 'h3'"):
            links.with_stack(stated, "h3", STACKS)

    def test_handshake_cpu_is_cpu_not_wire(self):
        p = calls.Pairing("json", "message", 100, "reference", "simdjson-dom", "none", 4617,
                          encode=1e-5, decode=2e-5)
        over = calls.call(p, wan("http1+tls1.3"))
        records = stacks.record_cpu_s(STACKS["http1+tls1.3"], 4617)
        self.assertAlmostEqual(over["cpu"], 3e-5 + 2.52e-3 + records)
        self.assertAlmostEqual(over["wire"], tcp.transfer(4617, wan("http1+tls1.3"))["total"])
        self.assertEqual(calls.call(p, wan("http1+tls1.3"), connection="warm")["handshake_cpu"], 0)

    def test_record_cpu_per_mb_of_response_on_every_connection(self):
        # Both ends' CPU per MB of application data (seal + open), on warm connections too,
        # as CPU: never on a plain stack, and never in the wire's total.
        tls = dataclasses.replace(TLS13, seal_cpu_ms_per_mb=0.3, open_cpu_ms_per_mb=0.2)
        stack = dataclasses.replace(STACKS["http1+tls1.3"], tls=tls)
        self.assertAlmostEqual(stacks.record_cpu_s(stack, 2_000_000), 1.0e-3)
        self.assertEqual(stacks.record_cpu_s(STACKS["http1"], 2_000_000), 0.0)
        self.assertEqual(stacks.record_cpu_s(None, 2_000_000), 0.0)
        link = dataclasses.replace(wan("http1+tls1.3", connection="warm"), stack_spec=stack)
        plain = dataclasses.replace(link, stack_spec=dataclasses.replace(stack, tls=None))
        self.assertAlmostEqual(tcp.transfer(2_000_000, link)["record_cpu"], 1.0e-3)
        p = calls.Pairing("json", "science", 1000, "reference", "simdjson-dom", "none",
                          2_000_000, encode=1e-5, decode=2e-5)
        self.assertAlmostEqual(calls.call(p, link)["cpu"], 3e-5 + 1.0e-3)
        self.assertAlmostEqual(calls.call(p, plain)["cpu"], 3e-5)
        # links.json carries both figures for both versions, measured.
        for version in ("1.3", "1.2"):
            tls = STACKS[f"http1+tls{version}"].tls
            self.assertGreater(tls.seal_cpu_ms_per_mb, 0, version)
            self.assertGreater(tls.open_cpu_ms_per_mb, 0, version)


    def test_early_data_sends_the_request_before_any_tls_round_trip(self):
        # TLS 1.3 0-RTT: TCP's round trip and the request's, no handshake round trip before
        # it; the resumed flights still cross, the tickets follow the answer.
        link = wan("http1+tls1.3")
        resumed = tcp.transfer(4617, link, connection="resumed")
        early = tcp.transfer(4617, link, connection="early")
        self.assertEqual(early["handshake_rtts"], 0)
        self.assertGreater(resumed["total"] - early["total"], 0.040)
        self.assertEqual(stacks.response_bytes(STACKS["http1+tls1.3"], 4617, "early"),
                         4617 + 22)
        # TLS 1.2 has no 0-RTT: priced as resumed.
        self.assertEqual(tcp.transfer(4617, wan("http1+tls1.2"), connection="early")
                         ["handshake_rtts"], 1)


class FlowWindow(unittest.TestCase):
    """tcp.transfer over HTTP/2's window (h2_flow.py has its own tests)."""

    def test_transfer_over_h2_is_window_bound_on_wan_but_not_over_http1(self):
        h2 = tcp.transfer(1_338_786, wan("h2+tls1.3", connection="warm"))
        h1 = tcp.transfer(1_338_786, wan("http1+tls1.3", connection="warm"))
        # A window (65,535 B) per round trip at most: 1,338,786 B take 21 round trips or more.
        self.assertGreaterEqual(h2["round_trips"], 21)
        self.assertEqual(h1["round_trips"], 1)
        # gRPC's windows grow from its bandwidth-delay estimate: not limiting.
        self.assertEqual(tcp.transfer(1_338_786, wan("grpc", connection="warm"))["round_trips"],
                         1)

    def test_a_raised_window_prices_as_http1(self):
        raised = dataclasses.replace(STACKS["h2+tls1.3"], flow_window_bytes=16_777_216)
        for state in ("cold", "warm"):
            h2 = dataclasses.replace(wan("h2+tls1.3", connection=state), stack_spec=raised)
            h1 = wan("http1+tls1.3", connection=state)
            for nbytes in (164_570, 1_338_786):
                # The same round trips; the time differs by HTTP/2's frame and HPACK bytes.
                self.assertEqual(tcp.transfer(nbytes, h2)["round_trips"],
                                 tcp.transfer(nbytes, h1)["round_trips"])
                self.assertAlmostEqual(tcp.transfer(nbytes, h2)["rounds"],
                                       tcp.transfer(nbytes, h1)["rounds"])

    def test_the_window_limits_until_half_of_it_outlasts_the_rtt(self):
        # Credit comes back half a window at a time: at 1 Gbit/s half a window's packets take
        # 0.27 ms, so an RTT of 0.2 ms never stalls and one of 0.5 ms does (though the
        # bandwidth-delay product, 62,500 B, is below the window).
        def lan(rtt_ms):
            return links.with_stack(links.make_link(
                "lan", {"bandwidth_mbps": 1000, "rtt_ms": rtt_ms}, STACKS), "h2c", STACKS)
        self.assertEqual(tcp.transfer(1_338_786, lan(0.2))["round_trips"], 1)
        self.assertGreaterEqual(tcp.transfer(1_338_786, lan(0.5))["round_trips"], 21)


class Loading(unittest.TestCase):
    def test_wan_and_mobile_run_over_the_measured_tls13_stack(self):
        every = links.load_links()
        self.assertEqual((every["wan"].stack, every["mobile"].stack),
                         ("http1+tls1.3", "http1+tls1.3"))
        self.assertEqual(every["wan"].tls_handshake_rtts, 1)

    def test_bad_stacks_get_a_clear_error(self):
        import json
        import os
        import tempfile
        with open(links.DEFAULT_PATH, encoding="utf-8") as handle:
            data = json.load(handle)
        for change, message in ((lambda d: d["stacks"]["grpc"].update(tls="1.4"),
                                 "unknown tls '1.4'"),
                                (lambda d: d["stacks"]["grpc"].update(http="h3"),
                                 "http must be one of"),
                                (lambda d: d["stacks"]["h2c"].update(header_block_bytes=[1]),
                                 "header_block_bytes must be"),
                                (lambda d: d["tls"]["1.3"].pop("server_bytes"),
                                 "tls '1.3' has no server_bytes"),
                                (lambda d: d["tls"]["1.2"].update(client_bytes=-1),
                                 "tls '1.2': client_bytes must be an integer >= 0")):
            broken = json.loads(json.dumps(data))
            change(broken)
            with tempfile.TemporaryDirectory() as folder:
                path = os.path.join(folder, "links.json")
                with open(path, "w", encoding="utf-8") as handle:
                    json.dump(broken, handle)
                with self.assertRaisesRegex(UserError, message):
                    links.load_stacks(path)


if __name__ == "__main__":
    unittest.main()
