#!/usr/bin/env bash
# Waits for calls sent ahead end with the mount.  A lister waiting for
# the part of a directory asked for ahead, a reader waiting for a READ
# sent ahead, and a writer's close, fsync, write past the bound or read
# waiting for the WRITEs of bytes the daemon gathered, wait for a call
# the daemon made on its own, not for a call of theirs; on a hard mount
# whose server stopped answering, that call is never answered.  A writer
# killed before it closes its file is waited for too: its exit closes it.
# Through a proxy that is then stopped (SIGSTOP: the connection stays,
# nothing answers), the lister or reader is killed and the mount
# unmounted: the daemon must exit (umount_nfsfuse waits for it, and shows
# where its threads wait if it does not).  dead_waits_user.sh runs the
# writers' cases with the daemon and the writer as ordinary users.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
. "$(dirname "$0")/dead_waits_lib.sh"
ensure_server
need_nfsfuse
need_proxy
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"
need_cmd perl
need_cmd python3
need_cmd unshare
need_cmd pgrep

T=$(make_testdir dead_waits)
S=$EXPORT_DIR/$T
mkdir "$S/big"
python3 -c 'import os,sys
for i in range(3000): open(os.path.join(sys.argv[1], "entry-%05d" % i), "w").close()' "$S/big"
head -c $((64 << 20)) /dev/zero >"$S/file"

# A lister: reads the first entries (one part), says go, waits for the
# proxy to stop, then reads on (its next buffer asks the next part ahead,
# and reading past this part waits for it).
lister() {
	exec perl -e 'my ($dir, $go, $stop) = @ARGV;
		$SIG{USR1} = sub {};
		opendir(my $d, "$dir/big") or die "$!\n";
		defined(readdir($d)) or die "empty\n";
		open(my $f, ">", $go) or die "$!\n"; close($f);
		sleep 0.1 until -e $stop;
		1 while defined(readdir($d));' "$@"
}

# A reader: reads the first MiB in order (read-ahead opens its window),
# says go, waits for the proxy to stop, then reads on.
reader() {
	exec python3 -c 'import os,signal,sys,time
d, go, stop = sys.argv[1:]
signal.signal(signal.SIGUSR1, lambda *a: None)
fd = os.open(os.path.join(d, "file"), os.O_RDONLY)
for _ in range(8): os.read(fd, 128 << 10)
open(go, "w").close()
while not os.path.exists(stop): time.sleep(0.1)
while os.read(fd, 128 << 10): pass' "$@"
}

# A read of bytes gathered and not yet sent waits for their WRITE: it
# must not overtake it.
read_behind_write() {
	exec python3 -c 'import os,sys,time
d, go, stop = sys.argv[1:]
fd = os.open(os.path.join(d, "file"), os.O_RDWR)
os.pwrite(fd, b"w" * 8192, 0)
open(go, "w").close()
while not os.path.exists(stop): time.sleep(0.1)
os.pread(fd, 4096, 32 << 20)' "$@"
}

# An opener: looks its file up, says go, waits for the proxy to stop,
# then opens it (over NFSv4.1, an OPEN the server must answer).
opener() {
	exec python3 -c 'import os,signal,sys,time
d, go, stop = sys.argv[1:]
signal.signal(signal.SIGUSR1, lambda *a: None)
os.stat(os.path.join(d, "file"))
open(go, "w").close()
while not os.path.exists(stop): time.sleep(0.1)
os.open(os.path.join(d, "file"), os.O_RDONLY)' "$@"
}

# Two opens of one file by one user: the second waits for the first's
# OPEN (one open-owner: one state change at a time).  Killed, the second
# must not wait on for the first, whose caller (a child that dies with
# it) is still alive.
opener_pair() {
	exec python3 -c 'import ctypes,os,signal,sys,time
d, go, stop = sys.argv[1:]
signal.signal(signal.SIGUSR1, lambda *a: None)
f = os.path.join(d, "file")
os.stat(f)
open(go, "w").close()
while not os.path.exists(stop): time.sleep(0.1)
if os.fork() == 0:
	ctypes.CDLL(None).prctl(1, 9) # PR_SET_PDEATHSIG, SIGKILL
	open(go + ".pids", "w").write("%d\n" % os.getpid())
	os.open(f, os.O_RDONLY)
	os._exit(0)
time.sleep(0.3)
os.open(f, os.O_RDONLY)' "$@"
}

# A locker: opens its file, says go, waits for the proxy to stop, then
# takes a lock (over NFSv4.1, a LOCK the server must answer).
locker() {
	exec python3 -c 'import fcntl,os,signal,sys,time
d, go, stop = sys.argv[1:]
signal.signal(signal.SIGUSR1, lambda *a: None)
fd = os.open(os.path.join(d, os.environ.get("LOCKER_FILE", "file")), os.O_RDWR)
open(go, "w").close()
while not os.path.exists(stop): time.sleep(0.1)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 10, 0)' "$@"
}

CASE_OPTS=vers=4.1 stuck_case open-v41 opener
CASE_OPTS=vers=4.1 stuck_case lock-v41 locker
CASE_OPTS=vers=4.1 stuck_case open-pair-v41 opener_pair
stuck_case lister lister
stuck_case reader reader
# A handled signal first: the wait goes on, and the SIGKILL after it
# comes with no interrupt of its own.
CASE_USR1=1 stuck_case lister-usr1 lister
CASE_USR1=1 stuck_case reader-usr1 reader
stuck_case close writer close
stuck_case fsync writer fsync
stuck_case bound writer bound
stuck_case exit writer exit
CASE_USR1=1 stuck_case fsync-usr1 writer fsync
stuck_case read-behind-write read_behind_write
# NFSv4.1 waits for its WRITEs otherwise (nfs_call_detach()).
CASE_OPTS=vers=4.1 stuck_case close-v41 writer close
CASE_OPTS=vers=4.1 stuck_case bound-v41 writer bound
# A LOCK whose caller died is not given up: once the server answers, the
# lock it granted is released (lock_v4_undone), and another client may
# take it.  A file of its own: the server may yet grant the LOCK of the
# case before, whose client is gone, until that client's lease ends.
undo_case() {
	local m2 lpid=
	_case_begin lock-undo
	m2=$(new_mountpoint)
	mount_nfsfuse "$m2" -o vers=4.1
	: >"$EXPORT_DIR/$T/file-undo"
	LOCKER_FILE=file-undo locker "$CASE_MNT/$T" "$CASE_DIR/go.lock-undo" "$CASE_DIR/stop.lock-undo" &
	lpid=$!
	_case_stall lock-undo
	kill -KILL "$lpid"
	wait_until 20 _pid_gone "$lpid" || fail "lock-undo: killed, the locker still waits"
	wait "$lpid" 2>/dev/null || true
	kill -CONT "$PROXY_PID"
	wait_until 30 eval '[[ $("$NFSFUSECTL" "$CASE_MNT" stats | awk '\''$1 == "lock_v4_undone" { print $2 }'\'') == 1 ]]' ||
		fail "lock-undo: the LOCK granted after its caller died was not undone: $("$NFSFUSECTL" "$CASE_MNT" stats | grep lock_v4_)"
	python3 -c 'import fcntl,os,sys
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 10, 0)' "$m2/$T/file-undo" ||
		fail "lock-undo: another client cannot take the lock the dead caller was granted"
	umount_nfsfuse "$m2"
	_case_end lock-undo
}

# A daemon in a pid namespace made without a /proc of its own (unshare
# -p -f, no --mount-proc) is given its callers' pids in that namespace,
# while /proc/N is the machine's process N (for the namespace's first
# pids, a kernel thread, never dying).  It must not read that: a caller
# there is one it cannot see, whose wait any signal ends.  A writer in
# the namespace is killed in its fsync on a stopped server: it must go.
pidns_case() {
	local mnt pid wpid dir=$NFSFUSE_TMP
	start_proxy dead-pidns
	mnt=$(new_mountpoint)
	echo "$mnt" >>"$_REG/mounts"
	rm -f "$dir/go.pidns" "$dir/stop.pidns"
	export -f writer
	unshare --pid --fork -- bash -c '"$NFSFUSE" "$1" "$2" -f -o "$3" &
		for _ in $(seq 100); do mountpoint -q "$2" && break; sleep 0.1; done
		writer fsync "$2/$4" "$5" "$6" &
		wait' _ "$SERVER:$EXPORT" "$mnt" \
		"vers=3,mountport=$MOUNT_PORT,nolock,port=$PROXY_PORT" "$T" \
		"$dir/go.pidns" "$dir/stop.pidns" >"$dir/pidns.log" 2>&1 &
	register_pid $!
	wait_until 20 test -e "$dir/go.pidns" ||
		fail "pidns: the writer did not start: $(cat "$dir/pidns.log")"
	pid=$(daemon_pid "$mnt")
	wpid=$(pgrep -f -- "$mnt/$T") || fail "pidns: no writer found"
	kill -STOP "$PROXY_PID"
	: >"$dir/stop.pidns"
	sleep 1
	kill -KILL "$wpid"
	wait_until 20 _pid_gone "$wpid" ||
		fail "pidns: killed, the writer still waits for the daemon"
	umount_nfsfuse "$mnt"
	_pid_gone "$pid" || fail "pidns: the daemon outlived the unmount"
	kill -CONT "$PROXY_PID" 2>/dev/null || true
	stop_proxy
}

# A blocked lock polls: a holder on another client (a direct mount)
# keeps the lock, and the waiter's F_SETLKW through the proxy is asked
# again every 2 s at most.  The proxy stops with a poll on the wire: the
# waiter, killed, must still be answered and go.
blocked_case() {
	local m2 hpid wpid p0
	_case_begin blocked
	m2=$(new_mountpoint)
	mount_nfsfuse "$m2" -o vers=4.1
	: >"$EXPORT_DIR/$T/file-blocked"
	python3 -c 'import fcntl,os,sys,time
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.lockf(fd, fcntl.LOCK_EX, 10, 0)
open(sys.argv[2], "w").close()
time.sleep(3600)' "$m2/$T/file-blocked" "$CASE_DIR/held.blocked" &
	hpid=$!
	register_pid "$hpid"
	wait_until 20 test -e "$CASE_DIR/held.blocked" || fail "blocked: no holder"
	python3 -c 'import fcntl,os,sys
fd = os.open(sys.argv[1], os.O_RDWR)
open(sys.argv[2], "w").close()
fcntl.lockf(fd, fcntl.LOCK_EX, 10, 0)' "$CASE_MNT/$T/file-blocked" "$CASE_DIR/go.blocked" &
	wpid=$!
	register_pid "$wpid"
	wait_until 20 eval '[[ $("$NFSFUSECTL" "$CASE_MNT" stats | awk '\''$1 == "lock_waiting" { print $2 }'\'') == 1 ]]' ||
		fail "blocked: the waiter does not wait"
	p0=$("$NFSFUSECTL" "$CASE_MNT" stats | awk '$1 == "lock_v4_polls" { print $2 }')
	kill -STOP "$PROXY_PID"
	# The next poll goes out within 2 s, and stays out.
	wait_until 5 eval '(( $("$NFSFUSECTL" "$CASE_MNT" stats | awk '\''$1 == "lock_v4_polls" { print $2 }'\'') > p0 ))' ||
		fail "blocked: no poll went out"
	sleep 0.5
	kill -KILL "$wpid"
	wait_until 20 _pid_gone "$wpid" ||
		fail "blocked: killed with its poll on the wire, the waiter still waits"
	wait "$wpid" 2>/dev/null || true
	kill "$hpid"
	wait "$hpid" 2>/dev/null || true
	umount_nfsfuse "$m2"
	_case_end blocked
}

signal_case signal
CASE_OP=stat signal_case signal-stat
pidns_case
CASE_OPTS=vers=4.1 signal_case signal-v41
CASE_OPTS=vers=4.1 CASE_OP=stat signal_case signal-stat-v41
CASE_OPTS=vers=4.1 undo_case
CASE_OPTS=vers=4.1 blocked_case

rm -rf "$S"
echo "PASS: dead_waits"
