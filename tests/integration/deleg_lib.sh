# shellcheck shell=bash
# Helpers shared by the tests that run the client through the test-only
# delegation proxy, tests/deleg/nfs4_delegproxy (sourced after lib.sh):
# the proxy started in front of the server's NFS port and stopped, its
# counters and log, and what a mount says of its delegations.

DELEGPROXY=${DELEGPROXY_BIN:-$_B/tests/nfs4_delegproxy}
[[ -x $DELEGPROXY ]] || skip "nfs4_delegproxy not built ($DELEGPROXY); set DELEGPROXY_BIN"

DP_LOG=$NFSFUSE_TMP/delegproxy.log
DP_STATS=$NFSFUSE_TMP/delegproxy.stats

# start_delegproxy [PROXY OPTION...]: the proxy on a free port (DP_PORT).
start_delegproxy() {
	local ready=$NFSFUSE_TMP/delegproxy.ready
	"$DELEGPROXY" --to 127.0.0.1:2049 --ready-file "$ready" \
		--stats-file "$DP_STATS" "$@" </dev/null >/dev/null 2>>"$DP_LOG" &
	DP_PID=$!
	register_pid "$DP_PID"
	wait_until 10 test -s "$ready" || {
		cat "$DP_LOG" >&2
		fail "nfs4_delegproxy did not start"
	}
	DP_PORT=$(cat "$ready")
	[[ $DP_PORT =~ ^[0-9]+$ ]] || fail "nfs4_delegproxy wrote no port: '$DP_PORT'"
	note "delegation proxy on port $DP_PORT${*:+ ($*)}"
}

stop_delegproxy() {
	kill -TERM "$DP_PID" 2>/dev/null || true
	wait_until 10 _pid_gone "$DP_PID" || kill -KILL "$DP_PID" 2>/dev/null || true
	wait "$DP_PID" 2>/dev/null || true
}

# dp_stat NAME: one of the proxy's counters.
dp_stat() { awk -v k="$1" '$1 == k { print $2 }' "$DP_STATS"; }
dp_stat_is() { [[ $(dp_stat "$1") == "$2" ]]; }
dp_stat_ge() { [[ $(dp_stat "$1") -ge $2 ]]; }
# dp_fail MSG: a failure, with what the proxy said and the line of the
# test that failed (fail itself names this function's).
dp_fail() {
	local n=${#BASH_LINENO[@]}
	note "--- proxy log:"
	sed 's/^/#   /' "$DP_LOG" >&2
	fail "$* (at line ${BASH_LINENO[n - 2]})"
}
dp_expect() { # NAME VALUE WHY
	local got
	got=$(dp_stat "$1")
	[[ $got == "$2" ]] || dp_fail "$3: proxy counter $1 is '$got', expected '$2'"
}
# dp_sessions: sessions the proxy has seen made (one per mount).
dp_sessions() { grep -c '^session ' "$DP_LOG"; }

# deleg_state MNT PATH: "read", "write" or "none", from `nfsfusectl cache`.
deleg_state() {
	"$NFSFUSECTL" "$1" cache "$2" |
		awk '$1 == "delegation:" { sub(/,$/, "", $2); print $2; exit }'
}
expect_deleg() { # MNT PATH STATE WHY
	local got
	got=$(deleg_state "$1" "$2")
	[[ $got == "$3" ]] || dp_fail "$4: nfsfusectl cache says delegation '$got', expected '$3'"
}
