#!/usr/bin/env bash
# Every global symbol our libraries define must be absent from the system
# libraries a build may link beside them: a name shared with libtirpc
# (rpc_call, pmap_getport ...) or libc binds to whichever the linker meets
# first.  Arguments: our static libraries.  Libraries not installed here
# are left out of the comparison and named.
set -euo pipefail

SYSTEM_LIBS=(libc.so.6 libtirpc.so.3 libglib-2.0.so.0 libfuse3.so.3
	     libnfs.so.13 libnsl.so.2 libcmocka.so.0)

ours=$(mktemp)
theirs=$(mktemp)
trap 'rm -f "$ours" "$theirs"' EXIT

for lib in "$@"; do
	nm --defined-only -g "$lib" 2>/dev/null | awk 'NF == 3 { print $3 }'
done | sort -u >"$ours"
[[ -s $ours ]] || { echo "no symbols read from: $*" >&2; exit 1; }

# Read whole: an early exit of the reader would kill ldconfig (SIGPIPE).
cache=$(ldconfig -p)
for name in "${SYSTEM_LIBS[@]}"; do
	path=$(awk -v n="$name" '$1 == n && !p { p = $NF } END { print p }' <<<"$cache")
	if [[ -z $path ]]; then
		echo "note: $name not installed, not compared"
		continue
	fi
	nm -D --defined-only "$path" | awk 'NF == 3 { sub(/@.*/, "", $3); print $3 }'
done | sort -u >"$theirs"

clash=$(comm -12 "$ours" "$theirs")
if [[ -n $clash ]]; then
	echo "global names also defined by a system library:" >&2
	echo "$clash" | sed 's/^/  /' >&2
	exit 1
fi
echo "$(wc -l <"$ours") global names, none shared with a system library"
