#!/usr/bin/env bash
# NFSv4.1 write delegations and CB_GETATTR, through tests/deleg's proxy:
# the test server grants no delegation, so the proxy (with
# --write-delegations) grants a write one to an OPEN for writing that
# wants it, asks its holder for the size when another client asks the
# server (CB_GETATTR), and recalls it when another client opens the file.
# Two mounts, A and B, each its own connection through the proxy:
#  a. A opens f for writing and keeps it open: a write delegation; A
#     writes 100 bytes, which stay in A (write-behind);
#  b. B stats f: its GETATTR is held, A is asked (CB_GETATTR) and tells
#     the size with its 100 bytes, and B sees that size;
#  c. B reads f while A still has it open: the recall makes A write its
#     bytes and only then give the delegation back, so B reads them;
#  d. A writes more and closes: B, opening f again, reads every byte;
#  e. A unmounted while it holds a write delegation (on g): given back.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/deleg_lib.sh"
ensure_server
need_nfsfuse
need_cmd python3
need_cmd cmp

# Known bytes: f's first content, A's 100 bytes, and A's last ones.
ORIG=$NFSFUSE_TMP/orig
FIRST=$NFSFUSE_TMP/first
MORE=$NFSFUSE_TMP/more
python3 - "$ORIG" "$FIRST" "$MORE" <<'EOF'
import sys
for path, n, seed in zip(sys.argv[1:], (4000, 100, 300), (7, 11, 13)):
    with open(path, "wb") as f:
        f.write(bytes((i * seed + seed) % 251 for i in range(n)))
EOF
ORIG_SIZE=4000

T=$(make_testdir nfs4delegw)
S=$EXPORT_DIR/$T
cp "$ORIG" "$S/f"
printf 'gee\n' >"$S/g"

# A recall or CB_GETATTR answered late on a loaded machine must not pass
# for one never answered: 45 s, not the default 15.  Without
# --write-delegations the proxy grants read delegations only.
start_delegproxy --recall-timeout 45 --write-delegations
A=$(new_mountpoint)
B=$(new_mountpoint)
mount_nfsfuse "$A" -o "vers=4.1,port=$DP_PORT"
# B's attributes of f time out after 1 s, so that each stat of B asks the
# server (a GETATTR of f); its names stay believed for an hour (as long
# as their directories' attributes), however slow the machine, so that
# the stat needs no LOOKUP, whose attributes the proxy leaves alone.
mount_nfsfuse "$B" -o "vers=4.1,port=$DP_PORT,acregmin=1,acregmax=1,acdirmin=3600,acdirmax=3600"
wait_until 30 test "$(dp_sessions)" -ge 2 ||
	dp_fail "the proxy did not see a session on each mount's connection"
# B knows f (and its name) before A holds anything.
assert_eq "$ORIG_SIZE" "$(with_timeout stat -c %s -- "$B/$T/f")" "B's first stat of f"

# --- a. A opens f for writing, writes 100 bytes and keeps f open.
# The writer opens f and says so (OPENED), waits for WRITE, writes FIRST
# at the end of the file with one write(2) and says so (WRITTEN), waits
# for GO, writes MORE, closes f and says so (DONE).  A stat on A (as
# `nfsfusectl cache` makes) sends gathered bytes first: the delegation is
# looked at before the bytes are written.
OPENED=$NFSFUSE_TMP/opened
WRITE=$NFSFUSE_TMP/write
WRITTEN=$NFSFUSE_TMP/written
GO=$NFSFUSE_TMP/go
DONE=$NFSFUSE_TMP/done
WRITER=$NFSFUSE_TMP/writer.py
cat >"$WRITER" <<'EOF'
import os, sys, time
path, first, more, opened, write, written, go, done = sys.argv[1:]

def told(name):
    for _ in range(6000):
        if os.path.exists(name):
            return
        time.sleep(0.1)
    sys.exit("never told " + os.path.basename(name))

def put(fd, src):
    data = open(src, "rb").read()
    if os.write(fd, data) != len(data):
        sys.exit("short write of " + src)

fd = os.open(path, os.O_RDWR)
open(opened, "w").close()
told(write)
os.lseek(fd, 0, os.SEEK_END)
put(fd, first)
open(written, "w").close()
told(go)
put(fd, more)
os.close(fd)
open(done, "w").close()
EOF
python3 "$WRITER" "$A/$T/f" "$FIRST" "$MORE" "$OPENED" "$WRITE" "$WRITTEN" \
	"$GO" "$DONE" &
HOLDER=$!
register_pid "$HOLDER"
# Killed before the unmounts when the test fails: its open file would
# keep A busy.
stop_writer() { [[ -e $DONE ]] || kill -KILL "$HOLDER" 2>/dev/null; }
on_exit stop_writer
wait_until 60 test -e "$OPENED" || fail "A's writer did not open f"
wait_until 30 dp_stat_is granted_write 1 ||
	dp_fail "no write delegation granted on A's open of f for writing (granted_write '$(dp_stat granted_write)')"
AC=$(sed -n 's/^grant conn=\([0-9]*\) type=write .*/\1/p' "$DP_LOG" | head -n 1)
[[ -n $AC ]] || dp_fail "no 'grant ... type=write' line in the proxy's log"
expect_deleg "$A" "$A/$T/f" write "A's delegation on f, open for writing"
touch "$WRITE"
wait_until 60 test -e "$WRITTEN" || fail "A's writer did not write its first 100 bytes to f"
# Without this the later checks could not tell a flush at the recall
# from one before it.
assert_eq "$ORIG_SIZE" "$(stat -c %s -- "$S/f")" \
	"f's size on the server while A holds its 100 bytes (write-behind)"

# --- b. B stats f: the proxy asks A, and B's GETATTR reply carries A's size.
WANT_SIZE=$((ORIG_SIZE + 100))
b_stat() { with_timeout 60 stat -c %s -- "$B/$T/f"; }
asked_a() { b_stat >/dev/null && dp_stat_ge cb_getattr_replies 1; }
wait_until 60 asked_a ||
	dp_fail "B's stats of f made no CB_GETATTR to A answered (cb_getattrs_sent '$(dp_stat cb_getattrs_sent)', replies '$(dp_stat cb_getattr_replies)')"
grep -q "^cb-getattr conn=$AC " "$DP_LOG" || dp_fail "the CB_GETATTR did not go to A's connection"
dp_stat_ge cb_getattr_replies_ok 1 || dp_fail "A's answer to CB_GETATTR was not NFS4_OK"
dp_expect cb_getattr_size "$WANT_SIZE" "the size A told in its CB_GETATTR answer (its 100 unsent bytes counted)"
n=$(counter "$A" deleg_cb_getattr)
if ! [[ $n =~ ^[0-9]+$ ]] || ((n < 1)); then
	fail "A's deleg_cb_getattr is '$n', expected >= 1 (CB_GETATTRs A answered)"
fi
got=$(b_stat)
[[ $got == "$WANT_SIZE" ]] ||
	dp_fail "B's stat of f while A holds 100 unsent bytes (the GETATTR reply with A's size) is $got, expected $WANT_SIZE"
grep -q '^patch conn=' "$DP_LOG" || dp_fail "no GETATTR reply of the server was given A's size"
dp_expect returned 0 "delegations given back before any conflict"

# --- c. B reads f while A keeps it open: recalled, A writes, then returns.
r0=$(dp_stat recalls_sent)
with_timeout 120 cat -- "$B/$T/f" >"$NFSFUSE_TMP/b_read" || dp_fail "B's read of f"
cat "$ORIG" "$FIRST" >"$NFSFUSE_TMP/want_c"
cmp -s "$NFSFUSE_TMP/want_c" "$NFSFUSE_TMP/b_read" ||
	dp_fail "B read $(stat -c %s "$NFSFUSE_TMP/b_read") bytes of f, not its $ORIG_SIZE and A's 100: A gave its write delegation back before writing its bytes to the server"
dp_stat_ge recalls_sent $((r0 + 1)) || dp_fail "B's read of f recalled nothing"
grep -q "^recall conn=$AC " "$DP_LOG" || dp_fail "the recall did not go to A's connection"
wait_until 30 dp_stat_ge returned 1 || dp_fail "A did not give its write delegation on f back"
grep -q "^return conn=$AC type=write .* recalled\$" "$DP_LOG" ||
	dp_fail "no DELEGRETURN of the recalled write delegation from A"
dp_expect released_on_timeout 0 "B's messages let go by the recall timeout rather than A's return"
expect_deleg "$A" "$A/$T/f" none "A's delegation on f after the recall"
kill -0 "$HOLDER" 2>/dev/null || fail "A's writer ended before it was told to go on"

# --- d. A writes more and closes: B, opening f again, reads every byte.
touch "$GO"
wait_until 120 test -e "$DONE" || fail "A's writer did not write its last bytes and close f"
wait "$HOLDER" || fail "A's writer failed (status $?)"
cat "$ORIG" "$FIRST" "$MORE" >"$NFSFUSE_TMP/want_d"
cmp -s "$NFSFUSE_TMP/want_d" "$S/f" ||
	fail "f on the server after A closed it: $(stat -c %s "$S/f") bytes, not the $((ORIG_SIZE + 400)) written"
with_timeout 60 cat -- "$B/$T/f" >"$NFSFUSE_TMP/b_read2" || dp_fail "B's second read of f"
cmp -s "$NFSFUSE_TMP/want_d" "$NFSFUSE_TMP/b_read2" ||
	fail "B's read of f after A closed it: $(stat -c %s "$NFSFUSE_TMP/b_read2") bytes, not the $((ORIG_SIZE + 400)) A wrote"

# --- e. A holds a write delegation on g when it is unmounted: given back.
n0=$(dp_stat granted_write)
r0=$(dp_stat returned)
with_timeout 60 sh -c 'printf "more\n" >>"$1"' sh "$A/$T/g" || fail "A appends to g"
wait_until 30 dp_stat_is granted_write "$((n0 + 1))" || dp_fail "no write delegation granted on A's append to g"
sid=$(grep "^grant conn=$AC type=write " "$DP_LOG" | tail -n 1 | sed 's/.* stateid=//')
expect_deleg "$A" "$A/$T/g" write "A's delegation on g after its append"
dp_expect returned "$r0" "delegations given back before A's unmount"
a_stats=""
for k in deleg_granted deleg_held deleg_recalled deleg_returned deleg_cb_getattr; do
	a_stats+=" $k $(counter "$A" "$k")"
done
note "A before its unmount:$a_stats"
umount_nfsfuse "$A"
wait_until 10 dp_stat_is returned "$((r0 + 1))" ||
	dp_fail "A's write delegation on g was not given back at its unmount (returned '$(dp_stat returned)', expected $((r0 + 1)))"
grep -q "^return conn=$AC type=write .*stateid=$sid" "$DP_LOG" ||
	dp_fail "A was unmounted without giving back its write delegation on g ($sid)"
grep -q "^drop conn=$AC " "$DP_LOG" && dp_fail "A's connection closed with a delegation the proxy still counted as held"
assert_eq $'gee\nmore' "$(cat "$S/g")" "g on the server after A's unmount"

umount_nfsfuse "$B"
dp_expect errors 0 "proxy errors"
dp_expect released_on_timeout 0 "held messages let go by the timeout"
dp_expect cb_getattr_timeouts 0 "GETATTRs let go unanswered by the holder"
stop_delegproxy
note "proxy: $(grep '^summary' "$DP_LOG" | tail -n 1)"
echo "PASS: write delegation granted, its holder's size told by CB_GETATTR, its bytes written before its return on recall, every byte seen after close, and returned at unmount"
