#!/usr/bin/env bash
# A lock-protected counter: 2 processes on daemon A and 2 on daemon B each
# add 1 to a number in one file 250 times under a whole-file write lock.
# Without exclusion (or with stale caches around the lock) increments are
# lost and the file ends below 1000.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/locks_lib.sh"
need_locks

T=$(make_testdir locks_counter)
MA=$(new_mountpoint)
MB=$(new_mountpoint)
SA=$NFSFUSE_TMP/state-a
SB=$NFSFUSE_TMP/state-b
# Debug logs: should a counter process ever hang, the failure shows what
# each daemon did last.
mount_locks_a "$MA" "$SA" "" -d
mount_locks_b "$MB" "$SB" "" -d
F=$T/counter
printf '%010d\n' 0 >"$EXPORT_DIR/$F"
chmod 666 "$EXPORT_DIR/$F"

pids=()
# The bound is against a hang only.  Waiters poll (the server cannot call
# these mounts back), so a holder that locks again at once keeps the file
# for its whole run; at a load of 20 on two cores the four runs took more
# than 120 s one after another.
for m in "$MA" "$MA" "$MB" "$MB"; do
	with_timeout 480 python3 "$LK_PY" counter "$m/$F" 250 &
	pids+=($!)
done
for p in "${pids[@]}"; do
	wait "$p" || fail "a counter process failed (status $?)"
done
assert_eq "$(printf '%010d' 1000)" "$(head -c 10 "$EXPORT_DIR/$F")" "the counter after 4 x 250 locked increments"
note "A: callback grants $(status_get "$SA" granted_callback), poll grants $(status_get "$SA" granted_poll); B: poll grants $(status_get "$SB" granted_poll)"
echo PASS
