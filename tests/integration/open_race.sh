#!/usr/bin/env bash
# Opens racing with unlinks and renames over the name on the same mount
# (open_race.py): a file replaced by rename, as editors and package
# managers do, while another process opens and reads it, and one removed
# and made again while another appends to it.  Once open(2) succeeded,
# no read, write, fsync or close may fail and every read sees one whole
# version, over NFSv3 and NFSv4.1; and every file moved aside while open
# (.nfsXXXX) is gone from the server once the last descriptor closed.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_cmd python3
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"
RACE=$NFSFUSE_LIB_DIR/open_race.py
ROUNDS=${OPEN_RACE_ROUNDS:-1000}

T=$(make_testdir open_race)

silly_on_server() { find "$EXPORT_DIR/$T" -name '.nfs*' -printf '%P\n'; }
no_silly() { [[ -z $(silly_on_server) ]]; }

for vers in 3 4.1; do
	MNT=$(new_mountpoint)
	mount_nfsfuse "$MNT" -o "vers=$vers,nolock"
	for mode in replace unlink; do
		D=$MNT/$T/v$vers-$mode
		mkdir "$D"
		out=$(with_timeout 120 python3 "$RACE" "$D" --rounds "$ROUNDS" --mode "$mode") ||
			fail "NFSv$vers, $mode: a file open here failed or read torn: $out"
		note "NFSv$vers: $out"
	done
	waited=$(counter "$MNT" open_after_removal)
	((waited > 0)) || fail "NFSv$vers: no open waited for a removal (open_after_removal 0)"
	moved=$(counter "$MNT" silly_renames)
	((moved > 0)) || fail "NFSv$vers: no open file was moved aside (silly_renames 0)"
	# RELEASE reaches the daemon after close(2) has returned.
	wait_until 10 no_silly ||
		fail "NFSv$vers: moved aside while open, left on the server: $(silly_on_server | head -5)"
	umount_nfsfuse "$MNT"
done
echo "PASS: opens racing with renames over the name and unlinks, NFSv3 and NFSv4.1"
