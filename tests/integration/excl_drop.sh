#!/usr/bin/env bash
# O_EXCL creates and mkdirs whose replies are lost once each still succeed,
# not EEXIST.
#
# The proxy loses the first reply of about half of the CREATE (or MKDIR)
# calls.  A retransmission on the same TCP connection would be answered by
# ganesha's duplicate request cache (DRC), which would hide whether the
# create itself copes with being executed twice.  So for CREATE the proxy
# also closes the connection after the lost reply (--drop-reply-once-cut):
# the client reconnects and resends with the same XID, and the proxy
# carries that over a new upstream connection from a new port, where the
# DRC cannot match it: the server executes the CREATE a second time.
#
#  1. -o excl=exclusive (the default): NFSv3 EXCLUSIVE with a per-call
#     verifier; the re-executed create finds the file with our verifier and
#     succeeds.  All 200 creates must succeed.
#  2. -o excl=guarded, same faults: the re-executed GUARDED create finds
#     the file the first execution made and says NFS3ERR_EXIST.  At least
#     one create must fail with EEXIST -- proof that the faults really
#     reach the server twice, and that EXCLUSIVE is what saves case 1.
#  3. mkdir: NFSv3 MKDIR has no verifier, so a re-executed MKDIR can only
#     say EEXIST and the client cannot tell its own directory from someone
#     else's (the Linux client cannot either).  What makes mkdir safe is
#     the DRC, so here the reply is lost but the connection is not cut
#     (--drop-reply-once): the retransmission after timeo reaches the
#     server on the same connection and port, the DRC answers it with the
#     cached reply, and all 200 mkdirs must succeed.
#
# MOUNT goes straight to the server (mountport=); only NFS crosses the
# proxy.  timeo=10 (1 s): the cut case resends at once on reconnection;
# the mkdir case waits out one timeo per lost reply, so its mkdirs run in
# 8 threads, each in a directory of its own (the kernel serialises
# creates in one directory under the parent's inode lock).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
ensure_server
need_nfsfuse
need_proxy
need_cmd python3

N=200
NFS3_CREATE=8
NFS3_MKDIR=9

# excl_creates DIR N THREADS WHAT: O_CREAT|O_EXCL creates (WHAT create) or
# mkdirs (mkdir) of DIR/tK/fI, I = 0..N-1, thread K = I % THREADS doing
# its share in DIR/tK; prints "ok=A eexist=B other=C", errors on stderr.
excl_creates() {
	with_timeout 60 python3 - "$@" <<'EOF'
import errno, os, sys, threading
d, n, threads, what = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
res = {"ok": 0, "eexist": 0, "other": 0}
lock = threading.Lock()
def work(k):
    for i in range(k, n, threads):
        p = os.path.join(d, "t%d" % k, "f%d" % i)
        try:
            if what == "create":
                os.close(os.open(p, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
            else:
                os.mkdir(p, 0o755)
            r = "ok"
        except OSError as e:
            r = "eexist" if e.errno == errno.EEXIST else "other"
            print("%s t%d/f%d: %s" % (what, k, i, os.strerror(e.errno)), file=sys.stderr)
        with lock:
            res[r] += 1
ts = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
for t in ts: t.start()
for t in ts: t.join()
print("ok=%(ok)d eexist=%(eexist)d other=%(other)d" % res)
EOF
}

# phase NAME EXCL WHAT THREADS PROXY-ARGS...: one proxy, one mount, N
# creates (WHAT: create or mkdir) in a fresh directory.  Sets RES (the
# counts), SUMMARY (the proxy's) and DROPS, CUTS.
phase() {
	local name=$1 excl=$2 what=$3 threads=$4 mnt dir
	shift 4
	dir=$(make_testdir "excl_drop_$name")
	# The per-thread directories, made on the server: no faults there.
	for ((k = 0; k < threads; k++)); do mkdir -m 1777 "$EXPORT_DIR/$dir/t$k"; done
	mnt=$(new_mountpoint)
	start_proxy "$name" --seed 7 "$@"
	mount_nfsfuse "$mnt" -o "port=$PROXY_PORT,mountport=$MOUNT_PORT,nolock,timeo=10,excl=$excl"
	RES=$(excl_creates "$mnt/$dir" "$N" "$threads" "$what" 2>"$NFSFUSE_TMP/$name.err") ||
		fail "$name: the creates did not finish: $(tail -n 5 "$NFSFUSE_TMP/$name.err")"
	umount_nfsfuse "$mnt"
	stop_proxy
	SUMMARY=$(proxy_summary)
	[[ $SUMMARY =~ drop-once=([0-9]+)\ cut-once=([0-9]+) ]] ||
		fail "$name: no drop-once counters in the proxy's summary: $SUMMARY"
	DROPS=${BASH_REMATCH[1]} CUTS=${BASH_REMATCH[2]}
	# What the server has: the names that were asked for, no more.
	PRESENT=$(find "$EXPORT_DIR/$dir" -mindepth 2 -maxdepth 2 -name 'f*' | wc -l)
	note "$name ($what, excl=$excl): $RES; server has $PRESENT; proxy: $DROPS replies dropped, $CUTS connections cut"
	if [[ -s $NFSFUSE_TMP/$name.err ]]; then
		note "$name: first errors: $(head -n 3 "$NFSFUSE_TMP/$name.err" | tr '\n' ';')"
	fi
}

t0=$SECONDS

# 1. EXCLUSIVE: every create succeeds although half were executed twice.
phase exclusive exclusive create 1 --drop-reply-once-cut 50 --once-procs "$NFS3_CREATE"
assert_eq "ok=$N eexist=0 other=0" "$RES" "O_EXCL creates with lost replies (EXCLUSIVE)"
assert_eq "$N" "$PRESENT" "files on the server"
((DROPS >= N / 4 && CUTS == DROPS)) ||
	fail "exclusive: too few faults to mean anything: $DROPS drops, $CUTS cuts"
ex_drops=$DROPS

# 2. GUARDED under the same faults: the re-executed creates say EEXIST.
phase guarded guarded create 1 --drop-reply-once-cut 50 --once-procs "$NFS3_CREATE"
[[ $RES =~ ^ok=([0-9]+)\ eexist=([0-9]+)\ other=([0-9]+)$ ]] || fail "guarded: bad result '$RES'"
g_ok=${BASH_REMATCH[1]} g_eexist=${BASH_REMATCH[2]} g_other=${BASH_REMATCH[3]}
assert_eq 0 "$g_other" "guarded: errors other than EEXIST"
((DROPS >= N / 4)) || fail "guarded: too few faults to mean anything: $DROPS drops"
((g_eexist >= 1)) ||
	fail "guarded: no create failed with EEXIST after $DROPS lost replies and cuts: the faults did not make the server execute a CREATE twice, so case 1 proves nothing"
assert_eq "$N" "$PRESENT" "guarded: files on the server (a failed create's file exists too)"
g_drops=$DROPS

# 3. mkdir, reply lost but connection kept: the DRC answers the resend.
phase mkdir exclusive mkdir 8 --drop-reply-once 50 --once-procs "$NFS3_MKDIR"
assert_eq "ok=$N eexist=0 other=0" "$RES" "mkdirs with lost replies (DRC)"
assert_eq "$N" "$PRESENT" "directories on the server"
((DROPS >= N / 4 && CUTS == 0)) ||
	fail "mkdir: unexpected fault counts: $DROPS drops, $CUTS cuts"
m_drops=$DROPS

echo "PASS: in $((SECONDS - t0)) s: $N O_EXCL creates with $ex_drops lost replies + cuts all succeeded (EXCLUSIVE);" \
	"with excl=guarded $g_drops lost replies + cuts gave $g_eexist EEXIST ($g_ok ok);" \
	"$N mkdirs with $m_drops lost replies (DRC) all succeeded"
