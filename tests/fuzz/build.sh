#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# build.sh [OUTDIR]: compile the libFuzzer harnesses (tests/fuzz/fuzz_*.c)
# with clang, ASan and UBSan into OUTDIR (default: build-fuzz in the
# current directory).  Prints the harnesses it built, one per line, on
# stdout.  Exits 77 (skip) when clang or libFuzzer is missing.
#
#   CC      the compiler (default: clang, else clang-14)
#   CFLAGS  added to every compile
#
# The code under test is compiled with the same sanitizers and coverage
# (-fsanitize=fuzzer-no-link); the harnesses, and only they, also with
# -Werror.  fuzz_nfs2 is built when xdr/nfs2.h exists, fuzz_options when
# pkg-config knows fuse3; fuzz_nfs2_fixup, fuzz_listener and
# fuzz_nlm_client, which link the rpc, proto and lock layers whole, when it
# knows glib-2.0.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
out=${1:-build-fuzz}
mkdir -p "$out/obj"
out=$(cd "$out" && pwd)

skip() {
	echo "build.sh: SKIP: $*" >&2
	exit 77
}

if [ -z "${CC:-}" ]; then
	for c in clang clang-14; do
		command -v "$c" >/dev/null && { CC=$c; break; }
	done
fi
[ -n "${CC:-}" ] && command -v "$CC" >/dev/null || skip "clang not found (apt install clang)"

san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
common=(-g -O1 -std=gnu11 $san -fno-omit-frame-pointer
	-D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -DFUSE_USE_VERSION=314
	-Wall -Wextra -Wno-unused-parameter ${CFLAGS:-})
strict=(-Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2)

# libFuzzer present?  (clang without libclang_rt.fuzzer fails to link.)
probe=$out/obj/probe
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
	'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
	'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
	> "$probe.c"
"$CC" -fsanitize=fuzzer,address,undefined "$probe.c" -o "$probe" 2>"$probe.log" ||
	skip "$CC cannot link -fsanitize=fuzzer (apt install libfuzzer-14-dev): $(head -n 1 "$probe.log")"

# Objects of the code under test: name -> source.
lib() {
	local o=$out/obj/$(echo "$1" | tr / _).o
	"$CC" "${common[@]}" -fsanitize=fuzzer-no-link "${@:2}" -c "$src/$1" -o "$o"
	echo "$o"
}
xdr_srcs=(xdr/xdr.c xdr/rpc_msg.c xdr/nfs3_types.c xdr/nfs3.c xdr/pmap.c
	xdr/mount.c xdr/nlm.c xdr/nsm.c xdr/rquota.c xdr/nfsacl.c
	xdr/nfs4.c xdr/nfs4_ops.c xdr/nfs4_ops_io.c xdr/nfs4_attr.c xdr/nfs4_acl.c
	xdr/nfs4_cb.c)
have_nfs2=false
if [ -f "$src/xdr/nfs2.h" ]; then
	have_nfs2=true
	xdr_srcs+=(xdr/nfs2.c xdr/nfs2_conv.c)
fi
# The same for many sources, FUZZ_JOBS (default: the CPUs) at a time:
# flags, "--", sources.  The objects, in order, in lib_objs.
lib_all() {
	local flags=() pids=() s o fail=0 n=${FUZZ_JOBS:-$(nproc)}
	while [ "$1" != -- ]; do
		flags+=("$1")
		shift
	done
	shift
	lib_objs=()
	for s in "$@"; do
		o=$out/obj/$(echo "$s" | tr / _).o
		rm -f "$o"
		lib_objs+=("$o")
		lib "$s" "${flags[@]}" >/dev/null &
		pids+=($!)
		while [ "$(jobs -rp | wc -l)" -ge "$n" ]; do
			wait -n || true
		done
	done
	for s in "${pids[@]}"; do
		wait "$s" || fail=1
	done
	return $fail
}
lib_all -I "$src/xdr" -- "${xdr_srcs[@]}"
xdr_objs=("${lib_objs[@]}")

harness() { # name, then extra sources/objects and flags
	local name=$1
	shift
	"$CC" "${common[@]}" "${strict[@]}" -fsanitize=fuzzer \
		-I "$here" -I "$src/xdr" -I "$src/src/rpc" -I "$src/src" -I "$src/src/proto" \
		"$here/$name.c" "$@" -o "$out/$name"
	echo "$name"
}

harness fuzz_nfs3 "${xdr_objs[@]}"
harness fuzz_rpc_msg "${xdr_objs[@]}"
harness fuzz_mount "${xdr_objs[@]}"
harness fuzz_pmap "$(lib src/rpc/addr.c)" "${xdr_objs[@]}"
harness fuzz_nlm "${xdr_objs[@]}"
harness fuzz_nsm "${xdr_objs[@]}"
harness fuzz_nfsacl "${xdr_objs[@]}"
harness fuzz_nfs4 "${xdr_objs[@]}"
harness fuzz_nfs4_cb "${xdr_objs[@]}"
harness fuzz_nfs4_acl "${xdr_objs[@]}"
harness fuzz_rquota "$(lib src/proto/quota.c -I "$src/xdr")" "${xdr_objs[@]}"
if $have_nfs2; then
	harness fuzz_nfs2 "${xdr_objs[@]}"
fi
harness fuzz_record "$(lib src/rpc/record.c)" "${xdr_objs[@]}"
# The layers above xdr/ (glib for the logger and the statistics): the
# NFSv2 result conversion of proto/ and the lock manager's listener and
# record reader, linked whole (the harnesses replace nothing in them).
if pkg-config --exists glib-2.0; then
	read -ra glib_cflags <<<"$(pkg-config --cflags glib-2.0)"
	read -ra glib_libs <<<"$(pkg-config --libs glib-2.0)"
	lock_srcs=("$src"/src/lock/*.c)
	lib_all "${glib_cflags[@]}" -- src/base/log.c src/base/trace.c \
		src/base/stats.c src/base/idmap.c src/base/userns.c \
		src/base/safedir.c src/rpc/addr.c src/rpc/record.c \
		src/rpc/rpc.c src/rpc/clnt_io.c src/rpc/tcp.c src/rpc/udp.c \
		src/rpc/stats.c src/proto/nfs.c src/proto/nfs2_procs.c \
		src/proto/nfs3_procs.c src/proto/pmap_client.c \
		src/proto/oneshot.c "${lock_srcs[@]#"$src/"}"
	app_link=("${lib_objs[@]}" "${xdr_objs[@]}" "${glib_libs[@]}" -lpthread)
	harness fuzz_nfs2_fixup "${app_link[@]}"
	harness fuzz_listener -I "$src/src/lock" "${glib_cflags[@]}" "${app_link[@]}"
	harness fuzz_nlm_client -I "$src/src/lock" "${glib_cflags[@]}" "${app_link[@]}"
else
	echo "build.sh: glib-2.0 not found by pkg-config: fuzz_nfs2_fixup," \
		"fuzz_listener, fuzz_nlm_client not built" >&2
fi
if pkg-config --exists fuse3; then
	read -ra fuse_cflags <<<"$(pkg-config --cflags fuse3)"
	read -ra fuse_libs <<<"$(pkg-config --libs fuse3)"
	harness fuzz_options "${fuse_cflags[@]}" \
		"$(lib src/options.c "${fuse_cflags[@]}")" "${xdr_objs[@]}" \
		"${fuse_libs[@]}"
else
	echo "build.sh: fuse3 not found by pkg-config: fuzz_options not built" >&2
fi
