#!/usr/bin/env bash
# Identity and naming options:
#  - -o uid=N,gid=N (and the nfs:// query items uid= and gid=, as libnfs
#    names them) send every call as that identity: a root mount's files
#    are created as N on the server;
#  - a comma in the export path (%2C in a URL) stays in fsname and does
#    not become a FUSE mount option;
#  - a state or socket directory that another user made first in /tmp is
#    refused, and the mount says why.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_root
ensure_test_user

T=$(make_testdir identity)
S=$EXPORT_DIR/$T

# ---- fixed identity
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -o "uid=$TEST_UID,gid=$TEST_GID"
echo fixed >"$MNT/$T/fixed"
mkdir "$MNT/$T/fixed.d"
assert_eq "$TEST_UID:$TEST_GID" "$(stat_of %u:%g "$S/fixed")" "file made under uid=/gid="
assert_eq "$TEST_UID:$TEST_GID" "$(stat_of %u:%g "$S/fixed.d")" "directory made under uid=/gid="
# The server applies its rules to the fixed identity, not to root.
echo secret >"$S/root-only"
chmod 0600 "$S/root-only"
expect_fail_with "Permission denied" cat "$MNT/$T/root-only"
umount_nfsfuse "$MNT"

MNT=$(new_mountpoint)
NFSFUSE_MOUNT_SRC="nfs://$SERVER$EXPORT?uid=$TEST_UID&gid=$TEST_GID" mount_nfsfuse "$MNT"
echo url >"$MNT/$T/url"
assert_eq "$TEST_UID:$TEST_GID" "$(stat_of %u:%g "$S/url")" "file made under URL uid=/gid="
umount_nfsfuse "$MNT"
expect_fail_with "expected a number" "$NFSFUSE" "$SERVER:$EXPORT" "$MNT" -o uid=4294967295

# ---- no option injection through fsname
mkdir "$S/a,allow_other"
echo in >"$S/a,allow_other/x"
MNT=$(new_mountpoint)
NFSFUSE_MOUNT_SRC="nfs://$SERVER$EXPORT/$T/a%2Callow_other" mount_nfsfuse "$MNT"
line=$(awk -v m="$MNT" '$5 == m' /proc/self/mountinfo)
note "mountinfo: $line"
src=$(awk -v m="$MNT" '$5 == m { for (i = 7; $i != "-"; i++); print $(i + 2) }' /proc/self/mountinfo)
sopts=$(awk -v m="$MNT" '$5 == m { for (i = 7; $i != "-"; i++); print $(i + 3) }' /proc/self/mountinfo)
assert_eq "$SERVER:$EXPORT/$T/a,allow_other" "$src" "mount source keeps the comma"
[[ ,$sopts, != *,allow_other,* ]] || fail "allow_other reached the mount: $sopts"
assert_eq in "$(cat "$MNT/x")" "the directory with a comma is mounted"
umount_nfsfuse "$MNT"

# ---- a directory of ours made first by another user
SD_USER=nfsfuse-sd
for ((i = 0; i < 20; i++)); do
	id -u "$SD_USER" >/dev/null 2>&1 && break
	useradd --user-group --no-create-home --home-dir /nonexistent \
		--shell /bin/sh "$SD_USER" >/dev/null 2>&1 || sleep 0.2
done
SD_UID=$(id -u "$SD_USER") || fail "cannot create user $SD_USER"
SD_GID=$(id -g "$SD_USER")
TRAP=/tmp/nfsfuse-$SD_UID
rm -rf -- "$TRAP"
on_exit rm -rf -- "$TRAP"
# "Another user": an id that is neither SD_USER nor root.
mkdir -m 0777 "$TRAP"
chown 4242:4242 "$TRAP"
MNT=$(new_mountpoint)
chown "$SD_UID" "$MNT"
as_sd() { setpriv --reuid="$SD_UID" --regid="$SD_GID" --init-groups -- env HOME=/ "$@"; }
out=$(as_sd "$NFSFUSE" "$SERVER:$EXPORT" "$MNT" 2>&1) && {
	echo "$MNT" >>"$_REG/mounts"
	fail "mounted with a lock state directory another user made: $out"
}
assert_contains "$out" "$TRAP belongs to uid 4242" "the refusal names the directory and its owner"
assert_eq "" "$(ls -A "$TRAP")" "nothing written into the other user's directory"
# Without locks no state directory is needed; the control socket's is
# refused all the same (logged; the mount works without it).
as_sd "$NFSFUSE" "$SERVER:$EXPORT" "$MNT" -o nolock -f >"$NFSFUSE_TMP/sd.log" 2>&1 &
register_pid "$!"
echo "$MNT" >>"$_REG/mounts"
wait_until 10 is_fuse_mount "$MNT" || fail "no mount with nolock: $(cat "$NFSFUSE_TMP/sd.log")"
assert_contains "$(cat "$NFSFUSE_TMP/sd.log")" "$TRAP belongs to uid 4242" "control socket directory refused"
assert_eq "" "$(ls -A "$TRAP")" "no socket in the other user's directory"
as_sd fusermount3 -u "$MNT"
# Once it is the user's own, both work.
rm -rf -- "$TRAP"
MNT2=$(new_mountpoint)
chown "$SD_UID" "$MNT2"
as_sd "$NFSFUSE" "$SERVER:$EXPORT" "$MNT2" || fail "mount with a fresh state directory"
echo "$MNT2" >>"$_REG/mounts"
wait_until 10 is_fuse_mount "$MNT2" || fail "no mount"
assert_eq "$SD_UID 700" "$(stat_of '%u %a' "$TRAP")" "the directory nfsfuse made"
as_sd "$NFSFUSECTL" "$MNT2" stats >/dev/null || fail "nfsfusectl stats"
as_sd fusermount3 -u "$MNT2"
echo "PASS: identity_opts"
