/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "nfs4_slots.h"

void nfs4_slots_init(struct nfs4_slots *s, uint32_t maxrequests)
{
	if (maxrequests == 0)
		maxrequests = 1;
	if (maxrequests > NFS4_SLOTS_MAX)
		maxrequests = NFS4_SLOTS_MAX;
	s->n = maxrequests;
	s->target = maxrequests - 1;
	s->in_use = 0;
	for (uint32_t i = 0; i < NFS4_SLOTS_MAX; i++) {
		s->busy[i] = false;
		s->seqid[i] = 1;
	}
}

int nfs4_slots_take(struct nfs4_slots *s, uint32_t *slotid, uint32_t *seqid)
{
	for (uint32_t i = 0; i <= s->target && i < s->n; i++) {
		if (s->busy[i])
			continue;
		s->busy[i] = true;
		s->in_use++;
		*slotid = i;
		*seqid = s->seqid[i];
		return 0;
	}
	return -1;
}

uint32_t nfs4_slots_highest(const struct nfs4_slots *s)
{
	for (uint32_t i = s->n; i-- > 0;)
		if (s->busy[i])
			return i;
	return 0;
}

void nfs4_slots_release(struct nfs4_slots *s, uint32_t slotid, bool advance,
			uint32_t target)
{
	if (slotid >= s->n || !s->busy[slotid])
		return;
	s->busy[slotid] = false;
	s->in_use--;
	if (advance)
		s->seqid[slotid]++;
	if (target != UINT32_MAX)
		s->target = target < s->n ? target : s->n - 1;
}

void nfs4_slots_misordered(struct nfs4_slots *s, uint32_t slotid,
			   uint32_t *seqid)
{
	if (slotid >= s->n || !s->busy[slotid])
		return;
	s->seqid[slotid]--;
	*seqid = s->seqid[slotid];
}
