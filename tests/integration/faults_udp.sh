#!/usr/bin/env bash
# NFS over UDP through a proxy that drops 10 % of the calls and 10 % of the
# replies: a tree (/usr/include/glib-2.0) copied in must arrive whole, and
# read back through the same lossy path it must be identical.  Every lost
# datagram is found by the retransmission timer and sent again with the
# same XID; the server's duplicate request cache answers the repeats of
# non-idempotent calls (CREATE, MKDIR) whose reply was lost, so none
# fails with EEXIST.
#
# MOUNT goes straight to the server (mountport=, mountproto=udp): only NFS
# crosses the proxy.  timeo=1 (0.1 s, the least there is) keeps the test
# short: each loss costs one timeout.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
ensure_server
need_nfsfuse
need_proxy
need_cmd python3 diff
SRC=/usr/include/glib-2.0
[[ -d $SRC ]] || skip "$SRC is missing (libglib2.0-dev)"

T=$(make_testdir faults_udp)
MNT=$(new_mountpoint)
start_proxy udp --proto udp --seed 5 --drop-calls 10 --drop-replies 10
mount_nfsfuse "$MNT" -o "proto=udp,mountproto=udp,port=$PROXY_PORT,mountport=$MOUNT_PORT,timeo=1,nolock"
PID=$(daemon_pid "$MNT")
# Over UDP the transfer sizes are cut to what one datagram carries.
opts=$("$NFSFUSECTL" list | grep -F -A4 -- "$MNT from") || fail "nfsfusectl list does not show $MNT"
assert_contains "$opts" "rsize=32768,wsize=32768," "UDP transfer sizes"

# The daemon's socket: UDP, connected to the proxy, one port throughout.
sport=$(ss -Hunp "dport = :$PROXY_PORT" | awk -v p="pid=$PID," '$0 ~ p { n = split($4, a, ":"); print a[n] }')
[[ $sport =~ ^[0-9]+$ ]] || fail "no UDP socket of nfsfuse towards the proxy: $(ss -Hunp "dport = :$PROXY_PORT")"

t0=$SECONDS
# Eight copiers at once, one file each: the lost datagrams of one wait
# out their timeouts while the others go on (and the congestion window
# sees real concurrency).
(cd "$SRC" && find . -type d) | (cd "$MNT/$T" && xargs mkdir -p) ||
	fail "mkdir of the tree through the lossy mount"
(cd "$SRC" && find . -type f -print0) |
	with_timeout 240 xargs -0 -P 8 -n 8 sh -c 'd=$1; shift; for f; do cp -- "$0/$f" "$d/$f" || exit 255; done' "$SRC" "$MNT/$T" ||
	fail "copy through the lossy mount failed"
note "copied $(find "$SRC" -type f | wc -l) files in $((SECONDS - t0)) s"

# What reached the server is exactly the tree (compared on the server's
# side, without the client's caches) ...
diff -r "$SRC" "$EXPORT_DIR/$T" >"$NFSFUSE_TMP/diff.server" 2>&1 ||
	fail "the export differs from $SRC: $(head -n 5 "$NFSFUSE_TMP/diff.server")"
# ... and what the client reads back through the lossy path too, with
# its caches dropped first so that every byte crosses the proxy again.
"$NFSFUSECTL" "$MNT" drop >/dev/null || fail "nfsfusectl drop"
t0=$SECONDS
(cd "$SRC" && find . -type f -print0) |
	with_timeout 240 xargs -0 -P 8 -n 8 sh -c 'd=$1; shift; for f; do cmp -- "$0/$f" "$d/$f" || exit 255; done' "$SRC" "$MNT/$T" ||
	fail "a file read back through the lossy mount differs"
with_timeout 120 diff -r -q "$SRC" "$MNT/$T" >"$NFSFUSE_TMP/diff.client" 2>&1 ||
	fail "diff -r through the lossy mount: $(head -n 5 "$NFSFUSE_TMP/diff.client")"
note "read back and compared in $((SECONDS - t0)) s"

# The losses happened and were recovered by retransmission, all from the
# one source port the server's duplicate request cache knows.
retrans=$(rpc_total "$MNT" retrans)
errors=$(rpc_total "$MNT" errors)
calls=$(rpc_total "$MNT" calls)
sport2=$(ss -Hunp "dport = :$PROXY_PORT" | awk -v p="pid=$PID," '$0 ~ p { n = split($4, a, ":"); print a[n] }')
assert_eq "$sport" "$sport2" "the daemon kept its UDP source port"
peers=$(grep -c '^udp-peer ' "$PROXY_LOG" || true)
assert_eq 1 "$peers" "the proxy saw one client address:port"
assert_eq 0 "$errors" "no RPC failed"
umount_nfsfuse "$MNT"
stop_proxy
summary=$(proxy_summary)
note "client: $calls calls, $retrans retransmissions; proxy: $summary"
[[ $summary =~ drop-calls=([0-9]+)\ drop-replies=([0-9]+) ]] || fail "no summary from the proxy"
dc=${BASH_REMATCH[1]} dr=${BASH_REMATCH[2]}
((dc > 50 && dr > 50)) || fail "too few losses to mean anything: $dc calls, $dr replies dropped"
# Every drop costs the client one retransmission at least.
((retrans >= dc + dr - 5)) || fail "$retrans retransmissions for $dc + $dr drops"
echo "PASS: $calls calls over UDP, $dc calls and $dr replies dropped, $retrans retransmissions, 0 errors"
