#!/usr/bin/env bash
# Mounting the way administrators do, through mount(8) and mount.fuse3:
# an /etc/fstab line mounted by root (`mount MNT`) and by an ordinary user
# (the `user` option), an nfs:// source in fstab, `mount -t fuse.nfsfuse`,
# `umount` of each, and a bad option in fstab giving the same one line as
# on nfsfuse's own command line.
#
# /etc/fstab and the directory mount.fuse3 finds nfsfuse in are shared by
# the whole machine: the test runs in a mount namespace of its own and
# bind-mounts private copies over them.  mount(8) clears PATH, so the
# helper's shell looks in its default PATH: nfsfuse is put in
# /usr/local/sbin, the first directory there.
if [[ -z ${NFSFUSE_FSTAB_NS:-} ]]; then
	[[ $(id -u) -eq 0 ]] || { echo "SKIP: needs root" >&2; exit 77; }
	export NFSFUSE_FSTAB_NS=1
	exec unshare --mount --propagation private -- bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_cmd mount.fuse3
TEST_USER=nfsfuse-fstab
ensure_test_user

T=$(make_testdir fstab)
bin=$(tmpdir_new)
chmod 755 "$bin"
ln -s "$(realpath "$NFSFUSE")" "$bin/nfsfuse"
mount --bind "$bin" /usr/local/sbin || fail "cannot bind-mount over /usr/local/sbin"
fstab=$(tmpdir_new)/fstab
chmod 755 "$(dirname "$fstab")"
cp /etc/fstab "$fstab" 2>/dev/null || : >"$fstab"

M1=$(new_mountpoint)   # root, SERVER:/EXPORT
M2=$(new_mountpoint)   # an ordinary user, nfs:// source
M3=$(new_mountpoint)   # mount -t
M4=$(new_mountpoint)   # bad options
chown "$TEST_UID:$TEST_GID" "$M2"
cat >>"$fstab" <<EOT
$SERVER:$EXPORT $M1 fuse.nfsfuse _netdev,allow_other,actimeo=5,noauto,nofail,defaults 0 0
nfs://$SERVER$EXPORT?vers=3&actimeo=4 $M2 fuse.nfsfuse noauto,user,rsize=65536 0 0
$SERVER:$EXPORT $M4 fuse.nfsfuse noauto,rsize=1 0 0
EOT
chmod 644 "$fstab"
mount --bind "$fstab" /etc/fstab || fail "cannot bind-mount the private fstab"
for m in "$M1" "$M2" "$M3" "$M4"; do echo "$m" >>"$_REG/mounts"; done

mounted_as() { # MNT: "SOURCE TYPE OPTIONS" from /proc/self/mounts
	awk -v m="$1" '$2 == m { print $1, $3, $4 }' /proc/self/mounts
}

# ---- root: an fstab line, then `mount MNT`.
note "$SECONDS s: root"
out=$(with_timeout mount "$M1" 2>&1) || fail "mount $M1 (fstab, root) failed: $out"
wait_until 10 is_fuse_mount "$M1" || fail "no mount at $M1"
line=$(mounted_as "$M1")
assert_contains "$line" "$SERVER:$EXPORT fuse.nfsfuse " "source and type of the fstab mount"
assert_contains "$line" "allow_other" "FUSE's option from fstab reached the kernel"
echo fstab >"$M1/$T/root.txt"
assert_file_content "$EXPORT_DIR/$T/root.txt" fstab "written through the fstab mount"
flags=$("$NFSFUSECTL" list | grep -A2 "^$M1 from" | grep Flags:)
assert_contains "$flags" "acregmin=5,acregmax=5" "actimeo from fstab in effect"
pid=$(nfsfuse_pids "$M1")
with_timeout umount "$M1" || fail "umount $M1 failed"
assert_fails is_fuse_mount "$M1"
for p in $pid; do wait_until 120 _pid_gone "$p" || fail "nfsfuse $p still running 120 s after umount"; done

# ---- an ordinary user: the fstab line has `user`; the source is nfs://.
note "$SECONDS s: user"
out=$(as_user timeout -k 5 30 mount "$M2" 2>&1) || fail "mount $M2 as $TEST_USER failed: $out"
wait_until 10 is_fuse_mount "$M2" || fail "no mount at $M2"
line=$(mounted_as "$M2")
assert_contains "$line" "$SERVER:$EXPORT fuse.nfsfuse " "source of the nfs:// fstab mount"
assert_contains "$line" "user_id=$TEST_UID" "mounted by the user"
pid=$(nfsfuse_pids "$M2")
[[ -n $pid ]] || fail "no nfsfuse daemon for $M2"
assert_eq "$TEST_UID" "$(stat -c %u "/proc/${pid%% *}")" "the daemon runs as the user"
as_user sh -c "echo mine >'$M2/$T/user.txt'" || fail "the user cannot write"
assert_eq "$TEST_UID:$TEST_GID" "$(stat_of %u:%g "$EXPORT_DIR/$T/user.txt")" "owner of the user's file"
flags=$(as_user "$NFSFUSECTL" list | grep -A2 "^$M2 from" | grep Flags:)
assert_contains "$flags" "rsize=65536" "rsize from the fstab options"
assert_contains "$flags" "acregmin=4" "actimeo from the nfs:// query"
# Root's list reaches the user's daemon too (its socket is the user's).
flags=$("$NFSFUSECTL" list | grep -A2 "^$M2 from" | grep Flags:)
assert_contains "$flags" "rsize=65536" "root lists the user's mount with its options"
out=$(as_user timeout -k 5 30 umount "$M2" 2>&1) || fail "umount $M2 as $TEST_USER failed: $out"
assert_fails is_fuse_mount "$M2"
for p in $pid; do wait_until 120 _pid_gone "$p" || fail "nfsfuse $p still running 120 s after umount"; done

# ---- mount -t fuse.nfsfuse, no fstab line.
note "$SECONDS s: mount -t"
out=$(with_timeout mount -t fuse.nfsfuse "$SERVER:$EXPORT" "$M3" -o nolock,rsize=32768 2>&1) ||
	fail "mount -t fuse.nfsfuse failed: $out"
wait_until 10 is_fuse_mount "$M3" || fail "no mount at $M3"
assert_contains "$(mounted_as "$M3")" "$SERVER:$EXPORT fuse.nfsfuse " "source and type of mount -t"
flags=$("$NFSFUSECTL" list | grep -A2 "^$M3 from" | grep Flags:)
assert_contains "$flags" "rsize=32768" "rsize given to mount -t"
assert_contains "$flags" "nolock" "nolock given to mount -t"
assert_file_content "$M3/$T/user.txt" mine "read through mount -t"
with_timeout umount "$M3" || fail "umount $M3 failed"
assert_fails is_fuse_mount "$M3"

# ---- a bad option: the same single line through fstab as directly.
note "$SECONDS s: bad"
bad_mount() { # cmd...: its output; it must fail
	local out rc=0
	out=$(with_timeout "$@" 2>&1) || rc=$?
	[[ $rc -ne 0 ]] || fail "$* succeeded with a bad option"
	printf '%s\n' "$out"
}
direct=$(bad_mount "$NFSFUSE" "$SERVER:$EXPORT" "$M4" -o rsize=1)
viafstab=$(bad_mount mount "$M4")
assert_eq 1 "$(printf '%s\n' "$viafstab" | wc -l)" "one line of error through fstab"
assert_eq "$direct" "$viafstab" "the same error through fstab as on the command line"
assert_contains "$viafstab" "rsize=1" "the error names the option"
# An option neither nfsfuse nor FUSE knows, through mount -t.
direct=$(bad_mount "$NFSFUSE" "$SERVER:$EXPORT" "$M4" -o bogus_option=1)
viamount=$(bad_mount mount -t fuse.nfsfuse "$SERVER:$EXPORT" "$M4" -o bogus_option=1)
assert_eq "$direct" "$viamount" "the same error for an unknown option through mount -t"
assert_eq 1 "$(printf '%s\n' "$viamount" | wc -l)" "one line for an unknown option"
assert_fails is_fuse_mount "$M4"
note "$SECONDS s: end"
echo "PASS: fstab"
