#!/bin/sh
# Write the counters of every nfsfuse mount for node_exporter's textfile
# collector (--collector.textfile.directory=/var/lib/node_exporter), e.g.
# from cron every minute.  One file per mount (the collector merges
# them), each replaced atomically as the collector asks; the files of
# mounts that are gone are removed.
set -eu
dir=${1:-/var/lib/node_exporter}
rm -f "$dir"/nfsfuse_*.prom.tmp
keep=" "
for mnt in $(awk '$0 ~ / - fuse\.nfsfuse / { print $5 }' /proc/self/mountinfo); do
	mnt=$(printf '%b' "$mnt")
	name=nfsfuse$(printf '%s' "$mnt" | tr -c 'A-Za-z0-9_\n' '_').prom
	if nfsfusectl "$mnt" stats --prometheus >"$dir/$name.tmp"; then
		mv "$dir/$name.tmp" "$dir/$name"
		keep="$keep$name "
	else
		rm -f "$dir/$name.tmp"
	fi
done
for f in "$dir"/nfsfuse_*.prom; do
	[ -e "$f" ] || continue
	case $keep in *" ${f##*/} "*) ;; *) rm -f "$f" ;; esac
done
