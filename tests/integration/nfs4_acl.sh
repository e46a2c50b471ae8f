#!/usr/bin/env bash
# NFSv4 ACLs on a vers=4.2 mount of the test server: system.nfs4_acl, the
# name the Linux client and nfs4_getfacl use, read and set through
# GETATTR and SETATTR of the ACL attribute, and the POSIX ACL names
# refused.
#
# nfs-ganesha 4.3's VFS backend keeps no NFSv4 ACLs: its supported_attrs
# lack the ACL attribute (word 0 is 0xfdffafff: bit 12 clear), and no
# setting turns it on (only builds with ENABLE_VFS_POSIX_ACL or
# ENABLE_VFS_DEBUG_ACL have it; Debian's libfsalvfs has neither).  So
# what is checked here against the real server is the clean refusal:
#   - getxattr of system.nfs4_acl is EOPNOTSUPP after one GETATTR that
#     asked for it, and the next ones send none (the file system's rule);
#   - listxattr names nothing; nfs4_getfacl and nfs4_setfacl say
#     "not supported";
#   - a well-formed ACL to set is EOPNOTSUPP; a malformed one EINVAL
#     with nothing sent; removing it EINVAL;
#   - system.posix_acl_access and system.posix_acl_default, and any
#     other name, are EOPNOTSUPP to read, set and remove;
#   - with noacl, system.nfs4_acl is EOPNOTSUPP without a call.
# The format of the value and its checks are the unit tests' (nfs4_acl_xdr),
# the SETATTR of an ACL tshark's (tshark_nfs4).
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_cmd python3

T=$(make_testdir nfs4acl)
M=$(new_mountpoint)
mount_nfsfuse "$M" -o vers=4.2
D=$M/$T
echo data >"$D/f"
mkdir "$D/d"

# xa OP PATH NAME [HEX]: the errno name of one xattr system call, or
# "ok" (get: "ok LEN"; list: "ok" and the names).
xa() {
	python3 - "$@" <<'PY'
import errno, os, sys
op, path, name = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    if op == "get":
        print("ok", len(os.getxattr(path, name)))
    elif op == "set":
        os.setxattr(path, name, bytes.fromhex(sys.argv[4]))
        print("ok")
    elif op == "remove":
        os.removexattr(path, name)
        print("ok")
    else:
        print(" ".join(["ok"] + os.listxattr(path)))
except OSError as e:
    print("EOPNOTSUPP" if e.errno == errno.EOPNOTSUPP else errno.errorcode[e.errno])
PY
}

ops() { # ops OP: NFSv4 operations OP sent so far
	"$NFSFUSECTL" "$M" stats --json | python3 -c 'import json,sys
print(json.load(sys.stdin)["nfs4ops"].get(sys.argv[1], {}).get("calls", 0))' "$1"
}

# A valid ACL: A::OWNER@:rwaxtTcCy, A:g:GROUP@:rtcy, A::EVERYONE@:rtcy.
ACE() { # type flag mask who
	python3 -c 'import struct,sys
t,f,m,w=int(sys.argv[1]),int(sys.argv[2]),int(sys.argv[3],16),sys.argv[4].encode()
print((struct.pack(">IIII",t,f,m,len(w))+w+b"\0"*(-len(w)%4)).hex())' "$@"
}
GOOD=00000003$(ACE 0 0 1601a7 OWNER@)$(ACE 0 64 120081 GROUP@)$(ACE 0 0 120081 EVERYONE@)

# ---- reading: refused after one GETATTR, then by the rule alone
g0=$(ops GETATTR)
assert_eq EOPNOTSUPP "$(xa get "$D/f" system.nfs4_acl)" \
	"getxattr system.nfs4_acl where the server keeps no ACL"
g1=$(ops GETATTR)
[[ $g1 -gt $g0 ]] || fail "getxattr system.nfs4_acl sent no GETATTR ($g0 → $g1)"
none0=$(counter "$M" acl_none_fs)
assert_eq EOPNOTSUPP "$(xa get "$D/f" system.nfs4_acl)" "getxattr, again"
assert_eq EOPNOTSUPP "$(xa get "$D/d" system.nfs4_acl)" \
	"getxattr of a directory of the same file system"
[[ $(counter "$M" acl_none_fs) -gt $none0 ]] ||
	fail "the file system's rule did not answer the second getxattr"
assert_eq "ok" "$(xa list "$D/f" -)" "listxattr names no ACL of a file"
assert_eq "ok" "$(xa list "$D/d" -)" "listxattr names no ACL of a directory"
getfattr -d -m - "$D/f" >"$NFSFUSE_TMP/getfattr.out" 2>&1
assert_eq "" "$(cat "$NFSFUSE_TMP/getfattr.out")" "getfattr -d -m - shows nothing"

if command -v nfs4_getfacl >/dev/null; then
	# 0.3.7 exits 0 when it cannot read the ACL: its message says.
	out=$(nfs4_getfacl "$D/f" 2>&1 || true)
	assert_contains "$out" "not supported" "nfs4_getfacl's message"
	out=$(nfs4_setfacl -s "A::OWNER@:rwa" "$D/f" 2>&1 || true)
	assert_contains "$out" "not supported" "nfs4_setfacl's message"
else
	note "nfs4-acl-tools not installed: nfs4_getfacl/nfs4_setfacl not run"
fi

# ---- setting: checked first (EINVAL, nothing sent), then refused
s0=$(ops SETATTR)
for bad in "" 000000 00000001 00000002$(ACE 0 0 1 OWNER@) \
	00000001$(ACE 9 0 1 OWNER@) 00000001$(ACE 0 256 1 OWNER@) \
	00000001$(ACE 0 0 800 OWNER@) 00000001$(ACE 0 0 1 OWNER@)00000000 \
	00000001000000000000000000000001000000ff; do
	assert_eq EINVAL "$(xa set "$D/f" system.nfs4_acl "$bad")" \
		"setxattr system.nfs4_acl of the malformed value '$bad'"
done
assert_eq "$s0" "$(ops SETATTR)" "a malformed ACL sent a SETATTR"
assert_eq EOPNOTSUPP "$(xa set "$D/f" system.nfs4_acl "$GOOD")" \
	"setxattr of a well-formed ACL where the server keeps none"
assert_eq EINVAL "$(xa remove "$D/f" system.nfs4_acl)" \
	"removexattr system.nfs4_acl (an NFSv4 ACL is replaced, not removed)"
assert_eq "data" "$(cat "$D/f")" "the file is still readable"

# ---- POSIX ACL names and any other name: not on an NFSv4 mount
POSIX_ACL=0200000001000600ffffffff04000600ffffffff10000400ffffffff20000400ffffffff
# (A default ACL of a file is the kernel's EACCES before any request.)
for n in system.posix_acl_access system.posix_acl_default user.x; do
	for p in "$D/f" "$D/d"; do
		[[ $n == system.posix_acl_default && $p == "$D/f" ]] && continue
		assert_eq EOPNOTSUPP "$(xa get "$p" "$n")" "getxattr $n of $p"
		assert_eq EOPNOTSUPP "$(xa set "$p" "$n" "$POSIX_ACL")" \
			"setxattr $n of $p"
		assert_eq EOPNOTSUPP "$(xa remove "$p" "$n")" "removexattr $n of $p"
	done
done
if command -v getfacl >/dev/null; then
	# getfacl falls back to the mode bits where there are no ACLs.
	assert_contains "$(getfacl -p "$D/f" 2>&1)" "user::rw-" "getfacl shows the mode"
	out=$(setfacl -m "u:$(id -u):r" "$D/f" 2>&1) && fail "setfacl succeeded: $out"
fi

umount_nfsfuse "$M"

# ---- noacl: system.nfs4_acl is not asked for at all
M=$(new_mountpoint)
mount_nfsfuse "$M" -o vers=4.2,noacl,actimeo=600
stat "$M/$T/f" >/dev/null
g0=$(ops GETATTR)
for k in 1 2 3; do
	assert_eq EOPNOTSUPP "$(xa get "$M/$T/f" system.nfs4_acl)" "getxattr with noacl"
done
assert_eq "ok" "$(xa list "$M/$T/f" -)" "listxattr with noacl"
assert_eq "$g0" "$(ops GETATTR)" "GETATTRs sent for system.nfs4_acl with noacl"
umount_nfsfuse "$M"
echo "ok: system.nfs4_acl refused cleanly (the server keeps no NFSv4 ACLs), malformed values EINVAL, POSIX ACL names EOPNOTSUPP"
