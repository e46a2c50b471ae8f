/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the MOUNT decoders (xdr/mount.h).
 *
 * Input: selector byte, then the XDR message.  Selector % 5:
 *   0  mnt_dec_mnt3_res     1  mnt_dec_mnt1_res
 *   2  mnt_dec_export_res (exports and their groups iterated to the end)
 *   3  mnt_dec_dump_res (iterated to the end)
 *   4  mnt_dec_dirpath_args (server side)
 * Each is encoded again with its encoder; the re-encoding must decode.
 */
#include "fuzz.h"
#include "mount.h"

FUZZ_DEFINE_SINK;

FUZZ_WRAP_CODEC(mnt3, mnt_enc_mnt3_res, mnt_dec_mnt3_res, struct mnt_mnt_res)
FUZZ_WRAP_CODEC(mnt1, mnt_enc_mnt1_res, mnt_dec_mnt1_res, struct mnt_mnt_res)

static void check_status(uint32_t status)
{
	const char *s = mnt_stat_str(status);

	FUZZ_CHECK(s != NULL);
	fuzz_sink += (uint32_t)strlen(s);
	FUZZ_CHECK(mnt_stat_errno(status) <= 0);
	FUZZ_CHECK((mnt_stat_errno(status) == 0) == (status == MNT3_OK));
	fuzz_sink += mnt_stat_name(status) != NULL;
}

static void check_mnt(struct xdr_dec *d, bool v3)
{
	struct mnt_mnt_res r;

	memset(&r, 0, sizeof(r));
	if ((v3 ? mnt_dec_mnt3_res(d, &r) : mnt_dec_mnt1_res(d, &r)) != 0)
		return;
	check_status(r.status);
	if (r.status != MNT3_OK)
		return;
	FUZZ_CHECK(r.fh.len <= (v3 ? MNT_FHSIZE3 : MNT_FHSIZE1));
	FUZZ_CHECK(r.nflavors <= MNT_MAXFLAVORS);
	FUZZ_CHECK(r.nflavors <= r.nflavors_sent);
	if (v3)
		FUZZ_CHECK(fuzz_round_trip(mnt3_enc, mnt3_dec, &r,
					   sizeof(r)) == 0);
	else
		FUZZ_CHECK(fuzz_round_trip(mnt1_enc, mnt1_dec, &r,
					   sizeof(r)) == 0);
}

static void free_exports(struct mnt_export *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t g = 0; g < list[i].ngroups; g++)
			free(list[i].groups[g]);
		free(list[i].groups);
		free(list[i].dir);
	}
	free(list);
}

static void check_export(struct xdr_dec *d)
{
	struct mnt_export_res r;
	struct mnt_exportnode ex;
	struct mnt_export *list;
	struct xdr_enc e;
	struct xdr_dec d2;
	const char *name;
	uint32_t namelen, ng;
	size_t n = 0;
	int ret;

	memset(&r, 0, sizeof(r));
	if (mnt_dec_export_res(d, &r))
		return;
	list = calloc(r.nexports + 1, sizeof(*list));
	if (!list)
		abort();
	while ((ret = mnt_export_next(&r.entries, &ex)) == 1) {
		FUZZ_CHECK(n < r.nexports);
		fuzz_touch(ex.dir, ex.dirlen);
		list[n].dir = fuzz_strndup(ex.dir, ex.dirlen);
		list[n].groups = calloc(ex.ngroups + 1, sizeof(char *));
		if (!list[n].groups)
			abort();
		ng = 0;
		while ((ret = mnt_group_next(&ex.groups, &name, &namelen)) ==
		       1) {
			FUZZ_CHECK(ng < ex.ngroups);
			fuzz_touch(name, namelen);
			list[n].groups[ng++] = fuzz_strndup(name, namelen);
		}
		FUZZ_CHECK(ret == 0 && ng == ex.ngroups);
		list[n].ngroups = ng;
		n++;
	}
	FUZZ_CHECK(ret == 0 && n == r.nexports);
	FUZZ_CHECK(mnt_export_next(&r.entries, &ex) == 0);

	if (xdr_enc_init(&e, 256, 0))
		abort();
	FUZZ_CHECK(mnt_enc_export_res(&e, list, n) == 0);
	xdr_dec_init(&d2, e.buf, e.len);
	memset(&r, 0, sizeof(r));
	FUZZ_CHECK(mnt_dec_export_res(&d2, &r) == 0);
	FUZZ_CHECK(r.nexports == n && xdr_dec_left(&d2) == 0);
	xdr_enc_release(&e);
	free_exports(list, n);
}

static void check_dump(struct xdr_dec *d)
{
	struct mnt_dump_res r;
	struct mnt_mountbody *list;
	struct xdr_enc e;
	struct xdr_dec d2;
	size_t n = 0;
	int ret;

	memset(&r, 0, sizeof(r));
	if (mnt_dec_dump_res(d, &r))
		return;
	list = calloc(r.nentries + 1, sizeof(*list));
	if (!list)
		abort();
	while ((ret = mnt_dump_next(&r.entries, &list[n])) == 1) {
		fuzz_touch(list[n].hostname, list[n].hostlen);
		fuzz_touch(list[n].dir, list[n].dirlen);
		FUZZ_CHECK(++n <= r.nentries);
	}
	FUZZ_CHECK(ret == 0 && n == r.nentries);

	if (xdr_enc_init(&e, 256, 0))
		abort();
	FUZZ_CHECK(mnt_enc_dump_res(&e, list, n) == 0);
	xdr_dec_init(&d2, e.buf, e.len);
	memset(&r, 0, sizeof(r));
	FUZZ_CHECK(mnt_dec_dump_res(&d2, &r) == 0);
	FUZZ_CHECK(r.nentries == n && xdr_dec_left(&d2) == 0);
	xdr_enc_release(&e);
	free(list);
}

static void check_dirpath(struct xdr_dec *d)
{
	struct mnt_dirpath_args args;
	struct xdr_enc e;
	struct xdr_dec d2;
	const char *path, *path2;
	uint32_t len, len2;
	char *copy;

	if (mnt_dec_dirpath_args(d, &path, &len))
		return;
	fuzz_touch(path, len);
	FUZZ_CHECK(len <= MNT_PATHLEN);
	copy = fuzz_strndup(path, len);
	args.dirpath = copy;
	if (xdr_enc_init(&e, 64, 0))
		abort();
	FUZZ_CHECK(mnt_enc_dirpath_args(&e, &args) == 0);
	xdr_dec_init(&d2, e.buf, e.len);
	FUZZ_CHECK(mnt_dec_dirpath_args(&d2, &path2, &len2) == 0);
	FUZZ_CHECK(len2 == len && memcmp(path2, copy, len) == 0);
	xdr_enc_release(&e);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xdr_dec d;
	uint8_t *buf;
	size_t len;

	if (size < 1)
		return 0;
	buf = fuzz_copy(data + 1, size - 1, &len);
	xdr_dec_init(&d, buf, len);
	switch (data[0] % 5) {
	case 0:
		check_mnt(&d, true);
		break;
	case 1:
		check_mnt(&d, false);
		break;
	case 2:
		check_export(&d);
		break;
	case 3:
		check_dump(&d);
		break;
	default:
		check_dirpath(&d);
		break;
	}
	FUZZ_CHECK(d.p <= d.end);
	free(buf);
	return 0;
}
