/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of open state (nfs4_open.h): pure, no RPC. */
#include "nfs4_open.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/clock.h"

#define NBUCKETS 256u
/* How often an open waiting for another change of its entry looks at
 * its interrupt flag. */
#define OPEN_WAIT_SLICE_NS (100 * 1000 * 1000ll)

struct nfs4_open {
	struct nfs4_open *next;      /* in its bucket */
	struct nfs_fh3 fh;
	uint32_t uid;
	struct nfs4_stateid stateid; /* valid when have != 0 */
	uint32_t have;               /* share access the server holds */
	unsigned count[4];           /* opens by access (1, 2, 3) */
	unsigned claims;             /* begin_open not yet ended */
	bool busy;                   /* a state change is on the wire */
	bool gone;                   /* out of the table (CLOSEd) */
	bool lost;                   /* the server lost it: I/O is EIO */
	/* No open of ours left, kept open on the server while a
	 * delegation lets the next open of it be made here. */
	bool idle;
};

struct nfs4_opens {
	pthread_mutex_t lock;
	pthread_cond_t idle;         /* [lock] an entry stopped being busy */
	struct nfs4_open *bucket[NBUCKETS]; /* [lock] */
};

struct nfs4_opens *nfs4_opens_new(void)
{
	struct nfs4_opens *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	pthread_mutex_init(&t->lock, NULL);
	clock_cond_init(&t->idle);
	return t;
}

void nfs4_opens_free(struct nfs4_opens *t)
{
	if (!t)
		return;
	for (unsigned b = 0; b < NBUCKETS; b++) {
		struct nfs4_open *o = t->bucket[b], *n;

		for (; o; o = n) {
			n = o->next;
			free(o);
		}
	}
	pthread_cond_destroy(&t->idle);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

int nfs4_open_owner_name(uint32_t uid, char out[NFS4_OPEN_OWNER_MAX])
{
	return snprintf(out, NFS4_OPEN_OWNER_MAX, "open-uid-%u",
			(unsigned)uid);
}

uint32_t nfs4_open_access_of(int flags)
{
	switch (flags & O_ACCMODE) {
	case O_RDONLY:
		return NFS4_SHARE_ACCESS_READ;
	case O_WRONLY:
		return NFS4_SHARE_ACCESS_WRITE;
	default:
		return NFS4_SHARE_ACCESS_BOTH;
	}
}

static unsigned hash(const struct nfs_fh3 *fh, uint32_t uid)
{
	uint32_t h = 2166136261u ^ uid;

	for (uint32_t i = 0; i < fh->len && i < NFS3_FHSIZE; i++) {
		h ^= fh->data[i];
		h *= 16777619u;
	}
	return h % NBUCKETS;
}

static bool same(const struct nfs4_open *o, const struct nfs_fh3 *fh,
		 uint32_t uid)
{
	return o->uid == uid && o->fh.len == fh->len &&
	       !memcmp(o->fh.data, fh->data, fh->len);
}

/* The entry of (fh, uid) still in the table, or NULL.  [lock] */
static struct nfs4_open *find(struct nfs4_opens *t, const struct nfs_fh3 *fh,
			      uint32_t uid)
{
	struct nfs4_open *o = t->bucket[hash(fh, uid)];

	while (o && !same(o, fh, uid))
		o = o->next;
	return o;
}

static void unlink_entry(struct nfs4_opens *t, struct nfs4_open *o)
{
	struct nfs4_open **p = &t->bucket[hash(&o->fh, o->uid)];

	while (*p && *p != o)
		p = &(*p)->next;
	if (*p)
		*p = o->next;
	o->gone = true;
}

static unsigned total(const struct nfs4_open *o)
{
	return o->count[1] + o->count[2] + o->count[3];
}

static uint32_t union_of(const struct nfs4_open *o)
{
	uint32_t a = 0;

	for (unsigned i = 1; i < 4; i++)
		if (o->count[i])
			a |= i;
	return a;
}

/* An entry nobody counts or claims any more leaves and is freed. [lock] */
static void maybe_free(struct nfs4_opens *t, struct nfs4_open *o)
{
	if (total(o) || o->claims || o->busy || o->idle)
		return;
	if (!o->gone)
		unlink_entry(t, o);
	free(o);
}

int nfs4_opens_begin_open(struct nfs4_opens *t, const struct nfs_fh3 *fh,
			  uint32_t uid, volatile int *interrupted,
			  struct nfs4_open **out)
{
	struct nfs4_open *o;
	int ret = 0;

	*out = NULL;
	if (fh->len == 0 || fh->len > NFS3_FHSIZE)
		return -ENOMEM;
	pthread_mutex_lock(&t->lock);
	for (;;) {
		o = find(t, fh, uid);
		if (!o) {
			o = calloc(1, sizeof(*o));
			if (!o) {
				ret = -ENOMEM;
				break;
			}
			o->fh = *fh;
			o->uid = uid;
			o->next = t->bucket[hash(fh, uid)];
			t->bucket[hash(fh, uid)] = o;
		}
		o->claims++;
		/* The other change's call ends with its own caller; this
		 * caller may die first. */
		while (o->busy && !(interrupted && *interrupted)) {
			struct timespec ts =
				clock_mono_deadline(OPEN_WAIT_SLICE_NS);

			pthread_cond_timedwait(&t->idle, &t->lock, &ts);
		}
		if (o->busy) {
			ret = -EINTR;
			o->claims--;
			maybe_free(t, o);
			break;
		}
		if (!o->gone)
			break;
		/* CLOSEd while we waited: start over with a new entry. */
		o->claims--;
		maybe_free(t, o);
	}
	if (!ret) {
		o->busy = true;
		*out = o;
	}
	pthread_mutex_unlock(&t->lock);
	return ret;
}

/* Is b a later version of the same state than a (seqid wraps, skipping
 * 0)?  A different "other" is new state: take it. */
static bool newer(const struct nfs4_stateid *a, const struct nfs4_stateid *b)
{
	if (memcmp(a->other, b->other, NFS4_OTHER_SIZE))
		return true;
	return (int32_t)(b->seqid - a->seqid) >= 0;
}

struct nfs4_open *nfs4_opens_end_open(struct nfs4_opens *t,
				      struct nfs4_open *o, uint32_t access,
				      bool ok,
				      const struct nfs4_stateid *sid)
{
	pthread_mutex_lock(&t->lock);
	o->busy = false;
	o->claims--;
	access &= NFS4_SHARE_ACCESS_BOTH;
	if (ok && access) {
		if (!o->have || o->lost || newer(&o->stateid, sid))
			o->stateid = *sid;
		o->lost = false; /* opened again: usable again */
		o->have |= access;
		o->count[access]++;
		o->idle = false;
	}
	pthread_cond_broadcast(&t->idle);
	if (!ok || !access) {
		maybe_free(t, o);
		o = NULL;
	}
	pthread_mutex_unlock(&t->lock);
	return o;
}

enum nfs4_open_action nfs4_opens_begin_release(struct nfs4_opens *t,
					       struct nfs4_open *o,
					       uint32_t access,
					       uint32_t *want,
					       struct nfs4_stateid *sid)
{
	return nfs4_opens_begin_release_idle(t, o, access, false, want, sid);
}

enum nfs4_open_action nfs4_opens_begin_release_idle(struct nfs4_opens *t,
						    struct nfs4_open *o,
						    uint32_t access,
						    bool keep_idle,
						    uint32_t *want,
						    struct nfs4_stateid *sid)
{
	enum nfs4_open_action act = NFS4_OPEN_KEEP;

	access &= NFS4_SHARE_ACCESS_BOTH;
	pthread_mutex_lock(&t->lock);
	while (o->busy)
		pthread_cond_wait(&t->idle, &t->lock);
	if (access && o->count[access])
		o->count[access]--;
	*want = union_of(o);
	*sid = o->stateid;
	if (total(o) == 0 && keep_idle && !o->lost && o->have)
		o->idle = true;
	else if (total(o) == 0)
		act = NFS4_OPEN_CLOSE;
	else if (*want != o->have)
		act = NFS4_OPEN_DOWNGRADE;
	if (act != NFS4_OPEN_KEEP)
		o->busy = true;
	pthread_mutex_unlock(&t->lock);
	return act;
}

void nfs4_opens_end_release(struct nfs4_opens *t, struct nfs4_open *o,
			    enum nfs4_open_action action, bool ok,
			    const struct nfs4_stateid *sid)
{
	pthread_mutex_lock(&t->lock);
	o->busy = false;
	if (action == NFS4_OPEN_CLOSE) {
		/* Opens that waited for us find it gone and start again. */
		o->have = 0;
		if (!o->gone)
			unlink_entry(t, o);
	} else if (action == NFS4_OPEN_DOWNGRADE && ok) {
		o->have = union_of(o);
		if (newer(&o->stateid, sid))
			o->stateid = *sid;
	}
	pthread_cond_broadcast(&t->idle);
	maybe_free(t, o);
	pthread_mutex_unlock(&t->lock);
}

struct nfs4_open *nfs4_opens_reuse(struct nfs4_opens *t,
				   const struct nfs_fh3 *fh, uint32_t uid,
				   uint32_t access)
{
	struct nfs4_open *o;

	access &= NFS4_SHARE_ACCESS_BOTH;
	if (!access || fh->len == 0 || fh->len > NFS3_FHSIZE)
		return NULL;
	pthread_mutex_lock(&t->lock);
	o = find(t, fh, uid);
	if (o && !o->busy && !o->gone && !o->lost && o->claims == 0 &&
	    (o->have & access) == access) {
		o->count[access]++;
		o->idle = false;
	} else {
		o = NULL;
	}
	pthread_mutex_unlock(&t->lock);
	return o;
}

struct nfs4_open *nfs4_opens_take_idle(struct nfs4_opens *t,
				       const struct nfs_fh3 *fh,
				       uint32_t *uid,
				       struct nfs4_stateid *sid)
{
	struct nfs4_open *found = NULL;

	pthread_mutex_lock(&t->lock);
	for (unsigned b = 0; b < NBUCKETS && !found; b++)
		for (struct nfs4_open *o = t->bucket[b]; o; o = o->next) {
			if (!o->idle || o->busy || total(o) || o->claims ||
			    (fh && (o->fh.len != fh->len ||
				    memcmp(o->fh.data, fh->data, fh->len))))
				continue;
			o->idle = false;
			o->busy = true;
			*uid = o->uid;
			*sid = o->stateid;
			found = o;
			break;
		}
	pthread_mutex_unlock(&t->lock);
	return found;
}

int nfs4_opens_stateid(struct nfs4_opens *t, const struct nfs_fh3 *fh,
		       uint32_t uid, struct nfs4_stateid *out)
{
	return nfs4_opens_stateid_for(t, fh, uid, 0, out);
}

int nfs4_opens_stateid_for(struct nfs4_opens *t, const struct nfs_fh3 *fh,
			   uint32_t uid, uint32_t need,
			   struct nfs4_stateid *out)
{
	struct nfs4_open *o;
	int ret = -ENOENT;

	if (!t || !fh || fh->len == 0 || fh->len > NFS3_FHSIZE)
		return -ENOENT;
	pthread_mutex_lock(&t->lock);
	o = find(t, fh, uid);
	if (o && o->have && (o->have & need) == need) {
		*out = o->stateid;
		ret = o->lost ? -EIO : 0;
	}
	pthread_mutex_unlock(&t->lock);
	return ret;
}

uint32_t nfs4_opens_access(struct nfs4_opens *t, const struct nfs_fh3 *fh,
			   uint32_t uid)
{
	struct nfs4_open *o;
	uint32_t a = 0;

	if (!t || !fh || fh->len == 0 || fh->len > NFS3_FHSIZE)
		return 0;
	pthread_mutex_lock(&t->lock);
	o = find(t, fh, uid);
	if (o)
		a = o->have;
	pthread_mutex_unlock(&t->lock);
	return a;
}

int nfs4_opens_walk(struct nfs4_opens *t, nfs4_open_walk_fn fn, void *ctx)
{
	struct nfs4_open_info *snap = NULL;
	size_t n = 0, cap = 0;
	int ret = 0;

	pthread_mutex_lock(&t->lock);
	for (unsigned b = 0; b < NBUCKETS && ret == 0; b++)
		for (struct nfs4_open *o = t->bucket[b]; o; o = o->next) {
			if (!o->have)
				continue;
			if (n == cap) {
				size_t nc = cap ? 2 * cap : 16;
				void *p = realloc(snap, nc * sizeof(*snap));

				if (!p) {
					ret = -ENOMEM;
					break;
				}
				snap = p;
				cap = nc;
			}
			snap[n++] = (struct nfs4_open_info){
				.fh = o->fh, .uid = o->uid, .access = o->have,
				.stateid = o->stateid, .nopens = total(o) };
		}
	pthread_mutex_unlock(&t->lock);
	for (size_t i = 0; i < n && ret == 0; i++)
		ret = fn(&snap[i], ctx);
	free(snap);
	return ret;
}

int nfs4_opens_set_stateid(struct nfs4_opens *t, const struct nfs_fh3 *fh,
			   uint32_t uid, const struct nfs4_stateid *sid)
{
	struct nfs4_open *o;
	int ret = -ENOENT;

	pthread_mutex_lock(&t->lock);
	o = find(t, fh, uid);
	if (o && o->have) {
		o->stateid = *sid;
		o->lost = false;
		ret = 0;
	}
	pthread_mutex_unlock(&t->lock);
	return ret;
}

int nfs4_opens_mark_lost(struct nfs4_opens *t, const struct nfs_fh3 *fh,
			 uint32_t uid)
{
	struct nfs4_open *o;
	int ret = -ENOENT;

	pthread_mutex_lock(&t->lock);
	o = find(t, fh, uid);
	if (o && o->have) {
		o->lost = true;
		ret = 0;
	}
	pthread_mutex_unlock(&t->lock);
	return ret;
}

unsigned nfs4_opens_count(struct nfs4_opens *t)
{
	unsigned n = 0;

	pthread_mutex_lock(&t->lock);
	for (unsigned b = 0; b < NBUCKETS; b++)
		for (struct nfs4_open *o = t->bucket[b]; o; o = o->next)
			n += o->have != 0;
	pthread_mutex_unlock(&t->lock);
	return n;
}

void nfs4_open_fh_of(const struct nfs4_open *o, struct nfs_fh3 *out)
{
	*out = o->fh;
}
