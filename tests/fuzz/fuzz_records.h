/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A reference reassembly of RPC record marking (RFC 5531 section 11),
 * written apart from src/rpc/record.c so that the harnesses of every
 * record reader (fuzz_record, fuzz_listener, fuzz_nlm_client) can compare
 * what the reader returns with it.  It keeps the whole records of a
 * stream, in order, up to the first one longer than max (over is then
 * set) or the end of the stream (a record cut short is not kept).
 */
#ifndef NFSFUSE_TESTS_FUZZ_RECORDS_H
#define NFSFUSE_TESTS_FUZZ_RECORDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "record.h"

struct fuzz_records {
	uint8_t **recs;  /* malloc'd, owned */
	size_t *lens;
	size_t n;        /* whole records kept */
	bool over;       /* stopped at a record over the limit */
};

static inline void fuzz_records_parse(struct fuzz_records *r,
				      const uint8_t *s, size_t len,
				      size_t max)
{
	uint8_t *cur = NULL;
	size_t cur_len = 0, off = 0;

	memset(r, 0, sizeof(*r));
	r->recs = calloc(len / 4 + 1, sizeof(*r->recs));
	r->lens = calloc(len / 4 + 1, sizeof(*r->lens));
	if (!r->recs || !r->lens)
		abort();
	while (len - off >= 4) {
		uint32_t m = xdr_get_u32(s + off);
		size_t flen = m & ~RPC_RECORD_LAST;
		uint8_t *nc;

		off += 4;
		if (flen > max || cur_len > max - flen) {
			r->over = true;
			break;
		}
		if (flen > len - off)
			break; /* the stream ends inside the fragment */
		nc = realloc(cur, cur_len + flen + 1);
		if (!nc)
			abort();
		cur = nc;
		memcpy(cur + cur_len, s + off, flen);
		cur_len += flen;
		off += flen;
		if (m & RPC_RECORD_LAST) {
			r->recs[r->n] = cur;
			r->lens[r->n] = cur_len;
			r->n++;
			cur = NULL;
			cur_len = 0;
		}
	}
	free(cur);
}

static inline void fuzz_records_free(struct fuzz_records *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->recs[i]);
	free(r->recs);
	free(r->lens);
}

#endif
