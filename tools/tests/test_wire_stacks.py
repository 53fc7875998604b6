"""The matrix over stacks (wire --matrix --stack; wbtools/wire/stack_cases.py): gRPC calls
priced as the grpc stack, the runs' command lines, the cases, the option errors and
wire-table's stacks side by side. No link is built."""

import contextlib
import fcntl
import io
import json
import os
import sys
import tempfile
import unittest

from wbtools import cli
from wbtools.transfer import links, tcp
from wbtools.wire import stack_cases, stack_check

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "commands"))
import wire_matrix  # noqa: E402  (tools/commands/wire_matrix.py, the entry script)
import wire_table  # noqa: E402
import report as report_command  # noqa: E402
from wbtools.page import wire_data  # noqa: E402
from wbtools.results import machine  # noqa: E402

CONTEXT = {"type": "context", "link": {"rate_mbps": 100, "rtt_ms": 40,
                                       "initcwnd": "kernel default (10)",
                                       "congestion_control": "bbr"}}
TLS = {"done": True, "resumed": False, "handshake_rtts_by_time": 1.1, "client_bytes": 316,
       "server_bytes": 6743, "client_cpu_ms": 1.0, "server_cpu_ms": 0.5}


def grpc_call(connection, last_byte_ms, **more):
    return {"type": "grpc_call", "stack": "grpc", "dataset": "message", "rows": 100,
            "format": "protobuf", "compression": "none", "connection": connection,
            "connect_ms": 125.0 if connection == "new" else None, "server_encode_ms": 0.5,
            "first_byte_ms": last_byte_ms - 0.1, "last_byte_ms": last_byte_ms,
            "message_bytes": 2417, "link_up_bytes": 1900, "link_down_bytes": 10800,
            "decoded_rows": 100, "checked": True, "link_drops": 0, "error": None, **more}


def http_call(connection, last_byte_ms, **more):
    return {"type": "http_request", "stack": "http1+tls1.3", "dataset": "message",
            "rows": 100, "format": "json", "connection": connection, "body_bytes": 4617,
            "server_encode_ms": 0.5, "server_compress_ms": 0, "first_byte_ms": last_byte_ms,
            "last_byte_ms": last_byte_ms, "checked": True, "link_drops": 0, "error": None,
            "tls": TLS if connection == "new" else None, **more}


def lines(*calls):
    return [json.dumps(CONTEXT), json.dumps({"type": "grpc_context", "tls": {}}),
            *map(json.dumps, calls)]


class GrpcPriced(unittest.TestCase):
    def test_a_grpc_call_is_the_grpc_stack_over_its_runs_link(self):
        found = stack_check.requests(lines(grpc_call("new", 170.5), grpc_call("kept-alive", 41.0),
                                           grpc_call("new", 1, compression="gzip")))
        # The gzipped call is left out: its wire size is not in the line.
        self.assertEqual([c["connection"] for c in found], ["new", "kept-alive"])
        link = links.with_stack(links.make_link(
            "m", {"bandwidth_mbps": 100, "rtt_ms": 40, "nagle": "off", "congestion": "bbr"}),
            "grpc")
        for call, state in zip(found, ("cold", "warm")):
            parts = tcp.transfer(2417, link, connection=state)
            model, rtts = stack_check.model_ms(call)
            self.assertAlmostEqual(model, (parts["total"] + parts["handshake_cpu"]) * 1e3)
            # TLS 1.3's round trip and the one a channel waits for the server's SETTINGS.
            self.assertEqual(rtts, 2 if state == "cold" else 0)
        # The run's congestion control prices it: cubic would differ for bbr's link.
        page = {**found[1], "body_bytes": 75758}
        self.assertNotAlmostEqual(stack_check.model_ms(page)[0],
                                  stack_check.model_ms({**page, "server_congestion": "cubic"})[0])
        self.assertAlmostEqual(stack_check.handshake_rtts_by_time(found[0]), 125.0 / 40 - 1)
        self.assertIsNone(stack_check.handshake_rtts_by_time(found[1]))


class Runs(unittest.TestCase):
    def test_every_stack_of_links_json_has_its_options(self):
        self.assertEqual(set(stack_cases.OPTIONS), set(links.load_stacks()))
        self.assertEqual(stack_cases.choose_stacks(["all"], list(links.load_stacks())),
                         list(links.load_stacks()))
        with self.assertRaisesRegex(cli.UserError, "unknown stack h3"):
            stack_cases.choose_stacks(["h3"], list(links.load_stacks()))

    def test_the_command_of_a_run(self):
        wan = {"bandwidth_mbps": 100, "rtt_ms": 40}
        cmd = stack_cases.command("B", wan, "cubic", "grpc", ("science", 1000), 1)
        self.assertEqual(cmd, ["B", "--rate-mbps", "100", "--rtt-ms", "40", "--congestion",
                               "cubic", "--http", "dataset=science,rows=1000,requests=2,"
                               "reconnect=0,warmup=1,format=protobuf,encoder=libprotobuf",
                               "--tls", "1.3", "--grpc"])
        cmd = stack_cases.command("B", wan, "bbr", "h2c", ("message", 100), 1)
        self.assertEqual(cmd[6:], ["bbr", "--http", "dataset=message,rows=100,requests=2,"
                                   "reconnect=0,warmup=1,format=json", "--h2"])

    def test_payloads(self):
        self.assertEqual(stack_cases.parse_payload("science/1000"), ("science", 1000))
        self.assertEqual(stack_cases.parse_payload("json/message/100"), ("message", 100))
        for bad in ("science", "science/x", "science/0", "/5"):
            with self.assertRaisesRegex(cli.UserError, "DATASET/ROWS"):
                stack_cases.parse_payload(bad)

    def test_a_failed_or_unchecked_call_is_refused(self):
        with self.assertRaisesRegex(cli.UserError, "call 0 failed: rows differ"):
            stack_cases.calls(lines(grpc_call("new", 170, index=0, error="rows differ")), 0, "x")
        with self.assertRaisesRegex(cli.UserError, "not checked"):
            stack_cases.calls(lines(grpc_call("new", 170, checked=False)), 0, "x")
        with self.assertRaisesRegex(cli.UserError, "no http_request or grpc_call"):
            stack_cases.calls(lines(), 0, "x")


class Cases(unittest.TestCase):
    def test_cold_and_warm_over_rounds(self):
        found = []
        for round_index, (cold, warm) in enumerate([(130.5, 40.9), (131.0, 41.0),
                                                    (180.0, 41.1)]):
            found += [dict(c, profile="wan", congestion="bbr")
                      for c in stack_cases.calls(lines(http_call("new", cold),
                                                       http_call("kept-alive", warm)),
                                                 round_index, "x")]
        cases = {c["connection"]: c for c in stack_cases.summarise(found)}
        cold, warm = cases["cold"], cases["warm"]
        self.assertEqual((cold["repetitions"], cold["median_ms"], cold["min_ms"],
                          cold["max_ms"]), (3, 130.5, 130.0, 179.5))
        self.assertEqual(cold["disagreeing_rounds"], [2])
        self.assertEqual(warm["disagreeing_rounds"], [])
        model = stack_check.model_ms(found[0])[0]
        self.assertAlmostEqual(cold["model"]["model"]["ms"], round(model, 3))
        self.assertAlmostEqual(cold["model"]["model"]["ratio"], round(model / 130.5, 4))
        self.assertEqual(cold["handshake"]["handshake_client_bytes"], 316)
        self.assertEqual(cold["handshake"]["model_handshake_rtts"], 1)
        self.assertIsNone(warm["handshake"]["client_cpu_ms"])
        # The working tree's model again from the stored calls: the same figures.
        again = stack_cases.reprice([{**c, "profile": "wan", "congestion": "bbr",
                                      "model": {}} for c in cases.values()], found, "now")
        self.assertEqual([c["model"]["now"] for c in again],
                         [c["model"]["model"] for c in cases.values()])


def run_main(module, argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.run(module.main, argv)
    return status, out.getvalue(), err.getvalue()


class Options(unittest.TestCase):
    def test_errors_say_what_is_wrong(self):
        for argv, message in (
                (["--stack", "h3"], "unknown stack h3"),
                (["--stack", "all", "--full"], "--full goes with the raw TCP matrix"),
                (["--stack", "grpc", "--before", "HEAD"], "--before goes with"),
                (["--stack", "grpc", "--payload", "science"], "DATASET/ROWS"),
                (["--stack", "grpc", "--repetitions", "0"], "at least 1"),
                (["--stack", "grpc", "--profile", "moon"], "unknown profile moon"),
                (["--stack", "grpc", "--build", "/nonexistent"], "no wirebench_wire")):
            status, _, err = run_main(wire_matrix, argv)
            self.assertEqual(status, 2, argv)
            self.assertIn(message, err, argv)
            self.assertNotIn("Traceback", err)


class Matrix(unittest.TestCase):
    def test_a_stack_run_of_a_stand_in_executable(self):
        # tools/tests/fake_wire.py prints a run's lines: a cold call 4 RTTs, a warm one 1.
        with tempfile.TemporaryDirectory() as folder:
            os.symlink(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_wire.py"),
                       os.path.join(folder, "wirebench_wire"))
            out = os.path.join(folder, "r-wire.json")
            status, printed, err = run_main(wire_matrix, [
                "--build", folder, "--profile", "wan", "--stack", "http1", "--stack", "grpc",
                "--repetitions", "2", "--wait-quiet", "0", "--seed", "1",
                "--lock", os.path.join(folder, "lock"), "--out", out])
            self.assertEqual(status, 0, err)
            self.assertIn("[8/8] round 2/2", err)
            with open(out, encoding="utf-8") as handle:
                data = json.load(handle)
        self.assertEqual(data["type"], "wirebench-wire")
        self.assertEqual(data["context"]["stacks"], ["http1", "grpc"])
        self.assertIn("lock_wait_s", data["context"])
        self.assertEqual((data["context"]["runs_planned"], data["context"]["runs_done"]), (8, 8))
        self.assertEqual(sorted((g["stack"], len(g["self_checks"])) for g in data["groups"]),
                         [("grpc", 4), ("http1", 4)])
        # 8 runs of a cold call and WARM_CALLS warm ones; a case pools its rounds' calls.
        warm = stack_cases.WARM_CALLS
        self.assertEqual(len(data["calls"]), 8 * (1 + warm))
        self.assertEqual(len(data["cases"]), 8)
        for case in data["cases"]:
            calls = 1 if case["connection"] == "cold" else warm
            self.assertEqual((case["repetitions"], case["rounds"]),
                             (2 * calls, [0] * calls + [1] * calls))
            self.assertEqual(case["median_ms"], 159.9 if case["connection"] == "cold" else 39.9)


class Page(unittest.TestCase):
    def test_the_page_keeps_to_raw_transfers(self):
        # A stack run is not the page's table of transfers: report picks the newest file with
        # raw cases, and wire_data leaves a merged file's stack cases out.
        raw = {"type": "wirebench-wire", "context": {}, "cases": [
            {"profile": "wan", "payload": "json/message/100", "median_ms": 40.0, "model": {}}]}
        stacked = {"type": "wirebench-wire", "context": {}, "cases": [
            {"profile": "wan", "stack": "grpc", "payload": "message/100", "median_ms": 40.0}]}
        slug = machine.slug("Some CPU")

        class Result:
            context = {"cpu_model": "Some CPU"}
        with tempfile.TemporaryDirectory() as folder:
            for stamp, data in (("20261201T000000Z", raw), ("20261202T000000Z", stacked)):
                with open(os.path.join(folder, f"{stamp}-{slug}-abc1234-wire.json"), "w",
                          encoding="utf-8") as handle:
                    json.dump(data, handle)
            self.assertTrue(report_command._newest_wire(folder, Result()).endswith(
                f"20261201T000000Z-{slug}-abc1234-wire.json"))
        merged = {**raw, "cases": raw["cases"] + stacked["cases"]}
        self.assertEqual([r["payload"] for r in wire_data.wire_data(merged, {})["rows"]],
                         ["json/message/100"])


class Lock(unittest.TestCase):
    def test_the_lock_is_held_for_a_run_and_released(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "wire.lock")
            lock = wire_matrix.Lock(path)
            with lock, open(path, encoding="utf-8") as other:
                with self.assertRaises(BlockingIOError):
                    fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            with open(path, encoding="utf-8") as other:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free again
            self.assertGreaterEqual(lock.waited_s, 0.0)
        with wire_matrix.Lock(None) as none:
            self.assertEqual(none.waited_s, 0.0)


class Table(unittest.TestCase):
    def result(self):
        found = []
        for round_index in range(2):
            for stack_lines, stack in ((lines(http_call("new", 130.5), http_call("kept-alive",
                                                                                  40.9)),
                                        "http1+tls1.3"),
                                       (lines(grpc_call("new", 170.5),
                                              grpc_call("kept-alive", 41.0)), "grpc")):
                found += [dict(c, profile="wan", congestion="bbr")
                          for c in stack_cases.calls(stack_lines, round_index, stack)]
        cases = []
        for stack in ("http1+tls1.3", "grpc"):
            cases += [{"profile": "wan", "congestion": "bbr", **c, "rounds_left_out": []}
                      for c in stack_cases.summarise([c for c in found if c["stack"] == stack])]
        check = {"rtt_median_ms": 40.1, "rtt_expected_ms": 40.0, "rtt_error_pct": 0.2,
                 "ip_rate_mbps": 100.0, "rate_error_pct": 0.0, "bulk_drops": 0}
        groups = [{"profile": "wan", "congestion": "bbr", "stack": s,
                   "link": CONTEXT["link"], "server_congestion_in_use": "bbr",
                   "self_check": check} for s in ("http1+tls1.3", "grpc")]
        return {"type": "wirebench-wire", "context": {
            "date": "20261206T000000Z", "git_commit": "abc", "cpu_model": "cpu",
            "kernel": "k", "repetitions": 2, "subset": "stacks", "wall_s": 20,
            "sizes_from": None, "stacks": ["http1+tls1.3", "grpc"], "order": "rounds"},
            "groups": groups, "cases": cases, "calls": found}

    def test_a_raw_tcp_run_prints_as_before(self):
        data = self.result()
        del data["context"]["stacks"], data["calls"]
        data["context"]["sizes_from"] = "results/r.json"
        data["groups"] = [dict(data["groups"][0], stack=None)]
        data["cases"] = [{"profile": "wan", "congestion": "cubic", "payload": "json/message/100",
                          "bytes": 4617, "connection": "warm", "repetitions": 3,
                          "measured_ms": [40.5] * 3, "median_ms": 40.5, "min_ms": 40.5,
                          "max_ms": 40.5, "disagreeing_rounds": []}]
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "r-wire.json")
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(data, handle)
            status, out, err = run_main(wire_table, [path])
        self.assertEqual(status, 0, err)
        self.assertNotIn("Per stack", out)
        self.assertIn("Payload sizes from results/r.json.", out)
        self.assertRegex(out, r"\| wan \| json/message/100 \| 4,617 \| cubic \| warm \| 3 \| "
                              r"40\.5 \(40\.5-40\.5\) \| [0-9.]+ \| [0-9.*]+ \|")

    def test_the_stacks_side_by_side(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "r-wire.json")
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(self.result(), handle)
            status, out, err = run_main(wire_table, [path])
        self.assertEqual(status, 0, err)
        self.assertIn("## Per stack", out)
        self.assertIn("### wan, bbr, message/100", out)
        self.assertIn("| | http1+tls1.3 | grpc |", out)
        self.assertIn("| handshake B: client / server | 316 / 6,743 | — / — |", out)
        self.assertIn("| handshake RTTs: model / by time | 1 / 1.10 | 2 / 2.12 |", out)
        # The working tree reproduces the stored model: no second column.
        self.assertNotIn("now ms", out)
        self.assertIn("| cold: measured ms (min-max), n | 130.0 (130.0-130.0), 2 "
                      "| 170.0 (170.0-170.0), 2 |", out)


if __name__ == "__main__":
    unittest.main()
