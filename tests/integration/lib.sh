# shellcheck shell=bash
# Helpers for nfsfuse's integration tests.  Source it first thing:
#
#   #!/usr/bin/env bash
#   . "$(dirname "$0")/lib.sh"
#   ensure_server
#   T=$(make_testdir rename)            # $EXPORT_DIR/rename.<pid>
#   MNT=$(new_mountpoint)
#   mount_nfsfuse "$MNT" -o actimeo=0
#   echo hi >"$MNT/$T/f"
#   assert_eq hi "$(cat "$EXPORT_DIR/$T/f")" "written through the mount"
#
# Exit codes follow meson's convention: 0 pass, 77 skip, 1 fail.
#
# Everything a test mounts, starts or creates through these helpers is undone
# by an EXIT trap, also when the test fails.  A test that needs cleanup of
# its own adds it with `on_exit CMD...` instead of replacing the trap.
#
# Environment:
#   NFSFUSE_BIN, NFSFUSECTL_BIN  binaries under test (set by meson); default
#                                to build/ in the repository
#   NFSFUSE_TEST_STATEDIR, NFSFUSE_TEST_EXPORT  see contrib/test-server.sh
#   NFSFUSE_TEST_KEEP=1          keep test dirs and temp files for debugging
#   NFSFUSE_TEST_TIMEOUT         default bound for with_timeout (30 s)

set -euo pipefail

NFSFUSE_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$NFSFUSE_LIB_DIR/../.." && pwd)
TEST_SERVER_SH=$REPO_ROOT/contrib/test-server.sh
# fusermount3, mountpoint, setpriv and friends; /usr/sbin is missing from
# ordinary users' PATH on Debian.
PATH=$PATH:/usr/sbin:/sbin

_first_existing() {
	local f
	for f in "$@"; do
		[[ -x $f ]] && { echo "$f"; return 0; }
	done
	echo "$1"
}
_B=${NFSFUSE_BUILD_ROOT:-$REPO_ROOT/build}
NFSFUSE=${NFSFUSE_BIN:-$(_first_existing "$_B/src/nfsfuse" "$_B/nfsfuse")}
NFSFUSECTL=${NFSFUSECTL_BIN:-$(_first_existing "$_B/src/ctl/nfsfusectl" "$_B/src/nfsfusectl" "$_B/nfsfusectl")}
TEST_NAME=$(basename "$0" .sh)
TEST_USER=nfsfuse-tu
NFSFUSE_TEST_TIMEOUT=${NFSFUSE_TEST_TIMEOUT:-30}
export NFSFUSE NFSFUSECTL

# Per-test scratch space.  Registries of what to clean up are files in it,
# so helpers called from $(...) subshells register in the same place.
NFSFUSE_TMP=$(mktemp -d "${TMPDIR:-/tmp}/nfsfuse-$TEST_NAME.XXXXXX")
# Mount points below it must be reachable by the ordinary test user.
chmod 0755 "$NFSFUSE_TMP"
_REG=$NFSFUSE_TMP/.registry
mkdir "$_REG"
touch "$_REG/mounts" "$_REG/testdirs" "$_REG/pids" "$_REG/on_exit"
_NFSFUSE_LIB_PID=$$
export NFSFUSE_TMP

# tshark reads captures with RPC recognised by its contents first (the
# file says why).
export WIRESHARK_CONFIG_DIR=$REPO_ROOT/tests/wireshark

# ------------------------------------------------------------------ reporting

note() { echo "# $*" >&2; }

# skip and fail write to stderr so that their message still shows when they
# run inside $(...), e.g. T=$(make_testdir x); errexit then carries their
# status (77 or 1) out to the test's own shell.
skip() {
	echo "SKIP: $*" >&2
	exit 77
}

fail() {
	# Name the test script's line (not this library's) so that a failure is
	# findable without re-running.
	local i where=""
	for ((i = 1; i < ${#BASH_SOURCE[@]}; i++)); do
		if [[ ${BASH_SOURCE[i]} != "${BASH_SOURCE[0]}" ]]; then
			where=" ($(basename "${BASH_SOURCE[i]}"):${BASH_LINENO[i - 1]})"
			break
		fi
	done
	echo "FAIL: $*$where" >&2
	_dump_daemon_logs
	exit 1
}

# What the daemons of a failed test said last: a failure in CI is then
# diagnosable from its log alone.
_dump_daemon_logs() {
	local l
	[[ -n ${NFSFUSE_TMP:-} ]] || return 0
	for l in "$NFSFUSE_TMP"/nfsfuse.*.log; do
		[[ -s $l ]] || continue
		echo "# --- last lines of $(basename "$l"):" >&2
		tail -n "${NFSFUSE_FAIL_LOG_LINES:-40}" -- "$l" | sed 's/^/#   /' >&2
	done
}

assert_eq() { # expected actual [msg]
	[[ $1 == "$2" ]] || fail "${3:-values differ}: expected '$1', got '$2'"
}

assert_ne() { # unexpected actual [msg]
	[[ $1 != "$2" ]] || fail "${3:-values equal}: got '$2'"
}

assert_contains() { # haystack needle [msg]
	[[ $1 == *"$2"* ]] || fail "${3:-missing text}: '$2' not in '$1'"
}

assert_match() { # string extended-regex [msg]
	[[ $1 =~ $2 ]] || fail "${3:-no match}: '$1' !~ /$2/"
}

assert_file_eq() { # file1 file2 [msg]: same bytes
	cmp -s -- "$1" "$2" || fail "${3:-contents differ}: $1 vs $2 ($(cmp -- "$1" "$2" 2>&1 | head -n 1))"
}

assert_file_content() { # file expected-content [msg]
	local got
	got=$(cat -- "$1" 2>&1) || fail "${3:-cannot read}: $1: $got"
	[[ $got == "$2" ]] || fail "${3:-wrong content} in $1: expected '$2', got '$got'"
}

assert_exists() { [[ -e $1 || -L $1 ]] || fail "${2:-missing}: $1 does not exist"; }
assert_not_exists() { [[ ! -e $1 && ! -L $1 ]] || fail "${2:-unexpected}: $1 exists"; }
assert_dir() { [[ -d $1 ]] || fail "${2:-not a directory}: $1"; }

assert_true() { # cmd...: must succeed
	"$@" || fail "command failed (status $?): $*"
}

assert_fails() { # cmd...: must exit non-zero
	if "$@" >/dev/null 2>&1; then fail "command unexpectedly succeeded: $*"; fi
}

# expect_fail_with TEXT cmd...: the command must fail and print TEXT
# (typically the strerror text, e.g. "Permission denied") on stdout/stderr.
expect_fail_with() {
	local text=$1 out rc=0
	shift
	out=$("$@" 2>&1) || rc=$?
	[[ $rc -ne 0 ]] || fail "command unexpectedly succeeded: $*"
	[[ $out == *"$text"* ]] || fail "command failed without '$text': $*: $out"
}

# stat_of FORMAT PATH: stat -c wrapper, e.g. assert_eq 644 "$(stat_of %a f)".
stat_of() { stat -c "$1" -- "$2"; }

# ------------------------------------------------------------------ utilities

need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "$c is not installed"
	done
}

need_root() { [[ $(id -u) -eq 0 ]] || skip "needs root"; }

need_nfsfuse() {
	[[ -x $NFSFUSE ]] || skip "nfsfuse binary not found ($NFSFUSE); set NFSFUSE_BIN"
	[[ -e /dev/fuse ]] || skip "/dev/fuse is missing"
	command -v fusermount3 >/dev/null 2>&1 || skip "fusermount3 is not installed (fuse3)"
}

# with_timeout [SECS] cmd...: a hung FUSE mount must fail the test, not
# hang it until meson's timeout kills everything without cleanup.
with_timeout() {
	local secs=$NFSFUSE_TEST_TIMEOUT
	[[ $1 =~ ^[0-9]+$ ]] && { secs=$1; shift; }
	timeout -k 5 "$secs" "$@"
}

# wait_until SECS cmd...: poll every 0.1 s until cmd succeeds.
wait_until() {
	local secs=$1 i
	shift
	for ((i = 0; i < secs * 10; i++)); do
		"$@" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# uptime_s: whole seconds since boot.  Deadlines are kept on this clock,
# not on $SECONDS: the wall clock of a freshly booted machine can step
# forward by minutes when it is synchronised, and a wait measured on it
# would end before the thing waited for had any time at all.
uptime_s() {
	local up
	read -r up _ </proc/uptime
	echo "${up%.*}"
}

# wait_for SECS cmd...: until cmd succeeds, for SECS seconds of elapsed
# time, for commands too slow to count their tries as time (wait_until):
# each try starts a program or two.  cmd is tried once more after the
# deadline, so a wait that was starved of time still looks at the end.
wait_for() {
	local end=$(($(uptime_s) + $1))
	shift
	until "$@" 2>/dev/null; do
		(($(uptime_s) < end)) || { "$@" 2>/dev/null; return; }
		sleep 0.2
	done
}

# rpc_registered PROG: rpcbind on $SERVER lists program PROG.
rpc_registered() {
	rpcinfo -p "$SERVER" 2>/dev/null | awk -v p="$1" '$1 == p { f = 1 } END { exit !f }'
}

# need_rpc_program PROG WHY: PROG registered with rpcbind on $SERVER,
# waited for (a server just restarted registers its programs one by one,
# slowly on a busy machine); a skip with WHY only when rpcbind answers and
# still lacks it, a failure when rpcbind does not answer.
need_rpc_program() {
	wait_until 60 rpc_registered "$1" && return 0
	timeout 60 rpcinfo -p "$SERVER" >/dev/null 2>&1 ||
		fail "rpcbind on $SERVER does not answer"
	skip "$2"
}

on_exit() { printf '%q ' "$@" >>"$_REG/on_exit"; echo >>"$_REG/on_exit"; }

tmpdir_new() { mktemp -d "$NFSFUSE_TMP/d.XXXXXX"; }

new_mountpoint() {
	local d
	d=$(mktemp -d "$NFSFUSE_TMP/mnt.XXXXXX")
	chmod 0755 "$d"
	echo "$d"
}

# ------------------------------------------------------------------ server

ensure_server() {
	command -v ganesha.nfsd >/dev/null 2>&1 || skip "nfs-ganesha is not installed (run contrib/install-deps.sh)"
	[[ -x $TEST_SERVER_SH ]] || skip "$TEST_SERVER_SH is missing"
	local out statedir
	if ! out=$("$TEST_SERVER_SH" start 2>&1); then
		skip "cannot start the test server: $(printf '%s' "$out" | tail -n 5 | tr '\n' ' ')"
	fi
	statedir=$(realpath -m -- "${NFSFUSE_TEST_STATEDIR:-/tmp/nfsfuse-test-server}")
	SERVER=127.0.0.1
	EXPORT=$(cat "$statedir/export.path" 2>/dev/null) ||
		EXPORT=$(realpath -m -- "${NFSFUSE_TEST_EXPORT:-$statedir/export}")
	EXPORT_DIR=$EXPORT
	[[ -d $EXPORT_DIR ]] || skip "export directory $EXPORT_DIR does not exist"
	# The second export, which squashes root (contrib/test-server.sh).
	SQUASH_EXPORT=$(cat "$statedir/squash.path" 2>/dev/null) ||
		SQUASH_EXPORT=$statedir/export-squash
	export SERVER EXPORT EXPORT_DIR SQUASH_EXPORT
}

# make_testdir NAME: fresh $EXPORT_DIR/NAME.<pid>, world-writable and
# sticky so the ordinary test user can work in it too; prints NAME.<pid>.
make_testdir() {
	[[ -n ${EXPORT_DIR:-} ]] || fail "make_testdir: call ensure_server first"
	local name=$1.$_NFSFUSE_LIB_PID
	rm -rf -- "${EXPORT_DIR:?}/$name"
	mkdir -- "$EXPORT_DIR/$name"
	chmod 1777 -- "$EXPORT_DIR/$name"
	echo "$EXPORT_DIR/$name" >>"$_REG/testdirs"
	echo "$name"
}

# ------------------------------------------------------------------ mounts

# True if PATH is a FUSE mount point (any fuse.* type).
is_fuse_mount() {
	local mnt
	mnt=$(realpath -m -- "$1")
	# /proc/self/mounts escapes blanks as octal; decode before comparing.
	awk -v m="$mnt" '{ gsub(/\\040/, " ", $2); gsub(/\\011/, "\t", $2) }
		$2 == m && $3 ~ /^fuse/ { f = 1 } END { exit !f }' /proc/self/mounts
}

# Pids of nfsfuse daemons whose command line names mount point MNT.
nfsfuse_pids() {
	local mnt=$1 exe p arg
	exe=$(realpath -m -- "$NFSFUSE")
	# One find rather than a readlink per process: on a busy machine the
	# forks alone took minutes.
	for p in $(find /proc -mindepth 2 -maxdepth 2 -name exe -lname "$exe" 2>/dev/null); do
		p=${p%/exe}
		while IFS= read -r -d '' arg; do
			if [[ $arg == "$mnt" ]]; then
				echo "${p#/proc/}"
				break
			fi
		done <"$p/cmdline" 2>/dev/null || true
	done
}

# mount_nfsfuse MNT [nfsfuse args...]: mount $SERVER:$EXPORT (or
# $NFSFUSE_MOUNT_SRC) at MNT and wait up to 10 s for the mount to appear.
# With -f or -d among the args (no self-daemonizing) the daemon is put in
# the background here.  The array MOUNT_AS, when set, is a command that
# runs the daemon as someone else (e.g. the words of user_argv NAME: setpriv
# execs it, so the pid is the daemon's).
mount_nfsfuse() {
	need_nfsfuse
	[[ -n ${SERVER:-} ]] || fail "mount_nfsfuse: call ensure_server first"
	local mnt src log a fg=0 pid=
	mnt=$(realpath -m -- "$1")
	shift
	src=${NFSFUSE_MOUNT_SRC:-$SERVER:$EXPORT}
	mkdir -p -- "$mnt"
	log=$(mktemp "$NFSFUSE_TMP/nfsfuse.XXXXXX.log")
	for a in "$@"; do [[ $a == -f || $a == -d ]] && fg=1; done
	echo "$mnt" >>"$_REG/mounts"
	if [[ $fg -eq 1 ]]; then
		${MOUNT_AS[@]+"${MOUNT_AS[@]}"} "$NFSFUSE" "$src" "$mnt" "$@" </dev/null >"$log" 2>&1 &
		pid=$!
		register_pid "$pid"
	elif ! ${MOUNT_AS[@]+"${MOUNT_AS[@]}"} "$NFSFUSE" "$src" "$mnt" "$@" </dev/null >"$log" 2>&1; then
		cat "$log" >&2
		fail "nfsfuse $src $mnt $* exited with an error"
	fi
	if ! wait_until 10 is_fuse_mount "$mnt"; then
		cat "$log" >&2
		[[ -n $pid ]] && kill "$pid" 2>/dev/null
		fail "nfsfuse did not mount $mnt within 10 s"
	fi
	# The daemon's output, for tests that check what it logged.
	export NFSFUSE_LOG=$log
}

# Abort a FUSE connection: the last resort for a hung daemon, which would
# otherwise make unmounting (and every access) block.  Needs root and the
# fusectl file system, which nothing mounts on machines without systemd.
_fuse_abort() {
	local mnt=$1 dev conn=/sys/fs/fuse/connections
	[[ $(id -u) -eq 0 ]] || return 0
	dev=$(awk -v m="$mnt" '$5 == m && $9 ~ /^fuse/ { print $3 }' /proc/self/mountinfo | tail -n 1)
	[[ -n $dev ]] || return 0
	if [[ ! -e $conn/${dev#*:} ]] && [[ -d $conn ]]; then
		mount -t fusectl fusectl "$conn" 2>/dev/null || true
	fi
	if [[ -w $conn/${dev#*:}/abort ]]; then
		echo 1 >"$conn/${dev#*:}/abort" 2>/dev/null || true
	fi
}

_unmount() {
	local mnt=$1
	is_fuse_mount "$mnt" || return 0
	timeout 10 fusermount3 -u -- "$mnt" 2>/dev/null && return 0
	[[ $(id -u) -eq 0 ]] && timeout 10 umount -- "$mnt" 2>/dev/null && return 0
	return 1
}

# umount_nfsfuse MNT: unmount and wait (120 s) for the daemon to exit.
umount_nfsfuse() {
	local mnt pids p t0
	mnt=$(realpath -m -- "$1")
	pids=$(nfsfuse_pids "$mnt")
	_unmount "$mnt" || fail "cannot unmount $mnt: $(fusermount3 -u -- "$mnt" 2>&1)"
	for p in $pids; do
		# A daemon built with ASan checks for leaks as it exits, which
		# takes seconds on a busy machine, and tens of seconds on one
		# loaded many times over.  A daemon that hangs still fails, and
		# where its threads wait is shown.
		t0=$(uptime_s)
		if ! wait_until 120 _pid_gone "$p"; then
			_threads_of "$p" >&2
			fail "nfsfuse (pid $p) still running 120 s after unmounting $mnt"
		fi
		(($(uptime_s) - t0 < 10)) || note "nfsfuse (pid $p) took $(($(uptime_s) - t0)) s to exit"
	done
	sed -i "\\|^$mnt\$|d" "$_REG/mounts" 2>/dev/null || true
}

# _threads_of PID: each thread's name, state and kernel wait channel.
_threads_of() {
	local t
	for t in /proc/"$1"/task/*; do
		printf '# thread %s %s state %s wchan %s\n' "${t##*/}" \
			"$(cat "$t/comm" 2>/dev/null)" \
			"$(awk '{ print $3 }' "$t/stat" 2>/dev/null)" \
			"$(cat "$t/wchan" 2>/dev/null)"
	done
}

_pid_gone() { [[ ! -e /proc/$1 ]] || [[ $(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) == Z ]]; }

# ------------------------------------------------------------------ counters

# calls MNT PROC: the daemon's count of PROC calls so far (nfsfusectl).
calls() {
	"$NFSFUSECTL" "$1" stats --json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["rpc"].get(sys.argv[1], {}).get("calls", 0))' "$2"
}
# counter MNT NAME: one of the daemon's cache counters.
counter() {
	"$NFSFUSECTL" "$1" stats --json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["cache"][sys.argv[1]])' "$2"
}

# forget_dentries: the kernel forgets every name it holds that nothing
# pins, so the next path walk asks the daemon again (root only).
forget_dentries() { sync; echo 2 >/proc/sys/vm/drop_caches; }

# stats_json MNT: the daemon's statistics, as `nfsfusectl stats --json`.
stats_json() { "$NFSFUSECTL" "$1" stats --json; }
# op_calls MNT OP: NFSv4 operations OP sent inside COMPOUNDs so far (0 on
# a mount of another version).
op_calls() {
	stats_json "$1" | python3 -c 'import json,sys
print(json.load(sys.stdin).get("nfs4ops", {}).get(sys.argv[1], {}).get("calls", 0))' "$2"
}

# counter_is MNT NAME VALUE: true when the counter is VALUE now (for
# wait_until, which must read it again at each try).
counter_is() { [[ $(counter "$1" "$2") == "$3" ]]; }

# ------------------------------------------------------------------ users

# A user or group that exists already (an earlier run, a parallel one) is
# taken as it is; useradd's and groupadd's locking makes racing creators
# retry.

# ensure_group NAME: the group NAME (root only).
ensure_group() {
	local i
	for ((i = 0; i < 20; i++)); do
		getent group "$1" >/dev/null && return 0
		groupadd "$1" >/dev/null 2>&1 || sleep 0.2
	done
	fail "cannot create group $1"
}

# ensure_user NAME [GROUP]: the ordinary user NAME (root only), in the
# supplementary group GROUP when given.
ensure_user() {
	local i
	need_root
	for ((i = 0; i < 20; i++)); do
		id -u "$1" >/dev/null 2>&1 && break
		useradd --user-group --no-create-home --home-dir /nonexistent \
			--shell /bin/sh ${2:+--groups "$2"} "$1" >/dev/null 2>&1 || sleep 0.2
	done
	id -u "$1" >/dev/null 2>&1 || fail "cannot create user $1"
	if [[ -n ${2:-} ]] && ! id -nG "$1" | tr ' ' '\n' | grep -x -- "$2" >/dev/null; then
		usermod -aG "$2" "$1" || fail "cannot put $1 in group $2"
	fi
}

# ensure_test_user: create the ordinary user $TEST_USER (root only) and set
# TEST_UID / TEST_GID.
ensure_test_user() {
	ensure_user "$TEST_USER"
	TEST_UID=$(id -u "$TEST_USER")
	TEST_GID=$(id -g "$TEST_USER")
	export TEST_UID TEST_GID TEST_USER
}

# user_argv NAME: the words of a command prefix that runs what follows as
# user NAME, with its own ids and groups (setpriv execs it: same pid).  For
# arrays: read -ra CMD <<<"$(user_argv NAME)".
user_argv() {
	echo setpriv --reuid="$(id -u "$1")" --regid="$(id -g "$1")" --init-groups --
}

# as_user cmd...: run cmd as $TEST_USER with its own ids and groups, the
# rest of the environment kept (EXPORT_DIR, NFSFUSE, ...).
as_user() {
	ensure_test_user
	setpriv --reuid="$TEST_UID" --regid="$TEST_GID" --init-groups -- \
		env HOME=/ USER="$TEST_USER" LOGNAME="$TEST_USER" "$@"
}

# ------------------------------------------------------------------ capture

# capture_start FILE [FILTER]: capture NFS/MOUNT/rpcbind traffic on lo into
# FILE (pcapng) until capture_stop.  The capture begins with a few rpcbind
# DUMP calls (port 111) used to detect that it is live.
capture_start() {
	local file=$1 filter=${2:-port 2049 or port 20048 or port 111} i t0
	t0=$(uptime_s)
	need_root
	need_cmd dumpcap
	[[ -z ${_CAPTURE_PID:-} ]] || fail "capture_start: a capture is already running"
	_CAPTURE_ERR=$NFSFUSE_TMP/capture.err
	_CAPTURE_FILE=$file
	_CAPTURE_FILTER=$filter
	rm -f -- "$file"
	# Not -q: the "Packets: N" progress lines are the readiness signal.
	dumpcap -i lo -B 64 -f "$filter" -w "$file" </dev/null >/dev/null 2>"$_CAPTURE_ERR" &
	_CAPTURE_PID=$!
	register_pid "$_CAPTURE_PID"
	# dumpcap says "Capturing on" a few hundred ms before the kernel really
	# hands it packets, so poke rpcbind until a packet has been counted.
	# On a loaded machine dumpcap itself has taken over 60 s to start:
	# wait up to 120 s, and look once more after that.
	for ((i = 0; $(uptime_s) - t0 < 120; i++)); do
		kill -0 "$_CAPTURE_PID" 2>/dev/null || break
		_capture_ready "$i" && return 0
		sleep 0.1
	done
	kill -0 "$_CAPTURE_PID" 2>/dev/null && _capture_ready 0 && return 0
	cat "$_CAPTURE_ERR" >&2
	_threads_of "$_CAPTURE_PID" >&2
	fail "packet capture did not start within $(($(uptime_s) - t0)) s"
}

# _capture_ready TRY: the capture started by capture_start sees packets
# (or, through a filter no probe passes, says it is capturing).
_capture_ready() {
	grep -q '^Capturing on' "$_CAPTURE_ERR" 2>/dev/null || return 1
	if [[ $_CAPTURE_FILTER != *111* ]]; then
		# No probe can be seen through this filter: settle for a delay
		# that was always long enough in practice.
		sleep 1
		return 0
	fi
	grep -q 'Packets: [1-9]' "$_CAPTURE_ERR" && return 0
	# dumpcap updates its count every 500 ms; probe at that pace.
	if (($1 % 5 == 0)); then
		setpriv --reuid=65534 --regid=65534 --clear-groups -- \
			timeout 5 rpcinfo -p 127.0.0.1 >/dev/null 2>&1 || true
	fi
	return 1
}

# Frames whose warnings are TCP's own: a segment the capture missed under
# load (the analysis flags) or one the peer saw twice (a D-SACK), not
# anything an RPC or NFS dissector found.  A display-filter clause.
TCP_OWN_WARNING_FREE='!tcp.analysis.flags && !tcp.options.sack.dsack'

# capture_stop: stop the capture and wait until the file is complete.
capture_stop() {
	[[ -n ${_CAPTURE_PID:-} ]] || return 0
	local pid=$_CAPTURE_PID prog i
	_CAPTURE_PID=
	# The kernel hands packets to dumpcap in blocks that are released after
	# a timeout, and on SIGINT dumpcap writes out only released blocks: a
	# capture stopped right after the traffic would miss its last packets.
	# Packets come in order, so once a marker sent now is in the file,
	# everything before it is: ask rpcbind for a program nobody has.
	if [[ $_CAPTURE_FILTER == *111* ]]; then
		prog=$((536870912 + RANDOM))
		for ((i = 0; i < 300; i++)); do
			if ((i % 10 == 0)); then
				setpriv --reuid=65534 --regid=65534 --clear-groups -- \
					timeout 5 rpcinfo -T tcp 127.0.0.1 "$prog" 1 >/dev/null 2>&1 || true
			fi
			tshark -r "$_CAPTURE_FILE" -Y "portmap.rpcb.prog == $prog || portmap.prog == $prog" \
				-T fields -e frame.number 2>/dev/null | grep . >/dev/null && break
			sleep 0.1
		done
		((i < 300)) || note "capture_stop: the marker never reached $_CAPTURE_FILE"
	else
		# No marker can be seen through this filter.
		sleep 1
	fi
	# dumpcap flushes and closes the file on SIGINT, as on Ctrl-C.
	kill -INT "$pid" 2>/dev/null || true
	if ! wait_until 10 _pid_gone "$pid"; then
		kill -KILL "$pid" 2>/dev/null || true
		fail "packet capture did not stop"
	fi
	wait "$pid" 2>/dev/null || true
}

# ------------------------------------------------------------------ NFSv2

# free_port: a loopback TCP port that nothing listens on right now.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_v2proxy [--nlm]: the test server speaks NFSv3 only, so
# tests/v2proxy (nfs2to3proxy) stands in front of it on a free port and
# translates NFSv2 and MOUNT v1 (and with --nlm, NLM v1/v3 on a second
# port) into their v3/v4 forms.  Sets P (and NP), PLOG (its log) and V2, the
# mount options that reach it.
start_v2proxy() {
	local proxy pid nlm=()
	proxy=${NFS2PROXY_BIN:-$(_first_existing "$_B/tests/nfs2to3proxy")}
	[[ -x $proxy ]] || skip "nfs2to3proxy not found ($proxy); set NFS2PROXY_BIN"
	need_cmd python3
	P=$(free_port)
	V2="vers=2,port=$P,mountport=$P"
	if [[ ${1:-} == --nlm ]]; then
		NP=$(free_port)
		nlm=(--nlm-listen "$NP")
		V2+=",nlmport=$NP"
	fi
	PLOG=$NFSFUSE_TMP/nfs2to3proxy.log
	"$proxy" --listen "$P" "${nlm[@]}" --to 127.0.0.1:2049 \
		--mount-to 127.0.0.1:20048 --verbose </dev/null 2>"$PLOG" &
	pid=$!
	on_exit kill "$pid"
	wait_until 30 grep -q listening "$PLOG" || { cat "$PLOG" >&2; fail "nfs2to3proxy did not start"; }
	if ((${#nlm[@]})) && ! grep -q "NLM v1/v3 on 127.0.0.1:$NP" "$PLOG"; then
		cat "$PLOG" >&2
		fail "the proxy does not serve NLM"
	fi
}

# _pid_start PID: when PID started (clock ticks since boot), or nothing.
_pid_start() {
	local st
	st=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
	st=${st##*) }
	set -- $st
	echo "${20}"
}

# register_pid PID: killed at exit if still running (and still the same
# process: a number is reused once its process has gone).
register_pid() { echo "$1 $(_pid_start "$1")" >>"$_REG/pids"; }

# ------------------------------------------------------------------ cleanup

_nfsfuse_cleanup() {
	local rc=$? line mnt p pids
	# $(...) subshells inherit nothing to clean up; only the test's own
	# shell runs this.
	[[ $BASHPID == "$_NFSFUSE_LIB_PID" ]] || return "$rc"
	set +e
	trap - EXIT INT TERM HUP
	while IFS= read -r line; do
		[[ -n $line ]] && eval "$line"
	done < <(tac "$_REG/on_exit" 2>/dev/null)
	capture_stop >/dev/null 2>&1
	while IFS= read -r mnt; do
		[[ -n $mnt ]] || continue
		pids=$(nfsfuse_pids "$mnt")
		if ! _unmount "$mnt"; then
			# A hung daemon keeps processes blocked inside the mount, which
			# makes it busy.  Its death (or an abort) fails their requests,
			# after which the unmount goes through.
			echo "# cleanup: $mnt would not unmount; killing nfsfuse ${pids:-(no pid found)}" >&2
			for p in $pids; do kill -KILL "$p" 2>/dev/null; done
			_fuse_abort "$mnt"
			sleep 0.5
			_unmount "$mnt" ||
				timeout 10 fusermount3 -u -z -- "$mnt" 2>/dev/null ||
				timeout 10 umount -l -- "$mnt" 2>/dev/null
		fi
		for p in $pids; do
			wait_until 5 _pid_gone "$p" || kill -KILL "$p" 2>/dev/null
		done
	done < <(tac "$_REG/mounts" 2>/dev/null)
	while read -r p t; do
		[[ -n $p ]] || continue
		# Only the process registered: its number may belong to
		# another by now (another test, a server) once it has exited.
		[[ -z $t || $(_pid_start "$p") == "$t" ]] &&
			kill -KILL "$p" 2>/dev/null
	done <"$_REG/pids"
	if [[ ${NFSFUSE_TEST_KEEP:-0} == 1 ]]; then
		echo "# kept: $NFSFUSE_TMP $(tr '\n' ' ' <"$_REG/testdirs")" >&2
	else
		while IFS= read -r line; do
			[[ -n $line ]] && rm -rf -- "$line"
		done <"$_REG/testdirs"
		# Mount points that could not be unmounted must not be descended
		# into; --one-file-system keeps rm out of them.
		rm -rf --one-file-system -- "$NFSFUSE_TMP"
	fi
	return "$rc"
}
trap _nfsfuse_cleanup EXIT
# A signal must still run the EXIT cleanup, with the usual 128+n status.
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
