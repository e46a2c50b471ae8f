#!/usr/bin/env bash
# A wall clock stepped back does not stall the daemon's timed waits.  A
# freshly booted machine's clock is often set back or forward when it is
# first synchronised; a wait whose deadline was on the wall clock would
# then last as long as the step.  Here B (which polls for its blocked
# locks: locks_lib.sh) waits for A's lock while the clock goes back ten
# minutes, and is granted within its usual polling delay once A unlocks.
# The clock is stepped forward again at once, whatever happens.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/locks_lib.sh"
need_locks
need_root
need_cmd date

STEP=600
T=$(make_testdir clock_step)
MA=$(new_mountpoint)
MB=$(new_mountpoint)
SA=$NFSFUSE_TMP/state-a
SB=$NFSFUSE_TMP/state-b
mount_locks_a "$MA" "$SA"
mount_locks_b "$MB" "$SB"
assert_match "$(status_get "$SB" mode)" '^poll' "B polls (NLM v4 registered elsewhere)"
F=$T/f
: >"$EXPORT_DIR/$F"
chmod 666 "$EXPORT_DIR/$F"
R=$NFSFUSE_TMP/rel

lk_bg "$NFSFUSE_TMP/holdA" hold "$MA/$F" 0 0 w "$R"
wait_file_has "$NFSFUSE_TMP/holdA" locked || fail "A did not lock"
lk_bg "$NFSFUSE_TMP/waitB" wait "$MB/$F" 0 0 w "${R}w"
wait_waiting "$SB" posix || fail "B does not list its F_SETLKW as waiting: $(cat "$NFSFUSE_TMP/waitB")"
# Let B's polling back off to its longest delay, so that the step falls
# inside a timed wait.
sleep 3

# clock_forward: undo the step, once (at the end or on the way out).
STEPPED=$NFSFUSE_TMP/clock-stepped
clock_forward() {
	[[ -e $STEPPED ]] || return 0
	rm -f -- "$STEPPED"
	date -s "@$(($(date +%s) + STEP))" >/dev/null
}
on_exit clock_forward
touch "$STEPPED"
date -s "@$(($(date +%s) - STEP))" >/dev/null || { rm -f -- "$STEPPED"; fail "cannot set the clock as root"; }
note "the wall clock went back $STEP s"
sleep 1
touch "$R" "$R.exit"
# wait_until counts its tries, not the wall clock's seconds.
wait_file_has "$NFSFUSE_TMP/waitB" granted 30 ||
	fail "B's F_SETLKW not granted within 30 s of A's unlock after the clock went back: $(cat "$NFSFUSE_TMP/waitB")"
clock_forward
touch "${R}w" "${R}w.exit"
echo PASS
