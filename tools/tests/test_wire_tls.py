"""The TLS stacks of links.json, the check of their handshake round trips against the
measured ones (wbtools/wire/tls_stacks.py, tools/commands/wire_tls_check.py) and of each
call's time against the model over its stack (wbtools/wire/stack_check.py, --calls)."""

import dataclasses
import json
import unittest

from wbtools import cli
from wbtools.transfer import links, tcp
from wbtools.wire import stack_check, tls_stacks, wire_model


def call(stack, by_time, resumed=False, error=None, flights=1, flight_bytes=6743, early=None):
    return json.dumps({"type": "http_request", "stack": stack, "error": error,
                       "tls": {"done": True, "resumed": resumed, "handshake_rtts": flights,
                               "early_data": early,
                               "handshake_rtts_by_time": by_time,
                               "server_first_flight_bytes": flight_bytes}})


def run(chain, calls, initcwnd="kernel default (10)"):
    return [json.dumps({"type": "context", "link": {"rtt_ms": 40, "initcwnd": initcwnd}}),
            json.dumps({"type": "http_context", "tls": {"chain": chain, "key": "ecdsa",
                                                        "cipher": "aes128gcm", "names": 230}}),
            *calls]


class Stacks(unittest.TestCase):
    def test_the_stacks_give_their_measured_round_trips(self):
        stacks = links.load_stacks()
        self.assertEqual({name: s.tls_handshake_rtts for name, s in stacks.items()},
                         {"http1": 0, "http1+tls1.2": 2, "http1+tls1.3": 1, "h2+tls1.3": 1,
                          "h2c": 0, "grpc": 2})  # gRPC: TLS 1.3 and the SETTINGS' round trip

    def test_a_profile_takes_its_stacks_round_trips_unless_it_states_them(self):
        base = {"bandwidth_mbps": 100, "rtt_ms": 40}
        self.assertEqual(links.make_link("a", {**base, "stack": "http1+tls1.3"})
                         .tls_handshake_rtts, 1)
        self.assertEqual(links.make_link("a", {**base, "stack": "http1+tls1.3",
                                               "tls_handshake_rtts": 3}).tls_handshake_rtts, 3)
        self.assertEqual(links.make_link("a", base).tls_handshake_rtts, 2)  # as before
        with self.assertRaisesRegex(cli.UserError, "unknown stack 'h3'"):
            links.make_link("a", {**base, "stack": "h3"})

    def test_the_measured_exchange_over_a_stack(self):
        self.assertEqual(wire_model.measured_exchange("http1"), wire_model.MEASURED_EXCHANGE)
        self.assertEqual(wire_model.measured_exchange("http1+tls1.3")["tls_handshake_rtts"], 1)
        with self.assertRaises(cli.UserError):
            wire_model.measured_exchange("h2")


class Check(unittest.TestCase):
    def test_groups_judge_cold_calls_and_show_resumed_ones(self):
        lines = run(1, [call("http1+tls1.3", 1.1), call("http1+tls1.3", 1.2),
                        call("http1+tls1.3", 1.05, resumed=True),
                        call("http1+tls1.3", 1.02, resumed=True, early="accepted"),
                        call("http1+tls1.3", 9.0, error="refused"),
                        json.dumps({"type": "http_request", "stack": "http1", "tls": None})])
        lines += run(3, [call("http1+tls1.3", 2.1)])
        lines += run(3, [call("http1+tls1.3", 1.1)], initcwnd="20")
        found = tls_stacks.rows(tls_stacks.tls_calls(lines))
        got = [(r["initcwnd"], r["chain"], r["resumed"], r["n"], r["agrees"]) for r in found]
        self.assertEqual(got, [("20", 3, False, 1, True),
                               ("kernel default (10)", 1, False, 2, True),
                               ("kernel default (10)", 1, True, 1, None),
                               ("kernel default (10)", 1, True, 1, None),
                               ("kernel default (10)", 3, False, 1, False)])
        table = tls_stacks.table(found)
        self.assertIn("**differs**", table)
        self.assertIn("no resumption", table)
        self.assertIn("| 0-RTT |", table)

    def test_a_first_flight_beyond_the_initial_window_is_a_round_trip_more(self):
        # 13,113 B: 11 segments in OpenSSL's three writes, one more than 10, none beyond 20.
        lines = run(2, [call("http1+tls1.3", 2.11, flight_bytes=13_113)])
        lines += run(2, [call("http1+tls1.3", 1.22, flight_bytes=13_113)], initcwnd="20")
        lines += run(1, [call("http1+tls1.3", 1.19, flight_bytes=11_035)])
        found = tls_stacks.rows(tls_stacks.tls_calls(lines))
        self.assertEqual([(r["initcwnd"], r["first_flight_bytes"], r["model_rtts"], r["agrees"])
                          for r in found],
                         [("20", 13_113, 1, True), ("kernel default (10)", 11_035, 1, True),
                          ("kernel default (10)", 13_113, 2, True)])

    def test_bad_lines_are_a_user_error(self):
        with self.assertRaisesRegex(cli.UserError, "line 1: not JSON"):
            tls_stacks.tls_calls(["{not json"])



class CallsAgainstTheModel(unittest.TestCase):
    """stack_check: each measured call's time against the model over its stack."""

    @staticmethod
    def run_lines(stack, calls):
        return [json.dumps({"type": "context", "link": {"rate_mbps": 100, "rtt_ms": 40}}),
                json.dumps({"type": "http_context", "tls": {}}),
                *(json.dumps({"type": "http_request", "stack": stack, "dataset": "message",
                              "rows": 100, "body_bytes": 4617, "server_encode_ms": 0.5,
                              "server_compress_ms": 0, "server_congestion": "cubic", **c})
                  for c in calls)]

    def test_a_call_whose_early_data_was_accepted_is_its_own_state(self):
        tls = {"done": True, "resumed": True, "handshake_rtts_by_time": 1.02,
               "client_bytes": 555, "server_bytes": 225, "client_cpu_ms": 1.0,
               "server_cpu_ms": 0.5}
        lines = self.run_lines("http1+tls1.3", [
            {"connection": "new", "last_byte_ms": 90.0, "tls": {**tls, "early_data": "accepted"}},
            {"connection": "new", "last_byte_ms": 130.0, "tls": {**tls, "early_data": "rejected"}}])
        found = {r["state"]: r for r in stack_check.rows(stack_check.requests(lines))}
        self.assertEqual(set(found), {"early", "resumed"})
        self.assertEqual(found["early"]["model_handshake_rtts"], 0)
        self.assertEqual(found["resumed"]["model_handshake_rtts"], 1)
        self.assertLess(found["early"]["model_ms"], found["resumed"]["model_ms"] - 39)

    def test_states_groups_and_ratios(self):
        tls = {"done": True, "resumed": False, "handshake_rtts_by_time": 1.1,
               "client_bytes": 316, "server_bytes": 6743, "client_cpu_ms": 1.0,
               "server_cpu_ms": 0.5}
        lines = self.run_lines("http1+tls1.3", [
            {"connection": "new", "last_byte_ms": 130.5, "tls": tls},
            {"connection": "new", "last_byte_ms": 126.5, "tls": {**tls, "resumed": True}},
            {"connection": "kept-alive", "last_byte_ms": 40.9, "tls": None},
            {"connection": "new", "error": "refused", "last_byte_ms": 1}])
        found = {r["state"]: r for r in stack_check.rows(stack_check.requests(lines))}
        self.assertEqual(set(found), {"cold", "resumed", "warm"})
        wan = links.with_stack(links.make_link(
            "m", {"bandwidth_mbps": 100, "rtt_ms": 40, "nagle": "off"}), "http1+tls1.3")
        cold = tcp.transfer(4617, wan, connection="cold")
        self.assertAlmostEqual(found["cold"]["model_ms"],
                               (cold["total"] + cold["handshake_cpu"]) * 1e3)
        self.assertAlmostEqual(found["cold"]["ratio"], 130.0 / found["cold"]["model_ms"])
        self.assertEqual((found["cold"]["model_handshake_rtts"], found["cold"]["handshake_bytes"]),
                         (1, 7059))
        self.assertEqual(found["warm"]["model_handshake_rtts"], 0)
        self.assertAlmostEqual(found["warm"]["model_ms"],
                               tcp.transfer(4617, wan, connection="warm")["total"] * 1e3)
        self.assertIn("| cold |", stack_check.table(list(found.values())))

    def test_each_h2_call_is_priced_with_its_own_window(self):
        def h2(window):
            return {"connection": "kept-alive", "last_byte_ms": 100.0, "body_bytes": 164_570,
                    "h2": {"stream_window": window, "connection_window": window}}
        lines = self.run_lines("h2c", [h2(65535), h2(16_777_216), h2(16_777_216)])
        found = {r["window"]: r for r in stack_check.rows(stack_check.requests(lines))}
        self.assertEqual({w: r["n"] for w, r in found.items()}, {65535: 1, 16_777_216: 2})
        wan = links.with_stack(links.make_link(
            "m", {"bandwidth_mbps": 100, "rtt_ms": 40, "nagle": "off"}), "h2c")
        raised = dataclasses.replace(wan, stack_spec=dataclasses.replace(
            wan.stack_spec, flow_window_bytes=16_777_216))
        for window, link in ((65535, wan), (16_777_216, raised)):
            self.assertAlmostEqual(found[window]["model_ms"],
                                   tcp.transfer(164_570, link, connection="warm")["total"] * 1e3)
        # The default window holds science/1000 back; a raised one does not.
        self.assertGreater(found[65535]["model_ms"], 2 * found[16_777_216]["model_ms"])
        table = stack_check.table(list(found.values()))
        self.assertIn("| h2c (window 16,777,216) |", table)
        self.assertIn("| h2c |", table)

    def test_a_ratio_beyond_five_percent_is_named(self):
        lines = self.run_lines("http1", [{"connection": "kept-alive", "last_byte_ms": 60.0}])
        [row] = stack_check.rows(stack_check.requests(lines))
        self.assertFalse(row["within"])
        self.assertIn("outside ±5 %", stack_check.table([row]))


if __name__ == "__main__":
    unittest.main()
