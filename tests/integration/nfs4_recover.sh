#!/usr/bin/env bash
# NFSv4.2 across a server restart (kill -9, start: a new server instance
# that knows neither the session nor the client id).
#
# A writer has 24 MiB acknowledged UNSTABLE and uncommitted (below half
# the write-behind bound nothing is COMMITted before close) and goes on
# writing while the server is down.  After the restart the first calls
# meet NFS4ERR_BADSESSION (or STALE_CLIENTID); the client makes a new
# client id (EXCHANGE_ID, the same owner) and session (CREATE_SESSION),
# has the writer's open again (OPEN CLAIM_PREVIOUS, which this graceless
# server answers NFS4ERR_NO_GRACE, then OPEN CLAIM_FH), says
# RECLAIM_COMPLETE, and sends the calls again under the new open
# stateid; the COMMIT then finds the new write verifier and the
# uncommitted bytes go again.  The file arrives whole, new creates,
# opens and reads work, the statistics count one recovery with a new
# client id and one open had again (none lost), and the trace shows it.
#
# This restarts the shared test server: it is meant to run alone.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
ensure_server
need_nfsfuse
need_root
need_cmd python3 cmp
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"

STATEDIR=$(realpath -m -- "${NFSFUSE_TEST_STATEDIR:-/tmp/nfsfuse-test-server}")
SIZE_MIB=96
T=$(make_testdir nfs4_recover)
SRC=$NFSFUSE_TMP/src
make_random_file "$SRC" "$SIZE_MIB"

# Whatever happens, leave a running server behind for the next test.
on_exit "$TEST_SERVER_SH" start

kill_server() {
	local pid
	pid=$(tr -dc '0-9' <"$STATEDIR/ganesha.pid")
	[[ -n $pid && $(cat "/proc/$pid/comm" 2>/dev/null) == ganesha.nfsd ]] ||
		fail "no ganesha.nfsd at pid '$pid'"
	kill -9 "$pid"
	wait_until 60 _pid_gone "$pid" || fail "ganesha (pid $pid) survived kill -9"
	note "killed ganesha.nfsd (pid $pid)"
}

wait_size() {
	local i
	for ((i = 0; i < 600; i++)); do
		(($(stat -c %s "$1" 2>/dev/null || echo 0) >= $2)) && return 0
		sleep 0.1
	done
	fail "$1 did not reach $2 bytes within 60 s"
}

MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -f -o vers=4.2
PID=$(daemon_pid "$MNT")
echo before >"$MNT/$T/old" || fail "create before the restart"
c0=$(cache_stat "$MNT" commits)
assert_eq 0 "$(cache_stat "$MNT" nfs4_recoveries)" "recoveries before the restart"

TR=$NFSFUSE_TMP/trace
"$NFSFUSECTL" "$MNT" trace >"$TR" 2>&1 &
tpid=$!
on_exit bash -c "kill $tpid 2>/dev/null || true"
traced_call() {
	"$NFSFUSECTL" "$MNT" drop "$MNT/$T/old" >/dev/null 2>&1
	stat "$MNT/$T/old" >/dev/null
	grep -q "COMPOUND" "$TR"
}
wait_until 60 traced_call || fail "no RPC lines in the trace: $(head -c 600 "$TR")"

start_paused_writer "$SRC" "$MNT/$T/big"
wait_size "$EXPORT_DIR/$T/big" $((PAUSED_MIB << 20))
assert_eq "$c0" "$(cache_stat "$MNT" commits)" "COMMITs before the restart ($PAUSED_MIB MiB must still be uncommitted)"
kill_server
touch "$NFSFUSE_TMP/go"
sleep 2 # calls meet the dead server
out=$("$TEST_SERVER_SH" start 2>&1) || fail "cannot restart the server: $out"
note "server restarted"

rc=0
with_timeout 240 tail --pid="$CP" -f /dev/null || fail "the copy did not finish within 240 s of the restart"
wait "$CP" || rc=$?
assert_eq 0 "$rc" "copy across the restart ($(cat "$NFSFUSE_TMP/cp.err"))"
assert_file_eq "$SRC" "$EXPORT_DIR/$T/big" "the file written across the restart, on the server"

# The mount works as before: create, open, read, list.
echo after >"$MNT/$T/new" || fail "create after the restart"
assert_file_content "$EXPORT_DIR/$T/new" after
assert_eq before "$(cat "$MNT/$T/old")" "read of a file made before the restart"
"$NFSFUSECTL" "$MNT" drop >/dev/null
assert_file_eq "$SRC" "$MNT/$T/big" "the file read back through the mount"
assert_eq "big new old" "$(ls "$MNT/$T" | tr '\n' ' ' | sed 's/ $//')" "listing after the restart"

assert_eq 1 "$(cache_stat "$MNT" nfs4_recoveries)" "recoveries"
assert_eq 1 "$(cache_stat "$MNT" nfs4_clientid_recoveries)" "recoveries with a new client id"
vc=$(cache_stat "$MNT" verifier_changes)
((vc >= 1)) || fail "no write verifier change seen across the restart"
assert_eq 1 "$(cache_stat "$MNT" nfs4_reclaims)" "opens had again"
assert_eq 0 "$(cache_stat "$MNT" nfs4_state_lost)" "opens lost"
grep -q "NFSv4 recovery: 0 open(s) reclaimed, 1 opened again (no grace period), 0 lost" "$NFSFUSE_LOG" ||
	fail "the open was not opened again: $(grep 'NFSv4 recovery' "$NFSFUSE_LOG")"
resent=$(cache_stat "$MNT" nfs4_calls_resent)
((resent >= 1)) || fail "no call was sent again after the recovery"
wait_until 30 grep -q "nfs4 recovery: RECLAIM_COMPLETE: NFS4_OK -> done" "$TR" ||
	fail "the recovery is not in the trace: $(grep -i recovery "$TR" | head -n 20)"
grep -q "NFSv4 recovery done" "$NFSFUSE_LOG" || fail "no 'NFSv4 recovery done' in the log"
grep -q "reported as EIO" "$NFSFUSE_LOG" && fail "a status was turned into EIO: $(grep 'reported as EIO' "$NFSFUSE_LOG" | head -n 3)"
kill "$tpid" 2>/dev/null || true
assert_alive "$PID" "$MNT"
umount_nfsfuse "$MNT"
echo "PASS: $SIZE_MIB MiB written across a server restart, one recovery with a new client id, $resent calls sent again, $vc verifier change(s)"
