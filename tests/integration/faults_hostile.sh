#!/usr/bin/env bash
# A hostile server: the proxy corrupts 5 % of the replies -- bits flipped
# past the RPC header, cut short, a length made huge, or everything after
# the XID replaced by garbage.  Under each, a workload (reads of known
# files, writes, renames, directory listings) runs; every operation must
# either fail (EIO) or succeed correctly, and the daemon must survive and
# still answer at the end.
#
# "Correctly": a file read back whole is checked against what it holds on
# the server, and a file written whole against the server's copy -- except
# under flip, where a flipped bit in READ data or in attributes cannot be
# told from the truth (NFS has no checksum), so only survival is checked.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
ensure_server
need_nfsfuse
need_proxy
need_cmd python3

T=$(make_testdir faults_hostile)
S=$EXPORT_DIR/$T
mkdir "$S/ref"
for i in $(seq 1 24); do head -c $((i * 37000)) /dev/urandom >"$S/ref/f$i"; done
SRC=$NFSFUSE_TMP/w
head -c $((3 << 20)) /dev/urandom >"$SRC"

for mode in flip truncate enlarge garbage; do
	start_proxy "hostile-$mode" --seed 3 --corrupt-replies 5 --corrupt-mode "$mode"
	MNT=$(new_mountpoint)
	mount_nfsfuse "$MNT" -o "port=$PROXY_PORT,mountport=$MOUNT_PORT,timeo=5,nolock"
	PID=$(daemon_pid "$MNT")
	ok=0 failed=0 wrong=0
	for round in 1 2 3; do
		"$NFSFUSECTL" "$MNT" drop >/dev/null 2>&1 || true
		for i in $(seq 1 24); do
			rc=0
			cmp -s "$MNT/$T/ref/f$i" "$S/ref/f$i" 2>/dev/null || rc=$?
			case $rc in
			0) ok=$((ok + 1)) ;;
			1) # read without an error, yet different (or short)
				wrong=$((wrong + 1))
				[[ $mode == flip ]] ||
					fail "$mode: f$i read back without error but wrong: $(cmp "$MNT/$T/ref/f$i" "$S/ref/f$i" 2>&1)" ;;
			*) failed=$((failed + 1)) ;;
			esac
		done
		d=$MNT/$T/r$round.$mode
		if mkdir "$d" 2>/dev/null && cp "$SRC" "$d/w" 2>/dev/null; then
			cmp -s "$SRC" "$S/r$round.$mode/w" ||
				fail "$mode: cp into the mount succeeded but the server's copy differs"
			ok=$((ok + 1))
			mv "$d/w" "$d/w2" 2>/dev/null || failed=$((failed + 1))
		else
			failed=$((failed + 1))
		fi
		ls -lR "$MNT/$T" >/dev/null 2>&1 || failed=$((failed + 1))
		assert_alive "$PID" "$MNT"
	done
	# Still answering: a few tries, since any one call may be corrupted
	# (each waits out its time-outs; a loaded machine is slow).
	wait_until 60 stat "$MNT/$T/ref/f1" >/dev/null || fail "$mode: the mount no longer answers"
	# One reply in twenty is corrupted and an operation takes a few
	# calls: most operations must still succeed, correctly.  A daemon
	# that failed everything (EIO for all) would otherwise pass.
	total=$((ok + failed + wrong))
	((ok * 2 >= total)) ||
		fail "$mode: only $ok of $total operations succeeded correctly with 5 % of the replies corrupted"
	assert_alive "$PID" "$MNT"
	umount_nfsfuse "$MNT"
	stop_proxy
	c=$(grep -c -v skipped <(grep '^corrupt reply' "$PROXY_LOG") || true)
	((c > 0)) || fail "$mode: the proxy corrupted nothing"
	note "$mode: $c replies corrupted; $ok operations correct, $failed failed with an error, $wrong wrong (flip only)"
done
echo "PASS: the daemon survived corrupted replies in every mode"
