#!/usr/bin/env bash
# Blocked locks hold no thread of the daemon: 64 blocked F_SETLKW and 64
# blocked flock(2) on one mount, while other processes keep open, stat,
# read and write going on the same mount (the daemon serves FUSE with at
# most 16 threads: a daemon that kept one per waiter would serve nothing
# else).  The holder's unlock then returns at once, and every waiter is
# granted in turn.  Over NLM, then over NFSv4.1 (whose waits poll the
# server with LOCK, backing off, instead of waiting for a callback).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/locks_lib.sh"
need_cmd python3
ensure_server

MANY=$NFSFUSE_TMP/many.py
cat >"$MANY" <<'EOF'
# many KIND PATH N OUT: N processes each wait for a lock on PATH (KIND
# posix: F_SETLKW of the whole file; flock: flock(LOCK_EX)); each appends
# "waiting" just before its call and "granted" once it holds the lock,
# then unlocks and exits.
import fcntl, os, struct, sys
kind, path, n, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def say(word):
    fd = os.open(out, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.write(fd, (word + '\n').encode())
    os.close(fd)
kids = []
for _ in range(n):
    pid = os.fork()
    if pid == 0:
        fd = os.open(path, os.O_RDWR)
        say('waiting')
        if kind == 'posix':
            fcntl.fcntl(fd, fcntl.F_SETLKW, struct.pack('hhqqi', fcntl.F_WRLCK, 0, 0, 0, 0))
        else:
            fcntl.flock(fd, fcntl.LOCK_EX)
        say('granted')
        os._exit(0)  # the close releases the lock
    kids.append(pid)
bad = 0
for pid in kids:
    _, st = os.waitpid(pid, 0)
    bad += st != 0
sys.exit(1 if bad else 0)
EOF

# The daemon counts the locks that wait (nfsfusectl locks).
nwaiting() { "$NFSFUSECTL" "$M" locks 2>/dev/null | grep -c '^waiting ino=' || true; }
waiting_is() { [[ $(nwaiting) -eq $1 ]]; }

# run_case NAME MOUNT-OPTIONS N MAX: N waiters of each kind on one mount,
# served by fewer than MAX daemon threads.
run_case() {
	local name=$1 opts=$2
	N=$3
	MAX_THREADS=$4
	T=$(make_testdir "locks_many_$name")
	M=$(new_mountpoint)
	S=$NFSFUSE_TMP/state-many-$name
	mount_nfsfuse "$M" -f -o "hostname=lockmany$$,statedir=$S,actimeo=0$opts"
	PID=$(nfsfuse_pids "$M" | head -n 1)
	F=$T/posix
	G=$T/flock
	D=$T/data
	for f in "$F" "$G" "$D"; do
		: >"$EXPORT_DIR/$f"
		chmod 666 "$EXPORT_DIR/$f"
	done
	R=$NFSFUSE_TMP/rel-$name

	# The holders: one process holds F (fcntl), another G (flock).
	lk_bg "$NFSFUSE_TMP/holdF-$name" hold "$M/$F" 0 0 w "$R.f"
	wait_file_has "$NFSFUSE_TMP/holdF-$name" locked 30 || fail "the holder did not lock $F: $(cat "$NFSFUSE_TMP/holdF-$name")"
	lk_bg "$NFSFUSE_TMP/holdG-$name" flock "$M/$G" ex "$R.g"
	wait_file_has "$NFSFUSE_TMP/holdG-$name" locked 30 || fail "the holder did not flock $G: $(cat "$NFSFUSE_TMP/holdG-$name")"

	python3 "$MANY" posix "$M/$F" "$N" "$NFSFUSE_TMP/wF-$name" &
	WF=$!
	register_pid "$WF"
	python3 "$MANY" flock "$M/$G" "$N" "$NFSFUSE_TMP/wG-$name" &
	WG=$!
	register_pid "$WG"

	wait_until 120 waiting_is $((2 * N)) ||
		fail "$name: only $(nwaiting) of $((2 * N)) locks wait in the daemon"
	assert_eq 0 "$(grep -c granted "$NFSFUSE_TMP/wF-$name" "$NFSFUSE_TMP/wG-$name" | awk -F: '{ s += $2 } END { print s }')" \
		"no waiter granted while the locks are held"
	threads=$(ls "/proc/$PID/task" | wc -l)
	note "$name: daemon threads with $((2 * N)) waiting locks: $threads"
	# At most 16 FUSE workers and a handful of its own, and over
	# NFSv4.1 up to one more per worker and one for the poller, for
	# the LOCK calls (their callers may die while they are out), which
	# linger a while once done: a thread per blocked lock would show
	# here all the same.
	((threads < MAX_THREADS)) || fail "$name: $threads daemon threads for $((2 * N)) waiting locks (want fewer than $MAX_THREADS)"

	# While they wait: open, stat, read and write on the same mount.
	with_timeout 120 python3 - "$M/$D" "$M/$T" <<'PY' || fail "open/stat/read/write on the mount did not complete while locks wait"
import os, sys
path, d = sys.argv[1], sys.argv[2]
for i in range(200):
    fd = os.open(path, os.O_RDWR)
    os.pwrite(fd, b'%d\n' % i, 0)
    os.fsync(fd)
    assert os.pread(fd, 16, 0) == b'%d\n' % i
    os.close(fd)
    os.stat(path)
    name = os.path.join(d, 'n%d' % i)
    open(name, 'w').close()
    os.stat(name)
    os.unlink(name)
PY
	assert_eq $((2 * N)) "$(nwaiting)" "$name: the waiters still wait after the other calls"

	# The holders let go: their unlock (and close) returns at once...
	touch "$R.f" "$R.f.exit" "$R.g"
	wait_file_has "$NFSFUSE_TMP/holdF-$name" unlocked 30 || fail "the holder's unlock did not return: $(cat "$NFSFUSE_TMP/holdF-$name")"
	# ...and every waiter is granted, one after another.
	granted_all() { [[ $(grep -c granted "$1") -eq $N ]]; }
	wait_until 600 granted_all "$NFSFUSE_TMP/wF-$name" ||
		fail "only $(grep -c granted "$NFSFUSE_TMP/wF-$name") of $N F_SETLKW waiters were granted"
	wait_until 600 granted_all "$NFSFUSE_TMP/wG-$name" ||
		fail "only $(grep -c granted "$NFSFUSE_TMP/wG-$name") of $N flock waiters were granted"
	wait "$WF" || fail "a F_SETLKW waiter failed"
	wait "$WG" || fail "a flock waiter failed"
	wait_until 30 waiting_is 0 || fail "the daemon still lists $(nwaiting) waiting locks"
	# Nothing is left held on the server: a new owner gets both at once.
	assert_eq ok "$(lk try "$M/$F" 0 0 w)" "$name: F_SETLK of the whole file after every waiter exited"
	touch "$R.now"
	assert_match "$(lk flock "$M/$G" exnb "$R.now")" "^locked " "$name: flock after every waiter exited"
}

run_case nlm "" 64 32
run_case v41 ",vers=4.1" 32 50
echo PASS
