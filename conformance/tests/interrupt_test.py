#!/usr/bin/env python3
"""interrupt_test.py: SIGINT and SIGTERM while accord waits on a hung implementation.

For `conform` (each report format: json, junit, markdown, html), `compare`, `differential`, `serve` and, with
--live, `launch` (its workers hang on purpose, ACCORD_LIVE_FAULT=*:hang): the command exits 130
(SIGINT) or 143 (SIGTERM) within seconds, the report is well-formed and says the run was interrupted, the case that
finished before the signal is in it and the others are listed as not run, and no process of the fake implementation
is left (its PIDs, written to a file at each start). Usage (ctest does this):
    python3 interrupt_test.py --accord build/bin/accord --fake build/bin/conformance_fault_impl [-v]
"""
import argparse
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

from fault_test import alive, left_processes

HERE = os.path.dirname(os.path.abspath(__file__))
ARGS = None
FAULTS = os.path.join(HERE, "data", "faults")
CASES = "^fault/(ok-1|hang|ok-2)$"  # the second case hangs until the signal comes


def wait_for_pids(pid_file, n, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if os.path.exists(pid_file):
            with open(pid_file, encoding="ascii") as f:
                if len(f.read().split()) >= n:
                    return
        time.sleep(0.05)
    raise AssertionError(f"the fake implementation did not start ({pid_file})")


def fake(tmp, extra=""):
    return shlex.quote(ARGS.fake) + " --pid-file=" + shlex.quote(os.path.join(tmp, "pids")) + extra


def interrupt(p, sig, tmp, settle=1.0):
    """Waits for the fake to start and to be hung in the second case, then sends `sig` to accord alone."""
    wait_for_pids(os.path.join(tmp, "pids"), 1)
    time.sleep(settle)
    p.send_signal(sig)
    out, err = p.communicate(timeout=20)
    return p.returncode, out.decode("utf-8", "replace") + err.decode("utf-8", "replace")


class Interrupts(unittest.TestCase):
    def check_conform(self, fmt, sig):
        with tempfile.TemporaryDirectory() as tmp:
            report = os.path.join(tmp, "report")
            # --ignore-term: the fake survives a polite SIGTERM; accord must end its whole process group regardless.
            argv = [ARGS.accord, "conform", FAULTS, "--filter", CASES, "--timeout", "120", "--impl", fake(tmp, " --ignore-term"),
                    "--format", fmt, "--out", report]
            p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            rc, out = interrupt(p, sig, tmp)
            name = signal.Signals(sig).name
            self.assertEqual(rc, 128 + sig, out)
            self.assertIn(f"interrupted by {name}", out)
            self.assertEqual(left_processes(os.path.join(tmp, "pids")), [])
            with open(report, encoding="utf-8") as f:
                text = f.read()
            if fmt != "json":
                self.assertIn(f"interrupted by {name}: 2 of 3 cases not run", text)
            if fmt == "json":
                lines = [json.loads(line) for line in text.splitlines()]
                self.assertEqual(lines[0]["type"], "header")
                results = {x["id"]: x["verdict"] for x in lines if x["type"] == "result"}
                self.assertEqual(results, {"fault/ok-1": "passed"})
                self.assertEqual(lines[-1]["type"], "footer")
                self.assertEqual(lines[-1]["not_run_ids"], ["fault/hang", "fault/ok-2"])
                self.assertEqual(lines[-1]["stopped"], f"interrupted by {name}")
                self.assertFalse(lines[-1]["ok"])
            elif fmt == "junit":
                root = ET.fromstring(text)  # well-formed XML
                self.assertEqual(root.get("tests"), "1")
                self.assertIn("not run: fault/hang", root.find("testsuite/system-out").text)
            elif fmt == "markdown":
                self.assertIn("`fault/hang`", text)
                self.assertTrue(text.rstrip().endswith("</details>"), text[-200:])
            else:
                self.assertTrue(text.startswith("<!DOCTYPE html>") and text.endswith("</html>\n"), text[-200:])
                self.assertIn("<li><code>fault/ok-2</code></li>", text)

    def test_conform_every_format_and_signal(self):
        for fmt in ("json", "junit", "markdown", "html"):
            for sig in (signal.SIGINT, signal.SIGTERM):
                with self.subTest(format=fmt, signal=sig.name):
                    self.check_conform(fmt, sig)

    def test_conform_while_the_implementation_starts(self):
        with tempfile.TemporaryDirectory() as tmp:
            report = os.path.join(tmp, "report.jsonl")
            argv = [ARGS.accord, "conform", FAULTS, "--filter", CASES, "--impl", fake(tmp, " --handshake=hang"),
                    "--startup-timeout", "120", "--format", "json", "--out", report]
            p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            rc, out = interrupt(p, signal.SIGTERM, tmp, settle=0.5)
            self.assertEqual(rc, 143, out)
            self.assertEqual(left_processes(os.path.join(tmp, "pids")), [])
            with open(report, encoding="utf-8") as f:
                footer = json.loads(f.read().splitlines()[-1])
            self.assertEqual(footer["stopped"], "interrupted by SIGTERM")
            self.assertEqual(footer["not_run"], 3)

    def test_compare(self):
        for fmt in ("text", "json"):
            with self.subTest(format=fmt), tempfile.TemporaryDirectory() as tmp:
                argv = [ARGS.accord, "compare", FAULTS, "--filter", CASES, "--timeout", "120", "--impl", "reference",
                        "--impl", fake(tmp), "--format", fmt]
                p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                rc, out = interrupt(p, signal.SIGINT, tmp)
                self.assertEqual(rc, 130, out)
                self.assertIn("interrupted by SIGINT: 2 of 2 implementations ran (the last one possibly in part)", out)
                self.assertEqual(left_processes(os.path.join(tmp, "pids")), [])
                if fmt == "json":
                    table = json.loads(out[: out.rindex("}") + 1])
                    self.assertTrue(table["stopped"].startswith("interrupted by SIGINT"))

    def test_differential(self):
        with tempfile.TemporaryDirectory() as tmp:
            argv = [ARGS.accord, "differential", "--impl", fake(tmp), "--cases", "10000000", "--timeout", "120"]
            p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            rc, out = interrupt(p, signal.SIGINT, tmp)
            self.assertEqual(rc, 130, out[-2000:])
            self.assertRegex(out, r"# interrupted by SIGINT after \d+ of 10000000 cases")
            self.assertEqual(left_processes(os.path.join(tmp, "pids")), [])

    def test_launch(self):
        if not ARGS.live:
            self.skipTest("--live not given (a build without LibTorch has no launch)")
        with tempfile.TemporaryDirectory() as tmp:
            case, plan = os.path.join(tmp, "case.json"), os.path.join(tmp, "plan.json")
            with open(case, "w", encoding="utf-8") as f:
                json.dump({"flags": {"strategy": "ddp", "accelerator": "cpu", "devices": 2}}, f)
            with open(plan, "wb") as f:
                f.write(subprocess.run([ARGS.accord, "resolve", case, "--profile", "lightning-2.2"], check=True,
                                       stdout=subprocess.PIPE).stdout)
            env = dict(os.environ, ACCORD_LIVE_FAULT="*:hang")  # every worker hangs until it is stopped
            p = subprocess.Popen([ARGS.accord, "launch", "--plan", plan, "--timeout", "300"], env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            time.sleep(4)  # the workers load LibTorch, then hang
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=30)
            self.assertEqual(p.returncode, 130, err.decode("utf-8", "replace")[-2000:])
            report = json.loads(out)
            self.assertEqual(report["interrupted"], "SIGINT")
            self.assertEqual(report["error"]["code"], "live_interrupted")
            pids = [r["pid"] for r in report["ranks"]]
            self.assertEqual(len(pids), 2)
            self.assertTrue(all(r["interrupted"] for r in report["ranks"]))
            time.sleep(0.5)
            self.assertEqual([pid for pid in pids if alive(pid)], [])

    def test_serve(self):
        for sig in (signal.SIGINT, signal.SIGTERM):
            with self.subTest(signal=sig.name):
                p = subprocess.Popen([ARGS.accord, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                p.stdin.write(b'{"id": "a", "case": {}}\n')
                p.stdin.flush()
                reply = json.loads(p.stdout.readline())
                self.assertEqual(reply["id"], "a")
                p.send_signal(sig)
                p.communicate(timeout=20)
                self.assertEqual(p.returncode, 128 + sig)


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--accord", required=True)
    ap.add_argument("--fake", required=True)
    ap.add_argument("--live", action="store_true", help="also `accord launch` (a build with LibTorch)")
    ap.add_argument("-v", action="store_true")
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + (["-v"] if ARGS.v else []) + rest)


if __name__ == "__main__":
    main()
