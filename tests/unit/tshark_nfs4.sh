#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Checks xdr/nfs4*.c against an independent decoder: the NFSv4.1/4.2
# COMPOUNDs (every operation the client sends), two replies and a
# backchannel CB_COMPOUND written by dump_nfs4_calls, wrapped in RPC
# records over a fake TCP connection (text2pcap), must decode in tshark
# with no malformed frame and no expert warning, with the operations in
# the order encoded and the field values we encoded.
#
# Environment: DUMP_NFS4_CALLS, a built dump_nfs4_calls (otherwise it is
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

dumper=${DUMP_NFS4_CALLS:-}
if [ -z "$dumper" ]; then
	dumper=$tmp/dump_nfs4_calls
	"${CC:-cc}" -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror \
		-I "$src/xdr" "$src/xdr/xdr.c" "$src/xdr/nfs3_types.c" \
		"$src"/xdr/nfs4*.c "$src/tests/unit/dump_nfs4_calls.c" \
		-o "$dumper"
fi

"$dumper" >"$tmp/calls.txt"
if ! text2pcap -q -D -T 40000,2049 "$tmp/calls.txt" "$tmp/calls.pcap" \
	2>"$tmp/text2pcap.err"; then
	cat "$tmp/text2pcap.err"
	echo "FAIL: text2pcap"
	exit 1
fi

# tshark wants a writable home for its profile; keep it out of the user's.
export HOME=$tmp
tsh() {
	tshark -r "$tmp/calls.pcap" "$@" 2>/dev/null
}

nframes=$(tsh | wc -l)
if [ "$nframes" -ne 30 ]; then
	echo "FAIL: tshark saw $nframes frames, expected 30"
	exit 1
fi

bad=$(tsh -Y '_ws.malformed || _ws.expert.severity >= "warning"')
if [ -n "$bad" ]; then
	echo "FAIL: malformed or suspicious frames:"
	echo "$bad"
	tsh -O nfs -Y '_ws.malformed || _ws.expert.severity >= "warning"'
	exit 1
fi

# The callback program's frames carry nfs.cb fields under rpc.
notnfs=$(tsh -Y '!nfs && !nfs.cb.operation')
if [ -n "$notnfs" ]; then
	echo "FAIL: frames not decoded as NFS:"
	echo "$notnfs"
	exit 1
fi

# tshark does not complain about bytes left over after the last
# operation: the last decoded field of every frame must end where the
# frame does (give or take the padding of a last string, which Wireshark
# leaves out of the string's field).
short=$(tsh -T pdml | awk '
	/<packet>/ { len = -1; end = 0; n++ }
	/name="frame.len"/ { match($0, /show="[0-9]+"/); len = substr($0, RSTART + 6, RLENGTH - 7) + 0 }
	/<field name="[a-z]/ && !/name="(frame|tcp|ip|eth|geninfo)/ {
		if (match($0, /size="[0-9]+"/)) {
			sz = substr($0, RSTART + 6, RLENGTH - 7) + 0
			match($0, /pos="[0-9]+"/); ps = substr($0, RSTART + 5, RLENGTH - 6) + 0
			if (sz > 0 && ps + sz > end) end = ps + sz
		}
	}
	/<\/packet>/ { if (len - end > 3 || end > len) print "frame " n ": ends at " end " of " len }')
if [ -n "$short" ]; then
	echo "FAIL: bytes left over after the last operation:"
	echo "$short"
	exit 1
fi

# frame, msg type, minor version, operations, callbacks, clientid, stateid
# seqids, offset4s, length4s, count4s, claim, delegation, lock types,
# owner, size, fileid, data content, callback program
want=$(cat <<'EOF'
1	0	1	42														
2	0	1	43		0x0000000000005a5a												0x40000000
3	0	1	41														
4	0	1	53,58														
5	0	1	53,24,52,15,10,9														
6	0	1	44														
7	0	1	57		0x0000000000005a5a												
8	0	1	53,22,18,10,9		0x0000000000005a5a					0							
9	0	1	53,22,18,3		0x0000000000005a5a					4							
10	0	1	53,22,18		0x0000000000005a5a					0							
11	0	1	53,22,25			1	4096		65536								
12	0	1	53,22,38,5			1	8192,0		0								
13	0	1	53,22,21,4			1,1											
14	0	1	53,22,6,28														
15	0	1	53,22,32,22,29,31,11														
16	0	1	53,22,26														
17	0	1	53,22,37,34,17,27,16			1							1000@localdomain	12345			
18	0	1	53,22,12,13,14		0x0000000000005a5a,0x0000000000005a5a	1,1	0,100,0	18446744073709551615,10,18446744073709551615				4,2,2					
19	0	1	53,8,45,55			1,1,1,1											
20	0	2	53,22,69,59,62			1,1,1	4096,0,0	1048576,1048576								1	
21	0	2	53,22,32,22,60			1,1	0,4096	1048576									
22	0	1	53,22,9														
23	1		53,22,9										root@localdomain	12345	4242		
24	0	1	53,22,18		0x0000000000005a5a					4							
25	1		53,22,18			2,3					1						
26	0	1		11,4		3											
27	1			11,4													
28	0	2	53,22,34,9			0											
29	1		53,22,9														
30	0	2	53,22,73,72,74,75														
EOF
)
got=$(tsh -T fields -e frame.number -e rpc.msgtyp -e nfs.minorversion \
	-e nfs.opcode -e nfs.cb.operation -e nfs.clientid \
	-e nfs.stateid.seqid -e nfs.offset4 -e nfs.length4 -e nfs.count4 \
	-e nfs.open.claim_type -e nfs.open.delegation_type -e nfs.locktype4 \
	-e nfs.fattr4_owner -e nfs.fattr4.size -e nfs.fattr4.fileid \
	-e nfs.data_content -e nfs.cb_program)
if [ "$got" != "$want" ]; then
	echo "FAIL: fields differ (want, then got):"
	diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") || true
	exit 1
fi

# The ACL set and read back (frames 28 and 29): type, flags, mask and who
# of each entry, in order.
want=$(cat <<'EOF'
28	0,1,0	0x00000000,0x00000040,0x00000000	0x001601a7,0x00000006,0x00120081	OWNER@,GROUP@,1000@localdomain
29	0,1,0	0x00000000,0x00000040,0x00000000	0x001601a7,0x00000006,0x00120081	OWNER@,GROUP@,1000@localdomain
EOF
)
got=$(tsh -Y 'frame.number >= 28 && frame.number <= 29' -T fields -e frame.number -e nfs.acetype4 \
	-e nfs.aceflags4 -e nfs.acemask4 -e nfs.who)
if [ "$got" != "$want" ]; then
	echo "FAIL: ACL entries differ (want, then got):"
	diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") || true
	exit 1
fi

# The extended attribute operations (frame 30): keys, SETXATTR's option
# (CREATE), LISTXATTRS's maxcount.
want=$(printf '30\tcolor,color,color\t1\t32768')
got=$(tsh -Y 'frame.number == 30' -T fields -e frame.number -e nfs.xattr.key \
	-e nfs.setxattr.options -e nfs.lisxtattr.maxcount)
if [ "$got" != "$want" ]; then
	echo "FAIL: xattr fields differ (want, then got):"
	diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") || true
	exit 1
fi

echo "ok: $nframes NFSv4 frames decoded by tshark, operations and fields as encoded"
