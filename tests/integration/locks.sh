#!/usr/bin/env bash
# NLM locks between two nfsfuse daemons on one machine (two NLM clients):
# exclusion, F_GETLK, blocked locks granted by callback and by polling,
# an interrupted F_SETLKW, flock(2), and release at close.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/locks_lib.sh"
need_locks

T=$(make_testdir locks)
MA=$(new_mountpoint)
MB=$(new_mountpoint)
SA=$NFSFUSE_TMP/state-a
SB=$NFSFUSE_TMP/state-b
mount_locks_a "$MA" "$SA"
mount_locks_b "$MB" "$SB"
F=$T/f
: >"$EXPORT_DIR/$F"
chmod 666 "$EXPORT_DIR/$F"
R=$NFSFUSE_TMP/rel

assert_match "$(status_get "$SA" mode)" '^callback' "A takes NLM callbacks"
assert_match "$(status_get "$SB" mode)" '^poll' "B polls (NLM v4 registered elsewhere)"

# ---- exclusion and F_GETLK (with the holder's range)
lk_exclusion_checks "$MA" "$MB" "$F" "$SA" "$R.1"

# ---- waiting: A (callback mode) waits for B's lock
cb0=$(status_get "$SA" granted_callback)
lk_wait_granted "$MA" "$MB" "$F" "$SA" "$R.2"
# By the server's callback, not by asking again (which would also grant
# it, later): that is what the counter says, whatever the machine's speed.
wait_until 5 counter_gt "$SA" granted_callback "$cb0" ||
	fail "A's grant was not counted as by callback: $(grep -E 'granted|callbacks|polls' "$SA/status" | tr '\n' ' ')"
wait_until 5 held_is "$SA" 1 || fail "A does not list the granted lock: $(cat "$SA/status")"
touch "$R.2w" # the process exits without unlocking: close releases it
wait_until 10 held_is "$SA" 0 || fail "A's lock not released at close: $(grep -v ^lock_ "$SA/status") $(ps -eo pid,args | grep "[l]k.py")"
wait_until 5 try_ok "$MB/$F" 0 0 w || fail "the server still holds A's lock after close"

# ---- waiting: B (no callbacks) polls
p0=$(status_get "$SB" granted_poll)
lk_bg "$NFSFUSE_TMP/holdA2" hold "$MA/$F" 0 0 w "$R.3"
wait_file_has "$NFSFUSE_TMP/holdA2" locked || fail "A did not lock"
lk_bg "$NFSFUSE_TMP/waitB" wait "$MB/$F" 0 0 w "$R.3w"
wait_waiting "$SB" posix || fail "B does not list its F_SETLKW as waiting: $(cat "$NFSFUSE_TMP/waitB")"
assert_eq waiting "$(cat "$NFSFUSE_TMP/waitB")" "B's F_SETLKW blocks while A holds the lock"
touch "$R.3" "$R.3.exit"
wait_file_has "$NFSFUSE_TMP/waitB" granted 10 || fail "B's F_SETLKW not granted: $(cat "$NFSFUSE_TMP/waitB")"
wait_until 5 counter_gt "$SB" granted_poll "$p0" || fail "B's grant not counted as by polling"
assert_eq 0 "$(status_get "$SB" granted_callback)" "B never granted by callback"
touch "$R.3w"

# ---- interrupt: a signal ends A's F_SETLKW with EINTR and a CANCEL
wait_until 10 try_ok "$MB/$F" 0 0 w || fail "B's earlier lock was not released"
c0=$(status_get "$SA" cancels)
lk_bg "$NFSFUSE_TMP/holdB4" hold "$MB/$F" 0 0 w "$R.4"
wait_file_has "$NFSFUSE_TMP/holdB4" locked || fail "B did not lock"
lk_bg "$NFSFUSE_TMP/waitA4" wait "$MA/$F" 0 0 w "$R.4w"
WPID=$LK_PID
# The signal must reach a request the daemon holds waiting.
wait_waiting "$SA" posix || fail "A does not list its F_SETLKW as waiting: $(cat "$NFSFUSE_TMP/waitA4")"
kill -USR1 "$WPID"
wait_file_has "$NFSFUSE_TMP/waitA4" error 5 || fail "the signal did not end F_SETLKW: $(cat "$NFSFUSE_TMP/waitA4")"
assert_eq "error Interrupted system call" "$(tail -n 1 "$NFSFUSE_TMP/waitA4")" "F_SETLKW fails with EINTR"
wait_until 5 counter_gt "$SA" cancels "$c0" || fail "no NLM CANCEL counted"
touch "$R.4" "$R.4.exit"
wait_file_has "$NFSFUSE_TMP/holdB4" unlocked || fail "B did not unlock"
sleep 2 # a stale grant of A's cancelled request would show up by now
assert_eq ok "$(lk try "$MB/$F" 0 0 w)" "the server holds nothing for A's cancelled request"
assert_match "$(lk getlk "$MB/$F" 0 0 w)" "^u " "no lock left on the file"
wait_until 5 held_is "$SA" 0 || fail "A still lists a lock: $(cat "$SA/status")"
touch "$R.4w"

# ---- flock(2): whole-file locks between A and B
lk_bg "$NFSFUSE_TMP/flA" flock "$MA/$F" ex "$R.5"
wait_file_has "$NFSFUSE_TMP/flA" locked || fail "A's flock failed: $(cat "$NFSFUSE_TMP/flA")"
assert_eq "Resource temporarily unavailable" "$(lk flock "$MB/$F" exnb "$R.5")" "B's flock(LOCK_EX|LOCK_NB) conflicts"
assert_eq "Resource temporarily unavailable" "$(lk try "$MB/$F" 0 1 r)" "flock is a whole-file NLM lock (B's fcntl sees it)"
assert_contains "$(cat "$SA/status")" "kind=flock" "A lists a flock lock"
lk_bg "$NFSFUSE_TMP/flB" flock "$MB/$F" ex "$R.6"
wait_waiting "$SB" flock || fail "B does not list its flock as waiting: $(cat "$NFSFUSE_TMP/flB")"
assert_eq "" "$(cat "$NFSFUSE_TMP/flB")" "B's blocking flock waits"
touch "$R.5" # A closes the file: its flock goes with it
wait_file_has "$NFSFUSE_TMP/flB" locked 10 || fail "B's flock not granted after A's close"
touch "$R.6"
wait_until 10 try_ok "$MA/$F" 0 0 w || fail "B's flock not released at close"

# ---- a reboot notice on NLM procedure 16 that did not come from our SM_MON
port=$(status_get "$SA" mode | sed -n 's/^callback (shared NLM port \([0-9]*\) at .*/\1/p')
[[ -n $port ]] || fail "no NLM port in A's mode: $(status_get "$SA" mode)"
r0=$(status_get "$SA" callbacks_rejected)
assert_eq 0 "$(nlm_notify "$LK_ADDR_A" "$port" 77)" "NLM procedure 16 is served (SUCCESS, not PROC_UNAVAIL)"
wait_until 5 counter_gt "$SA" callbacks_rejected "$r0" || fail "a statd notice with a foreign priv was not refused"
assert_eq 0 "$(status_get "$SA" server_reboots)" "a forged notice is not taken as a server reboot"

# ---- the lock manager in nfsfusectl stats: its mode and its counters
st=$("$NFSFUSECTL" "$MA" stats --json)
python3 - "$st" "$(status_get "$SA" cancels)" <<'PY' || fail "lock counters missing from nfsfusectl stats --json: $st"
import json, sys
s = json.loads(sys.argv[1])
flat = {}
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            flat.setdefault(k, v)
            walk(v)
walk(s)
assert str(flat["lock_mode"]).startswith("callback"), flat.get("lock_mode")
assert flat["lock_nlm_version"] == 4, flat.get("lock_nlm_version")
assert flat["lock_granted_callback"] >= 1, flat.get("lock_granted_callback")
assert flat["lock_cancels"] == int(sys.argv[2]), (flat.get("lock_cancels"), sys.argv[2])
PY
assert_match "$("$NFSFUSECTL" "$MA" stats)" "lock_granted_callback +[1-9]" "lock counters in nfsfusectl stats"

# ---- nlm_callback=no: a daemon that could take callbacks polls instead
umount_nfsfuse "$MA"
MC=$(new_mountpoint)
mount_locks_a "$MC" "$SA" nlm_callback=no
assert_match "$(status_get "$SA" mode)" '^poll \(nlm_callback=no\)' "callbacks disabled"
lk_bg "$NFSFUSE_TMP/holdB7" hold "$MB/$F" 0 0 w "$R.7"
wait_file_has "$NFSFUSE_TMP/holdB7" locked || fail "B did not lock"
lk_bg "$NFSFUSE_TMP/waitC" wait "$MC/$F" 0 0 w "$R.7w"
wait_waiting "$SA" posix || fail "C does not list its F_SETLKW as waiting: $(cat "$NFSFUSE_TMP/waitC")"
touch "$R.7" "$R.7.exit"
wait_file_has "$NFSFUSE_TMP/waitC" granted 10 || fail "polling F_SETLKW not granted: $(cat "$NFSFUSE_TMP/waitC")"
wait_until 5 counter_gt "$SA" granted_poll 0 || fail "grant not counted as by polling"
assert_eq 0 "$(status_get "$SA" granted_callback)" "no callback used"
touch "$R.7w"
echo PASS
