#!/usr/bin/env bash
# html_reports_render.sh: renders the HTML reports of `accord conform` (an implementation with known mistakes, so
# that some cases fail) and `accord compare` (two profiles of the reference) in a real headless Chromium, checks
# that the summary and the failing or differing cases are in the rendered DOM, failures before passes, and that
# each screenshot is a real picture.
# Usage: html_reports_render.sh ACCORD MUTANT_IMPL MUTANT_CORPUS FIXTURES OUTDIR. Exits 77 (ctest SKIP) without
# /usr/bin/chromium.
set -euo pipefail
ACCORD=$1 MUTANT=$2 MUTANT_CORPUS=$3 FIXTURES=$4 OUT=$5
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
  echo "conformance_html_reports_render: SKIPPED: $CHROMIUM is not installed (ci/setup installs the chromium package)"
  exit 77
fi
mkdir -p "$OUT"
rm -f "$OUT"/*.html "$OUT"/*.png
"$ACCORD" conform "$MUTANT_CORPUS" --impl "$MUTANT" --format html --out "$OUT/conform.html" >"$OUT/conform.stdout" 2>&1 || true
"$ACCORD" compare "$FIXTURES" --impl reference:spec --impl reference:lightning-1.6 --format html --out "$OUT/compare.html" \
    >"$OUT/compare.stdout" 2>&1 || true

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --hide-scrollbars "--user-data-dir=$profile")
fail=0
render() {  # render NAME: screenshot and rendered DOM of $OUT/NAME.html
  local html="$OUT/$1.html" png="$OUT/$1.png" dom="$OUT/$1.dom.html"
  [ -s "$html" ] || { echo "FAIL: accord wrote no $1 HTML"; cat "$OUT/$1.stdout"; fail=1; return; }
  timeout 120 "$CHROMIUM" "${flags[@]}" --screenshot="$png" --window-size=1400,1800 "file://$html" >>"$OUT/chromium.log" 2>&1 ||
    { echo "FAIL: chromium --screenshot of $1 exited $?"; fail=1; return; }
  timeout 120 "$CHROMIUM" "${flags[@]}" --dump-dom "file://$html" >"$dom" 2>>"$OUT/chromium.log" ||
    { echo "FAIL: chromium --dump-dom of $1 exited $?"; fail=1; return; }
  [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || { echo "FAIL: $png is not a PNG"; fail=1; }
  local size
  size=$(stat -c %s "$png")
  [ "$size" -gt 40000 ] || { echo "FAIL: the $1 screenshot is only $size bytes"; fail=1; }
  echo "$1: rendered, screenshot $png ($size bytes)"
}
need() {  # need NAME REGEX WHAT: the rendered DOM of NAME holds REGEX
  grep -Eq "$2" "$OUT/$1.dom.html" || { echo "FAIL: $1: $3 is not in the rendered DOM"; fail=1; }
}
render conform
render compare
if [ "$fail" = 0 ]; then
  need conform 'class="summary"' "the summary"
  need conform '<table class="areas"' "the table per area"
  need conform 'id="filter"' "the filter box"
  need conform 'reproduce' "a reproducing command"
  # Failures first: the first case row of the cases table is not a passed one.
  first=$(grep -o '<tr class="case [a-z-]*"' "$OUT/conform.dom.html" | head -n 1)
  [ -n "$first" ] && [ "$first" != '<tr class="case passed"' ] || { echo "FAIL: conform: the first case row is '$first'"; fail=1; }
  need compare 'class="summary"' "the summary"
  need compare '<table class="agreement"' "the agreement table"
  need compare '<table class="field"' "the differing fields"
  need compare '/plan/precision/value' "a differing field"
  need compare 'id="filter"' "the filter box"
fi
exit $fail
