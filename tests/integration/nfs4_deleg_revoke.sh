#!/usr/bin/env bash
# NFSv4.1 delegations revoked by the server, through tests/deleg's proxy
# started with --revoke: a conflict revokes the delegation instead of
# recalling it.  Two mounts, A and B, each its own connection:
#  - a process on A opens f for reading and keeps it open: the proxy
#    grants A a read delegation;
#  - B appends to f: the proxy revokes A's delegation (no CB_RECALL) and
#    B's write goes on at once;
#  - A's next replies carry SEQ4_STATUS_RECALLABLE_STATE_REVOKED: A gives
#    its delegation back, is answered NFS4ERR_DELEG_REVOKED, frees it
#    (FREE_STATEID), and the flag goes;
#  - A's open stands: the descriptor still reads, and sees B's bytes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/deleg_lib.sh"
ensure_server
need_nfsfuse
need_cmd python3

# The holder: a process on A with f open for reading.  Each "read TAG"
# written to its fifo reads the whole file through that one descriptor
# into $HOLD_OUT.TAG: "data " and the bytes, or "error " and the errno.
HOLD_CTL=$NFSFUSE_TMP/holder.ctl
HOLD_OUT=$NFSFUSE_TMP/holder.out
start_holder() { # PATH
	mkfifo "$HOLD_CTL"
	python3 -c '
import errno, os, sys
path, ctl, out = sys.argv[1:]

def answer(tag, text):
    with open(out + "." + tag + ".tmp", "w") as f:
        f.write(text)
    os.rename(out + "." + tag + ".tmp", out + "." + tag)

def read_all(fd):
    try:
        return "data " + os.pread(fd, 1 << 20, 0).decode(errors="replace")
    except OSError as e:
        return "error " + errno.errorcode.get(e.errno, str(e.errno))

fd = os.open(path, os.O_RDONLY)
answer("open", read_all(fd))
# Read and write: the fifo never reports an end between two commands.
ctl = os.fdopen(os.open(ctl, os.O_RDWR), "r")
while True:
    cmd = ctl.readline().split()
    if not cmd or cmd[0] == "quit":
        break
    if cmd[0] == "read":
        answer(cmd[1], read_all(fd))
' "$1" "$HOLD_CTL" "$HOLD_OUT" </dev/null &
	HOLD_PID=$!
	register_pid "$HOLD_PID"
	on_exit stop_holder
	wait_until 60 test -e "$HOLD_OUT.open" || fail "the holder did not open $1"
}
stop_holder() {
	[[ -n ${HOLD_PID:-} ]] || return 0
	_pid_gone "$HOLD_PID" || echo quit >"$HOLD_CTL"
	wait_until 30 _pid_gone "$HOLD_PID" || kill -KILL "$HOLD_PID" 2>/dev/null || true
	wait "$HOLD_PID" 2>/dev/null || true
	HOLD_PID=
}
# holder_read TAG: what the held descriptor reads now.
holder_read() {
	echo "read $1" >"$HOLD_CTL"
	wait_until 60 test -e "$HOLD_OUT.$1" || fail "the holder did not answer read $1"
	cat "$HOLD_OUT.$1"
}

T=$(make_testdir nfs4revoke)
S=$EXPORT_DIR/$T
printf 'first\n' >"$S/f"
printf 'gee\n' >"$S/g"

start_delegproxy --revoke
A=$(new_mountpoint)
B=$(new_mountpoint)
# A's attributes time out after 1 s, so a stat of g is a call to the
# server each second.
mount_nfsfuse "$A" -o "vers=4.1,port=$DP_PORT,acregmin=1,acregmax=1"
mount_nfsfuse "$B" -o "vers=4.1,port=$DP_PORT"
wait_until 30 test "$(dp_sessions)" -ge 2 ||
	dp_fail "the proxy did not see a session on each mount's connection"

# a. A opens f for reading and keeps it open: a read delegation.
start_holder "$A/$T/f"
assert_eq "data first" "$(cat "$HOLD_OUT.open")" "the holder's first read of f"
wait_until 30 dp_stat_is granted 1 || dp_fail "no delegation granted on A's open of f"
AC=$(sed -n 's/^grant conn=\([0-9]*\) .*/\1/p' "$DP_LOG" | head -n 1)
SID=$(sed -n 's/^grant conn=.* stateid=//p' "$DP_LOG" | head -n 1)
expect_deleg "$A" "$A/$T/f" read "A's delegation on f"

# b. B appends to f: A's delegation is revoked, and B's write is not
# held for it.
with_timeout 90 sh -c 'printf "second\n" >>"$1"' sh "$B/$T/f" || dp_fail "B's append to f"
assert_eq $'first\nsecond' "$(cat "$S/f")" "f on the server after B's append"
wait_until 30 dp_stat_is revoked 1 || dp_fail "A's delegation was not revoked"
grep -q "^revoke conn=$AC .*stateid=$SID " "$DP_LOG" ||
	dp_fail "the revocation was not of A's delegation ($SID on conn $AC)"
dp_expect recalls_sent 0 "recalls (--revoke sends none)"
dp_expect held 0 "messages held for a recall"

# c. A's next calls are answered with the flag: it gives the delegation
# back, is told it is revoked, and frees it.
a_freed() {
	stat "$A/$T/g" >/dev/null
	dp_stat_ge flagged_replies 1 && dp_stat_ge revoked_returns 1 &&
		dp_stat_is freed 1 &&
		[[ $(counter "$A" deleg_revoked) == 1 ]]
}
wait_until 120 a_freed ||
	dp_fail "A did not free its revoked delegation: flagged_replies=$(dp_stat flagged_replies) revoked_returns=$(dp_stat revoked_returns) freed=$(dp_stat freed), A's deleg_revoked=$(counter "$A" deleg_revoked)"
grep -q "^revoked-return conn=$AC stateid=$SID\$" "$DP_LOG" ||
	dp_fail "no DELEGRETURN of $SID from A answered NFS4ERR_DELEG_REVOKED"
grep -q "^free conn=$AC stateid=$SID\$" "$DP_LOG" || dp_fail "no FREE_STATEID of $SID from A"
expect_deleg "$A" "$A/$T/f" none "A's delegation on f after FREE_STATEID"
assert_eq 0 "$(counter "$A" deleg_lost)" "delegations A counted lost"

# d. The open A holds stands: its descriptor reads, not EIO, and reads
# B's bytes once the attributes it has are past (the kernel's size bounds
# a read).  Any error fails at once.
n=0
got=
holder_sees_b() {
	n=$((n + 1))
	got=$(holder_read "r$n")
	[[ $got == error* || $got == $'data first\nsecond' ]]
}
wait_until 60 holder_sees_b || true
[[ $got != error* ]] || dp_fail "the descriptor A kept open on f: $got"
assert_eq $'data first\nsecond' "$got" "what A's open descriptor reads after B's append"
assert_eq $'first\nsecond' "$(with_timeout cat "$A/$T/f")" "A reads f afresh"

# e. Freed: no reply to A is flagged any more.
f0=$(dp_stat flagged_replies)
g0=$(op_calls "$A" GETATTR)
three_getattrs() {
	stat "$A/$T/g" >/dev/null
	[[ $(op_calls "$A" GETATTR) -ge $((g0 + 3)) ]]
}
wait_until 60 three_getattrs || fail "A sent no three GETATTRs for stats of g"
assert_eq $'data first\nsecond' "$(holder_read last)" "the descriptor A kept open on f, at the end"
dp_expect flagged_replies "$f0" "replies flagged after FREE_STATEID"
dp_expect freed 1 "delegations freed"
dp_expect revoked 1 "delegations revoked"

note "A: $(for k in deleg_granted deleg_recalled deleg_returned deleg_revoked deleg_lost; do
	printf '%s %s ' "$k" "$(counter "$A" "$k")"; done)"
stop_holder
umount_nfsfuse "$A"
umount_nfsfuse "$B"
dp_expect errors 0 "proxy errors"
stop_delegproxy
note "proxy: $(grep '^summary' "$DP_LOG" | tail -n 1)"
echo "PASS: a revoked read delegation flagged to its holder, given back (NFS4ERR_DELEG_REVOKED), freed, and the holder's open still reads"
