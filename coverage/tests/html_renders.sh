#!/usr/bin/env bash
# html_renders.sh: renders the `accord coverage` HTML page in a real headless Chromium (screenshot and DOM)
# and checks that every matrix element is in the rendered DOM and that the screenshot is not trivial.
# Usage: html_renders.sh ACCORD FIXTURES OUTDIR. Exits 77 (ctest SKIP) when /usr/bin/chromium is absent.
set -euo pipefail
ACCORD=$1 FIXTURES=$2 OUT=$3
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
  echo "coverage_html_renders: SKIPPED: $CHROMIUM is not installed (ci/setup installs the chromium package)"
  exit 77
fi
mkdir -p "$OUT"
html="$OUT/decision-coverage.html" png="$OUT/decision-coverage.png" dom="$OUT/decision-coverage.dom.html"
rm -f "$html" "$png" "$dom"
# The gate may fail while the corpus is incomplete; the page is written either way.
"$ACCORD" coverage "$FIXTURES" --format html --out "$html" 2>"$OUT/accord-coverage.stderr" || true
[ -s "$html" ] || { echo "FAIL: accord coverage wrote no HTML"; cat "$OUT/accord-coverage.stderr"; exit 1; }

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --hide-scrollbars "--user-data-dir=$profile")
timeout 120 "$CHROMIUM" "${flags[@]}" --screenshot="$png" --window-size=1400,3000 "file://$html" >"$OUT/chromium.log" 2>&1 || {
  echo "FAIL: chromium --screenshot exited $?"; tail -n 20 "$OUT/chromium.log"; exit 1; }
timeout 120 "$CHROMIUM" "${flags[@]}" --dump-dom "file://$html" >"$dom" 2>>"$OUT/chromium.log" || {
  echo "FAIL: chromium --dump-dom exited $?"; tail -n 20 "$OUT/chromium.log"; exit 1; }

fail=0
# The twelve matrices (six pairs, two profiles), named independently of the page.
for p in spec lightning-1.6; do
  for m in accelerator-x-strategy strategy-x-precision accelerator-x-precision cluster-env-x-strategy \
           hardware-x-accelerator legacy-x-devices-form; do
    id="m-$p-$m"
    grep -q "id=\"$id\"" "$dom" || { echo "FAIL: #$id is not in the rendered DOM"; fail=1; }
  done
done
cells=$(grep -o 'class="c ' "$dom" | wc -l)
[ "$cells" -ge 500 ] || { echo "FAIL: only $cells heatmap cells in the rendered DOM"; fail=1; }
[ -f "$png" ] || { echo "FAIL: no screenshot written"; exit 1; }
size=$(stat -c %s "$png")
# A blank 1400x3000 page compresses to a few KB; the heatmaps make it far larger.
[ "$size" -gt 60000 ] || { echo "FAIL: screenshot is only $size bytes"; fail=1; }
[ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || { echo "FAIL: $png is not a PNG"; fail=1; }
echo "coverage_html_renders: $cells cells, 12 matrices in the DOM, screenshot $png ($size bytes)"
exit $fail
