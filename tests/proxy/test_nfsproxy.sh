#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Self-test of nfsproxy against a tiny echo RPC server (rpc_echo_server.py).
# Exit 0 on pass, 1 on failure, 77 to skip.
#
# NFSPROXY=path uses a built binary; otherwise the proxy is compiled here
# with $CC (default cc) and the project's warning flags, plus
# $NFSPROXY_CFLAGS, e.g. NFSPROXY_CFLAGS=-fsanitize=address,undefined.
# KEEP=1 keeps the proxy logs for a look afterwards.
# Test functions are called through "$t", which shellcheck cannot follow.
# shellcheck disable=SC2317
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ECHO="$HERE/rpc_echo_server.py"

skip() { echo "SKIP: $*"; exit 77; }

command -v python3 >/dev/null || skip "python3 not found"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/nfsproxy-test.XXXXXX") || exit 1
PIDS=()
cleanup() {
	local pid
	for pid in "${PIDS[@]}"; do
		kill "$pid" 2>/dev/null
	done
	wait 2>/dev/null
	if [ -n "${KEEP:-}" ]; then
		echo "logs kept in $TMP"
	else
		rm -rf "$TMP"
	fi
}
trap cleanup EXIT

if [ -z "${NFSPROXY:-}" ]; then
	CC=${CC:-cc}
	command -v "$CC" >/dev/null || skip "no C compiler ($CC) and no NFSPROXY"
	NFSPROXY="$TMP/nfsproxy"
	# shellcheck disable=SC2086
	"$CC" -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Wshadow \
		-Wstrict-prototypes -Wmissing-prototypes -Werror \
		${NFSPROXY_CFLAGS:-} -o "$NFSPROXY" \
		"$HERE"/nfsproxy.c "$HERE"/options.c "$HERE"/fault.c \
		"$HERE"/flow.c "$HERE"/control.c -lm || { echo "FAIL: build"; exit 1; }
fi
[ -x "$NFSPROXY" ] || { echo "FAIL: $NFSPROXY not executable"; exit 1; }

FAILS=0
fail() { echo "  FAIL: $*"; FAILS=$((FAILS + 1)); }

# Every wait is for a state, bounded generously (60 s): a loaded machine
# may be slow, and a test must not fail for that.
wait_file() {
	local i
	for i in $(seq 1200); do
		[ -s "$1" ] && return 0
		sleep 0.05
	done
	return 1
}

python3 "$ECHO" serve --port-file "$TMP/server.port" &
PIDS+=("$!")
wait_file "$TMP/server.port" || { echo "FAIL: echo server did not start"; exit 1; }
SERVER=$(cat "$TMP/server.port")

# start_proxy NAME ARGS...: sets PROXY_PID and PORT; log in $TMP/NAME.log.
start_proxy() {
	local name=$1
	shift
	rm -f "$TMP/$name.ready"
	"$NFSPROXY" --listen 0 --to "127.0.0.1:$SERVER" --log "$TMP/$name.log" \
		--ready-file "$TMP/$name.ready" "$@" &
	PROXY_PID=$!
	PIDS+=("$PROXY_PID")
	if ! wait_file "$TMP/$name.ready"; then
		fail "$name: proxy did not start"
		PORT=0
		return 1
	fi
	PORT=$(cat "$TMP/$name.ready")
}

# stop_proxy NAME: SIGTERM, a clean exit status and a summary line.
stop_proxy() {
	local rc
	kill -TERM "$PROXY_PID"
	wait "$PROXY_PID"
	rc=$?
	[ "$rc" -eq 0 ] || fail "$1: proxy exit status $rc"
	grep -q '^summary calls=' "$TMP/$1.log" || fail "$1: no summary line"
}

client() { python3 "$ECHO" client --port "$PORT" "$@"; }
ctl() { python3 "$ECHO" ctl "$TMP/ctl.sock" "$1"; }

# expect NAME OUTPUT KEY=VALUE...: each pair must appear in the output.
expect() {
	local name=$1 out=$2 kv
	shift 2
	for kv in "$@"; do
		case " $out " in
		*" $kv "*) ;;
		*) fail "$name: want $kv, got: $out"; return 1 ;;
		esac
	done
}

count_log() { grep -c -- "$2" "$TMP/$1.log"; }

# wait_log NAME PATTERN N: until the proxy has logged N such lines (it logs
# as it forwards, which may trail the client); true when it has.
wait_log() {
	local i
	for i in $(seq 1200); do
		[ "$(count_log "$1" "$2")" -ge "$3" ] && return 0
		sleep 0.05
	done
	return 1
}

t_plain() {
	local proto=$1 name="plain_$1" out
	start_proxy "$name" --proto "$proto" || return
	out=$(client --proto "$proto" --count 20 --expect 20 --idle 0.5 --frag 7)
	expect "$name" "$out" sent=20 got=20 distinct=20 bad=0 short=0
	stop_proxy "$name"
}

t_drop_calls() {
	local proto=$1 name="drop_calls_$1" out
	start_proxy "$name" --proto "$proto" --drop-calls 100 || return
	out=$(client --proto "$proto" --count 5 --idle 1)
	expect "$name" "$out" got=0
	wait_log "$name" '^drop call xid=0x1000000' 5
	[ "$(count_log "$name" '^drop call xid=0x1000000')" -eq 5 ] ||
		fail "$name: expected 5 'drop call' lines"
	stop_proxy "$name"
}

t_dup_replies() {
	local proto=$1 name="dup_replies_$1" out
	start_proxy "$name" --proto "$proto" --dup-replies 100 || return
	out=$(client --proto "$proto" --count 8 --expect 16 --idle 0.5)
	expect "$name" "$out" got=16 distinct=8 dupxids=8 bad=0
	stop_proxy "$name"
}

t_cut_every() {
	local name=cut_every out src
	start_proxy "$name" --cut-every 1 || return
	out=$(client --reconnect --count 4 --interval 0.7 --idle 3)
	expect "$name" "$out" sent=4 got=4 distinct=4 bad=0
	src=$(sed -n 's/.*src_port=\([0-9]*\).*/\1/p' <<<"$out")
	case "$out" in
	*" reconnects=0"*|"") fail "$name: client never reconnected: $out" ;;
	esac
	grep -q "^cut 127.0.0.1:$src\$" "$TMP/$name.log" ||
		fail "$name: no 'cut 127.0.0.1:$src' in the log"
	[ "$(count_log "$name" "^accept 127.0.0.1:$src\$")" -ge 2 ] ||
		fail "$name: fewer than 2 'accept 127.0.0.1:$src' lines"
	stop_proxy "$name"
	grep -q '^summary .* cuts=[1-9]' "$TMP/$name.log" ||
		fail "$name: summary counts no cut"
}

t_corrupt_truncate() {
	local name=corrupt_truncate out
	start_proxy "$name" --corrupt-replies 100 --corrupt-mode truncate \
		--seed 7 || return
	out=$(client --count 10 --expect 10 --idle 0.5)
	expect "$name" "$out" got=10 short=10 bad=0
	wait_log "$name" '^corrupt reply xid=.* mode=truncate' 10
	[ "$(count_log "$name" '^corrupt reply xid=.* mode=truncate')" -eq 10 ] ||
		fail "$name: expected 10 'corrupt reply' lines"
	stop_proxy "$name"
}

t_control() {
	local name=control out
	start_proxy "$name" --drop-calls 100 --control "$TMP/ctl.sock" || return
	out=$(client --count 3 --idle 0.5)
	expect "$name" "$out" got=0
	[ "$(ctl clear)" = ok ] || fail "$name: clear not ok"
	out=$(client --count 3 --expect 3 --idle 0.5)
	expect "$name" "$out" got=3 bad=0
	[ "$(ctl 'dup-replies 100')" = ok ] || fail "$name: dup-replies not ok"
	out=$(client --count 3 --expect 6 --idle 0.5)
	expect "$name" "$out" got=6 distinct=3
	[ "$(ctl 'drop-calls 101')" != ok ] || fail "$name: 101% accepted"
	[ "$(ctl 'nonsense 1')" != ok ] || fail "$name: unknown command accepted"
	[ "$(ctl cut-now)" = ok ] || fail "$name: cut-now not ok"
	[ "$(ctl 'blackhole 0.5')" = ok ] || fail "$name: blackhole not ok"
	grep -q '^blackhole start' "$TMP/$name.log" || fail "$name: no blackhole start"
	case "$(ctl stats)" in
	"calls="*) ;;
	*) fail "$name: stats" ;;
	esac
	stop_proxy "$name"
	[ ! -e "$TMP/ctl.sock" ] || fail "$name: control socket left behind"
}

# Hostile record marks close that connection; the proxy carries on.
t_malformed() {
	local name=malformed out
	start_proxy "$name" || return
	out=$(python3 "$ECHO" raw --port "$PORT" 7fffffff)
	[ "$out" = closed=1 ] || fail "$name: 2 GiB record mark: $out"
	out=$(python3 "$ECHO" raw --port "$PORT" 80000000)
	[ "$out" = closed=1 ] || fail "$name: empty record: $out"
	out=$(python3 "$ECHO" raw --port "$PORT" 0000000001020304ffffffff)
	[ "$out" = closed=1 ] || fail "$name: oversized second fragment: $out"
	out=$(client --count 3 --expect 3 --idle 0.5)
	expect "$name" "$out" got=3 bad=0
	[ "$(count_log "$name" '^close .* \(record over 16 MiB\|malformed record\) from client')" -eq 3 ] ||
		fail "$name: expected 3 malformed closes"
	stop_proxy "$name"
}

t_loopback_only() {
	"$NFSPROXY" --listen 0 --to 10.0.0.1:2049 2>/dev/null
	[ $? -eq 2 ] || fail "loopback_only: --to 10.0.0.1 accepted"
	"$NFSPROXY" --listen 192.168.1.1:0 --to 127.0.0.1:2049 2>/dev/null
	[ $? -eq 2 ] || fail "loopback_only: --listen 192.168.1.1 accepted"
	"$NFSPROXY" --listen 0 --to 127.0.0.1:2049 --drop-calls 150 2>/dev/null
	[ $? -eq 2 ] || fail "loopback_only: --drop-calls 150 accepted"
}

t_seed() {
	local name i out
	for i in 1 2; do
		name=seed_$i
		start_proxy "$name" --seed 42 --drop-calls 50 || return
		out=$(client --count 30 --idle 0.5)
		stop_proxy "$name"
		grep '^drop ' "$TMP/$name.log" >"$TMP/$name.drops"
	done
	[ -s "$TMP/seed_1.drops" ] || fail "seed: nothing dropped at 50%"
	cmp -s "$TMP/seed_1.drops" "$TMP/seed_2.drops" ||
		fail "seed: same seed, different drops"
}

# Each call is sent twice (same XID): the first reply of every XID is lost,
# the second goes through.
t_drop_reply_once() {
	local proto=$1 name="drop_reply_once_$1" out
	start_proxy "$name" --proto "$proto" --dup-calls 100 \
		--drop-reply-once 100 || return
	out=$(client --proto "$proto" --count 6 --expect 6 --idle 0.5)
	expect "$name" "$out" got=6 distinct=6 dupxids=0 bad=0
	wait_log "$name" '^drop-once reply xid=0x1000000' 6
	[ "$(count_log "$name" '^drop-once reply xid=0x1000000')" -eq 6 ] ||
		fail "$name: expected 6 'drop-once reply' lines"
	stop_proxy "$name"
	grep -q '^summary .* drop-once=6 cut-once=0' "$TMP/$name.log" ||
		fail "$name: summary does not count 6 drop-once"
}

# Everything at once must still deliver every reply, intact, in some order.
t_mixed() {
	local name=mixed out
	start_proxy "$name" --seed 3 --delay-ms 0-30 --reorder 30 --dup-calls 20 \
		|| return
	# A reply held back for reordering with nothing after it goes out
	# after PROXY_REORDER_HOLD_MS (1 s): wait longer than that.
	out=$(client --count 30 --expect-distinct 30 --idle 2)
	expect "$name" "$out" distinct=30 bad=0 short=0
	grep -q '^reorder ' "$TMP/$name.log" || fail "$name: nothing reordered"
	stop_proxy "$name"
}

TESTS=(
	"t_plain tcp" "t_plain udp"
	"t_drop_calls tcp" "t_drop_calls udp"
	"t_dup_replies tcp" "t_dup_replies udp"
	t_cut_every t_corrupt_truncate t_control t_malformed t_loopback_only
	t_seed t_mixed "t_drop_reply_once tcp" "t_drop_reply_once udp"
)
for t in "${TESTS[@]}"; do
	before=$FAILS; t0=$SECONDS
	$t
	if [ "$FAILS" -eq "$before" ]; then
		echo "PASS: $t ($((SECONDS - t0)) s)"
	else
		echo "FAIL: $t (KEEP=1 keeps the logs)"
	fi
done

if [ "$FAILS" -ne 0 ]; then
	echo "$FAILS failure(s)"
	exit 1
fi
echo "all passed"
exit 0
