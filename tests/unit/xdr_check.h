/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Checks shared by the codec tests: decoding from an exact-size heap copy
 * (so that AddressSanitizer sees any read past the end), every truncation
 * of a valid message, and encodings compared byte for byte.
 */
#ifndef NFSFUSE_TEST_XDR_CHECK_H
#define NFSFUSE_TEST_XDR_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "xdr.h"

typedef int (*xdr_check_dec_fn)(struct xdr_dec *d, void *res);
typedef int (*xdr_check_enc_fn)(struct xdr_enc *e, const void *obj);

/* Decode buf[0..len) into res; *used (may be NULL) gets the bytes used. */
int xdr_check_decode(xdr_check_dec_fn dec, const uint8_t *buf, size_t len,
		     void *res, size_t *used);
/* The same, handing the exact-size copy decoded from to the caller in
 * *copy (to free) for decoders whose results point into it. */
int xdr_check_decode_copy(xdr_check_dec_fn dec, const uint8_t *buf,
			  size_t len, void *res, size_t *used, uint8_t **copy);
/* Every proper prefix of buf is malformed (-EBADMSG) when decoded into a
 * scratch result of res_size bytes; the whole message decodes into res and
 * is used up.  Returns the copy res points into, for the caller to free. */
uint8_t *xdr_check_decode_all(xdr_check_dec_fn dec, const uint8_t *buf,
			      size_t len, void *res, size_t res_size);
/* xdr_check_decode_all, the result thrown away. */
void xdr_check_truncations(xdr_check_dec_fn dec, const uint8_t *buf,
			   size_t len, size_t res_size);
/* enc(obj) gives exactly want[0..want_len). */
void xdr_check_encoding(xdr_check_enc_fn enc, const void *obj,
			const uint8_t *want, size_t want_len);
/* enc(obj) fails; returns its error, which must also be the sticky one. */
int xdr_check_encode_err(xdr_check_enc_fn enc, const void *obj);

struct nfs4_compound_res;
/* The nres results in *e (each an operation code and its result: what
 * follows SEQUENCE, as the session hands a reply on) as a whole COMPOUND
 * reply, NFS4_OK with no tag, decoded into *r.  *e becomes that reply,
 * which *r points into: release it after the last look at *r. */
void xdr_check_compound_reply(struct xdr_enc *e, uint32_t nres,
			      struct nfs4_compound_res *r);

#endif
