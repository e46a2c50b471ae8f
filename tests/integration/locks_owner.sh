#!/usr/bin/env bash
# Lock recovery per owner: two users each mount the export with the
# default caller name and state directory scheme; each holds a lock.  B's
# daemon is killed (SIGKILL) and B mounts again: B's dead run's lock is
# released, and A's lock is still held, as a third mount (root's) sees
# with F_GETLK.  (A daemon that announced its restart with SM_NOTIFY or
# NLM FREE_ALL under the host's name would free A's lock too.)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/locks_lib.sh"
need_cmd python3
need_cmd setpriv
need_root
ensure_server
need_nfsfuse

# Users of this test alone (/etc/passwd is shared); made once, kept.
make_user() {
	local u=$1 i
	for ((i = 0; i < 20; i++)); do
		id -u "$u" >/dev/null 2>&1 && return 0
		useradd --user-group --no-create-home --home-dir /nonexistent \
			--shell /bin/sh "$u" >/dev/null 2>&1 || sleep 0.2
	done
	id -u "$u" >/dev/null 2>&1 || fail "cannot create user $u"
}
UA=nfsfuse_lkownA
UB=nfsfuse_lkownB
make_user "$UA"
make_user "$UB"
# The user's own process, with its HOME (so its default state directory)
# in this test's scratch space.
as() {
	local u=$1
	shift
	setpriv --reuid="$(id -u "$u")" --regid="$(id -g "$u")" --init-groups -- \
		env HOME="$NFSFUSE_TMP/home-$u" USER="$u" LOGNAME="$u" XDG_STATE_HOME= "$@"
}
for u in "$UA" "$UB"; do
	mkdir -p "$NFSFUSE_TMP/home-$u"
	chown "$u:" "$NFSFUSE_TMP/home-$u"
done
chmod 644 "$LK_PY"

# mount_as USER MNT: the user's daemon, in the foreground, defaults only.
mount_as() {
	local u=$1 mnt=$2 log
	chown "$u:" "$mnt"
	log=$(mktemp "$NFSFUSE_TMP/nfsfuse-$u.XXXXXX.log")
	chmod 666 "$log"
	as "$u" "$NFSFUSE" "$SERVER:$EXPORT" "$mnt" -f -o actimeo=0 </dev/null >"$log" 2>&1 &
	register_pid "$!"
	echo "$mnt" >>"$_REG/mounts"
	wait_until 10 is_fuse_mount "$mnt" || { cat "$log" >&2; fail "$u could not mount $mnt"; }
}
state_of() { echo "$NFSFUSE_TMP/home-$1/.local/state/nfsfuse"; }

T=$(make_testdir locks_owner)
FA=$T/a
FB=$T/b
for f in "$FA" "$FB"; do
	: >"$EXPORT_DIR/$f"
	chmod 666 "$EXPORT_DIR/$f"
done
chmod 777 "$EXPORT_DIR/$T"
MA=$(new_mountpoint)
MB=$(new_mountpoint)
MC=$(new_mountpoint)
mount_as "$UA" "$MA"
mount_as "$UB" "$MB"
mount_nfsfuse "$MC" -f -o "hostname=lockowner$$,statedir=$NFSFUSE_TMP/state-c,actimeo=0"
R=$NFSFUSE_TMP/rel

# Each user's state directory, under its own HOME.
statedir_of() { local d; for d in "$(state_of "$1")"/*/; do [[ -s $d/status ]] && echo "${d%/}"; done; }
wait_until 10 test -n "$(statedir_of "$UA")" || fail "no state directory for $UA: $(ls -R "$(state_of "$UA")" 2>&1)"
wait_until 10 test -n "$(statedir_of "$UB")" || fail "no state directory for $UB"
SA=$(statedir_of "$UA")
SB=$(statedir_of "$UB")

# A and B each hold a lock.
as "$UA" python3 "$LK_PY" hold "$MA/$FA" 0 0 w "$R.a" >"$NFSFUSE_TMP/holdA" 2>&1 &
register_pid "$!"
as "$UB" python3 "$LK_PY" hold "$MB/$FB" 0 0 w "$R.b" >"$NFSFUSE_TMP/holdB" 2>&1 &
register_pid "$!"
wait_file_has "$NFSFUSE_TMP/holdA" locked 30 || fail "A did not lock: $(cat "$NFSFUSE_TMP/holdA")"
wait_file_has "$NFSFUSE_TMP/holdB" locked 30 || fail "B did not lock: $(cat "$NFSFUSE_TMP/holdB")"
assert_eq "w 0 0" "$(lk getlk "$MC/$FA" 0 0 w)" "the third mount sees A's lock"
assert_eq "w 0 0" "$(lk getlk "$MC/$FB" 0 0 w)" "the third mount sees B's lock"

# B's daemon dies; B mounts again.
PID_B=$(nfsfuse_pids "$(realpath "$MB")" | head -n 1)
[[ -n $PID_B ]] || fail "no pid for B's daemon"
kill -KILL "$PID_B"
wait_until 60 _pid_gone "$PID_B" || fail "B's daemon did not die"
_fuse_abort "$(realpath "$MB")"
timeout 10 fusermount3 -u -z "$MB" 2>/dev/null || true
MB2=$(new_mountpoint)
mount_as "$UB" "$MB2"

# B's new run releases its dead run's lock...
b_free() { [[ $(lk getlk "$MC/$FB" 0 0 w) == u* ]]; }
wait_until 60 b_free || fail "B's dead run's lock is still held: $(lk getlk "$MC/$FB" 0 0 w)"
# ...and nothing of A's.
assert_eq "w 0 0" "$(lk getlk "$MC/$FA" 0 0 w)" "A's lock is still held after B's recovery"
assert_eq "Resource temporarily unavailable" "$(lk try "$MC/$FA" 0 0 w)" "A's lock still excludes others"
wait_until 10 counter_gt "$SB" recovered 0 || fail "B's new run counts no recovered lock"
assert_eq 0 "$(status_get "$SA" recovered)" "A released nothing"
# Each user's caller name is the host's plus its uid: never the kernel
# client's bare host name, nor another user's.
assert_eq "$(hostname).nfsfuse-$(id -u "$UA")" "$(status_get "$SA" caller_name)" "A's NLM caller name"
assert_eq "$(hostname).nfsfuse-$(id -u "$UB")" "$(status_get "$SB" caller_name)" "B's NLM caller name"
touch "$R.a" "$R.a.exit" "$R.b" "$R.b.exit"
echo PASS
