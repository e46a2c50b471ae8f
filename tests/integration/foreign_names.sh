#!/usr/bin/env bash
# Names another client changed, once this client has seen the change:
# the kernel's entries for the names in the directory are dropped
# (names_dropped), so that `ls` then `stat` of a name renamed away says
# "No such file", and a name that was missing and is now there is found,
# as with the Linux client; before, the kernel kept both answers until
# their entry timeout (up to acdirmax).  And open(O_CREAT) of a name
# found missing that another client made a symlink follows it.  Over
# NFSv3 and NFSv4.1.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"
need_cmd python3
need_root # drop_caches: the kernel must forget its dentries

T=$(make_testdir foreign_names)

for vers in 3 4.1; do
	A=$(new_mountpoint)
	B=$(new_mountpoint)
	mount_nfsfuse "$A" -o "vers=$vers,hostname=namesA,acdirmin=60,acdirmax=60"
	mount_nfsfuse "$B" -o "vers=$vers,hostname=namesB"
	D=v$vers
	mkdir "$B/$T/$D"
	echo old >"$B/$T/$D/a"
	# A directory changed less than the server's time granularity ago
	# is not believed, nor its names kept; past it, they are.
	sleep 1.5
	forget_dentries
	assert_file_content "$A/$T/$D/a" "old" "NFSv$vers: the file before"
	assert_fails stat "$A/$T/$D/x"
	# The kernel keeps both answers now: without a change seen, a
	# rename elsewhere goes unseen (the entry timeout has not run out).
	mv "$B/$T/$D/a" "$B/$T/$D/b"
	echo new >"$B/$T/$D/x"
	asked=$(($(counter "$A" lookup_hits) + $(counter "$A" lookup_misses)))
	stat "$A/$T/$D/a" >/dev/null ||
		fail "NFSv$vers: the name a was not kept for the directory's attribute timeout"
	assert_eq "$asked" $(($(counter "$A" lookup_hits) + $(counter "$A" lookup_misses))) \
		"NFSv$vers: lookups the daemon answered for a name the kernel should hold"
	before=$(counter "$A" names_dropped)
	# ls reads the directory: its attributes show the change.
	listed=$(ls "$A/$T/$D" | tr '\n' ' ')
	assert_eq "b x " "$listed" "NFSv$vers: the listing after another client's changes"
	assert_fails stat "$A/$T/$D/a"
	assert_file_content "$A/$T/$D/x" "new" "NFSv$vers: a name found missing before, made elsewhere since"
	assert_file_content "$A/$T/$D/b" "old" "NFSv$vers: the file under its new name"
	after=$(counter "$A" names_dropped)
	((after - before >= 2)) ||
		fail "NFSv$vers: names_dropped went from $before to $after, expected 2 more (a and x)"
	# open(O_CREAT) of a name A found missing, which B has made a
	# symlink meanwhile: the symlink is followed and its target made,
	# as on a local disk (the kernel takes only a regular file from a
	# create, and failed it with EIO).
	sleep 1.5
	assert_fails stat "$A/$T/$D/s"
	ln -s target "$B/$T/$D/s"
	python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_CREAT | os.O_WRONLY, 0o644); os.write(fd, b"via link\n"); os.close(fd)' \
		"$A/$T/$D/s" || fail "NFSv$vers: open(O_CREAT) of a name another client made a symlink"
	assert_file_content "$EXPORT_DIR/$T/$D/target" "via link" "NFSv$vers: the symlink's target, made through it"
	umount_nfsfuse "$A"
	umount_nfsfuse "$B"
done
echo "PASS: names another client changed, dropped from the kernel once the change is seen (NFSv3, NFSv4.1)"
