#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run.sh [SECONDS_PER_HARNESS [BUILD_DIR]]: build the libFuzzer harnesses
# (build.sh) and run each for SECONDS (default 20) on a copy of its seed
# corpus (corpus/<name>/; the seeds themselves are never modified).
#
#   FUZZ_TARGETS  space-separated harness names to run (default: all built)
#   FUZZ_JOBS     harnesses run at the same time (default 1)
#   FUZZ_ARGS     extra libFuzzer flags
#   FUZZ_SECONDS_<name>  seconds for that one harness instead (e.g.
#                 FUZZ_SECONDS_fuzz_nfs4=8), to keep the total bounded
#
# Prints "fuzz_<name>: N execs, no crash" per harness, or the reproducer
# of what it found (kept in BUILD_DIR/findings/, with the log), and exits
# 1 if anything was found.  Exits 77 (skip) when clang or libFuzzer is
# missing.  Reproduce a finding with: BUILD_DIR/fuzz_<name> FILE
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-20}
case $secs in
'' | *[!0-9]*) echo "run.sh: SECONDS must be a number" >&2; exit 2 ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=${2:-$tmp/build}
mkdir -p "$out"
out=$(cd "$out" && pwd)

built=$("$here/build.sh" "$out")
rc=$?
[ $rc -eq 77 ] && exit 77
[ $rc -ne 0 ] && { echo "run.sh: build failed" >&2; exit 1; }
targets=${FUZZ_TARGETS:-$built}
jobs=${FUZZ_JOBS:-1}
findings=$out/findings
mkdir -p "$findings"

# One harness; the summary line goes to $tmp/<name>.result.
run_one() {
	local name=$1 work=$tmp/$1 log=$findings/$1.log execs
	local override=FUZZ_SECONDS_$name
	local t=${!override:-$secs}
	mkdir -p "$work/corpus"
	[ -d "$here/corpus/${name#fuzz_}" ] &&
		cp "$here/corpus/${name#fuzz_}"/* "$work/corpus/" 2>/dev/null
	# shellcheck disable=SC2086
	(cd "$work" && "$out/$name" -max_total_time="$t" -timeout=5 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$findings/$name-" ${FUZZ_ARGS:-} \
		corpus >"$log" 2>&1)
	local status=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	if [ $status -eq 0 ]; then
		echo "$name: ${execs:-?} execs, no crash" >"$tmp/$name.result"
		rm -f "$log"
	else
		{
			echo "$name: FOUND after ${execs:-?} execs (exit $status); log: $log"
			grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|.*FUZZ_CHECK|artifact_prefix|Test unit written)' "$log" |
				head -n 8 | sed 's/^/  /'
		} >"$tmp/$name.result"
	fi
	return $status
}

if ! [ "$jobs" -ge 1 ] 2>/dev/null; then
	jobs=1
fi
for name in $targets; do
	if [ ! -x "$out/$name" ]; then
		echo "$name: not built" >"$tmp/$name.result"
		continue
	fi
	run_one "$name" &
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
done
wait
fail=0
for name in $targets; do
	cat "$tmp/$name.result" 2>/dev/null || echo "$name: no result"
	grep -q 'no crash$' "$tmp/$name.result" 2>/dev/null || fail=1
done
exit $fail
