# shellcheck shell=bash
# Shared by the documentation and installation tests: where things are,
# and fail/skip in meson's convention (0 pass, 77 skip, 1 fail).
set -euo pipefail
SRC=${NFSFUSE_SOURCE_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BUILD=${NFSFUSE_BUILD_ROOT:-$SRC/build}
NFSFUSE=${NFSFUSE_BIN:-$BUILD/src/nfsfuse}
NFSFUSECTL=${NFSFUSECTL_BIN:-$BUILD/tools/nfsfusectl}
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/nfsfuse-docs.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
