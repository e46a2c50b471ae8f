#!/usr/bin/env bash
# NFS over TCP through a proxy that cuts the connection every 2 s while
# 256 MiB are written and read back.  After each cut the client connects
# again from the same local port -- the proxy logs one "accept ADDR:PORT"
# per connection, and every one must name the same port -- and sends every
# outstanding call again with its XID.  The file must arrive and read back
# with the checksum it left with.
#
# Every message is held 20 ms in the proxy: on loopback 256 MiB would
# otherwise cross in about a second, between two cuts; this way calls are
# in flight whenever a cut comes, and must be sent again.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
ensure_server
need_nfsfuse
need_proxy
need_cmd python3 sha256sum

SIZE_MIB=256
T=$(make_testdir faults_tcp_cut)
MNT=$(new_mountpoint)
SRC=$NFSFUSE_TMP/src
make_random_file "$SRC" "$SIZE_MIB"
sum=$(sha256sum <"$SRC" | cut -d' ' -f1)

start_proxy cut --seed 11 --cut-every 2 --delay-ms 20
# hard (the default) and -f, so that the daemon's messages land in its log
mount_nfsfuse "$MNT" -f -o "port=$PROXY_PORT,mountport=$MOUNT_PORT,nolock"
PID=$(daemon_pid "$MNT")

t0=$SECONDS
with_timeout 240 cp "$SRC" "$MNT/$T/big" || fail "copy of $SIZE_MIB MiB under connection cuts failed"
t1=$SECONDS
cuts_w=$(proxy_count cut)
note "wrote $SIZE_MIB MiB in $((t1 - t0)) s across $cuts_w cuts"
got=$(sha256sum <"$EXPORT_DIR/$T/big" | cut -d' ' -f1)
assert_eq "$sum" "$got" "checksum of the file on the server"

# Read back through the mount, past every cache, while the cuts go on.
"$NFSFUSECTL" "$MNT" drop >/dev/null || fail "nfsfusectl drop"
sleep 2.2 # at least one cut between the write and the read
got=$(with_timeout 240 sha256sum <"$MNT/$T/big" | cut -d' ' -f1) || fail "read back failed"
assert_eq "$sum" "$got" "checksum of the file read back through the mount"
note "read $SIZE_MIB MiB in $((SECONDS - t1)) s"
assert_alive "$PID" "$MNT"
retrans=$(rpc_total "$MNT" retrans)
errors=$(rpc_total "$MNT" errors)
umount_nfsfuse "$MNT"
stop_proxy

# Every connection the proxy accepted came from the one client port.
mapfile -t accepts < <(grep '^accept ' "$PROXY_LOG" | awk '{ print $2 }')
cuts=$(proxy_count cut)
((cuts >= 2)) || fail "only $cuts cuts: the test proved nothing (copy too fast?)"
((${#accepts[@]} >= cuts)) || fail "${#accepts[@]} connections for $cuts cuts: the client did not come back after each"
first=${accepts[0]}
for a in "${accepts[@]}"; do
	[[ $a == "$first" ]] || fail "a reconnection came from $a, the first connection from $first: $(printf '%s ' "${accepts[@]}")"
done
assert_eq 0 "$errors" "no RPC failed"
((retrans > 0)) || fail "no call was sent again: no cut came while calls were in flight"
# Hard mount: the cuts may have been noticed as "not responding"; if so,
# the recovery must have been logged as well.
if grep -q 'not responding, still trying' "$NFSFUSE_LOG"; then
	grep -q "server 127.0.0.1 OK" "$NFSFUSE_LOG" || fail "'not responding' without 'OK' afterwards"
fi
echo "PASS: $SIZE_MIB MiB written and read back across $cuts cuts, ${#accepts[@]} connections all from $first, $retrans retransmissions"
