#!/usr/bin/env bash
# Waits for calls sent ahead end with the mount.  A lister waiting for
# the part of a directory asked for ahead, a reader waiting for a READ
# sent ahead, and a writer's close, fsync, write past the bound or read
# waiting for the WRITEs of bytes the daemon gathered, wait for a call
# the daemon made on its own, not for a call of theirs; on a hard mount
# whose server stopped answering, that call is never answered.  A writer
# killed before it closes its file is waited for too: its exit closes it.  Through a proxy that is then stopped (SIGSTOP:
# the connection stays, nothing answers), the lister or reader is killed
# and the mount unmounted: the daemon must exit (umount_nfsfuse waits for
# it, and shows where its threads wait if it does not).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
ensure_server
need_nfsfuse
need_proxy
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"
need_cmd perl
need_cmd python3

T=$(make_testdir dead_waits)
S=$EXPORT_DIR/$T
mkdir "$S/big"
python3 -c 'import os,sys
for i in range(3000): open(os.path.join(sys.argv[1], "entry-%05d" % i), "w").close()' "$S/big"
head -c $((64 << 20)) /dev/zero >"$S/file"

# [CASE_OPTS=...] [CASE_USR1=1] stuck_case NAME CMD...: mount through a
# proxy (NFSv3 unless CASE_OPTS says otherwise), run CMD (which signals
# readiness by creating $NFSFUSE_TMP/go.NAME, then blocks on the mount),
# stop the proxy, let CMD go on into a wait, kill it (after a SIGUSR1
# with CASE_USR1), unmount.
stuck_case() {
	local name=$1 mnt pid cpid
	shift
	start_proxy "dead-$name"
	mnt=$(new_mountpoint)
	mount_nfsfuse "$mnt" -f -o "${CASE_OPTS:-vers=3,mountport=$MOUNT_PORT,nolock},port=$PROXY_PORT"
	pid=$(daemon_pid "$mnt")
	rm -f "$NFSFUSE_TMP/go.$name" "$NFSFUSE_TMP/stop.$name"
	"$@" "$mnt/$T" "$NFSFUSE_TMP/go.$name" "$NFSFUSE_TMP/stop.$name" &
	cpid=$!
	wait_until 20 test -e "$NFSFUSE_TMP/go.$name" || fail "$name: the workload did not start"
	kill -STOP "$PROXY_PID"
	: >"$NFSFUSE_TMP/stop.$name"
	# Let it reach the wait for the call that will not be answered.
	sleep 1
	# A signal that does not kill first: the kernel interrupts the
	# request once only, so the SIGKILL after it comes with none.
	if [[ -n ${CASE_USR1:-} ]]; then
		kill -USR1 "$cpid"
		sleep 0.5
	fi
	kill -KILL "$cpid" 2>/dev/null || true
	# Killed, it still waits for the daemon's answer to the request it
	# had made (the kernel waits for a request the daemon has).
	wait_until 20 _pid_gone "$cpid" ||
		fail "$name: killed, the workload still waits for the daemon"
	wait "$cpid" 2>/dev/null || true
	umount_nfsfuse "$mnt"
	_pid_gone "$pid" || fail "$name: the daemon outlived the unmount"
	kill -CONT "$PROXY_PID" 2>/dev/null || true
	stop_proxy
}

# A lister: reads the first entries (one part), says go, waits for the
# proxy to stop, then reads on (its next buffer asks the next part ahead,
# and reading past this part waits for it).
lister() {
	exec perl -e 'my ($dir, $go, $stop) = @ARGV;
		opendir(my $d, "$dir/big") or die "$!\n";
		defined(readdir($d)) or die "empty\n";
		open(my $f, ">", $go) or die "$!\n"; close($f);
		sleep 0.1 until -e $stop;
		1 while defined(readdir($d));' "$@"
}

# A reader: reads the first MiB in order (read-ahead opens its window),
# says go, waits for the proxy to stop, then reads on.
reader() {
	exec python3 -c 'import os,sys,time
d, go, stop = sys.argv[1:]
fd = os.open(os.path.join(d, "file"), os.O_RDONLY)
for _ in range(8): os.read(fd, 128 << 10)
open(go, "w").close()
while not os.path.exists(stop): time.sleep(0.1)
while os.read(fd, 128 << 10): pass' "$@"
}

# Writers: the daemon gathers their bytes and sends them later, so what
# waits for the stopped server is a close, an fsync, a write past the
# bound on held bytes (64 MiB), or a read that must not overtake them.
# Each writes a first piece, says go, waits for the proxy to stop, then
# goes on into that wait.
writer() {
	exec python3 -c 'import os,signal,sys,time
how, d, go, stop = sys.argv[1:]
signal.signal(signal.SIGUSR1, lambda *a: None)
fd = os.open(os.path.join(d, "w-" + how), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
os.write(fd, b"x" * 8192)
open(go, "w").close()
while not os.path.exists(stop): time.sleep(0.1)
if how == "exit":
	time.sleep(3600) # killed here: its exit closes the file
elif how == "close":
	os.close(fd)
elif how == "fsync":
	os.write(fd, b"y" * 8192)
	os.fsync(fd)
else:
	piece = b"z" * (1 << 20)
	for _ in range(100): os.write(fd, piece)' "$@"
}
read_behind_write() {
	exec python3 -c 'import os,sys,time
d, go, stop = sys.argv[1:]
fd = os.open(os.path.join(d, "file"), os.O_RDWR)
os.pwrite(fd, b"w" * 8192, 0)
open(go, "w").close()
while not os.path.exists(stop): time.sleep(0.1)
os.pread(fd, 4096, 32 << 20)' "$@"
}

stuck_case lister lister
stuck_case reader reader
stuck_case close writer close
stuck_case fsync writer fsync
stuck_case bound writer bound
stuck_case exit writer exit
CASE_USR1=1 stuck_case fsync-usr1 writer fsync
stuck_case read-behind-write read_behind_write
# NFSv4.1 waits for its WRITEs otherwise (nfs_call_detach()).
CASE_OPTS=vers=4.1 stuck_case close-v41 writer close
CASE_OPTS=vers=4.1 stuck_case bound-v41 writer bound
# Any other signal leaves an fsync waiting for its WRITEs (as on a hard
# mount of the Linux client): a writer whose fsync is stuck on the
# stopped proxy gets SIGUSR1 three times, the proxy goes on, and the
# fsync must then succeed, not fail with EINTR.
signal_case() {
	local mnt pid wpid res=$NFSFUSE_TMP/fsync.result
	start_proxy dead-signal
	mnt=$(new_mountpoint)
	mount_nfsfuse "$mnt" -f -o "vers=3,mountport=$MOUNT_PORT,nolock,port=$PROXY_PORT"
	pid=$(daemon_pid "$mnt")
	rm -f "$NFSFUSE_TMP/go.signal" "$NFSFUSE_TMP/stop.signal" "$res"
	python3 -c 'import ctypes,os,signal,sys,time
d, go, stop, res = sys.argv[1:]
signal.signal(signal.SIGUSR1, lambda *a: None)
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open(os.path.join(d, "w-signal"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
os.write(fd, b"s" * 8192)
open(go, "w").close()
while not os.path.exists(stop): time.sleep(0.1)
rc = libc.fsync(fd)   # not os.fsync: Python would retry an EINTR
open(res, "w").write("%d %d\n" % (rc, ctypes.get_errno()))' \
		"$mnt/$T" "$NFSFUSE_TMP/go.signal" "$NFSFUSE_TMP/stop.signal" "$res" &
	wpid=$!
	wait_until 20 test -e "$NFSFUSE_TMP/go.signal" || fail "signal: the writer did not start"
	kill -STOP "$PROXY_PID"
	: >"$NFSFUSE_TMP/stop.signal"
	sleep 1
	for _ in 1 2 3; do
		kill -USR1 "$wpid"
		sleep 0.3
	done
	kill -CONT "$PROXY_PID"
	wait_until 30 test -s "$res" || fail "signal: the fsync did not end once the server answered"
	wait "$wpid" || true
	[[ $(cat "$res") == "0 0" ]] ||
		fail "signal: fsync after SIGUSR1 gave '$(cat "$res")' (rc errno), not success"
	umount_nfsfuse "$mnt"
	_pid_gone "$pid" || fail "signal: the daemon outlived the unmount"
	stop_proxy
}
signal_case

rm -rf "$S"
echo "PASS: dead_waits"
