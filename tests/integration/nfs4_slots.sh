#!/usr/bin/env bash
# NFSv4.1 with every session slot in use.  Random 4 KiB writes each leave
# as a WRITE of their own, sent without waiting, while the writer holds
# the file's write-back lock; a proxy delays every reply by 20 ms, so
# the writes outrun the server's slots and many wait for one.  Only the
# transport thread gives slots back, running each reply's callback, and
# the WRITE's callback takes that same lock: a writer that waited there
# for a slot wedged the mount for good (the writer unkillable in D
# state, every later call of the mount stuck behind it).  Now such a
# call waits in the session's queue, and the session's own thread sends
# it when a slot comes back.
#
# No wait may hang, every byte must reach the server, and the count of
# queued calls shows the slots did run out.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
ensure_server
need_nfsfuse
need_proxy
need_cmd python3

T=$(make_testdir nfs4_slots)
MNT=$(new_mountpoint)
start_proxy slots --delay-ms 20
mount_nfsfuse "$MNT" -o "vers=4.1,port=$PROXY_PORT"
PID=$(daemon_pid "$MNT")

# Two writers, each its own file: 3000 writes of 4 KiB at seeded random
# places of 16 MiB, each block's bytes naming its writer, its place and
# its turn; then fsync and close.  The expected file is built alongside.
for w in 1 2; do
	python3 - "$MNT/$T/f$w" "$NFSFUSE_TMP/want$w" "$w" <<'PY' 2>"$NFSFUSE_TMP/w$w.err" &
import os, random, sys
path, want, w = sys.argv[1], sys.argv[2], int(sys.argv[3])
size, blocks = 16 << 20, (16 << 20) // 4096
model = bytearray(size)
fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o644)
r = random.Random(w)
end = 0
for turn in range(3000):
    b = r.randrange(blocks)
    data = (b"%d %d %d " % (w, b, turn)).ljust(4096, b".")
    os.pwrite(fd, data, b * 4096)
    model[b * 4096:(b + 1) * 4096] = data
    end = max(end, (b + 1) * 4096)
os.fsync(fd)
os.close(fd)
with open(want, "wb") as f:
    f.write(model[:end])
PY
	echo $! >"$NFSFUSE_TMP/w$w.pid"
done
for w in 1 2; do
	p=$(cat "$NFSFUSE_TMP/w$w.pid")
	rc=0
	# Not a time limit on the work (a few seconds here): a wedged mount
	# never ends it.
	with_timeout 240 tail --pid="$p" -f /dev/null ||
		fail "writer $w still runs after 240 s: the mount is wedged"
	wait "$p" || rc=$?
	assert_eq 0 "$rc" "writer $w ($(tail -n 3 "$NFSFUSE_TMP/w$w.err" | tr '\n' ' '))"
done
assert_alive "$PID" "$MNT"

for w in 1 2; do
	cmp -s "$NFSFUSE_TMP/want$w" "$EXPORT_DIR/$T/f$w" ||
		fail "f$w on the server differs from what was written"
	cmp -s "$NFSFUSE_TMP/want$w" "$MNT/$T/f$w" ||
		fail "f$w read back through the mount differs from what was written"
done
queued=$(cache_stat "$MNT" nfs4_calls_queued)
((queued > 0)) || fail "no call waited for a slot: the test proved nothing"
# The mount still answers at once.
ls -l "$MNT/$T" >/dev/null || fail "the mount no longer answers"
umount_nfsfuse "$MNT"
echo "PASS: nfs4_slots (6000 random writes through 20 ms replies, $queued calls queued for a slot)"
