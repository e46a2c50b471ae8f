#!/usr/bin/env bash
# Monitoring: `nfsfusectl MNT iostat 1 3` prints three reports whose
# operation counts add up to the daemon's counters, with I/O in between;
# `stats --prometheus` parses with a real Prometheus text parser and
# carries the same counters as `stats --json`; `nfsfusectl list` shows
# the mount with its server, version and options.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
# Debian's python3-prometheus-client lives in the system interpreter.
PY=/usr/bin/python3
$PY -c 'import prometheus_client.parser' 2>/dev/null ||
	skip "python3-prometheus-client is not installed (contrib/install-deps.sh)"

T=$(make_testdir monitor)
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -o rsize=65536,wsize=65536
work=$(tmpdir_new)

# ---- iostat 1 3 with I/O during the second interval.
reports() { grep -cE ' mounted on .*(report|interval) [0-9]+ of 3:' "$1" 2>/dev/null || true; }
# A report is whole once the blank line after it is out.
first_report_out() { grep -q '^$' "$1"; }
ok=0
for interval in 1 3 10; do
	out=$work/iostat.$interval
	"$NFSFUSECTL" "$MNT" iostat "$interval" 3 >"$out" 2>&1 &
	pid=$!
	wait_until 30 first_report_out "$out" || fail "iostat printed no first report: $(cat "$out")"
	dd if=/dev/urandom of="$MNT/$T/data" bs=64k count=16 status=none
	"$NFSFUSECTL" "$MNT" drop >/dev/null
	cat "$MNT/$T/data" >/dev/null
	ls -l "$MNT/$T" >/dev/null
	# The I/O must end before the last reading for the sums to hold; on
	# a machine too slow for that, try again with a longer interval.
	done_before_last=$(( $(reports "$out") < 3 ))
	wait "$pid" || fail "iostat failed: $(cat "$out")"
	if [[ $done_before_last -eq 1 ]]; then
		ok=1
		break
	fi
	note "the I/O outlasted a ${interval} s iostat; trying a longer interval"
done
[[ $ok -eq 1 ]] || fail "the I/O never fitted in an iostat run"
cat "$out" >&2
assert_eq 3 "$(reports "$out")" "iostat 1 3 prints three reports"
"$NFSFUSECTL" "$MNT" stats --json >"$work/after.json"

$PY - "$out" "$work/after.json" <<'PY' || fail "iostat's counts do not add up to the stats counters"
import json, sys
reports, cur = [], None
for line in open(sys.argv[1]):
    f = line.split()
    if " mounted on " in line:
        cur = {}
        reports.append(cur)
    elif cur is not None and f and f[0] != "op" and len(f) >= 9:
        cur[f[0]] = (int(f[1]), f)
stats = json.load(open(sys.argv[2]))["rpc"]
assert len(reports) == 3, reports
bad = []
for proc, st in stats.items():
    total = sum(r.get(proc, (0,))[0] for r in reports)
    if total != st["calls"]:
        bad.append("%s: iostat %d, stats %d" % (proc, total, st["calls"]))
for r in reports:
    s = sum(v[0] for k, v in r.items() if k != "total")
    if s != r["total"][0]:
        bad.append("total line %d != sum %d" % (r["total"][0], s))
# The I/O happened after the first report: WRITE and READ show up later.
later = reports[1:]
for proc in ("WRITE", "READ"):
    if sum(r.get(proc, (0,))[0] for r in later) == 0:
        bad.append("no %s in the intervals after the first" % proc)
    if reports[0].get(proc, (0,))[0] != 0:
        bad.append("%s in the first report, before any I/O" % proc)
# 1 MiB written in 64 KiB WRITEs: about 64 KiB per operation.
for r in later:
    if r.get("WRITE", (0,))[0]:
        kbop = float(r["WRITE"][1][4])
        if not 64 <= kbop < 70:
            bad.append("WRITE kB/op %s, expected about 64" % kbop)
if bad:
    print("\n".join(bad), file=sys.stderr)
    sys.exit(1)
PY

# A bad interval is a usage error, not a crash.
rc=0; "$NFSFUSECTL" "$MNT" iostat 0 >/dev/null 2>&1 || rc=$?
assert_eq 2 "$rc" "iostat 0 is bad usage"

# ---- Prometheus text: parsed by prometheus_client, equal to the JSON.
"$NFSFUSECTL" "$MNT" stats --prometheus >"$work/prom.txt" || fail "stats --prometheus failed"
"$NFSFUSECTL" "$MNT" stats --json >"$work/stats.json"
$PY - "$work/prom.txt" "$work/stats.json" "$(realpath "$MNT")" "$SERVER" "$EXPORT" <<'PY' || fail "Prometheus output differs from the JSON counters"
import json, sys
from prometheus_client.parser import text_string_to_metric_families
text = open(sys.argv[1]).read()
js = json.load(open(sys.argv[2]))
mnt, server, export = sys.argv[3:6]
fields = {"calls": "calls", "retransmissions": "retrans", "errors": "errors",
          "sent_bytes": "bytes_sent", "received_bytes": "bytes_recv"}
seen, bad = set(), []
for fam in text_string_to_metric_families(text):
    for s in fam.samples:
        lab = s.labels
        if (lab.get("mountpoint"), lab.get("server"), lab.get("export")) != (mnt, server, export):
            bad.append("labels of %s: %s" % (s.name, lab))
        seen.add(s.name)
        name = s.name
        if name.startswith("nfsfuse_rpc_") and "procedure" in lab:
            if fam.type != "counter":
                bad.append("%s is a %s" % (name, fam.type))
            table = js["rpc"] if lab["program"] == "nfs" else js[lab["program"]]
            st = table[lab["procedure"]]
            key = name[len("nfsfuse_rpc_"):-len("_total")]
            if key in fields:
                want = st[fields[key]]
            elif key == "rtt_seconds":
                want = st["rtt_us_total"] / 1e6
            elif key == "execute_seconds":
                want = st["exe_us_total"] / 1e6
            else:
                bad.append("unknown metric " + name); continue
            if abs(s.value - want) > 1e-6:
                bad.append("%s %s: %s != %s" % (name, lab, s.value, want))
        elif name.startswith("nfsfuse_cache_"):
            key = name[len("nfsfuse_cache_"):-len("_total")]
            if s.value != js["cache"][key]:
                bad.append("%s: %s != %s" % (name, s.value, js["cache"][key]))
        elif name == "nfsfuse_rpc_dropped_replies_total":
            if s.value != js["dropped_replies"]:
                bad.append(name)
        elif fam.type == "unknown":
            key = name[len("nfsfuse_"):]
            if s.value != js[key]:
                bad.append("%s: %s != %s" % (name, s.value, js[key]))
for need in ["nfsfuse_rpc_calls_total", "nfsfuse_rpc_rtt_seconds_total",
             "nfsfuse_rpc_execute_seconds_total", "nfsfuse_mount_age_seconds",
             "nfsfuse_cache_attr_hits_total", "nfsfuse_cache_data_hits_total"]:
    if need not in seen:
        bad.append("missing " + need)
# Every JSON counter has its Prometheus sample.
for proc, st in js["rpc"].items():
    if st["calls"] and "nfsfuse_rpc_calls_total" not in seen:
        bad.append("no calls sample")
for key in js["cache"]:
    if "nfsfuse_cache_%s_total" % key not in seen:
        bad.append("cache counter %s missing" % key)
if js["rpc"]["WRITE"]["calls"] == 0:
    bad.append("no WRITE counted: the comparison proves little")
if bad:
    print("\n".join(bad), file=sys.stderr)
    sys.exit(1)
PY

# ---- list: every nfsfuse mount, with its server, version and options.
MNT2=$(new_mountpoint)
mount_nfsfuse "$MNT2" -o nolock,rsize=32768,actimeo=7
list=$("$NFSFUSECTL" list) || fail "nfsfusectl list failed"
printf '%s\n' "$list" >&2
assert_contains "$list" "$(realpath "$MNT") from $SERVER:$EXPORT" "list names the first mount"
assert_contains "$list" "$(realpath "$MNT2") from $SERVER:$EXPORT" "list names the second mount"
flags2=$(printf '%s\n' "$list" | grep -A2 "^$(realpath "$MNT2") from" | grep 'Flags:')
assert_contains "$flags2" "vers=3" "the version in effect"
assert_contains "$flags2" "rsize=32768" "the second mount's rsize"
assert_contains "$flags2" "nolock" "the second mount's nolock"
assert_contains "$flags2" "acregmin=7" "actimeo in effect"
assert_contains "$(printf '%s\n' "$list" | grep -A1 "^$(realpath "$MNT") from")" "NFSv3" "the version line"
umount_nfsfuse "$MNT2"
assert_not_contains() { [[ $1 != *"$2"* ]] || fail "$3: '$2' in '$1'"; }
assert_not_contains "$("$NFSFUSECTL" list)" "$(realpath "$MNT2") from" "an unmounted mount is not listed"
echo "PASS: monitor"
