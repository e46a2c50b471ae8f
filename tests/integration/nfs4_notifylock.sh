#!/usr/bin/env bash
# NFSv4.1 CB_NOTIFY_LOCK, through tests/deleg's proxy: the test server
# never sends it, so the proxy does.  Two mounts, A and B, each its own
# connection through the proxy:
#  - A holds a write lock on f; B's F_SETLKW on f waits, and its polls
#    (blocking LOCKs, WRITEW_LT) are denied: the proxy notes B as a waiter;
#  - A unlocks: the proxy sends B CB_NOTIFY_LOCK on B's backchannel, B
#    answers NFS4_OK, its waiting lock polls at once (the trace says so,
#    the counter lock_v4_notified grows) and is granted.
# A notification is a hint: when B's own poll was out at that moment the
# notification finds no wait to wake (or B was granted before it was
# sent), which is no fault; the round is then played again.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/deleg_lib.sh"
. "$(dirname "$0")/locks_lib.sh"
ensure_server
need_nfsfuse
need_cmd python3

dp_stat_gt() { [[ $(dp_stat "$1") -gt $2 ]]; }

locks_of() { "$NFSFUSECTL" "$1" locks; }
waiting_in() { locks_of "$1" | grep "^waiting ino=.* kind=posix " >/dev/null; }
# json_stat MNT KEY: a value of `nfsfusectl stats --json`, at any depth.
json_stat() {
	"$NFSFUSECTL" "$1" stats --json | python3 -c 'import json, sys
flat = {}
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            flat.setdefault(k, v)
            walk(v)
walk(json.load(sys.stdin))
print(flat.get(sys.argv[1], ""))' "$2"
}
# text_stat MNT KEY: the value after KEY in `nfsfusectl stats`.
text_stat() {
	"$NFSFUSECTL" "$1" stats | awk -v k="$2" '{
		for (i = 1; i < NF; i++)
			if ($i == k || $i == k ":") { print $(i + 1); exit }
	}'
}
notify_traced() { grep -c 'CB_NOTIFY_LOCK: ' "$TR" || true; }
notify_traced_gt() { [[ $(notify_traced) -gt $1 ]]; }
replies_caught_up() { [[ $(dp_stat notify_replies) -ge $(dp_stat notifies_sent) ]]; }

T=$(make_testdir nfs4notify)
F=$T/f
: >"$EXPORT_DIR/$F"
chmod 666 "$EXPORT_DIR/$F"
R=$NFSFUSE_TMP/rel

start_delegproxy
A=$(new_mountpoint)
B=$(new_mountpoint)
mount_nfsfuse "$A" -o "vers=4.1,port=$DP_PORT,actimeo=0"
mount_nfsfuse "$B" -o "vers=4.1,port=$DP_PORT,actimeo=0"
wait_until 30 test "$(dp_sessions)" -ge 2 ||
	dp_fail "the proxy did not see a session on each mount's connection"

# B's trace, live before anything is unlocked: a GETATTR of B shows in it.
TR=$(tmpdir_new)/trace
"$NFSFUSECTL" "$B" trace >"$TR" 2>&1 &
tpid=$!
on_exit bash -c "kill $tpid 2>/dev/null || true"
traced_rpc() {
	"$NFSFUSECTL" "$B" drop "$B/$F" >/dev/null 2>&1
	stat "$B/$F" >/dev/null
	grep -q "rpc " "$TR"
}
wait_until 60 traced_rpc || fail "no RPC lines in B's trace: $(head -c 600 "$TR")"

n_before=$(json_stat "$B" lock_v4_notified)
[[ $n_before =~ ^[0-9]+$ ]] || fail "no lock_v4_notified in B's stats --json: '$n_before'"
woken=0
for round in 1 2 3 4; do
	lk_bg "$NFSFUSE_TMP/holdA.$round" hold "$A/$F" 0 0 w "$R.$round"
	wait_file_has "$NFSFUSE_TMP/holdA.$round" locked 60 ||
		dp_fail "A did not get its lock: $(cat "$NFSFUSE_TMP/holdA.$round")"
	b0=$(dp_stat blocked_denied)
	s0=$(dp_stat notifies_sent)
	t0=$(notify_traced)
	lk_bg "$NFSFUSE_TMP/waitB.$round" wait "$B/$F" 0 0 w "$R.$round.w"
	wait_until 60 waiting_in "$B" ||
		fail "B does not list its F_SETLKW as waiting: $(locks_of "$B")"
	# B's first LOCK does not block (WRITE_LT); its polls do (WRITEW_LT).
	wait_until 60 dp_stat_gt blocked_denied "$b0" ||
		dp_fail "the proxy saw no denied blocking LOCK from B"
	BC=$(sed -n 's/^blocked conn=\([0-9]*\) .*/\1/p' "$DP_LOG" | tail -n 1)
	assert_eq waiting "$(cat "$NFSFUSE_TMP/waitB.$round")" "B's F_SETLKW blocks while A holds the lock"

	touch "$R.$round"
	wait_file_has "$NFSFUSE_TMP/holdA.$round" unlocked 60 || fail "A did not unlock"
	wait_file_has "$NFSFUSE_TMP/waitB.$round" granted 90 ||
		dp_fail "B's F_SETLKW not granted after A's unlock: $(cat "$NFSFUSE_TMP/waitB.$round")"
	# A's LOCKU reply reached A only after the proxy acted on it.
	if [[ $(dp_stat notifies_sent) -eq $s0 ]]; then
		note "round $round: B's own poll was granted before the unlock's notification"
	else
		wait_until 60 replies_caught_up ||
			dp_fail "B did not answer the CB_NOTIFY_LOCK"
		wait_until 60 notify_traced_gt "$t0" ||
			dp_fail "B answered the CB_NOTIFY_LOCK but did not trace it: $(tail -n 20 "$TR")"
		line=$(grep 'CB_NOTIFY_LOCK: ' "$TR" | tail -n 1)
		if [[ $line == *"CB_NOTIFY_LOCK: 1 waiting lock(s)"* ]]; then
			woken=1
		else
			note "round $round: the notification found B's poll out: $line"
		fi
	fi
	# Both processes exit, B's close releasing its lock.
	touch "$R.$round.exit" "$R.$round.w"
	wait_until 60 _pid_gone "$LK_PID" || fail "B's lock process did not exit"
	((woken)) && break
done
((woken)) || dp_fail "in $round rounds, no CB_NOTIFY_LOCK found B's lock waiting"

[[ $(dp_stat notifies_sent) -ge 1 ]] || dp_fail "no CB_NOTIFY_LOCK sent"
grep -q "^notify conn=$BC " "$DP_LOG" || dp_fail "no CB_NOTIFY_LOCK on B's connection ($BC)"
grep '^notify conn=' "$DP_LOG" | grep -v "^notify conn=$BC " >/dev/null &&
	dp_fail "a CB_NOTIFY_LOCK went to a connection other than B's ($BC)"
grep -q "^notify-reply conn=$BC status=0\$" "$DP_LOG" ||
	dp_fail "B did not answer a CB_NOTIFY_LOCK with NFS4_OK"
[[ $(dp_stat notify_replies_ok) -ge 1 ]] || dp_fail "no CB_NOTIFY_LOCK answered NFS4_OK"
assert_eq "$(dp_stat notify_replies)" "$(dp_stat notify_replies_ok)" "CB_NOTIFY_LOCK replies that were NFS4_OK"
n_after=$(json_stat "$B" lock_v4_notified)
((n_after > n_before)) || fail "lock_v4_notified on B did not grow in stats --json ($n_before -> $n_after)"
assert_eq "$n_after" "$(text_stat "$B" lock_v4_notified)" "lock_v4_notified in B's stats (text and --json)"
assert_eq 0 "$(json_stat "$A" lock_v4_notified)" "lock_v4_notified on A (which never waited)"
kill "$tpid" 2>/dev/null || true
wait "$tpid" 2>/dev/null || true

umount_nfsfuse "$A"
umount_nfsfuse "$B"
[[ $(dp_stat errors) == 0 ]] || dp_fail "proxy errors: $(dp_stat errors)"
stop_delegproxy
note "proxy: $(grep '^summary' "$DP_LOG" | tail -n 1)"
echo "PASS: a blocked F_SETLKW is notified (CB_NOTIFY_LOCK) when the holder on another client unlocks, polls at once and is granted"
