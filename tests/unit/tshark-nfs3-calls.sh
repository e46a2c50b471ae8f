#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Encodes one ONC RPC CALL per NFSv3 procedure (and per union arm of
# SETATTR, CREATE and MKNOD) with our encoders (dump_nfs3_calls.c), has
# Wireshark dissect them, and fails on a malformed frame, on any expert
# error, on a procedure name that differs from nfs3_proc_names, or on a
# file name that Wireshark reads differently from what we encoded.
#
# Wireshark ignores bytes left over after the arguments, so this proves
# that nothing is missing or misplaced, not that nothing is extra; the
# hand-worked vectors of test_xdr_nfs3.c check exact lengths.
#
# Usage: tshark-nfs3-calls.sh [DUMPER]
#   DUMPER is a built dump_nfs3_calls; without it the script builds one
#   with ${CC:-cc} from the source tree.
# Exit status: 0 pass, 1 fail, 77 skip (tshark or text2pcap missing).
set -eu

command -v tshark >/dev/null 2>&1 || { echo "SKIP: no tshark"; exit 77; }
command -v text2pcap >/dev/null 2>&1 || { echo "SKIP: no text2pcap"; exit 77; }

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ $# -ge 1 ]; then
	dumper=$1
else
	dumper=$tmp/dump_nfs3_calls
	${CC:-cc} -std=gnu11 -I "$top/xdr" "$top/xdr/xdr.c" \
		"$top/xdr/nfs3_types.c" "$top/xdr/nfs3.c" \
		"$top/tests/unit/dump_nfs3_calls.c" -o "$dumper"
fi

"$dumper" >"$tmp/calls.txt"
text2pcap -q -T 40000,2049 "$tmp/calls.txt" "$tmp/calls.pcap"

# tshark warns on stderr when it runs as root; keep only its output.
ts() { tshark -r "$tmp/calls.pcap" "$@" 2>/dev/null; }

fail=0

sed -n 's/^# //p' "$tmp/calls.txt" >"$tmp/want-procs"
ts -T fields -e _ws.col.Info |
	sed -n 's/^V3 \([A-Z]*\) Call.*/\1/p' >"$tmp/got-procs"
if ! diff -u "$tmp/want-procs" "$tmp/got-procs"; then
	echo "FAIL: procedure names differ (- ours, + Wireshark)"
	fail=1
fi

n=$(wc -l <"$tmp/want-procs")
frames=$(ts -Y 'rpc.msgtyp == 0 && rpc.program == 100003' | wc -l)
if [ "$frames" -ne "$n" ]; then
	echo "FAIL: $n calls written, $frames NFS calls dissected"
	fail=1
fi

bad=$(ts -Y '_ws.malformed || _ws.expert.severity >= "Error"' \
	-T fields -e frame.number -e _ws.col.Info)
if [ -n "$bad" ]; then
	echo "FAIL: malformed frames:"
	echo "$bad"
	fail=1
fi

# The file names, in the order dump_nfs3_calls.c encodes them.
cat >"$tmp/want-names" <<'NAMES'
lookup-name
created
created
created
dir
link
node
node
node
node
node
node
node
removed
removed
old
new-name
hardlink
NAMES
ts -T fields -e nfs.name | tr ',' '\n' | sed '/^$/d' >"$tmp/got-names"
if ! diff -u "$tmp/want-names" "$tmp/got-names"; then
	echo "FAIL: file names differ (- ours, + Wireshark)"
	fail=1
fi

if ! ts -T fields -e nfs.symlink.to | grep -qx '../target/file'; then
	echo "FAIL: SYMLINK target not read back"
	fail=1
fi

if [ "$fail" -eq 0 ]; then
	echo "PASS: $n NFSv3 calls dissected by $(tshark -v 2>/dev/null | head -n 1)"
fi
exit "$fail"
