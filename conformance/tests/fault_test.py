#!/usr/bin/env python3
"""fault_test.py: one row of faults.json: `accord conform` against the fault-injecting fake implementation.

Checks the exit status, each case's verdict and message in the JSON report (or that it is listed as not run), that
every selected case is in the report exactly once, the footer's `stopped` reason, and that no process the fake
started (its PIDs, written to a file at each start) is still alive. Usage (ctest does this):
    python3 fault_test.py --accord build/bin/accord --fake build/bin/conformance_fault_impl --row hang
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def alive(pid):
    """True while `pid` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def left_processes(pid_file):
    """The PIDs of the pid file still alive a moment after accord exited (none may be)."""
    if not os.path.exists(pid_file):
        return []
    with open(pid_file, encoding="ascii") as f:
        pids = [int(x) for x in f.read().split()]
    deadline = time.time() + 2
    while time.time() < deadline and any(alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


def read_report(path):
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]  # every line must be JSON: well-formed
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "footer", "report without header or footer"
    return [x for x in lines if x["type"] == "result"], lines[-1]


def run(row, accord, fake):
    with tempfile.TemporaryDirectory() as tmp:
        pid_file, report = os.path.join(tmp, "pids"), os.path.join(tmp, "report.jsonl")
        impl = row["impl"].replace("{impl}", shlex.quote(fake) + " --pid-file=" + shlex.quote(pid_file))
        argv = [accord, "conform", os.path.join(HERE, "data", "faults"), "--impl", impl, "--format", "json", "--out", report] + row["args"]
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=row.get("timeout", 60))
        out = p.stdout.decode("utf-8", "replace") + p.stderr.decode("utf-8", "replace")
        problems = []
        if p.returncode != row["exit"]:
            problems.append(f"exit {p.returncode}, expected {row['exit']}")
        results, footer = read_report(report)
        seen = {}
        for r in results:
            if r["id"] in seen:
                problems.append(f"{r['id']}: in the report twice")
            seen[r["id"]] = r
        not_run = footer.get("not_run_ids", [])
        for case_id, want in row["cases"].items():
            verdict = want[0]
            if verdict == "not-run":
                if case_id not in not_run or case_id in seen:
                    problems.append(f"{case_id}: expected to be listed as not run (not_run_ids {not_run})")
                continue
            got = seen.get(case_id)
            if got is None:
                problems.append(f"{case_id}: not in the report")
                continue
            if got["verdict"] != verdict:
                problems.append(f"{case_id}: verdict {got['verdict']}, expected {verdict} ({got.get('message', '')[:300]})")
            if len(want) > 1 and not re.search(want[1], got.get("message", "")):
                problems.append(f"{case_id}: message {got.get('message', '')[:300]!r} does not match {want[1]!r}")
        accounted = set(seen) | set(not_run)
        if accounted != set(row["cases"]) or len(seen) + len(not_run) != footer["selected"]:
            problems.append(f"report accounts for {sorted(accounted)}, selected {footer['selected']}; expected {sorted(row['cases'])}")
        if "stopped" in row and not re.search(row["stopped"], footer.get("stopped", "")):
            problems.append(f"stopped {footer.get('stopped')!r} does not match {row['stopped']!r}")
        if "stopped" not in row and footer.get("stopped"):
            problems.append(f"unexpected stopped {footer['stopped']!r}")
        left = left_processes(pid_file)
        if left:
            problems.append(f"processes left running: {left}")
        return problems, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--accord", required=True)
    ap.add_argument("--fake", required=True)
    ap.add_argument("--table", default=os.path.join(HERE, "faults.json"))
    ap.add_argument("--row", required=True)
    a = ap.parse_args()
    with open(a.table, encoding="utf-8") as f:
        rows = {r["name"]: r for r in json.load(f)["rows"]}
    problems, out = run(rows[a.row], a.accord, a.fake)
    for p in problems:
        print(f"{a.row}: {p}")
    if problems:
        print(out[-3000:])
        return 1
    print(f"{a.row}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
