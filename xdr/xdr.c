/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "xdr.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

const uint8_t *xdr_dec_inline(struct xdr_dec *d, size_t n)
{
	const uint8_t *p = d->p;

	if (xdr_dec_left(d) < n)
		return NULL;
	d->p += n;
	return p;
}

int xdr_dec_u32(struct xdr_dec *d, uint32_t *v)
{
	const uint8_t *p = xdr_dec_inline(d, 4);

	if (!p)
		return -EBADMSG;
	*v = xdr_get_u32(p);
	return 0;
}

int xdr_dec_i32(struct xdr_dec *d, int32_t *v)
{
	uint32_t u;
	int ret = xdr_dec_u32(d, &u);

	if (ret == 0)
		*v = (int32_t)u;
	return ret;
}

int xdr_dec_u64(struct xdr_dec *d, uint64_t *v)
{
	const uint8_t *p = xdr_dec_inline(d, 8);

	if (!p)
		return -EBADMSG;
	*v = xdr_get_u64(p);
	return 0;
}

int xdr_dec_i64(struct xdr_dec *d, int64_t *v)
{
	uint64_t u;
	int ret = xdr_dec_u64(d, &u);

	if (ret == 0)
		*v = (int64_t)u;
	return ret;
}

int xdr_dec_bool(struct xdr_dec *d, bool *v)
{
	uint32_t u;
	int ret = xdr_dec_u32(d, &u);

	if (ret)
		return ret;
	if (u > 1)
		return -EBADMSG;
	*v = u;
	return 0;
}

int xdr_dec_opaque_fixed(struct xdr_dec *d, size_t n, const uint8_t **data)
{
	size_t pad = xdr_pad(n);

	/* n + pad cannot overflow in a way that matters: n is bounded by the
	 * callers' maxima, far below SIZE_MAX. */
	if (xdr_dec_left(d) < n || xdr_dec_left(d) - n < pad)
		return -EBADMSG;
	*data = d->p;
	d->p += n + pad;
	return 0;
}

int xdr_dec_opaque(struct xdr_dec *d, uint32_t max, const uint8_t **data,
		   uint32_t *len)
{
	uint32_t n;
	int ret = xdr_dec_u32(d, &n);

	if (ret)
		return ret;
	if (n > max)
		return -EBADMSG;
	ret = xdr_dec_opaque_fixed(d, n, data);
	if (ret == 0)
		*len = n;
	return ret;
}

int xdr_dec_string(struct xdr_dec *d, uint32_t max, const char **s,
		   uint32_t *len)
{
	const uint8_t *p;
	uint32_t n;
	int ret = xdr_dec_opaque(d, max, &p, &n);

	if (ret)
		return ret;
	if (memchr(p, '\0', n))
		return -EBADMSG;
	*s = (const char *)p;
	*len = n;
	return 0;
}

/*
 * Large buffers are kept for the next message.  A WRITE's data is copied
 * into its call, a READ's reply is received into one; in fresh memory
 * each time, the kernel faults in and zeroes that megabyte page by page
 * (87 % of the daemon's page faults in a large write).  A few buffers
 * are kept, so the memory this holds stays within POOL_BUFS * POOL_MAX.
 * Past POOL_MIN a buffer grows to what is asked plus POOL_SLACK (and by
 * a quarter at least) rather than doubling: a 1 MiB WRITE and the
 * operations after it fit in one buffer of about 1 MiB.
 */
#define POOL_MIN	XDR_POOL_MIN
#define POOL_MAX	(2u << 20)
#define POOL_SLACK	(64u << 10)
#define POOL_BUFS	8

static struct {
	pthread_mutex_t lock;
	unsigned n;
	uint8_t *buf[POOL_BUFS];
	size_t cap[POOL_BUFS];
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER };

uint8_t *xdr_pool_take(size_t need, size_t *cap)
{
	uint8_t *b = NULL;

	pthread_mutex_lock(&pool.lock);
	for (unsigned i = 0; i < pool.n; i++) {
		if (pool.cap[i] < need)
			continue;
		b = pool.buf[i];
		*cap = pool.cap[i];
		pool.n--;
		pool.buf[i] = pool.buf[pool.n];
		pool.cap[i] = pool.cap[pool.n];
		break;
	}
	pthread_mutex_unlock(&pool.lock);
	return b;
}

void xdr_pool_give(uint8_t *b, size_t cap)
{
	if (b && cap >= POOL_MIN && cap <= POOL_MAX + POOL_SLACK) {
		pthread_mutex_lock(&pool.lock);
		if (pool.n < POOL_BUFS) {
			pool.buf[pool.n] = b;
			pool.cap[pool.n] = cap;
			pool.n++;
			b = NULL;
		}
		pthread_mutex_unlock(&pool.lock);
	}
	free(b);
}

int xdr_enc_init(struct xdr_enc *e, size_t hint, size_t headroom)
{
	size_t cap = hint + headroom;

	if (cap < 64)
		cap = 64;
	e->buf = calloc(1, cap);
	e->cap = e->buf ? cap : 0;
	e->len = e->buf ? headroom : 0;
	e->err = e->buf ? 0 : -ENOMEM;
	return e->err;
}

void xdr_enc_release(struct xdr_enc *e)
{
	xdr_pool_give(e->buf, e->cap);
	e->buf = NULL;
	e->len = e->cap = 0;
}

/* Room for n bytes at the end, not filled in. */
static uint8_t *enc_grow(struct xdr_enc *e, size_t n)
{
	uint8_t *p;

	if (e->err)
		return NULL;
	if (e->cap - e->len < n) {
		size_t cap = e->cap ? e->cap : 64;
		uint8_t *nb;

		if (n > SIZE_MAX - POOL_SLACK - e->len) {
			e->err = -ENOMEM;
			return NULL;
		}
		while (cap - e->len < n && cap < POOL_MIN)
			cap *= 2;
		/* At least a quarter more: a message grown in small steps
		 * is still copied a bounded number of times per byte. */
		if (cap - e->len < n)
			cap = e->len + n + POOL_SLACK > cap + cap / 4 ?
			      e->len + n + POOL_SLACK : cap + cap / 4;
		if (cap >= POOL_MIN && (nb = xdr_pool_take(e->len + n, &cap))) {
			if (e->len)
				memcpy(nb, e->buf, e->len);
			free(e->buf);
		} else if (!(nb = realloc(e->buf, cap))) {
			e->err = -ENOMEM;
			return NULL;
		}
		e->buf = nb;
		e->cap = cap;
	}
	p = e->buf + e->len;
	e->len += n;
	return p;
}

uint8_t *xdr_enc_reserve(struct xdr_enc *e, size_t n)
{
	uint8_t *p = enc_grow(e, n);

	if (p)
		memset(p, 0, n);
	return p;
}

int xdr_enc_u32(struct xdr_enc *e, uint32_t v)
{
	uint8_t *p = xdr_enc_reserve(e, 4);

	if (!p)
		return e->err;
	xdr_put_u32(p, v);
	return 0;
}

int xdr_enc_i32(struct xdr_enc *e, int32_t v)
{
	return xdr_enc_u32(e, (uint32_t)v);
}

int xdr_enc_u64(struct xdr_enc *e, uint64_t v)
{
	uint8_t *p = xdr_enc_reserve(e, 8);

	if (!p)
		return e->err;
	xdr_put_u32(p, (uint32_t)(v >> 32));
	xdr_put_u32(p + 4, (uint32_t)v);
	return 0;
}

int xdr_enc_i64(struct xdr_enc *e, int64_t v)
{
	return xdr_enc_u64(e, (uint64_t)v);
}

int xdr_enc_bool(struct xdr_enc *e, bool v)
{
	return xdr_enc_u32(e, v ? 1 : 0);
}

int xdr_enc_opaque_fixed(struct xdr_enc *e, const void *data, size_t n)
{
	/* Only the padding is zeroed: a WRITE's data may be a megabyte. */
	uint8_t *p = enc_grow(e, n + xdr_pad(n));

	if (!p)
		return e->err;
	if (n)
		memcpy(p, data, n);
	memset(p + n, 0, xdr_pad(n));
	return 0;
}

int xdr_enc_opaque(struct xdr_enc *e, uint32_t max, const void *data,
		   size_t len)
{
	if (e->err)
		return e->err;
	if (len > max) {
		e->err = -EINVAL;
		return e->err;
	}
	if (xdr_enc_u32(e, (uint32_t)len))
		return e->err;
	return xdr_enc_opaque_fixed(e, data, len);
}

int xdr_enc_string(struct xdr_enc *e, uint32_t max, const char *s)
{
	return xdr_enc_opaque(e, max, s, strlen(s));
}
