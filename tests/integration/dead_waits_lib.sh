# shellcheck shell=bash
# Helpers of the tests of waits on a server that stopped answering
# (dead_waits.sh, dead_waits_user.sh).  Source after lib.sh and
# faults_lib.sh, once ensure_server has run and T names the test dir.
#
# Who runs what, when set by the test (arrays of command words; empty:
# root runs it):
#   MOUNT_AS  the daemon (lib.sh's mount_nfsfuse), as user MOUNT_AS_OWNER
#   RUN_AS    the workload (writer, signal_case)
# CASE_DIR is where the workloads' go/stop/result files are made: it must
# be writable by RUN_AS's user (default $NFSFUSE_TMP).

# [CASE_OPTS=...] [CASE_USR1=1] stuck_case NAME CMD...: mount through a
# proxy (NFSv3 unless CASE_OPTS says otherwise), run CMD (which signals
# readiness by creating $CASE_DIR/go.NAME, then blocks on the mount),
# stop the proxy, let CMD go on into a wait, kill it (after a SIGUSR1
# with CASE_USR1), unmount.  Processes of CMD's that die with it write
# their pids to go.NAME.pids; they must be gone too.
stuck_case() {
	local name=$1 cpid p
	shift
	_case_begin "$name"
	"$@" "$CASE_MNT/$T" "$CASE_DIR/go.$name" "$CASE_DIR/stop.$name" &
	cpid=$!
	_case_stall "$name"
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
	# Its other processes, which die with it, name themselves here.
	for p in $(cat "$CASE_DIR/go.$name.pids" 2>/dev/null); do
		wait_until 20 _pid_gone "$p" ||
			fail "$name: process $p of the workload still waits for the daemon"
	done
	_case_end "$name"
}

# _case_begin NAME: a proxy, and a mount through it (CASE_MNT) served by
# daemon CASE_PID.
_case_begin() {
	CASE_DIR=${CASE_DIR:-$NFSFUSE_TMP}
	start_proxy "dead-$1"
	CASE_MNT=$(new_mountpoint)
	_case_mount "$CASE_MNT"
	CASE_PID=$(daemon_pid "$CASE_MNT")
	rm -f "$CASE_DIR/go.$1" "$CASE_DIR/go.$1.pids" "$CASE_DIR/stop.$1"
}

# _case_stall NAME: once the workload says go, stop the proxy (the
# connection stays, nothing answers) and let the workload reach its wait.
_case_stall() {
	wait_until 20 test -e "$CASE_DIR/go.$1" || fail "$1: the workload did not start"
	kill -STOP "$PROXY_PID"
	: >"$CASE_DIR/stop.$1"
	sleep 1
}

# _case_end NAME: unmount (with the proxy still stopped, if it is); the
# daemon must exit.
_case_end() {
	umount_nfsfuse "$CASE_MNT"
	_pid_gone "$CASE_PID" || fail "$1: the daemon outlived the unmount"
	kill -CONT "$PROXY_PID" 2>/dev/null || true
	stop_proxy
}

# _case_mount MNT: mount through the proxy started last, in the
# foreground (the daemon's pid is then the one started), as MOUNT_AS.
_case_mount() {
	local mnt=$1
	local owner=${MOUNT_AS_OWNER:-root}
	[[ -z ${MOUNT_AS[*]:-} ]] || chown "$owner" "$mnt"
	mount_nfsfuse "$mnt" -f -o "${CASE_OPTS:-vers=3,mountport=$MOUNT_PORT,nolock},port=$PROXY_PORT"
	assert_eq "$owner" "$(stat -c %U "/proc/$(daemon_pid "$mnt")")" "the daemon's user"
}

# Writers: the daemon gathers their bytes and sends them later, so what
# waits for the stopped server is a close, an fsync, a write past the
# bound on held bytes (64 MiB), or a read that must not overtake them.
# Each writes a first piece, says go, waits for the proxy to stop, then
# goes on into that wait.
writer() {
	exec ${RUN_AS[@]+"${RUN_AS[@]}"} python3 -c 'import os,signal,sys,time
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

# [CASE_OPTS=...] [CASE_OP=stat] signal_case NAME: any signal but a fatal
# one leaves a call waiting for the server (as on a hard mount of the
# Linux client): a caller whose fsync (of gathered bytes) or stat (of a
# name the kernel has not looked up) is stuck on the stopped proxy gets
# SIGUSR1 three times, the proxy goes on, and the call must then succeed,
# not fail with EINTR.
signal_case() {
	local name=$1 op=${CASE_OP:-fsync} wpid res
	_case_begin "$name"
	res=$CASE_DIR/$op.$name
	rm -f "$res"
	echo there >"$EXPORT_DIR/$T/s-$name"
	${RUN_AS[@]+"${RUN_AS[@]}"} python3 -c 'import ctypes,os,signal,sys,time
op, name, d, go, stop, res = sys.argv[1:]
signal.signal(signal.SIGUSR1, lambda *a: None)
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open(os.path.join(d, "w-" + name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
os.write(fd, b"s" * 8192)
open(go, "w").close()
while not os.path.exists(stop): time.sleep(0.1)
# libc, not os: Python would retry an EINTR
if op == "fsync":
	rc = libc.fsync(fd)
else:
	rc = libc.stat(os.path.join(d, "s-" + name).encode(), ctypes.create_string_buffer(256))
open(res, "w").write("%d %d\n" % (rc, ctypes.get_errno()))' \
		"$op" "$name" "$CASE_MNT/$T" "$CASE_DIR/go.$name" "$CASE_DIR/stop.$name" "$res" &
	wpid=$!
	_case_stall "$name"
	for _ in 1 2 3; do
		kill -USR1 "$wpid"
		sleep 0.3
	done
	kill -CONT "$PROXY_PID"
	wait_until 30 test -s "$res" || fail "$name: the $op did not end once the server answered"
	wait "$wpid" || true
	[[ $(cat "$res") == "0 0" ]] ||
		fail "$name: $op after SIGUSR1 gave '$(cat "$res")' (rc errno), not success"
	_case_end "$name"
}
