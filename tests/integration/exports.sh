#!/usr/bin/env bash
# The export list (MOUNT EXPORT): `nfsfuse --list-exports SERVER` prints it
# as showmount -e does, and mounting a path that is not exported fails with
# one line that names what is.  Also an nfs:// URL in place of
# SERVER:/EXPORT, with options in its query string.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse

# The listing shows the test export, with "(everyone)" for no groups.
out=$("$NFSFUSE" --list-exports "$SERVER") || fail "--list-exports failed: $out"
assert_contains "$out" "Export list for $SERVER:" "listing header"
line=$(grep -F -- "$EXPORT " <<<"$out") || fail "export $EXPORT not listed: $out"
assert_match "$line" "^$EXPORT +(\\(everyone\\)|[^ ]+)$" "one line per export"
# The same as showmount -e, when it is there.
if command -v showmount >/dev/null 2>&1; then
	sm=$(showmount -e "$SERVER" | tail -n +2 | awk '{ print $1 }' | sort)
	ours=$(tail -n +2 <<<"$out" | awk '{ print $1 }' | sort)
	assert_eq "$sm" "$ours" "same exports as showmount -e"
fi
# An nfs:// URL names the server too.
out2=$("$NFSFUSE" --list-exports "nfs://$SERVER") || fail "URL listing failed"
assert_eq "$out" "$out2" "listing by URL"

# No MOUNT service: exit 1 and one line.
rc=0
err=$("$NFSFUSE" --list-exports "$SERVER" -o mountport=9 2>&1) || rc=$?
assert_eq 1 "$rc" "exit status without a MOUNT service"
assert_eq 1 "$(wc -l <<<"$err")" "one line of error"
assert_contains "$err" "cannot list exports" "error names the failure"

# Mounting a path that is not exported: one line naming the exports.
MNT=$(new_mountpoint)
rc=0
err=$("$NFSFUSE" "$SERVER:/no/such" "$MNT" 2>&1) || rc=$?
[[ $rc -ne 0 ]] || fail "mounting /no/such succeeded"
assert_eq 1 "$(wc -l <<<"$err")" "one line of error: $err"
assert_match "$err" "mount failed: .* \\(exports: .*$EXPORT.*\\)$" "names the exports"
is_fuse_mount "$MNT" && fail "a mount appeared"

# The same through a URL, whose escaped '/' is data: "/no/such" again.
rc=0
err=$("$NFSFUSE" "nfs://$SERVER/no%2Fsuch?vers=3&proto=tcp" "$MNT" 2>&1) || rc=$?
[[ $rc -ne 0 ]] || fail "mounting nfs://.../no%2Fsuch succeeded"
assert_contains "$err" "$SERVER:/no/such: mount failed:" "decoded path in the message"

# A bad URL: one clear line, nothing mounted.
expect_fail_with "port '0' is not a number" "$NFSFUSE" "nfs://$SERVER:0$EXPORT" "$MNT"
expect_fail_with "URL option 'bogus' is unknown" "$NFSFUSE" "nfs://$SERVER$EXPORT?bogus=1" "$MNT"

# A URL mount works, and its query options apply (port= from the URL).
T=$(make_testdir exports)
echo via-url >"$EXPORT_DIR/$T/f"
NFSFUSE_MOUNT_SRC="nfs://$SERVER:2049$EXPORT?vers=3&proto=tcp&actimeo=0&nolock" \
	mount_nfsfuse "$MNT"
assert_file_content "$MNT/$T/f" via-url "read through a URL mount"
umount_nfsfuse "$MNT"
echo "PASS"
