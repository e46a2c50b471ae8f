#!/usr/bin/env bash
# A name this client found missing, which another client has made a
# symlink since: open(O_CREAT) of it follows the symlink and makes its
# target, as on a local disk.  The kernel believed the name free and sent
# a create, and it takes only a regular file from a create (it failed the
# symlink with EIO).  Over NFSv3 and NFSv4.1.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_cmd python3

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
	sleep 1.5
	assert_fails stat "$A/$T/$D/s"
	ln -s target "$B/$T/$D/s"
	python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_CREAT | os.O_WRONLY, 0o644); os.write(fd, b"via link\n"); os.close(fd)' \
		"$A/$T/$D/s" || fail "NFSv$vers: open(O_CREAT) of a name another client made a symlink"
	assert_file_content "$EXPORT_DIR/$T/$D/target" "via link" "NFSv$vers: the symlink's target, made through it"
	umount_nfsfuse "$A"
	umount_nfsfuse "$B"
done
echo "PASS: open(O_CREAT) of a name another client made a symlink follows it (NFSv3, NFSv4.1)"
