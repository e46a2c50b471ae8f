#!/usr/bin/env bash
# Run nfsfuse's whole test suite, from a bare Debian 12 machine to a verdict:
#
#   1. install the build and test dependencies (contrib/install-deps.sh)
#   2. build build/      (warnings are errors, no sanitizers)
#      and   build-asan/ (AddressSanitizer + UBSan)
#   3. start the loopback NFS test server (contrib/test-server.sh)
#   4. meson test -C build        (every suite)
#      meson test -C build-asan --suite unit, and the main integration
#        tests with the daemon built with ASan/UBSan
#      meson test -C build --suite unit under valgrind
#   5. meson dist: the release tarball, built and tested from scratch
#   6. stop the server again, if this script started it
#
# The last line printed is "N passed, N failed, N skipped", summed over the
# test runs (a step that fails outside meson counts as one failure); the
# exit status is non-zero if anything failed.  A skipped test is a failure
# unless tests/allowed-skips lists it with the reason (CI has every
# feature), and so is a run where every test skipped.
#
# Environment: NFSFUSE_KEEP_SERVER=1 leaves the server running at the end;
# MESON_TEST_ARGS adds arguments to both meson test runs.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

PASSED=0
FAILED=0
SKIPPED=0
FAILURES=()
LOGDIR=$(mktemp -d "${TMPDIR:-/tmp}/nfsfuse-run-all.XXXXXX")
SERVER_STARTED=0

step() { printf '\n==== %s\n' "$*"; }

step_failed() {
	FAILED=$((FAILED + 1))
	FAILURES+=("$1")
	echo "run-all: FAILED: $1" >&2
}

finish() {
	local rc=$?
	set +e
	if [[ $SERVER_STARTED -eq 1 && ${NFSFUSE_KEEP_SERVER:-0} != 1 ]]; then
		step "stopping the test server"
		bash contrib/test-server.sh stop
	fi
	rm -rf "$LOGDIR"
	# An unexpected exit of this script (set -e) is a failure too.
	if [[ $rc -ne 0 && ${#FAILURES[@]} -eq 0 ]]; then
		FAILED=$((FAILED + 1))
		FAILURES+=("run-all.sh itself (exit status $rc)")
	fi
	echo
	if [[ ${#FAILURES[@]} -gt 0 ]]; then
		echo "run-all: failed steps:"
		printf '  - %s\n' "${FAILURES[@]}"
	fi
	echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
	if [[ $FAILED -gt 0 ]]; then exit 1; fi
	exit 0
}
trap finish EXIT

# A crashing test under abort_on_error must not fill the disk with cores.
ulimit -c 0 2>/dev/null || true

# ------------------------------------------------------------ dependencies
step "installing dependencies"
bash contrib/install-deps.sh || { step_failed "contrib/install-deps.sh"; exit 1; }

if [[ ! -f meson.build ]]; then
	step_failed "no meson.build in $ROOT"
	exit 1
fi

# ------------------------------------------------------------ build
# setup_build DIR ARGS...: configure DIR, reusing it when it is already a
# meson build directory so that incremental runs stay fast.
setup_build() {
	local dir=$1
	shift
	if [[ -f $dir/meson-private/coredata.dat ]]; then
		# --reconfigure applies changed options; a build directory from an
		# incompatible meson version cannot be reconfigured, only wiped.
		meson setup --reconfigure "$dir" "$@" || meson setup --wipe "$dir" "$@"
	else
		rm -rf "$dir"
		meson setup "$dir" "$@"
	fi
}

build() { # name dir meson-args...
	local name=$1 dir=$2
	shift 2
	step "configuring $dir ($name)"
	if ! setup_build "$dir" "$@"; then
		step_failed "meson setup $dir"
		return 1
	fi
	step "building $dir"
	if ! meson compile -C "$dir"; then
		step_failed "build of $dir"
		return 1
	fi
}

BUILD_OK=0
ASAN_OK=0
build plain build --werror -Db_sanitize=none && BUILD_OK=1
# -Db_lundef=false: sanitizer runtimes resolve some symbols only at run time.
build sanitizers build-asan -Db_sanitize=address,undefined -Db_lundef=false && ASAN_OK=1

# ------------------------------------------------------------ server
step "starting the loopback NFS test server"
if bash contrib/test-server.sh status >/dev/null 2>&1; then
	# Someone else's server (a developer's session): use it, leave it be.
	echo "run-all: test server already running; it will be left running"
elif bash contrib/test-server.sh start; then
	SERVER_STARTED=1
else
	# The integration tests would all skip; that must not pass as green.
	step_failed "contrib/test-server.sh start"
fi

# ------------------------------------------------------------ tests
# Sanitizer reports must fail the test, not just print (UBSan by default
# only prints).  Meson sets similar defaults; make them explicit.
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_summary=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_summary=1:print_stacktrace=1}

# count_results LOG: add meson's summary counts to the totals; false when
# the log has no summary at all.
count_results() {
	local log=$1 ok xfail fail xpass skip timeout
	grep -qE '^Ok:[[:space:]]+[0-9]+' "$log" || return 1
	num() { grep -E "^$1:[[:space:]]+[0-9]+" "$log" | tail -n 1 | grep -oE '[0-9]+' | head -n 1 || echo 0; }
	ok=$(num Ok)
	xfail=$(num 'Expected Fail')
	fail=$(num Fail)
	xpass=$(num 'Unexpected Pass')
	skip=$(num Skipped)
	timeout=$(num Timeout)
	PASSED=$((PASSED + ${ok:-0} + ${xfail:-0}))
	FAILED=$((FAILED + ${fail:-0} + ${xpass:-0} + ${timeout:-0}))
	SKIPPED=$((SKIPPED + ${skip:-0}))
}

# check_skips LABEL DIR: in CI every feature is present, so a test that
# skipped is a failure unless tests/allowed-skips names it, with the
# reason; a run in which every test skipped fails as a whole.  Read from
# the JSON log of the run that just ended in DIR.
check_skips() {
	local label=$1 dir=$2 out kind name rest
	out=$(python3 "$ROOT/tests/skips.py" "$dir/meson-logs/testlog.json" \
		"$ROOT/tests/allowed-skips") ||
		{ step_failed "reading the test log of $dir ($label)"; return 0; }
	while read -r kind name rest; do
		case $kind in
		allowed) echo "run-all: $name skipped ($label), allowed: $rest" ;;
		unlisted) step_failed "$name skipped ($label) and is not in tests/allowed-skips: $rest" ;;
		all) step_failed "every test of $label skipped ($name tests)" ;;
		esac
	done <<<"$out"
}

run_tests() { # label dir meson-test-args...
	local label=$1 dir=$2 rc=0 log
	shift 2
	log=$LOGDIR/$label.log
	step "meson test -C $dir${*:+ $*} ($label)"
	# shellcheck disable=SC2086 # MESON_TEST_ARGS is a list of words
	meson test -C "$dir" --print-errorlogs "$@" ${MESON_TEST_ARGS:-} 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
	if grep -q '^No tests defined' "$log"; then
		echo "run-all: $dir defines no tests"
		return 0
	fi
	if ! count_results "$log"; then
		step_failed "meson test -C $dir (no summary, exit status $rc)"
		return 0
	fi
	check_skips "$label" "$dir"
	if [[ $rc -ne 0 ]] && ! grep -qE '^(Fail|Timeout|Unexpected Pass):[[:space:]]+[1-9]' "$log"; then
		# meson failed although no test did (e.g. a test could not be built).
		step_failed "meson test -C $dir (exit status $rc)"
	elif [[ $rc -ne 0 ]]; then
		FAILURES+=("tests in $dir")
	fi
}

if [[ $BUILD_OK -eq 1 ]]; then
	run_tests all build
fi
if [[ $ASAN_OK -eq 1 ]]; then
	run_tests unit-asan build-asan --suite unit
	# The daemon itself under ASan/UBSan, on the tests that exercise the
	# most of it, and on the calls in flight when a listing is given up
	# or the mount ends, or queued for an NFSv4.1 session slot, and on
	# what a directory remembers of its names, and on the names of
	# the kernel's a listing shows gone: a sanitizer report aborts it
	# and fails the test.
	ASAN_OPTIONS=abort_on_error=1:detect_leaks=0 \
		run_tests integration-asan build-asan basic_ops tree_copy cache silly_excl nfsv2 \
		dir_ahead dead_waits nfs4_slots lookup_memory foreign_names
fi
if [[ $BUILD_OK -eq 1 ]] && command -v valgrind >/dev/null 2>&1; then
	run_tests unit-valgrind build --suite unit \
		--wrap='valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite'
fi

# ------------------------------------------------------------ release
# The release tarball: `meson dist` packs the committed tree, unpacks it,
# builds it from scratch, runs its tests (no integration tests, as
# configured here) and installs it.  One step, one pass or failure.
step "meson dist: the release tarball, built and tested from scratch"
if ! git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	step_failed "meson dist: $ROOT is not a git checkout"
elif setup_build build-dist --werror -Db_sanitize=none -Dintegration_tests=false &&
	meson dist -C build-dist --formats xztar --allow-dirty; then
	PASSED=$((PASSED + 1))
	echo "run-all: meson dist: $(ls build-dist/meson-dist/*.tar.xz)"
else
	step_failed "meson dist"
fi
