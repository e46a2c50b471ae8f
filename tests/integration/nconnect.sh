#!/usr/bin/env bash
# nconnect=4: four TCP connections to the NFS server, from four local
# ports, and a parallel workload's calls travel on every one of them (the
# daemon's per-connection counters, checked against ss).  One connection
# killed under the workload (ss -K) is made again from the same local
# port, on its own, and nothing the workload does fails.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"
need_root # ss -K
need_cmd python3 ss

NFS_PORT=2049
T=$(make_testdir nconnect)
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -o nconnect=4

# conns: one line per connection, "PORT CONNECTS CALLS ERRORS".
conns() {
	"$NFSFUSECTL" "$MNT" stats --json | python3 -c '
import json, sys
for c in json.load(sys.stdin)["connections"]:
    print(c["local_port"], c["connects"], c["calls"], c["errors"])'
}

# The workload (ROUND as argument): four processes at once, each writing
# files, reading them back and listing its directory.
WL=$NFSFUSE_TMP/workload.py
cat >"$WL" <<'PY'
import os, sys
from multiprocessing import Pool
root, rnd = sys.argv[1], sys.argv[2]
def one(k):
    d = os.path.join(root, "w%s.%d" % (rnd, k))
    os.mkdir(d)
    for i in range(16):
        data = os.urandom(64 << 10) + b"%d.%d" % (k, i)
        p = os.path.join(d, "f%d" % i)
        with open(p, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        with open(p, "rb") as f:
            if f.read() != data:
                return "%s: read back differs" % p
        os.stat(p)
    if len(os.listdir(d)) != 16:
        return "%s: %d entries" % (d, len(os.listdir(d)))
    return None
with Pool(4) as pool:
    errs = [e for e in pool.map(one, range(4)) if e]
if errs:
    sys.exit("; ".join(errs))
PY
workload() { with_timeout 120 python3 "$WL" "$MNT/$T" "$1"; }

mapfile -t before < <(conns)
assert_eq 4 "${#before[@]}" "connections listed by nfsfusectl stats"
workload 1 || fail "the parallel workload failed over four connections"
mapfile -t after < <(conns)
declare -A seen=()
for ((i = 0; i < 4; i++)); do
	read -r p0 _ c0 _ <<<"${before[i]}"
	read -r p1 k1 c1 e1 <<<"${after[i]}"
	note "connection $i: port $p1, $((c1 - c0)) calls in the workload"
	((p1 > 0)) || fail "connection $i has no local port"
	[[ -z ${seen[$p1]:-} ]] || fail "connections ${seen[$p1]} and $i share port $p1"
	seen[$p1]=$i
	assert_eq 1 "$k1" "connects of connection $i"
	(((c1 - c0) >= 20)) || fail "connection $i carried $((c1 - c0)) calls of the parallel workload"
	assert_eq 0 "$e1" "errors on connection $i"
	# The kernel sees the same connection, established to the server.
	ss -tnH state established "( sport = :$p1 and dport = :$NFS_PORT )" | grep . >/dev/null ||
		fail "ss shows no established connection from port $p1 to the server"
done

# Kill connection 2 while the workload runs; it comes back by itself.
read -r kport _ _ _ <<<"${after[2]}"
workload 2 &
W=$!
sleep 0.3
ss -K -tnH state established "( sport = :$kport and dport = :$NFS_PORT )" >/dev/null ||
	fail "ss -K could not kill the connection from port $kport"
wait "$W" || fail "the workload failed when one of four connections was killed"
workload 3 || fail "the workload failed after the connection was killed"
mapfile -t last < <(conns)
read -r p2 k2 c2 e2 <<<"${last[2]}"
read -r _ _ c1 _ <<<"${after[2]}"
assert_eq 2 "$k2" "connects of the killed connection (once more after the kill)"
assert_eq "$kport" "$p2" "local port of the killed connection after it reconnected"
(((c2 - c1) >= 20)) || fail "the reconnected connection carried $((c2 - c1)) calls afterwards"
for ((i = 0; i < 4; i++)); do
	read -r _ k _ e <<<"${last[i]}"
	assert_eq 0 "$e" "errors on connection $i"
	((i == 2)) || assert_eq 1 "$k" "connects of connection $i, which nobody killed"
done
echo PASS
