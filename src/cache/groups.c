/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "groups.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../base/stats.h"

struct groups_slot {
	bool used;
	struct groups_key key;
	int64_t when;            /* monotonic ns of the read */
	uint32_t n;
	uint32_t gids[RPC_AUTH_SYS_MAXGIDS];
};

/* Direct-mapped by thread id: two threads that share a slot only cost
 * each other a read. */
struct groups_cache {
	pthread_mutex_t lock;
	struct groups_slot slot[GROUPS_SLOTS]; /* [lock] */
};

struct groups_cache *groups_cache_new(void)
{
	struct groups_cache *c = calloc(1, sizeof(*c));

	if (c)
		pthread_mutex_init(&c->lock, NULL);
	return c;
}

void groups_cache_free(struct groups_cache *c)
{
	if (!c)
		return;
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static struct groups_slot *slot_of(struct groups_cache *c, uint32_t tid)
{
	return &c->slot[(tid ^ (tid >> 6)) % GROUPS_SLOTS];
}

static bool same_key(const struct groups_key *a, const struct groups_key *b)
{
	return a->tid == b->tid && a->uid == b->uid && a->gid == b->gid;
}

bool groups_lookup(struct groups_cache *c, const struct groups_key *k,
		   int64_t now, uint32_t *gids, uint32_t *n)
{
	struct groups_slot *s;
	bool hit;

	if (k->tid == 0) {
		*n = 0;
		return true;
	}
	pthread_mutex_lock(&c->lock);
	s = slot_of(c, k->tid);
	/* A clock that went back (it cannot, but a test's may) is as old
	 * as the bound. */
	hit = s->used && same_key(&s->key, k) && now >= s->when &&
	      now - s->when < GROUPS_MAX_AGE_NS;
	if (hit) {
		*n = s->n;
		memcpy(gids, s->gids, s->n * sizeof(*gids));
		STAT_INC(groups_hits);
	} else {
		STAT_INC(groups_reads);
	}
	pthread_mutex_unlock(&c->lock);
	return hit;
}

void groups_store(struct groups_cache *c, const struct groups_key *k,
		  const uint32_t *gids, uint32_t n, int64_t now)
{
	struct groups_slot *s;

	if (k->tid == 0)
		return;
	if (n > RPC_AUTH_SYS_MAXGIDS)
		n = RPC_AUTH_SYS_MAXGIDS;
	pthread_mutex_lock(&c->lock);
	s = slot_of(c, k->tid);
	s->used = true;
	s->key = *k;
	s->when = now;
	s->n = n;
	if (n)
		memcpy(s->gids, gids, n * sizeof(*gids));
	pthread_mutex_unlock(&c->lock);
}
