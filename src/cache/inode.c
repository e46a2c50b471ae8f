/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "inode.h"

#include "../base/clock.h"
#include "data.h"
#include "wback.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct inode_table {
	pthread_mutex_t lock;
	struct acache_params params;  /* table lock */
	int64_t server_skew;          /* table lock; see attr.h */
	struct dcache *dc;
	GHashTable *by_id;   /* uint64_t id → struct inode * (owner) */
	GHashTable *by_fh;   /* struct nfs_fh3 * (inside the inode) → inode */
	uint64_t next_id;
	struct inode *root;
	unsigned nmultilink;          /* atomic: inodes with multilink set */
};

static guint fh_hash(gconstpointer p)
{
	const struct nfs_fh3 *fh = p;
	guint h = 2166136261u;

	for (uint32_t i = 0; i < fh->len; i++)
		h = (h ^ fh->data[i]) * 16777619u;
	return h;
}

static gboolean fh_equal(gconstpointer a, gconstpointer b)
{
	const struct nfs_fh3 *x = a, *y = b;

	return x->len == y->len && memcmp(x->data, y->data, x->len) == 0;
}

static struct inode *inode_new(const struct nfs_fh3 *fh, uint64_t id)
{
	struct inode *ino = calloc(1, sizeof(*ino));

	if (!ino)
		return NULL;
	ino->id = id;
	ino->fh = *fh;
	pthread_mutex_init(&ino->settle, NULL);
	pthread_mutex_init(&ino->lock, NULL);
	clock_cond_init(&ino->ra_cond);
	return ino;
}

static void inode_free(struct inode_table *t, struct inode *ino)
{
	if (ino->multilink)
		__atomic_sub_fetch(&t->nmultilink, 1, __ATOMIC_RELAXED);
	dfile_free(t->dc, ino->df);
	wback_free(ino->wb);
	free(ino->silly);
	free(ino->acc);
	if (ino->dir_names)
		g_hash_table_destroy(ino->dir_names);
	aclcache_clear(&ino->acl);
	pthread_cond_destroy(&ino->ra_cond);
	pthread_mutex_destroy(&ino->lock);
	pthread_mutex_destroy(&ino->settle);
	free(ino);
}

struct access_cache *inode_access_cache(struct inode *ino)
{
	if (!ino->acc)
		ino->acc = calloc(1, sizeof(*ino->acc));
	return ino->acc;
}

struct inode_table *inode_table_new(const struct nfs_fh3 *root_fh,
				    uint64_t root_id,
				    const struct acache_params *params,
				    struct dcache *dc)
{
	struct inode_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->root = inode_new(root_fh, root_id);
	if (!t->root) {
		free(t);
		return NULL;
	}
	t->root->nlookup = 1;
	t->params = *params;
	t->dc = dc;
	pthread_mutex_init(&t->lock, NULL);
	t->by_id = g_hash_table_new(g_int64_hash, g_int64_equal);
	t->by_fh = g_hash_table_new(fh_hash, fh_equal);
	t->next_id = root_id + 1;
	g_hash_table_insert(t->by_id, &t->root->id, t->root);
	g_hash_table_insert(t->by_fh, &t->root->fh, t->root);
	return t;
}

void inode_table_free(struct inode_table *t)
{
	GHashTableIter it;
	gpointer v;

	if (!t)
		return;
	g_hash_table_iter_init(&it, t->by_id);
	while (g_hash_table_iter_next(&it, NULL, &v))
		inode_free(t, v);
	g_hash_table_destroy(t->by_id);
	g_hash_table_destroy(t->by_fh);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

struct inode *inode_root(struct inode_table *t)
{
	return t->root;
}

struct inode *inode_get(struct inode_table *t, uint64_t id)
{
	struct inode *ino;

	pthread_mutex_lock(&t->lock);
	ino = g_hash_table_lookup(t->by_id, &id);
	pthread_mutex_unlock(&t->lock);
	return ino;
}

struct inode *inode_remember(struct inode_table *t, const struct nfs_fh3 *fh)
{
	struct inode *ino;

	pthread_mutex_lock(&t->lock);
	ino = g_hash_table_lookup(t->by_fh, fh);
	if (!ino) {
		ino = inode_new(fh, t->next_id++);
		if (!ino)
			goto out;
		g_hash_table_insert(t->by_id, &ino->id, ino);
		g_hash_table_insert(t->by_fh, &ino->fh, ino);
	}
	ino->nlookup++;
out:
	pthread_mutex_unlock(&t->lock);
	return ino;
}

struct inode *inode_find_fh(struct inode_table *t, const struct nfs_fh3 *fh)
{
	struct inode *ino;

	pthread_mutex_lock(&t->lock);
	ino = g_hash_table_lookup(t->by_fh, fh);
	if (ino)
		ino->nlookup++;
	pthread_mutex_unlock(&t->lock);
	return ino;
}

uint64_t inode_lookups(struct inode_table *t, const struct inode *ino)
{
	uint64_t n;

	pthread_mutex_lock(&t->lock);
	n = ino->nlookup;
	pthread_mutex_unlock(&t->lock);
	return n;
}

void inode_forget(struct inode_table *t, uint64_t id, uint64_t n)
{
	struct inode *ino;

	pthread_mutex_lock(&t->lock);
	ino = g_hash_table_lookup(t->by_id, &id);
	if (!ino) {
		pthread_mutex_unlock(&t->lock);
		return;
	}
	if (ino->nlookup < n) {
		fprintf(stderr, "nfsfuse: inode %llu forgotten %llu times but "
			"looked up only %llu: lookup accounting is broken\n",
			(unsigned long long)id, (unsigned long long)n,
			(unsigned long long)ino->nlookup);
		abort();
	}
	ino->nlookup -= n;
	if (ino->nlookup == 0 && ino != t->root) {
		g_hash_table_remove(t->by_id, &ino->id);
		g_hash_table_remove(t->by_fh, &ino->fh);
		inode_free(t, ino);
	}
	pthread_mutex_unlock(&t->lock);
}

bool inode_multilinked(struct inode_table *t)
{
	return __atomic_load_n(&t->nmultilink, __ATOMIC_RELAXED) > 0;
}

unsigned inode_count(struct inode_table *t)
{
	unsigned n;

	pthread_mutex_lock(&t->lock);
	n = g_hash_table_size(t->by_id);
	pthread_mutex_unlock(&t->lock);
	return n;
}

void inode_get_params(struct inode_table *t, struct acache_params *p)
{
	pthread_mutex_lock(&t->lock);
	*p = t->params;
	pthread_mutex_unlock(&t->lock);
}

void inode_set_params(struct inode_table *t, const struct acache_params *p)
{
	pthread_mutex_lock(&t->lock);
	t->params = *p;
	pthread_mutex_unlock(&t->lock);
}

struct dcache *inode_dcache(struct inode_table *t)
{
	return t->dc;
}

void inode_foreach(struct inode_table *t,
		   void (*fn)(struct inode *ino, void *ctx), void *ctx)
{
	GHashTableIter it;
	gpointer v;

	pthread_mutex_lock(&t->lock);
	g_hash_table_iter_init(&it, t->by_id);
	while (g_hash_table_iter_next(&it, NULL, &v))
		fn(v, ctx);
	pthread_mutex_unlock(&t->lock);
}

enum acache_change inode_set_attr(struct inode_table *t, struct inode *ino,
				  const struct fattr3 *a)
{
	struct acache_params p;
	enum acache_change change;
	int64_t skew;
	bool multi;

	pthread_mutex_lock(&t->lock);
	p = t->params;
	skew = t->server_skew;
	pthread_mutex_unlock(&t->lock);

	pthread_mutex_lock(&ino->lock);
	if (a->type < NF3REG || a->type > NF3FIFO ||
	    (ino->type && ino->type != a->type)) {
		pthread_mutex_unlock(&ino->lock);
		return ACACHE_REFUSED;
	}
	ino->type = a->type;
	change = acache_update(&ino->as, a, &p, clock_mono_ns(),
			       clock_real_ns(), &skew);
	multi = a->type != NF3DIR && a->nlink > 1;
	if (multi != ino->multilink) {
		ino->multilink = multi;
		if (multi)
			__atomic_add_fetch(&t->nmultilink, 1, __ATOMIC_RELAXED);
		else
			__atomic_sub_fetch(&t->nmultilink, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&ino->lock);

	pthread_mutex_lock(&t->lock);
	if (skew > t->server_skew)
		t->server_skew = skew;
	pthread_mutex_unlock(&t->lock);
	return change;
}

uint32_t inode_type(struct inode *ino)
{
	uint32_t type;

	pthread_mutex_lock(&ino->lock);
	type = ino->type;
	pthread_mutex_unlock(&ino->lock);
	return type;
}

bool inode_get_attr(struct inode *ino, struct fattr3 *a)
{
	bool valid;

	pthread_mutex_lock(&ino->lock);
	valid = ino->as.valid;
	if (valid)
		*a = ino->as.attr;
	pthread_mutex_unlock(&ino->lock);
	return valid;
}

bool inode_fresh_attr(struct inode *ino, struct fattr3 *a, double *left)
{
	int64_t now = clock_mono_ns();
	bool fresh;

	pthread_mutex_lock(&ino->lock);
	fresh = acache_fresh(&ino->as, now);
	if (fresh) {
		*a = ino->as.attr;
		*left = acache_remaining(&ino->as, now);
	}
	pthread_mutex_unlock(&ino->lock);
	return fresh;
}

void inode_invalidate_attr(struct inode *ino)
{
	pthread_mutex_lock(&ino->lock);
	acache_invalidate(&ino->as);
	pthread_mutex_unlock(&ino->lock);
}

bool inode_renew_attr(struct inode *ino, struct fattr3 *a)
{
	int64_t now = clock_mono_ns();
	bool renewed;

	pthread_mutex_lock(&ino->lock);
	renewed = acache_renew(&ino->as, now);
	if (renewed)
		*a = ino->as.attr;
	pthread_mutex_unlock(&ino->lock);
	return renewed;
}

void inode_expire_attr(struct inode *ino)
{
	pthread_mutex_lock(&ino->lock);
	acache_expire(&ino->as);
	pthread_mutex_unlock(&ino->lock);
}

bool inode_wcc_matches(struct inode *ino, const struct wcc_attr *pre)
{
	bool match;

	pthread_mutex_lock(&ino->lock);
	match = acache_wcc_matches(&ino->as, pre);
	pthread_mutex_unlock(&ino->lock);
	return match;
}

/* ---- directory completeness ---- */

/* Names remembered per complete directory: past this, a directory is
 * treated as any other (a LOOKUP per unknown name). */
#define INODE_DIR_NAMES_MAX 65536

void inode_dir_complete(struct inode *dir)
{
	pthread_mutex_lock(&dir->lock);
	if (!dir->dir_names)
		dir->dir_names = g_hash_table_new_full(g_str_hash, g_str_equal,
						       g_free, NULL);
	pthread_mutex_unlock(&dir->lock);
}

void inode_dir_add_name(struct inode *dir, const char *name)
{
	pthread_mutex_lock(&dir->lock);
	if (dir->dir_names) {
		if (g_hash_table_size(dir->dir_names) >= INODE_DIR_NAMES_MAX) {
			g_hash_table_destroy(dir->dir_names);
			dir->dir_names = NULL;
		} else {
			g_hash_table_add(dir->dir_names, g_strdup(name));
		}
	}
	pthread_mutex_unlock(&dir->lock);
}

void inode_dir_incomplete(struct inode *dir)
{
	pthread_mutex_lock(&dir->lock);
	if (dir->dir_names) {
		g_hash_table_destroy(dir->dir_names);
		dir->dir_names = NULL;
	}
	pthread_mutex_unlock(&dir->lock);
}

bool inode_dir_lacks(struct inode *dir, const char *name)
{
	bool lacks;

	pthread_mutex_lock(&dir->lock);
	lacks = dir->dir_names && !g_hash_table_contains(dir->dir_names, name);
	pthread_mutex_unlock(&dir->lock);
	return lacks;
}
