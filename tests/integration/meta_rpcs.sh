#!/usr/bin/env bash
# Round trips of metadata work, counted on the wire (nfsfusectl stats,
# cross-checked once with tshark): what the protocol does not need is not
# sent.
#   - ACLs: where the server has shown that a file system keeps no ACLs
#     (nfs-ganesha's VFS answers GETACL with no entries at all), `ls -l`
#     costs no GETACL per file; the rule shows in stats, counts its
#     answers (acl_none_fs) and is asked again once it has expired.
#   - untar, find -ls and rm -rf of a tree: per entry only the calls that
#     change or read it (no GETATTR or ACCESS after a reply that carried
#     attributes, no COMMIT for files that went FILE_SYNC, no LOOKUP of a
#     name READDIRPLUS returned, no LOOKUP before each unlink while no
#     file is open or has other links);
#   - the untar and its rm -rf over NFSv4.1: no COMPOUND for a GETATTR
#     alone (each create and remove brings the directory's attributes);
#   - a hard link: LINK, and no GETATTR for the new link count;
#   - the first open of a file: an ACCESS, whose attributes serve
#     close-to-open, and no GETATTR; a second open: one GETATTR.
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
# Not "recent" for the server's time_delta (1 s; touch sets ctime to
# now): attributes, and so the kernel's entries, that are believed.
touch -d '-1 hour' "$S/ls"/* "$S/ls"
sleep 2

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
# Long attribute timeouts: the kernel still believes what the first
# listing gave it when the second one runs, however slow the machine.
mount_nfsfuse "$M" -o nolock,acregmin=60,acdirmin=60
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

# --- a second ls -l of the unchanged directory: READDIRPLUS, and the
# entries the kernel already holds are not given again (which would
# make it drop the "no ACL" it keeps for each).
# The kernel may forget inodes it does not use (memory pressure); a
# process holding every file (O_PATH: no open of ours) keeps them.
python3 -c 'import os, sys, time
fds = [os.open(os.path.join(sys.argv[1], f), os.O_PATH) for f in os.listdir(sys.argv[1])]
print("open", flush=True)
time.sleep(600)' "$M/$T/ls" >"$NFSFUSE_TMP/pin.out" &
PIN=$!
on_exit kill "$PIN"
wait_until 60 grep -q open "$NFSFUSE_TMP/pin.out" || fail "could not open the files"
r0=$(calls "$M" READDIRPLUS)
h1=$(counter "$M" acl_none_fs)
k1=$(counter "$M" dir_entries_kept)
ls -l "$M/$T/ls" >/dev/null
dk=$(($(counter "$M" dir_entries_kept) - k1))
dh=$(($(counter "$M" acl_none_fs) - h1))
note "second ls -l: $dk entries kept, $dh ACL reads reached the daemon"
((dk >= N)) || fail "second ls -l of an unchanged directory: only $dk of $N entries kept"
# What the kernel then asks is its own affair: it drops its ACLs of a
# file whenever it revalidates the entry for another reason (an expired
# timeout, a drop_caches on a busy machine), so the ACL reads that reach
# the daemon are told, not asserted.
[[ $dh -le 2 ]] || note "the kernel asked for $dh ACLs again (it revalidated its entries)"
(($(calls "$M" READDIRPLUS) > r0)) || fail "second ls -l sent no READDIRPLUS"
# A change in the directory: its entries are given to the kernel again.
touch "$S/ls/new"
k2=$(counter "$M" dir_entries_kept)
n=$(ls -l "$M/$T/ls" | grep -c ' new$' || true)
assert_eq 1 "$n" "a file made on the server is listed"
assert_eq "$k2" "$(counter "$M" dir_entries_kept)" "a changed directory's entries are linked again"
rm -f "$S/ls/new"
kill "$PIN"
wait "$PIN" 2>/dev/null || true

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

# --- untar, find -ls, rm -rf: the calls each entry needs ---------------
# A tree of D directories with F small files each (one WRITE: FILE_SYNC
# at close) and one symlink each.
D=12 F=8
SRC=$(tmpdir_new)/tree
for ((d = 0; d < D; d++)); do
	mkdir -p "$SRC/t/d$d"
	for ((f = 0; f < F; f++)); do head -c 1000 /dev/urandom >"$SRC/t/d$d/f$f"; done
	ln -s f0 "$SRC/t/d$d/link"
done
tar -C "$SRC" -cf "$SRC/t.tar" t
DIRS=$((D + 1)) FILES=$((D * F)) LINKS=$D
ENTRIES=$((DIRS + FILES + LINKS))
# rpcs MNT: the NFS calls so far, "PROC N" per line.
rpcs() {
	"$NFSFUSECTL" "$1" stats --json | python3 -c 'import json,sys
for k, v in json.load(sys.stdin)["rpc"].items(): print(k, v["calls"])'
}
# delta BEFORE AFTER PROC: calls of PROC between two rpcs outputs.
delta() {
	local a b
	a=$(awk -v p="$3" '$1 == p { print $2 }' <<<"$1")
	b=$(awk -v p="$3" '$1 == p { print $2 }' <<<"$2")
	echo $((${b:-0} - ${a:-0}))
}
M4=$(new_mountpoint)
mount_nfsfuse "$M4" -o nolock
mkdir "$M4/$T/u"
r0=$(rpcs "$M4")
tar -C "$M4/$T/u" --no-same-owner -xf "$SRC/t.tar"
r1=$(rpcs "$M4")
note "untar of $ENTRIES entries: $(python3 -c 'import sys
a = dict(l.split() for l in sys.argv[1].splitlines()); b = dict(l.split() for l in sys.argv[2].splitlines())
print(" ".join("%s %d" % (k, int(b[k]) - int(a.get(k, 0))) for k in b if int(b[k]) - int(a.get(k, 0))))' "$r0" "$r1")"
assert_eq "$FILES" "$(delta "$r0" "$r1" CREATE)" "untar: one CREATE per file"
assert_eq "$DIRS" "$(delta "$r0" "$r1" MKDIR)" "untar: one MKDIR per directory"
assert_eq "$FILES" "$(delta "$r0" "$r1" WRITE)" "untar: one WRITE per small file"
assert_eq 0 "$(delta "$r0" "$r1" COMMIT)" "untar: no COMMIT for files that went FILE_SYNC"
assert_eq 0 "$(delta "$r0" "$r1" ACCESS)" "untar: no ACCESS (the kernel checks the mode)"
(($(delta "$r0" "$r1" GETATTR) <= 2)) || fail "untar: $(delta "$r0" "$r1" GETATTR) GETATTR (the replies carry attributes)"
# A LOOKUP for each new name (the kernel asks before it creates), no more.
(($(delta "$r0" "$r1" LOOKUP) <= ENTRIES + 1)) || fail "untar: $(delta "$r0" "$r1" LOOKUP) LOOKUP for $ENTRIES entries"
# The SETATTR of each exclusive create, the times of each file, the mode
# and times of each directory: at most two per entry.
(($(delta "$r0" "$r1" SETATTR) <= 2 * ENTRIES)) || fail "untar: $(delta "$r0" "$r1" SETATTR) SETATTR for $ENTRIES entries"
cmp <(cd "$SRC" && find t -type f -exec md5sum {} + | sort) \
	<(cd "$M4/$T/u" && find t -type f -exec md5sum {} + | sort) >/dev/null ||
	fail "untar: the tree read back differs"
umount_nfsfuse "$M4"

# find -ls on a fresh mount: one READDIRPLUS per directory, and nothing
# per name (READDIRPLUS gave its handle and attributes) but READLINK.
M5=$(new_mountpoint)
mount_nfsfuse "$M5" -o nolock
stat "$M5/$T/u" >/dev/null
r0=$(rpcs "$M5")
n=$(find "$M5/$T/u/t" -ls | wc -l)
r1=$(rpcs "$M5")
assert_eq "$ENTRIES" "$n" "find -ls lists every entry"
assert_eq "$DIRS" "$(delta "$r0" "$r1" READDIRPLUS)" "find -ls: one READDIRPLUS per directory"
assert_eq "$LINKS" "$(delta "$r0" "$r1" READLINK)" "find -ls: one READLINK per symlink"
# (Not 0: names whose dentries the kernel dropped meanwhile, as a
# drop_caches elsewhere on the machine makes it, are looked up again.)
(($(delta "$r0" "$r1" LOOKUP) < ENTRIES / 4)) || fail "find -ls: $(delta "$r0" "$r1" LOOKUP) LOOKUP of names READDIRPLUS returned"
(($(delta "$r0" "$r1" GETATTR) <= 1)) || fail "find -ls: $(delta "$r0" "$r1" GETATTR) GETATTR"
# The kernel keeps the targets it has read: a second walk, and paths
# through the links, read none again.
r0=$(rpcs "$M5")
assert_eq "$ENTRIES" "$(find "$M5/$T/u/t" -ls | wc -l)" "find -ls again lists every entry"
assert_eq "f0" "$(readlink "$M5/$T/u/t/d0/link")" "readlink of a symlink read before"
assert_file_eq "$SRC/t/d1/f0" "$M5/$T/u/t/d1/link" "a file read through its symlink"
r1=$(rpcs "$M5")
assert_eq 0 "$(delta "$r0" "$r1" READLINK)" "a second find -ls and paths through read symlinks: READLINK"

# rm -rf in the same mount: REMOVE and RMDIR, the listings, and no
# LOOKUP or GETATTR per entry.
r0=$(rpcs "$M5")
rm -rf "$M5/$T/u/t"
r1=$(rpcs "$M5")
assert_not_exists "$S/u/t" "rm -rf removed the tree on the server"
assert_eq $((FILES + LINKS)) "$(delta "$r0" "$r1" REMOVE)" "rm -rf: one REMOVE per file"
assert_eq "$DIRS" "$(delta "$r0" "$r1" RMDIR)" "rm -rf: one RMDIR per directory"
(($(delta "$r0" "$r1" LOOKUP) < ENTRIES / 4)) || fail "rm -rf: $(delta "$r0" "$r1" LOOKUP) LOOKUP (none is needed before an unlink here)"
(($(delta "$r0" "$r1" GETATTR) <= 1)) || fail "rm -rf: $(delta "$r0" "$r1" GETATTR) GETATTR"
# rm reads each directory twice (a look for entries, then the walk).
(($(delta "$r0" "$r1" READDIRPLUS) <= 2 * DIRS)) || fail "rm -rf: $(delta "$r0" "$r1" READDIRPLUS) READDIRPLUS for $DIRS directories"
umount_nfsfuse "$M5"

# --- the same untar over NFSv4.1: every COMPOUND carries the call it is
# for.  A create's reply brings the directory's attributes after it (a
# GETATTR in the same COMPOUND), so the kernel's next look at the
# directory, a permission check on the way to the next name, needs no
# COMPOUND of its own.
# v4ops MNT: the COMPOUNDs and the operations in them so far, "OP N".
v4ops() {
	"$NFSFUSECTL" "$1" stats --json | python3 -c 'import json,sys
s = json.load(sys.stdin)
print("COMPOUND", s["rpc"].get("COMPOUND", {}).get("calls", 0))
for k, v in s.get("nfs4ops", {}).items(): print(k, v["calls"])'
}
M7=$(new_mountpoint)
mount_nfsfuse "$M7" -o vers=4.1
mkdir "$M7/$T/u4"
r0=$(v4ops "$M7")
tar -C "$M7/$T/u4" --no-same-owner -xf "$SRC/t.tar"
r1=$(v4ops "$M7")
main=0
for op in LOOKUP OPEN CLOSE OPEN_DOWNGRADE CREATE SETATTR WRITE COMMIT \
	REMOVE RENAME LINK READ READDIR READLINK ACCESS; do
	main=$((main + $(delta "$r0" "$r1" "$op")))
done
compounds=$(delta "$r0" "$r1" COMPOUND)
note "untar over NFSv4.1: $compounds COMPOUNDs, $((compounds - main)) without a call of their own (OPEN $(delta "$r0" "$r1" OPEN), CREATE $(delta "$r0" "$r1" CREATE), LOOKUP $(delta "$r0" "$r1" LOOKUP), SETATTR $(delta "$r0" "$r1" SETATTR))"
assert_eq "$FILES" "$(delta "$r0" "$r1" OPEN)" "untar over NFSv4.1: one OPEN per file"
assert_eq $((DIRS + LINKS)) "$(delta "$r0" "$r1" CREATE)" "untar over NFSv4.1: one CREATE per directory and symlink"
((compounds - main <= 2)) ||
	fail "untar over NFSv4.1: $((compounds - main)) COMPOUNDs for $ENTRIES entries with no call but GETATTR (want at most 2)"
# Each reply's owner and group strings: the user and group databases
# asked once per name, not per reply.
lookups=$(counter "$M7" idmap_lookups)
((lookups <= 8)) || fail "untar over NFSv4.1: the user and group databases asked $lookups times"
(($(counter "$M7" idmap_hits) >= ENTRIES)) || fail "untar over NFSv4.1: only $(counter "$M7" idmap_hits) owner strings mapped from kept answers"
cmp <(cd "$SRC" && find t -type f -exec md5sum {} + | sort) \
	<(cd "$M7/$T/u4" && find t -type f -exec md5sum {} + | sort) >/dev/null ||
	fail "untar over NFSv4.1: the tree read back differs"
# And removing it: the directory's attributes come with each REMOVE.
r0=$(v4ops "$M7")
rm -rf "$M7/$T/u4/t"
r1=$(v4ops "$M7")
main=0
for op in LOOKUP REMOVE READDIR ACCESS OPEN CLOSE; do
	main=$((main + $(delta "$r0" "$r1" "$op")))
done
compounds=$(delta "$r0" "$r1" COMPOUND)
assert_not_exists "$S/u4/t" "rm -rf over NFSv4.1 removed the tree"
((compounds - main <= 2)) ||
	fail "rm -rf over NFSv4.1: $((compounds - main)) COMPOUNDs with no call but GETATTR (want at most 2)"
umount_nfsfuse "$M7"

# --- a hard link: LINK, whose reply brings the new link count ----------
M6=$(new_mountpoint)
mount_nfsfuse "$M6" -o nolock
echo data >"$M6/$T/ln_a"
stat "$M6/$T/ln_a" >/dev/null
r0=$(rpcs "$M6")
ln "$M6/$T/ln_a" "$M6/$T/ln_b"
links=$(stat -c %h "$M6/$T/ln_a" "$M6/$T/ln_b" | tr '\n' ' ')
r1=$(rpcs "$M6")
assert_eq "2 2 " "$links" "link counts of both names after ln"
assert_eq 1 "$(delta "$r0" "$r1" LINK)" "ln: LINK"
assert_eq 0 "$(delta "$r0" "$r1" GETATTR)" "ln and a stat of both names: GETATTR (LINK's reply has the attributes)"
umount_nfsfuse "$M6"

# --- opening a file: close-to-open from the ACCESS the open needs ------
# The first open of a file by a user needs an ACCESS for its permission
# check; that reply's attributes serve close-to-open, so the open costs
# one call (the Linux client's count).  A second open knows the answer
# and revalidates with a GETATTR alone.
echo "open me" >"$S/opened"
M8=$(new_mountpoint)
mount_nfsfuse "$M8" -o nolock
stat "$M8/$T/opened" >/dev/null
r0=$(rpcs "$M8")
assert_eq "open me" "$(cat "$M8/$T/opened")" "first read of a file"
r1=$(rpcs "$M8")
assert_eq 1 "$(delta "$r0" "$r1" ACCESS)" "first open: ACCESS"
assert_eq 0 "$(delta "$r0" "$r1" GETATTR)" "first open: GETATTR (the ACCESS reply's attributes serve close-to-open)"
assert_eq 1 "$(delta "$r0" "$r1" READ)" "first open: READ"
r0=$(rpcs "$M8")
assert_eq "open me" "$(cat "$M8/$T/opened")" "second read of a file"
r1=$(rpcs "$M8")
assert_eq 0 "$(delta "$r0" "$r1" ACCESS)" "second open: ACCESS (the answer is kept)"
assert_eq 1 "$(delta "$r0" "$r1" GETATTR)" "second open: one GETATTR for close-to-open"
assert_eq 0 "$(delta "$r0" "$r1" READ)" "second open of an unchanged file: READ"
# A change made on the server is seen at the next open all the same.
echo "changed" >"$S/opened"
touch -d '+2 seconds' "$S/opened"
assert_eq "changed" "$(cat "$M8/$T/opened")" "a change made on the server is read at the next open"
umount_nfsfuse "$M8"

# --- noacl: nothing asked, nothing marked ------------------------------
M3=$(new_mountpoint)
mount_nfsfuse "$M3" -o nolock,noacl
ls -l "$M3/$T/ls" >/dev/null
assert_eq 0 "$(acl_calls "$M3")" "no GETACL with noacl"
assert_eq "-" "$(stat_str "$M3" acl_none_fs_rules)" "no rule with noacl"
umount_nfsfuse "$M3"
echo PASS
