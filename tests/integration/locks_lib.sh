# shellcheck shell=bash
# Helpers shared by the locks_*.sh tests (sourced after lib.sh).
#
# Two daemons on this machine are two NLM clients of the test server:
#   A: hostname=lockA, clientaddr=127.0.0.2.  The local ganesha owns NLM v4
#      in rpcbind, on 127.0.0.1 only, so A listens on that same port at
#      127.0.0.2 -- where ganesha (which keys NLM clients by address) calls
#      it back: A is in callback mode.
#   B: hostname=lockB, no clientaddr: the NLM registration is taken, so B
#      polls its blocked locks.
# Each has its own state directory; its `status` file shows the lock mode,
# the counters and the lock table (what `nfsfusectl stats/locks` shows).

LK_PY=$NFSFUSE_TMP/lk.py
cat >"$LK_PY" <<'EOF'
import ctypes, fcntl, os, signal, struct, sys, time
libc = ctypes.CDLL(None, use_errno=True)
T = {'w': fcntl.F_WRLCK, 'r': fcntl.F_RDLCK, 'u': fcntl.F_UNLCK}
N = {fcntl.F_WRLCK: 'w', fcntl.F_RDLCK: 'r', fcntl.F_UNLCK: 'u'}

def fl(t, start, ln):
    return struct.pack('hhqqi', t, 0, start, ln, 0)

def raw_setlkw(fd, t, start, ln):
    """F_SETLKW through libc, so that EINTR is seen (Python retries)."""
    buf = ctypes.create_string_buffer(fl(t, start, ln))
    r = libc.fcntl(fd, fcntl.F_SETLKW, buf)
    return 0 if r == 0 else ctypes.get_errno()

def wait_for(path):
    while not os.path.exists(path):
        time.sleep(0.01)

cmd, path = sys.argv[1], sys.argv[2]
if cmd == 'counter':  # counter PATH N
    fd = os.open(path, os.O_RDWR)
    for _ in range(int(sys.argv[3])):
        fcntl.fcntl(fd, fcntl.F_SETLKW, fl(fcntl.F_WRLCK, 0, 0))
        v = int(os.pread(fd, 32, 0).decode().strip() or '0')
        os.pwrite(fd, ('%010d\n' % (v + 1)).encode(), 0)
        fcntl.fcntl(fd, fcntl.F_SETLK, fl(fcntl.F_UNLCK, 0, 0))
    sys.exit(0)
fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
if cmd == 'try':  # try PATH START LEN TYPE
    try:
        fcntl.fcntl(fd, fcntl.F_SETLK, fl(T[sys.argv[5]], int(sys.argv[3]), int(sys.argv[4])))
        print('ok')
    except OSError as e:
        print(os.strerror(e.errno))
elif cmd == 'getlk':  # getlk PATH START LEN TYPE -> "TYPE START LEN"
    r = fcntl.fcntl(fd, fcntl.F_GETLK, fl(T[sys.argv[5]], int(sys.argv[3]), int(sys.argv[4])))
    t, _, s, l, _ = struct.unpack('hhqqi', r)
    print(N[t], s, l)
elif cmd == 'hold':  # hold PATH START LEN TYPE RELEASE-FILE: lock, wait, unlock
    fcntl.fcntl(fd, fcntl.F_SETLKW, fl(T[sys.argv[5]], int(sys.argv[3]), int(sys.argv[4])))
    print('locked', flush=True)
    wait_for(sys.argv[6])
    fcntl.fcntl(fd, fcntl.F_SETLK, fl(fcntl.F_UNLCK, 0, 0))
    print('unlocked %.3f' % time.monotonic(), flush=True)
    wait_for(sys.argv[6] + '.exit')
elif cmd == 'wait':  # wait PATH START LEN TYPE EXIT-FILE: F_SETLKW; EINTR on SIGUSR1
    signal.signal(signal.SIGUSR1, lambda s, f: None)
    print('waiting', flush=True)
    e = raw_setlkw(fd, T[sys.argv[5]], int(sys.argv[3]), int(sys.argv[4]))
    print(('granted %.3f' % time.monotonic()) if e == 0 else 'error ' + os.strerror(e), flush=True)
    wait_for(sys.argv[6])
elif cmd == 'flock':  # flock PATH sh|ex|exnb RELEASE-FILE
    import fcntl as f
    op = {'sh': f.LOCK_SH, 'ex': f.LOCK_EX, 'exnb': f.LOCK_EX | f.LOCK_NB}[sys.argv[3]]
    try:
        f.flock(fd, op)
        print('locked %.3f' % time.monotonic(), flush=True)
    except OSError as e:
        print(os.strerror(e.errno), flush=True)
        sys.exit(0)
    wait_for(sys.argv[4])
EOF

lk() { with_timeout 60 python3 "$LK_PY" "$@"; }

# lk_bg OUT args...: run the helper in the background, output into OUT.
lk_bg() {
	local out=$1
	shift
	python3 "$LK_PY" "$@" >"$out" 2>&1 &
	register_pid "$!"
	LK_PID=$!
}

# status_get STATEDIR KEY: a counter or the mode from the status file.
status_get() {
	local v
	v=$(awk -v k="lock_$2" '$1 == k { $1 = ""; sub(/^ /, ""); print; exit }' "$1/status" 2>/dev/null)
	echo "${v:-}"
}

held_count() { grep -c '^held' "$1/status" 2>/dev/null || true; }
# For wait_until, which runs its command again and again: these look at
# the current state each time (a "$(...)" argument would be expanded once).
held_is() { [[ $(held_count "$1") -eq $2 ]]; }
counter_gt() { [[ $(status_get "$1" "$2") -gt $3 ]]; }
try_ok() { [[ $(lk try "$@") == ok ]]; }

wait_file_has() { # FILE TEXT [SECS]
	wait_until "${3:-10}" grep -q -- "$2" "$1"
}

# wait_waiting STATEDIR [KIND [SECS]]: until the daemon lists a lock of
# KIND (posix or flock; any without) as waiting -- its request is then
# in the daemon, not merely about to be made.
wait_waiting() {
	wait_until "${3:-30}" grep -q "^waiting ino=.*${2:+ kind=$2 }" "$1/status"
}

# A's address is new for every test run: nfs-ganesha keeps its callback
# connection to a client address for the life of that client's state, and
# its first GRANTED_MSG down the connection of a daemon that has since
# exited is lost (a blocked lock is then found granted by the next LOCK,
# not by the callback).
LK_ADDR_A=127.0.$(($$ % 200 + 20)).2
# nlm_notify ADDR PORT STATE: send NLM v4 procedure 16 (statd's "host
# rebooted" callback to its lock manager) over TCP with a priv that is not
# the daemon's; prints the reply's accept_stat (0 = SUCCESS).
nlm_notify() {
	with_timeout 60 python3 - "$@" <<'PY'
import socket, struct, sys
addr, port, state = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
name = b"127.0.0.1"
pad = b"\0" * (-len(name) % 4)
call = struct.pack(">IIIIIIIIII", 0x5eed, 0, 2, 100021, 4, 16, 0, 0, 0, 0)
args = struct.pack(">I", len(name)) + name + pad + struct.pack(">i", state) + b"N" * 16
msg = call + args
s = socket.create_connection((addr, port), timeout=5)
s.sendall(struct.pack(">I", 0x80000000 | len(msg)) + msg)
buf = b""
while len(buf) < 4 + 24:
    chunk = s.recv(4096)
    if not chunk:
        break
    buf += chunk
xid, mtype, rstat, vflav, vlen, astat = struct.unpack(">IIIIII", buf[4:28])
print(astat if (xid, mtype, rstat) == (0x5eed, 1, 0) else "bad reply")
PY
}

# lk_exclusion_checks MA MB F SA REL: A (mounted at MA, state in SA) holds
# bytes 100..149 of F for writing; B (at MB) is refused overlapping ranges
# and given disjoint ones, and its F_GETLK reports A's lock and range; once
# A unlocks (REL), B gets the range.
lk_exclusion_checks() {
	local ma=$1 mb=$2 f=$3 sa=$4 rel=$5 out=$NFSFUSE_TMP/holdA
	lk_bg "$out" hold "$ma/$f" 100 50 w "$rel"
	wait_file_has "$out" locked || fail "A did not get its lock: $(cat "$out")"
	assert_eq "Resource temporarily unavailable" "$(lk try "$mb/$f" 120 10 w)" "overlapping write lock from B"
	assert_eq "Resource temporarily unavailable" "$(lk try "$mb/$f" 140 100 r)" "overlapping read lock from B"
	assert_eq ok "$(lk try "$mb/$f" 150 10 w)" "disjoint range (just after A's) from B"
	assert_eq ok "$(lk try "$mb/$f" 0 100 w)" "disjoint range (just before A's) from B"
	assert_eq "w 100 50" "$(lk getlk "$mb/$f" 0 0 r)" "F_GETLK from B reports A's lock"
	assert_match "$(lk getlk "$mb/$f" 200 10 w)" "^u " "F_GETLK on a free range"
	assert_contains "$(cat "$sa/status")" "held ino=" "A's lock table lists the lock"
	touch "$rel" "$rel.exit"
	wait_file_has "$out" unlocked || fail "A did not unlock"
	assert_eq ok "$(lk try "$mb/$f" 120 10 w)" "after A's unlock B gets the range"
}

mount_locks_a() { # MNT STATEDIR [more -o options [more arguments]]
	mount_nfsfuse "$1" -f -o "hostname=lockA,clientaddr=$LK_ADDR_A,statedir=$2,actimeo=0${3:+,$3}" "${@:4}"
	LOG_A=$NFSFUSE_LOG
}

mount_locks_b() { # MNT STATEDIR [more -o options [more arguments]]
	mount_nfsfuse "$1" -f -o "hostname=lockB,statedir=$2,actimeo=0${3:+,$3}" "${@:4}"
	LOG_B=$NFSFUSE_LOG
}

need_locks() {
	need_cmd python3
	ensure_server
	# The callback path needs a second loopback address.
	python3 -c 'import socket; s=socket.socket(); s.bind(("'"$LK_ADDR_A"'", 0))' 2>/dev/null ||
		skip "cannot bind $LK_ADDR_A (needed for a second NLM client address)"
}

# lk_wait_granted MA MB F SA REL: B (at MB) holds all of F; A's F_SETLKW on
# bytes 0..9 (at MA) blocks, is listed as waiting in A's status (SA), and is
# granted once B unlocks (REL).  Leaves A holding the range (its process
# exits at REL.w) and sets LK_WAIT_SECS to the time from B's unlock to A's
# grant.
lk_wait_granted() {
	local ma=$1 mb=$2 f=$3 sa=$4 rel=$5 t_unlock t_grant
	lk_bg "$NFSFUSE_TMP/holdB" hold "$mb/$f" 0 0 w "$rel"
	wait_file_has "$NFSFUSE_TMP/holdB" locked || fail "B did not lock"
	lk_bg "$NFSFUSE_TMP/waitA" wait "$ma/$f" 0 10 w "${rel}w"
	wait_waiting "$sa" posix || fail "A does not list its F_SETLKW as waiting: $(cat "$NFSFUSE_TMP/waitA")"
	assert_eq waiting "$(cat "$NFSFUSE_TMP/waitA")" "A's F_SETLKW blocks while B holds the lock"
	touch "$rel" "$rel.exit"
	wait_file_has "$NFSFUSE_TMP/waitA" granted 10 || fail "A's F_SETLKW not granted: $(cat "$NFSFUSE_TMP/waitA")"
	t_unlock=$(awk '/^unlocked/ { print $2 }' "$NFSFUSE_TMP/holdB")
	t_grant=$(awk '/^granted/ { print $2 }' "$NFSFUSE_TMP/waitA")
	LK_WAIT_SECS=$(python3 -c "print('%.3f' % ($t_grant - $t_unlock))")
	note "A granted $LK_WAIT_SECS s after B's unlock"
}
