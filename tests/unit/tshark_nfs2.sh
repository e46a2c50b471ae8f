#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Independent check of the NFSv2 codec: Wireshark must decode the calls
# that xdr/nfs2.c encodes (one of each of the 18 procedures) and a few
# replies as NFSv2, with the right procedure names, and find nothing
# malformed.
#
# dump_nfs2_calls prints each message inside a hand-made ONC RPC header
# and TCP record mark as a text2pcap hex dump; text2pcap wraps them in
# dummy Ethernet/IPv4/TCP headers (port 40000 <-> 2049); tshark decodes.
# A deliberately truncated GETATTR call (the canary) goes through the same
# pipeline and must be reported malformed, so that a change in tshark's
# field names cannot make this test pass vacuously.
#
# Usage: tshark_nfs2.sh [path/to/dump_nfs2_calls]
#   (or DUMP_NFS2_CALLS=...); without one, the program is compiled from
#   the source tree with ${CC:-cc}.
# Exit: 0 pass, 1 fail, 77 skip (tshark, text2pcap or a compiler missing).
set -euo pipefail

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

command -v tshark >/dev/null 2>&1 ||
	skip "tshark is not installed (Debian package: tshark)"
command -v text2pcap >/dev/null 2>&1 ||
	skip "text2pcap is not installed (Debian package: wireshark-common)"

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

dump=${1:-${DUMP_NFS2_CALLS:-}}
if [ -z "$dump" ]; then
	cc=${CC:-cc}
	command -v "$cc" >/dev/null 2>&1 ||
		skip "no C compiler ($cc) to build dump_nfs2_calls"
	"$cc" -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror \
		-I "$root/xdr" "$root/xdr/xdr.c" "$root/xdr/nfs2.c" \
		"$here/dump_nfs2_calls.c" -o "$tmp/dump_nfs2_calls" ||
		fail "could not build dump_nfs2_calls"
	dump=$tmp/dump_nfs2_calls
fi

# Wireshark's names, which are RFC 1094's, indexed by procedure number.
names=(NULL GETATTR SETATTR ROOT LOOKUP READLINK READ WRITECACHE WRITE
	CREATE REMOVE RENAME LINK SYMLINK MKDIR RMDIR READDIR STATFS)
# The procedures whose replies dump_nfs2_calls prints, in order.
replies=(1 4 5 6 10 16 17 2)

to_pcap() { # text pcap
	text2pcap -q -D -T 40000,2049 "$1" "$2" >"$tmp/text2pcap.log" 2>&1 ||
		{ cat "$tmp/text2pcap.log"; fail "text2pcap failed on $1"; }
}

# frame <TAB> msgtyp <TAB> procedure_v2 <TAB> malformed <TAB> severities
fields() {
	tshark -r "$1" -T fields -E separator=/t -E occurrence=a \
		-e frame.number -e rpc.msgtyp -e nfs.procedure_v2 \
		-e _ws.malformed -e _ws.expert.severity 2>"$tmp/tshark.err" ||
		{ cat "$tmp/tshark.err"; fail "tshark failed on $1"; }
}

# A frame is bad when tshark marks it malformed or raises an expert item
# of severity "error" (0x00800000) or worse.
bad_frames() { # fields-file
	awk -F'\t' '{
		bad = ($4 != "")
		n = split($5, sev, ",")
		for (i = 1; i <= n; i++)
			if (sev[i] != "" && sev[i] + 0 >= 8388608)
				bad = 1
		if (bad)
			print
	}' "$1"
}

# ---- the canary: must be caught ----
cat >"$tmp/canary.txt" <<'EOF'
I
000000 80 00 00 38 4e 46 53 ff 00 00 00 00 00 00 00 02
000010 00 01 86 a3 00 00 00 02 00 00 00 01 00 00 00 00
000020 00 00 00 00 00 00 00 00 00 00 00 00 10 11 12 13
000030 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f

EOF
to_pcap "$tmp/canary.txt" "$tmp/canary.pcap"
fields "$tmp/canary.pcap" >"$tmp/canary.fields"
[ -n "$(bad_frames "$tmp/canary.fields")" ] ||
	fail "tshark did not flag a truncated GETATTR (fh of 16 bytes of 32) as malformed: check the field names (_ws.malformed, _ws.expert.severity)"

# ---- our messages ----
"$dump" >"$tmp/nfs2.txt" || fail "dump_nfs2_calls failed"
ncalls=$(grep -c '^I$' "$tmp/nfs2.txt" || true)
nreplies=$(grep -c '^O$' "$tmp/nfs2.txt" || true)
[ "$ncalls" -eq ${#names[@]} ] ||
	fail "dump_nfs2_calls printed $ncalls calls, want ${#names[@]}"
[ "$nreplies" -eq ${#replies[@]} ] ||
	fail "dump_nfs2_calls printed $nreplies replies, want ${#replies[@]}"
to_pcap "$tmp/nfs2.txt" "$tmp/f.pcap"
fields "$tmp/f.pcap" >"$tmp/f.fields"

nframes=$(wc -l <"$tmp/f.fields")
[ "$nframes" -eq $((ncalls + nreplies)) ] ||
	fail "tshark saw $nframes frames, want $((ncalls + nreplies))"

bad=$(bad_frames "$tmp/f.fields")
if [ -n "$bad" ]; then
	echo "$bad"
	tshark -r "$tmp/f.pcap" -V 2>/dev/null | grep -iE 'malformed|expert' || true
	fail "malformed or erroneous frames (above)"
fi

# Calls: frames 1..18, message type CALL (0), procedure_v2 = frame - 1.
for ((p = 0; p < ncalls; p++)); do
	line=$(sed -n "$((p + 1))p" "$tmp/f.fields")
	IFS=$'\t' read -r frame msgtyp proc _ <<<"$line"
	[ "$msgtyp" = 0 ] && [ "$proc" = "$p" ] ||
		fail "frame $frame: msgtyp '$msgtyp' procedure_v2 '$proc', want call of ${names[$p]} ($p)"
done
# Replies: matched by XID to their call, so tshark knows the procedure.
for ((i = 0; i < nreplies; i++)); do
	line=$(sed -n "$((ncalls + i + 1))p" "$tmp/f.fields")
	IFS=$'\t' read -r frame msgtyp proc _ <<<"$line"
	want=${replies[$i]}
	[ "$msgtyp" = 1 ] && [ "$proc" = "$want" ] ||
		fail "frame $frame: msgtyp '$msgtyp' procedure_v2 '$proc', want reply of ${names[$want]} ($want)"
done

# The names, as tshark shows them: "V2 Procedure: GETATTR (1)".
tshark -r "$tmp/f.pcap" -V 2>/dev/null |
	grep -oE 'V2 Procedure: [A-Z]+ \([0-9]+\)' >"$tmp/names" || true
for ((p = 0; p < ${#names[@]}; p++)); do
	grep -qxF "V2 Procedure: ${names[$p]} ($p)" "$tmp/names" ||
		fail "tshark never showed 'V2 Procedure: ${names[$p]} ($p)'"
done

echo "PASS: $ncalls NFSv2 calls (all procedures, names as RFC 1094) and" \
	"$nreplies replies decoded by $(tshark -v 2>/dev/null | head -1 | cut -d' ' -f1-2 || echo tshark)," \
	"none malformed; canary caught"
