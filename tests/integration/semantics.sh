#!/usr/bin/env bash
# File semantics that NFSv3 leaves to the client to get right, checked
# against the export directory itself (the local disk) as the oracle:
#  - link counts after every order of link, unlink and rename (over an
#    existing name too), through names and through open descriptors (a
#    file unlinked while open shows 0 links, as on a local disk), seen by
#    the mount that made the change and by a second mount looking; a
#    directory removed while open (rmdir, or a rename over it) likewise;
#  - a rename moves the renamed file's ctime, which the mount shows at
#    once although it cached the file's attributes just before (the
#    RENAME reply carries none of the file's);
#  - a time NFSv3 cannot carry is set to the nearest it can;
#  - a write by a non-owner to a setuid/setgid file it may write succeeds
#    and clears the bits on the server (allow_other mount, second user).
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_cmd python3
OPS=$NFSFUSE_LIB_DIR/nlink_ops.py

T=$(make_testdir semantics)
A=$(new_mountpoint)
B=$(new_mountpoint)
mount_nfsfuse "$A" -o hostname=semA
# The looking mount revalidates at every stat: what it shows is what the
# server says, read through a second client's cache.
mount_nfsfuse "$B" -o hostname=semB,noac

# --- link counts ---------------------------------------------------------
mkdir "$EXPORT_DIR/$T/local" "$A/$T/mine" "$A/$T/shared"
python3 "$OPS" "$EXPORT_DIR/$T/local" >"$NFSFUSE_TMP/local.out" ||
	fail "the oracle run on the local disk failed"
with_timeout python3 "$OPS" "$A/$T/mine" >"$NFSFUSE_TMP/mine.out" ||
	fail "the run through the mount failed"
diff -u "$NFSFUSE_TMP/local.out" "$NFSFUSE_TMP/mine.out" >&2 ||
	fail "link counts through the mount differ from the local disk's"
# Every name the runs made is gone, .nfs names included.
assert_eq "" "$(ls -A "$EXPORT_DIR/$T/mine")" "names left behind on the server"
with_timeout python3 "$OPS" "$A/$T/shared" "$B/$T/shared" >"$NFSFUSE_TMP/shared.out" ||
	fail "the run seen through a second mount failed"
diff -u "$NFSFUSE_TMP/local.out" "$NFSFUSE_TMP/shared.out" >&2 ||
	fail "link counts seen by a second mount differ from the local disk's"

# --- ctime after a rename ----------------------------------------------
# The oracle first: the export's own file system moves a renamed file's
# ctime (as ext4, xfs and tmpfs do).
: >"$EXPORT_DIR/$T/oracle"
c0=$(stat_of %z "$EXPORT_DIR/$T/oracle")
sleep 1.1
mv "$EXPORT_DIR/$T/oracle" "$EXPORT_DIR/$T/oracle.moved"
[[ $(stat_of %z "$EXPORT_DIR/$T/oracle.moved") != "$c0" ]] ||
	skip "the export's file system keeps the ctime of a renamed file"
# The same over NFSv4.1, whose RENAME has no attributes of the file
# either.
V4=$(new_mountpoint)
mount_nfsfuse "$V4" -o vers=4.1
declare -A before
for mnt in "$A" "$V4"; do
	v=v3
	[[ $mnt == "$V4" ]] && v=v4.1
	M=$mnt/$T/mv.$v
	mkdir "$M" "$M/sub"
	: >"$M/f"
	mkdir "$M/d"
	ln -s f "$M/s"
	mkfifo "$M/p"
	: >"$M/h"
	ln "$M/h" "$M/h2"
	# Cached by the mount now, believed for seconds to come.
	for n in f d s p h2; do before[$n]=$(stat_of %z "$M/$n"); done
	sleep 1.1
	for n in f d s p h2; do
		# A rename within the directory, and one to another.
		to=$n.moved
		[[ $n == d || $n == p ]] && to=sub/$n.moved
		mv "$M/$n" "$M/$to"
		got=$(stat_of %z "$M/$to")
		assert_ne "${before[$n]}" "$got" "the ctime of $n, renamed, through the $v mount"
		assert_eq "$(stat_of %z "$EXPORT_DIR/$T/mv.$v/$to")" "$got" \
			"the ctime of $n, renamed, through the $v mount, against the server's"
	done
	# The other name of the hard-linked file is the same file.
	assert_eq "$(stat_of %z "$M/h2.moved")" "$(stat_of %z "$M/h")" \
		"the ctime through the other link, $v"
done

# --- times NFSv3 cannot carry -------------------------------------------
# nfstime3 holds 1970 to 2106: a time before goes out as the epoch, one
# after as 2106's last second (the Linux client's bounds for NFSv3), not
# as its low 32 bits (1960 would become 2096).
: >"$A/$T/old"
TZ=UTC touch -m -d "1960-05-04 03:02:01" "$A/$T/old"
TZ=UTC touch -a -d "2200-01-02 03:04:05" "$A/$T/old"
assert_eq "4294967295 0" "$(stat_of '%X %Y' "$EXPORT_DIR/$T/old")" "times out of NFSv3's range, on the server"
assert_eq "4294967295 0" "$(stat_of '%X %Y' "$A/$T/old")" "times out of NFSv3's range, through the mount"

# --- setuid/setgid cleared by a non-owner's write ----------------------
# Root's files, written by another user through an allow_other mount: the
# kernel must not turn the write into a chmod as that user (which the
# server refuses: not the owner), and the server clears the bits.
need_root
TEST_USER=nfsfuse-sem
ensure_test_user
C=$(new_mountpoint)
mount_nfsfuse "$C" -o hostname=semC,allow_other
mkdir "$A/$T/suid"
mkdir "$EXPORT_DIR/$T/suid.local"
# nonowner OP FILE: as the test user, write to FILE or truncate it.
nonowner() {
	as_user timeout 30 python3 -c '
import os, sys
op, path = sys.argv[1:3]
if op == "write":
    fd = os.open(path, os.O_WRONLY)
    os.write(fd, b"written by a non-owner\n")
    os.close(fd)
else:
    os.truncate(path, 3)' "$1" "$2" 2>&1
}
for op in write truncate; do
	for m in 6777 4666 2777 2767; do
		f=$EXPORT_DIR/$T/suid/$op$m l=$EXPORT_DIR/$T/suid.local/$op$m
		echo "some bytes to cut" >"$f"
		echo "some bytes to cut" >"$l"
		chmod "$m" "$f" "$l"
		assert_eq "$m" "$(stat_of %a "$C/$T/suid/$op$m")" "set-up of mode $m, seen through the mount"
		out=$(nonowner $op "$l") || fail "the oracle: a non-owner's $op of a local mode $m file failed: $out"
		want=$(stat_of %a "$l")
		out=$(nonowner $op "$C/$T/suid/$op$m") ||
			fail "a non-owner's $op of a mode $m file failed: $out"
		assert_eq "$(cat "$l")" "$(cat "$f")" "the $op of mode $m reached the server"
		# nfs-ganesha clears the bits at WRITE, not at SETATTR of the
		# size (nor does the kernel's NFS client ask it to): after a
		# truncate the mount shows what the server kept.
		[[ $op == truncate ]] && want=$(stat_of %a "$f")
		assert_eq "$want" "$(stat_of %a "$f")" "mode after a non-owner's $op of mode $m, on the server"
		assert_eq "$want" "$(stat_of %a "$C/$T/suid/$op$m")" "mode after a non-owner's $op of mode $m, through the mount"
	done
done
# The bits were cleared, not kept: the oracle agrees with the rule.
assert_eq 777 "$(stat_of %a "$EXPORT_DIR/$T/suid/write6777")" "setuid and setgid cleared by a write"
# A chmod by a non-owner is still refused: the kernel's request to clear
# the bits is not taken for one.
expect_fail_with "Operation not permitted" as_user chmod 0777 "$C/$T/suid/truncate2767"
# The owner giving the file away clears them too, as on a local disk.
for m in 6777 6755; do
	f=$EXPORT_DIR/$T/suid/chown$m l=$EXPORT_DIR/$T/suid.local/chown$m
	: >"$f"
	: >"$l"
	chmod "$m" "$f" "$l"
	stat "$C/$T/suid/chown$m" >/dev/null
	chown "$TEST_UID" "$l" "$C/$T/suid/chown$m"
	assert_eq "$(stat_of %a "$l")" "$(stat_of %a "$f")" "mode after chown of mode $m, on the server"
	assert_eq "$(stat_of %a "$l")" "$(stat_of %a "$C/$T/suid/chown$m")" "mode after chown of mode $m, through the mount"
done

echo PASS
