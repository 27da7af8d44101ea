#!/usr/bin/env bash
# generated_corpus_test.sh: `accord generate --corpus` writes a corpus that lint accepts, that the reference passes
# whole on the profile it was made for, and that an implementation with known mistakes fails; conform holds it
# packed (each case read when it runs), so this also checks that path end to end.
# Usage: generated_corpus_test.sh ACCORD MUTANT_IMPL OUTDIR
set -euo pipefail
ACCORD=$1 MUTANT=$2 OUT=$3
rm -rf "$OUT" && mkdir -p "$OUT"
"$ACCORD" generate --corpus "$OUT/corpus" --cases 450 --per-file 200 --seed 11 --profile lightning-2.2 >"$OUT/generate.out"
grep -q "450 cases (profile lightning-2.2, seed 11) in 3 files" "$OUT/generate.out"
[ "$(ls "$OUT/corpus" | tr '\n' ' ')" = "part-00001.json part-00002.json part-00003.json " ]
"$ACCORD" lint "$OUT/corpus" >"$OUT/lint.out"
"$ACCORD" conform "$OUT/corpus" --profile lightning-2.2 --jobs 2 >"$OUT/conform.out"
grep -q "^PASS: 450 cases: 450 passed" "$OUT/conform.out"
# Another profile selects none of them: the corpus is pinned to the profile it was made for.
if "$ACCORD" conform "$OUT/corpus" --profile spec >"$OUT/spec.out" 2>&1; then exit 1; fi
grep -q "no case selected (profile spec)" "$OUT/spec.out"
if "$ACCORD" conform "$OUT/corpus" --profile lightning-2.2 --impl "$MUTANT" >"$OUT/mutant.out" 2>&1; then exit 1; fi
grep -q "^FAIL: 450 cases: " "$OUT/mutant.out"
echo "generated_corpus_test: ok"
