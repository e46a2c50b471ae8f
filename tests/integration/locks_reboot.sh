#!/usr/bin/env bash
# Server reboot: A holds a lock; the server is restarted and the local
# statd is told (SM_NOTIFY, as sm-notify on the server would send); A's
# statd callback makes it reclaim the lock, and B still gets EAGAIN.
# This restarts the shared test server: run it last.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/locks_lib.sh"
need_locks
need_root

T=$(make_testdir locks_reboot)
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

lk_bg "$NFSFUSE_TMP/holdA" hold "$MA/$F" 0 0 w "$R.1"
wait_file_has "$NFSFUSE_TMP/holdA" locked || fail "A did not lock"
# The statd callback path needs a statd that accepts SM_MON.  The SM_STAT
# fallback would need the server's statd restarted too (its state number is
# what changes), which test-server.sh restart does not do.
wait_until 5 grep -q "lock_server_watch" "$SA/status"
grep -q "lock_server_watch statd" "$SA/status" ||
	{ touch "$R.1" "$R.1.exit"; wait_file_has "$NFSFUSE_TMP/holdA" unlocked; skip "the local rpc.statd refuses SM_MON (answers STAT_FAIL), so no reboot notice can reach A; A watches SM_STAT instead"; }
assert_eq "Resource temporarily unavailable" "$(lk try "$MB/$F" 0 1 w)" "B blocked before the reboot"

"$TEST_SERVER_SH" restart >/dev/null 2>&1 || fail "server restart failed"
# What sm-notify on the rebooted server sends to our statd: SM_NOTIFY for
# the server's name with a new state number.
python3 - <<'PY' || fail "cannot send SM_NOTIFY to the local statd"
import socket, struct, subprocess, random
out = subprocess.run(['rpcinfo', '-p', '127.0.0.1'], capture_output=True, text=True).stdout
port = next(int(l.split()[3]) for l in out.splitlines()[1:] if l.split()[0] == '100024' and l.split()[2] == 'udp')
name = b'127.0.0.1'
pad = lambda b: b + b'\0' * (-len(b) % 4)
xid = random.getrandbits(32)
msg = struct.pack('>IIIIIIIIII', xid, 0, 2, 100024, 1, 6, 0, 0, 0, 0)
msg += struct.pack('>I', len(name)) + pad(name) + struct.pack('>i', 1001 + 2 * random.getrandbits(16))
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(5)
s.sendto(msg, ('127.0.0.1', port))
s.recv(1000)
PY
wait_until 15 counter_gt "$SA" reclaims 0 || fail "A did not reclaim: $(grep -E 'statd|reboots|reclaim' "$SA/status" | tr '\n' ' ')"
assert_eq 1 "$(status_get "$SA" statd_callbacks)" "the reboot was learnt from statd's callback"
assert_eq 0 "$(status_get "$SA" locks_lost)" "no lock lost"
assert_eq "Resource temporarily unavailable" "$(lk try "$MB/$F" 0 1 w)" "B still gets EAGAIN after the reboot"
touch "$R.1" "$R.1.exit"
wait_file_has "$NFSFUSE_TMP/holdA" unlocked || fail "A did not unlock"
wait_until 10 try_ok "$MB/$F" 0 1 w || fail "B cannot lock after A's unlock"
echo PASS
