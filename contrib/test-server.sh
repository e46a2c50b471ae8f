#!/usr/bin/env bash
# Start, stop or query the loopback NFSv3 and NFSv4.1/4.2 test server
# (nfs-ganesha, VFS FSAL) that nfsfuse's integration tests and the demo run
# against.  Each export's Pseudo path is its real path, so an NFSv4 client
# walks the same path from the pseudo root that a v3 client mounts.
#
#   contrib/test-server.sh start   [--export DIR] [--statedir DIR]
#   contrib/test-server.sh stop    [--statedir DIR] [--all]
#   contrib/test-server.sh restart [--export DIR] [--statedir DIR]
#   contrib/test-server.sh status  [--statedir DIR]
#   contrib/test-server.sh reboot  [--export DIR] [--statedir DIR]
#
# reboot simulates a crash and reboot of the server host, for lock
# recovery tests: ganesha is killed (SIGKILL), rpc.statd is stopped,
# sm-notify -f bumps the host's NSM state number and notifies the hosts
# statd monitored (ganesha's NLM clients), rpc.statd starts again (and
# reports the new state to SM_STAT), and ganesha starts WITH a grace period
# of NFSFUSE_TEST_GRACE seconds (default 15), in which NLM takes lock
# reclaims only.  It prints "nsm-state OLD NEW".  'restart' returns to the
# normal graceless server (start alone keeps a running server as it is).
#
# Defaults: state dir /tmp/nfsfuse-test-server (config, pid file, log),
# export dir <statedir>/export.  A second export, <statedir>/export-squash,
# squashes root (uid 0 becomes the anonymous user 65534): the path of each
# is in <statedir>/export.path and <statedir>/squash.path.  The variables
# NFSFUSE_TEST_STATEDIR and NFSFUSE_TEST_EXPORT override the defaults,
# NFSFUSE_TEST_SERVER_TIMEOUT (seconds, default 30) bounds the start-up wait
# and NFSFUSE_GANESHA_LOG_LEVEL (default EVENT) sets ganesha's log level.
#
# There is no init system on the test machines, so rpcbind, rpc.statd and
# ganesha.nfsd are started as plain daemons.  ganesha listens on 127.0.0.1
# only; where loopback is the only interface (a network namespace of its
# own) on the wildcard, which there is 127.0.0.1 and ::1 together.  rpcbind
# and statd listen on IPv4 and IPv6 alike.  ganesha takes one Bind_addr:
# NFSFUSE_TEST_BIND_ADDR (e.g. ::1) names another, kept even where
# loopback is the only interface (ganesha then needs a non-loopback
# address of that family configured for its getaddrinfo(AI_ADDRCONFIG)).
#
# Exit status: 0 ok; 1 error; 2 usage error or missing packages;
# 3 (status only) not running.
set -euo pipefail

# rpcinfo, rpcbind and rpc.statd live in /usr/sbin, which ordinary users'
# PATH lacks on Debian.
PATH=$PATH:/usr/sbin:/sbin
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TEMPLATE="$SCRIPT_DIR/ganesha/nfsfuse-test.conf.in"
BIND_ADDR=${NFSFUSE_TEST_BIND_ADDR:-127.0.0.1}
TIMEOUT=${NFSFUSE_TEST_SERVER_TIMEOUT:-30}
LOG_LEVEL=${NFSFUSE_GANESHA_LOG_LEVEL:-EVENT}

# RPC programs that must answer before the server counts as started.
PROG_NFS=100003
PROG_MOUNT=100005
PROG_NLM=100021
PROG_STATUS=100024
PROG_RQUOTA=100011
# The server's fixed ports (see the config template).
SERVER_PORTS=(2049 20048 32803 875)

die() {
	echo "test-server: error: $*" >&2
	exit 1
}
say() { echo "test-server: $*"; }

usage() {
	sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}" >&2
	exit 2
}

# ---------------------------------------------------------------- arguments
[[ $# -ge 1 ]] || usage
CMD=$1
shift
STATE_DIR=${NFSFUSE_TEST_STATEDIR:-/tmp/nfsfuse-test-server}
EXPORT_DIR=${NFSFUSE_TEST_EXPORT:-}
STOP_ALL=0
while [[ $# -gt 0 ]]; do
	case $1 in
	--export) [[ $# -ge 2 ]] || usage; EXPORT_DIR=$2; shift 2 ;;
	--export=*) EXPORT_DIR=${1#*=}; shift ;;
	--statedir) [[ $# -ge 2 ]] || usage; STATE_DIR=$2; shift 2 ;;
	--statedir=*) STATE_DIR=${1#*=}; shift ;;
	--all) STOP_ALL=1; shift ;;
	-h | --help) usage ;;
	*) echo "test-server: unknown argument: $1" >&2; usage ;;
	esac
done
case $CMD in start | stop | restart | status | reboot) ;; *) usage ;; esac

# Relative paths would silently change meaning once ganesha chdirs to /.
STATE_DIR=$(realpath -m -- "$STATE_DIR")
[[ -n $EXPORT_DIR ]] || EXPORT_DIR=$STATE_DIR/export
EXPORT_DIR=$(realpath -m -- "$EXPORT_DIR")
SQUASH_DIR=$STATE_DIR/export-squash

CONF=$STATE_DIR/ganesha.conf
PIDFILE=$STATE_DIR/ganesha.pid
LOG=$STATE_DIR/ganesha.log
OUT=$STATE_DIR/ganesha.out # ganesha's stdio: messages from before -L applies
EXPORT_RECORD=$STATE_DIR/export.path
SQUASH_RECORD=$STATE_DIR/squash.path
RPCBIND_RECORD=$STATE_DIR/rpcbind.started-pid
STATD_RECORD=$STATE_DIR/statd.started-pid
# Seconds of grace after a 'reboot'; empty: graceless (start, restart).
GRACE=
NSM_STATE_FILE=/var/lib/nfs/state # nfs-utils' default state directory

# ------------------------------------------------------------------ helpers

# rpcinfo run by root binds a reserved source port (600-1023), and the
# TIME_WAIT it leaves behind can sit on 875, rquota's fixed port, so that
# ganesha then fails with "Cannot bind RQUOTA tcp6 socket".  Queries
# therefore run as nobody, which gets ordinary ephemeral ports; and never
# for long, since a wedged server would make rpcinfo hang.
unprivileged() {
	if [[ $(id -u) -eq 0 ]] && command -v setpriv >/dev/null 2>&1; then
		timeout 10 setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	else
		timeout 10 "$@"
	fi
}
rpcinfo_q() { unprivileged rpcinfo "$@"; }
rpc() { rpcinfo_q "$@" >/dev/null 2>&1; }

rpcbind_up() { rpc -p "$BIND_ADDR"; }

# True if the rpcbind on loopback lists PROG with VERS over tcp.
registered() {
	rpcinfo_q -p "$BIND_ADDR" 2>/dev/null |
		awk -v p="$1" -v v="$2" '$1 == p && $2 == v && $3 == "tcp" { f = 1 } END { exit !f }'
}

# Comm name of a live pid, or nothing.  /proc works for other users'
# processes, where kill -0 would fail with EPERM.  Zombies count as dead:
# where nothing reaps orphans (a container whose pid 1 is a shell), a
# stopped daemon may stay a zombie for good.
proc_comm() {
	local stat
	[[ -n ${1:-} && -r /proc/$1/stat ]] || return 0
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
	# "pid (comm) state ...": comm may contain spaces and parentheses.
	stat=${stat##*) }
	[[ ${stat%% *} != Z ]] || return 0
	cat "/proc/$1/comm" 2>/dev/null || true
}

# Non-zombie pids of processes named exactly NAME, oldest first.
live_pids() {
	local p
	for p in $(pgrep -x "$1" 2>/dev/null || true); do
		[[ $(proc_comm "$p") == "$1" ]] && echo "$p"
	done
	return 0
}

# The same, in our network namespace only: another namespace on the same
# machine (a container, a test sandbox) has an rpcbind and statd of its own.
netns_pids() {
	local p me
	me=$(readlink /proc/self/ns/net 2>/dev/null) || { live_pids "$1"; return 0; }
	for p in $(live_pids "$1"); do
		[[ $(readlink "/proc/$p/ns/net" 2>/dev/null) == "$me" ]] && echo "$p"
	done
	return 0
}

ganesha_pid() {
	local pid
	[[ -r $PIDFILE ]] || return 1
	pid=$(tr -dc '0-9' <"$PIDFILE")
	[[ -n $pid && $(proc_comm "$pid") == ganesha.nfsd ]] || return 1
	echo "$pid"
}

# The server counts as up only when NFSv3, NFSv4, MOUNTv3 and NLMv4 all
# answer a NULL call, not merely when they are registered.
server_answers() {
	registered $PROG_NFS 3 && registered $PROG_MOUNT 3 && registered $PROG_MOUNT 1 &&
		rpc -t "$BIND_ADDR" $PROG_NFS 3 && rpc -t "$BIND_ADDR" $PROG_NFS 4 &&
		rpc -t "$BIND_ADDR" $PROG_MOUNT 3 &&
		rpc -t "$BIND_ADDR" $PROG_NLM 4
}

# ganesha keeps running when an export fails to load (bad path, file system
# without file handle support), so also insist that MOUNT lists ours.
export_listed() {
	local want squash
	want=$(cat "$EXPORT_RECORD" 2>/dev/null) || return 1
	squash=$(cat "$SQUASH_RECORD" 2>/dev/null) || return 1
	unprivileged showmount -e "$BIND_ADDR" 2>/dev/null |
		awk -v d="$want" -v s="$squash" 'NR > 1 && $1 == d { f++ }
			NR > 1 && $1 == s { f++ } END { exit f != 2 }'
}

log_tail() {
	if [[ -r $LOG ]]; then
		# dbus and Kerberos complaints are normal here (no system bus, no
		# keytab) and would hide the real error.
		echo "---- errors in $LOG ----" >&2
		grep -E ' :(FATAL|CRIT|MAJ|WARN) :' "$LOG" | grep -v -E ':DBUS :|krb5|keytab|RADOS' | tail -n 20 >&2 || true
		echo "---- last lines of $LOG ----" >&2
		tail -n 10 "$LOG" >&2
		echo "----" >&2
	fi
	if [[ -s $OUT ]]; then
		echo "---- ganesha.nfsd output ($OUT) ----" >&2
		tail -n 30 "$OUT" >&2
		echo "----" >&2
	fi
}

need_tools() {
	local missing=() t
	for t in ganesha.nfsd rpcbind rpc.statd rpcinfo showmount; do
		command -v "$t" >/dev/null 2>&1 || missing+=("$t")
	done
	if [[ ${#missing[@]} -gt 0 ]]; then
		echo "test-server: error: missing ${missing[*]}; run contrib/install-deps.sh (packages nfs-ganesha nfs-ganesha-vfs rpcbind nfs-common)" >&2
		exit 2
	fi
	compgen -G '/usr/lib/*/ganesha/libfsalvfs.so' >/dev/null ||
		compgen -G '/usr/lib*/ganesha/libfsalvfs.so' >/dev/null || {
		echo "test-server: error: ganesha's VFS FSAL is missing; install nfs-ganesha-vfs (contrib/install-deps.sh)" >&2
		exit 2
	}
}

# ganesha needs root: the VFS FSAL uses open_by_handle_at (CAP_DAC_READ_SEARCH)
# and rquota's port 875 is privileged.  Re-run through sudo when we can.
need_root() {
	[[ $(id -u) -eq 0 ]] && return 0
	if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		local args=("$CMD" --statedir "$STATE_DIR" --export "$EXPORT_DIR")
		[[ $STOP_ALL -eq 1 ]] && args+=(--all)
		# The sudo'ed copy takes the lock itself; ours would block it.
		exec 9<&-
		exec sudo -n -- "${BASH_SOURCE[0]}" "${args[@]}"
	fi
	die "'$CMD' must run as root (ganesha's VFS FSAL needs CAP_DAC_READ_SEARCH); re-run with sudo"
}

# Refuse a state dir that someone else could have planted under /tmp.
check_state_dir() {
	if [[ -L $STATE_DIR ]]; then
		die "$STATE_DIR is a symlink; refusing to use it"
	fi
	if [[ -e $STATE_DIR ]]; then
		[[ -d $STATE_DIR ]] || die "$STATE_DIR exists and is not a directory"
		[[ $(stat -c %u "$STATE_DIR") -eq 0 ]] || die "$STATE_DIR is not owned by root; remove it first"
	fi
}

wait_for() { # seconds description command...
	local secs=$1 what=$2 i
	shift 2
	for ((i = 0; i < secs * 5; i++)); do
		"$@" && return 0
		sleep 0.2
	done
	echo "test-server: error: timed out after ${secs}s waiting for $what" >&2
	return 1
}

# ---------------------------------------------------------------- rpcbind & statd

start_rpcbind() {
	rpcbind_up && return 0
	say "starting rpcbind"
	# -w: warm start, so that registrations of daemons that outlived an
	# earlier rpcbind are kept.  Older builds lack it, hence the fallback.
	rpcbind -w </dev/null >/dev/null 2>&1 9<&- || rpcbind </dev/null >/dev/null 2>&1 9<&- ||
		die "rpcbind failed to start"
	wait_for 10 "rpcbind on $BIND_ADDR:111" rpcbind_up || die "rpcbind does not answer"
	netns_pids rpcbind | tail -n 1 >"$RPCBIND_RECORD"
}

statd_up() { rpc -t "$BIND_ADDR" $PROG_STATUS 1; }

start_statd() {
	statd_up && return 0
	say "starting rpc.statd"
	# -L: do not run sm-notify, which would send reboot notifications to
	# every host in /var/lib/nfs/sm.bak -- possibly hosts off this machine.
	rpc.statd -L </dev/null >/dev/null 2>&1 9<&- || die "rpc.statd failed to start"
	if ! wait_for 10 "rpc.statd to register" statd_up; then
		# Typically an older statd whose registration was lost when rpcbind
		# restarted under it: the new one then refuses to run.
		[[ -z $(live_pids rpc.statd) ]] ||
			echo "test-server: note: an rpc.statd is running (pid $(live_pids rpc.statd | tr '\n' ' ')) but is not registered; stop it and retry" >&2
		die "rpc.statd does not answer; without it ganesha refuses every NLM lock"
	fi
	netns_pids rpc.statd | tail -n 1 >"$STATD_RECORD"
}

# Kill a helper daemon only if this script started it (pid recorded) and
# the pid still belongs to that program.
stop_recorded() { # record-file comm
	local rec=$1 comm=$2 pid i
	[[ -r $rec ]] || return 0
	pid=$(tr -dc '0-9' <"$rec")
	rm -f "$rec"
	[[ -n $pid && $(proc_comm "$pid") == "$comm" ]] || return 0
	# A pid recorded by an older copy of this script may be another
	# network namespace's daemon of the same name: not ours to stop.
	[[ $(readlink "/proc/$pid/ns/net" 2>/dev/null) == "$(readlink /proc/self/ns/net)" ]] || return 0
	say "stopping $comm (pid $pid)"
	kill -TERM "$pid" 2>/dev/null || true
	for ((i = 0; i < 50; i++)); do
		[[ $(proc_comm "$pid") == "$comm" ]] || return 0
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null || true
}

# ---------------------------------------------------------------- ganesha

# ganesha resolves Bind_addr with getaddrinfo(AI_ADDRCONFIG), which finds
# no IPv4 address at all -- not even 127.0.0.1 or 0.0.0.0 -- when loopback
# is the only configured interface (a container or network namespace):
# "No IP address found for 127.0.0.1".  There the line is dropped; the
# default wildcard then reaches nothing but loopback anyway.
loopback_only() {
	command -v ip >/dev/null 2>&1 && ! ip -4 -o addr show scope global 2>/dev/null | grep -q inet
}

sed_escape() { printf '%s' "$1" | sed -e 's/[\\|&]/\\&/g'; }

write_config() {
	local e s q
	e=$(sed_escape "$EXPORT_DIR")
	s=$(sed_escape "$STATE_DIR")
	q=$(sed_escape "$SQUASH_DIR")
	local drop_bind=()
	if [[ -z ${NFSFUSE_TEST_BIND_ADDR:-} ]] && loopback_only; then
		drop_bind=(-e 's|^\([[:space:]]*\)Bind_addr = @BIND_ADDR@;|\1# Bind_addr omitted: loopback is the only interface|')
	fi
	local grace=()
	if [[ -n $GRACE ]]; then
		# The grace period (shared by NFSv4 and NLM in ganesha) of a
		# rebooted server.  Lease_Lifetime: 1..120, at most the grace.
		local lease=$((GRACE < 10 ? GRACE : 10))
		grace=(-e "s|^\([[:space:]]*\)Graceless = true;|\1Graceless = false;\n\1Grace_Period = $GRACE;\n\1Lease_Lifetime = $lease;|")
	fi
	sed "${drop_bind[@]}" "${grace[@]}" -e "s|@EXPORT_DIR@|$e|g" -e "s|@STATE_DIR@|$s|g" \
		-e "s|@SQUASH_DIR@|$q|g" \
		-e "s|@BIND_ADDR@|$BIND_ADDR|g" -e "s|@LOG_LEVEL@|$LOG_LEVEL|g" \
		"$TEMPLATE" >"$CONF.tmp"
	mv -f "$CONF.tmp" "$CONF"
}

# Another server listening on our ports is fatal.  Any other socket bound
# to one (a TIME_WAIT left by a root client's reserved source port, most
# likely on 875) only delays us: ganesha's bind would fail, so wait it out.
# Only sockets on the addresses the server binds count: an nfsfuse lock
# client may hold the NLM port number on an address of its own
# (clientaddr=127.0.X.2) to receive callbacks.
ours() {
	awk -v a="$BIND_ADDR" '{ split($5, h, ":[0-9]+$"); l = h[1] }
		l == a || l == "[" a "]" || l == "0.0.0.0" || l == "*" || l == "[::]" ||
		l == "[::ffff:" a "]"'
}

check_ports() {
	command -v ss >/dev/null 2>&1 || return 0
	local p out i busy
	out=""
	for p in "${SERVER_PORTS[@]}"; do
		out+=$(ss -Hlntup "sport = :$p" 2>/dev/null | ours || true)$'\n'
	done
	out=$(printf '%s' "$out" | sed '/^$/d')
	if [[ -n $out ]]; then
		echo "test-server: error: NFS ports already in use by another server:" >&2
		echo "$out" >&2
		exit 1
	fi
	for ((i = 0; i < 75 * 5; i++)); do
		busy=""
		for p in "${SERVER_PORTS[@]}"; do
			busy+=$(ss -Htanu "sport = :$p" 2>/dev/null | grep -v LISTEN | ours || true)$'\n'
		done
		busy=$(printf '%s' "$busy" | sed '/^$/d')
		[[ -z $busy ]] && return 0
		((i == 0)) && say "waiting for sockets on the server's ports to go away:" && echo "$busy"
		sleep 0.2
	done
	die "ports ${SERVER_PORTS[*]} still in use after 75s"
}

# A half-started server would make the next 'start' a silent no-op.
kill_failed() {
	local pid=$1
	[[ -n $pid ]] || return 0
	kill -KILL "$pid" 2>/dev/null || true
	rm -f "$PIDFILE"
	unregister_all
}

cmd_start() {
	local pid running_export
	if pid=$(ganesha_pid); then
		running_export=$(cat "$EXPORT_RECORD" 2>/dev/null || true)
		if [[ -n $running_export && $running_export != "$EXPORT_DIR" ]]; then
			die "already running (pid $pid) with export $running_export, not $EXPORT_DIR; stop it first"
		fi
		# Possibly still starting up in another process: give it the same
		# bounded wait as a fresh start.
		wait_for "$TIMEOUT" "the running server (pid $pid) to answer" server_answers ||
			{ log_tail; die "server (pid $pid) is running but does not answer"; }
		say "already running (pid $pid), export $EXPORT_DIR"
		return 0
	fi

	need_tools
	need_root
	[[ -r $TEMPLATE ]] || die "config template $TEMPLATE not found"
	[[ $EXPORT_DIR != *'"'* && $EXPORT_DIR != *$'\n'* ]] ||
		die "export path must not contain quotes or newlines"
	check_ports

	check_state_dir
	mkdir -p "$STATE_DIR" "$STATE_DIR/recovery"
	chmod 0755 "$STATE_DIR"
	if [[ ! -d $EXPORT_DIR ]]; then
		mkdir -p "$EXPORT_DIR"
		# World-writable and sticky, like /tmp: tests run as root and as an
		# ordinary user, each in a directory of its own.
		chmod 1777 "$EXPORT_DIR"
	fi
	EXPORT_DIR=$(realpath -e -- "$EXPORT_DIR")
	if [[ ! -d $SQUASH_DIR ]]; then
		mkdir -p "$SQUASH_DIR"
		chmod 1777 "$SQUASH_DIR"
	fi

	# The VFS FSAL finds the export's file system through /etc/mtab.
	# systemd-tmpfiles creates that link on installed systems; chroots and
	# minimal container images may lack it.
	if [[ ! -e /etc/mtab ]]; then
		say "creating the missing /etc/mtab -> ../proc/self/mounts"
		ln -sf ../proc/self/mounts /etc/mtab
	fi

	start_rpcbind
	start_statd

	write_config
	printf '%s\n' "$EXPORT_DIR" >"$EXPORT_RECORD"
	printf '%s\n' "$SQUASH_DIR" >"$SQUASH_RECORD"
	rm -f "$PIDFILE"
	[[ -e $LOG ]] && mv -f "$LOG" "$LOG.old"
	: >"$LOG"
	chmod 0644 "$LOG"

	say "starting ganesha.nfsd (export $EXPORT_DIR, log $LOG)"
	# ganesha daemonizes itself.  Its stdio must not inherit ours: a caller
	# that reads our output through a pipe (meson, $(...)) would otherwise
	# wait for the daemon to exit.  Nor may it (or rpcbind, statd) inherit
	# the lock on fd 9, which would then never be released.
	(cd / && exec ganesha.nfsd -f "$CONF" -L "$LOG" -p "$PIDFILE" -N NIV_EVENT \
		</dev/null >"$OUT" 2>&1 9<&-) || { log_tail; die "ganesha.nfsd failed to start"; }

	local i
	for ((i = 0; i < TIMEOUT * 5; i++)); do
		if pid=$(ganesha_pid) && server_answers; then
			if export_listed; then
				say "running (pid $pid): nfs://$BIND_ADDR$EXPORT_DIR"
				return 0
			fi
			log_tail
			kill_failed "$pid"
			die "ganesha.nfsd started but could not export $EXPORT_DIR (see $LOG)"
		fi
		# After the first seconds a missing process means it died (bad
		# config, port clash) -- no point in waiting out the timeout.
		if ((i > 15)) && ! ganesha_pid >/dev/null && [[ -z $(live_pids ganesha.nfsd) ]]; then
			log_tail
			die "ganesha.nfsd exited during start-up"
		fi
		sleep 0.2
	done
	log_tail
	rpcinfo_q -p "$BIND_ADDR" >&2 || true
	kill_failed "$(ganesha_pid || true)"
	die "ganesha.nfsd did not answer on $BIND_ADDR within ${TIMEOUT}s"
}

unregister_all() {
	# A SIGKILLed ganesha leaves its registrations behind; clients would
	# then get "connection refused" instead of "program not registered".
	local pv
	for pv in "$PROG_NFS 3" "$PROG_MOUNT 1" "$PROG_MOUNT 3" "$PROG_NLM 4" "$PROG_RQUOTA 1" "$PROG_RQUOTA 2"; do
		# shellcheck disable=SC2086 # word splitting into "prog vers" wanted
		timeout 10 rpcinfo -d $pv >/dev/null 2>&1 || true
	done
}

cmd_stop() {
	local pid i
	if pid=$(ganesha_pid); then
		need_root
		say "stopping ganesha.nfsd (pid $pid)"
		kill -TERM "$pid" 2>/dev/null || true
		for ((i = 0; i < 100; i++)); do
			[[ $(proc_comm "$pid") == ganesha.nfsd ]] || break
			sleep 0.2
		done
		if [[ $(proc_comm "$pid") == ganesha.nfsd ]]; then
			say "ganesha.nfsd ignored SIGTERM for 20s, killing it"
			kill -KILL "$pid" 2>/dev/null || true
			sleep 0.5
			unregister_all
		fi
		rm -f "$PIDFILE"
	else
		say "ganesha.nfsd is not running"
	fi
	if [[ $STOP_ALL -eq 1 ]]; then
		need_root
		stop_recorded "$STATD_RECORD" rpc.statd
		stop_recorded "$RPCBIND_RECORD" rpcbind
	fi
	return 0
}

nsm_state() { od -An -td4 -N4 "$NSM_STATE_FILE" 2>/dev/null | tr -d ' ' || true; }

# The statd this script started, else the one of our network namespace.
statd_pids() {
	local pid
	pid=$(tr -dc '0-9' <"$STATD_RECORD" 2>/dev/null || true)
	if [[ -n $pid && $(proc_comm "$pid") == rpc.statd &&
		$(readlink "/proc/$pid/ns/net" 2>/dev/null) == "$(readlink /proc/self/ns/net)" ]]; then
		echo "$pid"
		return 0
	fi
	netns_pids rpc.statd
}

# A rebooted host keeps no TCP state, but the killed ganesha's connections
# linger (FIN-WAIT, TIME-WAIT) and would make check_ports wait a minute for
# them.  Destroy them (ss -K, a kernel with INET_DIAG_DESTROY), which resets
# the peers as the rebooted host would on their next segment.  Only states
# that a dead process's sockets are left in, on the server's ports.
forget_connections() {
	command -v ss >/dev/null 2>&1 || return 0
	local p f=""
	for p in "${SERVER_PORTS[@]}"; do
		f+="${f:+ or }sport = :$p"
	done
	ss -K -tan state fin-wait-1 state fin-wait-2 state closing state last-ack \
		state time-wait "( $f )" >/dev/null 2>&1 || true
}

cmd_reboot() {
	local pid p i old new
	GRACE=${NFSFUSE_TEST_GRACE:-15}
	[[ $GRACE =~ ^[0-9]+$ && $GRACE -ge 1 && $GRACE -le 180 ]] ||
		die "NFSFUSE_TEST_GRACE must be 1..180 seconds"
	pid=$(ganesha_pid) || die "the server is not running: start it first"
	need_tools
	command -v sm-notify >/dev/null 2>&1 || die "sm-notify is missing (package nfs-common)"
	need_root
	old=$(nsm_state)

	# The crash.  What it held (NLM locks included) is gone with it.
	say "crashing ganesha.nfsd (pid $pid, SIGKILL)"
	kill -KILL "$pid" 2>/dev/null || true
	# A thread in the middle of a disk write (a COMMIT's fsync of what
	# a test wrote just before) finishes it first, and the ports are
	# free only once the process is gone: up to 30 s.
	for ((i = 0; i < 300; i++)); do
		[[ $(proc_comm "$pid") == ganesha.nfsd ]] || break
		sleep 0.1
	done
	rm -f "$PIDFILE"
	unregister_all
	forget_connections

	# The host goes down with it: statd too.
	for p in $(statd_pids); do
		say "stopping rpc.statd (pid $p)"
		kill -TERM "$p" 2>/dev/null || true
		for ((i = 0; i < 50; i++)); do
			[[ $(proc_comm "$p") == rpc.statd ]] || break
			sleep 0.1
		done
		[[ $(proc_comm "$p") != rpc.statd ]] || kill -KILL "$p" 2>/dev/null || true
	done
	rm -f "$STATD_RECORD"
	timeout 10 rpcinfo -d $PROG_STATUS 1 >/dev/null 2>&1 || true

	# The boot, in the order of a real one: sm-notify (run by statd when
	# it starts without -L) moves the monitor list (sm/) to sm.bak/, bumps
	# the NSM state number, then goes to the background to tell those
	# hosts; statd then starts and reads the new number, which is what
	# SM_STAT answers.  It must run before ganesha starts: ganesha's
	# SM_UNMON_ALL at start would empty the list that sm-notify reads.
	# -f: it ran before (its pid file says so); -m 1: give up on hosts
	# that do not answer after a minute.  Only hosts that ganesha's NLM
	# monitored are on the list: its clients, on loopback here.
	say "running sm-notify -f"
	sm-notify -f -m 1 </dev/null >/dev/null 2>&1 9<&- || say "sm-notify failed (status $?)"
	start_statd
	new=$(nsm_state)

	say "starting ganesha.nfsd with a ${GRACE}s grace period"
	cmd_start
	echo "nsm-state ${old:-?} ${new:-?}"
}

cmd_status() {
	local pid
	if pid=$(ganesha_pid); then
		if server_answers; then
			say "running (pid $pid), export $(cat "$EXPORT_RECORD" 2>/dev/null || echo '?'), log $LOG"
			return 0
		fi
		say "ganesha.nfsd (pid $pid) is running but does not answer; see $LOG"
		return 1
	fi
	say "not running"
	return 3
}

# Parallel tests all call 'start'; serialize start/stop so that only one of
# them launches the daemons.  The script file itself is the lock: readable by
# everyone, and always there.
if [[ $CMD != status ]] && command -v flock >/dev/null 2>&1; then
	exec 9<"${BASH_SOURCE[0]}"
	flock -w 120 9 || die "timed out waiting for another test-server.sh to finish"
fi

case $CMD in
start) cmd_start ;;
stop) cmd_stop ;;
restart) STOP_ALL=0; cmd_stop; cmd_start ;;
status) cmd_status ;;
reboot) cmd_reboot ;;
esac
