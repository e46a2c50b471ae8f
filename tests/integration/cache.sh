#!/usr/bin/env bash
# The cache rules, proved by the daemon's own RPC counters: attribute
# timeouts, close-to-open between two clients, sole-writer wcc, ls -l by
# READDIRPLUS alone, the data cache's size cap, and every nfsfusectl
# subcommand including the trace of a purge.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"
need_cmd python3

T=$(make_testdir cache)
S=$EXPORT_DIR/$T
A=$(new_mountpoint)
B=$(new_mountpoint)
mount_nfsfuse "$A" -o hostname=clientA
mount_nfsfuse "$B" -o hostname=clientB

# --- attribute timeout --------------------------------------------------
echo data >"$S/attr"
touch -d '-1 hour' "$S/attr"          # not "recent" for time_delta
# The directories on the path too (their ctime moved just now): the
# kernel refreshes a directory it does not believe before checking search
# permission on it, a GETATTR this check does not count.
sleep 1.1
# Within the timeout no stat asks the server: a timeout of 60 s, which no
# load on the machine can make five stats outlast.
L=$(new_mountpoint)
mount_nfsfuse "$L" -o acregmin=60,acregmax=60
stat "$L/$T/attr" >/dev/null
g0=$(calls "$L" GETATTR)
for _ in 1 2 3 4 5; do stat "$L/$T/attr" >/dev/null; done
assert_eq "$g0" "$(calls "$L" GETATTR)" "stat within acregmin costs no GETATTR"
umount_nfsfuse "$L"
# The default acregmin, 3 s: once the timeout has passed, one GETATTR.
# (That the same stat a moment earlier asks nothing is checked only when
# the moment really was shorter than 3 s.)
t0=$(date +%s%N)
stat "$A/$T/attr" >/dev/null
g0=$(calls "$A" GETATTR)
stat "$A/$T/attr" >/dev/null
g1=$(calls "$A" GETATTR)
quick=$(($(date +%s%N) - t0 < 2500000000))
if ((quick)); then
	assert_eq "$g0" "$g1" "stat within the default acregmin costs no GETATTR"
fi
# The timeout is acregmin, doubled by every revalidation that found the
# file unchanged (as in the Linux client): on a loaded machine the stats
# above can be such revalidations, so the daemon says which it is now.
# Asking it stats the file too, which may cost a GETATTR of its own.
info=$("$NFSFUSECTL" "$A" cache "$A/$T/attr")
g2=$(calls "$A" GETATTR)
timeo=$(sed -n 's/.*; timeout \([0-9.]*\) s .*/\1/p' <<<"$info")
case $timeo in
3.0 | 6.0 | 12.0 | 24.0 | 48.0 | 60.0) ;;
*) fail "attribute timeout '$timeo' is not acregmin doubled: $info" ;;
esac
if ((quick && g2 == g0)); then
	assert_eq 3.0 "$timeo" "the first timeout of an unchanged file is acregmin"
fi
left=$(sed -n 's/^attributes believed for \([0-9.]*\) s more$/\1/p' <<<"$info")
[[ -n $left ]] && sleep "$(python3 -c "print($left + 0.5)")"
stat "$A/$T/attr" >/dev/null
assert_eq $((g2 + 1)) "$(calls "$A" GETATTR)" "stat after the attribute timeout costs one GETATTR"

N=$(new_mountpoint)
mount_nfsfuse "$N" -o noac
stat "$N/$T/attr" >/dev/null
g0=$(calls "$N" GETATTR)
for _ in 1 2 3 4 5; do stat "$N/$T/attr" >/dev/null; done
# One for the file, and one for each directory walked (the mount's root
# and $T): the kernel checks search permission on each from its mode, which
# noac never lets it believe (the kernel NFS client revalidates them too).
assert_eq $((g0 + 5 * 3)) "$(calls "$N" GETATTR)" "with noac every stat costs one GETATTR per name on the path"
umount_nfsfuse "$N"

# --- close-to-open: A writes and closes, B's next open sees it all ------
python3 - "$A/$T/cto" "$B/$T/cto" <<'PY' || fail "close-to-open"
import os, random, sys
a, b = sys.argv[1], sys.argv[2]
rnd = random.Random(7)
for i in range(200):
    data = os.urandom(rnd.choice([0, 1, 100, 4095, 4096, 4097, 65536, 200000]))
    with open(a, "wb") as f:
        f.write(data)
    with open(b, "rb") as f:
        got = f.read()
    if got != data:
        sys.exit(f"round {i}: B read {len(got)} bytes, A wrote {len(data)}")
PY

# --- an open file may be stale until its timeout, and no longer ---------
echo one >"$A/$T/open"
exec 7<"$B/$T/open"
read -r first <&7
assert_eq one "$first" "B opened the file"
echo two >"$A/$T/open"
# B keeps the descriptor: it may serve cached data until acregmin ends...
sleep 4
exec 7<&-
assert_eq two "$(cat "$B/$T/open")" "B's next open after the timeout sees the change"

# --- sole writer: wcc keeps A's cache across its own appends ------------
: >"$A/$T/log"
for i in $(seq 1 100); do echo "line $i" >>"$A/$T/log"; done
cat "$A/$T/log" >/dev/null
r0=$(calls "$A" READ)
k0=$(counter "$A" cto_keep)
assert_eq "$(seq 1 100 | sed 's/^/line /')" "$(cat "$A/$T/log")" "A re-reads its own appends"
assert_eq "$r0" "$(calls "$A" READ)" "re-reading after 100 appends costs no READ"
(( $(counter "$A" cto_keep) > k0 )) || fail "open did not keep the cache"
(( $(counter "$A" wcc_kept) > 0 )) || fail "no wcc reply was found to be ours"
# Another client writes: A's next open purges and reads again.
echo "from B" >>"$B/$T/log"
p0=$(counter "$A" purge_cto)
assert_eq "from B" "$(tail -n1 "$A/$T/log")" "A sees B's append"
(( $(calls "$A" READ) > r0 )) || fail "A did not READ after B's write"
(( $(counter "$A" purge_cto) > p0 )) || fail "A's open did not purge"

# --- ls -l of 5,000 entries: READDIRPLUS only ----------------------------
mkdir "$S/big"
(cd "$S/big" && seq 1 5000 | sed 's/^/f/' | xargs touch -d '-1 hour')
C=$(new_mountpoint)
mount_nfsfuse "$C"
ls "$C/$T" >/dev/null                 # the directory itself
g0=$(calls "$C" GETATTR); l0=$(calls "$C" LOOKUP); d0=$(calls "$C" READDIRPLUS)
assert_eq 5000 "$(ls -l "$C/$T/big" | grep -c '^-')" "ls -l lists 5,000 files"
note "ls -l: $(( $(calls "$C" READDIRPLUS) - d0 )) READDIRPLUS, $(( $(calls "$C" GETATTR) - g0 )) GETATTR, $(( $(calls "$C" LOOKUP) - l0 )) LOOKUP"
(( $(calls "$C" READDIRPLUS) > d0 )) || fail "no READDIRPLUS"
assert_eq "$g0" "$(calls "$C" GETATTR)" "ls -l costs no GETATTR"
assert_eq "$l0" "$(calls "$C" LOOKUP)" "ls -l costs no LOOKUP"
umount_nfsfuse "$C"

# --- the data cache stays under its cap ----------------------------------
# Written bytes stay in the cache, up to the first 16 MiB of a file written
# in sequence (a sequential reader's read-ahead blocks go as it reads them:
# see read_ahead.sh), so eight files of 8 MiB written fill it.
head -c $((64 << 20)) /dev/urandom >"$NFSFUSE_TMP/huge"
D=$(new_mountpoint)
mount_nfsfuse "$D" -o cache_size=16M
pid=$(nfsfuse_pids "$D" | head -n1)
for i in 0 1 2 3 4 5 6 7; do
	dd if="$NFSFUSE_TMP/huge" of="$D/$T/part$i" bs=1M skip=$((i * 8)) count=8 status=none ||
		fail "writing 8 MiB to part$i"
done
cat "$S"/part0 "$S"/part1 "$S"/part2 "$S"/part3 "$S"/part4 "$S"/part5 "$S"/part6 "$S"/part7 |
	cmp - "$NFSFUSE_TMP/huge" || fail "the server's copy of the 64 MiB written differs"
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
cached=$("$NFSFUSECTL" "$D" stats --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["data_cache_bytes"])')
note "writing 8 x 8 MiB with cache_size=16M: daemon RSS ${rss} KiB, cache ${cached} bytes"
(( cached <= 16 << 20 )) || fail "data cache holds $cached bytes, over its 16 MiB cap"
# AddressSanitizer keeps freed memory in quarantine and maps shadow memory:
# under it RSS says nothing about the cache, so only the cache's own count
# is checked there.
if ldd "$NFSFUSE" 2>/dev/null | grep libasan >/dev/null; then
	note "daemon built with ASan: RSS bound not checked"
else
	(( rss < (16 + 48) * 1024 )) || fail "daemon RSS ${rss} KiB exceeds the cap plus 48 MiB"
fi
(( $(counter "$D" evictions) > 0 )) || fail "nothing was evicted"
umount_nfsfuse "$D"

# --- nfsfusectl: cache, set, drop, trace ----------------------------------
out=$("$NFSFUSECTL" "$A" cache "$A/$T/log")
assert_contains "$out" "fileid $(stat -c %i "$S/log")" "cache names the file"
assert_contains "$out" "attributes:" "cache describes the attributes"
assert_contains "$out" "data:" "cache describes the data"
"$NFSFUSECTL" "$A" set acregmin=1 acregmax=2 || fail "set"
assert_eq 1 "$("$NFSFUSECTL" "$A" stats --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["acregmin"])')" "set acregmin"
expect_fail_with "unknown" "$NFSFUSECTL" "$A" set bogus=1
# A symlink names itself, not the file it points to.
ln -s log "$S/loglink"
out=$("$NFSFUSECTL" "$A" cache "$A/$T/loglink")
assert_contains "$out" "fileid $(stat -c %i "$S/loglink")" "cache names the symlink, not its target"
"$NFSFUSECTL" "$A" drop "$A/$T/loglink" || fail "drop of a symlink"
assert_eq log "$(readlink "$A/$T/loglink")" "the symlink read after its drop"
d0=$(counter "$A" purge_drop)
"$NFSFUSECTL" "$A" drop "$A/$T/log" || fail "drop PATH"
"$NFSFUSECTL" "$A" drop || fail "drop"
(( $(counter "$A" purge_drop) > d0 )) || fail "drop purged nothing"

TR=$(tmpdir_new)/trace
"$NFSFUSECTL" "$A" trace >"$TR" 2>&1 &
tpid=$!
on_exit bash -c "kill $tpid 2>/dev/null || true"
# The subscription is live once a GETATTR of ours shows in it.
traced_getattr() {
	"$NFSFUSECTL" "$A" drop "$A/$T/cto" >/dev/null 2>&1
	stat "$A/$T/cto" >/dev/null
	grep -q "rpc GETATTR" "$TR"
}
wait_until 60 traced_getattr || fail "no RPC lines in the trace: $(head -c 600 "$TR")"
cat "$A/$T/cto" >/dev/null
echo "changed elsewhere" >"$S/cto"
touch -d '+1 second' "$S/cto"
cat "$A/$T/cto" >/dev/null
# The open's revalidation found the change: the purge is traced.
wait_until 60 grep -q "open cto: .*purge" "$TR" ||
	fail "no purge of cto at open in the trace: $(head -c 600 "$TR")"
kill "$tpid" 2>/dev/null || true
wait "$tpid" 2>/dev/null || true
note "trace: $(grep -m1 purge "$TR" || true)"

umount_nfsfuse "$A"
umount_nfsfuse "$B"
echo "PASS: cache"
