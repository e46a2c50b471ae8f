/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of held locks: it mirrors what the server holds for us, with
 * the same POSIX rules (a lock replaces the owner's locks in its range, an
 * unlock may split one).  It is what we reclaim after a server reboot,
 * what close releases, and what `nfsfusectl locks` lists.
 *
 * Owners: the NLM owner handle is
 * "<fuse owner in hex>:<p|f>:<secret in hex>@<caller_name>" ('f' for
 * flock(2), whose owners are distinct from POSIX ones).  The secret is
 * random, drawn at each start: the server echoes the handle in its
 * GRANTED, and a GRANTED without it is not the server's (listener.c).
 * The svid
 * is the pid of the owner's first request (reported by other clients'
 * F_GETLK as l_pid).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/log.h"
#include "../base/trace.h"
#include "lock_int.h"

uint64_t lk_range_end(uint64_t start, uint64_t len)
{
	if (len == 0 || start + len < start)
		return UINT64_MAX;
	return start + len;
}

static uint64_t lk_end_to_len(uint64_t start, uint64_t end)
{
	return end == UINT64_MAX ? 0 : end - start;
}

bool lk_fh_eq(const struct nfs_fh3 *a, const struct nfs_fh3 *b)
{
	return a->len == b->len && !memcmp(a->data, b->data, a->len);
}

void lk_make_oh(struct lockmgr *lm, uint64_t owner, bool flock,
		    uint8_t *oh, uint32_t *len)
{
	int n = snprintf((char *)oh, LK_OH_MAX, "%016" PRIx64 ":%c:%016" PRIx64
			 "@%s", owner, flock ? 'f' : 'p', lm->oh_secret,
			 lm->caller_name);

	*len = n < 0 ? 0 : (n >= LK_OH_MAX ? LK_OH_MAX - 1 : (uint32_t)n);
}

/* mu held.  The svid of an owner that already holds a lock, else pid. */
int32_t lk_owner_svid(struct lockmgr *lm, uint64_t owner, bool flock,
			  pid_t pid)
{
	static int32_t counter = 1 << 22;

	for (struct lk_held *h = lm->held; h; h = h->next)
		if (h->owner == owner && h->flock == flock)
			return h->svid;
	return pid > 0 ? (int32_t)pid : counter++;
}

void lk_fill_alock(struct lockmgr *lm, const struct lock_req *r,
		       const uint8_t *oh, uint32_t oh_len, int32_t svid,
		       struct nlm_lock *a)
{
	memset(a, 0, sizeof(*a));
	a->caller_name = lm->caller_name;
	a->caller_name_len = (uint32_t)strlen(lm->caller_name);
	a->fh.data = r->fh->data;
	a->fh.len = r->fh->len;
	a->oh.data = oh;
	a->oh.len = oh_len;
	a->svid = svid;
	a->l_offset = r->start;
	a->l_len = r->len;
}

/* mu held.  Apply a grant or an unlock of [start, start+len) by owner on
 * fh to the table, POSIX style. */
void lk_held_apply(struct lockmgr *lm, const struct lock_req *r,
		       int32_t svid, const uint8_t *oh, uint32_t oh_len,
		       bool lock)
{
	uint64_t s = r->start, e = lk_range_end(r->start, r->len);
	struct lk_held **pp = &lm->held, *h;

	while ((h = *pp)) {
		uint64_t hs = h->start, he = lk_range_end(h->start, h->len);

		if (h->owner != r->owner || h->flock != r->flock ||
		    !lk_fh_eq(&h->fh, r->fh) || he <= s || hs >= e) {
			pp = &h->next;
			continue;
		}
		if (hs < s && he > e) { /* split in two */
			struct lk_held *tail = malloc(sizeof(*tail));

			if (tail) {
				*tail = *h;
				tail->start = e;
				tail->len = lk_end_to_len(e, he);
				tail->next = h->next;
				h->next = tail;
			}
			h->len = s - hs;
			pp = &h->next;
		} else if (hs < s) {
			h->len = s - hs;
			pp = &h->next;
		} else if (he > e) {
			h->start = e;
			h->len = lk_end_to_len(e, he);
			pp = &h->next;
		} else {
			*pp = h->next;
			free(h);
		}
	}
	if (lock) {
		h = calloc(1, sizeof(*h));
		if (!h) {
			nf_log(NF_LOG_ERR, "out of memory recording a lock");
			return;
		}
		h->fh = *r->fh;
		h->ino = r->ino;
		h->owner = r->owner;
		h->flock = r->flock;
		h->excl = r->excl;
		h->svid = svid;
		h->start = r->start;
		h->len = r->len;
		memcpy(h->oh, oh, oh_len);
		h->oh_len = oh_len;
		if (r->cred) {
			h->cred = *r->cred;
			h->cred.machinename = NULL;
		} else {
			h->cred.flavor = RPC_AUTH_NONE;
		}
		h->next = lm->held;
		lm->held = h;
	}
	lk_mark_dirty(lm);
}

bool lk_owner_overlaps(struct lockmgr *lm, const struct lock_req *r,
			   int32_t *svid)
{
	uint64_t s = r->start, e = lk_range_end(r->start, r->len);

	for (struct lk_held *h = lm->held; h; h = h->next)
		if (h->owner == r->owner && h->flock == r->flock &&
		    lk_fh_eq(&h->fh, r->fh) &&
		    lk_range_end(h->start, h->len) > s && h->start < e) {
			*svid = h->svid;
			return true;
		}
	return false;
}

void lk_record_grant(struct lockmgr *lm, const struct lock_req *r,
			 int32_t svid, const uint8_t *oh, uint32_t oh_len)
{
	bool first;

	pthread_mutex_lock(&lm->mu);
	lk_held_apply(lm, r, svid, oh, oh_len, true);
	first = !lm->monitored;
	lm->monitored = true;
	pthread_mutex_unlock(&lm->mu);
	/* Before the caller learns of it: a crash from here on is undone by
	 * the next start. */
	lk_journal_write(lm);
	if (first)
		lk_monitor_server(lm);
}
