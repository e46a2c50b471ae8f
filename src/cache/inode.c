/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "inode.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct inode_table {
	pthread_mutex_t lock;
	GHashTable *by_id;   /* uint64_t id → struct inode * (owner) */
	GHashTable *by_fh;   /* struct nfs_fh3 * (inside the inode) → inode */
	uint64_t next_id;
	struct inode *root;
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

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static struct inode *inode_new(const struct nfs_fh3 *fh, uint64_t id)
{
	struct inode *ino = calloc(1, sizeof(*ino));

	if (!ino)
		return NULL;
	ino->id = id;
	ino->fh = *fh;
	pthread_mutex_init(&ino->lock, NULL);
	return ino;
}

static void inode_free(struct inode *ino)
{
	pthread_mutex_destroy(&ino->lock);
	free(ino);
}

struct inode_table *inode_table_new(const struct nfs_fh3 *root_fh,
				    uint64_t root_id)
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
		inode_free(v);
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
		inode_free(ino);
	}
	pthread_mutex_unlock(&t->lock);
}

unsigned inode_count(struct inode_table *t)
{
	unsigned n;

	pthread_mutex_lock(&t->lock);
	n = g_hash_table_size(t->by_id);
	pthread_mutex_unlock(&t->lock);
	return n;
}

void inode_set_attr(struct inode *ino, const struct fattr3 *a)
{
	pthread_mutex_lock(&ino->lock);
	ino->attr = *a;
	ino->attr_valid = true;
	ino->attr_fetched = now_ns();
	pthread_mutex_unlock(&ino->lock);
}

bool inode_get_attr(struct inode *ino, struct fattr3 *a)
{
	bool valid;

	pthread_mutex_lock(&ino->lock);
	valid = ino->attr_valid;
	if (valid)
		*a = ino->attr;
	pthread_mutex_unlock(&ino->lock);
	return valid;
}

void inode_invalidate_attr(struct inode *ino)
{
	pthread_mutex_lock(&ino->lock);
	ino->attr_valid = false;
	pthread_mutex_unlock(&ino->lock);
}
