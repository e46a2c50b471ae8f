#!/usr/bin/env bash
# NFSv4.2 through a proxy that cuts the TCP connection every second while
# four writers create files (and remove, rename, link: the calls that
# must not run twice).  Every cut strands COMPOUNDs that were sent and
# maybe executed; the client sends them again on the new connection with
# the slot and sequence id they had, so the server answers them from its
# reply cache (or runs them, if they never arrived).  No call may fail:
# every file exists exactly once, with its bytes, and the session was
# never lost.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
ensure_server
need_nfsfuse
need_proxy
need_cmd python3

T=$(make_testdir nfs4_cut)
MNT=$(new_mountpoint)
N=200

start_proxy cut4 --seed 7 --cut-every 1 --delay-ms 20
mount_nfsfuse "$MNT" ${NFS4CUT_DEBUG:+-d} -f -o "vers=4.2,port=$PROXY_PORT"
PID=$(daemon_pid "$MNT")

for w in 0 1 2 3; do
	python3 - "$MNT/$T" "$w" "$N" 2>"$NFSFUSE_TMP/w$w.err" <<'PY' &
import os, sys
d, w, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.mkdir(os.path.join(d, "d" + w))
for i in range(n):
    p = os.path.join(d, "d" + w, "f%d" % i)
    fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    os.write(fd, ("%s %d\n" % (w, i)).encode())
    os.close(fd)
    if i % 10 == 9:
        os.rename(p, p + ".r")
        os.link(p + ".r", p)
        os.unlink(p + ".r")
PY
	echo $! >"$NFSFUSE_TMP/w$w.pid"
done
for w in 0 1 2 3; do
	p=$(cat "$NFSFUSE_TMP/w$w.pid")
	rc=0
	with_timeout 300 tail --pid="$p" -f /dev/null || fail "writer $w still runs after 300 s"
	wait "$p" || rc=$?
	assert_eq 0 "$rc" "writer $w under connection cuts ($(tail -n 3 "$NFSFUSE_TMP/w$w.err" | tr '\n' ' '))"
done
cuts=$(proxy_count cut)
assert_alive "$PID" "$MNT"

for w in 0 1 2 3; do
	n=$(find "$EXPORT_DIR/$T/d$w" -type f | wc -l)
	assert_eq "$N" "$n" "files of writer $w on the server"
	for ((i = 0; i < N; i++)); do
		[[ $(cat "$EXPORT_DIR/$T/d$w/f$i") == "$w $i" ]] || fail "d$w/f$i holds '$(cat "$EXPORT_DIR/$T/d$w/f$i")'"
	done
done
((cuts >= 2)) || fail "only $cuts cuts: the test proved nothing"
retrans=$(rpc_stat "$MNT" COMPOUND retrans)
((retrans > 0)) || fail "no COMPOUND was sent again: no cut came while calls were in flight"
rec=$(cache_stat "$MNT" nfs4_recoveries)
assert_eq 0 "$rec" "session recoveries (a cut must not lose the session)"
umount_nfsfuse "$MNT"
stop_proxy
echo "PASS: $((4 * N)) files created across $cuts cuts with $retrans COMPOUNDs sent again, none failed"
