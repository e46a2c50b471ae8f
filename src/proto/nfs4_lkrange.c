/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "nfs4_lkrange.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void nfs4_lkranges_init(struct nfs4_lkranges *s)
{
	s->r = NULL;
	s->n = 0;
}

void nfs4_lkranges_free(struct nfs4_lkranges *s)
{
	free(s->r);
	nfs4_lkranges_init(s);
}

static uint64_t range_end(uint64_t start, uint64_t len)
{
	if (len == 0 || len > UINT64_MAX - start)
		return UINT64_MAX;
	return start + len;
}

uint64_t nfs4_lkrange_len(const struct nfs4_lkrange *r)
{
	return r->end == UINT64_MAX ? 0 : r->end - r->start;
}

static void put(struct nfs4_lkrange *out, size_t *n, uint64_t start,
		uint64_t end, bool excl)
{
	/* Ranges arrive sorted and disjoint: only the previous one can
	 * touch this one. */
	if (*n && out[*n - 1].end == start && out[*n - 1].excl == excl) {
		out[*n - 1].end = end;
		return;
	}
	out[(*n)++] = (struct nfs4_lkrange){ start, end, excl };
}

int nfs4_lkranges_apply(struct nfs4_lkranges *s, uint64_t start,
			uint64_t len, bool lock, bool excl)
{
	uint64_t e = range_end(start, len);
	struct nfs4_lkrange *out;
	bool placed = !lock;
	size_t n = 0;

	if (e <= start)
		return 0; /* empty */
	/* At most one range is split in two, and one is added. */
	out = malloc((s->n + 2) * sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		const struct nfs4_lkrange *h = &s->r[i];

		if (h->end <= start || h->start >= e) {
			if (!placed && h->start >= e) {
				put(out, &n, start, e, excl);
				placed = true;
			}
			put(out, &n, h->start, h->end, h->excl);
			continue;
		}
		if (h->start < start)
			put(out, &n, h->start, start, h->excl);
		if (!placed) {
			put(out, &n, start, e, excl);
			placed = true;
		}
		if (h->end > e)
			put(out, &n, e, h->end, h->excl);
	}
	if (!placed)
		put(out, &n, start, e, excl);
	free(s->r);
	s->r = out;
	s->n = n;
	return 0;
}

int nfs4_lkranges_copy(struct nfs4_lkranges *dst,
		       const struct nfs4_lkranges *src)
{
	nfs4_lkranges_free(dst);
	if (!src->n)
		return 0;
	dst->r = malloc(src->n * sizeof(*dst->r));
	if (!dst->r)
		return -ENOMEM;
	memcpy(dst->r, src->r, src->n * sizeof(*dst->r));
	dst->n = src->n;
	return 0;
}
