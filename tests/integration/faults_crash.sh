#!/usr/bin/env bash
# The server dies (kill -9) in the middle of a 256 MiB write and is
# started again.
#
#  - soft, timeo=10,retrans=1: the write fails with EIO within seconds
#    (1 + 2 s of timeouts), the daemon stays up, and once the server is
#    back the same mount works again.
#  - hard (the default), timeo=10,retrans=1 so that a major timeout
#    comes within the outage: the copy waits, "server 127.0.0.1 not
#    responding, still trying" is logged once and "server 127.0.0.1 OK"
#    after it; the restarted server has a new write verifier, so COMMIT
#    finds that the UNSTABLE writes it acknowledged before the crash may
#    be gone and they are sent again: the file arrives whole
#    (verifier_changes counts it).  The first 24 MiB are written and
#    left uncommitted before the crash, so there is always something to
#    send again.
#
# This restarts the shared test server twice: it is meant to run alone.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
ensure_server
need_nfsfuse
need_root
need_cmd python3 sha256sum
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"

STATEDIR=$(realpath -m -- "${NFSFUSE_TEST_STATEDIR:-/tmp/nfsfuse-test-server}")
SIZE_MIB=256
T=$(make_testdir faults_crash)
SRC=$NFSFUSE_TMP/src
make_random_file "$SRC" "$SIZE_MIB"
sum=$(sha256sum <"$SRC" | cut -d' ' -f1)

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

start_server() {
	local out
	out=$("$TEST_SERVER_SH" start 2>&1) || fail "cannot restart the server: $out"
	note "server restarted"
}

# wait_size FILE BYTES: until FILE on the export has grown that far.
wait_size() {
	local i
	for ((i = 0; i < 300; i++)); do
		(($(stat -c %s "$1" 2>/dev/null || echo 0) >= $2)) && return 0
		sleep 0.1
	done
	fail "$1 did not reach $2 bytes within 30 s"
}

# --- soft ---------------------------------------------------------------
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -f -o soft,timeo=10,retrans=1,nolock
PID=$(daemon_pid "$MNT")
stat "$MNT/$T" >/dev/null
dd if="$SRC" of="$MNT/$T/soft" bs=1M 2>"$NFSFUSE_TMP/dd.err" &
DD=$!
wait_size "$EXPORT_DIR/$T/soft" $((32 << 20))
kill_server
t0=$SECONDS
rc=0
with_timeout 60 tail --pid="$DD" -f /dev/null || fail "the soft write still hangs 60 s after the crash"
wait "$DD" || rc=$?
note "soft: dd ended with status $rc after $((SECONDS - t0)) s: $(tail -n 2 "$NFSFUSE_TMP/dd.err" | tr '\n' ' ')"
((rc != 0)) || fail "the soft write succeeded although the server was down"
soft_rc=$rc soft_secs=$((SECONDS - t0))
grep -q 'Input/output error' "$NFSFUSE_TMP/dd.err" || fail "soft write did not fail with EIO: $(cat "$NFSFUSE_TMP/dd.err")"
assert_alive "$PID" "$MNT"
start_server
# The same mount works again (the first call may still meet the old
# connection's end: give it a few tries).
wait_until 20 stat "$MNT/$T/soft" >/dev/null || fail "the soft mount does not answer after the server came back"
echo back >"$MNT/$T/after" || fail "cannot write after the server came back"
assert_file_content "$EXPORT_DIR/$T/after" back
assert_alive "$PID" "$MNT"
umount_nfsfuse "$MNT"

# --- hard ---------------------------------------------------------------
# The writer sends PAUSED_MIB (24) and stops, its file still open: below
# half the write-behind bound (32 of 64 MiB) nothing is COMMITted before
# close, so all of it is acknowledged UNSTABLE and uncommitted when the
# server dies -- whatever the machine's speed.  It goes on writing during the outage.
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -f -o timeo=10,retrans=1,nolock
PID=$(daemon_pid "$MNT")
stat "$MNT/$T" >/dev/null
c0=$(cache_stat "$MNT" commits)
start_paused_writer "$SRC" "$MNT/$T/hard"
wait_size "$EXPORT_DIR/$T/hard" $((PAUSED_MIB << 20))
assert_eq "$c0" "$(cache_stat "$MNT" commits)" "COMMITs before the crash ($PAUSED_MIB MiB must still be uncommitted)"
kill_server
touch "$NFSFUSE_TMP/go"
sleep 3 # long enough for calls to time out and be retried
start_server
t0=$SECONDS
rc=0
with_timeout 180 tail --pid="$CP" -f /dev/null || fail "the hard copy did not finish within 180 s of the restart"
wait "$CP" || rc=$?
assert_eq 0 "$rc" "hard copy across the crash ($(cat "$NFSFUSE_TMP/cp.err"))"
note "hard: copy finished $((SECONDS - t0)) s after the restart"
got=$(sha256sum <"$EXPORT_DIR/$T/hard" | cut -d' ' -f1)
assert_eq "$sum" "$got" "checksum of the file written across the crash"
vc=$(cache_stat "$MNT" verifier_changes)
((vc >= 1)) || fail "no write verifier change seen across a server restart"
assert_alive "$PID" "$MNT"
umount_nfsfuse "$MNT"
n=$(grep -c 'server 127.0.0.1 not responding, still trying' "$NFSFUSE_LOG" || true)
assert_eq 1 "$n" "'not responding' logged once"
grep -q 'server 127.0.0.1 OK' "$NFSFUSE_LOG" || fail "no 'server 127.0.0.1 OK' after the server came back: $(cat "$NFSFUSE_LOG")"
echo "PASS: soft write failed with EIO (dd status $soft_rc, after $soft_secs s), hard copy intact across the crash, $vc verifier change(s)"
