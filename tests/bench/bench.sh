#!/usr/bin/env bash
# nfsfuse benchmark: nfsfuse side by side with libnfs (nfs-cp, nfs-ls, and
# tests/bench/nfs_randread), with the local disk and with the previous
# nfsfuse build, against the loopback NFSv3 server; and nfsfuse over
# NFSv4.1 against nfsfuse over NFSv3, on the same server and export.
#
# A script, not a timed test: it never fails on a time.  It prints one table
# (workload | tool | result | wall s | daemon CPU s | CPU us/RPC | server
# CPU s | RPCs) and
# a "targets" section with the performance targets, each a ratio measured
# in this run (or an RPC count), marked "met" or "NOT met".  Exit status: 0
# when every workload ran (targets met or not), 1 when some workload could
# not run, 2 for bad usage or missing prerequisites.  Everything it mounts
# and creates is removed on exit.
#
# Usage: tests/bench/bench.sh [options]
#   --size MiB            sequential write/read size (default 512)
#   --small-write MiB     the dd bs=4k vs bs=1M write (default 256)
#   --files N             files for both "ls -l" and "create" (default:
#                         10000 for ls -l, 5000 for create)
#   --ls-files N          files for "ls -l" only
#   --create-files N      files for "create" only
#   --scale               also "ls -l" of 10 x --ls-files files (100,000),
#                         and the memory per inode measured there (slow:
#                         the files are made first)
#   --rand-size MiB       file of the random 4 KiB reads (default 1024)
#   --rand-time S         seconds of each random-read run (default 5)
#   --mem-read MiB        read for the RSS against cache_size (default 4096)
#   --repeat N            runs of each workload, the median reported
#                         (default 3; the cold read: at least 5)
#   --quick               smoke run: --size 64 --small-write 8 --files 500
#                         --create-files 200 --rand-size 128 --rand-time 2
#                         --mem-read 512 --repeat 1, /usr/include/linux
#                         untarred, and the subject itself as the baseline
#                         unless --baseline-rev/--baseline-nfsfuse is given
#   --baseline-rev REV    the previous nfsfuse build: REV (default f4a4a32,
#                         the commit before the issue 13 work) is built
#                         from `git archive` in a temporary directory
#                         (meson, release, -Db_sanitize=none), cached in
#                         ${XDG_CACHE_HOME:-~/.cache}/nfsfuse-bench/COMMIT
#   --baseline-nfsfuse PATH  a built baseline daemon instead (its
#                         nfsfusectl: --baseline-nfsfusectl, default the
#                         tools/nfsfusectl beside its src/, else ours)
#   --baseline-nfsfusectl PATH
#   --no-baseline         skip the comparison with the previous build
#   --no-v4               skip the NFSv4.1 rows ("nfsfuse v4.1")
#   --v4-export PATH      the export's path over NFSv4.1, from the server's
#                         pseudo root (default: --export; the test server's
#                         pseudo path of an export is its real path)
#   --nfsfuse PATH        default: build/src/nfsfuse in the repository
#   --nfsfusectl PATH     default: build/tools/nfsfusectl in the repository
#   --randread PATH       default: build/tests/bench/nfs_randread
#   --floor PATH          default: build/tests/bench/fuse_floor
#   --server HOST         default 127.0.0.1
#   --export PATH         default: the first export `showmount -e HOST` lists
#   --local-dir DIR       parent of the local-disk directory (default /var/tmp)
#   --server-pid PID      the NFS server's process, when it runs on this
#                         machine (default: the one ganesha.nfsd running,
#                         when the export is a local directory)
#   --mount-opts OPTS     extra nfsfuse -o options, for every mount of both
#                         builds (default none; the script adds statedir=
#                         of its own unless OPTS has statedir= or nolock)
#   --untar-src DIR       tree tarred for the untar workload (/usr/include)
#   --timeout S           bound for one workload (default max(600, 2*size))
#   -h, --help
#
# Method
#   MB/s are 10^6 bytes per second of wall time.  The source data is random
#   bytes in /dev/shm; reads copy into /dev/shm for every tool alike (nfs-cp
#   cannot write to /dev/null).  A workload run several times reports the
#   median run (its time, CPU and RPCs) and the range; the tools compared
#   run one after the other in each round, so that a change of the
#   machine's load falls on both.  A workload whose first run took longer
#   than 60 s (untar, find and rm against the previous build: 120 s), or
#   one of whose runs failed, is not repeated.
#   write  dd bs=1M conv=fsync (nfsfuse, local); nfs-cp LOCAL nfs://...
#          (libnfs sends no COMMIT).
#   small writes  nfsfuse: --small-write MiB by dd bs=4k conv=fsync, and
#          the same bytes by dd bs=1M conv=fsync; WRITE calls of the 4 KiB
#          run against size / wsize (wsize from `nfsfusectl list`).
#   read   "cold" for every tool: the nfsfuse mount is unmounted and mounted
#          again, and (when root) `sync; echo 3 >/proc/sys/vm/drop_caches`,
#          which also empties the loopback server's page cache.  nfsfuse and
#          nfs-cp read the same server file.
#   re-read  the same file opened and read again right after the first cold
#          read (nfsfuse: same mount; nfs-cp: a second run; local: page cache).
#   ls -l  N empty files made untimed (on the export directly when it is a
#          local directory); nfsfuse cold (fresh mount, caches dropped) and
#          warm (the same `ls -l` again at once); nfs-ls prints the same
#          long listing; local is warm.
#   create N files of 4 KiB, each open(O_CREAT|O_EXCL)+write+close, from one
#          process; local adds a final `sync -f`.  No libnfs equivalent.
#   write+read  a file of N pages (made, fsync'd and read once, untimed);
#          then, through that descriptor, a 4 KiB write of each page
#          followed by a read of the next one, and the close: the pattern
#          of a database or a log read back.  nfsfuse (fresh mount), the
#          previous build, local.  No libnfs equivalent.
#   untar, find -ls, rm -rf  tar -x --no-same-owner of a tar (in /dev/shm)
#          of /usr/include, then `find -ls` of the tree and `rm -rf` of it,
#          each on a fresh mount with the caches dropped, by this build and
#          by the previous one in turn; local adds a final `sync -f` to the
#          untar.  Four untars: four tar -x at once into four directories.
#   random reads  fio --rw=randread --bs=4k --numjobs=4 --ioengine=psync
#          --time_based on a --rand-size file, cold (buffered, as the
#          issue's line; "READ/IO" shows how many went to the server);
#          baseline: nfs_randread, 4 threads with a libnfs context each
#          (what fuse-nfs does at its best: fuse-nfs is not in Debian 12).
#   FUSE floor  the small writes (bs=4k and bs=1M) and the random reads
#          again through fuse_floor, a FUSE file system served with
#          nfsfuse's settings that does no work (writes forgotten, reads
#          of zeros, mounted afresh before each fio run): the least either
#          workload takes through FUSE on this machine.
#   nconnect  four files read at once (dd), cold, with nconnect=1 and
#          nconnect=4 (when this nfsfuse has the option).
#   memory  RSS (VmRSS of the daemon) growth per inode the daemon gained
#          (`nfsfusectl stats`: inodes) and per entry listed, across the cold
#          `ls -l` (the largest one run); and RSS after reading --mem-read
#          MiB of a sparse file through a fresh mount, against cache_size.
#   daemon CPU  nfsfuse: utime+stime of the daemon (/proc/PID/stat) across
#          the workload; nfs-cp/nfs-ls/nfs_randread: the tool's own CPU
#          (it is the client); local: "-".  CPU us/RPC = that / RPCs.
#   RPCs   delta of `nfsfusectl MNT stats --json` per procedure.
#   machine CPU  for the four untars and the nconnect readers, the report
#          splits the core-seconds the machine spent busy (/proc/stat)
#          between the daemon, the server (when it runs here: a local
#          export served by one ganesha.nfsd, or --server-pid) and all
#          else (the workload's processes, the kernel's threads), and
#          gives the bound those cores set: four untars at one untar's
#          CPU cannot finish in under 4 x its busy core-seconds / cores;
#          readers at nconnect=1's CPU per byte cannot go faster than
#          cores x its wall time / its busy core-seconds.
#   NFSv4.1  rows "nfsfuse v4.1": the same build on a vers=4.1 mount of the
#          same export, on a mount point and daemon of its own (the NFSv3
#          mount stays as it is without them), for the write, cold read,
#          re-read, dd bs=4k, ls -l cold and warm, untar, find -ls, rm -rf
#          and random-read workloads, run in the same rounds as the NFSv3
#          rows, right after them (untar, find, rm: in the alternating
#          order, the previous build included).  Reads and listings use
#          the same server files; writes go to files of their own
#          (big.v4, sw.v4) of the same bytes, so that neither mount sees
#          the other's files replaced under it.  RPCs of a v4.1 row are
#          COMPOUNDs (round trips), so CPU us/RPC is per COMPOUND; "ops:"
#          lists the operations inside them (stats: nfs4ops).  The report
#          gives each v4.1 row's time against the NFSv3 row of the run.

set -uo pipefail
export LC_ALL=C
PATH=$PATH:/usr/sbin:/sbin

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$BENCH_DIR/../.." && pwd)
HELPER=$BENCH_DIR/bench_helper.py
PY=$(command -v /usr/bin/python3 || command -v python3 || true)

SIZE_MIB=512
SMALLW_MIB=256
LS_FILES=10000
CREATE_FILES=5000
SCALE=0
RAND_MIB=1024
RAND_TIME=5
RAND_JOBS=4
MEMREAD_MIB=4096
REPEAT=3
READ_REPEAT_MIN=5
QUICK=0
BASELINE_REV=f4a4a32
BASELINE_BIN=
BASELINE_CTL=
BASELINE_GIVEN=0
NO_BASELINE=0
V4=1
V4_EXPORT=
NFSFUSE=$REPO_ROOT/build/src/nfsfuse
NFSFUSECTL=$REPO_ROOT/build/tools/nfsfusectl
RANDREAD=$REPO_ROOT/build/tests/bench/nfs_randread
FLOOR=$REPO_ROOT/build/tests/bench/fuse_floor
SERVER=127.0.0.1
EXPORT=
LOCAL_PARENT=/var/tmp
SERVER_PID=
MOUNT_OPTS=
UNTAR_SRC=/usr/include
UNTAR_GIVEN=0
TMO=
CREATE_SIZE=4096
WR_PAGES=4096
# A workload whose first run takes longer than this is not repeated.
LONG_RUN=60
# What the daemon may hold beside its data cache after a long read (see
# the README's benchmark section for how it was measured).
MEM_OVERHEAD_MIB=16

usage() { sed -n '/^# Usage:/,/^#   -h, --help/s/^# \{0,1\}//p' "$0"; }
die2() { echo "bench.sh: $*" >&2; exit 2; }
need_arg() { [[ $# -ge 2 && -n $2 ]] || die2 "$1 needs a value"; }
need_uint() { [[ $2 =~ ^[0-9]+$ && $2 -gt 0 ]] || die2 "$1: expected a positive integer, got '$2'"; }

while [[ $# -gt 0 ]]; do
	case $1 in
	--size) need_arg "$@"; need_uint "$1" "$2"; SIZE_MIB=$2; shift 2 ;;
	--small-write) need_arg "$@"; need_uint "$1" "$2"; SMALLW_MIB=$2; shift 2 ;;
	--files) need_arg "$@"; need_uint "$1" "$2"; LS_FILES=$2; CREATE_FILES=$2; shift 2 ;;
	--ls-files) need_arg "$@"; need_uint "$1" "$2"; LS_FILES=$2; shift 2 ;;
	--create-files) need_arg "$@"; need_uint "$1" "$2"; CREATE_FILES=$2; shift 2 ;;
	--scale) SCALE=1; shift ;;
	--rand-size) need_arg "$@"; need_uint "$1" "$2"; RAND_MIB=$2; shift 2 ;;
	--rand-time) need_arg "$@"; need_uint "$1" "$2"; RAND_TIME=$2; shift 2 ;;
	--mem-read) need_arg "$@"; need_uint "$1" "$2"; MEMREAD_MIB=$2; shift 2 ;;
	--repeat) need_arg "$@"; need_uint "$1" "$2"; REPEAT=$2; shift 2 ;;
	--quick)
		QUICK=1 SIZE_MIB=64 SMALLW_MIB=8 LS_FILES=500 CREATE_FILES=200 WR_PAGES=512
		RAND_MIB=128 RAND_TIME=2 MEMREAD_MIB=512 REPEAT=1 READ_REPEAT_MIN=1
		((UNTAR_GIVEN)) || UNTAR_SRC=/usr/include/linux
		shift ;;
	--baseline-rev) need_arg "$@"; BASELINE_REV=$2; BASELINE_GIVEN=1; shift 2 ;;
	--baseline-nfsfuse) need_arg "$@"; BASELINE_BIN=$2; BASELINE_GIVEN=1; shift 2 ;;
	--baseline-nfsfusectl) need_arg "$@"; BASELINE_CTL=$2; shift 2 ;;
	--no-baseline) NO_BASELINE=1; shift ;;
	--no-v4) V4=0; shift ;;
	--v4-export) need_arg "$@"; V4_EXPORT=$2; shift 2 ;;
	--nfsfuse) need_arg "$@"; NFSFUSE=$2; shift 2 ;;
	--nfsfusectl) need_arg "$@"; NFSFUSECTL=$2; shift 2 ;;
	--randread) need_arg "$@"; RANDREAD=$2; shift 2 ;;
	--floor) need_arg "$@"; FLOOR=$2; shift 2 ;;
	--server) need_arg "$@"; SERVER=$2; shift 2 ;;
	--export) need_arg "$@"; EXPORT=$2; shift 2 ;;
	--local-dir) need_arg "$@"; LOCAL_PARENT=$2; shift 2 ;;
	--server-pid) need_arg "$@"; need_uint "$1" "$2"; SERVER_PID=$2; shift 2 ;;
	--mount-opts) need_arg "$@"; MOUNT_OPTS=$2; shift 2 ;;
	--untar-src) need_arg "$@"; UNTAR_SRC=$2; UNTAR_GIVEN=1; shift 2 ;;
	--timeout) need_arg "$@"; need_uint "$1" "$2"; TMO=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die2 "unknown option '$1'" ;;
	esac
done
[[ -n $TMO ]] || TMO=$((SIZE_MIB * 2 > 600 ? SIZE_MIB * 2 : 600))
READ_REPEAT=$((REPEAT > READ_REPEAT_MIN ? REPEAT : READ_REPEAT_MIN))
SCALE_FILES=$((LS_FILES * 10))

# ------------------------------------------------------------ prerequisites

[[ -n $PY ]] || die2 "python3 is needed (for $HELPER)"
[[ -r $HELPER ]] || die2 "$HELPER is missing"
[[ -x $NFSFUSE ]] || die2 "nfsfuse binary not found: $NFSFUSE (build it, or give --nfsfuse PATH)"
[[ -x $NFSFUSECTL ]] || die2 "nfsfusectl binary not found: $NFSFUSECTL (give --nfsfusectl PATH)"
[[ -e /dev/fuse ]] || die2 "/dev/fuse is missing"
for c in fusermount3 mountpoint nfs-cp nfs-ls tar dd sync timeout find truncate; do
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
[[ -n $V4_EXPORT ]] || V4_EXPORT=$EXPORT
# Missing optional tools cost their row only (it says why).
HAVE_FIO=0
command -v fio >/dev/null 2>&1 && HAVE_FIO=1
HAVE_RANDREAD=0
[[ -x $RANDREAD ]] && HAVE_RANDREAD=1
HAVE_FLOOR=0
[[ -x $FLOOR ]] && HAVE_FLOOR=1
HAVE_NCONNECT=0
"$NFSFUSE" --list-options 2>/dev/null | grep -qx nconnect && HAVE_NCONNECT=1

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
BUILD_TMP=
# The build the next mount uses: the subject or the baseline.
CUR_BIN=$NFSFUSE
CUR_CTL=$NFSFUSECTL
CUR_NAME=nfsfuse
# Options of the next mount besides MOUNT_OPTS (nconnect=).
EXTRA_OPTS=
# The NFSv4.1 mount: its mount point, daemon and work directory, and the
# NFSv3 ones while the v4.1 mount is the current one (use_v4).
V4_TOOL="nfsfuse v4.1"
V4_AND= # for the log: ", nfsfuse v4.1" when those rows run
((V4)) && V4_AND=", $V4_TOOL"
MNT4=
DPID4=
R4=
MNT3=
DPID3=
ON_V4=0
V4_OK=0
V4_WHY=

log() { printf '[%s] %s\n' "$(date +%T)" "$*" >&2; }

use_subject() { CUR_BIN=$NFSFUSE CUR_CTL=$NFSFUSECTL CUR_NAME=nfsfuse; }
use_baseline() { CUR_BIN=$BASELINE_BIN CUR_CTL=$BASELINE_CTL CUR_NAME=previous; }
# use_v4, use_v3: make the NFSv4.1 mount (MNT4) or the NFSv3 one the
# current mount (MNT, DPID, R) that do_mount, cold_mount, measure and the
# prep functions work on.  Two mount points, not one remounted: the NFSv3
# rows then run on the mount they would have without the v4.1 rows.
use_v4() {
	((ON_V4)) && return 0
	use_subject
	CUR_NAME=$V4_TOOL
	MNT3=$MNT DPID3=$DPID
	MNT=$MNT4 DPID=$DPID4 R=$MNT4/$RDIR
	ON_V4=1
}
use_v3() {
	((ON_V4)) || return 0
	DPID4=$DPID
	MNT=$MNT3 DPID=$DPID3 R=$MNT3/$RDIR
	ON_V4=0
	use_subject
}

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
	local opts=() i o=$MOUNT_OPTS src=$EXPORT
	# A lock state directory of our own: the default one may be in use by
	# another mount on this machine, and nfsfuse refuses to share it.
	# A new one for each mount, so that a daemon that outlives its
	# unmount (see do_umount) does not block the next mount.
	MOUNTS=$((MOUNTS + 1))
	[[ -n $EXTRA_OPTS ]] && o=$EXTRA_OPTS${o:+,$o}
	[[ ,$o, == *,statedir=* || ,$o, == *,nolock,* ]] || o=statedir=$SHM/state.$MOUNTS${o:+,$o}
	# Last, so that it wins over a vers= in MOUNT_OPTS.
	((ON_V4)) && o=$o,vers=4.1 src=$V4_EXPORT
	opts=(-o "$o")
	if ! timeout 30 "$CUR_BIN" "${opts[@]}" "$SERVER:$src" "$MNT" >"$SHM/mount.log" 2>&1; then
		LAST_ERR="$CUR_NAME failed to mount $SERVER:$src on $MNT: $(tail -n 3 "$SHM/mount.log" | tr '\n' ' ')"
		log "$LAST_ERR"
		return 1
	fi
	for ((i = 0; i < 100; i++)); do
		mountpoint -q "$MNT" && break
		sleep 0.1
	done
	if ! mountpoint -q "$MNT"; then
		LAST_ERR="$CUR_NAME: $MNT is not a mount point after 10 s"
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

# in_mounts DIR: DIR is a mount point in the mount table, even one whose
# daemon died ("Transport endpoint is not connected"), which mountpoint(1)
# cannot stat.
in_mounts() { awk -v m="$1" '$5 == m { f = 1 } END { exit !f }' /proc/self/mountinfo; }

do_umount() {
	local i
	in_mounts "$MNT" || { DPID=; return 0; }
	for ((i = 0; i < 50; i++)); do
		fusermount3 -u "$MNT" 2>/dev/null && break
		sleep 0.2
	done
	if in_mounts "$MNT"; then
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

# The FUSE floor (section 12) on $FMNT, started in the background; its
# pid in FLOOR_PID.  floor_fresh mounts it again: a cold page cache.
FMNT= FLOOR_PID=
floor_mount() {
	local i
	"$FLOOR" "$FMNT" >"$SHM/floor.log" 2>&1 &
	FLOOR_PID=$!
	for ((i = 0; i < 100; i++)); do
		in_mounts "$FMNT" && return 0
		kill -0 "$FLOOR_PID" 2>/dev/null || break
		sleep 0.1
	done
	LAST_ERR="$FLOOR did not mount $FMNT: $(tail -n 3 "$SHM/floor.log" | tr '\n' ' ')"
	log "$LAST_ERR"
	return 1
}
floor_umount() {
	[[ -n $FLOOR_PID ]] || return 0
	in_mounts "$FMNT" && { fusermount3 -u "$FMNT" 2>/dev/null || fusermount3 -uz "$FMNT" 2>/dev/null; }
	wait "$FLOOR_PID" 2>/dev/null
	FLOOR_PID=
}
floor_fresh() {
	local size
	size=$(stat -c %s -- "$FMNT/f") && floor_umount && drop_caches && floor_mount &&
		truncate -s "$size" "$FMNT/f"
}

cleanup() {
	local rc=$?
	trap - EXIT INT TERM HUP
	use_v3
	floor_umount
	if [[ -n $MNT4 ]]; then
		use_v4
		do_umount
		reap_daemons
		rmdir -- "$MNT" 2>/dev/null
		use_v3
	fi
	if [[ -n $MNT ]]; then
		if ((REMOTE_MADE && !LOCAL_EXPORT_OK)); then
			# The export is not reachable here: remove through the mount.
			use_subject
			EXTRA_OPTS=
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
	[[ -n $BUILD_TMP ]] && rm -rf -- "$BUILD_TMP"
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
	return 0
}
cold_mount() { do_umount && drop_caches && do_mount; }
# With the local disk and libnfs: the page cache dropped, our mount kept.
cold_other() { drop_caches; }
no_prep() { :; }

# measure LABEL ON_MOUNT(0|1) HELPER-ARGS... : run bench_helper measure,
# eval its M_* output.  Returns non-zero (and keeps the error in LAST_ERR)
# when the workload failed.
measure() {
	local label=$1 on_mount=$2
	shift 2
	local args=(--timeout "$TMO")
	((on_mount)) && args+=(--pid "$DPID" --ctl "$CUR_CTL" --mnt "$MNT")
	[[ -n $SERVER_PID ]] && args+=(--server-pid "$SERVER_PID")
	unset -v "${!M_@}"
	# Not in $(...): the helper must be bash's direct child so that a
	# Ctrl-C that kills it also runs our INT trap.
	if ! "$PY" "$HELPER" measure "${args[@]}" "$@" >"$SHM/m.out" 2>"$SHM/err"; then
		LAST_ERR=$(tr '\n' ' ' <"$SHM/err")
		log "FAILED: $label: $(cat "$SHM/err")"
		return 1
	fi
	eval "$(<"$SHM/m.out")"
	M_N=1 M_MIN=$M_WALL M_MAX=$M_WALL
}

# Repeated runs.  run_rep NAME PREP LABEL ON_MOUNT HELPER-ARGS... runs PREP,
# then the workload, and keeps its M_* values in the arrays NAME_W (wall
# times) and NAME_S (the values, to eval); a failed run is recorded in
# NAME_ERR and leaves nothing.  median_of NAME sets the M_* values of the
# median run (the lower middle one for an even count) with M_N, M_MIN and
# M_MAX; it fails when no run succeeded, with the first error in LAST_ERR.
m_save() { declare -p "${!M_@}" | sed 's/^declare -[-a-zA-Z]* /declare -g /'; }
run_rep() {
	# Empty arrays through a name reference count as unset under -u.
	local -
	set +u
	local name=$1 prep=$2 label=$3 on_mount=$4
	shift 4
	declare -g -a "${name}_W" "${name}_S"
	local -n _w=${name}_W _s=${name}_S
	declare -g "${name}_ERR"
	local -n _e=${name}_ERR
	if ! $prep; then
		_e=${_e:-"$label: ${LAST_ERR:-set-up failed}"}
		return 1
	fi
	if ! measure "$label" "$on_mount" "$@"; then
		_e=${_e:-"$label: $LAST_ERR"}
		return 1
	fi
	_w+=("$M_WALL")
	_s+=("$(m_save)")
}
median_of() {
	# Empty arrays through a name reference count as unset under -u.
	local -
	set +u
	local name=$1 idx
	local -n _w=${name}_W _s=${name}_S _e=${name}_ERR
	if ((${#_w[@]} == 0)); then
		LAST_ERR=${_e:-not run}
		return 1
	fi

	idx=$(printf '%s\n' "${_w[@]}" | awk '{ print NR - 1, $1 }' | sort -k2,2g |
		awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	# Only what that run set: M_OPS of an NFSv4.1 row must not stay.
	unset -v "${!M_@}"
	eval "${_s[idx]}"
	M_N=${#_w[@]}
	M_MIN=$(printf '%s\n' "${_w[@]}" | sort -g | head -n 1)
	M_MAX=$(printf '%s\n' "${_w[@]}" | sort -g | tail -n 1)
	# Some runs failed: the row shows the others, the run fails.
	[[ -n ${_e:-} ]] && FAILED+=("${#_w[@]} run(s) kept, one failed: $_e")
	return 0
}
# long_run NAME [S]: its first run took longer than S (LONG_RUN) seconds,
# or a run failed (a timeout would only repeat).
long_run() {
	# Empty arrays through a name reference count as unset under -u.
	local -
	set +u
	local -n _w=${1}_W _e=${1}_ERR
	[[ -n ${_e:-} ]] && return 0
	((${#_w[@]})) && ge "${_w[0]}" "${2:-$LONG_RUN}"
}

# run_v4 NAME PREP LABEL HELPER-ARGS... : run_rep NAME PREP LABEL 1 ... on
# the NFSv4.1 mount (PREP and the helper see it as MNT and R; the
# arguments, expanded before, name it as R4), then back to the NFSv3 one.
# Without the v4.1 mount it fails at once, the reason in NAME_ERR.
run_v4() {
	local name=$1 prep=$2 label=$3 rc errv=${1}_ERR
	shift 3
	if ((!V4_OK)); then
		[[ -n ${!errv:-} ]] || printf -v "$errv" '%s' "$label: not run: $V4_WHY"
		return 1
	fi
	use_v4
	run_rep "$name" "$prep" "$label" 1 "$@"
	rc=$?
	use_v3
	return "$rc"
}
# The NFSv4.1 mount up (prep of a workload that does not remount): a
# daemon that died in an earlier run is replaced, not written through.
v4_up() { mountpoint -q "$MNT" || { do_umount && do_mount; }; }

# NFSv4.1 against NFSv3, for the report: vs_keep KEY 3|4 [LABEL] keeps
# the time (M_WALL) and RPCs (M_RPC_TOTAL) of a row, labelled at its first
# call; the report lists the keys in that order.
declare -A VS_LABEL=() VS3_T=() VS4_T=() VS3_N=() VS4_N=()
VS_KEYS=()
vs_keep() {
	if [[ -z ${VS_LABEL[$1]:-} ]]; then
		VS_KEYS+=("$1")
		VS_LABEL[$1]=${3:-$1}
	fi
	if [[ $2 == 4 ]]; then
		VS4_T[$1]=$M_WALL VS4_N[$1]=${M_RPC_TOTAL:--}
	else
		VS3_T[$1]=$M_WALL VS3_N[$1]=${M_RPC_TOTAL:--}
	fi
}

fmt_mbs() { awk -v b="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.1f MB/s", b / s / 1e6; else print "-" }'; }
fmt_s() { awk -v s="$1" 'BEGIN { printf "%.3f", s }'; }
fmt_cpu() { [[ $1 == - ]] && echo - || awk -v s="$1" 'BEGIN { printf "%.2f", s }'; }
fmt_mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }

# row WORKLOAD TOOL RESULT CPU RPCS : a table row with the last M_* values.
row() {
	local wall us=- srv
	wall=$(fmt_s "$M_WALL")
	((${M_N:-1} > 1)) && wall="$wall (n=$M_N, $(fmt_s "$M_MIN")..$(fmt_s "$M_MAX"))"
	if [[ $4 != - && ${M_RPC_TOTAL:--} =~ ^[0-9]+$ && $M_RPC_TOTAL -gt 0 && $M_DCPU != - ]]; then
		us=$(awk -v c="$M_DCPU" -v n="$M_RPC_TOTAL" 'BEGIN { printf "%.0f", c * 1e6 / n }')
	fi
	# The local disk's rows have no server behind them.
	srv=$(fmt_cpu "${M_SCPU:--}")
	[[ $2 == local ]] && srv=-
	ROWS+=("$1"$'\t'"$2"$'\t'"$3"$'\t'"$wall"$'\t'"$4"$'\t'"$us"$'\t'"$srv"$'\t'"$5")
}
# An NFSv4 mount's RPCs are COMPOUNDs: the operations in them follow.
row_measured() { # workload tool result [daemon-cpu]
	local cpu=${4:-$(fmt_cpu "$M_DCPU")}
	row "$1" "$2" "$3" "$cpu" "$M_RPCS${M_OPS:+; ops: $M_OPS}"
}
# row_failed WORKLOAD TOOL : the workload did not run; the reason is the
# last recorded error (LAST_ERR), or "set-up failed".
row_failed() {
	ROWS+=("$1"$'\t'"$2"$'\t'"FAILED"$'\t'"-"$'\t'"-"$'\t'"-"$'\t'"-"$'\t'"-")
	FAILED+=("$1 / $2: ${LAST_ERR:-set-up failed}")
	LAST_ERR=
}
# row_missing WORKLOAD TOOL WHY : could not run here, for a reason that is
# not a failure of nfsfuse (a tool not installed).
row_missing() {
	ROWS+=("$1"$'\t'"$2"$'\t'"-"$'\t'"-"$'\t'"-"$'\t'"-"$'\t'"-"$'\t'"$3")
}
row_info() { ROWS+=("$1"$'\t'"$2"$'\t'"$3"$'\t'"-"$'\t'"-"$'\t'"-"$'\t'"-"$'\t'"${4:--}"); }
row_none() { row_missing "$1" "$2" "no libnfs equivalent"; }

# Remove a tree of the work directory, on the export directly when it is
# local (untimed clean-up), else through the mount.
remote_rm() {
	if ((LOCAL_EXPORT_OK)); then
		rm -rf -- "${EXPORT:?}/$RDIR/$1"
	else
		rm -rf -- "${MNT:?}/$RDIR/$1"
	fi
}
# The path of the work directory where files are best made untimed.
setup_path() { if ((LOCAL_EXPORT_OK)); then echo "$EXPORT/$RDIR/$1"; else echo "$MNT/$RDIR/$1"; fi; }

# mount_flag NAME: the value of NAME= in `nfsfusectl list` for our mount.
mount_flag() {
	"$CUR_CTL" list 2>/dev/null | awk -v m="$MNT" -v k="$1" '
		$1 == m { ours = 1; next }
		/^[^ \t]/ { ours = 0 }
		ours && /Flags:/ { n = split($2, f, ","); for (i = 1; i <= n; i++) if (f[i] ~ "^" k "=") { sub("^" k "=", "", f[i]); print f[i]; exit } }'
}

# ------------------------------------------------------------ the previous build

# build_baseline: set BASELINE_BIN/CTL to the previous build, made from
# BASELINE_REV when not given; false with BASELINE_WHY set.
BASELINE_WHY=
BASELINE_DESC=
build_baseline() {
	local sha cache dir mopts=()
	if [[ -n $BASELINE_BIN ]]; then
		[[ -x $BASELINE_BIN ]] || { BASELINE_WHY="$BASELINE_BIN is not an executable"; return 1; }
		if [[ -z $BASELINE_CTL ]]; then
			BASELINE_CTL=$(dirname -- "$BASELINE_BIN")/../tools/nfsfusectl
			[[ -x $BASELINE_CTL ]] || BASELINE_CTL=$NFSFUSECTL
		fi
		BASELINE_DESC="$BASELINE_BIN (given)"
		return 0
	fi
	command -v git >/dev/null 2>&1 && command -v meson >/dev/null 2>&1 &&
		command -v ninja >/dev/null 2>&1 || { BASELINE_WHY="git, meson and ninja are needed to build $BASELINE_REV"; return 1; }
	sha=$(git -C "$REPO_ROOT" rev-parse --verify -q "$BASELINE_REV^{commit}") ||
		{ BASELINE_WHY="$BASELINE_REV is not a commit of $REPO_ROOT"; return 1; }
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/nfsfuse-bench
	dir=$cache/$sha
	BASELINE_DESC="$(git -C "$REPO_ROOT" log -1 --format='%h %cs' "$sha") (release build in $dir)"
	if [[ ! -x $dir/nfsfuse || ! -x $dir/nfsfusectl ]]; then
		log "building the previous nfsfuse ($BASELINE_REV = ${sha:0:12}), release; once, kept in $dir"
		mkdir -p -- "$cache" || { BASELINE_WHY="cannot make $cache"; return 1; }
		BUILD_TMP=$(mktemp -d "$cache/build.XXXXXX") || { BASELINE_WHY="cannot make a directory in $cache"; return 1; }
		mkdir -- "$BUILD_TMP/src"
		if ! git -C "$REPO_ROOT" archive "$sha" | tar -x -C "$BUILD_TMP/src"; then
			BASELINE_WHY="git archive $sha failed"
			return 1
		fi
		# Only the two programs: options that older revisions lack are
		# not passed to them.
		grep -q "option('tests'" "$BUILD_TMP/src/meson_options.txt" 2>/dev/null && mopts+=(-Dtests=false)
		grep -q "option('man'" "$BUILD_TMP/src/meson_options.txt" 2>/dev/null && mopts+=(-Dman=disabled)
		if ! { meson setup "$BUILD_TMP/build" "$BUILD_TMP/src" --buildtype=release \
			-Db_sanitize=none "${mopts[@]}" &&
			ninja -C "$BUILD_TMP/build" src/nfsfuse tools/nfsfusectl; } >"$BUILD_TMP/log" 2>&1; then
			BASELINE_WHY="building $BASELINE_REV failed: $(tail -n 3 "$BUILD_TMP/log" | tr '\n' ' ')"
			return 1
		fi
		mkdir -p -- "$dir" &&
			cp -- "$BUILD_TMP/build/src/nfsfuse" "$BUILD_TMP/build/tools/nfsfusectl" "$dir/" ||
			{ BASELINE_WHY="cannot copy the build into $dir"; return 1; }
		rm -rf -- "$BUILD_TMP"
		BUILD_TMP=
	fi
	BASELINE_BIN=$dir/nfsfuse
	BASELINE_CTL=$dir/nfsfusectl
}

HAVE_BASELINE=0
if ((NO_BASELINE)); then
	BASELINE_WHY="--no-baseline"
elif ((QUICK && !BASELINE_GIVEN)); then
	BASELINE_BIN=$NFSFUSE BASELINE_CTL=$NFSFUSECTL HAVE_BASELINE=1
	BASELINE_DESC="the subject itself (--quick: a smoke run of the comparison, ratios near 1)"
elif build_baseline; then
	HAVE_BASELINE=1
else
	log "no previous build: $BASELINE_WHY"
fi

# ------------------------------------------------------------ set-up

SHM=$(mktemp -d /dev/shm/nfsfuse-bench.XXXXXX) || die2 "cannot make a directory in /dev/shm"
LOCAL=$(mktemp -d "$LOCAL_PARENT/nfsfuse-bench.XXXXXX") || die2 "cannot make a directory in $LOCAL_PARENT"
MNT=$(mktemp -d /tmp/nfsfuse-bench-mnt.XXXXXX) || die2 "cannot make a mount point in /tmp"
if ((V4)); then
	MNT4=$(mktemp -d /tmp/nfsfuse-bench-mnt4.XXXXXX) || die2 "cannot make a mount point in /tmp"
fi

SIZE_B=$((SIZE_MIB * 1024 * 1024))
SMALLW_B=$((SMALLW_MIB * 1024 * 1024))
SRC_MIB=$((SIZE_MIB > SMALLW_MIB ? SIZE_MIB : SMALLW_MIB))
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
T_START=$(date +%s)
log "nfsfuse $NFSFUSE, server $SERVER:$EXPORT, size $SIZE_MIB MiB, ls $LS_FILES files, create $CREATE_FILES files, $REPEAT run(s) each"

do_mount || die2 "cannot mount $SERVER:$EXPORT with $NFSFUSE: $LAST_ERR"
mkdir -- "$MNT/$RDIR" || die2 "cannot create $RDIR on the export"
REMOTE_MADE=1
[[ -d $EXPORT/$RDIR ]] && LOCAL_EXPORT_OK=1
# The local rows read the disk the server reads (the cold read's bound).
SAME_DISK=0
((LOCAL_EXPORT_OK)) && [[ $(stat -c %d -- "$LOCAL") == "$(stat -c %d -- "$EXPORT")" ]] && SAME_DISK=1
# The server's CPU can be counted when it runs here: the export is a
# directory of this machine and one nfs-ganesha serves it.
if [[ -z $SERVER_PID ]] && ((LOCAL_EXPORT_OK)); then
	p=$(pgrep -x ganesha.nfsd 2>/dev/null)
	[[ $p =~ ^[0-9]+$ ]] && SERVER_PID=$p
fi
R=$MNT/$RDIR          # the remote work directory, through nfsfuse
RURL=$URL_BASE/$RDIR  # the same, for libnfs
WSIZE=$(mount_flag wsize)
CACHE_SIZE=$(mount_flag cache_size)

# The NFSv4.1 mount beside it.  It must show the work directory just made
# over NFSv3, or its rows would not read the same files.
WSIZE4=
if ((V4)); then
	R4=$MNT4/$RDIR
	use_v4
	if ! do_mount; then
		V4_WHY="$LAST_ERR (--no-v4 skips these rows)"
	elif [[ ! -d $R4 ]]; then
		V4_WHY="$SERVER:$V4_EXPORT over NFSv4.1 does not show $RDIR, made over NFSv3 in $SERVER:$EXPORT (give --v4-export)"
	else
		V4_OK=1
		WSIZE4=$(mount_flag wsize)
	fi
	use_v3
	((V4_OK)) || log "no NFSv4.1 rows: $V4_WHY"
fi

log "preparing $SRC_MIB MiB of random data and a tar of $UNTAR_SRC in $SHM"
head -c "$((SRC_MIB * 1024 * 1024))" /dev/urandom >"$SHM/src" || die2 "cannot write $SHM/src"
tar -C "$(dirname -- "$UNTAR_SRC")" -cf "$SHM/untar.tar" "$(basename -- "$UNTAR_SRC")" 2>"$SHM/err" ||
	die2 "cannot tar $UNTAR_SRC: $(tail -n 2 "$SHM/err")"
TAR_ENTRIES=$(tar -tf "$SHM/untar.tar" | wc -l)
TAR_MB=$(($(stat -c %s "$SHM/untar.tar") / 1000000))

# ------------------------------------------------------------ 1. write

W="write ${SIZE_MIB}MiB + fsync"
log "$W: nfsfuse$V4_AND, nfs-cp, local ($REPEAT round(s))"
# nfs-cp copies a whole file: one of the size, made untimed.
WSRC=$SHM/src
if ((SRC_MIB != SIZE_MIB)); then
	WSRC=$SHM/wsrc
	head -c "$SIZE_B" "$SHM/src" >"$WSRC" || die2 "cannot write $WSRC"
fi
prep_wn() { rm -f -- "$R/big"; sync; }
# Not through the mount: it would remember that the name is gone.
prep_wc() { rm -f -- "$(setup_path big.nfscp)"; sync; }
prep_wl() { rm -f -- "$LOCAL/big"; sync; }
prep_wv() { v4_up && rm -f -- "$R/big.v4" && sync; }
for ((i = 1; i <= REPEAT; i++)); do
	run_rep WN prep_wn "$W nfsfuse" 1 -- dd if="$SHM/src" of="$R/big" bs=1M count="$SIZE_MIB" conv=fsync status=none
	# Not repeated once a run took long or failed (the NFSv3 rows decide
	# the rounds, as without it).
	((V4)) && ! long_run WV &&
		run_v4 WV prep_wv "$W $V4_TOOL" -- dd if="$SHM/src" of="$R4/big.v4" bs=1M count="$SIZE_MIB" conv=fsync status=none
	run_rep WC prep_wc "$W nfs-cp" 0 -- nfs-cp "$WSRC" "$RURL/big.nfscp"
	run_rep WL prep_wl "$W local" 0 -- dd if="$SHM/src" of="$LOCAL/big" bs=1M count="$SIZE_MIB" conv=fsync status=none
	{ long_run WN || long_run WC; } && break
done
if median_of WN; then
	row_measured "$W" nfsfuse "$(fmt_mbs "$SIZE_B" "$M_WALL")"
	W_NFSFUSE=$M_WALL
	got=$(stat -c %s -- "$R/big" 2>/dev/null)
	[[ $got == "$SIZE_B" ]] || FAILED+=("$W nfsfuse: file has $got bytes, expected $SIZE_B")
	vs_keep write 3 "$W"
else row_failed "$W" nfsfuse; fi
if ((V4)); then
	if median_of WV; then
		row_measured "$W" "$V4_TOOL" "$(fmt_mbs "$SIZE_B" "$M_WALL")"
		vs_keep write 4 "$W"
		got=$(stat -c %s -- "$R4/big.v4" 2>/dev/null)
		[[ $got == "$SIZE_B" ]] || FAILED+=("$W $V4_TOOL: file has $got bytes, expected $SIZE_B")
	else row_failed "$W" "$V4_TOOL"; fi
	remote_rm big.v4
fi
if median_of WC; then
	row_measured "$W" nfs-cp "$(fmt_mbs "$SIZE_B" "$M_WALL")" "$(fmt_cpu "$M_CCPU")"
	W_NFSCP=$M_WALL
	if ((LOCAL_EXPORT_OK)); then
		got=$(stat -c %s -- "$EXPORT/$RDIR/big.nfscp" 2>/dev/null)
		[[ $got == "$SIZE_B" ]] || FAILED+=("$W nfs-cp: file has $got bytes, expected $SIZE_B")
	fi
else row_failed "$W" nfs-cp; fi
rm -f -- "$(setup_path big.nfscp)"
if median_of WL; then
	row_measured "$W" local "$(fmt_mbs "$SIZE_B" "$M_WALL")" -
else row_failed "$W" local; fi

# ------------------------------------------------------------ 2. cold read, re-read

RD="cold read ${SIZE_MIB}MiB"
RR="re-read after reopen"
log "$RD: nfsfuse$V4_AND, nfs-cp, local ($READ_REPEAT round(s)); $RR after the first"
if [[ -f $R/big ]]; then
	for ((i = 1; i <= READ_REPEAT; i++)); do
		if run_rep RDN cold_mount "$RD nfsfuse" 1 -- dd if="$R/big" of="$SHM/out" bs=1M status=none && ((i == 1)); then
			cmp -s -- "$SHM/src" "$SHM/out" || { head -c "$SIZE_B" "$SHM/src" | cmp -s - "$SHM/out"; } ||
				FAILED+=("$RD nfsfuse: data read differs from data written")
			rm -f -- "$SHM/out"
			run_rep RRN no_prep "$RR nfsfuse" 1 -- dd if="$R/big" of="$SHM/out" bs=1M status=none
		fi
		rm -f -- "$SHM/out"
		# The same server file over NFSv4.1, cold on its own mount.
		if ((V4)) && ! long_run RDV &&
			run_v4 RDV cold_mount "$RD $V4_TOOL" -- dd if="$R4/big" of="$SHM/out" bs=1M status=none && ((i == 1)); then
			cmp -s -- "$SHM/src" "$SHM/out" || { head -c "$SIZE_B" "$SHM/src" | cmp -s - "$SHM/out"; } ||
				FAILED+=("$RD $V4_TOOL: data read differs from data written")
			rm -f -- "$SHM/out"
			run_v4 RRV no_prep "$RR $V4_TOOL" -- dd if="$R4/big" of="$SHM/out" bs=1M status=none
		fi
		rm -f -- "$SHM/out"
		if run_rep RDC cold_other "$RD nfs-cp" 0 -- nfs-cp "$RURL/big" "$SHM/out" && ((i == 1)); then
			rm -f -- "$SHM/out"
			run_rep RRC no_prep "$RR nfs-cp" 0 -- nfs-cp "$RURL/big" "$SHM/out"
		fi
		rm -f -- "$SHM/out"
		if ((i <= REPEAT)) && run_rep RDL cold_other "$RD local" 0 -- dd if="$LOCAL/big" of="$SHM/out" bs=1M status=none && ((i == 1)); then
			rm -f -- "$SHM/out"
			run_rep RRL no_prep "$RR local" 0 -- dd if="$LOCAL/big" of="$SHM/out" bs=1M status=none
		fi
		rm -f -- "$SHM/out"
		{ long_run RDN || long_run RDC; } && break
	done
else
	RDN_ERR="cannot find $R/big through the mount (write failed, or the server is unreachable)"
	RDC_ERR=$RDN_ERR RDL_ERR=$RDN_ERR RDV_ERR=$RDN_ERR
fi
tools=(N:nfsfuse)
((V4)) && tools+=("V:$V4_TOOL")
tools+=(C:nfs-cp L:local)
for t in "${tools[@]}"; do
	k=${t%%:*} tool=${t#*:}
	RR_ERR_NAME=RR${k}_ERR
	if median_of "RD$k"; then
		cpu=$(fmt_cpu "$M_DCPU")
		[[ $k == C ]] && cpu=$(fmt_cpu "$M_CCPU")
		[[ $k == L ]] && cpu=-
		row_measured "$RD" "$tool" "$(fmt_mbs "$SIZE_B" "$M_WALL")" "$cpu"
		[[ $k == N ]] && R_NFSFUSE=$M_WALL && vs_keep read 3 "$RD"
		[[ $k == V ]] && vs_keep read 4 "$RD"
		[[ $k == C ]] && R_NFSCP=$M_WALL
		[[ $k == L ]] && R_LOCAL=$M_WALL
	else row_failed "$RD" "$tool"; fi
	if median_of "RR$k"; then
		cpu=$(fmt_cpu "$M_DCPU")
		[[ $k == C ]] && cpu=$(fmt_cpu "$M_CCPU")
		[[ $k == L ]] && cpu=-
		row_measured "$RR" "$tool" "$(fmt_mbs "$SIZE_B" "$M_WALL")" "$cpu"
		[[ $k == N ]] && RR_GETATTR=$M_RPC_GETATTR RR_READ=$M_RPC_READ RR_TOTAL=$M_RPC_TOTAL RR_RPCS=$M_RPCS &&
			vs_keep reread 3 "$RR"
		[[ $k == V ]] && RRV_RPCS="$M_RPCS; ops: ${M_OPS:-none}" && vs_keep reread 4 "$RR"
	else
		[[ -z ${!RR_ERR_NAME:-} ]] && LAST_ERR="not run: the cold read failed"
		row_failed "$RR" "$tool"
	fi
done
rm -f -- "$LOCAL/big" "$SHM/out"

# ------------------------------------------------------------ 3. small writes

SW4="write ${SMALLW_MIB}MiB + fsync, dd bs=4k"
SW1="write ${SMALLW_MIB}MiB + fsync, dd bs=1M"
log "$SW4 / bs=1M: nfsfuse ($REPEAT round(s))${V4_AND:+; bs=4k: $V4_TOOL}"
prep_sw() { rm -f -- "$R/sw"; sync; }
prep_swv() { v4_up && rm -f -- "$R/sw.v4" && sync; }
remount || true
# The NFSv4.1 mount fresh too.
if ((V4_OK)); then use_v4; remount || true; use_v3; fi
for ((i = 1; i <= REPEAT; i++)); do
	run_rep SW1 prep_sw "$SW1" 1 -- dd if="$SHM/src" of="$R/sw" bs=1M count="$SMALLW_MIB" conv=fsync status=none
	run_rep SW4 prep_sw "$SW4" 1 -- dd if="$SHM/src" of="$R/sw" bs=4k count="$((SMALLW_MIB * 256))" conv=fsync status=none
	((V4)) && ! long_run SWV &&
		run_v4 SWV prep_swv "$SW4 $V4_TOOL" -- dd if="$SHM/src" of="$R4/sw.v4" bs=4k count="$((SMALLW_MIB * 256))" conv=fsync status=none
	long_run SW4 && break
done
if median_of SW4; then
	row_measured "$SW4" nfsfuse "$(fmt_mbs "$SMALLW_B" "$M_WALL")"
	SW4_WALL=$M_WALL SW4_WRITE=${M_RPC_WRITE:-0}
	got=$(stat -c %s -- "$R/sw" 2>/dev/null)
	[[ $got == "$SMALLW_B" ]] || FAILED+=("$SW4: file has $got bytes, expected $SMALLW_B")
	vs_keep sw4 3 "$SW4"
else row_failed "$SW4" nfsfuse; fi
if ((V4)); then
	if median_of SWV; then
		row_measured "$SW4" "$V4_TOOL" "$(fmt_mbs "$SMALLW_B" "$M_WALL")"
		SWV_WRITE=${M_OP_WRITE:-0}
		vs_keep sw4 4 "$SW4"
		got=$(stat -c %s -- "$R4/sw.v4" 2>/dev/null)
		[[ $got == "$SMALLW_B" ]] || FAILED+=("$SW4 $V4_TOOL: file has $got bytes, expected $SMALLW_B")
	else row_failed "$SW4" "$V4_TOOL"; fi
	remote_rm sw.v4
fi
if median_of SW1; then
	row_measured "$SW1" nfsfuse "$(fmt_mbs "$SMALLW_B" "$M_WALL")"
	SW1_WALL=$M_WALL
else row_failed "$SW1" nfsfuse; fi
rm -f -- "$R/sw"

# ------------------------------------------------------------ 4. ls -l

# ls_setup DIR N: N empty files in DIR (a new directory), untimed.
ls_setup() { mkdir -- "$1" && "$PY" "$HELPER" mkfiles "$1" "$2"; }

# Cold `ls -l` of a remote directory with its memory: sets LS_MEM_* from
# the median run (RSS growth, inodes gained, entries listed).
ls_mem_keep() {
	LS_MEM_RSS=$((M_RSS1 - M_RSS0))
	LS_MEM_INODES=$((${M_INODES1:-0} - ${M_INODES0:-0}))
	LS_MEM_ENTRIES=$1
	LS_MEM_FROM=$2
}

L="ls -l ${LS_FILES} files"
LW="ls -l ${LS_FILES} files, again (warm)"
log "$L: set-up"
if ! { ls_setup "$(setup_path ls)" "$LS_FILES" && ls_setup "$LOCAL/ls" "$LS_FILES"; }; then
	LAST_ERR="could not create the $LS_FILES files"
	row_failed "$L" nfsfuse; LAST_ERR="not run: set-up failed"; row_failed "$L" nfs-ls
	LAST_ERR="not run: set-up failed"; row_failed "$LW" nfsfuse
	LAST_ERR="not run: set-up failed"; row_failed "$LW" local
	if ((V4)); then
		LAST_ERR="not run: set-up failed"; row_failed "$L" "$V4_TOOL (cold)"
		LAST_ERR="not run: set-up failed"; row_failed "$LW" "$V4_TOOL (warm)"
	fi
else
	log "$L: nfsfuse cold and warm$V4_AND, nfs-ls, local ($REPEAT round(s))"
	for ((i = 1; i <= REPEAT; i++)); do
		if run_rep LSN cold_mount "$L nfsfuse" 1 --count-lines -- ls -l "$R/ls"; then
			((M_LINES == LS_FILES + 1)) || FAILED+=("$L nfsfuse: listed $((M_LINES - 1)) files, expected $LS_FILES")
			run_rep LSW no_prep "$LW nfsfuse" 1 --count-lines -- ls -l "$R/ls"
		fi
		if ((V4)) && ! long_run LSV &&
			run_v4 LSV cold_mount "$L $V4_TOOL" --count-lines -- ls -l "$R4/ls"; then
			((M_LINES == LS_FILES + 1)) || FAILED+=("$L $V4_TOOL: listed $((M_LINES - 1)) files, expected $LS_FILES")
			run_v4 LSWV no_prep "$LW $V4_TOOL" --count-lines -- ls -l "$R4/ls"
		fi
		run_rep LSC cold_other "$L nfs-ls" 0 --count-lines -- nfs-ls "$RURL/ls" &&
			{ ((M_LINES >= LS_FILES)) || FAILED+=("$L nfs-ls: listed $M_LINES entries, expected $LS_FILES"); }
		run_rep LSL no_prep "$LW local" 0 --count-lines -- ls -l "$LOCAL/ls"
		long_run LSN && break
	done
	if median_of LSN; then
		row_measured "$L" "nfsfuse (cold)" "$(fmt_s "$M_WALL") s"
		LS_COLD=$M_WALL LS_DCPU=$M_DCPU LS_SCPU=$M_SCPU LS_CCPU=$M_CCPU
		LS_RTT=${M_RTT_READDIRPLUS:-}
		ls_mem_keep "$LS_FILES" "$L"
		vs_keep ls 3 "$L, cold"
	else row_failed "$L" "nfsfuse (cold)"; fi
	if ((V4)); then
		if median_of LSV; then
			row_measured "$L" "$V4_TOOL (cold)" "$(fmt_s "$M_WALL") s"
			vs_keep ls 4 "$L, cold"
		else row_failed "$L" "$V4_TOOL (cold)"; fi
	fi
	if median_of LSC; then
		row_measured "$L" nfs-ls "$(fmt_s "$M_WALL") s" "$(fmt_cpu "$M_CCPU")"
		LS_NFSLS=$M_WALL
	else row_failed "$L" nfs-ls; fi
	if median_of LSW; then
		row_measured "$LW" "nfsfuse (warm)" "$(fmt_s "$M_WALL") s"
		LS_WARM=$M_WALL
		vs_keep lsw 3 "$LW"
	else row_failed "$LW" "nfsfuse (warm)"; fi
	if ((V4)); then
		if median_of LSWV; then
			row_measured "$LW" "$V4_TOOL (warm)" "$(fmt_s "$M_WALL") s"
			vs_keep lsw 4 "$LW"
		else
			[[ -z ${LSWV_ERR:-} ]] && LAST_ERR="not run: the cold ls -l failed"
			row_failed "$LW" "$V4_TOOL (warm)"
		fi
	fi
	if median_of LSL; then
		row_measured "$LW" "local (warm)" "$(fmt_s "$M_WALL") s" -
		LS_LOCAL=$M_WALL
	else row_failed "$LW" "local (warm)"; fi
fi
rm -rf -- "$LOCAL/ls"
remote_rm ls

# ------------------------------------------------------------ 5. ls -l at scale

LS2="ls -l ${SCALE_FILES} files"
if ((SCALE)); then
	log "$LS2: set-up"
	if ! ls_setup "$(setup_path ls2)" "$SCALE_FILES"; then
		LAST_ERR="could not create the $SCALE_FILES files"
		row_failed "$LS2" "nfsfuse (cold)"
	else
		# As many rounds as the smaller listing: the target is
		# the ratio of the two medians.
		log "$LS2: nfsfuse cold ($REPEAT round(s))"
		for ((i = 1; i <= REPEAT; i++)); do
			run_rep LS2N cold_mount "$LS2 nfsfuse" 1 --count-lines -- ls -l "$R/ls2" || break
			((M_LINES == SCALE_FILES + 1)) || FAILED+=("$LS2 nfsfuse: listed $((M_LINES - 1)) files, expected $SCALE_FILES")
			long_run LS2N && break
		done
		if median_of LS2N; then
			row_measured "$LS2" "nfsfuse (cold)" "$(fmt_s "$M_WALL") s"
			LS2_COLD=$M_WALL LS2_DCPU=$M_DCPU LS2_SCPU=$M_SCPU LS2_CCPU=$M_CCPU
			LS2_RTT=${M_RTT_READDIRPLUS:-}
			ls_mem_keep "$SCALE_FILES" "$LS2"
		else row_failed "$LS2" "nfsfuse (cold)"; fi
	fi
	remote_rm ls2
else
	row_missing "$LS2" "nfsfuse (cold)" "not run: needs --scale"
fi

# Memory per inode and per entry, from the largest cold ls -l.
MI="memory: RSS growth per inode"
ME="memory: RSS growth per listed entry"
if [[ -n ${LS_MEM_FROM:-} ]]; then
	if ((LS_MEM_INODES > 0)); then
		row_info "$MI" nfsfuse "$((LS_MEM_RSS / LS_MEM_INODES)) B" "$LS_MEM_FROM: +$(fmt_mib "$LS_MEM_RSS") for +$LS_MEM_INODES inodes"
		MEM_PER_INODE=$((LS_MEM_RSS / LS_MEM_INODES))
	else
		row_info "$MI" nfsfuse "-" "$LS_MEM_FROM: no inode count in nfsfusectl stats"
	fi
	row_info "$ME" nfsfuse "$((LS_MEM_RSS / LS_MEM_ENTRIES)) B" "$LS_MEM_FROM: +$(fmt_mib "$LS_MEM_RSS") for $LS_MEM_ENTRIES entries"
else
	LAST_ERR="not run: the cold ls -l failed"; row_failed "$MI" nfsfuse
	LAST_ERR="not run: the cold ls -l failed"; row_failed "$ME" nfsfuse
fi

# ------------------------------------------------------------ 6. create

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
remote_rm c

# ------------------------------------------------------------ 6b. write+read

WRL="write 4KiB + read next, ${WR_PAGES} pages"
log "$WRL: nfsfuse (fresh mount), previous build, local"
if remount && measure "$WRL nfsfuse" 1 --writeread "$R/wr" "$WR_PAGES"; then
	row_measured "$WRL" nfsfuse "$(fmt_s "$M_WALL") s"
	WR_NFSFUSE=$M_WALL
else row_failed "$WRL" nfsfuse; fi
if ((HAVE_BASELINE)); then
	use_baseline
	if remount && measure "$WRL previous" 1 --writeread "$R/wr" "$WR_PAGES"; then
		row_measured "$WRL" "previous build" "$(fmt_s "$M_WALL") s"
		WR_PREV=$M_WALL
	else row_failed "$WRL" "previous build"; fi
	use_subject
	remount || true
else
	row_missing "$WRL" "previous build" "not run: $BASELINE_WHY"
fi
if measure "$WRL local" 0 --writeread "$LOCAL/wr" "$WR_PAGES"; then
	row_measured "$WRL" local "$(fmt_s "$M_WALL") s" -
	WR_LOCAL=$M_WALL
else row_failed "$WRL" local; fi
rm -f -- "$LOCAL/wr"
remote_rm wr

# ------------------------------------------------------------ 7. untar, find -ls, rm -rf

TREE="$(basename -- "$UNTAR_SRC") (${TAR_ENTRIES} entries, ${TAR_MB} MB)"
U="untar $TREE"
F="find -ls of it, cold"
X="rm -rf of it, cold"
log "$U, find -ls, rm -rf: nfsfuse$V4_AND, previous build, local ($REPEAT round(s))"
if ((V4 && !V4_OK)); then
	UV_ERR="$U $V4_TOOL: not run: $V4_WHY"
	FV_ERR="$F $V4_TOOL: not run: $V4_WHY" XV_ERR="$X $V4_TOOL: not run: $V4_WHY"
fi
for ((i = 1; i <= REPEAT; i++)); do
	# Each round in the other order, so that neither build always
	# follows the other's work on the server.  NFSv4.1 (V) runs between
	# the two, so that both NFSv3 builds keep their order; it is not
	# repeated once its untar took long or failed.
	builds=(N)
	((V4_OK)) && ! long_run UV $((2 * LONG_RUN)) && builds+=(V)
	((HAVE_BASELINE)) && builds+=(B)
	if ((i % 2 == 0)); then
		for ((j = 0, k = ${#builds[@]} - 1; j < k; j++, k--)); do
			b=${builds[j]} builds[j]=${builds[k]} builds[k]=$b
		done
	fi
	for step in U F X; do
		for b in "${builds[@]}"; do
			use_v3
			case $b in B) use_baseline ;; V) use_v4 ;; *) use_subject ;; esac
			case $step in
			U) mkdir -p -- "$R/u$b$i" &&
				run_rep "U$b" cold_mount "$U $CUR_NAME" 1 -- tar -C "$R/u$b$i" --no-same-owner -xf "$SHM/untar.tar" ;;
			F) [[ -d $R/u$b$i ]] &&
				run_rep "F$b" cold_mount "$F $CUR_NAME" 1 --count-lines -- find "$R/u$b$i" -ls ;;
			X) [[ -d $R/u$b$i ]] &&
				run_rep "X$b" cold_mount "$X $CUR_NAME" 1 -- rm -rf -- "$R/u$b$i" ;;
			esac
		done
	done
	use_v3
	use_subject
	mkdir -p -- "$LOCAL/u$i" &&
		run_rep UL cold_other "$U local" 0 -- sh -c 'tar -C "$1" --no-same-owner -xf "$2" && sync -f "$1"' sh "$LOCAL/u$i" "$SHM/untar.tar"
	run_rep FL cold_other "$F local" 0 --count-lines -- find "$LOCAL/u$i" -ls
	run_rep XL cold_other "$X local" 0 -- rm -rf -- "$LOCAL/u$i"
	# These ratios are the point: repeated unless very long.
	{ long_run UN $((2 * LONG_RUN)) || long_run UB $((2 * LONG_RUN)); } && break
done
use_subject
for w in U F X; do
	case $w in U) wl=$U ;; F) wl=$F ;; X) wl=$X ;; esac
	if median_of "${w}N"; then
		row_measured "$wl" nfsfuse "$(fmt_s "$M_WALL") s"
		declare "${w}_NFSFUSE=$M_WALL" "${w}_N_DCPU=$M_DCPU" "${w}_N_SCPU=$M_SCPU" "${w}_N_RPC=$M_RPC_TOTAL" \
			"${w}_N_RTT=${M_RTT_TOTAL:-}"
		vs_keep "$w" 3 "$wl"
		[[ $w == U ]] && U_TOTAL=$M_RPC_TOTAL U_DCPU=$M_DCPU U_BUSY=$M_BUSY U_SCPU=$M_SCPU \
			U_WRITE=${M_RPC_WRITE:-0} U_RTT_WRITE=${M_RTT_WRITE:-0} U_RTT=${M_RTT_TOTAL:-}
	else row_failed "$wl" nfsfuse; fi
	if ((V4)); then
		if median_of "${w}V"; then
			row_measured "$wl" "$V4_TOOL" "$(fmt_s "$M_WALL") s"
			vs_keep "$w" 4 "$wl"
			[[ $w == U ]] && UV_TOTAL=$M_RPC_TOTAL UV_DCPU=$M_DCPU
		else
			errv=${w}V_ERR
			[[ $w != U && -z ${!errv:-} ]] && LAST_ERR="not run: the untar failed"
			row_failed "$wl" "$V4_TOOL"
		fi
	fi
	if ((HAVE_BASELINE)); then
		if median_of "${w}B"; then
			row_measured "$wl" "previous build" "$(fmt_s "$M_WALL") s"
			declare "${w}_PREV=$M_WALL" "${w}_P_DCPU=$M_DCPU" "${w}_P_SCPU=$M_SCPU" "${w}_P_RPC=$M_RPC_TOTAL"
		else row_failed "$wl" "previous build"; fi
	else
		row_missing "$wl" "previous build" "not run: $BASELINE_WHY"
	fi
	if median_of "${w}L"; then
		row_measured "$wl" local "$(fmt_s "$M_WALL") s" -
		declare "${w}_LOCAL=$M_WALL"
	else row_failed "$wl" local; fi
done
rm -rf -- "$LOCAL"/u*
for ((i = 1; i <= REPEAT; i++)); do remote_rm "uN$i"; remote_rm "uB$i"; remote_rm "uV$i"; done

# ------------------------------------------------------------ 8. four untars at once

U4="4 untars at once into 4 directories"
log "$U4: nfsfuse (fresh mount, once)"
if cold_mount && mkdir -- "$R/p1" "$R/p2" "$R/p3" "$R/p4" &&
	measure "$U4 nfsfuse" 1 -- bash -c 'pids=(); for d in "$1"/p1 "$1"/p2 "$1"/p3 "$1"/p4; do
		tar -C "$d" --no-same-owner -xf "$2" & pids+=($!); done
		rc=0; for p in "${pids[@]}"; do wait "$p" || rc=1; done; exit $rc' bash "$R" "$SHM/untar.tar"; then
	row_measured "$U4" nfsfuse "$(fmt_s "$M_WALL") s"
	U4_NFSFUSE=$M_WALL U4_DCPU=$M_DCPU U4_BUSY=$M_BUSY U4_SCPU=$M_SCPU CORES=$M_CORES
	U4_RTT=${M_RTT_TOTAL:-} U4_WRITE=${M_RPC_WRITE:-0} U4_RTT_WRITE=${M_RTT_WRITE:-0}
else row_failed "$U4" nfsfuse; fi
for d in p1 p2 p3 p4; do remote_rm "$d"; done

# ------------------------------------------------------------ 9. random 4 KiB reads

RND="random 4KiB reads, ${RAND_JOBS} jobs, ${RAND_MIB}MiB file, ${RAND_TIME} s"
log "$RND: set-up"
RAND_OK=1
rp=$(setup_path rand)
# The source data repeated up to the size (random bytes: the server reads
# real blocks, not holes).
for ((left = RAND_MIB; left > 0; left -= SRC_MIB)); do
	head -c "$(((left < SRC_MIB ? left : SRC_MIB) * 1048576))" "$SHM/src" || { RAND_OK=0; break; }
done >"$rp" || RAND_OK=0
log "$RND: fio on nfsfuse$V4_AND, nfs_randread ($REPEAT round(s))"
fio_run() { "$PY" "$HELPER" fio-iops "$SHM/fio.json"; }
# The issue's random-read line, JSON out; --filename= follows it.  An
# array, not a function: the helper runs the workload as a program.
FIO_RANDREAD=(fio --name=randread --rw=randread --bs=4k --numjobs="$RAND_JOBS"
	--ioengine=psync --size="${RAND_MIB}M" --time_based --runtime="$RAND_TIME"
	--group_reporting --output-format=json)
RNF_IOPS=() RNF_IOS=() RNF_READ=() RNF_SNAP=() RNL_IOPS=() RNL_SNAP=() RNF_ERR=
RNV_IOPS=() RNV_IOS=() RNV_READ=() RNV_SNAP=() RNV_ERR=
for ((i = 1; i <= REPEAT && RAND_OK; i++)); do
	if ((HAVE_FIO)) && run_rep RNF cold_mount "$RND nfsfuse" 1 --stdout "$SHM/fio.json" -- \
		"${FIO_RANDREAD[@]}" --filename="$R/rand"; then
		if read -r iops ios < <(fio_run 2>"$SHM/err"); then
			# Kept with the run: the median is by IOPS, not by wall time.
			RNF_IOPS+=("$iops"); RNF_IOS+=("$ios"); RNF_READ+=("${M_RPC_READ:-0}")
			RNF_SNAP+=("$(m_save)")
		else
			RNF_ERR=${RNF_ERR:-$(cat "$SHM/err")}
		fi
	fi
	# The same file and fio line over NFSv4.1, cold on its own mount.
	if ((HAVE_FIO && V4)) && [[ -z $RNV_ERR ]]; then
		if run_v4 RNV cold_mount "$RND $V4_TOOL" --stdout "$SHM/fio.json" -- \
			"${FIO_RANDREAD[@]}" --filename="$R4/rand"; then
			if read -r iops ios < <(fio_run 2>"$SHM/err"); then
				RNV_IOPS+=("$iops"); RNV_IOS+=("$ios"); RNV_READ+=("${M_OP_READ:-0}")
				RNV_SNAP+=("$(m_save)")
			else
				RNV_ERR=$(cat "$SHM/err")
			fi
		fi
	fi
	if ((HAVE_RANDREAD)) && run_rep RNL cold_other "$RND nfs_randread" 0 --stdout "$SHM/rr.out" -- \
		"$RANDREAD" -t "$RAND_JOBS" -s "$RAND_TIME" -b 4096 "$RURL/rand"; then
		RNL_IOPS+=("$(awk '$1 == "iops" { print $2 }' "$SHM/rr.out")")
		M_READS=$(awk '$1 == "reads" { print $2 }' "$SHM/rr.out")
		RNL_SNAP+=("$(m_save)")
	fi
done
# median_iops NAME: index of the median of NAME_IOPS.
median_iops() {
	# Empty arrays through a name reference count as unset under -u.
	local -
	set +u
	local -n _v=${1}_IOPS
	printf '%s\n' "${_v[@]}" | awk '{ print NR - 1, $1 }' | sort -k2,2g |
		awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
iops_range() {
	# Empty arrays through a name reference count as unset under -u.
	local -
	set +u
	local -n _v=${1}_IOPS
	((${#_v[@]} > 1)) || return 0
	printf ' (n=%d, %s..%s)' "${#_v[@]}" "$(printf '%s\n' "${_v[@]}" | sort -g | head -n 1)" \
		"$(printf '%s\n' "${_v[@]}" | sort -g | tail -n 1)"
}
if ((!HAVE_FIO)); then
	row_missing "$RND" "nfsfuse (fio)" "fio is not installed (Debian: fio)"
elif ((!RAND_OK)); then
	LAST_ERR="could not write the $RAND_MIB MiB file"; row_failed "$RND" "nfsfuse (fio)"
elif ((${#RNF_IOPS[@]})); then
	k=$(median_iops RNF)
	unset -v "${!M_@}"
	eval "${RNF_SNAP[k]}"
	M_N=1
	RN_NFSFUSE=${RNF_IOPS[k]} RN_N_SCPU=$M_SCPU RN_N_READ=${RNF_READ[k]}
	rpi=$(awk -v r="${RNF_READ[k]}" -v n="${RNF_IOS[k]}" 'BEGIN { if (n > 0) printf "%.2f", r / n; else print "-" }')
	row_measured "$RND" "nfsfuse (fio)" "${RN_NFSFUSE} IOPS$(iops_range RNF), ${rpi} READ/IO"
	RN_RTPI=$(awk -v r="${M_RPC_TOTAL:-0}" -v n="${RNF_IOS[k]}" 'BEGIN { if (n > 0) printf "%.2f", r / n }')
	[[ -n ${RNF_ERR:-} ]] && FAILED+=("$RND nfsfuse: a run failed: $RNF_ERR")
else
	LAST_ERR=${RNF_ERR:-not run}; row_failed "$RND" "nfsfuse (fio)"
fi
if ((!V4)); then
	:
elif ((!HAVE_FIO)); then
	row_missing "$RND" "$V4_TOOL (fio)" "fio is not installed (Debian: fio)"
elif ((!RAND_OK)); then
	LAST_ERR="could not write the $RAND_MIB MiB file"; row_failed "$RND" "$V4_TOOL (fio)"
elif ((${#RNV_IOPS[@]})); then
	k=$(median_iops RNV)
	unset -v "${!M_@}"
	eval "${RNV_SNAP[k]}"
	M_N=1
	RN_V4=${RNV_IOPS[k]}
	rpi=$(awk -v r="${RNV_READ[k]}" -v n="${RNV_IOS[k]}" 'BEGIN { if (n > 0) printf "%.2f", r / n; else print "-" }')
	row_measured "$RND" "$V4_TOOL (fio)" "${RN_V4} IOPS$(iops_range RNV), ${rpi} READ/IO"
	[[ -n ${RNV_ERR:-} ]] && FAILED+=("$RND $V4_TOOL: a run failed: $RNV_ERR")
	# Time per read, as the other comparisons are of times; round trips
	# per read, the runs being of a time, not of a number of reads.
	if [[ -n ${RN_NFSFUSE:-} ]] && ((RN_NFSFUSE > 0 && RN_V4 > 0)); then
		VS_KEYS+=(rand)
		VS_LABEL[rand]="random 4KiB reads (time per read; round trips per read)"
		VS3_T[rand]=$(awk -v i="$RN_NFSFUSE" 'BEGIN { printf "%.9f", 1 / i }')
		VS4_T[rand]=$(awk -v i="$RN_V4" 'BEGIN { printf "%.9f", 1 / i }')
		VS3_N[rand]=${RN_RTPI:-}
		VS4_N[rand]=$(awk -v r="${M_RPC_TOTAL:-0}" -v n="${RNV_IOS[k]}" 'BEGIN { if (n > 0) printf "%.2f", r / n }')
	fi
else
	LAST_ERR=${RNV_ERR:-not run}; row_failed "$RND" "$V4_TOOL (fio)"
fi
if ((!HAVE_RANDREAD)); then
	if [[ -f $REPO_ROOT/build/build.ninja ]] && ! pkg-config --exists libnfs 2>/dev/null; then
		why="not built: libnfs's headers are not installed (Debian: libnfs-dev), then rebuild"
	else
		why="$RANDREAD not found (built by meson where libnfs is installed; give --randread)"
	fi
	row_missing "$RND" "libnfs (nfs_randread)" "$why"
elif ((!RAND_OK)); then
	LAST_ERR="could not write the $RAND_MIB MiB file"; row_failed "$RND" "libnfs (nfs_randread)"
elif ((${#RNL_IOPS[@]})); then
	k=$(median_iops RNL)
	unset -v "${!M_@}"
	eval "${RNL_SNAP[k]}"
	M_N=1
	RN_LIBNFS=${RNL_IOPS[k]} RN_L_SCPU=$M_SCPU RN_L_READ=${M_READS:-}
	row_measured "$RND" "libnfs (nfs_randread)" "${RN_LIBNFS} IOPS$(iops_range RNL)" "$(fmt_cpu "$M_CCPU")"
else
	median_of RNL || true
	row_failed "$RND" "libnfs (nfs_randread)"
fi
remote_rm rand

# ------------------------------------------------------------ 10. nconnect

NC="4 files read at once, 4 x $((SIZE_MIB / 2))MiB, cold"
if ((HAVE_NCONNECT)); then
	log "$NC: nconnect=1 and nconnect=4 ($REPEAT round(s))"
	NC_OK=1
	for f in 1 2 3 4; do
		head -c "$((SIZE_MIB / 2 * 1048576))" "$SHM/src" >"$(setup_path "nc$f")" || NC_OK=0
	done
	for ((i = 1; i <= REPEAT && NC_OK; i++)); do
		for n in 1 4; do
			EXTRA_OPTS=nconnect=$n
			run_rep "NC$n" cold_mount "$NC nconnect=$n" 1 -- bash -c 'pids=(); for f in 1 2 3 4; do
				dd if="$1/nc$f" of=/dev/null bs=1M status=none & pids+=($!); done
				rc=0; for p in "${pids[@]}"; do wait "$p" || rc=1; done; exit $rc' bash "$R"
		done
	done
	EXTRA_OPTS=
	for n in 1 4; do
		if ((!NC_OK)); then
			LAST_ERR="could not write the four files"; row_failed "$NC" "nfsfuse nconnect=$n"
		elif median_of "NC$n"; then
			row_measured "$NC" "nfsfuse nconnect=$n" "$(fmt_mbs "$((SIZE_MIB / 2 * 1048576 * 4))" "$M_WALL")"
			declare "NC${n}_WALL=$M_WALL" "NC${n}_BUSY=$M_BUSY" "NC${n}_DCPU=$M_DCPU" "NC${n}_SCPU=$M_SCPU"
			CORES=$M_CORES
		else row_failed "$NC" "nfsfuse nconnect=$n"; fi
	done
	for f in 1 2 3 4; do remote_rm "nc$f"; done
else
	row_missing "$NC" "nfsfuse nconnect=1, 4" "this nfsfuse has no nconnect option"
fi

# ------------------------------------------------------------ 11. memory against cache_size

MR="memory: RSS after reading ${MEMREAD_MIB}MiB"
log "$MR: nfsfuse (fresh mount, a sparse file)"
if truncate -s "${MEMREAD_MIB}M" "$(setup_path mem)" && cold_mount &&
	CACHE_SIZE=$(mount_flag cache_size) &&
	measure "$MR nfsfuse" 1 -- dd if="$R/mem" of=/dev/null bs=1M status=none; then
	MEM_RSS=$M_RSS1 MEM_HWM=$M_HWM1 MEM_BASE=$M_RSS0 MEM_DC=${M_DCACHE1:-0}
	row_measured "$MR" nfsfuse "RSS $(fmt_mib "$MEM_RSS")"
	row_info "  (RSS at mount, peak; data cache; cache_size)" nfsfuse \
		"$(fmt_mib "$MEM_BASE"), $(fmt_mib "$MEM_HWM")" \
		"data cache $(fmt_mib "$MEM_DC"); cache_size ${CACHE_SIZE:+$(fmt_mib "$CACHE_SIZE")}"
else row_failed "$MR" nfsfuse; fi
remote_rm mem

# ------------------------------------------------------------ 12. the FUSE floor

# The small writes and the random reads again, through fuse_floor: a FUSE
# file system served as nfsfuse is that does no work.  No FUSE file system
# with those settings does either workload faster on this machine.
FL="FUSE floor"
if ((HAVE_FLOOR)); then
	log "$FL: $SW4, $SW1 and $RND through $FLOOR ($REPEAT round(s))"
	FMNT=$SHM/floor
	if mkdir -- "$FMNT" && floor_mount; then
		for ((i = 1; i <= REPEAT; i++)); do
			run_rep FL1 no_prep "$SW1 $FL" 0 -- dd if="$SHM/src" of="$FMNT/f" bs=1M count="$SMALLW_MIB" conv=fsync status=none
			run_rep FL4 no_prep "$SW4 $FL" 0 -- dd if="$SHM/src" of="$FMNT/f" bs=4k count="$((SMALLW_MIB * 256))" conv=fsync status=none
			long_run FL4 && break
		done
		for n in 4 1; do
			if median_of "FL$n"; then
				row_measured "$([[ $n == 4 ]] && echo "$SW4" || echo "$SW1")" "$FL" "$(fmt_mbs "$SMALLW_B" "$M_WALL")" -
				declare "FL${n}_WALL=$M_WALL"
			else row_failed "$([[ $n == 4 ]] && echo "$SW4" || echo "$SW1")" "$FL"; fi
		done
		if ((HAVE_FIO)) && truncate -s "${RAND_MIB}M" "$FMNT/f"; then
			FLR_IOPS=() FLR_SNAP=() FLR_ERR=
			for ((i = 1; i <= REPEAT; i++)); do
				if run_rep FLR floor_fresh "$RND $FL" 0 --stdout "$SHM/fio.json" -- \
					"${FIO_RANDREAD[@]}" --filename="$FMNT/f"; then
					if read -r iops ios < <(fio_run 2>"$SHM/err"); then
						FLR_IOPS+=("$iops"); FLR_SNAP+=("$(m_save)")
					else
						FLR_ERR=${FLR_ERR:-$(cat "$SHM/err")}
					fi
				fi
			done
			if ((${#FLR_IOPS[@]})); then
				k=$(median_iops FLR)
				unset -v "${!M_@}"
				eval "${FLR_SNAP[k]}"
				M_N=1
				RN_FLOOR=${FLR_IOPS[k]}
				row_measured "$RND" "$FL (fio)" "${RN_FLOOR} IOPS$(iops_range FLR)" -
			else
				LAST_ERR=${FLR_ERR:-not run}; row_failed "$RND" "$FL (fio)"
			fi
		elif ((!HAVE_FIO)); then
			row_missing "$RND" "$FL (fio)" "fio is not installed (Debian: fio)"
		fi
		floor_umount
	else
		LAST_ERR="cannot mount $FLOOR on $FMNT"; row_failed "$SW4" "$FL"
	fi
else
	row_missing "$SW4" "$FL" "$FLOOR not found (built by meson in tests/bench; give --floor)"
fi

LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
T_END=$(date +%s)

# ------------------------------------------------------------ report

echo
echo "nfsfuse benchmark  $(date '+%F %T'), $((T_END - T_START)) s"
echo "  nfsfuse:  $NFSFUSE ($(cd "$REPO_ROOT" && git describe --always --dirty 2>/dev/null || echo "no git"))${MOUNT_OPTS:+  -o $MOUNT_OPTS}"
if ((HAVE_BASELINE)); then
	echo "  previous build: $BASELINE_DESC"
else
	echo "  previous build: none ($BASELINE_WHY)"
fi
echo "  server:   $SERVER:$EXPORT   local disk: $LOCAL_PARENT ($(df -P "$LOCAL_PARENT" | awk 'NR == 2 { print $1 }'))"
echo "  machine:  $(nproc) CPUs; load average $LOAD_START at start, $LOAD_END at end"
echo "  mount:    wsize ${WSIZE:-?}, cache_size ${CACHE_SIZE:-?}; $REPEAT run(s) per workload, cold read $READ_REPEAT (median shown, n= and range when more than one)"
case $DROP_STATE in
yes) echo "  cold:     remount + sync + drop_caches (page cache dropped, client and server)" ;;
*) echo "  cold:     remount only; could NOT drop the page cache (not root?): server-side reads were warm" ;;
esac
echo "  MB/s = 10^6 B/s of wall time; daemon CPU = nfsfuse daemon utime+stime (libnfs tools: their own CPU)"
if ((!V4)); then
	echo "  NFSv4.1:  not run (--no-v4)"
elif ((V4_OK)); then
	echo "  NFSv4.1:  rows \"$V4_TOOL\": this nfsfuse, vers=4.1 mount of $SERVER:$V4_EXPORT (wsize ${WSIZE4:-?}), a mount point of its own"
	echo "            RPCs = COMPOUNDs (round trips), CPU us/RPC per COMPOUND; ops: the operations inside them"
else
	echo "  NFSv4.1:  no mount: $V4_WHY"
fi
echo
{
	printf 'workload\ttool\tresult\twall s\tdaemon CPU s\tCPU us/RPC\tserver CPU s\tRPCs\n'
	printf '%s\n' "${ROWS[@]}"
} | column -t -s $'\t' -o ' | '

# target TEXT VALUE VERDICT
target() { printf '  %-58s %-12s %s\n' "$1" "$2" "$3"; }
# target_ratio TEXT A B le|ge LIMIT : A/B against LIMIT.
target_ratio() {
	local r
	if [[ -n $2 && -n $3 ]]; then
		r=$(ratio "$2" "$3")
		if "$4" "$r" "$5"; then target "$1" "$r" met; else target "$1" "$r" "NOT met"; fi
	else
		target "$1" - "NOT measured"
	fi
}

# cpu_vs W: the CPU and RPCs of workload W's nfsfuse row against the
# previous build's, printed under its target.
cpu_vs() {
	local nd=${1}_N_DCPU ns=${1}_N_SCPU nr=${1}_N_RPC pd=${1}_P_DCPU ps=${1}_P_SCPU pr=${1}_P_RPC
	[[ -n ${!nd:-} && -n ${!pd:-} ]] || return 0
	awk -v nd="${!nd}" -v ns="${!ns:--}" -v nr="${!nr:--}" -v pd="${!pd}" -v ps="${!ps:--}" -v pr="${!pr:--}" 'BEGIN {
		t = sprintf("daemon %s against %s", nd, pd)
		if (ns != "-" && ps != "-") t = t sprintf("; server %s against %s", ns, ps)
		printf "    (CPU s, this build against the previous one: %s; RPCs %s against %s)\n", t, nr, pr
	}'
}
# replies_vs W FACTOR: under a target "W <= FACTOR x the previous build",
# how long this build waited for the server's replies (its RPCs' round
# trips, one after another): when that alone exceeds the target's time,
# the server is the limit, whatever the client does besides.
replies_vs() {
	local rt=${1}_N_RTT wall=${1}_NFSFUSE prev=${1}_PREV
	[[ -n ${!rt:-} && -n ${!wall:-} && -n ${!prev:-} ]] || return 0
	awk -v rt="${!rt}" -v w="${!wall}" -v p="${!prev}" -v f="$2" 'BEGIN {
		t = p * f; r = rt / 1e6
		printf "    (replies took %.3f s of the %.3f s; the target is %.3f s: replies alone %.2f x the previous build, %s)\n", r, w, t, r / p, (r > t ? "over it" : "within it")
	}'
}
# cpu_split WHAT WALL BUSY DAEMON SERVER: where the machine's CPU went in
# one run (core-seconds), printed under a target; "-" where not counted.
cpu_split() {
	awk -v what="$1" -v w="$2" -v b="$3" -v d="$4" -v s="$5" -v c="${CORES:-0}" 'BEGIN {
		o = b; t = ""
		if (d != "-") { t = t sprintf(", daemon %.2f", d); o -= d }
		if (s != "-") { t = t sprintf(", server %.2f", s); o -= s }
		if (t != "") t = t sprintf(", all else %.2f", o)
		printf "    (CPU, %s: %.2f core-s busy in %.3f s, %.2f of %d cores%s)\n", what, b, w, (w > 0 ? b / w : 0), c, t
	}'
}

echo
echo "targets (ratios of this run)"
target_ratio "untar: nfsfuse/local <= 12" "${U_NFSFUSE:-}" "${U_LOCAL:-}" le 12
# Each file's data goes as a FILE_SYNC WRITE at close: the server writes it
# to its disk before it answers.  How much of the untar was that wait?
if [[ -n ${U_RTT:-} && -n ${U_LOCAL:-} && ${U_WRITE:-0} -gt 0 && ${U_TOTAL:-0} -gt $U_WRITE ]]; then
	awk -v w="$U_NFSFUSE" -v l="$U_LOCAL" -v rt="$U_RTT" -v rw="$U_RTT_WRITE" -v nw="$U_WRITE" -v n="$U_TOTAL" 'BEGIN {
		mo = (rt - rw) / (n - nw)
		printf "    (replies took %.2f s of the %.2f s: %d WRITEs %.2f s, %.3f ms each; the other %d RPCs %.2f s, %.3f ms each)\n", rt / 1e6, w, nw, rw / 1e6, rw / nw / 1e3, n - nw, (rt - rw) / 1e6, mo / 1e3
		e = w - (rw - nw * mo) / 1e6
		printf "    (with WRITEs that cost what the other RPCs cost: %.2f s, %.2f x local)\n", e, e / l
	}'
fi
target_ratio "untar: nfsfuse/previous build <= 0.6" "${U_NFSFUSE:-}" "${U_PREV:-}" le 0.6
cpu_vs U
replies_vs U 0.6
target_ratio "rm -rf: nfsfuse/previous build <= 0.5" "${X_NFSFUSE:-}" "${X_PREV:-}" le 0.5
cpu_vs X
replies_vs X 0.5
target_ratio "find -ls cold: nfsfuse/previous build <= 0.7" "${F_NFSFUSE:-}" "${F_PREV:-}" le 0.7
cpu_vs F
replies_vs F 0.7
target_ratio "ls -l $LS_FILES cold: nfsfuse/nfs-ls <= 5" "${LS_COLD:-}" "${LS_NFSLS:-}" le 5
target_ratio "ls -l $LS_FILES warm: nfsfuse/local <= 2" "${LS_WARM:-}" "${LS_LOCAL:-}" le 2
if ((SCALE)); then
	target_ratio "ls -l $SCALE_FILES / ls -l $LS_FILES, cold <= 11" "${LS2_COLD:-}" "${LS_COLD:-}" le 11
	if [[ -n ${LS2_SCPU:-} && -n ${LS_SCPU:-} && $LS2_SCPU != - && $LS_SCPU != - ]]; then
		awk -v s2="$LS2_SCPU" -v s1="$LS_SCPU" -v d2="$LS2_DCPU" -v d1="$LS_DCPU" 'BEGIN {
			printf "    (CPU s: server %.2f against %.2f, %s x; daemon %.2f against %.2f, %s x)\n", s2, s1, (s1 > 0 ? sprintf("%.1f", s2 / s1) : "-"), d2, d1, (d1 > 0 ? sprintf("%.1f", d2 / d1) : "-")
		}'
	fi
	# What else grows: the lister's own CPU (ls sorts the names too),
	# and the server's replies, the longest chain of the listing.
	if [[ -n ${LS2_CCPU:-} && -n ${LS_CCPU:-} && -n ${LS2_RTT:-} && -n ${LS_RTT:-} ]]; then
		awk -v c2="$LS2_CCPU" -v c1="$LS_CCPU" -v r2="$LS2_RTT" -v r1="$LS_RTT" 'BEGIN {
			printf "    (ls itself: %.2f against %.2f CPU s, %s x; READDIRPLUS replies %.2f against %.2f s, %s x)\n", c2, c1, (c1 > 0 ? sprintf("%.1f", c2 / c1) : "-"), r2 / 1e6, r1 / 1e6, (r1 > 0 ? sprintf("%.1f", r2 / r1) : "-")
		}'
	fi
else
	target "ls -l $SCALE_FILES / ls -l $LS_FILES, cold <= 11" - "not run (--scale)"
fi
# IOPS: more is better, so the ratio is nfsfuse/libnfs.
target_ratio "random 4KiB reads: nfsfuse/libnfs IOPS >= 1.5" "${RN_NFSFUSE:-}" "${RN_LIBNFS:-}" ge 1.5
if [[ -n ${RN_FLOOR:-} && -n ${RN_LIBNFS:-} ]]; then
	printf '    (FUSE floor: %s IOPS through a file system doing no work, %s x libnfs)\n' \
		"$RN_FLOOR" "$(ratio "$RN_FLOOR" "$RN_LIBNFS")"
fi
# The server's CPU per READ bounds the IOPS any client gets from it.
if [[ -n ${RN_L_SCPU:-} && $RN_L_SCPU != - && -n ${RN_L_READ:-} && -n ${RN_N_SCPU:-} ]]; then
	awk -v sn="$RN_N_SCPU" -v rn="${RN_N_READ:-0}" -v sl="$RN_L_SCPU" -v rl="$RN_L_READ" -v iops="$RN_LIBNFS" -v c="${CORES:-$(nproc)}" 'BEGIN {
		if (rl <= 0) exit
		ul = sl * 1e6 / rl
		un = rn > 0 ? sprintf("%.0f us", sn * 1e6 / rn) : "-"
		need = 1.5 * iops * ul / 1e6
		printf "    (server CPU per READ: %s behind nfsfuse, %.0f us behind libnfs; 1.5 x libnfs'"'"'s IOPS keeps %.2f of the %d cores busy with the server alone)\n", un, ul, need, c
	}'
fi
target_ratio "write ${SMALLW_MIB}MiB: time bs=4k / bs=1M <= 2" "${SW4_WALL:-}" "${SW1_WALL:-}" le 2
if [[ -n ${FL4_WALL:-} && -n ${SW1_WALL:-} && -n ${SW4_WALL:-} ]]; then
	printf '    (FUSE floor: bs=4k through a file system doing no work takes %s s, %s x nfsfuse'"'"'s bs=1M;\n' \
		"$(fmt_s "$FL4_WALL")" "$(ratio "$FL4_WALL" "$SW1_WALL")"
	printf '     nfsfuse bs=4k - floor bs=4k = %s s, against %s s for nfsfuse'"'"'s bs=1M)\n' \
		"$(awk -v a="$SW4_WALL" -v b="$FL4_WALL" 'BEGIN { printf "%.3f", a - b }')" "$(fmt_s "$SW1_WALL")"
fi
if [[ -n ${SW4_WRITE:-} && -n ${WSIZE:-} ]]; then
	lim=$(awk -v b="$SMALLW_B" -v w="$WSIZE" 'BEGIN { n = int((b + w - 1) / w); printf "%d", n * 1.1 }')
	if ((SW4_WRITE <= lim)); then v=met; else v="NOT met"; fi
	target "write ${SMALLW_MIB}MiB bs=4k: WRITE calls <= size/wsize + 10% ($lim)" "$SW4_WRITE" "$v"
else
	target "write ${SMALLW_MIB}MiB bs=4k: WRITE calls <= size/wsize + 10%" - "NOT measured"
fi
# Same bytes: the throughput ratio is the inverse ratio of the times.
target_ratio "cold read: nfsfuse/nfs-cp >= 1.5 (median of $READ_REPEAT)" "${R_NFSCP:-}" "${R_NFSFUSE:-}" ge 1.5
# The server reads the file cold from this machine's disk, as the local row.
if [[ -n ${R_LOCAL:-} && -n ${R_NFSCP:-} && -n ${R_NFSFUSE:-} && $DROP_STATE == yes ]] && ((SAME_DISK)); then
	awk -v l="$R_LOCAL" -v c="$R_NFSCP" -v n="$R_NFSFUSE" -v b="$SIZE_B" 'BEGIN {
		printf "    (the disk itself, cold: %.0f MB/s, %.2f x nfs-cp, %s; nfsfuse reads at %.0f %% of it)\n", b / l / 1e6, c / l, (c / l < 1.5 ? "under 1.5, the disk is the limit" : "over 1.5"), l / n * 100
	}'
fi
target_ratio "write + fsync: nfsfuse/nfs-cp >= 1.0" "${W_NFSCP:-}" "${W_NFSFUSE:-}" ge 1.0
target_ratio "4 untars at once / one untar <= 2" "${U4_NFSFUSE:-}" "${U_NFSFUSE:-}" le 2
if [[ -n ${U4_BUSY:-} && -n ${U_BUSY:-} && -n ${U_NFSFUSE:-} ]]; then
	cpu_split "one untar" "$U_NFSFUSE" "$U_BUSY" "$U_DCPU" "$U_SCPU"
	cpu_split "four at once" "$U4_NFSFUSE" "$U4_BUSY" "$U4_DCPU" "$U4_SCPU"
	# Four untars need at least four times one untar's CPU: on CORES
	# cores, never less than 4 * busy / CORES seconds.
	awk -v b="$U_BUSY" -v w="$U_NFSFUSE" -v c="$CORES" -v d="$U_DCPU" -v b4="$U4_BUSY" 'BEGIN {
		lb = 4 * b / c / w
		printf "    (four untars at one untar'"'"'s CPU need at least 4 x %.2f / %d = %.2f s, %.2f x one untar: %s)\n", b, c, 4 * b / c, lb, (lb > 2 ? "over 2, the cores are the limit at this CPU per untar" : "within 2")
		if (d != "-") printf "    (the same without the daemon'"'"'s CPU: %.2f x; run at once, each untar cost %.2f x the CPU it costs alone)\n", 4 * (b - d) / c / w, b4 / 4 / b
	}'
	# Each untar is a chain of calls: what it waited for replies alone,
	# against twice one untar's whole time.
	if [[ -n ${U4_RTT:-} && -n ${U_RTT:-} && ${U4_WRITE:-0} -gt 0 && ${U_WRITE:-0} -gt 0 ]]; then
		awk -v r4="$U4_RTT" -v r1="$U_RTT" -v w="$U_NFSFUSE" -v w4="$U4_RTT_WRITE" -v n4="$U4_WRITE" -v w1="$U_RTT_WRITE" -v n1="$U_WRITE" 'BEGIN {
			printf "    (each of the four waited %.2f s for replies, %.2f x one untar'"'"'s whole time, against %.2f s alone; a WRITE took %.3f ms against %.3f ms alone)\n", r4 / 4e6, r4 / 4e6 / w, r1 / 1e6, w4 / n4 / 1e3, w1 / n1 / 1e3
		}'
	fi
fi
if ((HAVE_NCONNECT)); then
	target_ratio "4 readers: nconnect=4 / nconnect=1 >= 1.3" "${NC1_WALL:-}" "${NC4_WALL:-}" ge 1.3
	if [[ -n ${NC1_BUSY:-} && -n ${NC4_BUSY:-} ]]; then
		cpu_split "nconnect=1" "$NC1_WALL" "$NC1_BUSY" "$NC1_DCPU" "$NC1_SCPU"
		cpu_split "nconnect=4" "$NC4_WALL" "$NC4_BUSY" "$NC4_DCPU" "$NC4_SCPU"
		# The same bytes at nconnect=1's CPU per byte, every core busy.
		awk -v b="$NC1_BUSY" -v w="$NC1_WALL" -v c="$CORES" 'BEGIN {
			if (b <= 0) exit
			m = c * w / b
			printf "    (at nconnect=1'"'"'s CPU per byte, %d busy cores allow at most %.2f x its speed: %s)\n", c, m, (m < 1.3 ? "under 1.3, the cores are the limit" : "1.3 is within reach")
		}'
	fi
else
	target "4 readers: nconnect=4 / nconnect=1 >= 1.3" - "not run (no nconnect option)"
fi
if [[ -n ${U_TOTAL:-} && $U_TOTAL -gt 0 ]]; then
	us=$(awk -v c="$U_DCPU" -v n="$U_TOTAL" 'BEGIN { printf "%.1f", c * 1e6 / n }')
	if le "$us" 40; then v=met; else v="NOT met"; fi
	target "untar: daemon CPU per RPC <= 40 us" "$us" "$v"
else
	target "untar: daemon CPU per RPC <= 40 us" - "NOT measured"
fi
if [[ -n ${MEM_RSS:-} && -n ${CACHE_SIZE:-} ]]; then
	lim=$((CACHE_SIZE + MEM_OVERHEAD_MIB * 1048576))
	if ((MEM_RSS <= lim)); then v=met; else v="NOT met"; fi
	target "RSS after ${MEMREAD_MIB}MiB read <= cache_size + ${MEM_OVERHEAD_MIB} MiB" "$(fmt_mib "$MEM_RSS")" "$v"
else
	target "RSS after ${MEMREAD_MIB}MiB read <= cache_size + ${MEM_OVERHEAD_MIB} MiB" - "NOT measured"
fi
if [[ -n ${RR_GETATTR:-} ]]; then
	v="GETATTR $RR_GETATTR READ $RR_READ"
	extra=$((RR_TOTAL - RR_GETATTR - RR_READ))
	((extra > 0)) && v="$v (+$extra other: $RR_RPCS)"
	if ((RR_GETATTR == 1 && RR_READ == 0)); then m=met; else m="NOT met"; fi
	target "re-read: 1 GETATTR and 0 READ" "$v" "$m"
else
	target "re-read: 1 GETATTR and 0 READ" - "NOT measured"
fi
if [[ -n ${C_TOTAL:-} ]]; then
	nd=$((C_TOTAL - C_WRITE))
	per=$(awk -v a="$nd" -v n="$CREATE_FILES" 'BEGIN { printf "%.2f", a / n }')
	if le "$per" 2; then m=met; else m="NOT met"; fi
	target "create: <= 2 RPCs per file (+ its WRITEs)" "$per" "$m"
	printf '    (%d RPCs for %d files: %s; WRITE %d/file, COMMIT %d/file not exempted)\n' \
		"$C_TOTAL" "$CREATE_FILES" "$C_RPCS" "$((C_WRITE / CREATE_FILES))" "$((C_COMMIT / CREATE_FILES))"
else
	target "create: <= 2 RPCs per file (+ its WRITEs)" - "NOT measured"
fi
if ((V4)); then
	if [[ -n ${SWV_WRITE:-} && -n ${WSIZE4:-} ]]; then
		lim=$(awk -v b="$SMALLW_B" -v w="$WSIZE4" 'BEGIN { n = int((b + w - 1) / w); printf "%d", n * 1.1 }')
		if ((SWV_WRITE <= lim)); then v=met; else v="NOT met"; fi
		target "v4.1: write ${SMALLW_MIB}MiB bs=4k: WRITE ops <= size/wsize + 10% ($lim)" "$SWV_WRITE" "$v"
	else
		target "v4.1: write ${SMALLW_MIB}MiB bs=4k: WRITE ops <= size/wsize + 10%" - "NOT measured"
	fi
fi
if ((V4)); then
	echo
	echo "NFSv4.1 against NFSv3 (this run, for information: v4.1 / v3 time; round trips: COMPOUNDs / RPCs)"
	((V4_OK)) || echo "  (no NFSv4.1 mount: nothing to compare)"
	for k in "${VS_KEYS[@]}"; do
		((V4_OK)) || break
		t=- n=-
		[[ -n ${VS3_T[$k]:-} && -n ${VS4_T[$k]:-} ]] && t=$(ratio "${VS4_T[$k]}" "${VS3_T[$k]}")
		[[ ${VS3_N[$k]:-} =~ ^[0-9.]+$ && ${VS4_N[$k]:-} =~ ^[0-9.]+$ ]] &&
			n="${VS4_N[$k]} / ${VS3_N[$k]}"
		printf '  %-58s %-12s %s\n' "${VS_LABEL[$k]}" "$t" "round trips $n"
	done
fi
echo
echo "for information"
if [[ -n ${U_TOTAL:-} ]]; then
	printf '  %-58s %s\n' "untar: RPCs per tar entry" \
		"$(awk -v a="$U_TOTAL" -v n="$TAR_ENTRIES" 'BEGIN { printf "%.2f", a / n }')"
fi
if [[ -n ${UV_TOTAL:-} ]] && ((UV_TOTAL > 0)); then
	printf '  %-58s %s\n' "untar over v4.1: COMPOUNDs per entry, CPU per COMPOUND" \
		"$(awk -v a="$UV_TOTAL" -v n="$TAR_ENTRIES" -v c="$UV_DCPU" 'BEGIN { printf "%.2f, %.1f us", a / n, c * 1e6 / a }')"
fi
if [[ -n ${RRV_RPCS:-} ]]; then
	printf '  %-58s %s\n' "re-read over v4.1 (NFSv3: 1 GETATTR, 0 READ)" "$RRV_RPCS"
fi
if [[ -n ${WR_NFSFUSE:-} && -n ${WR_LOCAL:-} ]]; then
	printf '  %-58s %s\n' "write 4KiB + read next: nfsfuse/local, nfsfuse/previous build" \
		"$(awk -v a="$WR_NFSFUSE" -v l="$WR_LOCAL" -v p="${WR_PREV:-}" 'BEGIN {
			printf "%.2f, %s", a / l, p == "" ? "-" : sprintf("%.2f", a / p) }')"
fi
if [[ -n ${MEM_PER_INODE:-} ]]; then
	printf '  %-58s %s\n' "daemon memory per inode (${LS_MEM_FROM})" "$MEM_PER_INODE B"
fi
if [[ -n ${MEM_RSS:-} && -n ${CACHE_SIZE:-} ]]; then
	printf '  %-58s %s\n' "RSS - cache_size after the ${MEMREAD_MIB}MiB read (peak - cache_size)" \
		"$(fmt_mib "$((MEM_RSS - CACHE_SIZE))") ($(fmt_mib "$((MEM_HWM - CACHE_SIZE))"))"
fi

if ((${#FAILED[@]})); then
	echo
	echo "bench.sh: ${#FAILED[@]} workload(s) could not run or gave wrong results:" >&2
	printf '  %s\n' "${FAILED[@]}" >&2
	exit 1
fi
exit 0
