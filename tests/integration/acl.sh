#!/usr/bin/env bash
# POSIX ACLs through NFSACL (program 100227 v3): getfacl/setfacl on the
# mount use the system.posix_acl_* xattrs, which nfsfuse turns into
# GETACL/SETACL.  What is set through the mount is seen on the server
# side and back; a directory's default ACL is inherited by a file created
# through the mount; noacl turns it all off (EOPNOTSUPP, as a kernel mount
# of a server without NFSACL).  Needs the test server's Enable_NFSACL.
#
# The test server's own NFSACL (nfs-ganesha 4.3, VFS) cannot store ACLs:
# against it only NULL, GETACL of files without an ACL and a refused
# SETACL are checked.  The round trips go to tests/aclsrv (nfsacl_server),
# an NFSACL server beside ganesha that reads and writes the export's real
# ACLs for ganesha's handles, named to the mount with aclport=.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_cmd getfacl setfacl rpcinfo
need_root          # ACLs for "nobody" on files owned by root
need_rpc_program 100227 "the test server has no NFSACL (Enable_NFSACL = true; restart it: contrib/test-server.sh restart)"

T=$(make_testdir acl)
S=$EXPORT_DIR/$T
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -o actimeo=0,nolock
M=$MNT/$T

acl_of() { getfacl -cp -- "$1" 2>/dev/null | grep -v '^$' | sort; }

# A file without an ACL: getfacl shows the mode, no xattr is listed.
echo data >"$M/f"
chmod 640 "$M/f"
assert_eq "$(acl_of "$S/f")" "$(acl_of "$M/f")" "minimal ACL as on the server"
assert_eq "" "$(getfattr -m - --absolute-names "$M/f" 2>/dev/null || true)" "no ACL xattr listed"
expect_fail_with "No such attribute" getfattr -n system.posix_acl_access "$M/f"

# noacl: ACLs off, as on a server without NFSACL (a second mount).
MNT2=$(new_mountpoint)
mount_nfsfuse "$MNT2" -o noacl,nolock
expect_fail_with "Operation not supported" setfacl -m u:nobody:r "$MNT2/$T/f"
expect_fail_with "Operation not supported" getfattr -n system.posix_acl_access "$MNT2/$T/f"
assert_eq "" "$(getfattr -m - --absolute-names "$MNT2/$T/f" 2>/dev/null || true)" "nothing listed with noacl"
umount_nfsfuse "$MNT2"

# Names other than the two ACLs do not exist on NFSv3; a default ACL only
# on directories; a malformed value is refused before any RPC.
expect_fail_with "Operation not supported" setfattr -n user.x -v 1 "$M/f"
expect_fail_with "Operation not supported" getfattr -n user.x "$M/f"
expect_fail_with "No such attribute" getfattr -n system.posix_acl_default "$M/f"
expect_fail_with "Invalid argument" setfattr -n system.posix_acl_access -v 0x02000000ff "$M/f"

# Can the test server store and return POSIX ACLs at all?  nfs-ganesha
# 4.3's VFS FSAL (Debian) answers GETACL with no entries even for a file
# with an ACL, and refuses SETACL's arguments (GARBAGE_ARGS: it decodes the
# ACLs as optional pointers).  Then setfacl must fail cleanly.
echo probe >"$S/probe"
setfacl -m u:nobody:r "$S/probe"
if getfacl -cp "$M/probe" 2>/dev/null | grep "user:nobody:r--" >/dev/null; then
	note "the test server's NFSACL returns ACLs: it is no longer nfs-ganesha 4.3's"
else
	note "the test server's NFSACL returns no ACLs (nfs-ganesha 4.3 VFS): round trips through nfsacl_server"
	expect_fail_with "Operation not supported" setfacl -m u:nobody:r "$M/f"
	assert_eq "$(acl_of "$S/f")" "$(acl_of "$M/f")" "a failed setfacl changed nothing"
	assert_eq "" "$(getfacl -cps "$S/f")" "no ACL on the server after the refused SETACL"

	# The refusal holds for the file system while attributes are
	# believed (default timeouts here): cp -p, which sets each copy's
	# ACL and falls back to chmod when that is not supported, pays one
	# GETACL and one refused SETACL, not one of each per file.
	MR=$(new_mountpoint)
	mount_nfsfuse "$MR" -o nolock
	LOC=$(tmpdir_new)
	for i in 1 2 3 4 5 6; do echo "$i" >"$LOC/c$i"; done
	chmod 751 "$LOC/c1"
	chmod 604 "$LOC/c2"
	touch -d '2001-02-03 04:05:06' "$LOC"/c*
	mkdir "$MR/$T/cp"
	expect_fail_with "Operation not supported" setfacl -m u:nobody:r "$MR/$T/f"
	nacl() { "$NFSFUSECTL" "$MR" stats --json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["nfsacl"][sys.argv[1]]["calls"])' "$1"; }
	s0=$(nacl SETACL) g0=$(nacl GETACL) r0=$(counter "$MR" acl_set_refused)
	cp -p "$LOC"/c* "$MR/$T/cp/" || fail "cp -p onto the mount failed"
	assert_eq "$s0" "$(nacl SETACL)" "SETACLs of cp -p after a refused one"
	assert_eq "$g0" "$(nacl GETACL)" "GETACLs of cp -p after a refused SETACL"
	assert_eq 6 "$(($(counter "$MR" acl_set_refused) - r0))" "ACL sets refused without a call"
	for i in 1 2 3 4 5 6; do
		assert_eq "$(stat -c '%a %Y %s' "$LOC/c$i")" "$(stat -c '%a %Y %s' "$S/cp/c$i")" "c$i's mode, mtime and size on the server"
	done
	assert_contains "$("$NFSFUSECTL" "$MR" stats | grep acl_set_refused_rules)" \
		"ACLs not settable (SETACL of fileid" "the rule in nfsfusectl stats"
	umount_nfsfuse "$MR"
fi
umount_nfsfuse "$MNT"


# ---- Round trips, through nfsacl_server on the export's real ACLs.
ACLSRV=${NFSACL_SERVER_BIN:-$(_first_existing "$_B/tests/nfsacl_server")}
[[ -x $ACLSRV ]] || fail "nfsacl_server not found ($ACLSRV); set NFSACL_SERVER_BIN"
AP=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ALOG=$NFSFUSE_TMP/nfsacl_server.log
"$ACLSRV" --listen "$AP" --export "$EXPORT_DIR" --verbose </dev/null 2>"$ALOG" &
ACLSRV_PID=$!
on_exit kill "$ACLSRV_PID"
wait_until 5 grep -q listening "$ALOG" || { cat "$ALOG" >&2; fail "nfsacl_server did not start"; }

PCAP=
if command -v tshark >/dev/null && command -v dumpcap >/dev/null; then
	PCAP=$(tmpdir_new)/nfsacl.pcapng
	chmod 755 "$(dirname "$PCAP")"
	capture_start "$PCAP" "tcp port $AP"
else
	note "no tshark/dumpcap: the NFSACL frames are not checked"
fi

# ---- The ACL cache (default attribute timeouts), against nfsacl_server,
# which answers for a file without an ACL with the mode's entries as
# knfsd does (against ganesha, whose file system keeps no ACLs, no
# GETACL goes out per file at all: meta_rpcs):
# `ls -l` asks for every file's ACL; a second one, while the attributes
# are believed, sends no GETACL; a chmod (a new ctime) costs one again.
getacl_calls() {
	"$NFSFUSECTL" "$1" stats --json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["nfsacl"]["GETACL"]["calls"])'
}
MC=$(new_mountpoint)
mount_nfsfuse "$MC" -o nolock,aclport=$AP
mkdir "$S/many"
for i in $(seq 1 20); do : >"$S/many/f$i"; done
touch -d '-1 hour' "$S/many"/f* # not "recent" for time_delta
ls -l "$MC/$T/many" >/dev/null
g0=$(getacl_calls "$MC")
((g0 >= 20)) || fail "ls -l of 20 files made only $g0 GETACL calls: is ls asking for ACLs at all?"
assert_eq 0 "$(counter "$MC" acl_none_fs)" "a server that sends the mode's entries marks no file system"
ls -l "$MC/$T/many" >/dev/null
assert_eq "$g0" "$(getacl_calls "$MC")" "a second ls -l sends no GETACL"
chmod 600 "$MC/$T/many/f1"
ls -l "$MC/$T/many" >/dev/null
assert_eq $((g0 + 1)) "$(getacl_calls "$MC")" "after a chmod, one GETACL: for that file"
umount_nfsfuse "$MC"

ACLOPTS=actimeo=0,nolock,allow_other,aclport=$AP
mount_nfsfuse "$MNT" -o "$ACLOPTS"
# One field of the NFSACL table of nfsfusectl stats.
acl_stat() {
	"$NFSFUSECTL" "$1" stats --json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["nfsacl"][sys.argv[1]][sys.argv[2]])' "$2" "$3"
}

# setfacl through the mount; seen on the server and through the mount.
assert_eq "$(acl_of "$S/f")" "$(acl_of "$M/f")" "minimal ACL from nfsacl_server"
setfacl -m u:nobody:r "$M/f" || fail "setfacl -m u:nobody:r failed"
assert_contains "$(getfacl -cp "$S/f")" "user:nobody:r--" "server side"
assert_contains "$(getfacl -cp "$M/f")" "user:nobody:r--" "through the mount"
assert_eq "$(acl_of "$S/f")" "$(acl_of "$M/f")" "same ACL both sides"
# The mask is the mode's group bits: the mount's mode follows the server.
assert_eq "$(stat_of %a "$S/f")" "$(stat_of %a "$M/f")" "mode after setfacl"
assert_contains "$(getfattr -m - --absolute-names "$M/f" 2>/dev/null)" "system.posix_acl_access" "ACL listed"
assert_eq 0 "$(acl_stat "$MNT" SETACL errors)" "SETACL errors in stats"
(($(acl_stat "$MNT" SETACL calls) >= 1)) || fail "no SETACL in nfsfusectl stats"

# A new daemon, nothing cached: the ACL comes over the wire.
umount_nfsfuse "$MNT"
mount_nfsfuse "$MNT" -o "$ACLOPTS"
assert_eq 0 "$(acl_stat "$MNT" GETACL calls)" "GETACL calls of a new mount"
assert_contains "$(getfacl -cp "$M/f")" "user:nobody:r--" "after a remount"
(($(acl_stat "$MNT" GETACL calls) >= 1)) || fail "getfacl made no GETACL"
assert_eq 0 "$(acl_stat "$MNT" GETACL errors)" "GETACL errors in stats"

# An ACL set on the server side is read through the mount.
setfacl -m g:nogroup:rw "$S/f"
assert_contains "$(getfacl -cp "$M/f")" "group:nogroup:rw-" "server-side change seen"
assert_contains "$(getfacl -cp "$M/f")" "mask::rw-" "the mask follows"

# The mask: set through the mount, it limits the named entries and is the
# mode's group bits on both sides; chmod through the mount changes it.
setfacl -m m::r "$M/f"
assert_contains "$(getfacl -cp "$S/f")" "mask::r--" "mask on the server"
assert_contains "$(getfacl -cp "$M/f")" $'group:nogroup:rw-\t#effective:r--' "mask limits a named group"
assert_eq 640 "$(stat_of %a "$S/f")" "the mask is the group bits on the server"
assert_eq 640 "$(stat_of %a "$M/f")" "and through the mount"
chmod 670 "$M/f"
assert_contains "$(getfacl -cp "$S/f")" "mask::rwx" "chmod through the mount sets the mask"
assert_contains "$(getfacl -cp "$M/f")" "mask::rwx" "seen through the mount"
assert_contains "$(getfacl -cp "$M/f")" "group::r--" "the owning group's entry kept"

# setfacl -x removes one entry, on the server too.
setfacl -x u:nobody "$M/f"
[[ $(getfacl -cp "$S/f") != *user:nobody* ]] || fail "setfacl -x: user:nobody still on the server"
[[ $(getfacl -cp "$M/f") != *user:nobody* ]] || fail "setfacl -x: user:nobody still through the mount"
assert_contains "$(getfacl -cp "$S/f")" "group:nogroup:rw-" "other entries kept"

# Removing the ACL (setfacl -b) leaves the mode only.
setfacl -b "$M/f"
assert_eq "" "$(getfacl -cps "$S/f")" "no extended ACL on the server"
expect_fail_with "No such attribute" getfattr -n system.posix_acl_access "$M/f"
assert_eq "$(stat_of %a "$S/f")" "$(stat_of %a "$M/f")" "mode after setfacl -b"

# A default ACL on a directory is inherited by a file created through the
# mount (the server's file system applies it at CREATE).
mkdir "$M/d"
setfacl -d -m u:nobody:rx "$M/d" || fail "setfacl -d failed"
assert_contains "$(getfacl -cp "$S/d")" "default:user:nobody:r-x" "default ACL on the server"
assert_contains "$(getfacl -cp "$M/d")" "default:user:nobody:r-x" "default ACL through the mount"
assert_contains "$(getfattr -m - --absolute-names "$M/d" 2>/dev/null)" "system.posix_acl_default" "default listed"
echo new >"$M/d/child"
assert_contains "$(getfacl -cp "$S/d/child")" "user:nobody:r-x" "inherited, server side"
assert_contains "$(getfacl -cp "$M/d/child")" "user:nobody:r-x" "inherited, through the mount"
assert_eq "$(acl_of "$S/d/child")" "$(acl_of "$M/d/child")" "the inherited ACL, both sides"
mkdir "$M/d/sub"
assert_contains "$(getfacl -cp "$S/d/sub")" "default:user:nobody:r-x" "a new directory inherits the default"
assert_contains "$(getfacl -cp "$M/d/sub")" "default:user:nobody:r-x" "seen through the mount"
# Setting the access ACL of the directory keeps its default ACL.
setfacl -m u:nobody:rwx "$M/d"
assert_contains "$(getfacl -cp "$S/d")" "default:user:nobody:r-x" "default kept"
setfacl -k "$M/d"
assert_eq "" "$(getfacl -cpd "$S/d" | grep -v '^$' || true)" "default removed"
assert_contains "$(getfacl -cp "$S/d")" "user:nobody:rwx" "access kept"
echo later >"$M/d/later"
assert_eq "" "$(getfacl -cps "$S/d/later")" "nothing inherited after setfacl -k"

# Whether nobody may then read is ACCESS's answer, which is ganesha's: its
# permission checks use the mode bits only, so that is not tested here.

# Not the owner: the server says no, and nothing changes.
before=$(acl_of "$S/f")
expect_fail_with "Operation not permitted" setpriv --reuid=nobody --regid=nogroup --clear-groups setfacl -m u:nobody:rw "$M/f"
assert_eq "$before" "$(acl_of "$S/f")" "nothing changed by a refused SETACL"

# noacl: off even with aclport= given.
MNT2=$(new_mountpoint)
mount_nfsfuse "$MNT2" -o "noacl,nolock,aclport=$AP"
expect_fail_with "Operation not supported" setfacl -m u:nobody:r "$MNT2/$T/f"
expect_fail_with "Operation not supported" getfattr -n system.posix_acl_access "$MNT2/$T/d"
assert_eq 0 "$(acl_stat "$MNT2" GETACL calls)" "no GETACL with noacl"
umount_nfsfuse "$MNT2"
umount_nfsfuse "$MNT"
grep -q 'SETACL .* -> 0$' "$ALOG" || fail "nfsacl_server logged no successful SETACL"

if [[ -n $PCAP ]]; then
	capture_stop
	# nfsacl_server's port is not one tshark knows: decode it as RPC.
	tsh() { tshark -r "$PCAP" -d "tcp.port==$AP,rpc" "$@" 2>/dev/null; }
	n=$(tsh -Y 'rpc.msgtyp == 0 && nfsacl.procedure_v3 == 2' -T fields -e frame.number | wc -l)
	((n > 0)) || fail "no SETACL call in the capture"
	note "SETACL calls on the wire: $n"
	ents=$(tsh -Y 'rpc.msgtyp == 0 && nfsacl.procedure_v3 == 2' -T fields -e nfsacl.aclent.uid | tr ',' '\n' | grep -c '^65534$' || true)
	((ents > 0)) || fail "no entry for nobody (65534) decoded in the SETACL calls"
	bad=$(tsh -Y "_ws.malformed || (_ws.expert.severity >= \"warning\" && $TCP_OWN_WARNING_FREE && rpc)" \
		-T fields -e frame.number -e _ws.col.Info | head -n 5)
	[[ -z $bad ]] || fail "tshark found malformed or suspicious NFSACL frames: $bad"
fi

echo "PASS"
