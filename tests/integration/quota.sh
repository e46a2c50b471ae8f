#!/usr/bin/env bash
# Disk quotas through RQUOTA (program 100011): `nfsfusectl MNT quota` for
# the caller, a user by name or number and a group; the answers counted
# in `nfsfusectl stats`; -o quota_statfs falling back to the server's
# FSSTAT figures, logged once; clear errors for bad arguments and names.
#
# Only the no-quota path can be seen here.  The test server's export lives
# on a file system that cannot carry quotas on the test machines: their
# kernels have CONFIG_QUOTA but neither the QFMT_V1/QFMT_V2 formats nor XFS
# or tmpfs quotas, so no file system mounts with quotas on, and
# nfs-ganesha answers Q_NOQUOTA for every user and group (checked on the
# wire below).  What a quota turns into (statfs figures, the quota(1)
# report, the grace column) is covered by the unit tests
# (tests/unit/test_quota.c) on the same functions the daemon and
# nfsfusectl use.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_root          # the ordinary test user, and the packet capture
need_cmd rpcinfo df
need_rpc_program 100011 "the test server has no rquotad (ganesha's Enable_RQUOTA)"
ensure_test_user

WHERE=$SERVER:$EXPORT
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -o nolock

# quota_of MNT ARGS...: nfsfusectl's output (stdout and stderr) and, on
# the last line, "rc=N".
quota_of() {
	local mnt=$1 rc=0 out
	shift
	out=$("$NFSFUSECTL" "$mnt" quota "$@" 2>&1) || rc=$?
	printf '%s\nrc=%s' "$out" "$rc"
}

# rquota_stat MNT PROC FIELD
rquota_stat() {
	"$NFSFUSECTL" "$1" stats --json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["rquota"][sys.argv[1]][sys.argv[2]])' "$2" "$3"
}

# What the server answers, seen independently of our codec.
PCAP=
if command -v dumpcap >/dev/null && command -v tshark >/dev/null; then
	PCAP=$(tmpdir_new)/rquota.pcapng
	capture_start "$PCAP" "port 875 or port 111"
fi

# The caller (root here), by name, by number, and a group: the server has
# no quota for any of them.  Exit status 3 says so.
assert_eq "$(printf 'no quota for user root on %s\nrc=3' "$WHERE")" "$(quota_of "$MNT")" "quota of the caller"
assert_eq "$(printf 'no quota for user root on %s\nrc=3' "$WHERE")" "$(quota_of "$MNT" root)" "quota by name"
assert_eq "$(printf 'no quota for user %s on %s\nrc=3' "$TEST_USER" "$WHERE")" \
	"$(quota_of "$MNT" "$TEST_UID")" "quota by number"
assert_eq "$(printf 'no quota for group root on %s\nrc=3' "$WHERE")" "$(quota_of "$MNT" --group root)" "group quota by name"
assert_eq "$(printf 'no quota for group %s on %s\nrc=3' "$(id -gn "$TEST_USER")" "$WHERE")" \
	"$(quota_of "$MNT" --group "$TEST_GID")" "group quota by number"
# A number nobody has: shown as a number.
assert_eq "$(printf 'no quota for user #4000000000 on %s\nrc=3' "$WHERE")" \
	"$(quota_of "$MNT" 4000000000)" "quota of an id without a name"

if [[ -n $PCAP ]]; then
	capture_stop
	# rquota.status per reply (2 = Q_NOQUOTA), the version of each call.
	st=$(tshark -r "$PCAP" -Y 'rpc.msgtyp == 1 && rquota' -T fields -e rquota.status 2>/dev/null | sort -u | tr '\n' ' ')
	note "RQUOTA reply statuses on the wire: $st"
	assert_eq "2 " "$st" "the server answers Q_NOQUOTA"
	vers=$(tshark -r "$PCAP" -Y 'rpc.msgtyp == 0 && rquota' -T fields -E occurrence=f -e rpc.programversion 2>/dev/null | sort -u | tr '\n' ' ')
	assert_eq "2 " "$vers" "GETQUOTA asked with RQUOTA v2"
fi

# Every question was one GETQUOTA, counted like the NFS calls.
assert_eq 6 "$(rquota_stat "$MNT" GETQUOTA calls)" "GETQUOTA calls in stats"
assert_eq 0 "$(rquota_stat "$MNT" GETQUOTA errors)" "GETQUOTA errors in stats"
assert_contains "$("$NFSFUSECTL" "$MNT" stats)" "rquota:" "rquota table in the text stats"

# Bad arguments: exit 2 and one clear line, before any call.
out=$(quota_of "$MNT" "no_such_user_$$")
assert_eq "$(printf "nfsfusectl: quota: no such user 'no_such_user_%s'\nrc=2" $$)" "$out" "unknown user"
out=$(quota_of "$MNT" --group "no_such_group_$$")
assert_eq "$(printf "nfsfusectl: quota: no such group 'no_such_group_%s'\nrc=2" $$)" "$out" "unknown group"
for args in "--bogus" "a b" "--group" "--group a b" "-g"; do
	# shellcheck disable=SC2086
	out=$(quota_of "$MNT" $args)
	assert_contains "$out" "usage: quota [USER|--group GROUP]" "quota $args"
	assert_contains "$out" "rc=2" "quota $args: exit status"
done
assert_eq 6 "$(rquota_stat "$MNT" GETQUOTA calls)" "no call for bad arguments"

# An ordinary user's own mount: the user may ask about itself and its
# groups, not about root (as quota(1)).
UMNT=$(new_mountpoint)
chown "$TEST_UID:$TEST_GID" "$UMNT"
ulog=$(tmpdir_new)/log
chmod 755 "$(dirname "$ulog")"
as_user "$NFSFUSE" "$SERVER:$EXPORT" "$UMNT" -o nolock >"$ulog" 2>&1 || {
	cat "$ulog" >&2
	fail "the ordinary user could not mount"
}
echo "$UMNT" >>"$_REG/mounts"
wait_until 10 is_fuse_mount "$UMNT" || fail "no mount appeared"
uq() { as_user "$NFSFUSECTL" "$UMNT" quota "$@" 2>&1; echo "rc=$?"; }
assert_eq "$(printf 'no quota for user %s on %s\nrc=3' "$TEST_USER" "$WHERE")" "$(uq)" "the user's own quota"
assert_eq "$(printf 'no quota for group %s on %s\nrc=3' "$(id -gn "$TEST_USER")" "$WHERE")" \
	"$(uq --group "$TEST_GID")" "the user's own group"
out=$(uq root)
assert_contains "$out" "only root may ask about another user" "another user's quota refused"
assert_contains "$out" "rc=1" "refusal: exit status"
out=$(uq --group root)
assert_contains "$out" "only root may ask about a group it is not in" "another group refused"
as_user fusermount3 -u "$UMNT" || fail "the user could not unmount"

# -o quota_statfs: with no quota, df shows the same as a plain mount.
# The export is shared with other work, so its free space may move
# between two df runs: compare until two runs agree.
QMNT=$(new_mountpoint)
mount_nfsfuse "$QMNT" -f -d -o nolock,quota_statfs
df_same() { # FLAGS: df of both mounts, numbers only
	local a b i
	for ((i = 0; i < 10; i++)); do
		a=$(df -P "$@" "$MNT" | awk 'NR == 2 { print $2, $3, $4 }')
		b=$(df -P "$@" "$QMNT" | awk 'NR == 2 { print $2, $3, $4 }')
		[[ $a == "$b" ]] && { echo "$a"; return 0; }
		sleep 0.2
	done
	fail "df $* differs: plain '$a', quota_statfs '$b'"
}
t0=$(date +%s)
blocks=$(df_same)
files=$(df_same -i)
for ((i = 0; i < 10; i++)); do df "$QMNT" >/dev/null; done
note "df: $blocks; df -i: $files"
# One RQUOTA call for all of them: the answer is kept 5 s per uid.
if (($(date +%s) - t0 < 4)); then
	assert_eq 1 "$(rquota_stat "$QMNT" GETQUOTA calls)" "statfs answers cached"
fi
sleep 6
df_same >/dev/null
assert_eq 2 "$(rquota_stat "$QMNT" GETQUOTA calls)" "asked again once the answer expired"
n=$(grep -c "quota_statfs: no quota for uid 0 on $WHERE: statfs shows the whole file system" "$NFSFUSE_LOG" || true)
assert_eq 1 "$n" "the fallback logged once"
umount_nfsfuse "$QMNT"
umount_nfsfuse "$MNT"
echo "PASS: quota"
