#!/usr/bin/env bash
# setup_oracle.sh: extract real Lightning 1.6.5 and 2.2.5 (plus their pure-Python dependencies) from bare git
# mirrors into a folder OUTSIDE this repository, for the Lightning adapter (adapter.py).
#
# Usage: setup_oracle.sh [OUT_DIR]
#   OUT_DIR              default $ACCORD_LIGHTNING_ROOT (one of the two is required)
#   PL_GIT               bare git dir of Lightning-AI/pytorch-lightning
#   UTILITIES_GIT        bare git dir of Lightning-AI/utilities
#   TORCHMETRICS_GIT     bare git dir of Lightning-AI/torchmetrics
#   DEPRECATE_GIT        bare git dir of Borda/pyDeprecate
#   MIRROR_ROOT          if the *_GIT variables are unset: <MIRROR_ROOT>/<owner>+<name>/repo (required then)
#   SKIP_APT=1           do not install the Debian packages
# Result: OUT_DIR/1.6.5 and OUT_DIR/2.2.5, each a sys.path folder; run the adapter with ACCORD_LIGHTNING_ROOT=OUT_DIR.
set -euo pipefail
OUT="${1:-${ACCORD_LIGHTNING_ROOT:-}}"
[ -n "$OUT" ] || { echo "usage: setup_oracle.sh OUT_DIR (or set ACCORD_LIGHTNING_ROOT)" >&2; exit 2; }
M="${MIRROR_ROOT:-}"
if [ -z "$M" ] && { [ -z "${PL_GIT:-}" ] || [ -z "${UTILITIES_GIT:-}" ] || [ -z "${TORCHMETRICS_GIT:-}" ] || [ -z "${DEPRECATE_GIT:-}" ]; }; then
  echo "setup_oracle.sh: set MIRROR_ROOT (the folder holding <owner>+<name>/repo mirrors) or every *_GIT variable" >&2; exit 2
fi
PL_GIT="${PL_GIT:-$M/Lightning-AI+pytorch-lightning/repo}"
UTILITIES_GIT="${UTILITIES_GIT:-$M/Lightning-AI+utilities/repo}"
TORCHMETRICS_GIT="${TORCHMETRICS_GIT:-$M/Lightning-AI+torchmetrics/repo}"
DEPRECATE_GIT="${DEPRECATE_GIT:-$M/Borda+pyDeprecate/repo}"

if [ "${SKIP_APT:-0}" != 1 ]; then
  PKGS=(python3-torch python3-numpy python3-fsspec python3-yaml python3-packaging python3-tqdm python3-typing-extensions)
  missing=()
  for p in "${PKGS[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq || true
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
fi

# extract GITDIR TAG SRC_PATH DEST_DIR: put the folder SRC_PATH of TAG into DEST_DIR/<basename SRC_PATH>
extract() {
  local git="$1" tag="$2" src="$3" dest="$4" depth
  depth=$(( $(tr -cd / <<<"$src" | wc -c) ))
  mkdir -p "$dest"
  rm -rf "${dest:?}/$(basename "$src")"
  # the pytorch-lightning mirror may lack one large .gif blob: git archive then complains but the sources are complete
  git --git-dir="$git" archive "$tag" "$src" 2>/dev/null | tar -x -C "$dest" --strip-components="$depth" || true
  [ -e "$dest/$(basename "$src")" ] || { echo "setup_oracle: failed to extract $src@$tag from $git" >&2; exit 1; }
}
# metadata DEST NAME VERSION: minimal dist-info so importlib.metadata / RequirementCache see the package
metadata() {
  local d="$1/$2-$3.dist-info"
  mkdir -p "$d"
  printf 'Metadata-Version: 2.1\nName: %s\nVersion: %s\n' "$2" "$3" >"$d/METADATA"
}

V16="$OUT/1.6.5"
extract "$PL_GIT" 1.6.5 pytorch_lightning "$V16"
extract "$TORCHMETRICS_GIT" v0.9.1 torchmetrics "$V16"
extract "$DEPRECATE_GIT" v0.3.2 deprecate "$V16"
metadata "$V16" pytorch_lightning 1.6.5
metadata "$V16" torchmetrics 0.9.1
metadata "$V16" pyDeprecate 0.3.2

V22="$OUT/2.2.5"
extract "$PL_GIT" 2.2.5 src/lightning "$V22"
extract "$PL_GIT" 2.2.5 src/version.info "$V22"  # read by lightning/__version__.py
extract "$UTILITIES_GIT" v0.10.1 src/lightning_utilities "$V22"
extract "$TORCHMETRICS_GIT" v1.2.1 src/torchmetrics "$V22"
metadata "$V22" lightning 2.2.5
metadata "$V22" lightning_utilities 0.10.1
metadata "$V22" torchmetrics 1.2.1

echo "setup_oracle: done; export ACCORD_LIGHTNING_ROOT=$OUT"
