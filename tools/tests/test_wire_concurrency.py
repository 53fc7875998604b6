"""The concurrency model: one client is tcp.py's model, N clients share the link, a CPU queue."""

import json
import os
import tempfile
import unittest

from wbtools.transfer import tcp
from wbtools.wire import wire_concurrency as wc


def bare_link(rate_mbps=8, rtt_ms=100):
    """A link without round trips' side effects: no slow start, no header bytes."""
    link = wc.measured_link(rate_mbps, rtt_ms)
    fields = dict(link.__dict__, slow_start=False, header_bytes=0)
    return wc.links.Link(**fields)


class OneClient(unittest.TestCase):
    def test_one_call_is_the_transfer_model_plus_cpu(self):
        link = wc.measured_link(1.548288, 693.12)
        for spec in (("cold", True), ("warm", False)):
            with self.subTest(spec=spec):
                made = wc.simulate(1, [spec], link, 48_310, encode_s=0.002, decode_s=0.003)
                parts = tcp.transfer(48_310, wc.with_challenge(link, spec[1]),
                                     connection=spec[0])
                self.assertAlmostEqual(made[0]["seconds"], parts["total"] + 0.005, places=9)

    def test_calls_follow_each_other(self):
        made = wc.simulate(1, [("warm", False)] * 3, bare_link(), 100_000, 0, 0)
        # 100 KB at 1 MB/s is 0.1 s, plus one RTT of 0.1 s per call.
        self.assertEqual([m["call"] for m in made], [0, 1, 2])
        for i, m in enumerate(made):
            self.assertAlmostEqual(m["start"], 0.2 * i)
            self.assertAlmostEqual(m["seconds"], 0.2)


class SharedLink(unittest.TestCase):
    def test_n_clients_share_the_rate_and_each_pays_its_rtt(self):
        made = wc.simulate(10, [("warm", False)], bare_link(), 100_000, 0, 0)
        # Ten responses of 0.1 s each on the wire together: all end after 1 s, plus the RTT.
        self.assertEqual(len(made), 10)
        for m in made:
            self.assertAlmostEqual(m["seconds"], 1.1)

    def test_the_rate_is_shared_only_while_responses_overlap(self):
        # One core, 50 ms of encode: A's response goes on the wire at 0.1 s, B's at 0.15 s.
        # A has 50 KB left then; shared, both move at 0.5 MB/s until A's last byte at 0.25 s,
        # then B's remaining 50 KB go alone by 0.3 s. Plus half an RTT each side.
        made = wc.simulate(2, [("warm", False)], bare_link(), 100_000, encode_s=0.05,
                           decode_s=0, cores=1)
        by_client = {m["client"]: m["seconds"] for m in made}
        self.assertAlmostEqual(by_client[0], 0.3)
        self.assertAlmostEqual(by_client[1], 0.35)

    def test_the_deadline_stops_new_calls(self):
        made = wc.simulate(3, [("warm", False)] * 10, bare_link(), 100_000, 0, 0,
                           deadline_s=1.0)
        self.assertTrue(all(m["start"] <= 1.0 for m in made))
        self.assertLess(len(made), 30)

    def test_shared_slow_start_has_no_stalls(self):
        link = wc.measured_link(1.548288, 693.12)
        alone = wc.call_latency(48_310, link, "cold", True, link.bandwidth_bps)
        shared = wc.call_latency(48_310, link, "cold", True, link.bandwidth_bps / 100)
        self.assertGreater(sum(alone), sum(shared))
        # Shared: setup (handshake + 401) and one request RTT, no stall.
        self.assertAlmostEqual(sum(shared), 3 * link.rtt_s)


class FifoLink(unittest.TestCase):
    def test_whole_responses_in_turn(self):
        made = wc.simulate(4, [("warm", False)], bare_link(), 100_000, 0, 0, discipline="fifo")
        # 0.1 s each on the wire, one after the other, plus the RTT.
        seconds = sorted(round(m["seconds"], 6) for m in made)
        self.assertEqual(seconds, [0.2, 0.3, 0.4, 0.5])

    def test_turns_keep_a_saturated_link_busy(self):
        # 10 clients, 0.1 s of wire each, 0.1 s RTT: after the first round the clients are
        # spread out, and each cycle is the link's 10 responses, 1 s; shared, the clients
        # stay in step and the link idles through every RTT: 1.1 s.
        calls = [("warm", False)] * 5
        fifo = wc.simulate(10, calls, bare_link(), 100_000, 0, 0, discipline="fifo")
        share = wc.simulate(10, calls, bare_link(), 100_000, 0, 0)
        self.assertAlmostEqual(max(m["seconds"] for m in fifo if m["call"] == 4), 1.0)
        self.assertAlmostEqual(max(m["seconds"] for m in share if m["call"] == 4), 1.1)

    def test_unknown_discipline(self):
        with self.assertRaises(ValueError):
            wc.simulate(1, [("warm", False)], bare_link(), 1, 0, 0, discipline="lifo")


class CpuQueue(unittest.TestCase):
    def test_two_cores_serve_four_requests_in_two_rounds(self):
        link = bare_link(rate_mbps=8e6)  # the wire takes next to nothing
        made = wc.simulate(4, [("warm", False)], link, 1, encode_s=1.0, decode_s=0)
        seconds = sorted(round(m["seconds"], 6) for m in made)
        self.assertEqual(seconds, [1.1, 1.1, 2.1, 2.1])

    def test_cores_must_be_positive(self):
        with self.assertRaises(ValueError):
            wc.simulate(1, [("warm", False)], bare_link(), 1, 0, 0, cores=0)


class Distribution(unittest.TestCase):
    def test_median_and_nearest_rank_p95(self):
        d = wc.distribution(list(range(1, 21)))
        self.assertEqual(d["median"], 10.5)
        self.assertEqual(d["p95"], 19)
        self.assertEqual(d["max"], 20)
        self.assertEqual(wc.distribution([])["count"], 0)


class Compare(unittest.TestCase):
    def test_reads_a_run_and_models_each_series(self):
        def call(series, i, total, connection, attempts):
            return {"type": "http_request", "series": series, "index": i, "error": None,
                    "total_ms": total, "connection": connection, "attempts": attempts,
                    "server_encode_ms": 0.1, "decode_ms": 0.2}
        lines = [{"type": "context", "link": {"rate_mbps": 1.548288, "rtt_ms": 693.12,
                                              "congestion_control": "cubic"}},
                 call("json/100", 0, 2900, "new", 2), call("json/100", 1, 720, "kept-alive", 1),
                 {"type": "scenario_result", "series": "json/100", "body_bytes": 4617},
                 call("concurrent json/100", 0, 4000, "new", 2),
                 {"type": "scenario_result", "series": "concurrent json/100", "clients": 4,
                  "calls_per_client": 2, "start_deadline_s": 90, "calls": 1, "body_bytes": 4617,
                  "median_ms": 4000, "p95_ms": 4000, "max_ms": 4000, "past_timeout": 0,
                  "failed": 0, "timeout_s": 30}]
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "poc.jsonl")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("\n".join(json.dumps(line) for line in lines) + "\nnot json\n")
            rows = wc.compare(wc.read_lines(path))
        self.assertEqual([r["series"] for r in rows], ["json/100", "concurrent json/100"])
        self.assertEqual(rows[0]["measured"], {"first": 2900, "warm": 720})
        for discipline in wc.DISCIPLINES:
            model = rows[0]["models"][discipline]
            self.assertGreater(model["first"], model["warm"])
            self.assertEqual(rows[1]["models"][discipline]["calls"], 8)
        self.assertIn("| concurrent json/100 | p95 ms |", wc.table(rows))
        # The file `./wirebench wire --scenario` saves holds the same lines.
        saved = {"type": "wirebench-scenario", "scenario": "poc",
                 "context": {k: v for k, v in lines[0].items() if k != "type"},
                 "checks": [], "results": [l for l in lines if l["type"] == "scenario_result"],
                 "requests": [l for l in lines if l["type"] == "http_request"], "other": []}
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "poc-scenario.json")
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(saved, handle)
            again = wc.compare(wc.read_lines(path))
        self.assertEqual([r["measured"] for r in again], [r["measured"] for r in rows])


if __name__ == "__main__":
    unittest.main()
