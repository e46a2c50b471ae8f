/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the RQUOTA codec (xdr/rquota.h) and what the
 * client does with a quota (src/quota.h).
 *
 * Input: selector byte, then the message.  Selector % 3:
 *   0  rquota_dec_getquota_res; a decoded result is encoded again and
 *      must decode the same; a quota narrows a statfs answer (free never
 *      above total or above what the server said) and is formatted
 *   1  quota_report_parse on the message as text (the control socket's
 *      quota answer); what parses is written, parsed and written again,
 *      identically
 *   2  the GETQUOTA v1 and v2 argument encoders with the message as the
 *      path: refused past RQUOTA_PATHLEN, else the path's length on the
 *      wire
 */
#include "fuzz.h"
#include "quota.h"
#include "rquota.h"

FUZZ_DEFINE_SINK;

FUZZ_WRAP_CODEC(res, rquota_enc_getquota_res, rquota_dec_getquota_res,
		struct rquota_getquota_res)

static void check_statfs(const struct rquota_dqblk *q)
{
	struct statvfs sv;
	char text[4096];
	struct quota_report r;

	memset(&sv, 0, sizeof(sv));
	sv.f_bsize = sv.f_frsize = 4096;
	sv.f_blocks = 1000000;
	sv.f_bfree = 400000;
	sv.f_bavail = 300000;
	sv.f_files = 5000;
	sv.f_ffree = 4000;
	sv.f_favail = 4000;
	quota_statfs_apply(q, &sv);
	FUZZ_CHECK(sv.f_blocks <= 1000000 && sv.f_bfree <= 400000 &&
		   sv.f_bavail <= 300000);
	FUZZ_CHECK(sv.f_bavail <= sv.f_bfree && sv.f_bfree <= sv.f_blocks);
	FUZZ_CHECK(sv.f_files <= 5000 && sv.f_ffree <= sv.f_files &&
		   sv.f_favail <= sv.f_ffree);

	memset(&r, 0, sizeof(r));
	strcpy(r.where, "server:/export");
	r.found = true;
	r.q = *q;
	FUZZ_CHECK(quota_format(&r, "user", text, sizeof(text)) <
		   sizeof(text));
	FUZZ_CHECK(quota_report_write(&r, text, sizeof(text)) <
		   sizeof(text));
	FUZZ_CHECK(quota_report_parse(text, &r) == 0 && r.found);
	FUZZ_CHECK(memcmp(&r.q, q, sizeof(*q)) == 0);
}

static void check_report(const uint8_t *buf, size_t len)
{
	char *text = fuzz_strndup((const char *)buf, len);
	char *t1, *t2;
	struct quota_report r;
	size_t n1, n2;

	if (quota_report_parse(text, &r) == 0) {
		n1 = quota_report_write(&r, NULL, 0) + 1;
		t1 = malloc(n1);
		if (!t1)
			abort();
		FUZZ_CHECK(quota_report_write(&r, t1, n1) == n1 - 1);
		FUZZ_CHECK(quota_report_parse(t1, &r) == 0);
		n2 = quota_report_write(&r, NULL, 0) + 1;
		t2 = malloc(n2);
		if (!t2)
			abort();
		quota_report_write(&r, t2, n2);
		FUZZ_CHECK(n1 == n2 && memcmp(t1, t2, n1) == 0);
		free(t1);
		free(t2);
	}
	free(text);
}

static void check_args(const uint8_t *buf, size_t len)
{
	char *path = fuzz_strndup((const char *)buf, len);
	struct rquota_getquota_args a = { path, RQUOTA_GRPQUOTA, 7 };
	size_t plen = strlen(path), padded = (plen + 3) & ~(size_t)3;
	struct xdr_enc e;
	int ret;

	if (xdr_enc_init(&e, 64, 0))
		abort();
	ret = rquota_enc_getquota2_args(&e, &a);
	FUZZ_CHECK((ret == 0) == (plen <= RQUOTA_PATHLEN));
	if (ret == 0)
		FUZZ_CHECK(e.len == 4 + padded + 8);
	xdr_enc_release(&e);
	if (xdr_enc_init(&e, 64, 0))
		abort();
	ret = rquota_enc_getquota1_args(&e, &a);
	FUZZ_CHECK((ret == 0) == (plen <= RQUOTA_PATHLEN));
	if (ret == 0)
		FUZZ_CHECK(e.len == 4 + padded + 4);
	xdr_enc_release(&e);
	free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rquota_getquota_res res;
	struct xdr_dec d;
	uint8_t *buf;
	size_t len;

	if (size < 1)
		return 0;
	buf = fuzz_copy(data + 1, size - 1, &len);
	xdr_dec_init(&d, buf, len);
	switch (data[0] % 3) {
	case 0:
		memset(&res, 0, sizeof(res));
		if (rquota_dec_getquota_res(&d, &res) == 0) {
			fuzz_sink += (uint32_t)rquota_stat_errno(res.status);
			FUZZ_CHECK(fuzz_round_trip(res_enc, res_dec, &res,
						   sizeof(res)) == 0);
			if (res.status == RQUOTA_Q_OK)
				check_statfs(&res.q);
		}
		break;
	case 1:
		check_report(buf, len);
		break;
	default:
		check_args(buf, len);
		break;
	}
	FUZZ_CHECK(d.p <= d.end);
	free(buf);
	return 0;
}
