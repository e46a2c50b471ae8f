/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of delegations held (nfs4_deleg.h): pure, no RPC. */
#include "nfs4_deleg_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct nfs4_delegs *nfs4_delegs_new(void)
{
	struct nfs4_delegs *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->wake, NULL);
	pthread_mutex_init(&t->hook_lock, NULL);
	return t;
}

void nfs4_delegs_free(struct nfs4_delegs *t)
{
	if (!t)
		return;
	for (unsigned b = 0; b < NFS4_DELEG_BUCKETS; b++) {
		struct nfs4_deleg *d = t->bucket[b], *n;

		for (; d; d = n) {
			n = d->next;
			free(d);
		}
	}
	pthread_mutex_destroy(&t->hook_lock);
	pthread_cond_destroy(&t->wake);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

static unsigned hash(const struct nfs_fh3 *fh)
{
	uint32_t h = 2166136261u;

	for (uint32_t i = 0; i < fh->len && i < NFS3_FHSIZE; i++)
		h = (h ^ fh->data[i]) * 16777619u;
	return h % NFS4_DELEG_BUCKETS;
}

static bool fh_eq(const struct nfs_fh3 *a, const struct nfs_fh3 *b)
{
	return a->len == b->len && a->len <= NFS3_FHSIZE &&
	       !memcmp(a->data, b->data, a->len);
}

/* [lock] The link that points at fh's entry, or at the NULL ending its
 * bucket. */
static struct nfs4_deleg **find(struct nfs4_delegs *t,
				const struct nfs_fh3 *fh)
{
	struct nfs4_deleg **p = &t->bucket[hash(fh)];

	while (*p && !fh_eq(&(*p)->fh, fh))
		p = &(*p)->next;
	return p;
}

/* [lock] Unlinks *p, copying out what its DELEGRETURN needs. */
static void unlink_entry(struct nfs4_delegs *t, struct nfs4_deleg **p,
			 struct nfs_fh3 *fh, struct nfs4_stateid *sid)
{
	struct nfs4_deleg *d = *p;

	*p = d->next;
	*fh = d->fh;
	*sid = d->sid;
	if (d->recalled)
		t->nrecalled--;
	t->count--;
	free(d);
}

int nfs4_delegs_add(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
		    const struct nfs4_stateid *sid, int64_t now_ns)
{
	struct nfs4_deleg **p, *d;
	int ret = 0;

	if (fh->len == 0 || fh->len > NFS3_FHSIZE)
		return -EINVAL;
	pthread_mutex_lock(&t->lock);
	p = find(t, fh);
	if (*p) {
		ret = -EEXIST;
	} else if (!(d = calloc(1, sizeof(*d)))) {
		ret = -ENOMEM;
	} else {
		d->fh = *fh;
		d->sid = *sid;
		d->granted_ns = now_ns;
		*p = d;
		t->count++;
	}
	pthread_mutex_unlock(&t->lock);
	return ret;
}

bool nfs4_delegs_held(struct nfs4_delegs *t, const struct nfs_fh3 *fh)
{
	struct nfs4_deleg *d;
	bool held;

	pthread_mutex_lock(&t->lock);
	d = *find(t, fh);
	held = d && !d->recalled;
	pthread_mutex_unlock(&t->lock);
	return held;
}

uint32_t nfs4_delegs_recall(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
			    const struct nfs4_stateid *sid, bool *queued)
{
	struct nfs4_deleg *d;
	uint32_t st = NFS4_OK;

	*queued = false;
	pthread_mutex_lock(&t->lock);
	d = *find(t, fh);
	if (!d) {
		st = NFS4ERR_BADHANDLE;
	} else if (memcmp(d->sid.other, sid->other, NFS4_OTHER_SIZE)) {
		st = NFS4ERR_BAD_STATEID;
	} else if (!d->recalled) {
		d->recalled = true;
		t->nrecalled++;
		*queued = true;
		pthread_cond_broadcast(&t->wake);
	}
	pthread_mutex_unlock(&t->lock);
	return st;
}

int nfs4_delegs_take_recalled(struct nfs4_delegs *t, struct nfs_fh3 *fh,
			      struct nfs4_stateid *sid)
{
	int found = 0;

	pthread_mutex_lock(&t->lock);
	for (unsigned b = 0; t->nrecalled && b < NFS4_DELEG_BUCKETS && !found;
	     b++) {
		for (struct nfs4_deleg **p = &t->bucket[b]; *p;
		     p = &(*p)->next) {
			if ((*p)->recalled) {
				unlink_entry(t, p, fh, sid);
				found = 1;
				break;
			}
		}
	}
	pthread_mutex_unlock(&t->lock);
	return found;
}

int nfs4_delegs_take(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
		     struct nfs4_stateid *sid)
{
	struct nfs4_deleg **p;
	struct nfs_fh3 out;
	int found = 0;

	pthread_mutex_lock(&t->lock);
	p = find(t, fh);
	if (*p) {
		unlink_entry(t, p, &out, sid);
		found = 1;
	}
	pthread_mutex_unlock(&t->lock);
	return found;
}

int nfs4_delegs_take_any(struct nfs4_delegs *t, struct nfs_fh3 *fh,
			 struct nfs4_stateid *sid)
{
	int found = 0;

	pthread_mutex_lock(&t->lock);
	for (unsigned b = 0; t->count && b < NFS4_DELEG_BUCKETS; b++) {
		if (t->bucket[b]) {
			unlink_entry(t, &t->bucket[b], fh, sid);
			found = 1;
			break;
		}
	}
	pthread_mutex_unlock(&t->lock);
	return found;
}

size_t nfs4_delegs_count(struct nfs4_delegs *t)
{
	size_t n;

	pthread_mutex_lock(&t->lock);
	n = t->count;
	pthread_mutex_unlock(&t->lock);
	return n;
}

int nfs4_delegs_describe(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
			 int64_t *granted_ns, bool *recalled)
{
	struct nfs4_deleg *d;
	int ret = -ENOENT;

	pthread_mutex_lock(&t->lock);
	d = *find(t, fh);
	if (d) {
		*granted_ns = d->granted_ns;
		*recalled = d->recalled;
		ret = 0;
	}
	pthread_mutex_unlock(&t->lock);
	return ret;
}
