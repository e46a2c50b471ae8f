#!/usr/bin/env bash
# Read-ahead, by its counters in nfsfusectl stats: a sequential reader
# gets READs issued ahead of it and finds their data in the cache (used),
# with nothing thrown away, and the blocks it has read go (the kernel
# keeps those bytes); a random reader (no kernel read-ahead either:
# POSIX_FADV_RANDOM) gets no read-ahead, so none is wasted.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"
need_cmd python3

T=$(make_testdir readahead)
S=$EXPORT_DIR/$T
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -o rsize=65536
head -c $((16 << 20)) /dev/urandom >"$S/seq"
head -c $((16 << 20)) /dev/urandom >"$S/rnd"

# --- sequential ------------------------------------------------------------
i0=$(counter "$MNT" readahead_issued)
u0=$(counter "$MNT" readahead_used)
w0=$(counter "$MNT" readahead_wasted)
d0=$(counter "$MNT" data_dropped_behind)
with_timeout cmp "$MNT/$T/seq" "$S/seq" || fail "sequential read differs from the server's file"
i1=$(counter "$MNT" readahead_issued)
u1=$(counter "$MNT" readahead_used)
w1=$(counter "$MNT" readahead_wasted)
d1=$(counter "$MNT" data_dropped_behind)
note "sequential 16 MiB: read-ahead issued $((i1 - i0)), used $((u1 - u0)), wasted $((w1 - w0)), blocks dropped behind the reader $((d1 - d0))"
# The kernel's page cache holds what the reader had: the daemon lets the
# read-ahead blocks go (16 MiB is 256 blocks of 64 KiB) rather than keep
# a second copy, and the file keeps no more than the read-ahead window
# (4 MiB) and the blocks read before the window opened.
(((d1 - d0) >= 128)) || fail "a sequential 16 MiB read dropped $((d1 - d0)) read-ahead blocks behind the reader"
held=$("$NFSFUSECTL" "$MNT" cache "$MNT/$T/seq" | sed -n 's/.*data: \([0-9]*\) blocks.*/\1/p')
note "sequential 16 MiB: $held blocks of the file left in the data cache"
[[ -n $held ]] || fail "nfsfusectl cache printed no data blocks for the file"
((held <= 96)) || fail "a file read in sequence keeps $held blocks of 64 KiB in the daemon"
(((i1 - i0) >= 8)) || fail "a sequential 16 MiB read issued $((i1 - i0)) read-ahead READs"
(((u1 - u0) >= 8)) || fail "a sequential read found read-ahead data $((u1 - u0)) times"
assert_eq 0 $((w1 - w0)) "read-ahead wasted on a sequential read"
# Several READs in flight at once for the one file: a pipeline, not one
# round trip after another (the window starts at 4 READs of rsize).
depth=$("$NFSFUSECTL" "$MNT" stats --json |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["readahead_inflight_max"])')
note "sequential 16 MiB: at most $depth read-ahead READs in flight"
((depth >= 4)) || fail "a sequential reader had at most $depth READs in flight"

# --- random ----------------------------------------------------------------
# Each 4 KiB read is one READ of 4 KiB, and its bytes stay with the kernel's
# page cache: none takes a block of the daemon's data cache (the Python
# part asks nfsfusectl cache while the file is open).
rpc_field() { # MNT PROC FIELD
	"$NFSFUSECTL" "$1" stats --json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["rpc"].get(sys.argv[1], {}).get(sys.argv[2], 0))' "$2" "$3"
}
c0=$(calls "$MNT" READ)
b0=$(rpc_field "$MNT" READ bytes_recv)
k0=$(counter "$MNT" data_left_to_kernel)
with_timeout python3 - "$MNT/$T/rnd" "$S/rnd" "$NFSFUSECTL" "$MNT" <<'PY' || fail "random reads"
import os, random, re, subprocess, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
ref = open(sys.argv[2], "rb").read()
rnd = random.Random(11)
for _ in range(64):
    off = rnd.randrange(0, len(ref) - 4096) & ~4095
    if os.pread(fd, 4096, off) != ref[off:off + 4096]:
        sys.exit("wrong bytes at %d" % off)
# While the file is open, so that nothing else could have dropped them.
out = subprocess.run([sys.argv[3], sys.argv[4], "cache", sys.argv[1]],
                     check=True, capture_output=True, text=True).stdout
m = re.search(r"data: (\d+) blocks", out)
if not m or m.group(1) != "0":
    sys.exit("random 4 KiB reads took blocks of the data cache: " + out)
os.close(fd)
PY
i2=$(counter "$MNT" readahead_issued)
w2=$(counter "$MNT" readahead_wasted)
note "random 64 × 4 KiB: read-ahead issued $((i2 - i1)), wasted $((w2 - w1))"
(((i2 - i1) <= 2)) || fail "random reads issued $((i2 - i1)) read-ahead READs"
assert_eq 0 $((w2 - w1)) "read-ahead wasted on random reads"
c1=$(calls "$MNT" READ)
b1=$(rpc_field "$MNT" READ bytes_recv)
note "random 64 × 4 KiB: $((c1 - c0)) READs, $((b1 - b0)) bytes received"
(((c1 - c0) <= 64 + 2)) || fail "64 random reads of 4 KiB sent $((c1 - c0)) READs"
(((b1 - b0) <= (c1 - c0) * (4096 + 512))) || fail "random 4 KiB reads fetched $((b1 - b0)) bytes in $((c1 - c0)) READs"
(($(counter "$MNT" data_left_to_kernel) > k0)) || fail "no random read was left to the kernel's page cache"
echo PASS
