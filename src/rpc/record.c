/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../xdr/xdr.h"

void rpc_record_reader_init(struct rpc_record_reader *r, size_t max)
{
	memset(r, 0, sizeof(*r));
	r->max = max;
}

void rpc_record_reader_reset(struct rpc_record_reader *r)
{
	size_t max = r->max;

	free(r->buf);
	rpc_record_reader_init(r, max);
}

void rpc_record_reader_free(struct rpc_record_reader *r)
{
	rpc_record_reader_reset(r);
}

/* Room for n more bytes; n was checked against the limit already. */
static int reserve(struct rpc_record_reader *r, size_t n)
{
	uint8_t *nb;

	if (r->cap - r->len >= n)
		return 0;
	/* A large record (a READ's reply) in memory a record had before:
	 * rpc_reply_release gives it back. */
	if (!r->buf && n >= XDR_POOL_MIN &&
	    (nb = xdr_pool_take(n, &r->cap))) {
		r->buf = nb;
		return 0;
	}
	nb = realloc(r->buf, r->len + n);
	if (!nb)
		return -ENOMEM;
	r->buf = nb;
	r->cap = r->len + n;
	return 0;
}

static int take_record(struct rpc_record_reader *r, uint8_t **rec,
		       size_t *rec_len)
{
	*rec = r->buf;
	*rec_len = r->len;
	r->buf = NULL;
	r->len = r->cap = 0;
	return 1;
}

/* The fragment body ended: is the record complete? */
static int end_of_fragment(struct rpc_record_reader *r, uint8_t **rec,
			   size_t *rec_len)
{
	r->in_body = false;
	if (r->last) {
		r->last = false;
		return take_record(r, rec, rec_len);
	}
	return 0;
}

/* A whole mark is in r->mark: start its fragment. */
static int start_fragment(struct rpc_record_reader *r)
{
	uint32_t m = xdr_get_u32(r->mark);
	uint32_t flen = m & ~RPC_RECORD_LAST;
	int ret;

	r->mark_have = 0;
	/* r->len <= r->max always holds, so the subtraction cannot wrap. */
	if (flen > r->max - r->len)
		return -EMSGSIZE;
	ret = reserve(r, flen);
	if (ret)
		return ret;
	r->in_body = true;
	r->last = (m & RPC_RECORD_LAST) != 0;
	r->frag_left = flen;
	return 0;
}

int rpc_record_feed(struct rpc_record_reader *r, const uint8_t *data,
		    size_t len, size_t *used, uint8_t **rec, size_t *rec_len)
{
	size_t off = 0, take;
	int ret = 0;

	while (off < len) {
		if (!r->in_body) {
			take = 4 - r->mark_have;
			if (take > len - off)
				take = len - off;
			memcpy(r->mark + r->mark_have, data + off, take);
			r->mark_have += (unsigned)take;
			off += take;
			if (r->mark_have < 4)
				break;
			ret = start_fragment(r);
			if (ret)
				break;
		} else {
			take = r->frag_left;
			if (take > len - off)
				take = len - off;
			memcpy(r->buf + r->len, data + off, take);
			r->len += take;
			r->frag_left -= (uint32_t)take;
			off += take;
		}
		if (r->frag_left == 0) {
			ret = end_of_fragment(r, rec, rec_len);
			if (ret)
				break;
		}
	}
	*used = off;
	return ret;
}

size_t rpc_record_direct(struct rpc_record_reader *r, uint8_t **dst)
{
	if (!r->in_body || r->frag_left == 0)
		return 0;
	*dst = r->buf + r->len;
	return r->frag_left;
}

int rpc_record_commit(struct rpc_record_reader *r, size_t n, uint8_t **rec,
		      size_t *rec_len)
{
	if (!r->in_body || n > r->frag_left)
		return -EINVAL;
	r->len += n;
	r->frag_left -= (uint32_t)n;
	if (r->frag_left == 0)
		return end_of_fragment(r, rec, rec_len);
	return 0;
}
