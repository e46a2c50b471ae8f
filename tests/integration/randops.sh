#!/usr/bin/env bash
# randops.py -- seeded random open/read/write/truncate/fsync operations,
# and reads and writes through shared mappings, checked against a model
# of the file -- on a plain mount (one run of 20,000 operations), on an
# NFSv4.1 mount (10,000) and through a lossy proxy (TCP, 5 % of the calls
# and 5 % of the replies dropped, timeo=1: eight runs of 2,500 operations
# on eight files at once, so that their timeouts overlap).  Each run ends by
# comparing the whole file, read through a new descriptor and from the
# server's copy, with the model.  A failure names the seed and the
# operation: `randops.py FILE --seed N --ops M --log ops.txt` replays it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
ensure_server
need_nfsfuse
need_cmd python3
RANDOPS=$NFSFUSE_LIB_DIR/randops.py
SEED=${RANDOPS_SEED:-$((RANDOM % 10000))}
note "seed base $SEED (set RANDOPS_SEED to replay)"

T=$(make_testdir randops)

# --- plain mount ----------------------------------------------------------
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -o nolock
t0=$SECONDS
with_timeout 150 python3 "$RANDOPS" "$MNT/$T/plain" --seed "$SEED" --ops 20000 \
	--server-copy "$EXPORT_DIR/$T/plain" || fail "randops on a plain mount (seed $SEED)"
note "plain mount: 20000 operations in $((SECONDS - t0)) s"
umount_nfsfuse "$MNT"

# --- NFSv4.1: the same model, where READs carry no attributes the cache
# still believes --------------------------------------------------------
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -o vers=4.1
t0=$SECONDS
with_timeout 150 python3 "$RANDOPS" "$MNT/$T/v4" --seed "$((SEED + 1))" --ops 10000 \
	--server-copy "$EXPORT_DIR/$T/v4" || fail "randops on an NFSv4.1 mount (seed $((SEED + 1)))"
note "NFSv4.1 mount: 10000 operations in $((SECONDS - t0)) s"
umount_nfsfuse "$MNT"

# --- through the lossy proxy ----------------------------------------------
start_proxy lossy --seed "$SEED" --drop-calls 5 --drop-replies 5
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -o "port=$PROXY_PORT,mountport=$MOUNT_PORT,timeo=1,nolock"
PID=$(daemon_pid "$MNT")
t0=$SECONDS
pids=()
for w in 1 2 3 4 5 6 7 8; do
	with_timeout 170 python3 "$RANDOPS" "$MNT/$T/lossy$w" --seed $((SEED + w)) --ops 2500 \
		--server-copy "$EXPORT_DIR/$T/lossy$w" &
	pids+=($!)
done
bad=0
for p in "${pids[@]}"; do wait "$p" || bad=$((bad + 1)); done
((bad == 0)) || fail "$bad of 8 randops runs through the lossy proxy failed (seeds $((SEED + 1))..$((SEED + 8)))"
note "lossy proxy: 8 x 2500 operations in $((SECONDS - t0)) s"
assert_alive "$PID" "$MNT"
retrans=$(rpc_total "$MNT" retrans)
umount_nfsfuse "$MNT"
stop_proxy
drops=$(proxy_count drop)
((drops > 0)) || fail "the proxy dropped nothing"
((retrans >= drops / 2)) || fail "$retrans retransmissions for $drops drops"
echo "PASS: randops 20000 operations plain and 8 x 2500 through the lossy proxy ($drops drops, $retrans retransmissions)"
