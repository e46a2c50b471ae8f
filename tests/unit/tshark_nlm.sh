#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Checks xdr/nlm.c against an independent decoder: the NLM v4 (and one v3)
# calls and replies written by dump_nlm_calls, wrapped in RPC records over a
# fake TCP connection (text2pcap), must decode in tshark with no malformed
# frame and no expert warning, and with the field values we encoded.
#
# Environment: DUMP_NLM_CALLS, a built dump_nlm_calls (otherwise it is
# compiled here with ${CC:-cc}); NFSFUSE_SOURCE_ROOT (default: two levels
# above this script).  Exit 77 (skip) when tshark or text2pcap is missing.
set -euo pipefail

for tool in tshark text2pcap; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: $tool not found (Debian: tshark, wireshark-common)"
		exit 77
	fi
done

src=${NFSFUSE_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

dumper=${DUMP_NLM_CALLS:-}
if [ -z "$dumper" ]; then
	dumper=$tmp/dump_nlm_calls
	"${CC:-cc}" -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror \
		-I "$src/xdr" "$src/xdr/xdr.c" "$src/xdr/nlm.c" \
		"$src/tests/unit/dump_nlm_calls.c" -o "$dumper"
fi

"$dumper" >"$tmp/calls.txt"
if ! text2pcap -q -D -T 40000,4045 "$tmp/calls.txt" "$tmp/calls.pcap" \
	2>"$tmp/text2pcap.err"; then
	cat "$tmp/text2pcap.err"
	echo "FAIL: text2pcap"
	exit 1
fi

# tshark wants a writable home for its profile; keep it out of the user's.
export HOME=$tmp
tsh() {
	tshark -r "$tmp/calls.pcap" -d tcp.port==4045,rpc "$@" 2>/dev/null
}

nframes=$(tsh | wc -l)
if [ "$nframes" -ne 17 ]; then
	echo "FAIL: tshark saw $nframes frames, expected 17"
	exit 1
fi

bad=$(tsh -Y '_ws.malformed || _ws.expert.severity >= "warning"')
if [ -n "$bad" ]; then
	echo "FAIL: malformed or suspicious frames:"
	echo "$bad"
	tsh -O rpc,nlm -Y '_ws.malformed || _ws.expert.severity >= "warning"'
	exit 1
fi

# tshark does not complain about bytes left over after the NLM body: check
# that the last NLM field of every frame ends where the frame does.
short=$(tsh -T pdml | awk '
	/<packet>/ { len = -1; end = 0; n++ }
	/name="frame.len"/ { match($0, /show="[0-9]+"/); len = substr($0, RSTART + 6, RLENGTH - 7) + 0 }
	/name="nlm\./ {
		match($0, /size="[0-9]+"/); sz = substr($0, RSTART + 6, RLENGTH - 7) + 0
		match($0, /pos="[0-9]+"/); ps = substr($0, RSTART + 5, RLENGTH - 6) + 0
		if (sz > 0 && ps + sz > end) end = ps + sz
	}
	/<\/packet>/ { if (end != len) print "frame " n ": NLM ends at " end " of " len }')
if [ -n "$short" ]; then
	echo "FAIL: bytes left over after the NLM body:"
	echo "$short"
	exit 1
fi

notnlm=$(tsh -Y '!nlm')
if [ -n "$notnlm" ]; then
	echo "FAIL: frames not decoded as NLM:"
	echo "$notnlm"
	exit 1
fi

# frame, msg type (0 call, 1 reply), v4 proc, v3 proc, l_offset64, l_len64,
# l_offset (32), stat, state, svid (lock or holder), exclusive
want=$(cat <<'EOF'
1	0	2		4294967296	4096			3	4242	1
2	1	2					3			
3	0	1		0	0				4242	1
4	1	1		100	50		1		77	1
5	0	3		4294967296	4096				4242	1
6	1	3					0			
7	0	4		4294967296	4096				4242	
8	1	4					0			
9	0	5		4294967296	4096				4242	1
10	1	5					0			
11	0	10		4294967296	4096				4242	1
12	0	15					0			
13	0	20								
14	1	20					0			
15	0	23						3		
16	0		2			512		3	4242	0
17	1		2				0			
EOF
)
got=$(tsh -T fields -e frame.number -e rpc.msgtyp -e nlm.procedure_v4 \
	-e nlm.procedure_v3 -e nlm.lock.l_offset64 -e nlm.lock.l_len64 \
	-e nlm.lock.l_offset -e nlm.stat -e nlm.state -e nlm.lock.svid \
	-e nlm.exclusive)
# The holder's stat is nlm.test_stat.stat, not nlm.stat: patch frame 4.
holder_stat=$(tsh -Y 'frame.number==4' -T fields -e nlm.test_stat.stat)
if [ "$holder_stat" != 1 ]; then
	echo "FAIL: TEST reply stat is '$holder_stat', expected 1 (DENIED)"
	exit 1
fi
got=$(printf '%s\n' "$got" | awk -F'\t' -v OFS='\t' '$1==4 {$8=1} {print}')
if [ "$got" != "$want" ]; then
	echo "FAIL: fields differ (want, then got):"
	diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") || true
	exit 1
fi

echo "ok: $nframes NLM frames decoded by tshark, fields as encoded"
