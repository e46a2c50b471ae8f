#!/usr/bin/env bash
# Every FUSE operation of the read-write mount, each checked against what
# the export directory itself holds on the server side
# (basic_ops_body.sh).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/basic_ops_body.sh"
ensure_server
need_nfsfuse

basic_ops_body ""
echo "PASS: basic_ops"
