#!/usr/bin/env bash
# Calls the kernel sends without a caller carry the identity of the user
# whose data they are.  The kernel writes mmap'd pages back, and sends the
# last release of a file, as nobody (uid 0, pid 0); the WRITEs, COMMITs and
# the REMOVE of a silly-renamed file that follow must go out as the user
# who opened, wrote or unlinked the file.  On the test server's second
# export, which squashes root, a call sent as uid 0 is refused or lands as
# the anonymous user: the data would be lost (or owned by nobody).
#
# An ordinary user's own mount, and a root mount with allow_other used by
# an ordinary user: a 1 MiB mmap write (with and without msync), a 1 MiB
# write and a short one each closed at once, and a file unlinked while
# open.  On the server every byte is there and the user owns each file; no
# .nfs name is left; tshark sees no WRITE, COMMIT or REMOVE with uid 0.
# Two users writing one file through two opens, each a short write the
# daemon could hold back and send as one: each user's bytes go out under
# that user's own uid.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_root          # the test user, the root mount and the capture
need_cmd python3 tshark dumpcap
# A second user first: ensure_test_user leaves TEST_UID to the last.
TEST_USER=nfsfuse-callerid2
ensure_test_user
UID2=$TEST_UID GID2=$TEST_GID
TEST_USER=nfsfuse-callerid
ensure_test_user

[[ -d $SQUASH_EXPORT ]] || fail "the root-squash export $SQUASH_EXPORT is missing"
T=callerless.$$
S=$SQUASH_EXPORT/$T
rm -rf -- "$S"
mkdir -m 1777 -- "$S"
echo "$S" >>"$_REG/testdirs"

# The writer: its pattern is a function of the seed, so that the server's
# copy can be compared byte for byte.
W=$NFSFUSE_TMP/writer.py
cat >"$W" <<'EOF'
import mmap, os, random, sys

def pattern(seed, size):
    return random.Random(seed).randbytes(size)

mode, path, size, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
data = pattern(seed, size)
if mode == "expect":
    sys.stdout.buffer.write(data)
elif mode in ("mmap-msync", "mmap"):
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    os.ftruncate(fd, size)
    m = mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    m[:] = data
    if mode == "mmap-msync":
        m.flush()
    m.close()
    os.close(fd)
elif mode == "write":
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    assert os.write(fd, data) == size
    os.close(fd)
elif mode == "two-writers":
    # Run by root: two children become the two users (argv 5..8) and
    # write data[:half] and data[half:] through two opens of one file,
    # both opened before either writes, so the second short write comes
    # while the first may still be held back.
    half = size // 2
    ids = [(int(sys.argv[5]), int(sys.argv[6])), (int(sys.argv[7]), int(sys.argv[8]))]
    go = [os.pipe() for _ in range(4)]
    def child(k):
        uid, gid = ids[k]
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
        os.umask(0)
        if k == 1:
            os.read(go[0][0], 1)       # the file exists
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o666)
        if k == 0:
            os.write(go[0][1], b"x")
            os.read(go[1][0], 1)       # both are open
            os.pwrite(fd, data[:half], 0)
            os.write(go[2][1], b"x")
            os.read(go[3][0], 1)       # the second wrote
        else:
            os.write(go[1][1], b"x")
            os.read(go[2][0], 1)       # the first wrote
            os.pwrite(fd, data[half:], half)
            os.write(go[3][1], b"x")
        os.close(fd)
        os._exit(0)
    pids = []
    for k in range(2):
        pid = os.fork()
        if pid == 0:
            try:
                child(k)
            finally:
                os._exit(1)
        pids.append(pid)
    for pid in pids:
        if os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) != 0:
            sys.exit("a writer failed")
elif mode == "unlink-open":
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    os.write(fd, data)
    os.unlink(path)
    os.close(fd)
else:
    sys.exit("unknown mode " + mode)
EOF
chmod 0644 "$W"

MIB=$((1 << 20))
CASES=("mmap-msync $MIB" "mmap $MIB" "write $MIB" "write 1000")

# write_all DIR TAG: the user writes each case's file in DIR (a mount).
write_all() {
	local dir=$1 tag=$2 c mode size
	for c in "${CASES[@]}"; do
		read -r mode size <<<"$c"
		as_user timeout 60 python3 "$W" "$mode" "$dir/$tag-$mode-$size" "$size" "$tag-$mode" ||
			fail "$tag: the user's $mode of $size bytes failed"
	done
	as_user timeout 60 python3 "$W" unlink-open "$dir/$tag-silly" 4096 "$tag-silly" ||
		fail "$tag: the user's write to a file unlinked while open failed"
}

# check_all TAG: on the server, each file is the user's and whole.
check_all() {
	local tag=$1 c mode size f
	for c in "${CASES[@]}"; do
		read -r mode size <<<"$c"
		f=$S/$tag-$mode-$size
		assert_exists "$f" "$tag: $mode"
		assert_eq "$TEST_UID:$TEST_GID" "$(stat_of %u:%g "$f")" "$tag: owner of the $mode file on the server"
		python3 "$W" expect - "$size" "$tag-$mode" >"$NFSFUSE_TMP/expect"
		assert_file_eq "$NFSFUSE_TMP/expect" "$f" "$tag: the server's bytes of the $mode file"
	done
	# The last close REMOVEs the silly name as the user who unlinked it:
	# as nobody it would be refused in the sticky directory.
	local left
	left=$(find "$S" -maxdepth 1 -name ".nfs*" -printf '%f ')
	assert_eq "" "$left" "$tag: silly-renamed files left on the server"
	assert_not_exists "$S/$tag-silly" "$tag: unlinked file"
}

PCAP=$NFSFUSE_TMP/callerless.pcapng
# With rpcbind (port 111) in: capture_start and capture_stop probe
# it to know the capture has begun and that it holds every last packet.
capture_start "$PCAP" "port 2049 or port 111"

# 1. The user's own mount (fusermount3).
MNT=$(new_mountpoint)
chown "$TEST_UID:$TEST_GID" "$MNT"
log=$NFSFUSE_TMP/nfsfuse.user.log
as_user "$NFSFUSE" "$SERVER:$SQUASH_EXPORT" "$MNT" >"$log" 2>&1 || {
	cat "$log" >&2
	fail "the user could not mount the root-squash export"
}
echo "$MNT" >>"$_REG/mounts"
wait_until 10 is_fuse_mount "$MNT" || fail "no mount appeared"
write_all "$MNT/$T" user
as_user fusermount3 -u "$MNT" || fail "the user could not unmount"
sed -i "\\|^$MNT\$|d" "$_REG/mounts"
check_all user

# 2. A root mount with allow_other; the writer is the user.
MNT2=$(new_mountpoint)
NFSFUSE_MOUNT_SRC=$SERVER:$SQUASH_EXPORT mount_nfsfuse "$MNT2" -o allow_other
write_all "$MNT2/$T" other
timeout 60 python3 "$W" two-writers "$MNT2/$T/two" 200 two "$TEST_UID" "$TEST_GID" "$UID2" "$GID2" ||
	fail "two users writing one file failed"
umount_nfsfuse "$MNT2"
check_all other
python3 "$W" expect - 200 two >"$NFSFUSE_TMP/expect"
assert_file_eq "$NFSFUSE_TMP/expect" "$S/two" "the bytes of two users' writes"

capture_stop
# Each WRITE, COMMIT and REMOVE call with the uid it carried.
calls_uids=$(tshark -r "$PCAP" -Y 'rpc.msgtyp == 0 && (nfs.procedure_v3 == 7 || nfs.procedure_v3 == 12 || nfs.procedure_v3 == 21)' \
	-T fields -E occurrence=f -e nfs.procedure_v3 -e rpc.auth.uid 2>/dev/null | sort | uniq -c)
note "calls by procedure and uid: $(tr -s ' \n' ' ' <<<"$calls_uids")"
writes=$(awk '$2 == 7 { n += $1 } END { print n + 0 }' <<<"$calls_uids")
commits=$(awk '$2 == 21 { n += $1 } END { print n + 0 }' <<<"$calls_uids")
removes=$(awk '$2 == 12 { n += $1 } END { print n + 0 }' <<<"$calls_uids")
[[ $writes -gt 0 && $commits -gt 0 && $removes -gt 0 ]] ||
	fail "the capture lacks WRITE ($writes), COMMIT ($commits) or REMOVE ($removes) calls"
as_root=$(awk '$3 == 0 { print }' <<<"$calls_uids")
assert_eq "" "$as_root" "WRITE, COMMIT or REMOVE calls sent as uid 0"
others=$(awk -v u="$TEST_UID" -v u2="$UID2" '$3 != u && !($2 == 7 && $3 == u2) { print }' <<<"$calls_uids")
assert_eq "" "$others" "WRITE, COMMIT or REMOVE calls not sent as the user"
second=$(awk -v u2="$UID2" '$2 == 7 && $3 == u2 { n += $1 } END { print n + 0 }' <<<"$calls_uids")
[[ $second -ge 1 ]] || fail "no WRITE carried the second user's uid $UID2: its bytes went out as another user"
echo "PASS: callerless"
