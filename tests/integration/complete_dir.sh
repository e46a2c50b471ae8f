#!/usr/bin/env bash
# -o dircomplete: directories made through the mount and changed by nobody
# else since answer lookups of names they do not hold without a LOOKUP (so
# a create costs CREATE and, for O_EXCL, SETATTR); names we added are
# always found, and a change by another client -- seen in the wcc of our
# next change or once the directory's attributes time out -- ends it.
# Without the option (the default) every unknown name is asked for, so a
# file another client made is seen at once (close-to-open for names).
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"
need_cmd python3
need_root # drop_caches: the kernel must forget its dentries

T=$(make_testdir complete_dir)
S=$EXPORT_DIR/$T
A=$(new_mountpoint)
B=$(new_mountpoint)
mount_nfsfuse "$A" -o hostname=clientA,dircomplete
mount_nfsfuse "$B" -o hostname=clientB

# excl_create DIR N: N files f0..f(N-1), each open(O_CREAT|O_EXCL) + write.
excl_create() {
	python3 - "$1" "$2" <<'PY'
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    fd = os.open(os.path.join(d, "f%d" % i), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    os.write(fd, b"%d\n" % i)
    os.close(fd)
PY
}

# --- creates in a directory we made: no LOOKUP per file ----------------
stat "$A/$T" >/dev/null # the test directory's own LOOKUP, before counting
# A trace of the lookups, to tell which name cost one if any does.
TR=$(tmpdir_new)/trace
"$NFSFUSECTL" "$A" trace >"$TR" 2>&1 &
tpid=$!
on_exit bash -c "kill $tpid 2>/dev/null || true"
traced_getattr() {
	"$NFSFUSECTL" "$A" drop "$A/$T" >/dev/null 2>&1
	stat "$A/$T" >/dev/null
	grep -q "rpc \(GETATTR\|LOOKUP\)" "$TR"
}
wait_until 60 traced_getattr || fail "no RPC lines in the trace: $(head -c 600 "$TR")"
l0=$(calls "$A" LOOKUP)
c0=$(calls "$A" CREATE)
h0=$(counter "$A" lookup_complete_dir)
mkdir "$A/$T/d"
excl_create "$A/$T/d" 50
dl=$(($(calls "$A" LOOKUP) - l0))
assert_eq 50 "$(($(calls "$A" CREATE) - c0))" "one CREATE per file"
[[ $dl -le 1 ]] || fail "50 creates in a directory made here cost $dl LOOKUPs (want at most 1, for the directory's own name); the trace says:
$(grep -i lookup "$TR" | tail -n 20)"
kill "$tpid" 2>/dev/null || true
[[ $(($(counter "$A" lookup_complete_dir) - h0)) -ge 50 ]] ||
	fail "lookups not answered from the directory made here: $(($(counter "$A" lookup_complete_dir) - h0))"
assert_eq 50 "$(ls "$S/d" | wc -l)" "the server has the 50 files"

# --- names we added are found after the kernel forgot them -------------
mkdir "$A/$T/other"
echo moved >"$A/$T/other/m"
mv "$A/$T/other/m" "$A/$T/d/renamed"
ln "$A/$T/d/f1" "$A/$T/d/hardlink"
ln -s f2 "$A/$T/d/symlink"
mkfifo "$A/$T/d/fifo"
# The kernel forgets the names, not the directory: a process inside it
# keeps it (a forgotten directory inode starts again as unknown).
(cd "$A/$T/d" && exec sleep 600) &
PIN=$!
on_exit kill "$PIN"
forget_dentries
for n in f0 f49 renamed hardlink symlink fifo; do
	[[ -e $A/$T/d/$n || -L $A/$T/d/$n ]] || fail "$n, added through this mount, not found after the kernel forgot it"
done
assert_file_content "$A/$T/d/renamed" "moved" "renamed into the directory"
assert_file_content "$A/$T/d/symlink" "2" "symlink made in the directory"
h1=$(counter "$A" lookup_complete_dir)
assert_not_exists "$A/$T/d/never" "a name nobody made"
[[ $(counter "$A" lookup_complete_dir) -gt $h1 ]] ||
	fail "the directory stopped being known complete when the kernel forgot its names"

# --- another client's change, seen in the wcc of our next change -------
echo fromB >"$B/$T/d/fromB"
echo ours >"$A/$T/d/after" # its wcc shows a change that was not ours
assert_file_content "$A/$T/d/fromB" "fromB" "B's file, right after A's next change in the directory"
kill "$PIN"
# A file made on the server itself, and a create of ours after it.
echo srv >"$S/d/fromserver"
touch "$A/$T/d/after2"
assert_file_content "$A/$T/d/fromserver" "srv" "the server's file after A's next change"

# --- another client's change, seen once the attributes time out --------
C=$(new_mountpoint)
mount_nfsfuse "$C" -o hostname=clientC,dircomplete,acdirmin=1,acdirmax=1
mkdir "$C/$T/e"
excl_create "$C/$T/e" 3
echo late >"$B/$T/e/late"
sleep 2 # past acdirmax: C asks the server again
assert_file_content "$C/$T/e/late" "late" "B's file once C's attributes of the directory timed out"

# --- lookupcache=positive: no negative answers of any kind -------------
P=$(new_mountpoint)
mount_nfsfuse "$P" -o hostname=clientP,dircomplete,lookupcache=positive
l0=$(calls "$P" LOOKUP)
mkdir "$P/$T/p"
excl_create "$P/$T/p" 10
dl=$(($(calls "$P" LOOKUP) - l0))
[[ $dl -ge 10 ]] || fail "lookupcache=positive: 10 creates cost only $dl LOOKUPs"
assert_eq 0 "$(counter "$P" lookup_complete_dir)" "lookupcache=positive never answers from a directory made here"
# --- the default: no answers from what we made ---------------------------
l0=$(calls "$B" LOOKUP)
mkdir "$B/$T/b"
excl_create "$B/$T/b" 10
dl=$(($(calls "$B" LOOKUP) - l0))
[[ $dl -ge 10 ]] || fail "without dircomplete, 10 creates cost only $dl LOOKUPs"
assert_eq 0 "$(counter "$B" lookup_complete_dir)" "without dircomplete nothing is answered from a directory made here"
echo other >"$S/b/other"
assert_file_content "$B/$T/b/other" "other" "a file made elsewhere is seen at once"
echo PASS
