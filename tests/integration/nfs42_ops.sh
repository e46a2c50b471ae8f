#!/usr/bin/env bash
# NFSv4.2 operations through ordinary system calls (nfs42_ops.py) on a
# vers=4.2 mount of the test server: lseek SEEK_DATA/SEEK_HOLE gives the
# server's answers for a sparse file (SEEK counted); fallocate grows a
# file that stat shows at once (ALLOCATE), KEEP_SIZE keeps the size, a
# punched hole reads as zeros, also with the written bytes still gathered
# in the daemon (DEALLOCATE); copy_file_range and cp copy the right bytes
# although the server answers COPY with NOTSUPP, and COPY is asked once;
# user.* extended attributes are asked of the server (RFC 8276), which
# keeps none (nfs-ganesha's VFS): EOPNOTSUPP, and asked once.
# Then the same calls on vers=4.1 and vers=3 mounts: the answers of a
# file system without holes, EOPNOTSUPP from fallocate, copies that work,
# and none of these operations on the wire.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_cmd python3

OPS=(python3 "$(dirname "$0")/nfs42_ops.py")
MiB=1048576
T=$(make_testdir nfs42)
S=$EXPORT_DIR/$T
W=$(tmpdir_new)

M=$(new_mountpoint)
# allow_other: a descriptor handed to another user below
mount_nfsfuse "$M" -o vers=4.2,allow_other
D=$M/$T

# ---- SEEK: a file with data at 0 and at 8 MiB, a hole between
dd if=/dev/urandom of="$D/sparse" bs=64k count=1 status=none
dd if=/dev/urandom of="$D/sparse" bs=64k count=1 seek=128 conv=notrunc status=none
size=$(stat_of %s "$S/sparse")
assert_eq $((8 * MiB + 65536)) "$size" "size of the sparse file"
OFFS=(0 4096 65536 $((MiB)) $((8 * MiB - 1)) $((8 * MiB)) $((8 * MiB + 4096))
	$((size - 1)) "$size" $((size + 1)))
want=$("${OPS[@]}" seek "$S/sparse" "${OFFS[@]}")
nohole=$("${OPS[@]}" seek-nohole "$size" "${OFFS[@]}")
# The export's own file system must keep the hole, or nothing is shown.
[[ $want != "$nohole" ]] || fail "the export's file system keeps no holes: $want"
s0=$(op_calls "$M" SEEK)
got=$("${OPS[@]}" seek "$D/sparse" "${OFFS[@]}")
assert_eq "$want" "$got" "SEEK_DATA/SEEK_HOLE over NFSv4.2: the server's answers"
s1=$(op_calls "$M" SEEK)
((s1 - s0 >= 2 * ${#OFFS[@]})) ||
	fail "SEEK sent $((s1 - s0)) times for $((2 * ${#OFFS[@]})) lseeks"
note "SEEK: $((s1 - s0)) for $((2 * ${#OFFS[@]})) lseeks"
# The lseeks carry the stateid of the caller's own open: one OPEN (the
# open's) and one CLOSE (its release) for four lseeks.
o0=$(op_calls "$M" OPEN)
c0=$(op_calls "$M" CLOSE)
out=$("${OPS[@]}" seek "$D/sparse" 0 $((size + 1)))
assert_eq 2 "$(grep -o ENXIO <<<"$out" | wc -l)" "lseeks past the end"
assert_eq 1 $(($(op_calls "$M" OPEN) - o0)) "OPENs for an open and four lseeks"
# Another user's SEEK through a descriptor root opened (that user holds
# no open of the file): an OPEN of its own in the SEEK's COMPOUND, the
# server's answers, and the open CLOSEd also when the SEEK fails (NXIO
# past the end stops the COMPOUND before its CLOSE, which goes alone).
if [[ $(id -u) -eq 0 ]]; then
	TEST_USER=nfsfuse-v42seek
	ensure_test_user
	o0=$(op_calls "$M" OPEN)
	c0=$(op_calls "$M" CLOSE)
	got=$(python3 - "$D/sparse" "$TEST_UID" "$TEST_GID" $((size + 1)) <<'EOF'
import errno, os, sys
def seek(fd, off, whence):
    try:
        return os.lseek(fd, off, whence)
    except OSError as e:
        return errno.errorcode.get(e.errno, e.errno)
fd = os.open(sys.argv[1], os.O_RDONLY)
os.setgroups([])
os.setgid(int(sys.argv[3]))
os.setuid(int(sys.argv[2]))
end = int(sys.argv[4])
print(seek(fd, 0, os.SEEK_HOLE), seek(fd, 65536, os.SEEK_DATA),
      seek(fd, end, os.SEEK_DATA), seek(fd, end, os.SEEK_HOLE))
EOF
	)
	assert_eq "65536 $((8 * MiB)) ENXIO ENXIO" "$got" "SEEK through a descriptor of another user"
	# root's open and its release: 1 OPEN, 1 CLOSE; each SEEK: 1 OPEN,
	# 1 CLOSE in its COMPOUND and, for the 2 past the end, 1 alone.
	assert_eq 5 $(($(op_calls "$M" OPEN) - o0)) "OPENs of root's open and 4 SEEKs of another user"
	# (root's CLOSE follows the release, after the program ended; each
	# look at the counters is a program run, so the wait is by the clock)
	closes=0
	closes_done() { closes=$(($(op_calls "$M" CLOSE) - c0)); ((closes >= 7)); }
	wait_for 60 closes_done || true
	assert_eq 7 "$closes" "CLOSEs for 5 OPENs, 2 SEEKs of them failed"
fi
# Data written and not yet flushed counts: the gathered bytes go first.
python3 - "$D/grow" <<'EOF' >"$W/grow.out"
import errno, os, sys
def seek(fd, whence):
    try:
        return os.lseek(fd, 0, whence)
    except OSError as e:
        return errno.errorcode.get(e.errno, e.errno)
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
os.pwrite(fd, b"x" * 4096, 1 << 20)
print(seek(fd, os.SEEK_DATA), seek(fd, os.SEEK_HOLE))
os.close(fd)
EOF
# The hole runs from 0 to the data at 1 MiB (rounded down to the
# server's block), which SEEK_DATA finds.
read -r d h <"$W/grow.out"
assert_eq $((MiB)) "$d" "SEEK_DATA finds bytes written just before"
assert_eq 0 "$h" "SEEK_HOLE at 0 of a file written only at 1 MiB"

# ---- ALLOCATE: the size grows, stat shows it at once, data kept
head -c 100000 /dev/urandom >"$W/head"
cp "$W/head" "$D/alloc"
stat "$D/alloc" >/dev/null # the attributes now cached, here and in the kernel
a0=$(op_calls "$M" ALLOCATE)
assert_eq ok "$("${OPS[@]}" fallocate "$D/alloc" 0 0 $((20 * MiB)))" "fallocate over NFSv4.2"
assert_eq $((20 * MiB)) "$(stat_of %s "$D/alloc")" "size after fallocate, at once"
assert_eq $((20 * MiB)) "$(stat_of %s "$S/alloc")" "size on the server after fallocate"
assert_eq 1 $(($(op_calls "$M" ALLOCATE) - a0)) "ALLOCATE calls for one fallocate"
cmp -s -n 100000 "$W/head" "$D/alloc" || fail "fallocate changed the bytes it kept"
cmp -s <(tail -c +100001 "$D/alloc") <(head -c $((20 * MiB - 100000)) /dev/zero) ||
	fail "the allocated range does not read as zeros"
# KEEP_SIZE past the end: the size stays
assert_eq ok "$("${OPS[@]}" fallocate "$D/alloc" keep 0 $((40 * MiB)))" "fallocate --keep-size"
assert_eq $((20 * MiB)) "$(stat_of %s "$D/alloc")" "size after fallocate --keep-size"
assert_eq $((20 * MiB)) "$(stat_of %s "$S/alloc")" "size on the server after --keep-size"

# ---- DEALLOCATE: a punched range reads as zeros, also where the daemon
# and the kernel had the bytes cached
head -c $((2 * MiB)) /dev/urandom >"$W/orig"
cp "$W/orig" "$D/punch"
cat "$D/punch" >/dev/null
assert_eq ok "$("${OPS[@]}" fallocate "$D/punch" punch 4096 $((256 * 1024)))" "punch hole"
cp "$W/orig" "$W/punched"
dd if=/dev/zero of="$W/punched" bs=4096 seek=1 count=64 conv=notrunc status=none
assert_file_eq "$W/punched" "$D/punch" "punched file read back over NFSv4.2"
assert_file_eq "$W/punched" "$S/punch" "punched file on the server"
assert_eq $((2 * MiB)) "$(stat_of %s "$D/punch")" "size after punching a hole"
(($(op_calls "$M" DEALLOCATE) >= 1)) || fail "no DEALLOCATE sent"
# Written and punched through one descriptor before any close: the
# written bytes must reach the server before the DEALLOCATE.
assert_eq ok "$("${OPS[@]}" write-punch "$W/wp" 300000 8192 65536)" "local write-punch"
assert_eq ok "$("${OPS[@]}" write-punch "$D/wp" 300000 8192 65536)" "write-punch over NFSv4.2"
assert_file_eq "$W/wp" "$D/wp" "written then punched before close"
assert_file_eq "$W/wp" "$S/wp" "written then punched, on the server"

# ---- COPY: NOTSUPP from this server; the kernel copies, COPY asked once
head -c $((3 * MiB + 12345)) /dev/urandom >"$D/src"
c0=$(op_calls "$M" COPY)
assert_eq $((3 * MiB + 12345)) "$("${OPS[@]}" copy "$D/src" "$D/dst1")" "copy_file_range bytes"
assert_file_eq "$D/src" "$D/dst1" "copy_file_range over NFSv4.2"
assert_file_eq "$D/src" "$S/dst1" "copy_file_range, on the server"
cp --reflink=never "$D/src" "$D/dst2" || fail "cp --reflink=never"
assert_file_eq "$D/src" "$S/dst2" "cp --reflink=never over NFSv4.2"
"${OPS[@]}" copy "$D/src" "$D/dst3" >/dev/null || fail "second copy_file_range"
assert_file_eq "$D/src" "$S/dst3" "second copy_file_range"
assert_eq 1 $(($(op_calls "$M" COPY) - c0)) "COPY calls for three copies (NOTSUPP remembered)"
(($(op_calls "$M" READ_PLUS) == 0)) || fail "READ_PLUS was sent"

# ---- user.* extended attributes.  The test server has none: every call
# answers as a local file system without them, the first one asks.
XA_NONE="set EOPNOTSUPP
create EOPNOTSUPP
get EOPNOTSUPP
get-missing EOPNOTSUPP
list (none)
remove EOPNOTSUPP
security EOPNOTSUPP"
: >"$D/xa"
assert_eq 0 "$(op_calls "$M" SETXATTR)" "SETXATTR before any setxattr"
assert_eq "$XA_NONE" "$("${OPS[@]}" xattr "$D/xa")" "xattrs over NFSv4.2, server without them"
n=0
for op in GETXATTR SETXATTR LISTXATTRS REMOVEXATTR; do
	n=$((n + $(op_calls "$M" $op)))
done
assert_eq 1 "$(op_calls "$M" SETXATTR)" "SETXATTR asked once"
assert_eq 1 "$n" "xattr operations sent: the first alone (NOTSUPP remembered)"
umount_nfsfuse "$M"

# ---- the same on mounts without these operations
for V in 4.1 3; do
	M=$(new_mountpoint)
	mount_nfsfuse "$M" -o "vers=$V"
	D=$M/$T
	got=$("${OPS[@]}" seek "$D/sparse" "${OFFS[@]}")
	assert_eq "$nohole" "$got" "SEEK_DATA/SEEK_HOLE over NFSv$V: a file without holes"
	assert_eq EOPNOTSUPP "$("${OPS[@]}" fallocate "$D/alloc" 0 0 $((30 * MiB)))" \
		"fallocate over NFSv$V"
	assert_eq EOPNOTSUPP "$("${OPS[@]}" fallocate "$D/punch" punch 0 4096)" \
		"punch hole over NFSv$V"
	assert_eq $((20 * MiB)) "$(stat_of %s "$S/alloc")" "size after a refused fallocate"
	assert_file_eq "$W/punched" "$S/punch" "bytes after a refused punch"
	assert_eq $((3 * MiB + 12345)) "$("${OPS[@]}" copy "$D/src" "$D/dst$V")" \
		"copy_file_range over NFSv$V"
	assert_file_eq "$D/src" "$S/dst$V" "copy_file_range over NFSv$V, on the server"
	cp --reflink=never "$D/src" "$D/cp$V" || fail "cp over NFSv$V"
	assert_file_eq "$D/src" "$S/cp$V" "cp --reflink=never over NFSv$V"
	: >"$D/xa$V"
	assert_eq "$XA_NONE" "$("${OPS[@]}" xattr "$D/xa$V")" "xattrs over NFSv$V"
	for op in SEEK ALLOCATE DEALLOCATE COPY GETXATTR SETXATTR LISTXATTRS \
		REMOVEXATTR; do
		assert_eq 0 "$(op_calls "$M" $op)" "$op sent over NFSv$V"
	done
	umount_nfsfuse "$M"
done
echo "PASS: nfs42_ops"
