#!/usr/bin/env bash
# A close or fsync waiting for the WRITEs of bytes the daemon gathered
# ends when its caller dies, and at no other signal (dead_waits.sh); the
# daemon tells the two apart from the caller's /proc/TID/stat.  That must
# hold where the daemon is not root:
#   - an ordinary user's own mount (fusermount3), used by that user;
#   - the same user's mount with allow_other, used by a second user,
#     whose /proc entries the daemon reads with no privilege over them.
# In each, a writer whose fsync waits on a stopped server is killed after
# a SIGUSR1 (it must be gone within 20 s and the daemon must exit at the
# unmount), one killed while asleep is waited for by its exit's close,
# and a writer given SIGUSR1 three times must see its fsync succeed once
# the server answers.  A daemon that could not read the caller's entry
# would end the wait at any signal (the last case fails); one that read
# the wrong process would wait on for a killed caller (the others fail).
#
# allow_other needs user_allow_other in /etc/fuse.conf, which is the
# machine's: the test runs in a mount namespace of its own and
# bind-mounts a private copy over it.
if [[ -z ${NFSFUSE_DEAD_WAITS_NS:-} ]]; then
	[[ $(id -u) -eq 0 ]] || { echo "SKIP: needs root (to make the users)" >&2; exit 77; }
	export NFSFUSE_DEAD_WAITS_NS=1
	exec unshare --mount --propagation private -- bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
. "$(dirname "$0")/dead_waits_lib.sh"
ensure_server
need_nfsfuse
need_proxy
need_cmd python3
need_cmd setpriv
ensure_test_user               # U: owns the daemon
V=nfsfuse-dw                   # a second user, using U's mount
ensure_user "$V"

conf=$(tmpdir_new)/fuse.conf
chmod 755 "$(dirname "$conf")"
{ cat /etc/fuse.conf 2>/dev/null || true; echo user_allow_other; } >"$conf"
chmod 644 "$conf"
touch /etc/fuse.conf
mount --bind "$conf" /etc/fuse.conf || fail "cannot bind-mount over /etc/fuse.conf"

TOP=$(make_testdir dead_waits_user)
mkdir -m 1777 "$EXPORT_DIR/$TOP/user" "$EXPORT_DIR/$TOP/other"
CASE_DIR=$(tmpdir_new)
chmod 1777 "$CASE_DIR"
read -ra MOUNT_AS <<<"$(user_argv "$TEST_USER")"
# The users' own PATH: root's may hold what they cannot run.
user_path="env PATH=/usr/local/bin:/usr/bin:/bin"
MOUNT_AS_OWNER=$TEST_USER

# The user's own mount, used by the user.
T=$TOP/user
read -ra RUN_AS <<<"$(user_argv "$TEST_USER") $user_path"
CASE_USR1=1 stuck_case user-fsync writer fsync
stuck_case user-exit writer exit
signal_case user-signal

# The user's mount with allow_other, used by the second user.
T=$TOP/other
read -ra RUN_AS <<<"$(user_argv "$V") $user_path"
other_opts=vers=3,mountport=$MOUNT_PORT,nolock,allow_other
CASE_OPTS=$other_opts CASE_USR1=1 stuck_case other-fsync writer fsync
CASE_OPTS=$other_opts stuck_case other-exit writer exit
CASE_OPTS=$other_opts signal_case other-signal
CASE_OPTS=$other_opts CASE_OP=stat signal_case other-signal-stat

# The writers' files belong to who wrote them: the calls were theirs.
assert_eq "$TEST_UID" "$(stat_of %u "$EXPORT_DIR/$TOP/user/w-user-signal")" "owner of the user's file"
assert_eq "$(id -u "$V")" "$(stat_of %u "$EXPORT_DIR/$TOP/other/w-other-signal")" "owner of the second user's file"
echo "PASS: dead_waits_user"
