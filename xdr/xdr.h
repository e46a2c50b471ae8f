/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * XDR (RFC 4506) cursors: a decoder that reads from a borrowed buffer and an
 * encoder that appends to a growable one.
 *
 * Decoding never reads past the end: every fetch first compares the request
 * with the bytes left ("end - p < n", which cannot overflow) and fails with
 * -EBADMSG otherwise.  Spans returned by the decoder point into the buffer
 * being decoded; they are valid as long as that buffer is.
 *
 * The encoder keeps a sticky error: after the first failure (out of memory,
 * or a length over the caller's limit) every later call is a no-op returning
 * the same error, so a codec may encode a whole message and look at the
 * result once.  xdr_enc_error() must be checked before the bytes are used.
 */
#ifndef NFSFUSE_XDR_H
#define NFSFUSE_XDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define XDR_UNIT 4u

/* Bytes of padding after an opaque of n bytes. */
static inline size_t xdr_pad(size_t n)
{
	return (XDR_UNIT - (n & (XDR_UNIT - 1))) & (XDR_UNIT - 1);
}

struct xdr_dec {
	const uint8_t *p;
	const uint8_t *end;
};

static inline void xdr_dec_init(struct xdr_dec *d, const void *buf, size_t len)
{
	d->p = buf;
	d->end = d->p + len;
}

static inline size_t xdr_dec_left(const struct xdr_dec *d)
{
	return (size_t)(d->end - d->p);
}

/* n bytes (n a multiple of 4 for anything but raw data), or NULL. */
const uint8_t *xdr_dec_inline(struct xdr_dec *d, size_t n);

int xdr_dec_u32(struct xdr_dec *d, uint32_t *v);
int xdr_dec_i32(struct xdr_dec *d, int32_t *v);
int xdr_dec_u64(struct xdr_dec *d, uint64_t *v);
int xdr_dec_i64(struct xdr_dec *d, int64_t *v);
/* XDR bool: 0 or 1; any other value is malformed. */
int xdr_dec_bool(struct xdr_dec *d, bool *v);
/* Fixed-length opaque[n] with its padding. */
int xdr_dec_opaque_fixed(struct xdr_dec *d, size_t n, const uint8_t **data);
/* Variable-length opaque<max>: length, bytes, padding.  A length over max
 * is malformed, so a hostile length never reaches an allocation. */
int xdr_dec_opaque(struct xdr_dec *d, uint32_t max, const uint8_t **data,
		   uint32_t *len);
/* string<max>: as opaque; the bytes are not NUL-terminated.  A NUL inside
 * the string is malformed: it could not be a file name. */
int xdr_dec_string(struct xdr_dec *d, uint32_t max, const char **s,
		   uint32_t *len);

/* Read-only peeks for fixed-size records that were checked once. */
static inline uint32_t xdr_get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline uint64_t xdr_get_u64(const uint8_t *p)
{
	return (uint64_t)xdr_get_u32(p) << 32 | xdr_get_u32(p + 4);
}

static inline void xdr_put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

struct xdr_enc {
	uint8_t *buf;  /* owned; released by xdr_enc_release() or taken */
	size_t len;
	size_t cap;
	int err;       /* 0, or the first negative errno */
};

/*
 * Large message buffers (from malloc) kept for the next message, encoded
 * or received (see xdr.c).  xdr_pool_take: a kept buffer of at least need
 * bytes, its size in *cap, or NULL.  xdr_pool_give: keep b, of cap bytes
 * at least, or free it (NULL is ignored).
 */
#define XDR_POOL_MIN (128u << 10)
uint8_t *xdr_pool_take(size_t need, size_t *cap);
void xdr_pool_give(uint8_t *b, size_t cap);

/* headroom: bytes reserved at the front (e.g. for a record mark). */
int xdr_enc_init(struct xdr_enc *e, size_t hint, size_t headroom);
void xdr_enc_release(struct xdr_enc *e);
static inline int xdr_enc_error(const struct xdr_enc *e)
{
	return e->err;
}
/* Room for n bytes at the end, zero-filled; NULL on error (sticky). */
uint8_t *xdr_enc_reserve(struct xdr_enc *e, size_t n);

int xdr_enc_u32(struct xdr_enc *e, uint32_t v);
int xdr_enc_i32(struct xdr_enc *e, int32_t v);
int xdr_enc_u64(struct xdr_enc *e, uint64_t v);
int xdr_enc_i64(struct xdr_enc *e, int64_t v);
int xdr_enc_bool(struct xdr_enc *e, bool v);
int xdr_enc_opaque_fixed(struct xdr_enc *e, const void *data, size_t n);
/* Fails with -EINVAL (sticky) when len > max: the peer would reject it. */
int xdr_enc_opaque(struct xdr_enc *e, uint32_t max, const void *data,
		   size_t len);
int xdr_enc_string(struct xdr_enc *e, uint32_t max, const char *s);

/*
 * Every codec has one of these two shapes, so that the RPC layer, the
 * NFS version tables and the NLM/NSM procedure tables can hold any of
 * them: an encoder appends obj (a `const void *` to the type it names),
 * a decoder fills obj from the cursor and returns 0 or -EBADMSG.
 */
typedef int (*xdr_enc_fn)(struct xdr_enc *e, const void *obj);
typedef int (*xdr_dec_fn)(struct xdr_dec *d, void *obj);

/*
 * The codecs of one procedure of a program, both directions: a client
 * encodes the arguments and decodes the results, a server (our callback
 * listeners, the test fakes) the other way round.  A NULL codec (and size
 * 0) means void.
 */
struct xdr_proc_codec {
	uint32_t proc;
	const char *name;     /* "GRANTED_MSG", "SM_MON" */
	xdr_enc_fn enc_args;  /* caller side */
	xdr_dec_fn dec_args;  /* server side */
	size_t args_size;     /* sizeof the arguments structure */
	xdr_enc_fn enc_res;   /* server side */
	xdr_dec_fn dec_res;   /* caller side */
	size_t res_size;      /* sizeof the results structure */
};

#endif
