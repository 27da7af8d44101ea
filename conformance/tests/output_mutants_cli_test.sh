#!/usr/bin/env bash
# output_mutants_cli_test.sh: `accord output-mutants` measures the same through the protocol (`accord serve`) as
# in-process, so it works for any implementation; and the corpus holds the committed floors
# (coverage/output-mutant-floors.json), writing the markdown report into OUTDIR.
# Usage: output_mutants_cli_test.sh ACCORD FIXTURES FLOORS OUTDIR
set -euo pipefail
ACCORD=$1 FIXTURES=$2 FLOORS=$3 OUT=$4
rm -rf "$OUT" && mkdir -p "$OUT"
"$ACCORD" output-mutants "$FIXTURES" --format json --missed 3 --out "$OUT/in-process.json"
"$ACCORD" output-mutants "$FIXTURES" --format json --missed 3 --impl "$ACCORD serve" --out "$OUT/serve.json"
cmp "$OUT/in-process.json" "$OUT/serve.json"
grep -q '"mutant": "spurious-warning"' "$OUT/in-process.json"
"$ACCORD" output-mutants "$FIXTURES" --format markdown --floors "$FLOORS" --out "$OUT/output-mutants.md"
echo "output_mutants_cli_test: ok ($OUT/output-mutants.md)"
