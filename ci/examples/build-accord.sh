#!/usr/bin/env bash
# ci/examples/build-accord.sh: build and install the `accord` command for a CI job (no LibTorch, none of accord's
# own tests). Used by the GitHub Actions and GitLab CI recipes and the Dockerfile in this folder; ctest
# `ci_recipes` runs it as the recipes do.
#
# Environment:
#   ACCORD_SRC               accord's source tree (default: the checkout holding this script)
#   ACCORD_BUILD             build folder (default: $ACCORD_SRC/build-ci)
#   ACCORD_PREFIX            install prefix (default: /usr/local); the command lands in $ACCORD_PREFIX/bin/accord
#   ACCORD_INSTALL_PACKAGES  1: apt-get the packages of packages.txt first (as root, or with sudo)
#   ACCORD_CMAKE_ARGS        extra arguments for the configure step
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd -P)"
SRC="${ACCORD_SRC:-$(cd "$HERE/../.." && pwd)}"
BUILD="${ACCORD_BUILD:-$SRC/build-ci}"
PREFIX="${ACCORD_PREFIX:-/usr/local}"
if [ "${ACCORD_INSTALL_PACKAGES:-0}" = 1 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  mapfile -t pkgs < <(grep -v '^#' "$HERE/packages.txt" | grep -v '^$')
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${pkgs[@]}"
fi
# shellcheck disable=SC2086  # ACCORD_CMAKE_ARGS is a list of arguments
cmake -S "$SRC" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DACCORD_WITH_TORCH=OFF -DACCORD_BUILD_TESTS=OFF \
      ${ACCORD_CMAKE_ARGS:-}
cmake --build "$BUILD" --target accord
cmake --install "$BUILD" --prefix "$PREFIX"
"$PREFIX/bin/accord" --version
