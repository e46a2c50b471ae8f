#!/usr/bin/env bash
# What a LOOKUP answered is remembered, as the kernel remembers its
# entries, while the directory's attributes are trusted and nobody else
# changed it: FUSE asks again about a name the kernel holds before a
# create with O_EXCL, a mkdir or a rename over it, and that is answered
# without a LOOKUP -- "no such name" (the Linux client sends no LOOKUP
# there at all), or the file found, with its attributes still believed.
# Our own remove or rename of the name ends what was found; a change by
# another client -- seen in the wcc of our next change in the directory,
# or once its attributes time out -- ends everything, as does
# lookupcache=positive for names found missing.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"
need_cmd python3
need_root # drop_caches: the kernel must forget its dentries

T=$(make_testdir lookup_memory)
S=$EXPORT_DIR/$T
A=$(new_mountpoint)
B=$(new_mountpoint)
mount_nfsfuse "$A" -o hostname=clientA
mount_nfsfuse "$B" -o hostname=clientB
mkdir "$S/d" # made on the server: not a directory A knows complete
stat "$A/$T/d" >/dev/null
# excl_exists PATH: an O_EXCL create of PATH fails with EEXIST.
excl_exists() {
	python3 - "$1" <<'PY'
import os, sys
try:
    os.open(sys.argv[1], os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
except FileExistsError:
    sys.exit(0)
sys.exit(1)
PY
}

# --- a file renamed over a name found, opened here at once ---------------
# A read the old file a moment ago: its attributes are believed.  Its
# open finds the old handle stale on the server, and the kernel looks
# the name up again: that LOOKUP must go to the server, not be answered
# with the old file.
mkdir "$S/e"
echo v1 >"$S/e/conf"
# A directory changed less than the server's time granularity ago is
# not believed; past it, it is.
sleep 1.5
stat "$A/$T/e" >/dev/null # shows A a change it did not make: not kept
forget_dentries
stat "$A/$T/e" >/dev/null # kept, as is every name on the path
(cd "$A/$T/e" && exec sleep 600) &
PIN=$!
on_exit kill "$PIN"
assert_file_content "$A/$T/e/conf" "v1" "the file before another client replaced it"
echo v2 >"$B/$T/e/conf.new"
mv "$B/$T/e/conf.new" "$B/$T/e/conf"
assert_file_content "$A/$T/e/conf" "v2" "a file another client renamed over the name, opened here at once"
kill "$PIN"

# --- a create with O_EXCL of a name just found missing --------------------
assert_not_exists "$A/$T/d/x" "a name nobody made"
l0=$(calls "$A" LOOKUP)
h0=$(counter "$A" lookup_negative_hits)
python3 - "$A/$T/d/x" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
os.write(fd, b"x\n")
os.close(fd)
PY
assert_eq 0 "$(($(calls "$A" LOOKUP) - l0))" "LOOKUPs for an O_EXCL create of a name just found missing"
[[ $(counter "$A" lookup_negative_hits) -gt $h0 ]] || fail "the kernel's second lookup was not answered from the name found missing"
assert_file_content "$S/d/x" "x" "the file the create made"

# --- a rename over a name just found missing -----------------------------
echo new >"$A/$T/d/tmp"
assert_not_exists "$A/$T/d/target" "a name nobody made"
l0=$(calls "$A" LOOKUP)
mv "$A/$T/d/tmp" "$A/$T/d/target"
assert_eq 0 "$(($(calls "$A" LOOKUP) - l0))" "LOOKUPs for a rename over a name just found missing"
assert_file_content "$A/$T/d/target" "new" "the renamed file"
assert_not_exists "$S/d/tmp" "the old name"

# --- a name we made ourselves is found, not remembered missing ------------
assert_not_exists "$A/$T/d/mine" "a name nobody made"
echo mine >"$A/$T/d/mine"
# What the create made is what the name holds: an O_EXCL create of it
# fails without a LOOKUP.
l0=$(calls "$A" LOOKUP)
excl_exists "$A/$T/d/mine" || fail "an O_EXCL create of a file made here did not fail with EEXIST"
assert_eq 0 "$(($(calls "$A" LOOKUP) - l0))" "LOOKUPs for an O_EXCL create of a file made here"
forget_dentries
assert_file_content "$A/$T/d/mine" "mine" "a name found missing, then made here"
assert_not_exists "$A/$T/d/gone" "a name nobody made"
ln -s x "$A/$T/d/gone"
mkdir "$A/$T/d/sub"
assert_not_exists "$A/$T/d/sub/moved" "a name nobody made"
mv "$A/$T/d/target" "$A/$T/d/sub/moved"
forget_dentries
[[ -L $A/$T/d/gone ]] || fail "a symlink made over a name found missing is not found"
assert_file_content "$A/$T/d/sub/moved" "new" "a file renamed over a name found missing"

# --- names found: mkdir -p and O_EXCL over existing names ----------------
mkdir "$S/d/p" "$S/d/p/q"
echo there >"$S/d/p/q/f"
# The first LOOKUP of p shows A a change it did not make (the mkdir on
# the server): what it found is not remembered, since the change could
# have come after it.  The second is.
stat "$A/$T/d/p/q/f" >/dev/null
forget_dentries
stat "$A/$T/d/p/q/f" >/dev/null
l0=$(calls "$A" LOOKUP)
h0=$(counter "$A" lookup_hits)
mkdir -p "$A/$T/d/p/q"
excl_exists "$A/$T/d/p/q/f" || fail "an O_EXCL create of an existing file did not fail with EEXIST"
assert_eq 0 "$(($(calls "$A" LOOKUP) - l0))" "LOOKUPs for mkdir -p and an O_EXCL create over names just found"
[[ $(counter "$A" lookup_hits) -ge $((h0 + 3)) ]] || fail "the kernel's second lookups were not answered from the names found: $(($(counter "$A" lookup_hits) - h0))"
assert_file_content "$A/$T/d/p/q/f" "there" "the file found"

# --- our own remove and rename end what was found -------------------------
echo one >"$A/$T/d/r1"
echo two >"$A/$T/d/r2"
stat "$A/$T/d/r1" "$A/$T/d/r2" >/dev/null
rm "$A/$T/d/r1"
python3 - "$A/$T/d/r1" <<'PY' || fail "an O_EXCL create of a name removed here failed"
import os, sys
os.close(os.open(sys.argv[1], os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
PY
mv "$A/$T/d/r2" "$A/$T/d/r3"
mkdir "$A/$T/d/r2" || fail "a mkdir of a name renamed away here failed"
echo four >"$A/$T/d/r4"
stat "$A/$T/d/r3" "$A/$T/d/r4" >/dev/null
mv "$A/$T/d/r4" "$A/$T/d/r3"
forget_dentries
assert_file_content "$A/$T/d/r3" "four" "a name a file was renamed over here"
mkdir "$A/$T/d/rd"
stat "$A/$T/d/rd" >/dev/null
rmdir "$A/$T/d/rd"
mkdir "$A/$T/d/rd" || fail "a mkdir of a directory removed here failed"

# --- a name lost while files are open here: its file known, no LOOKUP ----
# With a file open on the mount, a remove or a rename over a name must
# know the file behind it: an open file whose last name it is must be
# moved aside (silly rename).  A name made here, or one a listing found,
# tells that without a LOOKUP, and the open file it held is still moved
# aside.
# over_open DIR HELD FROM GONE LABEL: with HELD open (it holds "HELD"),
# FROM renamed over it and GONE removed, without a LOOKUP.
over_open() {
	local d=$1 held=$2 from=$3 gone=$4 label=$5 l0 s0
	l0=$(calls "$A" LOOKUP)
	s0=$(counter "$A" silly_renames)
	python3 - "$d" "$held" "$from" "$gone" <<'PY' || fail "$label: a rename over an open file, or a remove, while files are open"
import os, sys
d, held, frm, gone = sys.argv[1:]
with open(os.path.join(d, held)) as f:
    os.rename(os.path.join(d, frm), os.path.join(d, held))
    os.unlink(os.path.join(d, gone))
    assert f.read() == held + "\n", "the open file moved aside reads as before"
PY
	assert_eq 0 "$(($(calls "$A" LOOKUP) - l0))" "$label: LOOKUPs for a rename over and a remove, files open"
	assert_eq 1 "$(($(counter "$A" silly_renames) - s0))" "$label: silly renames of the open file renamed over"
}
echo held >"$A/$T/d/held"
echo v >"$A/$T/d/v1"
echo w >"$A/$T/d/v2"
over_open "$A/$T/d" held v1 v2 "names made here"
assert_file_content "$A/$T/d/held" "v" "the file renamed over the open one"
assert_not_exists "$S/d/v2" "the name removed"
wait_until 10 bash -c "! ls -a '$S/d' | grep -q '^\.nfs'" || fail "the silly name outlived the last close: $(ls -a "$S/d")"
# rm -rf with a file open on the mount, or a rename over a name ls showed.
mkdir "$S/ls"
echo n1 >"$S/ls/n1"
echo n2 >"$S/ls/n2"
echo n3 >"$S/ls/n3"
sleep 1.5 # past the server's time granularity: the attributes are believed
ls "$A/$T/ls" >/dev/null
over_open "$A/$T/ls" n1 n2 n3 "names a listing found"
assert_eq "n1" "$(ls "$S/ls" | grep -v '^\.nfs')" "the names left on the server"
assert_file_content "$A/$T/ls/n1" "n2" "the file renamed over the listed name"

# --- another client's replacement of a name found ------------------------
# The old file stays known to A, its attributes believed, through a
# second name A holds open, and A keeps the directory (a process inside
# it), with what it knows of its names: only the change B made can tell
# A that the name is not the old file's any longer.
(cd "$A/$T/d" && exec sleep 600) &
PIN=$!
on_exit kill "$PIN"
mkdir "$S/keep"
echo old >"$S/d/repl"
ln "$S/d/repl" "$S/keep/link"
assert_file_content "$A/$T/d/repl" "old" "the file before another client replaced it"
forget_dentries # found again, with nothing changed meanwhile: remembered
assert_file_content "$A/$T/d/repl" "old" "the file before another client replaced it"
sleep 600 <"$A/$T/keep/link" &
KEEP=$!
on_exit kill "$KEEP"
echo new >"$B/$T/d/repl.tmp"
mv "$B/$T/d/repl.tmp" "$B/$T/d/repl"
touch "$A/$T/d/after-repl" # its wcc shows a change that was not ours
forget_dentries
assert_file_content "$A/$T/d/repl" "new" "B's file under the name, after A's next change in the directory"
kill "$KEEP" "$PIN"
excl_exists "$A/$T/d/repl" || fail "an O_EXCL create over the name B replaced did not fail with EEXIST"
echo gone >"$S/d/vanish"
stat "$A/$T/d/vanish" >/dev/null
rm "$B/$T/d/vanish"
touch "$A/$T/d/after-vanish"
mkdir "$A/$T/d/vanish" || fail "a mkdir of a name another client removed failed"

# --- another client's create, seen in the wcc of our next change ---------
assert_not_exists "$A/$T/d/fromB" "a name nobody made"
echo fromB >"$B/$T/d/fromB"
echo ours >"$A/$T/d/after" # its wcc shows a change that was not ours
forget_dentries
assert_file_content "$A/$T/d/fromB" "fromB" "B's file, after A's next change in the directory"

# --- another client's create, seen once the attributes time out ----------
C=$(new_mountpoint)
mount_nfsfuse "$C" -o hostname=clientC,acdirmin=1,acdirmax=1
assert_not_exists "$C/$T/d/late" "a name nobody made"
echo late >"$B/$T/d/late"
sleep 2 # past acdirmax: C asks the server again
forget_dentries
assert_file_content "$C/$T/d/late" "late" "B's file once C's attributes of the directory timed out"

# --- a directory another client removed and made again ------------------
# A listed it and read a file in it a moment ago: the name, the directory's
# attributes and its handle are all believed.  The server knows that handle
# no longer.  The kernel, told ESTALE, walks the path again asking for each
# name, and those lookups must reach the server: a listing (whose open,
# not its first read, meets the stale handle), a read of a file in it, a
# stat and a create all find the new directory at the first try, as
# through the Linux client.  Over NFSv3 and NFSv4.1.
# (Each in a directory of its own: a LOOKUP that shows a directory was
# changed by someone else ends what was known of all its names.)
V=$(new_mountpoint)
mount_nfsfuse "$V" -o hostname=clientV,vers=4.1
for M in "$A" "$V"; do
	for what in ls cat stat touch; do
		mkdir -p "$B/$T/$what/re"
		echo old >"$B/$T/$what/re/old"
	done
	sleep 1.5 # past the server's time granularity: believed
	for what in ls cat stat touch; do
		assert_eq old "$(ls "$M/$T/$what/re")" "a listing of the first directory"
		assert_file_content "$M/$T/$what/re/old" old "a file of the first directory"
		rm -r "$B/$T/$what/re"
		mkdir "$B/$T/$what/re"
		echo new >"$B/$T/$what/re/new"
	done
	s0=$(counter "$M" attr_stale_handles)
	assert_eq new "$(ls "$M/$T/ls/re" 2>&1)" "a listing of a directory another client made again ($M)"
	assert_file_content "$M/$T/cat/re/new" new "a file in a directory another client made again ($M)"
	stat "$M/$T/stat/re/new" >/dev/null || fail "a stat in a directory another client made again ($M)"
	touch "$M/$T/touch/re/t" || fail "a create in a directory another client made again ($M)"
	assert_exists "$S/touch/re/t" "the file created there, on the server"
	assert_eq 4 "$(($(counter "$M" attr_stale_handles) - s0))" "directories whose stale handle dropped their attributes ($M)"
	rm -r "${B:?}/$T"/{ls,cat,stat,touch}
done

# --- lookupcache=positive: nothing missing is remembered -----------------
P=$(new_mountpoint)
mount_nfsfuse "$P" -o hostname=clientP,lookupcache=positive
assert_not_exists "$P/$T/d/pos" "a name nobody made"
l0=$(calls "$P" LOOKUP)
touch "$P/$T/d/pos"
[[ $(($(calls "$P" LOOKUP) - l0)) -ge 1 ]] || fail "lookupcache=positive: a create after a lookup that found nothing sent no LOOKUP"
assert_eq 0 "$(counter "$P" lookup_negative_hits)" "lookupcache=positive never answers from a name found missing"
echo PASS
