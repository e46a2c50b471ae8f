#!/usr/bin/env bash
# NFSv4.1 READs and opens, counted.  A GETATTR in the COMPOUND costs the
# server about what the READ costs, so a READ asks for the file's
# attributes only when the cache no longer believes those it holds.
# Random 4 KiB reads of a file opened once go out as READs alone (and give
# back the server's bytes); under noac, where nothing is believed, each
# READ brings the attributes.  An open asks its ACCESS in the OPEN's
# COMPOUND: reading a file is OPEN, READ and CLOSE, three round trips.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_cmd python3

T=$(make_testdir nfs4read)
S=$EXPORT_DIR/$T
head -c $((16 << 20)) /dev/urandom >"$S/data"

# v4ops MNT: the COMPOUNDs and the operations in them so far, "OP N".
v4ops() {
	"$NFSFUSECTL" "$1" stats --json | python3 -c 'import json,sys
s = json.load(sys.stdin)
print("COMPOUND", s["rpc"].get("COMPOUND", {}).get("calls", 0))
for k, v in s.get("nfs4ops", {}).items(): print(k, v["calls"])'
}
delta() {
	local a b
	a=$(awk -v p="$3" '$1 == p { print $2 }' <<<"$1")
	b=$(awk -v p="$3" '$1 == p { print $2 }' <<<"$2")
	echo $((${b:-0} - ${a:-0}))
}
# randread FILE REFERENCE N: N reads of 4 KiB at distinct random pages of
# FILE through one descriptor, each compared with REFERENCE.
randread() {
	python3 - "$@" <<'EOF'
import os, random, sys
path, ref, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
size = os.path.getsize(ref)
pages = random.Random(7).sample(range(size // 4096), n)
with open(ref, "rb") as r:
    want = {p: (r.seek(p * 4096), r.read(4096))[1] for p in pages}
fd = os.open(path, os.O_RDONLY)
# The kernel's own read-ahead would fetch the neighbours with each page.
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
for p in pages:
    if os.pread(fd, 4096, p * 4096) != want[p]:
        sys.exit("page %d differs from the server's" % p)
os.close(fd)
EOF
}
N=200

M=$(new_mountpoint)
mount_nfsfuse "$M" -o vers=4.1,acregmin=60,acregmax=60
cat "$M/$T/data" >/dev/null # open, attributes, and the kernel's pages
echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || true
"$NFSFUSECTL" "$M" drop >/dev/null
stat "$M/$T/data" >/dev/null
r0=$(v4ops "$M")
randread "$M/$T/data" "$S/data" "$N" || fail "random reads over NFSv4.1"
r1=$(v4ops "$M")
reads=$(delta "$r0" "$r1" READ)
getattrs=$(delta "$r0" "$r1" GETATTR)
note "$N random reads: $(delta "$r0" "$r1" COMPOUND) COMPOUNDs, READ $reads, GETATTR $getattrs"
((reads >= N / 2)) || fail "only $reads READs for $N random reads (the test reads from the cache)"
# The OPEN of the descriptor brings the attributes; nothing more is needed.
((getattrs <= 3)) || fail "$getattrs GETATTRs with $reads READs while the attributes are believed (want at most 3)"
umount_nfsfuse "$M"

# Opens: 20 small files, each read once, on a mount that has listed them.
mkdir "$S/small"
for i in $(seq 20); do echo "file $i" >"$S/small/f$i"; done
M3=$(new_mountpoint)
mount_nfsfuse "$M3" -o vers=4.1
ls -l "$M3/$T/small" >/dev/null
r0=$(v4ops "$M3")
for i in $(seq 20); do
	assert_eq "file $i" "$(cat "$M3/$T/small/f$i")" "f$i read over NFSv4.1"
done
r1=$(v4ops "$M3")
opens=$(delta "$r0" "$r1" OPEN)
other=$(delta "$r0" "$r1" COMPOUND)
for op in OPEN CLOSE READ LOOKUP; do other=$((other - $(delta "$r0" "$r1" $op))); done
note "20 files read: $(delta "$r0" "$r1" COMPOUND) COMPOUNDs, OPEN $opens, ACCESS $(delta "$r0" "$r1" ACCESS), $other with none of OPEN, CLOSE, READ, LOOKUP"
assert_eq 20 "$opens" "an OPEN per file read"
assert_eq 20 "$(delta "$r0" "$r1" ACCESS)" "an ACCESS per first open, inside the OPEN's COMPOUND"
((other <= 2)) || fail "$other COMPOUNDs of their own (an ACCESS or GETATTR) for 20 opens (want at most 2)"
umount_nfsfuse "$M3"

M2=$(new_mountpoint)
mount_nfsfuse "$M2" -o vers=4.1,noac
# The trace names each COMPOUND's operations: READs with and without a
# GETATTR are told apart there.
TR=$(tmpdir_new)/trace
"$NFSFUSECTL" "$M2" trace >"$TR" 2>&1 &
tpid=$!
on_exit bash -c "kill $tpid 2>/dev/null || true"
# The subscription is live once a COMPOUND of ours shows in it.
traced() { stat "$M2/$T/data" >/dev/null; grep -q "^[0-9:.]* compound " "$TR"; }
wait_until 60 traced || fail "no COMPOUND lines in the trace: $(head -c 600 "$TR")"
randread "$M2/$T/data" "$S/data" 50 || fail "random reads over NFSv4.1 with noac"
# The trace keeps the order of events: once a LOOKUP made after the
# reads shows, every READ's line has come.
stat "$M2/$T/no-such-name" >/dev/null 2>&1 || true
wait_until 60 grep -q "LOOKUP GETFH GETATTR: NFS4ERR_NOENT at LOOKUP" "$TR" ||
	fail "the LOOKUP after the reads is not in the trace"
kill "$tpid" 2>/dev/null || true
with=$(grep -c "compound SEQUENCE PUTFH READ GETATTR: NFS4_OK" "$TR" || true)
without=$(grep -c "compound SEQUENCE PUTFH READ: NFS4_OK" "$TR" || true)
note "noac: $with READs with a GETATTR, $without without"
grep -q "lost" "$TR" && note "the trace lost lines: $(grep -m1 lost "$TR")"
((with >= 25)) || fail "noac: only $with READs with a GETATTR in the trace for 50 random reads"
assert_eq 0 "$without" "noac: READs without the attributes nothing vouched for"
umount_nfsfuse "$M2"
echo PASS
