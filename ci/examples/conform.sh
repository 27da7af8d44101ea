#!/usr/bin/env bash
# ci/examples/conform.sh: run accord's corpus against your implementation and write a JUnit report that CI systems
# display. Used by the GitHub Actions and GitLab CI recipes in this folder; ctest `ci_recipes` runs it as they do.
#
# Environment:
#   ACCORD_IMPL      required: the shell command that starts your implementation (it speaks conformance/PROTOCOL.md),
#                    or `reference` for accord's own reference
#   ACCORD           the accord command (default: `accord` on PATH)
#   ACCORD_FIXTURES  the corpus (default: fixtures/ of the accord checkout holding this script)
#   ACCORD_PROFILE   the profile your implementation follows (default: lightning-2.2; `accord list profiles`)
#   ACCORD_REPORT    the JUnit file (default: accord-junit.xml)
#   ACCORD_FILTER    only cases whose id matches this regex (optional)
#   ACCORD_JOBS      implementation instances in parallel (default: 1)
# Exit status: accord conform's: 0 every case passed, 1 some failed (the report lists them), 2 usage or input error.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd -P)"
: "${ACCORD_IMPL:?set ACCORD_IMPL to the command that starts your implementation}"
args=(conform "${ACCORD_FIXTURES:-$HERE/../../fixtures}" --profile "${ACCORD_PROFILE:-lightning-2.2}" --impl "$ACCORD_IMPL"
      --jobs "${ACCORD_JOBS:-1}" --format junit --out "${ACCORD_REPORT:-accord-junit.xml}")
if [ -n "${ACCORD_FILTER:-}" ]; then args+=(--filter "$ACCORD_FILTER"); fi
exec "${ACCORD:-accord}" "${args[@]}"
