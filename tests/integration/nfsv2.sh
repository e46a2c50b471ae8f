#!/usr/bin/env bash
# NFSv2 (vers=2) against a real server: the test server speaks only NFSv3,
# so tests/v2proxy (nfs2to3proxy) stands in front of it and translates
# NFSv2 and MOUNT v1 into NFSv3 and MOUNT v3.  The checks of basic_ops.sh
# run through it, then what is v2's own: the 32-bit file size limit
# (EFBIG, nothing wraps), "vers absent" falling back to v2, and (as root,
# with tshark) that what goes on the wire is NFSv2 and well formed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/basic_ops_body.sh"
ensure_server
need_nfsfuse

start_v2proxy

PCAP=
if [[ $(id -u) -eq 0 ]] && command -v tshark >/dev/null && command -v dumpcap >/dev/null; then
	PCAP=$(tmpdir_new)/nfsv2.pcapng
	chmod 755 "$(dirname "$PCAP")"
	capture_start "$PCAP" "tcp port $P"
else
	note "not root or no tshark/dumpcap: the wire is not checked"
fi

# ---- everything basic_ops.sh checks, over NFSv2
basic_ops_body "$V2"

# ---- 32-bit sizes and offsets: past 2 GiB - 1 is EFBIG, and nothing wraps
T=$(make_testdir nfsv2)
S=$EXPORT_DIR/$T
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -o "$V2,actimeo=0"
M=$MNT/$T
: >"$M/big"
expect_fail_with "File too large" \
	dd if=/dev/zero of="$M/big" bs=1 seek=$((2 ** 31)) count=1 conv=notrunc status=none
expect_fail_with "File too large" \
	dd if=/dev/zero of="$M/big" bs=1 seek=$((2 ** 31 - 1)) count=1 conv=notrunc status=none
assert_eq 0 "$(stat_of %s "$S/big")" "nothing written after EFBIG (no wrap to offset 0)"
expect_fail_with "File too large" truncate -s $((2 ** 31)) "$M/big"
expect_fail_with "File too large" truncate -s 3G "$M/big"
assert_eq 0 "$(stat_of %s "$S/big")" "size unchanged after refused truncates"
# As vfs_fallocate() answers past a local file system's largest size,
# before it asks whether the file system has fallocate at all.
expect_fail_with "File too large" fallocate -l 3G "$M/big"
# Refused at write(2) itself, as a local file system refuses a write past
# its largest size, and cut short where it crosses it: not taken, gathered
# and lost at the flush, with the error heard only at close.
assert_eq "EFBIG 1 2147483647 ok" "$(python3 - "$M/big" <<'PY'
import errno, os, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
try:
    os.pwrite(fd, b"x", 2 ** 31 - 1)
    out = ["written"]
except OSError as e:
    out = [errno.errorcode[e.errno]]
out.append(str(os.pwrite(fd, b"ab", 2 ** 31 - 2)))
out.append(str(os.fstat(fd).st_size))
try:
    os.fsync(fd)
    os.close(fd)
    out.append("ok")
except OSError as e:
    out.append(errno.errorcode[e.errno])
print(" ".join(out))
PY
)" "a write at 2 GiB - 1 refused, one across it cut short, nothing left to fail"
assert_eq $((2 ** 31 - 1)) "$(stat_of %s "$S/big")" "the short write's byte on the server"
truncate -s 0 "$M/big"
# The last byte that v2 can address is fine.
printf 'Z' | dd of="$M/big" bs=1 seek=$((2 ** 31 - 2)) conv=notrunc status=none
assert_eq $((2 ** 31 - 1)) "$(stat_of %s "$S/big")" "a write ending at 2 GiB - 1"
assert_eq $((2 ** 31 - 1)) "$(stat_of %s "$M/big")" "that size through the mount"
assert_eq Z "$(dd if="$M/big" bs=1 skip=$((2 ** 31 - 2)) count=1 status=none)" "read back at 2 GiB - 2"
assert_eq Z "$(dd if="$S/big" bs=1 skip=$((2 ** 31 - 2)) count=1 status=none)" "the byte on the server"
[[ -z $(dd if="$S/big" bs=4096 count=1 status=none | tr -d '\0') ]] ||
	fail "bytes appeared at the start of the file (an offset wrapped)"
# Bigger than wsize (8 KiB in v2) and not a multiple of it.
head -c 100000 /dev/urandom >"$NFSFUSE_TMP/rand"
cp "$NFSFUSE_TMP/rand" "$M/rand"
assert_file_eq "$NFSFUSE_TMP/rand" "$S/rand" "a 100 kB file written in 8 KiB WRITEs"
assert_file_eq "$NFSFUSE_TMP/rand" "$M/rand" "and read back in 8 KiB READs"
# A directory longer than one READDIR reply.
mkdir "$M/many"
for i in $(seq 1 300); do : >"$S/many/file-with-a-longish-name-$i"; done
assert_eq 300 "$(ls "$M/many" | wc -l)" "300 names over several READDIRs"
rm -rf "$M/many"
umount_nfsfuse "$MNT"

if [[ -n $PCAP ]]; then
	capture_stop
	# The proxy's port is not one tshark knows: decode it as RPC.
	tsh() { tshark -r "$PCAP" -d "tcp.port==$P,rpc" "$@" 2>/dev/null; }
	calls=$(tsh -Y 'rpc.msgtyp == 0' -T fields -e rpc.program -e rpc.programversion | sort | uniq -c)
	note "RPC calls to the proxy (count, program, version):"$'\n'"$calls"
	v2=$(tsh -Y 'rpc.msgtyp == 0 && nfs.procedure_v2' -T fields -e frame.number | wc -l)
	((v2 > 0)) || fail "no NFSv2 call on the wire"
	[[ -z $(tsh -Y 'nfs.procedure_v3 || nfs.procedure_v4' -T fields -e frame.number) ]] ||
		fail "NFSv3/v4 calls went to the proxy on a vers=2 mount"
	# Only the export list for the "missing export" message is asked with
	# MOUNT v3 (EXPORT, 5): the MOUNT client has no v1 EXPORT.
	[[ -z $(tsh -Y 'rpc.msgtyp == 0 && rpc.program == 100005 && rpc.programversion != 1 && rpc.procedure != 5' -T fields -e frame.number) ]] ||
		fail "MOUNT calls other than v1 on a vers=2 mount"
	names=$(tsh -Y 'rpc.msgtyp == 0 && nfs' -T fields -e _ws.col.Info |
		grep -oE 'V2 [A-Z]+ Call' | awk '{ print $2 }' | sort -u | tr '\n' ' ')
	note "NFSv2 calls seen: $names"
	for p in GETATTR SETATTR LOOKUP READLINK READ WRITE CREATE REMOVE RENAME \
		LINK SYMLINK MKDIR RMDIR READDIR STATFS; do
		[[ " $names " == *" $p "* ]] || fail "no NFSv2 $p call on the wire"
	done
	# TCP's own warnings (a segment missed or seen twice under load)
	# are not the proxy's or ours.
	bad=$(tsh -Y "_ws.malformed || (_ws.expert.severity >= \"warning\" && $TCP_OWN_WARNING_FREE && (nfs || mount || rpc))" \
		-T fields -e frame.number -e _ws.col.Info | head -n 5)
	if [[ -n $bad ]]; then
		# Enough to tell the proxy's mistake from a capture's gap.
		first=$(awk 'NR == 1 { print $1 }' <<<"$bad")
		tsh -V -Y "frame.number >= $((first - 2)) && frame.number <= $first" >&2 || true
		tsh -q -z expert >&2 || true
		fail "tshark found malformed or suspicious frames: $bad"
	fi
fi

# ---- vers= absent: the proxy answers PROG_MISMATCH for v3, so v2 it is
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -o "port=$P,mountport=$P,actimeo=0"
T=$(make_testdir nfsv2auto)
echo auto >"$MNT/$T/f"
assert_file_content "$EXPORT_DIR/$T/f" auto "written over the negotiated version"
umount_nfsfuse "$MNT"
grep -q 'prog 100005 v3 proc 1 -> 2' "$PLOG" || fail "the client did not try MOUNT v3 first"
grep -q 'prog 100005 v1 proc 1 -> 0' "$PLOG" || fail "no MOUNT v1 after MOUNT v3 was refused"
# vers=3 asked for explicitly does not fall back.
out=$("$NFSFUSE" -o "vers=3,port=$P,mountport=$P" "$SERVER:$EXPORT" "$(new_mountpoint)" 2>&1) &&
	fail "vers=3 mounted through a v2-only server"
note "vers=3 through the v2 proxy: $out"

echo "PASS: nfsv2"
