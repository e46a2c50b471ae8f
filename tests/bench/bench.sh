#!/usr/bin/env bash
# nfsfuse benchmark (issue 3): nfsfuse side by side with libnfs's nfs-cp /
# nfs-ls and with the local disk, against the loopback NFSv3 server.
#
# A script, not a timed test: it never fails on a time.  It prints one table
# (workload | tool | MB/s or seconds | wall s | daemon CPU s | RPCs) and a
# "targets" section with the issue's ratios and RPC counts, each marked
# "met" or "NOT met".  Exit status: 0 when every workload ran (targets met or
# not), 1 when some workload could not run, 2 for bad usage or missing
# prerequisites.  Everything it mounts and creates is removed on exit.
#
# Usage: tests/bench/bench.sh [options]
#   --size MiB            sequential write/read size (default 1024)
#   --files N             files for both "ls -l" and "create" (default:
#                         10000 for ls -l, 5000 for create)
#   --ls-files N          files for "ls -l" only
#   --create-files N      files for "create" only
#   --quick               smoke run: --size 64 --files 1000
#   --nfsfuse PATH        default: build/src/nfsfuse in the repository
#   --nfsfusectl PATH     default: build/tools/nfsfusectl in the repository
#   --server HOST         default 127.0.0.1
#   --export PATH         default: the first export `showmount -e HOST` lists
#   --local-dir DIR       parent of the local-disk directory (default /var/tmp)
#   --mount-opts OPTS     extra nfsfuse -o options (default none; the
#                         script adds statedir= of its own unless OPTS
#                         has statedir= or nolock)
#   --untar-src DIR       tree tarred for the untar workload (/usr/include)
#   --timeout S           bound for one workload (default max(600, 2*size))
#   -h, --help
#
# Method
#   MB/s are 10^6 bytes per second of wall time.  The source data is random
#   bytes in /dev/shm; reads copy into /dev/shm for every tool alike (nfs-cp
#   cannot write to /dev/null).
#   write  nfsfuse: dd bs=1M onto the mount, time includes close (which
#          flushes and COMMITs); nfs-cp: nfs-cp LOCAL nfs://...; local:
#          dd then `sync -f` (data on stable storage, as after an NFS close).
#   read   "cold" for every tool: the nfsfuse mount is unmounted and mounted
#          again, and (when root) `sync; echo 3 >/proc/sys/vm/drop_caches`,
#          which also empties the loopback server's page cache.  nfsfuse and
#          nfs-cp read the same server file.
#   re-read  the same file opened and read again right after the cold read
#          (nfsfuse: same mount; nfs-cp: a second run; local: page cache).
#   ls -l  N empty files made untimed; nfsfuse on a fresh mount (empty
#          client cache), `ls -l`; nfs-ls prints the same long listing.
#   create N files of 4 KiB, each open(O_CREAT|O_EXCL)+write+close, from one
#          process; local adds a final `sync -f`.  No libnfs equivalent.
#   untar  tar -x --no-same-owner of a tar (in /dev/shm) of /usr/include;
#          local adds a final `sync -f`.  No libnfs equivalent.
#   daemon CPU  nfsfuse: utime+stime of the daemon (/proc/PID/stat) across
#          the workload; nfs-cp/nfs-ls: the tool's own CPU (it is the
#          client); local: "-".
#   RPCs   delta of `nfsfusectl MNT stats --json` per procedure.

set -uo pipefail
export LC_ALL=C
PATH=$PATH:/usr/sbin:/sbin

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$BENCH_DIR/../.." && pwd)
HELPER=$BENCH_DIR/bench_helper.py
PY=$(command -v /usr/bin/python3 || command -v python3 || true)

SIZE_MIB=1024
LS_FILES=10000
CREATE_FILES=5000
NFSFUSE=$REPO_ROOT/build/src/nfsfuse
NFSFUSECTL=$REPO_ROOT/build/tools/nfsfusectl
SERVER=127.0.0.1
EXPORT=
LOCAL_PARENT=/var/tmp
MOUNT_OPTS=
UNTAR_SRC=/usr/include
TMO=
CREATE_SIZE=4096

usage() { sed -n '/^# Usage:/,/^#   -h, --help/s/^# \{0,1\}//p' "$0"; }
die2() { echo "bench.sh: $*" >&2; exit 2; }
need_arg() { [[ $# -ge 2 && -n $2 ]] || die2 "$1 needs a value"; }
need_uint() { [[ $2 =~ ^[0-9]+$ && $2 -gt 0 ]] || die2 "$1: expected a positive integer, got '$2'"; }

while [[ $# -gt 0 ]]; do
	case $1 in
	--size) need_arg "$@"; need_uint "$1" "$2"; SIZE_MIB=$2; shift 2 ;;
	--files) need_arg "$@"; need_uint "$1" "$2"; LS_FILES=$2; CREATE_FILES=$2; shift 2 ;;
	--ls-files) need_arg "$@"; need_uint "$1" "$2"; LS_FILES=$2; shift 2 ;;
	--create-files) need_arg "$@"; need_uint "$1" "$2"; CREATE_FILES=$2; shift 2 ;;
	--quick) SIZE_MIB=64; LS_FILES=1000; CREATE_FILES=1000; shift ;;
	--nfsfuse) need_arg "$@"; NFSFUSE=$2; shift 2 ;;
	--nfsfusectl) need_arg "$@"; NFSFUSECTL=$2; shift 2 ;;
	--server) need_arg "$@"; SERVER=$2; shift 2 ;;
	--export) need_arg "$@"; EXPORT=$2; shift 2 ;;
	--local-dir) need_arg "$@"; LOCAL_PARENT=$2; shift 2 ;;
	--mount-opts) need_arg "$@"; MOUNT_OPTS=$2; shift 2 ;;
	--untar-src) need_arg "$@"; UNTAR_SRC=$2; shift 2 ;;
	--timeout) need_arg "$@"; need_uint "$1" "$2"; TMO=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die2 "unknown option '$1'" ;;
	esac
done
[[ -n $TMO ]] || TMO=$((SIZE_MIB * 2 > 600 ? SIZE_MIB * 2 : 600))

# ------------------------------------------------------------ prerequisites

[[ -n $PY ]] || die2 "python3 is needed (for $HELPER)"
[[ -r $HELPER ]] || die2 "$HELPER is missing"
[[ -x $NFSFUSE ]] || die2 "nfsfuse binary not found: $NFSFUSE (build it, or give --nfsfuse PATH)"
[[ -x $NFSFUSECTL ]] || die2 "nfsfusectl binary not found: $NFSFUSECTL (give --nfsfusectl PATH)"
[[ -e /dev/fuse ]] || die2 "/dev/fuse is missing"
for c in fusermount3 mountpoint nfs-cp nfs-ls tar dd sync timeout; do
	command -v "$c" >/dev/null 2>&1 || die2 "'$c' is not installed (nfs-cp/nfs-ls: Debian libnfs-utils; fusermount3: fuse3)"
done
[[ -d $UNTAR_SRC ]] || die2 "untar source $UNTAR_SRC is not a directory"
[[ -d $LOCAL_PARENT && -w $LOCAL_PARENT ]] || die2 "local directory $LOCAL_PARENT is not writable"
if [[ -z $EXPORT ]]; then
	command -v showmount >/dev/null 2>&1 || die2 "showmount is not installed (nfs-common); give --export PATH"
	EXPORT=$(timeout 20 showmount -e "$SERVER" 2>/dev/null | awk 'NR > 1 { print $1; exit }')
	[[ -n $EXPORT ]] || die2 "no export found with 'showmount -e $SERVER' (is the server running?); give --export PATH"
fi
EXPORT=${EXPORT%/}
[[ -n $EXPORT ]] || EXPORT=/
URL_BASE="nfs://$SERVER${EXPORT%/}"

# ------------------------------------------------------------ state, cleanup

SHM=
LOCAL=
MNT=
DPID=
DAEMONS=()
MOUNTS=0
LAST_ERR=
RDIR=nfsfuse-bench.$$.$(date +%s)
REMOTE_MADE=0
LOCAL_EXPORT_OK=0
FAILED=()
ROWS=()

log() { printf '[%s] %s\n' "$(date +%T)" "$*" >&2; }

# Find the daemon serving $1: the nfsfuse process with $1 as an argument.
daemon_pid() {
	local p arg
	for p in /proc/[0-9]*; do
		[[ -r $p/cmdline ]] || continue
		local found=0 isnf=0 first=1
		while IFS= read -r -d '' arg; do
			if ((first)); then
				[[ $(basename -- "$arg") == nfsfuse* ]] && isnf=1
				first=0
			fi
			[[ $arg == "$1" ]] && found=1
		done <"$p/cmdline" 2>/dev/null
		if ((isnf && found)); then
			echo "${p#/proc/}"
			return 0
		fi
	done
	return 1
}

do_mount() {
	local opts=() i o=$MOUNT_OPTS
	# A lock state directory of our own: the default one may be in use by
	# another mount on this machine, and nfsfuse refuses to share it.
	# A new one for each mount, so that a daemon that outlives its
	# unmount (see do_umount) does not block the next mount.
	MOUNTS=$((MOUNTS + 1))
	[[ ,$o, == *,statedir=* || ,$o, == *,nolock,* ]] || o=statedir=$SHM/state.$MOUNTS${o:+,$o}
	opts=(-o "$o")
	if ! timeout 30 "$NFSFUSE" "${opts[@]}" "$SERVER:$EXPORT" "$MNT" >"$SHM/mount.log" 2>&1; then
		LAST_ERR="nfsfuse failed to mount $SERVER:$EXPORT on $MNT: $(tail -n 3 "$SHM/mount.log" | tr '\n' ' ')"
		log "$LAST_ERR"
		return 1
	fi
	for ((i = 0; i < 100; i++)); do
		mountpoint -q "$MNT" && break
		sleep 0.1
	done
	if ! mountpoint -q "$MNT"; then
		LAST_ERR="nfsfuse: $MNT is not a mount point after 10 s"
		log "$LAST_ERR"
		return 1
	fi
	if ! DPID=$(daemon_pid "$MNT"); then
		LAST_ERR="cannot find the nfsfuse daemon of $MNT"
		log "$LAST_ERR"
		return 1
	fi
	DAEMONS+=("$DPID")
}

do_umount() {
	local i
	mountpoint -q "$MNT" 2>/dev/null || { DPID=; return 0; }
	for ((i = 0; i < 50; i++)); do
		fusermount3 -u "$MNT" 2>/dev/null && break
		sleep 0.2
	done
	if mountpoint -q "$MNT"; then
		echo "bench.sh: $MNT is busy, detaching it lazily" >&2
		fusermount3 -uz "$MNT" 2>/dev/null
	fi
	# Give the daemon time to exit.  It may not: when another mount
	# namespace was created while the file system was mounted (e.g. a
	# daemon started with a private mount namespace), that namespace holds
	# a copy of the mount, the FUSE connection stays up and the daemon with
	# it.  Go on; cleanup ends such daemons (ours) by their pid.
	if [[ -n $DPID ]]; then
		for ((i = 0; i < 100; i++)); do
			kill -0 "$DPID" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$DPID" 2>/dev/null &&
			log "note: nfsfuse daemon $DPID still runs 10 s after its unmount (mount copied into another mount namespace?)"
	fi
	DPID=
}

# End the daemons this script started that outlived their unmount, by pid,
# after checking that the pid is still an nfsfuse serving our mount point.
reap_daemons() {
	local p i alive=()
	for p in "${DAEMONS[@]}"; do
		kill -0 "$p" 2>/dev/null || continue
		tr '\0' '\n' <"/proc/$p/cmdline" 2>/dev/null | grep -qxF -- "$MNT" || continue
		mountpoint -q "$MNT" && [[ $p == "$DPID" ]] && continue
		log "ending nfsfuse daemon $p that outlived its unmount"
		kill -TERM "$p" 2>/dev/null
		alive+=("$p")
	done
	for p in "${alive[@]}"; do
		for ((i = 0; i < 50; i++)); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$p" 2>/dev/null && log "warning: nfsfuse daemon $p did not exit on SIGTERM"
	done
}

remount() { do_umount && do_mount; }

cleanup() {
	local rc=$?
	trap - EXIT INT TERM HUP
	if [[ -n $MNT ]]; then
		if ((REMOTE_MADE && !LOCAL_EXPORT_OK)); then
			# The export is not reachable here: remove through the mount.
			{ mountpoint -q "$MNT" || do_mount; } 2>/dev/null &&
				rm -rf -- "${MNT:?}/$RDIR"
		fi
		do_umount
		reap_daemons
		rmdir -- "$MNT" 2>/dev/null
	fi
	if ((REMOTE_MADE && LOCAL_EXPORT_OK)); then
		rm -rf -- "${EXPORT:?}/$RDIR"
	fi
	[[ -n $LOCAL ]] && rm -rf -- "$LOCAL"
	[[ -n $SHM ]] && rm -rf -- "$SHM"
	exit "$rc"
}
trap cleanup EXIT
trap 'echo "bench.sh: interrupted" >&2; exit 130' INT TERM HUP

DROP_STATE=unknown
drop_caches() {
	sync
	if [[ $DROP_STATE != no ]] && { echo 3 >/proc/sys/vm/drop_caches; } 2>/dev/null; then
		DROP_STATE=yes
	else
		DROP_STATE=no
	fi
}

# measure ROWVARS... : run bench_helper measure, eval its M_* output.
# Returns non-zero (and records the failure) when the workload failed.
measure() { # label nfsfuse(0|1) helper-args...
	local label=$1 on_mount=$2
	shift 2
	local args=(--timeout "$TMO")
	((on_mount)) && args+=(--pid "$DPID" --ctl "$NFSFUSECTL" --mnt "$MNT")
	unset -v "${!M_@}"
	# Not in $(...): the helper must be bash's direct child so that a
	# Ctrl-C that kills it also runs our INT trap.
	if ! "$PY" "$HELPER" measure "${args[@]}" "$@" >"$SHM/m.out" 2>"$SHM/err"; then
		LAST_ERR=$(tr '\n' ' ' <"$SHM/err")
		log "FAILED: $label: $(cat "$SHM/err")"
		return 1
	fi
	eval "$(<"$SHM/m.out")"
}

fmt_mbs() { awk -v b="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.1f MB/s", b / s / 1e6; else print "-" }'; }
fmt_s() { awk -v s="$1" 'BEGIN { printf "%.3f", s }'; }
fmt_cpu() { [[ $1 == - ]] && echo - || awk -v s="$1" 'BEGIN { printf "%.2f", s }'; }

# row WORKLOAD TOOL RESULT : a table row from the last M_* values.
row() { ROWS+=("$1"$'\t'"$2"$'\t'"$3"$'\t'"$(fmt_s "$M_WALL")"$'\t'"$4"$'\t'"$5"); }
row_measured() { # workload tool result [daemon-cpu]
	local cpu=${4:-$(fmt_cpu "$M_DCPU")}
	row "$1" "$2" "$3" "$cpu" "$M_RPCS"
}
# row_failed WORKLOAD TOOL : the workload did not run; the reason is the
# last recorded error (LAST_ERR), or "set-up failed".
row_failed() {
	ROWS+=("$1"$'\t'"$2"$'\t'"FAILED"$'\t'"-"$'\t'"-"$'\t'"-")
	FAILED+=("$1 / $2: ${LAST_ERR:-set-up failed}")
	LAST_ERR=
}
row_none() { ROWS+=("$1"$'\t'"$2"$'\t'"-"$'\t'"-"$'\t'"-"$'\t'"no libnfs equivalent"); }

# ------------------------------------------------------------ set-up

SHM=$(mktemp -d /dev/shm/nfsfuse-bench.XXXXXX) || die2 "cannot make a directory in /dev/shm"
LOCAL=$(mktemp -d "$LOCAL_PARENT/nfsfuse-bench.XXXXXX") || die2 "cannot make a directory in $LOCAL_PARENT"
MNT=$(mktemp -d /tmp/nfsfuse-bench-mnt.XXXXXX) || die2 "cannot make a mount point in /tmp"

SIZE_B=$((SIZE_MIB * 1024 * 1024))
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
log "nfsfuse $NFSFUSE, server $SERVER:$EXPORT, size $SIZE_MIB MiB, ls $LS_FILES files, create $CREATE_FILES files"

do_mount || die2 "cannot mount $SERVER:$EXPORT with $NFSFUSE"
mkdir -- "$MNT/$RDIR" || die2 "cannot create $RDIR on the export"
REMOTE_MADE=1
[[ -d $EXPORT/$RDIR ]] && LOCAL_EXPORT_OK=1
R=$MNT/$RDIR          # the remote work directory, through nfsfuse
RURL=$URL_BASE/$RDIR  # the same, for libnfs

log "preparing $SIZE_MIB MiB of random data and a tar of $UNTAR_SRC in $SHM"
head -c "$SIZE_B" /dev/urandom >"$SHM/src" || die2 "cannot write $SHM/src"
tar -C "$(dirname -- "$UNTAR_SRC")" -cf "$SHM/untar.tar" "$(basename -- "$UNTAR_SRC")" 2>"$SHM/err" ||
	die2 "cannot tar $UNTAR_SRC: $(tail -n 2 "$SHM/err")"
TAR_ENTRIES=$(tar -tf "$SHM/untar.tar" | wc -l)
TAR_MB=$(($(stat -c %s "$SHM/untar.tar") / 1000000))

# ------------------------------------------------------------ 1. write

W="write ${SIZE_MIB}MiB"
log "$W: nfsfuse"
sync
if measure "$W nfsfuse" 1 -- dd if="$SHM/src" of="$R/big" bs=1M status=none; then
	row_measured "$W" nfsfuse "$(fmt_mbs "$SIZE_B" "$M_WALL")"
	W_NFSFUSE=$M_WALL
	got=$(stat -c %s -- "$R/big" 2>/dev/null)
	[[ $got == "$SIZE_B" ]] || FAILED+=("$W nfsfuse: file has $got bytes, expected $SIZE_B")
else row_failed "$W" nfsfuse; fi

log "$W: nfs-cp"
sync
if measure "$W nfs-cp" 0 -- nfs-cp "$SHM/src" "$RURL/big.nfscp"; then
	row_measured "$W" nfs-cp "$(fmt_mbs "$SIZE_B" "$M_WALL")" "$(fmt_cpu "$M_CCPU")"
	W_NFSCP=$M_WALL
	got=$(stat -c %s -- "$R/big.nfscp" 2>/dev/null)
	[[ $got == "$SIZE_B" ]] || FAILED+=("$W nfs-cp: file has $got bytes, expected $SIZE_B")
else row_failed "$W" nfs-cp; fi
rm -f -- "$R/big.nfscp"

log "$W: local disk"
sync
if measure "$W local" 0 -- sh -c 'dd if="$1" of="$2" bs=1M status=none && sync -f "$2"' sh "$SHM/src" "$LOCAL/big"; then
	row_measured "$W" local "$(fmt_mbs "$SIZE_B" "$M_WALL")" -
else row_failed "$W" local; fi

# ------------------------------------------------------------ 2. cold read, re-read

RD="cold read ${SIZE_MIB}MiB"
RR="re-read after reopen"
log "$RD / $RR: nfsfuse"
if [[ -f $R/big ]] && do_umount && drop_caches && do_mount; then
	if measure "$RD nfsfuse" 1 -- dd if="$R/big" of="$SHM/out" bs=1M status=none; then
		row_measured "$RD" nfsfuse "$(fmt_mbs "$SIZE_B" "$M_WALL")"
		R_NFSFUSE=$M_WALL
		cmp -s -- "$SHM/src" "$SHM/out" || FAILED+=("$RD nfsfuse: data read differs from data written")
		rm -f -- "$SHM/out"
		if measure "$RR nfsfuse" 1 -- dd if="$R/big" of="$SHM/out" bs=1M status=none; then
			row_measured "$RR" nfsfuse "$(fmt_mbs "$SIZE_B" "$M_WALL")"
			RR_GETATTR=$M_RPC_GETATTR RR_READ=$M_RPC_READ RR_TOTAL=$M_RPC_TOTAL RR_RPCS=$M_RPCS
		else row_failed "$RR" nfsfuse; fi
		rm -f -- "$SHM/out"
	else row_failed "$RD" nfsfuse; LAST_ERR="not run: the cold read failed"; row_failed "$RR" nfsfuse; fi
else
	[[ -f $R/big ]] || LAST_ERR="cannot find $R/big through the mount (write failed, or the server is unreachable)"
	row_failed "$RD" nfsfuse; LAST_ERR="not run: the cold read failed"; row_failed "$RR" nfsfuse
fi

log "$RD / $RR: nfs-cp"
drop_caches
if measure "$RD nfs-cp" 0 -- nfs-cp "$RURL/big" "$SHM/out"; then
	row_measured "$RD" nfs-cp "$(fmt_mbs "$SIZE_B" "$M_WALL")" "$(fmt_cpu "$M_CCPU")"
	R_NFSCP=$M_WALL
	rm -f -- "$SHM/out"
	if measure "$RR nfs-cp" 0 -- nfs-cp "$RURL/big" "$SHM/out"; then
		row_measured "$RR" nfs-cp "$(fmt_mbs "$SIZE_B" "$M_WALL")" "$(fmt_cpu "$M_CCPU")"
	else row_failed "$RR" nfs-cp; fi
	rm -f -- "$SHM/out"
else row_failed "$RD" nfs-cp; LAST_ERR="not run: the cold read failed"; row_failed "$RR" nfs-cp; fi

log "$RD / $RR: local disk"
drop_caches
if measure "$RD local" 0 -- dd if="$LOCAL/big" of="$SHM/out" bs=1M status=none; then
	row_measured "$RD" local "$(fmt_mbs "$SIZE_B" "$M_WALL")" -
	rm -f -- "$SHM/out"
	if measure "$RR local" 0 -- dd if="$LOCAL/big" of="$SHM/out" bs=1M status=none; then
		row_measured "$RR" local "$(fmt_mbs "$SIZE_B" "$M_WALL")" -
	else row_failed "$RR" local; fi
	rm -f -- "$SHM/out"
else row_failed "$RD" local; LAST_ERR="not run: the cold read failed"; row_failed "$RR" local; fi
rm -f -- "$LOCAL/big" "$SHM/out"

# ------------------------------------------------------------ 3. ls -l

L="ls -l ${LS_FILES} files"
log "$L: set-up"
LS_OK=1
if ((LOCAL_EXPORT_OK)); then
	mkdir -- "$EXPORT/$RDIR/ls" && "$PY" "$HELPER" mkfiles "$EXPORT/$RDIR/ls" "$LS_FILES" || LS_OK=0
else
	mkdir -- "$R/ls" && "$PY" "$HELPER" mkfiles "$R/ls" "$LS_FILES" || LS_OK=0
fi
mkdir -- "$LOCAL/ls" && "$PY" "$HELPER" mkfiles "$LOCAL/ls" "$LS_FILES" || LS_OK=0
if ((!LS_OK)); then
	LAST_ERR="could not create the $LS_FILES files"
	row_failed "$L" nfsfuse; LAST_ERR="not run: set-up failed"; row_failed "$L" nfs-ls
	LAST_ERR="not run: set-up failed"; row_failed "$L" local
else
	log "$L: nfsfuse (fresh mount)"
	if remount && measure "$L nfsfuse" 1 --count-lines -- ls -l "$R/ls"; then
		row_measured "$L" nfsfuse "$(fmt_s "$M_WALL") s"
		((M_LINES == LS_FILES + 1)) || FAILED+=("$L nfsfuse: listed $((M_LINES - 1)) files, expected $LS_FILES")
	else row_failed "$L" nfsfuse; fi
	log "$L: nfs-ls"
	if measure "$L nfs-ls" 0 --count-lines -- nfs-ls "$RURL/ls"; then
		row_measured "$L" nfs-ls "$(fmt_s "$M_WALL") s" "$(fmt_cpu "$M_CCPU")"
		((M_LINES >= LS_FILES)) || FAILED+=("$L nfs-ls: listed $M_LINES entries, expected $LS_FILES")
	else row_failed "$L" nfs-ls; fi
	log "$L: local disk"
	if measure "$L local" 0 --count-lines -- ls -l "$LOCAL/ls"; then
		row_measured "$L" local "$(fmt_s "$M_WALL") s" -
	else row_failed "$L" local; fi
fi
rm -rf -- "$LOCAL/ls"

# ------------------------------------------------------------ 4. create

C="create ${CREATE_FILES} x 4KiB"
log "$C: nfsfuse (fresh mount)"
if remount && mkdir -- "$R/c" && measure "$C nfsfuse" 1 --create "$R/c" "$CREATE_FILES" "$CREATE_SIZE"; then
	row_measured "$C" nfsfuse "$(fmt_s "$M_WALL") s"
	C_TOTAL=$M_RPC_TOTAL C_WRITE=$M_RPC_WRITE C_COMMIT=$M_RPC_COMMIT C_RPCS=$M_RPCS
else row_failed "$C" nfsfuse; fi
row_none "$C" nfs-cp
log "$C: local disk"
if mkdir -- "$LOCAL/c" && measure "$C local" 0 -- sh -c '"$1" "$2" measure --create "$3" "$4" "$5" >/dev/null && sync -f "$3"' \
	sh "$PY" "$HELPER" "$LOCAL/c" "$CREATE_FILES" "$CREATE_SIZE"; then
	row_measured "$C" local "$(fmt_s "$M_WALL") s" -
else row_failed "$C" local; fi
rm -rf -- "$LOCAL/c"

# ------------------------------------------------------------ 5. untar

U="untar $(basename -- "$UNTAR_SRC") (${TAR_ENTRIES} entries, ${TAR_MB} MB)"
log "$U: nfsfuse (fresh mount)"
if remount && mkdir -- "$R/u" && measure "$U nfsfuse" 1 -- tar -C "$R/u" --no-same-owner -xf "$SHM/untar.tar"; then
	row_measured "$U" nfsfuse "$(fmt_s "$M_WALL") s"
	U_TOTAL=$M_RPC_TOTAL
else row_failed "$U" nfsfuse; fi
row_none "$U" nfs-cp
log "$U: local disk"
if mkdir -- "$LOCAL/u" && measure "$U local" 0 -- sh -c 'tar -C "$1" --no-same-owner -xf "$2" && sync -f "$1"' sh "$LOCAL/u" "$SHM/untar.tar"; then
	row_measured "$U" local "$(fmt_s "$M_WALL") s" -
else row_failed "$U" local; fi
rm -rf -- "$LOCAL/u"

LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

# ------------------------------------------------------------ report

echo
echo "nfsfuse benchmark  $(date '+%F %T')"
echo "  nfsfuse:  $NFSFUSE ($(cd "$REPO_ROOT" && git describe --always --dirty 2>/dev/null || echo "no git"))${MOUNT_OPTS:+  -o $MOUNT_OPTS}"
echo "  server:   $SERVER:$EXPORT   local disk: $LOCAL_PARENT ($(df -P "$LOCAL_PARENT" | awk 'NR == 2 { print $1 }'))"
echo "  machine:  $(nproc) CPUs; load average $LOAD_START at start, $LOAD_END at end"
case $DROP_STATE in
yes) echo "  cold reads: remount + sync + drop_caches (page cache dropped, client and server)" ;;
*) echo "  cold reads: remount only; could NOT drop the page cache (not root?): server-side reads were warm" ;;
esac
echo "  MB/s = 10^6 B/s of wall time; daemon CPU = nfsfuse daemon utime+stime (nfs-cp/nfs-ls: the tool's own CPU)"
echo
{
	printf 'workload\ttool\tMB/s or s\twall s\tdaemon CPU s\tRPCs\n'
	printf '%s\n' "${ROWS[@]}"
} | column -t -s $'\t' -o ' | '

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }
mark() { if "$@"; then echo met; else echo "NOT met"; fi; }

echo
echo "targets"
if [[ -n ${R_NFSFUSE:-} && -n ${R_NFSCP:-} ]]; then
	# Same bytes, so the MB/s ratio is the inverse ratio of the times.
	r=$(ratio "$R_NFSCP" "$R_NFSFUSE")
	printf '  %-48s %-10s %s\n' "cold read nfsfuse/nfs-cp >= 1.20" "$r" "$(mark ge "$r" 1.2)"
else
	printf '  %-48s %-10s %s\n' "cold read nfsfuse/nfs-cp >= 1.20" "-" "NOT measured"
fi
if [[ -n ${W_NFSFUSE:-} && -n ${W_NFSCP:-} ]]; then
	r=$(ratio "$W_NFSCP" "$W_NFSFUSE")
	printf '  %-48s %-10s %s\n' "write nfsfuse/nfs-cp >= 1.00" "$r" "$(mark ge "$r" 1.0)"
else
	printf '  %-48s %-10s %s\n' "write nfsfuse/nfs-cp >= 1.00" "-" "NOT measured"
fi
if [[ -n ${RR_GETATTR:-} ]]; then
	v="GETATTR $RR_GETATTR READ $RR_READ"
	extra=$((RR_TOTAL - RR_GETATTR - RR_READ))
	((extra > 0)) && v="$v (+$extra other: $RR_RPCS)"
	printf '  %-48s %-10s %s\n' "re-read: 1 GETATTR and 0 READ" "$v" \
		"$(mark test "$RR_GETATTR" -eq 1 -a "$RR_READ" -eq 0)"
else
	printf '  %-48s %-10s %s\n' "re-read: 1 GETATTR and 0 READ" "-" "NOT measured"
fi
if [[ -n ${C_TOTAL:-} ]]; then
	nd=$((C_TOTAL - C_WRITE))
	per=$(awk -v a="$nd" -v n="$CREATE_FILES" 'BEGIN { printf "%.2f", a / n }')
	printf '  %-48s %-10s %s\n' "create: <= 2 RPCs per file (+ its WRITEs)" "$per" "$(mark ge 2 "$per")"
	printf '    (%d RPCs for %d files: %s; WRITE %d/file, COMMIT %d/file not exempted)\n' \
		"$C_TOTAL" "$CREATE_FILES" "$C_RPCS" "$((C_WRITE / CREATE_FILES))" "$((C_COMMIT / CREATE_FILES))"
else
	printf '  %-48s %-10s %s\n' "create: <= 2 RPCs per file (+ its WRITEs)" "-" "NOT measured"
fi
if [[ -n ${U_TOTAL:-} ]]; then
	printf '  %-48s %s\n' "(untar, for information: RPCs per tar entry)" \
		"$(awk -v a="$U_TOTAL" -v n="$TAR_ENTRIES" 'BEGIN { printf "%.2f", a / n }')"
fi

if ((${#FAILED[@]})); then
	echo
	echo "bench.sh: ${#FAILED[@]} workload(s) could not run or gave wrong results:" >&2
	printf '  %s\n' "${FAILED[@]}" >&2
	exit 1
fi
exit 0
