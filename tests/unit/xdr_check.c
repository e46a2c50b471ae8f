/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "xdr_check.h"
#include "nfs4.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

int xdr_check_decode_copy(xdr_check_dec_fn dec, const uint8_t *buf,
			  size_t len, void *res, size_t *used, uint8_t **copy)
{
	uint8_t *b = malloc(len ? len : 1);
	struct xdr_dec d;
	int ret;

	assert_non_null(b);
	if (len)
		memcpy(b, buf, len);
	xdr_dec_init(&d, b, len);
	ret = dec(&d, res);
	if (used)
		*used = len - xdr_dec_left(&d);
	if (copy)
		*copy = b;
	else
		free(b);
	return ret;
}

int xdr_check_decode(xdr_check_dec_fn dec, const uint8_t *buf, size_t len,
		     void *res, size_t *used)
{
	return xdr_check_decode_copy(dec, buf, len, res, used, NULL);
}

uint8_t *xdr_check_decode_all(xdr_check_dec_fn dec, const uint8_t *buf,
			      size_t len, void *res, size_t res_size)
{
	void *scratch = malloc(res_size);
	uint8_t *copy;
	size_t used;

	assert_non_null(scratch);
	for (size_t k = 0; k < len; k++) {
		if (xdr_check_decode(dec, buf, k, scratch, NULL) != -EBADMSG)
			fail_msg("prefix of %zu/%zu bytes was accepted", k, len);
	}
	free(scratch);
	assert_int_equal(xdr_check_decode_copy(dec, buf, len, res, &used,
					       &copy), 0);
	assert_int_equal(used, len);
	return copy;
}

void xdr_check_truncations(xdr_check_dec_fn dec, const uint8_t *buf,
			   size_t len, size_t res_size)
{
	void *res = malloc(res_size);

	assert_non_null(res);
	free(xdr_check_decode_all(dec, buf, len, res, res_size));
	free(res);
}

void xdr_check_encoding(xdr_check_enc_fn enc, const void *obj,
			const uint8_t *want, size_t want_len)
{
	struct xdr_enc e;

	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(enc(&e, obj), 0);
	assert_int_equal(xdr_enc_error(&e), 0);
	assert_int_equal(e.len, want_len);
	if (want_len)
		assert_memory_equal(e.buf, want, want_len);
	xdr_enc_release(&e);
}

int xdr_check_encode_err(xdr_check_enc_fn enc, const void *obj)
{
	struct xdr_enc e;
	int ret;

	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	ret = enc(&e, obj);
	assert_int_equal(ret, xdr_enc_error(&e));
	xdr_enc_release(&e);
	return ret;
}

void xdr_check_compound_reply(struct xdr_enc *e, uint32_t nres,
			      struct nfs4_compound_res *r)
{
	struct xdr_enc whole;
	struct xdr_dec d;

	assert_int_equal(xdr_enc_error(e), 0);
	assert_int_equal(xdr_enc_init(&whole, 0, 0), 0);
	xdr_enc_u32(&whole, NFS4_OK);
	xdr_enc_string(&whole, NFS4_MAXTAG, "");
	xdr_enc_u32(&whole, nres);
	xdr_enc_opaque_fixed(&whole, e->buf, e->len);
	assert_int_equal(xdr_enc_error(&whole), 0);
	xdr_dec_init(&d, whole.buf, whole.len);
	assert_int_equal(nfs4_dec_compound_res(&d, r), 0);
	xdr_enc_release(e);
	*e = whole;
}
