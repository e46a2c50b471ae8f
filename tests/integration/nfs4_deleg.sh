#!/usr/bin/env bash
# NFSv4.1 read delegations, through tests/deleg's proxy: the test server
# grants none, so the proxy grants them on OPENs for reading and recalls
# them (CB_RECALL on the holder's backchannel) when another connection
# opens the file for writing.  Two mounts, A and B, each its own
# connection through the proxy:
#  - A reads f: the proxy grants a read delegation, A keeps it;
#  - past acregmax, a stat on A costs no GETATTR (the delegation vouches
#    for the cached attributes), and a reopen no OPEN;
#  - B writes f: the proxy holds B's call and recalls; A answers and
#    gives the delegation back (DELEGRETURN), B's call goes on; A then
#    reads B's bytes;
#  - A writes h, on which it holds one: it gives it back itself first,
#    with no recall;
#  - A unmounted while holding one (on g): it is given back first.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/deleg_lib.sh"
ensure_server
need_nfsfuse
need_cmd python3

T=$(make_testdir nfs4deleg)
S=$EXPORT_DIR/$T
printf 'first\n' >"$S/f"
printf 'gee\n' >"$S/g"
printf 'aitch\n' >"$S/h"

# A recall answered late on a loaded machine must not pass for one never
# answered: the proxy waits 45 s for it, not its default 15.
start_delegproxy --recall-timeout 45
A=$(new_mountpoint)
B=$(new_mountpoint)
# A's file attributes time out after 1 s: only the delegation keeps
# them.  Its directories' do not (their entries time out with them): on
# a slow machine the path walk of the stat below would otherwise ask the
# server about the directories, which no delegation covers.
mount_nfsfuse "$A" -o "vers=4.1,port=$DP_PORT,acregmin=1,acregmax=1,acdirmin=3600,acdirmax=3600"
mount_nfsfuse "$B" -o "vers=4.1,port=$DP_PORT"
wait_until 30 test "$(dp_sessions)" -ge 2 ||
	dp_fail "the proxy did not see a session on each mount's connection"

# A reads f: a read delegation, kept.  The connection it went to is A's.
assert_eq first "$(with_timeout cat "$A/$T/f")" "A reads f"
wait_until 30 dp_stat_is granted 1 || dp_fail "no delegation granted on A's open of f"
AC=$(sed -n 's/^grant conn=\([0-9]*\) .*/\1/p' "$DP_LOG" | head -n 1)
expect_deleg "$A" "$A/$T/f" read "A's delegation on f"
assert_eq 1 "$(counter "$A" deleg_held)" "delegations A holds"
dp_expect returned 0 "A kept its delegation"

# Past acregmax a stat is answered from the cache: the delegation says
# nobody changed f.
g0=$(op_calls "$A" GETATTR)
h0=$(counter "$A" deleg_attr_hits)
sleep 3
stat "$A/$T/f" >/dev/null || fail "stat f on A"
assert_eq "$g0" "$(op_calls "$A" GETATTR)" "GETATTRs for a stat past acregmax with a delegation held"
h1=$(counter "$A" deleg_attr_hits)
((h1 > h0)) || fail "deleg_attr_hits did not grow ($h0 -> $h1)"

# Reopened under the delegation: the open the server holds (kept idle
# after the last close) is reused, with no OPEN, and the data is still
# believed (no READ).
o0=$(op_calls "$A" OPEN)
r0=$(op_calls "$A" READ)
l0=$(counter "$A" deleg_local_opens)
for _ in 1 2 3; do
	assert_eq first "$(with_timeout cat "$A/$T/f")" "A reads f again"
done
assert_eq "$o0" "$(op_calls "$A" OPEN)" "OPENs for three reopens of f under a delegation"
assert_eq "$r0" "$(op_calls "$A" READ)" "READs for three rereads of f under a delegation"
assert_eq $((l0 + 3)) "$(counter "$A" deleg_local_opens)" "opens made locally"

# B writes f: its open for writing is held until A gives f back.
c0=$(op_calls "$A" CLOSE)
printf 'second\n' >"$NFSFUSE_TMP/second"
with_timeout 90 cp "$NFSFUSE_TMP/second" "$B/$T/f" || dp_fail "B's write of f"
wait_until 30 dp_stat_is returned 1 || dp_fail "A did not give its delegation back"
dp_expect recalls_sent 1 "recall sent to A"
dp_expect recall_replies_ok 1 "A answered the CB_RECALL with NFS4_OK"
dp_expect released_on_timeout 0 "held messages let go by the timeout"
[[ $(dp_stat released_on_return) -ge 1 ]] || dp_fail "B's held call was not let go by A's DELEGRETURN"
grep '^hold ' "$DP_LOG" | grep -v "^hold conn=$AC " >/dev/null || dp_fail "no message of B was held"
grep -q "^recall conn=$AC " "$DP_LOG" || dp_fail "the recall did not go to A's connection"
grep -q "^return conn=$AC .* recalled\$" "$DP_LOG" || dp_fail "no DELEGRETURN of the recalled delegation from A"
expect_deleg "$A" "$A/$T/f" none "A's delegation on f after the recall"
# The open A kept idle under it (no descriptor of f is open) is closed.
wait_until 30 test "$(op_calls "$A" CLOSE)" -gt "$c0" ||
	fail "A kept its idle open of f after giving the delegation back"
assert_eq second "$(cat "$S/f")" "f on the server after B's write"
assert_eq second "$(with_timeout cat "$A/$T/f")" "A reads B's bytes"
r=$(counter "$A" deleg_recalled)
((r >= 1)) || fail "deleg_recalled on A is $r"

# A writes a file it holds a delegation on: it gives the delegation back
# itself before its OPEN for writing, and nothing is recalled.
n0=$(dp_stat granted)
r0=$(dp_stat returned)
assert_eq aitch "$(with_timeout cat "$A/$T/h")" "A reads h"
wait_until 30 dp_stat_is granted "$((n0 + 1))" || dp_fail "no delegation granted on h"
expect_deleg "$A" "$A/$T/h" read "A's delegation on h"
with_timeout 60 sh -c 'printf "more\n" >>"$1"' sh "$A/$T/h" || fail "A appends to h"
wait_until 30 dp_stat_is returned "$((r0 + 1))" || dp_fail "A wrote h without giving its delegation back"
dp_expect recalls_sent 1 "recalls (A's own write needs none)"
expect_deleg "$A" "$A/$T/h" none "A's delegation on h after writing it"
assert_eq $'aitch\nmore' "$(cat "$S/h")" "h on the server after A's append"

# A unmounted while it holds a delegation on g: it is given back first.
n0=$(dp_stat granted)
assert_eq gee "$(with_timeout cat "$A/$T/g")" "A reads g"
wait_until 30 dp_stat_is granted "$((n0 + 1))" || dp_fail "no delegation granted on g"
sid=$(grep "^grant conn=$AC " "$DP_LOG" | tail -n 1 | sed 's/.* stateid=//')
expect_deleg "$A" "$A/$T/g" read "A's delegation on g"
umount_nfsfuse "$A"
grep -q "^return conn=$AC .*stateid=$sid" "$DP_LOG" ||
	dp_fail "A was unmounted without giving back its delegation on g ($sid)"
grep -q "^drop conn=$AC " "$DP_LOG" && dp_fail "A's connection closed with a delegation the proxy still counted as held"

umount_nfsfuse "$B"
dp_expect errors 0 "proxy errors"
dp_expect released_on_timeout 0 "held messages let go by the timeout"
stop_delegproxy
note "proxy: $(grep '^summary' "$DP_LOG" | tail -n 1)"
echo "PASS: read delegations granted, kept past acregmax, recalled for B's write and given back, given back before A's own write, and returned at unmount"
