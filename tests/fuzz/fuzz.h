/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.c).
 *
 * Every harness takes the first input byte as a selector (which decoder)
 * and the rest as the message.  The message is copied into a buffer of
 * exactly its size so that ASan reports a read one byte past the end.
 *
 * fuzz_touch() reads every byte of a span a decoder pointed into the
 * buffer, so that a span reaching past the message is caught where it was
 * made rather than silently trusted.
 *
 * FUZZ_CHECK() is for properties that hold for every input (a value that
 * an encoder produced must decode again; encoding is idempotent); it
 * aborts with the expression, which libFuzzer reports as a crash.
 */
#ifndef NFSFUSE_TESTS_FUZZ_H
#define NFSFUSE_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xdr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Sums land here so that the compiler cannot drop the reads. */
extern volatile uint32_t fuzz_sink;

#define FUZZ_DEFINE_SINK volatile uint32_t fuzz_sink

static inline void fuzz_touch(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t sum = 0;

	if (n && !p)
		abort(); /* a length without bytes */
	for (size_t i = 0; i < n; i++)
		sum += b[i];
	fuzz_sink += sum;
}

#define FUZZ_CHECK(cond)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed\n",  \
				__FILE__, __LINE__, #cond);                \
			abort();                                           \
		}                                                          \
	} while (0)

/* The message after the selector, in a heap buffer of exactly its size
 * (malloc(0) may return NULL: then len is 0 and nothing is read). */
static inline uint8_t *fuzz_copy(const uint8_t *data, size_t size,
				 size_t *len)
{
	uint8_t *buf;

	*len = size;
	buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	if (size)
		memcpy(buf, data, size);
	return buf;
}

/* A NUL-terminated copy of a (pointer, length) name; abort on ENOMEM. */
static inline char *fuzz_strndup(const char *s, size_t n)
{
	char *c = malloc(n + 1);

	if (!c)
		abort();
	if (n)
		memcpy(c, s, n);
	c[n] = '\0';
	return c;
}

/*
 * Round trip: encode obj with enc, decode into scratch (size bytes) with
 * dec, encode scratch again; when the first encoding succeeded the second
 * must succeed and be byte-identical (decode(encode(x)) loses nothing that
 * encode writes).  Returns the first encoder's result.
 */
typedef int (*fuzz_enc_fn)(struct xdr_enc *e, const void *obj);
typedef int (*fuzz_dec_fn)(struct xdr_dec *d, void *obj);

/* fuzz_enc_fn/fuzz_dec_fn wrappers for codecs typed on their structure
 * (calling those through a cast function pointer would be undefined). */
#define FUZZ_WRAP_CODEC(name, enc, dec, type)                              \
	static int name##_enc(struct xdr_enc *e, const void *o)            \
	{                                                                  \
		return enc(e, (const type *)o);                            \
	}                                                                  \
	static int name##_dec(struct xdr_dec *d, void *o)                  \
	{                                                                  \
		return dec(d, (type *)o);                                  \
	}

static inline int fuzz_round_trip(fuzz_enc_fn enc, fuzz_dec_fn dec,
				  const void *obj, size_t size)
{
	struct xdr_enc e1, e2;
	struct xdr_dec d;
	void *scratch;
	int ret;

	if (xdr_enc_init(&e1, 64, 0) || xdr_enc_init(&e2, 64, 0))
		abort();
	ret = enc(&e1, obj);
	if (ret == 0) {
		FUZZ_CHECK(xdr_enc_error(&e1) == 0);
		scratch = calloc(1, size ? size : 1);
		if (!scratch)
			abort();
		xdr_dec_init(&d, e1.buf, e1.len);
		FUZZ_CHECK(dec(&d, scratch) == 0);
		FUZZ_CHECK(xdr_dec_left(&d) == 0);
		FUZZ_CHECK(enc(&e2, scratch) == 0);
		FUZZ_CHECK(e2.len == e1.len);
		FUZZ_CHECK(e1.len == 0 || memcmp(e1.buf, e2.buf, e1.len) == 0);
		free(scratch);
	}
	xdr_enc_release(&e1);
	xdr_enc_release(&e2);
	return ret;
}

/*
 * Decode the message with dec into a fresh object of size bytes; if it
 * decodes, let touch (may be NULL) read what it points into and check the
 * round trip, which must succeed: a decoded value always encodes.  In any
 * case the cursor stays within the message.
 */
static inline void fuzz_decode_check(fuzz_dec_fn dec, fuzz_enc_fn enc,
				     size_t size, void (*touch)(const void *),
				     struct xdr_dec *d)
{
	void *obj = calloc(1, size ? size : 1);

	if (!obj)
		abort();
	if (dec(d, obj) == 0) {
		if (touch)
			touch(obj);
		FUZZ_CHECK(fuzz_round_trip(enc, dec, obj, size) == 0);
	}
	FUZZ_CHECK(d->p <= d->end);
	free(obj);
}

#endif
