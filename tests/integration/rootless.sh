#!/usr/bin/env bash
# An ordinary user mounts through fusermount3, uses the mount with its own
# identity, and unmounts.  The server must accept non-reserved ports
# (ganesha's PrivilegedPort = false, the default).
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_root          # to create the ordinary user the test runs as
ensure_test_user

T=$(make_testdir rootless)
S=$EXPORT_DIR/$T
MNT=$(new_mountpoint)
chown "$TEST_UID:$TEST_GID" "$MNT"
log=$(tmpdir_new)/log
chmod 755 "$(dirname "$log")"

as_user "$NFSFUSE" "$SERVER:$EXPORT" "$MNT" >"$log" 2>&1 || {
	cat "$log" >&2
	fail "an ordinary user could not mount"
}
echo "$MNT" >>"$_REG/mounts"
wait_until 10 is_fuse_mount "$MNT" || fail "no mount appeared"
assert_contains "$(grep " $MNT " /proc/mounts)" "user_id=$TEST_UID" "mounted by the user"
# The daemon runs as the user, not as root.
pid=$(nfsfuse_pids "$MNT" | head -n1)
assert_eq "$TEST_UID" "$(stat -c %u "/proc/$pid")" "daemon's owner"

# Files the user creates belong to the user on the server: each call
# carries the caller's AUTH_SYS identity.
as_user sh -c "echo mine >'$MNT/$T/u.txt' && mkdir '$MNT/$T/ud'"
assert_eq "$TEST_UID:$TEST_GID" "$(stat_of %u:%g "$S/u.txt")" "owner of a created file"
assert_eq "$TEST_UID" "$(stat_of %u "$S/ud")" "owner of a created directory"
assert_eq mine "$(as_user cat "$MNT/$T/u.txt")" "read back as the user"

# The server enforces permissions against the user's identity.
echo root-only >"$S/private"
chmod 600 "$S/private"
expect_fail_with "Permission denied" as_user cat "$MNT/$T/private"
expect_fail_with "Permission denied" as_user sh -c "echo x >>'$MNT/$T/private'"

# Root cannot see into an ordinary user's FUSE mount without allow_other.
expect_fail_with "Permission denied" ls "$MNT"

as_user fusermount3 -u "$MNT" || fail "the user could not unmount"
wait_until 10 bash -c "! grep -q ' $MNT ' /proc/mounts" || fail "still mounted"
echo "PASS: rootless"
