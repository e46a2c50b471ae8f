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
	pthread_cond_init(&t->hook_idle, NULL);
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
	pthread_cond_destroy(&t->hook_idle);
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

/* [lock] Unlinks *p, copying out what its DELEGRETURN needs; its type. */
static uint32_t unlink_entry(struct nfs4_delegs *t, struct nfs4_deleg **p,
			     struct nfs_fh3 *fh, struct nfs4_stateid *sid)
{
	struct nfs4_deleg *d = *p;
	uint32_t type = d->type;

	*p = d->next;
	*fh = d->fh;
	*sid = d->sid;
	if (d->recalled)
		t->nrecalled--;
	t->count--;
	free(d);
	return type;
}

int nfs4_delegs_add(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
		    const struct nfs4_stateid *sid, uint32_t type,
		    int64_t now_ns)
{
	struct nfs4_deleg **p, *d;
	int ret = 0;

	if (fh->len == 0 || fh->len > NFS3_FHSIZE ||
	    (type != NFS4_OPEN_DELEGATE_READ &&
	     type != NFS4_OPEN_DELEGATE_WRITE))
		return -EINVAL;
	pthread_mutex_lock(&t->lock);
	p = find(t, fh);
	if (*p) {
		ret = memcmp((*p)->sid.other, sid->other, NFS4_OTHER_SIZE)
			      ? -EEXIST : -EALREADY;
	} else if (!(d = calloc(1, sizeof(*d)))) {
		ret = -ENOMEM;
	} else {
		d->fh = *fh;
		d->sid = *sid;
		d->type = type;
		d->granted_ns = now_ns;
		*p = d;
		t->count++;
	}
	pthread_mutex_unlock(&t->lock);
	return ret;
}

uint32_t nfs4_delegs_held(struct nfs4_delegs *t, const struct nfs_fh3 *fh)
{
	struct nfs4_deleg *d;
	uint32_t type = 0;

	pthread_mutex_lock(&t->lock);
	d = *find(t, fh);
	if (d && !d->recalled)
		type = d->type;
	pthread_mutex_unlock(&t->lock);
	return type;
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

size_t nfs4_delegs_recall_all(struct nfs4_delegs *t)
{
	size_t n = 0;

	pthread_mutex_lock(&t->lock);
	for (unsigned b = 0; b < NFS4_DELEG_BUCKETS; b++) {
		for (struct nfs4_deleg *d = t->bucket[b]; d; d = d->next) {
			if (d->recalled)
				continue;
			d->recalled = true;
			t->nrecalled++;
			n++;
		}
	}
	if (n)
		pthread_cond_broadcast(&t->wake);
	pthread_mutex_unlock(&t->lock);
	return n;
}

uint32_t nfs4_delegs_take_recalled(struct nfs4_delegs *t, struct nfs_fh3 *fh,
				   struct nfs4_stateid *sid)
{
	uint32_t found = 0;

	pthread_mutex_lock(&t->lock);
	for (unsigned b = 0; t->nrecalled && b < NFS4_DELEG_BUCKETS && !found;
	     b++) {
		for (struct nfs4_deleg **p = &t->bucket[b]; *p;
		     p = &(*p)->next) {
			if ((*p)->recalled) {
				found = unlink_entry(t, p, fh, sid);
				break;
			}
		}
	}
	pthread_mutex_unlock(&t->lock);
	return found;
}

uint32_t nfs4_delegs_take(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
			  uint32_t only, struct nfs4_stateid *sid)
{
	struct nfs4_deleg **p;
	struct nfs_fh3 out;
	uint32_t found = 0;

	pthread_mutex_lock(&t->lock);
	p = find(t, fh);
	if (*p && (only == 0 || (*p)->type == only))
		found = unlink_entry(t, p, &out, sid);
	pthread_mutex_unlock(&t->lock);
	return found;
}

uint32_t nfs4_delegs_take_any(struct nfs4_delegs *t, struct nfs_fh3 *fh,
			      struct nfs4_stateid *sid)
{
	uint32_t found = 0;

	pthread_mutex_lock(&t->lock);
	for (unsigned b = 0; t->count && b < NFS4_DELEG_BUCKETS; b++) {
		if (t->bucket[b]) {
			found = unlink_entry(t, &t->bucket[b], fh, sid);
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
			 uint32_t *type, int64_t *granted_ns, bool *recalled)
{
	struct nfs4_deleg *d;
	int ret = -ENOENT;

	pthread_mutex_lock(&t->lock);
	d = *find(t, fh);
	if (d) {
		*type = d->type;
		*granted_ns = d->granted_ns;
		*recalled = d->recalled;
		ret = 0;
	}
	pthread_mutex_unlock(&t->lock);
	return ret;
}

uint32_t nfs4_delegs_cb_change(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
			       const struct nfs4_deleg_report *r,
			       uint64_t *change)
{
	struct nfs4_deleg *d;
	uint32_t st = NFS4_OK;

	pthread_mutex_lock(&t->lock);
	d = *find(t, fh);
	if (!d || d->type != NFS4_OPEN_DELEGATE_WRITE) {
		st = NFS4ERR_BADHANDLE;
	} else if (!r->dirty) {
		/* Everything written is on the server: its value is true. */
		d->cb_change = 0;
		*change = r->change;
	} else {
		/* Above the server's value while our writes are pending,
		 * and higher again for each answer that follows more of
		 * them, so the server sees every change (RFC 8881 §10.4.3). */
		if (d->cb_change <= r->change)
			d->cb_change = r->change + 1;
		else if (r->wgen != d->cb_wgen)
			d->cb_change++;
		d->cb_wgen = r->wgen;
		*change = d->cb_change;
	}
	pthread_mutex_unlock(&t->lock);
	return st;
}
