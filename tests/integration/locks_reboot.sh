#!/usr/bin/env bash
# Server reboot: A holds a lock; the server host crashes and boots again
# (test-server.sh reboot: ganesha killed, statd restarted after sm-notify
# bumped the NSM state, ganesha started with a grace period).  A learns of
# it from the server's statd (SM_STAT: the state number changed) and
# reclaims its lock within the grace period.  B, asking during the grace
# period, is held off until it ends and then still gets EAGAIN: A holds
# the reclaimed lock.  Once A unlocks, B gets it.
# This reboots the shared test server: run it last.  The server is put
# back into its normal graceless state at the end (test-server.sh restart).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/locks_lib.sh"
need_locks
need_root
need_cmd sm-notify

SERVER_STATEDIR=$(realpath -m -- "${NFSFUSE_TEST_STATEDIR:-/tmp/nfsfuse-test-server}")
GRACE=${NFSFUSE_TEST_GRACE:-15}
export NFSFUSE_TEST_GRACE=$GRACE

restore_server() {
	[[ -e $NFSFUSE_TMP/server-restored ]] && return 0
	touch "$NFSFUSE_TMP/server-restored"
	"$TEST_SERVER_SH" restart >/dev/null 2>&1 || echo "# could not restart the test server" >&2
}

T=$(make_testdir locks_reboot)
MA=$(new_mountpoint)
MB=$(new_mountpoint)
SA=$NFSFUSE_TMP/state-a
SB=$NFSFUSE_TMP/state-b
mount_locks_a "$MA" "$SA"
mount_locks_b "$MB" "$SB" "" -d # its log tells a failure apart
F=$T/f
: >"$EXPORT_DIR/$F"
chmod 666 "$EXPORT_DIR/$F"
R=$NFSFUSE_TMP/rel

lk_bg "$NFSFUSE_TMP/holdA" hold "$MA/$F" 0 0 w "$R.1"
wait_file_has "$NFSFUSE_TMP/holdA" locked || fail "A did not lock"
# A watches the server's statd from its first lock on: wait for the
# baseline state number.
watching() { [[ $(status_get "$SA" server_watch) =~ ^sm_stat.*state\ [1-9] ]]; }
wait_until 10 watching || fail "A does not watch the server's NSM state: $(status_get "$SA" server_watch)"
note "A: $(status_get "$SA" server_watch)"
assert_eq "Resource temporarily unavailable" "$(lk try "$MB/$F" 0 1 w)" "B blocked before the reboot"

on_exit restore_server
out=$("$TEST_SERVER_SH" reboot 2>&1) || fail "server reboot failed: $out"
read -r _ old new < <(grep '^nsm-state ' <<<"$out")
note "server rebooted: NSM state $old -> $new, ${GRACE}s grace period"
[[ $new =~ ^[0-9]+$ && $old =~ ^[0-9]+$ && $new -gt $old ]] ||
	fail "the reboot did not bump the server's NSM state ($old -> $new): $out"

# A reclaims in the grace period.
wait_until 10 counter_gt "$SA" reclaims 0 ||
	fail "A did not reclaim: $(grep -E 'watch|reboots|reclaim|lost' "$SA/status" | tr '\n' ' ')"
assert_eq 1 "$(status_get "$SA" server_reboots)" "A saw one reboot"
assert_eq 0 "$(status_get "$SA" locks_lost)" "no lock lost"
assert_contains "$(status_get "$SA" server_watch)" "state $new" "A's baseline is the new state"
wait_until 5 grep -q "reclaimed in its grace" "$LOG_A" || true
assert_contains "$(cat "$LOG_A")" "1 lock(s) reclaimed in its grace period, 0 taken again as new locks" "A reclaimed within the grace period"
grep -q "NOT IN GRACE" "$SERVER_STATEDIR/ganesha.log" &&
	fail "the grace period was already over when A had reclaimed: the test proves nothing"

# B asks during the grace period: the server answers DENIED_GRACE_PERIOD,
# which nfsfuse retries, so B's F_SETLK returns only once the grace period
# is over -- and then it is refused because A holds the reclaimed lock.
t0=$(date +%s.%N)
r=$(lk try "$MB/$F" 0 1 w)
t1=$(date +%s.%N)
note "B's F_SETLK returned after $(python3 -c "print('%.1f' % ($t1 - $t0))") s"
# (The status file is rewritten within a few tenths of a second.)
wait_until 2 counter_gt "$SB" grace_retries 0 || {
	grep -iE 'grace' "$SERVER_STATEDIR/ganesha.log" | tail -n 5 | sed 's/^/# server: /' >&2
	fail "B was never refused for the grace period: the server was not in grace"
}
grep -q "NOT IN GRACE" "$SERVER_STATEDIR/ganesha.log" || fail "B's F_SETLK returned while the server was still in grace"
assert_eq "Resource temporarily unavailable" "$r" "B still gets EAGAIN after the grace period: A holds the reclaimed lock"
assert_eq "Resource temporarily unavailable" "$(lk try "$MB/$F" 0 1 w)" "B again, out of grace"

touch "$R.1" "$R.1.exit"
wait_file_has "$NFSFUSE_TMP/holdA" unlocked || fail "A did not unlock"
wait_until 10 try_ok "$MB/$F" 0 1 w || fail "B cannot lock after A's unlock"
assert_eq 0 "$(status_get "$SB" locks_lost)" "B lost nothing"

# Back to the normal graceless server for the tests that follow.  The
# clients go first: connections that they close leave no TIME-WAIT on the
# server's ports for the restart to wait out.
umount_nfsfuse "$MA"
umount_nfsfuse "$MB"
restore_server
echo PASS
