#!/usr/bin/env bash
# Round trips of metadata work, counted on the wire (nfsfusectl stats,
# cross-checked once with tshark): what the protocol does not need is not
# sent.
#   - ACLs: where the server has shown that a file system keeps no ACLs
#     (nfs-ganesha's VFS answers GETACL with no entries at all), `ls -l`
#     costs no GETACL per file; the rule shows in stats, counts its
#     answers (acl_none_fs) and is asked again once it has expired.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"
need_cmd python3

T=$(make_testdir meta_rpcs)
S=$EXPORT_DIR/$T
N=300

acl_calls() {
	"$NFSFUSECTL" "$1" stats --json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["nfsacl"]["GETACL"]["calls"])'
}
stat_str() {
	"$NFSFUSECTL" "$1" stats --json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$2"
}

# Can ganesha keep ACLs here?  Its VFS backend (Debian's) cannot, and
# answers GETACL with no entries; a server that can says at least the
# mode's three, and the rule never applies.
probe=$(new_mountpoint)
mount_nfsfuse "$probe" -o nolock
: >"$S/probe"
getfattr -n system.posix_acl_access "$probe/$T/probe" >/dev/null 2>&1 || true
marked=$(stat_str "$probe" acl_none_fs_rules)
umount_nfsfuse "$probe"
[[ $marked == *"no ACLs"* ]] ||
	fail "GETACL of a file without an ACL on ganesha's VFS did not mark its file system: '$marked'"

mkdir "$S/ls"
python3 -c 'import os,sys
for i in range(int(sys.argv[2])): open(os.path.join(sys.argv[1], "f%04d" % i), "w").close()' "$S/ls" "$N"

# --- ls -l: one GETACL for the file system, none per file -------------
PCAP=
# ganesha serves NFSACL on a port of its own, which rpcbind names.
AP=$(rpcinfo -p 127.0.0.1 2>/dev/null | awk '$1 == 100227 && $3 == "tcp" { print $4; exit }')
if [[ $(id -u) -eq 0 && -n $AP ]] && command -v tshark >/dev/null && command -v dumpcap >/dev/null; then
	PCAP=$(tmpdir_new)/acl.pcapng
	capture_start "$PCAP" "tcp port $AP"
else
	note "no tshark/dumpcap (or not root): GETACL is counted by the daemon only"
fi
M=$(new_mountpoint)
mount_nfsfuse "$M" -o nolock
g0=$(acl_calls "$M")
h0=$(counter "$M" acl_none_fs)
lines=$(ls -l "$M/$T/ls" | wc -l)
assert_eq $((N + 1)) "$lines" "ls -l lists every file"
dg=$(($(acl_calls "$M") - g0))
dh=$(($(counter "$M" acl_none_fs) - h0))
note "ls -l of $N files: $dg GETACL, $dh answered by the file system rule"
((dg <= 2)) || fail "ls -l of $N files on a file system without ACLs sent $dg GETACL (want at most 2)"
((dh >= N - 2)) || fail "only $dh of $N ACL reads answered by the file system rule"
assert_contains "$(stat_str "$M" acl_none_fs_rules)" "no ACLs (GETACL of fileid" "the rule in nfsfusectl stats"
if [[ -n $PCAP ]]; then
	capture_stop
	wire=$(tshark -r "$PCAP" -d "tcp.port==$AP,rpc" \
		-Y 'rpc.msgtyp == 0 && rpc.program == 100227 && rpc.procedure == 1' \
		-T fields -e frame.number 2>/dev/null | wc -l)
	note "GETACL calls on the wire: $wire"
	assert_eq "$(acl_calls "$M")" "$wire" "GETACL calls on the wire and in nfsfusectl stats"
fi

# The answers are the ones GETACL gives: no ACL, mode bits only.
assert_eq "" "$(getfacl -cps "$M/$T/ls/f0001" 2>/dev/null)" "getfacl -s: no ACL"
expect_fail_with "No such attribute" getfattr -n system.posix_acl_access "$M/$T/ls/f0002"
assert_eq "" "$(getfattr -m - --absolute-names "$M/$T/ls/f0003" 2>/dev/null)" "listxattr: no ACL listed"
umount_nfsfuse "$M"

# --- the rule is believed for acdirmax, then asked again ----------------
M2=$(new_mountpoint)
mount_nfsfuse "$M2" -o nolock,acdirmax=1,acdirmin=1,acregmin=1,acregmax=1
getfattr -n system.posix_acl_access "$M2/$T/ls/f0010" >/dev/null 2>&1 || true
g1=$(acl_calls "$M2")
sleep 2 # past acdirmax: the rule and the files' attributes expire
getfattr -n system.posix_acl_access "$M2/$T/ls/f0011" >/dev/null 2>&1 || true
(($(acl_calls "$M2") > g1)) || fail "an expired rule still answered without GETACL"
umount_nfsfuse "$M2"

# --- noacl: nothing asked, nothing marked ------------------------------
M3=$(new_mountpoint)
mount_nfsfuse "$M3" -o nolock,noacl
ls -l "$M3/$T/ls" >/dev/null
assert_eq 0 "$(acl_calls "$M3")" "no GETACL with noacl"
assert_eq "-" "$(stat_str "$M3" acl_none_fs_rules)" "no rule with noacl"
umount_nfsfuse "$M3"
echo PASS
