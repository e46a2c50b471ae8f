/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RQUOTA v1/v2 codecs.  Known answers worked by hand from
 * /usr/include/rpcsvc/rquota.x (v1) and quota-tools' ext_getquota_args
 * (v2): 4-byte big-endian units, the path a length then the bytes padded
 * to a multiple of 4.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rquota.h"

#define U32(v) (uint8_t)((v) >> 24), (uint8_t)((v) >> 16), \
	       (uint8_t)((v) >> 8), (uint8_t)(v)

static int decode_exact(const uint8_t *buf, size_t len,
			struct rquota_getquota_res *r)
{
	uint8_t *copy = malloc(len ? len : 1);
	struct xdr_dec d;
	int ret;

	assert_non_null(copy);
	if (len)
		memcpy(copy, buf, len);
	xdr_dec_init(&d, copy, len);
	ret = rquota_dec_getquota_res(&d, r);
	if (ret == 0 && xdr_dec_left(&d))
		fail_msg("%zu bytes left", xdr_dec_left(&d));
	free(copy);
	return ret;
}

static void check_enc(int (*enc)(struct xdr_enc *, const void *),
		      const void *a, const uint8_t *want, size_t len)
{
	struct xdr_enc e;

	assert_int_equal(xdr_enc_init(&e, 8, 0), 0);
	assert_int_equal(enc(&e, a), 0);
	assert_int_equal(e.len, len);
	assert_memory_equal(e.buf, want, len);
	xdr_enc_release(&e);
}

static void test_args(void **state)
{
	static const uint8_t v1[] = { U32(5), '/', 'e', 'x', 'p', 'o', 0, 0, 0,
				      U32(1000) };
	static const uint8_t v2[] = { U32(4), '/', 'e', 'x', 'p', U32(1),
				      U32(100) };
	struct rquota_getquota_args a1 = { "/expo", RQUOTA_USRQUOTA, 1000 };
	struct rquota_getquota_args a2 = { "/exp", RQUOTA_GRPQUOTA, 100 };
	char *longp = malloc(RQUOTA_PATHLEN + 2);
	struct xdr_enc e;

	(void)state;
	check_enc(rquota_enc_getquota1_args, &a1, v1, sizeof(v1));
	check_enc(rquota_enc_getquota2_args, &a2, v2, sizeof(v2));
	assert_non_null(longp);
	memset(longp, 'a', RQUOTA_PATHLEN + 1);
	longp[RQUOTA_PATHLEN + 1] = '\0';
	a1.path = longp;
	assert_int_equal(xdr_enc_init(&e, 8, 0), 0);
	assert_int_equal(rquota_enc_getquota1_args(&e, &a1), -EINVAL);
	xdr_enc_release(&e);
	free(longp);
}

static const uint8_t ok[] = {
	U32(1),                      /* Q_OK */
	U32(1024), U32(1),           /* bsize, active */
	U32(2000), U32(1000), U32(1500),
	U32(100), U32(50), U32(60),
	U32(604800), U32(0),
};

static void test_res(void **state)
{
	static const uint8_t noquota[] = { U32(2) };
	static const uint8_t eperm[] = { U32(3) };
	static const uint8_t badbool[] = { U32(1), U32(1024), U32(2), U32(0),
					   U32(0), U32(0), U32(0), U32(0),
					   U32(0), U32(0), U32(0) };
	struct rquota_getquota_res r;
	struct xdr_enc e;

	(void)state;
	assert_int_equal(decode_exact(ok, sizeof(ok), &r), 0);
	assert_int_equal(r.status, RQUOTA_Q_OK);
	assert_int_equal(r.q.bsize, 1024);
	assert_true(r.q.active);
	assert_int_equal(r.q.bhardlimit, 2000);
	assert_int_equal(r.q.bsoftlimit, 1000);
	assert_int_equal(r.q.curblocks, 1500);
	assert_int_equal(r.q.fhardlimit, 100);
	assert_int_equal(r.q.fsoftlimit, 50);
	assert_int_equal(r.q.curfiles, 60);
	assert_int_equal(r.q.btimeleft, 604800);
	assert_int_equal(r.q.ftimeleft, 0);
	/* every truncation is malformed */
	for (size_t k = 0; k < sizeof(ok); k++)
		if (decode_exact(ok, k, &r) != -EBADMSG)
			fail_msg("prefix %zu accepted", k);
	/* the server-side encoder gives the same bytes back */
	assert_int_equal(decode_exact(ok, sizeof(ok), &r), 0);
	assert_int_equal(xdr_enc_init(&e, 8, 0), 0);
	assert_int_equal(rquota_enc_getquota_res(&e, &r), 0);
	assert_int_equal(e.len, sizeof(ok));
	assert_memory_equal(e.buf, ok, sizeof(ok));
	xdr_enc_release(&e);

	assert_int_equal(decode_exact(noquota, sizeof(noquota), &r), 0);
	assert_int_equal(rquota_stat_errno(r.status), -ESRCH);
	assert_int_equal(decode_exact(eperm, sizeof(eperm), &r), 0);
	assert_int_equal(rquota_stat_errno(r.status), -EPERM);
	assert_int_equal(rquota_stat_errno(99), -EIO);
	assert_int_equal(decode_exact(badbool, sizeof(badbool), &r), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_res),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
