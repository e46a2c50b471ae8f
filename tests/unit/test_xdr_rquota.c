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
#include "xdr_check.h"

#define U32(v) (uint8_t)((v) >> 24), (uint8_t)((v) >> 16), \
	       (uint8_t)((v) >> 8), (uint8_t)(v)

/* GETQUOTA result from an exact-size copy (xdr_check.h), used up. */
static int decode_exact(const uint8_t *buf, size_t len,
			struct rquota_getquota_res *r)
{
	size_t used;
	int ret = xdr_check_decode(rquota_dec_getquota_res, buf, len, r, &used);

	if (ret == 0 && used != len)
		fail_msg("%zu bytes left", len - used);
	return ret;
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

	(void)state;
	xdr_check_encoding(rquota_enc_getquota1_args, &a1, v1, sizeof(v1));
	xdr_check_encoding(rquota_enc_getquota2_args, &a2, v2, sizeof(v2));
	assert_non_null(longp);
	memset(longp, 'a', RQUOTA_PATHLEN + 1);
	longp[RQUOTA_PATHLEN + 1] = '\0';
	a1.path = longp;
	assert_int_equal(xdr_check_encode_err(rquota_enc_getquota1_args, &a1),
			 -EINVAL);
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
	xdr_check_truncations(rquota_dec_getquota_res, ok, sizeof(ok),
			      sizeof(r));
	/* the server-side encoder gives the same bytes back */
	assert_int_equal(decode_exact(ok, sizeof(ok), &r), 0);
	xdr_check_encoding(rquota_enc_getquota_res, &r, ok, sizeof(ok));

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
