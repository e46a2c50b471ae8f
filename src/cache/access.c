/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "access.h"

#include <stdlib.h>
#include <string.h>

#include "attr.h"

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

void access_key_of(struct access_key *k, const struct rpc_cred *cred)
{
	uint32_t n = cred->ngids;

	if (n > RPC_AUTH_SYS_MAXGIDS)
		n = RPC_AUTH_SYS_MAXGIDS;
	memset(k, 0, sizeof(*k));
	k->uid = cred->uid;
	k->gid = cred->gid;
	k->ngids = n;
	memcpy(k->gids, cred->gids, n * sizeof(k->gids[0]));
	qsort(k->gids, n, sizeof(k->gids[0]), cmp_u32);
}

static bool key_eq(const struct access_key *a, const struct access_key *b)
{
	return a->uid == b->uid && a->gid == b->gid && a->ngids == b->ngids &&
	       !memcmp(a->gids, b->gids, a->ngids * sizeof(a->gids[0]));
}

bool access_lookup(const struct access_cache *c, const struct access_key *k,
		   uint32_t want, const struct nfstime3 *ctime, int64_t now,
		   uint32_t *granted)
{
	for (int i = 0; c && i < ACCESS_SLOTS; i++) {
		const struct access_entry *e = &c->e[i];

		if (!e->used || !key_eq(&e->key, k))
			continue;
		/* One slot per credential: a stale answer is the only one. */
		if ((e->asked & want) != want || !nfstime_eq(&e->ctime, ctime) ||
		    now - e->when >= ACCESS_MAX_AGE_NS || now < e->when)
			return false;
		*granted = e->granted;
		return true;
	}
	return false;
}

void access_store(struct access_cache *c, const struct access_key *k,
		  uint32_t asked, uint32_t granted,
		  const struct nfstime3 *ctime, int64_t now)
{
	struct access_entry *slot = NULL;

	for (int i = 0; i < ACCESS_SLOTS && !slot; i++)
		if (c->e[i].used && key_eq(&c->e[i].key, k))
			slot = &c->e[i];
	for (int i = 0; i < ACCESS_SLOTS && !slot; i++)
		if (!c->e[i].used)
			slot = &c->e[i];
	if (!slot) {
		slot = &c->e[0];
		for (int i = 1; i < ACCESS_SLOTS; i++)
			if (c->e[i].when < slot->when)
				slot = &c->e[i];
	}
	slot->used = true;
	slot->key = *k;
	slot->asked = asked;
	slot->granted = granted;
	slot->ctime = *ctime;
	slot->when = now;
}

unsigned access_count(const struct access_cache *c)
{
	unsigned n = 0;

	for (int i = 0; c && i < ACCESS_SLOTS; i++)
		n += c->e[i].used;
	return n;
}

void access_clear(struct access_cache *c)
{
	if (c)
		memset(c, 0, sizeof(*c));
}

uint32_t access_from_mode(const struct fattr3 *a, const struct rpc_cred *cred)
{
	uint32_t bits, granted = 0;
	bool in_group = cred->gid == a->gid;

	for (uint32_t k = 0; k < cred->ngids && k < RPC_AUTH_SYS_MAXGIDS; k++)
		in_group |= cred->gids[k] == a->gid;
	if (cred->uid == 0)
		bits = 06 | ((a->mode & 0111) || a->type == NF3DIR ? 01 : 0);
	else if (cred->uid == a->uid)
		bits = a->mode >> 6;
	else
		bits = in_group ? a->mode >> 3 : a->mode;
	if (bits & 04)
		granted |= ACCESS3_READ;
	if (bits & 02)
		granted |= ACCESS3_MODIFY | ACCESS3_EXTEND | ACCESS3_DELETE;
	if (bits & 01)
		granted |= ACCESS3_LOOKUP | ACCESS3_EXECUTE;
	return granted;
}
