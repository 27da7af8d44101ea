#!/usr/bin/python3
"""Record the REAL Lightning connector's outcome for given cases (JSON lines out), in-process (no protocol session).

    python3 record_oracle.py --connector fabric \\
        cases.jsonl fixtures/cases/flags/some-fixture.json ... > outcomes.jsonl

Inputs (files, or stdin when none is given):
  * JSON lines, one case each: {"id": ..., "given": <case>} (also "case" instead of "given", or the bare case);
  * fixture files (a JSON object with "cases": [{"id": ..., "given": ...}, ...]): every fixture's `given`.
Output: one JSON line per case, in input order: {"id": ..., "outcome": <outcome>} (or "skipped" / "errored"), with
"given" too when --with-given is passed. The outcome is exactly what `adapter.py` answers for the case
(conformance/PROTOCOL.md), computed by the adapter's own code; `--profile P` applies the adapter's profile check
(a Trainer profile with --connector fabric is `skipped`, and the other way round).
"""
import argparse
import json
import os
import sys
import traceback

sys.dont_write_bytecode = True  # keep the source folder clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adapter as adapter_mod  # noqa: E402
import oracle as oracle_mod  # noqa: E402


def read_cases(paths):
    """(id, case) pairs from JSON-lines files and fixture files (stdin when paths is empty)."""
    sources = paths or ["-"]
    for path in sources:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        name = "stdin" if path == "-" else os.path.basename(path)
        stripped = text.lstrip()
        if stripped.startswith("{") and '"cases"' in stripped[:2000]:
            try:
                doc = json.loads(text)
            except ValueError:
                doc = None
            if isinstance(doc, dict) and isinstance(doc.get("cases"), list):
                for i, fx in enumerate(doc["cases"]):
                    yield fx.get("id", f"{name}:{i}"), fx.get("given", {})
                continue
        for n, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            rec = json.loads(line)
            if isinstance(rec, dict) and ("given" in rec or "case" in rec):
                yield rec.get("id", f"{name}:{n}"), rec.get("given", rec.get("case"))
            else:
                yield f"{name}:{n}", rec


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", nargs="*", help="JSON-lines case files or fixture files (default: stdin)")
    ap.add_argument("--lightning", choices=["1.6", "2.x"], default="2.x")
    ap.add_argument("--connector", choices=["trainer", "fabric"], default="fabric")
    ap.add_argument("--root", default=os.environ.get("ACCORD_LIGHTNING_ROOT") or None,
                    help="a folder made by setup_oracle.sh (default: $ACCORD_LIGHTNING_ROOT, else the Lightning this Python imports)")
    ap.add_argument("--profile", help="the profile the cases are recorded for (checked as adapter.py checks it)")
    ap.add_argument("--with-given", action="store_true", help="repeat each case in its output line")
    ap.add_argument("-o", "--output", help="output file (default: stdout)")
    args = ap.parse_args()
    if args.connector == "fabric" and args.lightning != "2.x":
        ap.error("--connector fabric needs --lightning 2.x")
    cases = list(read_cases(args.inputs))
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # anything Lightning prints must not end up among the outcomes
    ora = oracle_mod.load(args.lightning, args.root, args.connector)
    if ora is None:
        sys.exit(f"cannot import Lightning {args.lightning}: {oracle_mod.import_error}")
    adapter = adapter_mod.Adapter(ora)
    counts = {}
    for cid, case in cases:
        rec = {"id": cid}
        if args.with_given:
            rec["given"] = case
        skip = adapter_mod.foreign_profile(args.profile, args.connector)
        try:
            rec.update({"skipped": skip} if skip else adapter.resolve(case or {}))
        except Exception:  # noqa: BLE001 - an adapter bug is reported per case, as adapter.py does
            rec["errored"] = traceback.format_exc()
        kind = next(k for k in ("outcome", "skipped", "errored") if k in rec)
        counts[kind] = counts.get(kind, 0) + 1
        (out if args.output else real_stdout).write(json.dumps(rec) + "\n")
    if args.output:
        out.close()
    print(f"recorded {len(cases)} cases ({args.connector} connector, Lightning {ora.version}): {counts}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
