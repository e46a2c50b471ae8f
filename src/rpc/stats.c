/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-procedure counters and a log-scale histogram of round-trip times:
 * values below 8 us have a bucket each; above, every power of two is cut in
 * four buckets, so a quantile read from it is within 25% of the truth.
 */
#include "rpc_int.h"

#include <errno.h>

static unsigned bucket_of(uint64_t v)
{
	unsigned msb, b;

	if (v < 8)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	b = (msb - 1) * 4 + (unsigned)((v >> (msb - 2)) & 3);
	return b < RPC_HIST_BUCKETS ? b : RPC_HIST_BUCKETS - 1;
}

/* The largest value that falls in bucket b. */
static uint64_t bucket_top(unsigned b)
{
	unsigned msb, sub;

	if (b < 8)
		return b;
	msb = b / 4 + 1;
	sub = b % 4;
	return ((uint64_t)(4 + sub + 1) << (msb - 2)) - 1;
}

void rpc_hist_add(struct rpc_hist *h, uint64_t usec)
{
	h->n[bucket_of(usec)]++;
}

uint64_t rpc_hist_quantile(const struct rpc_hist *h, double q)
{
	uint64_t total = 0, want, sum = 0;

	for (unsigned i = 0; i < RPC_HIST_BUCKETS; i++)
		total += h->n[i];
	if (total == 0)
		return 0;
	want = (uint64_t)(q * (double)total);
	if ((double)want < q * (double)total)
		want++;
	if (want == 0)
		want = 1;
	for (unsigned i = 0; i < RPC_HIST_BUCKETS; i++) {
		sum += h->n[i];
		if (sum >= want)
			return bucket_top(i);
	}
	return bucket_top(RPC_HIST_BUCKETS - 1);
}

void rpc_stats_account_locked(struct rpc_clnt *c, struct rpc_call_ent *e,
			      int err)
{
	struct rpc_stats_slot *s;

	if (e->proc >= c->nstats)
		return;
	s = &c->stats[e->proc];
	s->s.calls++;
	if (err && err != -EINTR)
		s->s.errors++;
	if (e->end_us > e->start_us)
		s->s.exe_us_total += e->end_us - e->start_us;
	if (e->recvd) {
		uint64_t from = e->sent_us && e->sent_us <= e->end_us
					? e->sent_us : e->start_us;
		uint64_t rtt = e->end_us - from;

		s->s.bytes_recv += e->recvd;
		s->s.rtt_us_total += rtt;
		rpc_hist_add(&s->hist, rtt);
	}
}
