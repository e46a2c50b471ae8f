#!/usr/bin/env bash
# Client crash: A holds a lock and its daemon dies (SIGKILL), leaving the
# lock on the server.  A new A daemon with the same state directory finds
# the dead run's journal there and releases exactly the locks it lists
# (UNLOCK under the dead run's owner), and B's waiting F_SETLKW is granted.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/locks_lib.sh"
need_locks

T=$(make_testdir locks_crash)
MA=$(new_mountpoint)
MB=$(new_mountpoint)
SA=$NFSFUSE_TMP/state-a
SB=$NFSFUSE_TMP/state-b
mount_locks_a "$MA" "$SA"
PID_A=$(nfsfuse_pids "$(realpath "$MA")")
mount_locks_b "$MB" "$SB"
F=$T/f
: >"$EXPORT_DIR/$F"
chmod 666 "$EXPORT_DIR/$F"
R=$NFSFUSE_TMP/rel
state0=$(status_get "$SA" nsm_state)

lk_bg "$NFSFUSE_TMP/holdA" hold "$MA/$F" 0 0 w "$R.1"
wait_file_has "$NFSFUSE_TMP/holdA" locked || fail "A did not lock"
journal_has_lock() { cat "$SA"/journal-* 2>/dev/null | grep '^H ' >/dev/null; }
wait_until 10 journal_has_lock || fail "A's lock is not in its journal: $(cat "$SA"/journal-* 2>/dev/null)"
[[ -n $PID_A ]] || fail "no pid for daemon A"
kill -KILL "$PID_A"
wait_until 60 _pid_gone "$PID_A" || fail "daemon A did not die"
# The holder is stuck on a dead mount: abort it so that it can exit.
_fuse_abort "$(realpath "$MA")"
timeout 10 fusermount3 -u -z "$MA" 2>/dev/null || true

lk_bg "$NFSFUSE_TMP/waitB" wait "$MB/$F" 0 0 w "$R.2"
wait_until 30 grep -q '^waiting ino=' "$SB/status" || fail "B's F_SETLKW does not wait for the dead daemon's lock: $(cat "$NFSFUSE_TMP/waitB")"
assert_eq waiting "$(cat "$NFSFUSE_TMP/waitB")" "the dead daemon's lock still blocks B"

MA2=$(new_mountpoint)
t0=$(python3 -c "import time; print(time.monotonic())")
mount_locks_a "$MA2" "$SA"
wait_file_has "$NFSFUSE_TMP/waitB" granted 30 || fail "B not granted after A restarted: $(cat "$NFSFUSE_TMP/waitB")"
t1=$(awk '/^granted/ { print $2 }' "$NFSFUSE_TMP/waitB")
note "B granted $(python3 -c "print('%.2f' % ($t1 - $t0))") s after the new A daemon started"
assert_eq 1 "$(status_get "$SA" recovered)" "the new A daemon released the one lock of the dead run"
assert_eq 1 "$(ls "$SA"/journal-* | wc -l)" "the dead run's journal is gone, the new run's is there"
state1=$(status_get "$SA" nsm_state)
[[ $state1 -gt $state0 && $((state1 % 2)) -eq 1 ]] || fail "NSM state did not advance to a new odd number: $state0 -> $state1"
touch "$R.2" "$R.1" "$R.1.exit"
echo PASS
