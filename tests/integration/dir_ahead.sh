#!/usr/bin/env bash
# Listing ahead: a lister that reads on past its first kernel buffer gets
# the next part of the directory asked for while it works through this
# one.  Checked by the counters and by what the lister sees:
#   - a whole listing makes the calls it needs and no more: every part
#     but the first was asked for ahead, and each was used;
#   - a listing given up half way costs at most one part more;
#   - telldir/seekdir and rewinddir over parts asked ahead give the names
#     they gave the first time;
#   - names created and removed while the directory is listed: no name
#     twice, every name that stayed seen;
#   - names removed through the mount after the part that holds them was
#     fetched or asked ahead do not come back into the kernel's entries;
#   - the same over NFSv4.1 (READDIR in a COMPOUND).
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"
need_cmd python3
need_cmd perl

T=$(make_testdir dir_ahead)
S=$EXPORT_DIR/$T
N=3000
# fill_big: the server's big/ holds entry-00000 ... of N, and no more
# (names removed by a case made again, names made by a case removed).
fill_big() {
	rm -f "$S/big"/late-*
	python3 -c 'import os,sys
for i in range(int(sys.argv[2])):
	p = os.path.join(sys.argv[1], "entry-%05d" % i)
	if not os.path.exists(p): open(p, "w").close()' "$S/big" "$N"
}
mkdir "$S/big"
fill_big
ls -1 "$S/big" >"$NFSFUSE_TMP/want"

# parts MNT: READDIRPLUS calls, or NFSv4 READDIR operations.
parts() {
	stats_json "$1" | python3 -c 'import json,sys
s = json.load(sys.stdin)
print(s["rpc"].get("READDIRPLUS", {}).get("calls", 0) + s.get("nfs4ops", {}).get("READDIR", {}).get("calls", 0))'
}

# whole_listing MNT LABEL
whole_listing() {
	local m=$1 label=$2 c0 i0 u0 c i u
	c0=$(parts "$m") i0=$(counter "$m" dir_ahead_issued) u0=$(counter "$m" dir_ahead_used)
	ls -l "$m/$T/big" >"$NFSFUSE_TMP/long" || fail "$label: ls -l failed"
	c=$(($(parts "$m") - c0))
	i=$(($(counter "$m" dir_ahead_issued) - i0))
	u=$(($(counter "$m" dir_ahead_used) - u0))
	note "$label: $N names in $c parts, $i asked ahead, $u used"
	awk 'NR > 1 { print $NF }' "$NFSFUSE_TMP/long" >"$NFSFUSE_TMP/got"
	assert_file_eq "$NFSFUSE_TMP/want" "$NFSFUSE_TMP/got" "$label: ls -l lists every name once"
	((c >= 3)) || fail "$label: $N names came in $c parts; the test needs several"
	assert_eq $((c - 1)) "$i" "$label: every part after the first asked for ahead"
	assert_eq "$i" "$u" "$label: every part asked ahead used"
}

# --- a whole listing, NFSv3 ------------------------------------------------
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT"
M=$MNT/$T
whole_listing "$MNT" "NFSv3"

# --- given up half way -------------------------------------------------------
i0=$(counter "$MNT" dir_ahead_issued) u0=$(counter "$MNT" dir_ahead_used)
got=$(perl -e 'opendir(my $d, $ARGV[0]) or die "$!\n"; my $n = 0;
	while ($n < 1200 && defined(readdir($d))) { $n++ } closedir($d); print "$n\n"' "$M/big")
assert_eq 1200 "$got" "the lister read 1200 names"
i=$(($(counter "$MNT" dir_ahead_issued) - i0))
u=$(($(counter "$MNT" dir_ahead_used) - u0))
note "1200 of $N names: $i parts asked ahead, $u used"
((i >= 1)) || fail "a lister reading past its first reply got no part asked ahead"
((i - u <= 1)) || fail "a listing given up half way asked ahead $((i - u)) parts it never used"

# --- telldir/seekdir and rewinddir ------------------------------------------
out=$(perl -e '
	opendir(my $d, $ARGV[0]) or die "$!\n";
	my (%seen, @a, @b);
	for (1 .. 1000) { defined(readdir($d)) or die "short\n" }
	my $pos = telldir($d);
	for (1 .. 700) { push @a, scalar(readdir($d)) }
	seekdir($d, $pos);
	for (1 .. 700) { push @b, scalar(readdir($d)) }
	print "seek ", (join("/", @a) eq join("/", @b) ? "same" : "differs"), "\n";
	rewinddir($d);
	my $n = 0;
	while (defined(my $e = readdir($d))) { $n++; $seen{$e}++ }
	my $twice = grep { $seen{$_} > 1 } keys %seen;
	print "rewind $n $twice\n";
	closedir($d);' "$M/big")
assert_contains "$out" "seek same" "seekdir back to a telldir gives the same names"
assert_contains "$out" "rewind $((N + 2)) 0" "rewinddir lists every name (and . ..) once"

# --- names created and removed while the directory is listed ----------------
# The first 1000 names read, then a third of the rest removed and 500 made
# on the server: each name is seen at most once, and every name that was
# there all along is seen.
out=$(perl -e '
	my ($dir, $srv) = @ARGV;
	opendir(my $d, $dir) or die "$!\n";
	my %seen;
	for (1 .. 1000) { my $e = readdir($d); defined($e) or die "short\n"; $seen{$e}++ }
	my @gone;
	for (my $i = 0; $i < 3000; $i += 3) {
		my $name = sprintf("entry-%05d", $i);
		next if $seen{$name};
		unlink("$srv/$name") or die "unlink: $!\n";
		push @gone, $name;
	}
	for my $i (0 .. 499) { open(my $f, ">", sprintf("%s/late-%03d", $srv, $i)) or die "$!\n" }
	while (defined(my $e = readdir($d))) { $seen{$e}++ }
	closedir($d);
	my %g = map { $_ => 1 } @gone;
	my $twice = grep { $seen{$_} > 1 } keys %seen;
	my $missed = 0;
	for my $i (0 .. 2999) {
		my $name = sprintf("entry-%05d", $i);
		$missed++ unless $g{$name} || $seen{$name};
	}
	print "twice $twice missed $missed gone ", scalar(@gone), "\n";' "$M/big" "$S/big")
note "listed while it changed: $out"
assert_match "$out" "^twice 0 missed 0 gone [1-9]" "a listing of a changing directory"

# --- names removed through the mount while their part is held ----------
# The lister reads on into the second part (the third is then asked for
# ahead and answered); names of the second part it has not read yet and
# of the third are removed through the mount; the lister reads on.  A
# part that predates the removal must not give the kernel those names
# again: afterwards each of them is gone (ENOENT), not a stale entry of
# the kernel's.
fill_big
perl -e 'opendir(my $d, $ARGV[0]) or die "$!\n"; print "$_\n" for grep { !/^\.\.?$/ } readdir($d)' "$M/big" >"$NFSFUSE_TMP/order"
sed -n '601,700p;1001,1100p' "$NFSFUSE_TMP/order" >"$NFSFUSE_TMP/victims"
out=$(perl -e '
	my ($dir, $list) = @ARGV;
	opendir(my $d, $dir) or die "$!\n";
	for (1 .. 500) { defined(readdir($d)) or die "short\n" }
	select(undef, undef, undef, 0.5);
	open(my $v, "<", $list) or die "$!\n";
	my @victims = map { chomp; $_ } <$v>;
	for (@victims) { unlink("$dir/$_") or die "unlink $_: $!\n" }
	1 while defined(readdir($d));
	closedir($d);
	my $back = grep { -e "$dir/$_" } @victims;
	print "back $back of ", scalar(@victims), "\n";' "$M/big" "$NFSFUSE_TMP/victims")
note "names removed while their part was held: $out"
assert_eq "back 0 of 200" "$out" "names removed through the mount while their part was held stay removed"

# --- a directory read again by the process that just read its start -------
# rm reads each directory twice, back to back (is it empty? then all of
# it): the second time, the first part comes from the reply kept at the
# close.  The same process after a change of its own, or another
# process, lists afresh.
mkdir "$S/rr"
for i in $(seq 1 20); do : >"$S/rr/f$i"; done
sleep 1.5 # past the server's time granularity: the attributes are believed
stat "$M/rr" >/dev/null
c0=$(parts "$MNT") r0=$(counter "$MNT" dir_rereads)
out=$(python3 - "$M/rr" <<'PY'
import os, sys
d = sys.argv[1]
with os.scandir(d) as it:
    next(it)
n1 = os.listdir(d)
open(os.path.join(d, "mine"), "w").close()
n2 = os.listdir(d)
print(len(n1), len(set(n1)), len(n2), "mine" in n2)
PY
)
assert_eq "20 20 21 True" "$out" "names listed: again at once, then after a create of the same process"
assert_eq 1 "$(($(counter "$MNT" dir_rereads) - r0))" "first parts read again from the reply kept"
assert_eq 2 "$(($(parts "$MNT") - c0))" "calls: the first listing, and the one after the create"
# Right after, another client's new name, listed by another process.
python3 - "$M/rr" "$S/rr/other" <<'PY' || fail "a name another client made, listed at once by another process"
import os, subprocess, sys
d, other = sys.argv[1], sys.argv[2]
with os.scandir(d) as it:
    next(it)
open(other, "w").close()
sys.exit(0 if "other" in subprocess.run(["ls", d], capture_output=True, text=True).stdout.split() else 1)
PY
# A process that polls the directory sees another client's new name
# within the half second, however often it lists.
python3 - "$M/rr" "$S/rr/polled" <<'PY' || fail "a process listing a directory over and over never saw another client's new name"
import os, sys, time
d, new = sys.argv[1], sys.argv[2]
os.listdir(d)
open(new, "w").close()
end = time.monotonic() + 3
while time.monotonic() < end:
    if "polled" in os.listdir(d):
        sys.exit(0)
    time.sleep(0.05)
sys.exit(1)
PY
umount_nfsfuse "$MNT"

# --- NFSv4.1 ------------------------------------------------------------------
fill_big
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -o vers=4.1
whole_listing "$MNT" "NFSv4.1"
umount_nfsfuse "$MNT"
rm -rf "$S"
