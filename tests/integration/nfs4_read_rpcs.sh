#!/usr/bin/env bash
# NFSv4.1 READs: a GETATTR in the COMPOUND costs the server about what the
# READ costs, so a READ asks for the file's attributes only when the
# cache no longer believes those it holds.  Random 4 KiB reads of a file
# opened once go out as READs alone (and give back the server's bytes);
# under noac, where nothing is believed, each READ brings the attributes.
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

M2=$(new_mountpoint)
mount_nfsfuse "$M2" -o vers=4.1,noac
r0=$(v4ops "$M2")
randread "$M2/$T/data" "$S/data" 50 || fail "random reads over NFSv4.1 with noac"
r1=$(v4ops "$M2")
reads=$(delta "$r0" "$r1" READ)
# The GETATTRs in READs: all but those of COMPOUNDs of their own (the
# kernel's look at the size before each read) and those that come with
# the OPEN, LOOKUP and ACCESS of opening the file.
alone=$(($(delta "$r0" "$r1" COMPOUND) - reads))
for op in OPEN CLOSE LOOKUP ACCESS; do alone=$((alone - $(delta "$r0" "$r1" $op))); done
inreads=$(($(delta "$r0" "$r1" GETATTR) - alone))
for op in OPEN LOOKUP ACCESS; do inreads=$((inreads - $(delta "$r0" "$r1" $op))); done
note "noac: READ $reads, $inreads of them with a GETATTR, $alone GETATTRs alone"
((reads >= 25)) || fail "only $reads READs for 50 random reads under noac"
((inreads == reads)) || fail "noac: $inreads of $reads READs brought the attributes (nothing vouched for them)"
umount_nfsfuse "$M2"
echo PASS
