#!/usr/bin/env bash
# Names another client changed, over NFSv3 and NFSv4.1.
#
# A name renamed away: once a listing from start to end has shown it
# gone, the kernel's entry for it expires (names_expired), so `ls` then
# `stat` of the old name says "No such file", as with the Linux client;
# before, the kernel kept the name until its entry timeout (acdirmin up to
# acdirmax).  The file keeps its inode under its new name.  A name that
# was missing and is there now is found after the same `ls`.
#
# A name this client found missing, which another client has made a
# symlink since: open(O_CREAT) of it follows the symlink and makes its
# target, as on a local disk.  The kernel believed the name free and sent
# a create, and it takes only a regular file from a create (it failed the
# symlink with EIO).
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_cmd python3
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"

T=$(make_testdir foreign_names)

for vers in 3 4.1; do
	A=$(new_mountpoint)
	B=$(new_mountpoint)
	mount_nfsfuse "$A" -o "vers=$vers,hostname=namesA,acdirmin=60,acdirmax=60"
	mount_nfsfuse "$B" -o "vers=$vers,hostname=namesB"
	D=v$vers
	mkdir "$B/$T/$D"
	# A directory changed less than the server's time granularity ago
	# is not believed, nor the names found missing in it kept; past it,
	# they are.
	echo old >"$B/$T/$D/a"
	sleep 1.5
	assert_file_content "$A/$T/$D/a" "old" "NFSv$vers: the file before"
	ino=$(stat -c %i "$A/$T/$D/a")
	assert_fails stat "$A/$T/$D/x"
	mv "$B/$T/$D/a" "$B/$T/$D/b"
	echo new >"$B/$T/$D/x"
	# No change seen yet: the kernel keeps its entry (the directory's
	# attributes are believed for a minute).
	stat "$A/$T/$D/a" >/dev/null ||
		fail "NFSv$vers: the name a was not kept before a listing showed it gone"
	before=$(counter "$A" names_expired)
	listed=$(ls "$A/$T/$D" | tr '\n' ' ')
	assert_eq "b x " "$listed" "NFSv$vers: the listing after another client's changes"
	# The expiry is sent by a thread of its own once the listing ends.
	wait_until 5 eval '(($(counter "$A" names_expired) > before))' ||
		fail "NFSv$vers: names_expired stayed at $before after a listing without a"
	assert_fails stat "$A/$T/$D/a"
	assert_file_content "$A/$T/$D/x" "new" "NFSv$vers: a name found missing before, made elsewhere since"
	assert_file_content "$A/$T/$D/b" "old" "NFSv$vers: the file under its new name"
	assert_eq "$ino" "$(stat -c %i "$A/$T/$D/b")" "NFSv$vers: the inode of the file renamed"
	sleep 1.5
	assert_fails stat "$A/$T/$D/s"
	ln -s target "$B/$T/$D/s"
	python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_CREAT | os.O_WRONLY, 0o644); os.write(fd, b"via link\n"); os.close(fd)' \
		"$A/$T/$D/s" || fail "NFSv$vers: open(O_CREAT) of a name another client made a symlink"
	assert_file_content "$EXPORT_DIR/$T/$D/target" "via link" "NFSv$vers: the symlink's target, made through it"
	umount_nfsfuse "$A"
	umount_nfsfuse "$B"
done
echo "PASS: names another client renamed away expire once a listing shows them gone; open(O_CREAT) of a name another client made a symlink follows it (NFSv3, NFSv4.1)"
