#!/usr/bin/env bash
# NLM locks on NFSv2 (vers=2) mounts, which speak NLM v3 with its 32-bit
# ranges.  The test server has only NFSv3 and NLM v4, so tests/v2proxy
# (nfs2to3proxy) stands in front of it for both: NFSv2 on one port, NLM
# v1/v3 on another (given to the mounts with nlmport=), each NLM v3 call
# made into an NLM v4 call to the server's lock manager.  Callbacks from the
# server would come as v4 to the proxy's address, so the v2 mounts poll
# their blocked locks (nlm_callback=no).
#
# Two v2 mounts are two NLM clients (hostname= v2lockA and v2lockB):
# exclusion, F_GETLK with the holder's range, a blocked F_SETLKW granted
# after the holder unlocks, release at close, ranges past 2 GiB - 1 refused
# with EINVAL (as the Linux NFSv2 client does) and a holder there (from an
# NFSv3 mount) reported clamped; with tshark, that what went to the lock
# manager was NLM v3 and never v4.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/locks_lib.sh"
ensure_server
need_nfsfuse

start_v2proxy --nlm
V2+=",nlm_callback=no"

PCAP=
if [[ $(id -u) -eq 0 ]] && command -v tshark >/dev/null && command -v dumpcap >/dev/null; then
	PCAP=$(tmpdir_new)/nfsv2_locks.pcapng
	chmod 755 "$(dirname "$PCAP")"
	capture_start "$PCAP" "tcp port $NP"
else
	note "not root or no tshark/dumpcap: the NLM version on the wire is not checked"
fi

T=$(make_testdir nfsv2_locks)
MA=$(new_mountpoint)
MB=$(new_mountpoint)
SA=$NFSFUSE_TMP/state-v2a
SB=$NFSFUSE_TMP/state-v2b
mount_nfsfuse "$MA" -f -o "hostname=v2lockA,statedir=$SA,actimeo=0,$V2"
mount_nfsfuse "$MB" -f -o "hostname=v2lockB,statedir=$SB,actimeo=0,$V2"
F=$T/f
: >"$EXPORT_DIR/$F"
chmod 666 "$EXPORT_DIR/$F"
R=$NFSFUSE_TMP/rel

wait_until 5 test -s "$SA/status" || fail "no status file in $SA"
assert_eq 3 "$(status_get "$SA" nlm_version)" "an NFSv2 mount uses NLM v3"
assert_eq 3 "$(status_get "$SB" nlm_version)" "both NFSv2 mounts use NLM v3"
assert_match "$(status_get "$SA" mode)" '^poll \(nlm_callback=no\)' "A polls"

# ---- exclusion and F_GETLK (with the holder's range)
lk_exclusion_checks "$MA" "$MB" "$F" "$SA" "$R.1"

# ---- a blocking F_SETLKW, granted (by polling) after the holder unlocks
p0=$(status_get "$SA" granted_poll)
lk_wait_granted "$MA" "$MB" "$F" "$SA" "$R.2"
wait_until 5 counter_gt "$SA" granted_poll "$p0" ||
	fail "A's grant was not counted as by polling: $(grep -E 'granted|polls' "$SA/status" | tr '\n' ' ')"
wait_until 5 held_is "$SA" 1 || fail "A does not list the granted lock: $(cat "$SA/status")"
assert_eq "Resource temporarily unavailable" "$(lk try "$MB/$F" 5 1 r)" "B is refused A's granted range"

# ---- release at close: A's process exits without unlocking
touch "$R.2w"
wait_until 10 held_is "$SA" 0 || fail "A's lock not released at close: $(grep -v ^lock_ "$SA/status")"
wait_until 5 try_ok "$MB/$F" 0 0 w || fail "the server still holds A's lock after close"

# ---- 32-bit ranges: past 2 GiB - 1 is EINVAL, to end of file is fine
EINVAL="Invalid argument"
assert_eq "$EINVAL" "$(lk try "$MA/$F" $((2 ** 31)) 1 w)" "a lock starting at 2 GiB"
assert_eq "$EINVAL" "$(lk try "$MA/$F" $((2 ** 31)) 0 w)" "a lock from 2 GiB to end of file"
assert_eq "$EINVAL" "$(lk try "$MA/$F" $((2 ** 31 - 1)) 2 w)" "a lock ending past 2 GiB - 1"
assert_eq "$EINVAL" "$(lk try "$MA/$F" 0 $((2 ** 31 + 1)) r)" "a read lock ending past 2 GiB - 1"
assert_eq "$EINVAL" "$(lk try "$MA/$F" $((3 * 2 ** 30)) 10 u)" "an unlock past 2 GiB - 1"
getlk_err=$(with_timeout 30 python3 - "$MA/$F" <<'PY'
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDWR)
try:
    fcntl.fcntl(fd, fcntl.F_GETLK, struct.pack('hhqqi', fcntl.F_WRLCK, 0, 2 ** 31, 10, 0))
    print('ok')
except OSError as e:
    print(os.strerror(e.errno))
PY
)
assert_eq "$EINVAL" "$getlk_err" "F_GETLK past 2 GiB - 1"
assert_eq ok "$(lk try "$MA/$F" $((2 ** 31 - 1)) 1 w)" "a lock on the last byte v2 can address"
assert_eq ok "$(lk try "$MA/$F" $((2 ** 31 - 10)) 0 w)" "a lock from below 2 GiB to end of file"
assert_eq ok "$(lk try "$MA/$F" 0 $((2 ** 31)) w)" "a lock of bytes 0 .. 2 GiB - 1"

# ---- a holder beyond 32 bits (an NFSv3 client's lock) reads back clamped
MC=$(new_mountpoint)
mount_nfsfuse "$MC" -f -o "hostname=v3lockC,statedir=$NFSFUSE_TMP/state-v3c,actimeo=0,nlm_callback=no"
lk_bg "$NFSFUSE_TMP/holdC" hold "$MC/$F" $((3 * 2 ** 30)) 0 w "$R.3"
wait_file_has "$NFSFUSE_TMP/holdC" locked || fail "C (NFSv3) did not lock at 3 GiB: $(cat "$NFSFUSE_TMP/holdC")"
assert_eq "w $((2 ** 31 - 1)) 0" "$(lk getlk "$MA/$F" 0 0 w)" \
	"F_GETLK over NLM v3: a holder at 3 GiB is reported from 2 GiB - 1 to end of file"
assert_eq "Resource temporarily unavailable" "$(lk try "$MA/$F" $((2 ** 31 - 1)) 0 w)" \
	"the NFSv3 holder's lock conflicts with the last 32-bit byte to end of file"
assert_eq ok "$(lk try "$MA/$F" 0 $((2 ** 31)) w)" "and not with anything below 2 GiB"
touch "$R.3" "$R.3.exit"
wait_file_has "$NFSFUSE_TMP/holdC" unlocked || fail "C did not unlock"
umount_nfsfuse "$MC"

umount_nfsfuse "$MA"
umount_nfsfuse "$MB"
grep -q "prog 100021 v3 proc 2 -> 0" "$PLOG" || fail "the proxy saw no NLM v3 LOCK"

if [[ -n $PCAP ]]; then
	capture_stop
	tsh() { tshark -r "$PCAP" -d "tcp.port==$NP,rpc" "$@" 2>/dev/null; }
	calls=$(tsh -Y 'rpc.msgtyp == 0' -T fields -e rpc.program -e rpc.programversion -e rpc.procedure | sort | uniq -c)
	note "RPC calls to the proxy's NLM port (count, program, version, procedure):"$'\n'"$calls"
	v3=$(tsh -Y 'rpc.msgtyp == 0 && rpc.program == 100021 && rpc.programversion == 3' -T fields -e frame.number | wc -l)
	((v3 > 0)) || fail "no NLM v3 call on the wire"
	[[ -z $(tsh -Y 'rpc.msgtyp == 0 && rpc.program == 100021 && rpc.programversion != 3' -T fields -e frame.number) ]] ||
		fail "NLM calls other than v3 from NFSv2 mounts"
	for p in 1 2 4; do # TEST LOCK UNLOCK
		[[ -n $(tsh -Y "rpc.msgtyp == 0 && rpc.program == 100021 && rpc.procedure == $p" -T fields -e frame.number) ]] ||
			fail "no NLM v3 procedure $p on the wire"
	done
	# The NLM dissector reads the v3 arguments: 32-bit offsets and
	# lengths, the 32-byte v2 file handle.
	offs=$(tsh -Y 'rpc.msgtyp == 0 && nlm.procedure_v3 == 2' -T fields -e nlm.lock.l_offset | sort -un | tr '\n' ' ')
	note "NLM v3 LOCK offsets: $offs"
	[[ " $offs " == *" $((2 ** 31 - 1)) "* ]] || fail "no v3 LOCK at offset 2 GiB - 1 on the wire"
	[[ -z $(tsh -Y 'nlm.lock.l_offset64 || nlm.lock.l_len64' -T fields -e frame.number) ]] ||
		fail "64-bit NLM ranges on the wire"
	fhl=$(tsh -Y 'rpc.msgtyp == 0 && nlm.procedure_v3 == 2' -T fields -e nfs.fh.length | sort -u | tr '\n' ' ')
	assert_eq "32 " "$fhl" "the NLM v3 file handle is the 32-byte NFSv2 handle"
	bad=$(tsh -Y "_ws.malformed || (_ws.expert.severity >= \"warning\" && $TCP_OWN_WARNING_FREE && (nlm || rpc))" \
		-T fields -e frame.number -e _ws.col.Info | head -n 5)
	[[ -z $bad ]] || fail "tshark found malformed or suspicious frames: $bad"
fi

echo "PASS: nfsv2_locks"
