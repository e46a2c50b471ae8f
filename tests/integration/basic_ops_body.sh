# shellcheck shell=bash
# The checks of basic_ops.sh, shared with the tests that run them over
# another protocol path (nfsv2.sh: NFSv2 through tests/v2proxy).  Source
# lib.sh and call ensure_server first, then:
#
#   basic_ops_body [OPTIONS]
#
# OPTIONS (comma-separated, may be empty) go first in every -o of the
# nfsfuse command lines, e.g. "vers=2,port=P,mountport=P".  The function
# mounts, checks, and unmounts; it fails the test on the first mismatch.

basic_ops_body() {
local o=${1:+$1,} opts=() T S MNT M out before after f long sb sf mb mf
if [[ -n ${1:-} ]]; then opts=(-o "$1"); fi
T=$(make_testdir basic)
S=$EXPORT_DIR/$T             # the server's view
MNT=$(new_mountpoint)
# allow_other (root only: others need user_allow_other in /etc/fuse.conf)
# lets a second user reach the mount, so that its calls, not the kernel's
# refusal, are what the AUTH_SYS checks below see.
ao=
if [[ $(id -u) -eq 0 ]]; then ao=allow_other,; fi
mount_nfsfuse "$MNT" -o "${o}${ao}actimeo=0"
M=$MNT/$T                    # the client's view

# create + write + read back, both sides
printf 'hello world\n' >"$M/a.txt"
assert_file_content "$S/a.txt" 'hello world' "written through the mount"
assert_file_content "$M/a.txt" 'hello world' "read through the mount"
printf 'from server\n' >"$S/b.txt"
assert_file_content "$M/b.txt" 'from server' "a file made on the server"

# append and overwrite in the middle
printf 'more\n' >>"$M/a.txt"
assert_file_content "$S/a.txt" $'hello world\nmore' "append"
printf 'J' | dd of="$M/a.txt" bs=1 seek=6 conv=notrunc status=none
assert_file_content "$S/a.txt" $'hello Jorld\nmore' "write in the middle"

# mkdir / rmdir / nested
mkdir -p "$M/d1/d2/d3"
assert_dir "$S/d1/d2/d3" "mkdir -p"
rmdir "$M/d1/d2/d3"
assert_not_exists "$S/d1/d2/d3" "rmdir"
expect_fail_with "Directory not empty" rmdir "$M/d1"
expect_fail_with "File exists" mkdir "$M/d1"

# unlink
rm "$M/b.txt"
assert_not_exists "$S/b.txt" "unlink"
expect_fail_with "No such file" cat "$M/b.txt"

# rename: plain, across directories, over an existing file
mv "$M/a.txt" "$M/c.txt"
assert_not_exists "$S/a.txt" "rename source"
assert_file_content "$S/c.txt" $'hello Jorld\nmore' "rename target"
mv "$M/c.txt" "$M/d1/c.txt"
assert_exists "$S/d1/c.txt" "rename across directories"
echo old >"$M/old"
mv "$M/d1/c.txt" "$M/old"
assert_file_content "$S/old" $'hello Jorld\nmore' "rename over a file"
# renameat2 flags other than 0 are refused honestly
if command -v python3 >/dev/null; then
	out=$(python3 - "$M/old" "$M/new" <<'PY' 2>&1 || true
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD = -100
RENAME_NOREPLACE = 1
r = libc.renameat2(AT_FDCWD, sys.argv[1].encode(), AT_FDCWD, sys.argv[2].encode(), RENAME_NOREPLACE)
print(os.strerror(ctypes.get_errno()) if r else "ok")
PY
)
	assert_eq "Invalid argument" "$out" "renameat2(RENAME_NOREPLACE)"
fi

# hard links
ln "$M/old" "$M/hard"
assert_eq 2 "$(stat_of %h "$S/old")" "link count on the server"
assert_eq "$(stat_of %i "$S/old")" "$(stat_of %i "$S/hard")" "same inode on the server"
assert_eq "$(stat_of %i "$M/old")" "$(stat_of %i "$M/hard")" "same inode through the mount"

# symlinks and readlink
ln -s "d1/../old" "$M/sym"
assert_eq "d1/../old" "$(readlink "$S/sym")" "symlink target on the server"
assert_eq "d1/../old" "$(readlink "$M/sym")" "readlink"
assert_file_content "$M/sym" $'hello Jorld\nmore' "follow a symlink"
ln -s "/nonexistent/target" "$S/dangling"
assert_eq "/nonexistent/target" "$(readlink "$M/dangling")" "server-made symlink"

# chmod / chown / truncate / utimes, seen on the server
chmod 640 "$M/old"
assert_eq 640 "$(stat_of %a "$S/old")" "chmod"
if [[ $(id -u) -eq 0 ]]; then
	chown 1234:5678 "$M/old"
	assert_eq "1234:5678" "$(stat_of %u:%g "$S/old")" "chown"
fi
truncate -s 5 "$M/old"
assert_eq 5 "$(stat_of %s "$S/old")" "truncate down"
truncate -s 100000 "$M/old"
assert_eq 100000 "$(stat_of %s "$S/old")" "truncate up"
touch -m -d '2001-02-03 04:05:06 UTC' "$M/old"
assert_eq 981173106 "$(stat_of %Y "$S/old")" "utimes mtime"
touch -a -d '2002-02-03 04:05:06 UTC' "$M/old"
assert_eq 1012709106 "$(stat_of %X "$S/old")" "utimes atime"
assert_eq 981173106 "$(stat_of %Y "$S/old")" "atime alone leaves mtime (UTIME_OMIT)"
before=$(date +%s)
touch "$M/old"
after=$(stat_of %Y "$S/old")
(( after >= before - 2 )) || fail "touch (UTIME_NOW) set mtime $after, before $before"

# attributes through the mount match the server's
for f in old d1 sym; do
	assert_eq "$(stat -c '%s %a %h %u %g %Y' "$S/$f")" \
		"$(stat -c '%s %a %h %u %g %Y' "$M/$f")" "stat of $f"
done

# O_TRUNC open truncates
echo "short" >"$M/old"
assert_file_content "$S/old" "short" "O_TRUNC"

# O_EXCL create fails on an existing name
out=$(python3 -c 'import os,sys
try:
    os.open(sys.argv[1], os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    print("created")
except OSError as e:
    print(e.strerror)' "$M/old")
assert_eq "File exists" "$out" "O_EXCL on an existing file"

# mknod: fifo (every user may), and devices as root
mkfifo "$M/fifo"
assert_eq "fifo" "$(stat_of %F "$S/fifo")" "mkfifo on the server"
assert_eq "fifo" "$(stat_of %F "$M/fifo")" "mkfifo through the mount"
python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" "$M/sock"
assert_eq "socket" "$(stat_of %F "$S/sock")" "socket node"
if [[ $(id -u) -eq 0 ]]; then
	mknod "$M/chr" c 1 3
	assert_eq "character special file 1 3" "$(stat_of '%F %t %T' "$S/chr")" "char device"
	mknod "$M/blk" b 7 0
	assert_eq "block special file 7 0" "$(stat_of '%F %t %T' "$S/blk")" "block device"
	assert_eq "1 3" "$(stat_of '%t %T' "$M/chr")" "rdev through the mount"
fi

# readdir lists what the server has
assert_eq "$(ls -A "$S" | sort)" "$(ls -A "$M" | sort)" "directory listing"
assert_eq "$(cd "$S" && find . | sort)" "$(cd "$M" && find . | sort)" "recursive listing"

# fsync and fsyncdir succeed
python3 - "$M/old" "$M/d1" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND)
os.write(fd, b"x")
os.fsync(fd)
os.fdatasync(fd)
os.close(fd)
fd = os.open(sys.argv[2], os.O_RDONLY | os.O_DIRECTORY)
os.fsync(fd)
os.close(fd)
PY
assert_file_content "$S/old" $'short\nx' "fsync"

# statfs (FSSTAT) agrees with the server's file system
read -r sb sf <<<"$(stat -f -c '%S %b' "$S")"
read -r mb mf <<<"$(stat -f -c '%S %b' "$M")"
assert_eq $(( sb * sf / 1048576 )) $(( mb * mf / 1048576 )) "total size in MiB"

# access (ACCESS), and each caller's own AUTH_SYS identity on its calls
echo secret >"$M/secret"
chmod 000 "$M/secret"
if [[ $(id -u) -eq 0 ]]; then
	ensure_test_user
	as_user sh -c "echo mine >'$M/by_user'" ||
		fail "the second user cannot create a file through the mount"
	assert_eq "$TEST_UID:$TEST_GID" "$(stat_of %u:%g "$S/by_user")" \
		"owner on the server of a file the second user made"
	assert_file_content "$S/by_user" mine "the second user's file"
	assert_eq "$TEST_UID" "$(stat_of %u "$M/by_user")" "its owner through the mount"
	assert_eq "0:0" "$(stat_of %u:%g "$S/secret")" "owner of root's file"
	assert_fails as_user cat "$M/secret"
	assert_fails as_user test -r "$M/secret"
	assert_true test -r "$M/secret"
	rm "$M/by_user"
fi
chmod 600 "$M/secret"

# names too long
long=$(printf 'x%.0s' $(seq 256))
expect_fail_with "File name too long" touch "$M/$long"

# a failure before the mount exists prints one line and exits non-zero
out=$("$NFSFUSE" "${opts[@]}" "$SERVER:/no/such/export" "$(new_mountpoint)" 2>&1) && fail "mount of a missing export succeeded"
assert_contains "$out" "mount failed" "missing export"
assert_eq 1 "$(printf '%s\n' "$out" | wc -l)" "one line for a missing export"
out=$("$NFSFUSE" "${opts[@]}" "$SERVER:$EXPORT" /nonexistent/mnt 2>&1) && fail "mount on a missing mount point succeeded"
assert_contains "$out" "/nonexistent/mnt" "missing mount point"
out=$("$NFSFUSE" -o "${o}timeo=abc" "$SERVER:$EXPORT" "$MNT" 2>&1) && fail "a bad option was accepted"
assert_contains "$out" "timeo" "bad option"
out=$("$NFSFUSE" -o "${o}port=1" "$SERVER:$EXPORT" "$(new_mountpoint)" 2>&1) && fail "mount with nothing on the port succeeded"
assert_contains "$out" "Connection refused" "nothing listening"

umount_nfsfuse "$MNT"
}
