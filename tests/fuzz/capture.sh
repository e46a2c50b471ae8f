#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# capture.sh [OUTDIR]: rebuild the seed corpus from real traffic.
#
# Needs the loopback test server already running (contrib/test-server.sh;
# this script neither starts nor stops it), root (for dumpcap and to make a
# scratch directory in the export), dumpcap and tshark, libnfs-utils
# (nfs-ls, nfs-cat, nfs-cp), showmount and rpcinfo.  Records the loopback
# interface while those tools and rpc_traffic.py talk to 127.0.0.1, then
# writes OUTDIR (default: tests/fuzz/corpus next to this script) with
# make_corpus.py from the capture and the hand-made seeds.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/corpus}
host=127.0.0.1

for tool in dumpcap tshark nfs-ls nfs-cat nfs-cp showmount rpcinfo python3; do
	command -v "$tool" >/dev/null || { echo "capture.sh: $tool missing" >&2; exit 1; }
done
export_path=$(showmount -e "$host" --no-headers | awk 'NR == 1 { print $1 }')
[ -d "$export_path" ] || { echo "capture.sh: export $export_path is not a local directory" >&2; exit 1; }

work=$(mktemp -d)
# RPC recognised by its contents, whatever port a tool bound (the file
# says why): make_corpus.py picks NFSv4 replies by tshark's dissection.
export WIRESHARK_CONFIG_DIR=$here/../wireshark
sub=fuzzseed.$$
scratch=$export_path/$sub
dumpcap_pid=
cleanup() {
	[ -n "$dumpcap_pid" ] && kill "$dumpcap_pid" 2>/dev/null || true
	rm -rf "$scratch" "$work"
}
trap cleanup EXIT

mkdir "$scratch" "$scratch/sub"
echo hello > "$scratch/a.txt"
head -c 3000 /dev/urandom > "$scratch/bin"
ln -s a.txt "$scratch/link"
mkfifo "$scratch/fifo"
touch "$scratch/sub/empty"

# Every port the server registered (statd's are not fixed).
ports=$(rpcinfo -p "$host" | awk 'NR > 1 { print "port " $4 }' | sort -u | paste -sd ' ' | sed 's/ port/ or port/g')
dumpcap -q -i lo -w "$work/cap.pcapng" -f "host $host and ($ports)" \
	>"$work/dumpcap.log" 2>&1 &
dumpcap_pid=$!
sleep 2

url=nfs://$host$export_path/$sub
python3 "$here/rpc_traffic.py" "$export_path" "$sub"
rpcinfo -p "$host" >/dev/null
rpcinfo -t "$host" nfs 3 >/dev/null
rpcinfo -u "$host" mountd 3 >/dev/null
rpcinfo -T tcp "$host" nlockmgr 4 >/dev/null
rpcinfo "$host" >/dev/null
showmount -e "$host" >/dev/null
showmount -a "$host" >/dev/null || true
nfs-ls -R "$url" >/dev/null
nfs-ls -s "$url" >/dev/null
nfs-cat "$url/a.txt" >/dev/null
nfs-cat "$url/bin" >/dev/null
nfs-cat "$url/nothere" >/dev/null 2>&1 || true
head -c 70000 /dev/urandom > "$work/up.bin"
nfs-cp "$work/up.bin" "$url/up.bin" >/dev/null
nfs-cp "$url/up.bin" "$work/down.bin" >/dev/null
cmp -s "$work/up.bin" "$work/down.bin"

sleep 2
kill "$dumpcap_pid"
wait "$dumpcap_pid" || true
dumpcap_pid=

rm -rf "$out"
python3 "$here/make_corpus.py" pcap "$work/cap.pcapng" "$out"
python3 "$here/make_corpus.py" handmade "$out"
echo "capture.sh: $(find "$out" -type f | wc -l) seeds in $out"
