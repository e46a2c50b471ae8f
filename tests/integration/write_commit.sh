#!/usr/bin/env bash
# A long write commits ahead of the write-behind bound (cache/wback.c):
# past half of it (32 of 64 MiB), what the server has acknowledged is
# COMMITted while the writer goes on, rather than the writer waiting at
# the bound for its WRITEs and a COMMIT.  Over NFSv3 and NFSv4.1:
#  - a writer that has sent 48 MiB, its file still open and nothing
#    flushed, has had COMMITs go out (at the bound, 64 MiB, none would
#    have yet), and the trace shows them as sent ahead;
#  - the file arrives whole, on the server and through a second mount;
#  - past its first 16 MiB the daemon kept none of it (the kernel's page
#    cache holds it), and read back through the same mount once the
#    kernel has dropped its pages it is whole.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"
need_cmd python3

T=$(make_testdir write_commit)
S=$EXPORT_DIR/$T
SRC=$NFSFUSE_TMP/src
head -c $((48 << 20)) /dev/urandom >"$SRC"

for vers in 3 4.1; do
	M=$(new_mountpoint)
	B=$(new_mountpoint)
	mount_nfsfuse "$M" -o vers=$vers,nolock
	mount_nfsfuse "$B" -o vers=$vers,nolock
	TR=$NFSFUSE_TMP/trace.$vers
	"$NFSFUSECTL" "$M" trace >"$TR" 2>&1 &
	tpid=$!
	on_exit bash -c "kill $tpid 2>/dev/null || true"
	# Subscribed once a call made now shows in it.
	traced() {
		"$NFSFUSECTL" "$M" drop >/dev/null 2>&1
		stat "$M/$T" >/dev/null
		grep -q . "$TR"
	}
	wait_until 30 traced || fail "vers=$vers: nothing in the trace: $(head -c 300 "$TR")"
	c0=$(counter "$M" commits)
	# 1 MiB writes (wsize): each its own WRITE; the file stays open,
	# unflushed, until the COMMITs sent so far are counted.
	python3 - "$SRC" "$M/$T/f$vers" "$NFSFUSE_TMP/written.$vers" "$NFSFUSE_TMP/go.$vers" <<'PY' &
import os, sys, time
src, dst, written, go = sys.argv[1:5]
data = open(src, "rb").read()
fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
for off in range(0, len(data), 1 << 20):
    os.write(fd, data[off:off + (1 << 20)])
open(written, "w").close()
while not os.path.exists(go):
    time.sleep(0.05)
os.close(fd)
PY
	W=$!
	register_pid "$W"
	on_exit touch "$NFSFUSE_TMP/go.$vers"
	wait_until 120 test -e "$NFSFUSE_TMP/written.$vers" || fail "vers=$vers: the writer did not send its 48 MiB"
	# The last COMMIT sent ahead may still be on its way.
	wait_until 10 grep -q 'commit ahead' "$TR" ||
		fail "vers=$vers: no COMMIT sent ahead in the trace: $(grep -c . "$TR") lines"
	ahead=$(($(counter "$M" commits) - c0))
	note "vers=$vers: $ahead COMMIT(s) before close, 48 MiB written"
	((ahead >= 1)) || fail "vers=$vers: no COMMIT before close after 48 MiB (half the bound is 32 MiB)"
	touch "$NFSFUSE_TMP/go.$vers"
	wait "$W" || fail "vers=$vers: the writer failed"
	kill "$tpid" 2>/dev/null || true
	assert_file_eq "$SRC" "$S/f$vers" "vers=$vers: the file on the server"
	assert_file_eq "$SRC" "$B/$T/f$vers" "vers=$vers: the file through a second mount"
	# Past its first 16 MiB, a file written in sequence is not cached
	# by the daemon (the kernel holds those pages): read again once the
	# kernel has let them go, it comes from the server, whole.
	u=$(counter "$M" data_stream_uncached)
	((u >= 32 << 20)) || fail "vers=$vers: only $u bytes of the 48 MiB sequence left uncached"
	if [[ $(id -u) -eq 0 ]]; then
		sync
		echo 1 >/proc/sys/vm/drop_caches
	fi
	r0=$(calls "$M" READ)
	assert_file_eq "$SRC" "$M/$T/f$vers" "vers=$vers: the file read back through its writer's mount"
	note "vers=$vers: $u bytes not cached; reading it back took $(($(calls "$M" READ) - r0)) READs"
	umount_nfsfuse "$M"
	umount_nfsfuse "$B"
done
echo "PASS: write_commit"
