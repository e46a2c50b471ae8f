# shellcheck shell=bash
# Helpers for the fault-injection tests (faults_*.sh, randops.sh): the
# nfsproxy between nfsfuse and the server, and a look at the daemon.
# Source after lib.sh.
#
# Mounts made here take -o nolock: locking is not under test, and it lets
# several mounts of one test share the default lock state directory.

NFSPROXY=${NFSPROXY_BIN:-$_B/tests/nfsproxy}
# The server's fixed ports (contrib/ganesha/nfsfuse-test.conf.in).
NFS_PORT=2049
MOUNT_PORT=20048

need_proxy() {
	[[ -x $NFSPROXY ]] || skip "nfsproxy not built ($NFSPROXY); set NFSPROXY_BIN"
}

# start_proxy NAME ARGS...: an nfsproxy in front of the server's NFS port,
# on a free loopback port.  Sets PROXY_PORT, PROXY_PID and PROXY_LOG
# ($NFSFUSE_TMP/NAME.log).  Stopped at exit, or with stop_proxy.
start_proxy() {
	local name=$1 ready
	shift
	need_proxy
	ready=$NFSFUSE_TMP/$name.ready
	PROXY_LOG=$NFSFUSE_TMP/$name.log
	rm -f -- "$ready"
	"$NFSPROXY" --listen 0 --to "127.0.0.1:$NFS_PORT" --log "$PROXY_LOG" \
		--ready-file "$ready" "$@" </dev/null >/dev/null 2>>"$PROXY_LOG" &
	PROXY_PID=$!
	register_pid "$PROXY_PID"
	wait_until 5 test -s "$ready" || {
		cat "$PROXY_LOG" >&2
		fail "nfsproxy $* did not start"
	}
	PROXY_PORT=$(cat "$ready")
	[[ $PROXY_PORT =~ ^[0-9]+$ ]] || fail "nfsproxy wrote no port: '$PROXY_PORT'"
	note "proxy $name on port $PROXY_PORT: $*"
}

# stop_proxy: ends the proxy (it logs its summary line on the way out).
stop_proxy() {
	[[ -n ${PROXY_PID:-} ]] || return 0
	kill -TERM "$PROXY_PID" 2>/dev/null || true
	wait_until 5 _pid_gone "$PROXY_PID" || kill -KILL "$PROXY_PID" 2>/dev/null || true
	wait "$PROXY_PID" 2>/dev/null || true
	PROXY_PID=
}

# proxy_ctl SOCKET CMD: one command to the control socket of a proxy
# started with --control SOCKET; prints its one-line answer.
proxy_ctl() {
	python3 - "$1" "$2" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall((sys.argv[2] + "\n").encode())
print(s.makefile().readline().strip())
PY
}

# proxy_summary: the proxy's counters so far ("calls=N replies=N ...").
proxy_summary() { grep '^summary' "$PROXY_LOG" | tail -n 1; }

# proxy_count WORD: how many log lines start with WORD ("drop", "accept").
proxy_count() { grep -c "^$1 " "$PROXY_LOG" || true; }

# daemon_pid MNT: the one nfsfuse serving MNT (fails if not exactly one).
daemon_pid() {
	local pids
	pids=$(nfsfuse_pids "$(realpath -m -- "$1")")
	[[ -n $pids && $pids != *$'\n'* ]] || fail "expected one nfsfuse for $1, found '${pids//$'\n'/ }'"
	echo "$pids"
}

# assert_alive PID MNT: the daemon still runs and the mount answers.
assert_alive() {
	local pid=$1 mnt=$2
	[[ -e /proc/$pid ]] && ! _pid_gone "$pid" || fail "nfsfuse (pid $pid) died"
	is_fuse_mount "$mnt" || fail "$mnt is no longer mounted"
}

# rpc_stat MNT PROC FIELD: a field (calls, retrans, errors) of the daemon's
# counters for PROC.
rpc_stat() {
	"$NFSFUSECTL" "$1" stats --json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["rpc"].get(sys.argv[1], {}).get(sys.argv[2], 0))' "$2" "$3"
}

# rpc_total MNT FIELD: that field summed over every procedure.
rpc_total() {
	"$NFSFUSECTL" "$1" stats --json |
		python3 -c 'import json,sys; print(sum(v.get(sys.argv[1], 0) for v in json.load(sys.stdin)["rpc"].values() if isinstance(v, dict)))' "$2"
}

# cache_stat MNT COUNTER
cache_stat() {
	"$NFSFUSECTL" "$1" stats --json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["cache"][sys.argv[1]])' "$2"
}

# make_random_file PATH MIB: MIB MiB of random bytes.
make_random_file() {
	head -c "$(($2 * 1024 * 1024))" /dev/urandom >"$1" || fail "cannot make $1"
}

# start_paused_writer SRC DST: copy SRC to DST in 1 MiB writes in the
# background (its pid in CP, its errors in $NFSFUSE_TMP/cp.err), stopping
# after the first PAUSED_MIB until $NFSFUSE_TMP/go exists; returns once
# those are written.  Less than half the write-behind bound (64 MiB), from
# which on what the server acknowledged is committed ahead: so they are
# all acknowledged and none committed while the writer waits.
PAUSED_MIB=24
start_paused_writer() {
	python3 - "$1" "$2" "$NFSFUSE_TMP/paused" "$NFSFUSE_TMP/go" "$PAUSED_MIB" \
		2>"$NFSFUSE_TMP/cp.err" <<'PY' &
import os, sys, time
src, dst, paused, go = sys.argv[1:5]
data = open(src, "rb").read()
fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
first = int(sys.argv[5]) << 20
for off in range(0, first, 1 << 20):
    os.write(fd, data[off:off + (1 << 20)])
open(paused, "w").close()
while not os.path.exists(go):
    time.sleep(0.05)
for off in range(first, len(data), 1 << 20):
    os.write(fd, data[off:off + (1 << 20)])
os.close(fd)
PY
	CP=$!
	wait_until 120 test -e "$NFSFUSE_TMP/paused" || fail "the writer did not send its first $PAUSED_MIB MiB"
}
