#!/usr/bin/env bash
# NFSv4.1 byte-range locks across a server reboot with a grace period.
#
# Two mounts of the export (two NFSv4 clients).  A process on mount A
# takes an fcntl write lock on bytes 100..149 and keeps it.  The server
# is killed (kill -9) and started again with a grace period
# (test-server.sh reboot).  Mount A makes a new client id, reclaims its
# open, then its lock (LOCK reclaim=true) before RECLAIM_COMPLETE: the
# statistics count one lock reclaimed and none lost, the log says so.
# Mount B's conflicting F_SETLK is refused (EAGAIN) when it is asked
# during the grace period and again after the grace period ended, and
# F_GETLK from B shows A's range; once A unlocks, B gets the range.
# Without the reclaim, the server would hand B the range after the grace
# period.  What this shows is the test server's (nfs-ganesha's) answers
# only: another server may lift its grace period earlier or later.
#
# This reboots the shared test server: it is meant to run alone, last.
# The server is put back into its normal graceless state at the end.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
. "$(dirname "$0")/locks_lib.sh"
ensure_server
need_nfsfuse
need_root
need_cmd python3
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"

on_exit bash -c "'$TEST_SERVER_SH' restart >/dev/null 2>&1 || echo '# could not restart the test server' >&2"
T=$(make_testdir nfs4_lockreclaim)
F=$T/f
: >"$EXPORT_DIR/$F"
chmod 666 "$EXPORT_DIR/$F"
R=$NFSFUSE_TMP/rel
export NFSFUSE_TEST_GRACE=20
# A first start with a grace period: from then on the server records its
# clients, which a later reboot lets reclaim (a graceless start does not).
out=$("$TEST_SERVER_SH" reboot 2>&1) || fail "server reboot failed: $out"

MA=$(new_mountpoint)
mount_nfsfuse "$MA" -f -o vers=4.1,actimeo=0
LOG_A=$NFSFUSE_LOG
PID_A=$(daemon_pid "$MA")
MB=$(new_mountpoint)
mount_nfsfuse "$MB" -o vers=4.1,actimeo=0

locks_of() { "$NFSFUSECTL" "$1" locks; }
# The text stats name the counter too (`nfsfusectl stats`, not only --json).
text_stat() { "$NFSFUSECTL" "$1" stats | awk -v k="$2" '$1 == k { print $2; exit }'; }
# B's F_SETLK on the range of a free lock works (the first start's grace
# period, in which new locks wait, is over).
b_free_ok() { [[ $(lk try "$MB/$F" 1000 10 w) == ok ]]; }
# The grace period of the reboot is over: a free range is had by B
# without meeting NFS4ERR_GRACE (no wait counted meanwhile).
grace_over() {
	local w0 w1
	w0=$(cache_stat "$MB" nfs4_delay_waits)
	b_free_ok || return 1
	w1=$(cache_stat "$MB" nfs4_delay_waits)
	[[ $w0 == "$w1" ]]
}
a_recovered() { (($(cache_stat "$MA" nfs4_clientid_recoveries) >= 1)); }
reclaimed_one() { [[ $(cache_stat "$MA" nfs4_lock_reclaims) == 1 ]]; }

wait_for 120 b_free_ok || fail "B cannot lock a free range after the first start"

# --- A holds a write lock on 100..149 -------------------------------------
lk_bg "$NFSFUSE_TMP/holdA" hold "$MA/$F" 100 50 w "$R"
wait_file_has "$NFSFUSE_TMP/holdA" locked 60 || fail "A did not get its lock: $(cat "$NFSFUSE_TMP/holdA")"
assert_eq "Resource temporarily unavailable" "$(lk try "$MB/$F" 120 10 w)" "B's conflicting lock before the reboot"
assert_match "$(locks_of "$MA")" "^held .* ranges=w:100\+50$" "A lists the range it holds"
assert_eq 0 "$(cache_stat "$MA" nfs4_lock_reclaims)" "locks reclaimed before the reboot"

# --- the server reboots with a grace period --------------------------------
out=$("$TEST_SERVER_SH" reboot 2>&1) || fail "server reboot failed: $out"
note "server rebooted with a ${NFSFUSE_TEST_GRACE}s grace period"
# A recovers when its lease renewal meets the new server.
wait_for 120 a_recovered || fail "A did not recover from the reboot: $(grep 'NFSv4 recovery' "$LOG_A")"

# During the grace period the server takes no new lock: B's F_SETLK waits
# it out (NFS4ERR_GRACE), then the server refuses it, as A holds the range.
w0=$(cache_stat "$MB" nfs4_delay_waits)
assert_eq "Resource temporarily unavailable" "$(lk try "$MB/$F" 120 10 w)" "B's conflicting lock asked in the grace period"
w1=$(cache_stat "$MB" nfs4_delay_waits)
if ((w1 > w0)); then
	note "B's lock met the grace period ($((w1 - w0)) waits) and was refused after it"
else
	note "B's lock did not meet the grace period (the server ended it early)"
fi

# A reclaimed exactly its one lock, and says so.
wait_for 60 reclaimed_one || fail "A's lock reclaim is not counted: $(grep 'NFSv4 recovery' "$LOG_A")"
grep -q "NFSv4 recovery: 1 lock(s) reclaimed, 0 taken again (no grace period), 0 lost" "$LOG_A" ||
	fail "the log does not say the lock was reclaimed: $(grep 'NFSv4 recovery' "$LOG_A")"
assert_eq 0 "$(cache_stat "$MA" nfs4_locks_lost)" "locks lost (--json)"
assert_eq 1 "$(text_stat "$MA" nfs4_lock_reclaims)" "locks reclaimed (nfsfusectl stats)"
assert_eq 0 "$(text_stat "$MA" nfs4_locks_lost)" "locks lost (nfsfusectl stats)"
assert_match "$(locks_of "$MA")" "^held .* ranges=w:100\+50$" "A still lists its range"

# After the grace period: refused still, and F_GETLK names A's range.
wait_for 120 grace_over || fail "the grace period did not end"
assert_eq "Resource temporarily unavailable" "$(lk try "$MB/$F" 120 10 w)" "B's conflicting write lock after the grace period"
assert_eq "Resource temporarily unavailable" "$(lk try "$MB/$F" 140 20 r)" "B's conflicting read lock after the grace period"
assert_eq "w 100 50" "$(lk getlk "$MB/$F" 0 0 r)" "F_GETLK from B reports A's reclaimed lock"

# --- A unlocks: B gets the range ------------------------------------------
touch "$R" "$R.exit"
wait_file_has "$NFSFUSE_TMP/holdA" unlocked 60 || fail "A did not unlock: $(cat "$NFSFUSE_TMP/holdA")"
assert_eq ok "$(lk try "$MB/$F" 120 10 w)" "B's lock after A's unlock"
assert_alive "$PID_A" "$MA"
umount_nfsfuse "$MB"
umount_nfsfuse "$MA"
echo "PASS: a byte-range lock reclaimed in the grace period of a server reboot keeps another client out during and after it, until it is unlocked"
