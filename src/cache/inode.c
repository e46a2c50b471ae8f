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

static void dir_known_free(struct dir_known *k);

struct inode_table {
	pthread_mutex_t lock;
	struct acache_params params;  /* table lock */
	int64_t server_skew;          /* table lock; see attr.h */
	struct dcache *dc;
	GHashTable *by_id;   /* uint64_t id → struct inode * (owner) */
	GHashTable *by_fh;   /* struct nfs_fh3 * (inside the inode) → inode */
	/* struct dent_key * (inside an inode's dent) → that dent; a dent
	 * whose key another inode took since is no longer in here. */
	GHashTable *by_name;
	uint64_t next_id;
	uint64_t name_seq;   /* counts inode_named() calls */
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

/* A directory's node id and a name in it. */
struct dent_key {
	uint64_t dir;
	const char *name;
};

struct inode_dent {
	struct dent_key key;    /* key.name points at name */
	struct inode *ino;
	struct inode_dent *next; /* the inode's other names */
	/* In its directory's `kids` while in by_name and the directory is
	 * in the table; kid_pprev NULL otherwise.  Table lock. */
	struct inode_dent *kid_next, **kid_pprev;
	uint64_t seq;           /* table's name_seq when last given */
	char name[];
};

/* Names kept per inode: a file with more links than this is found by
 * its last few names only. */
#define INODE_DENTS_MAX 4

static guint dent_hash(gconstpointer p)
{
	const struct dent_key *k = p;

	return g_str_hash(k->name) ^ (guint)(k->dir * 2654435761u);
}

static gboolean dent_equal(gconstpointer a, gconstpointer b)
{
	const struct dent_key *x = a, *y = b;

	return x->dir == y->dir && !strcmp(x->name, y->name);
}

/* d out of its directory's list, if in one.  Table lock held. */
static void kid_unlink(struct inode_dent *d)
{
	if (!d->kid_pprev)
		return;
	*d->kid_pprev = d->kid_next;
	if (d->kid_next)
		d->kid_next->kid_pprev = d->kid_pprev;
	d->kid_next = NULL;
	d->kid_pprev = NULL;
}

/* d, just put in by_name, into its directory's list.  Table lock held. */
static void kid_link(struct inode_table *t, struct inode_dent *d)
{
	struct inode *dir = g_hash_table_lookup(t->by_id, &d->key.dir);

	if (!dir)
		return;
	d->kid_next = dir->kids;
	if (dir->kids)
		dir->kids->kid_pprev = &d->kid_next;
	dir->kids = d;
	d->kid_pprev = &dir->kids;
}

/* d (in by_name) out of by_name and its directory's list.  Table lock
 * held. */
static void dent_unindex(struct inode_table *t, struct inode_dent *d)
{
	g_hash_table_remove(t->by_name, &d->key);
	kid_unlink(d);
}

/* Free d, out of the index unless another inode took its key since.
 * Table lock held. */
static void dent_free_locked(struct inode_table *t, struct inode_dent *d)
{
	if (g_hash_table_lookup(t->by_name, &d->key) == d)
		dent_unindex(t, d);
	kid_unlink(d);
	free(d);
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
	/* Names in it stay indexed under its node id, which no inode gets
	 * again, until they go; they leave its list now. */
	while (ino->kids)
		kid_unlink(ino->kids);
	while (ino->dent) {
		struct inode_dent *d = ino->dent;

		ino->dent = d->next;
		dent_free_locked(t, d);
	}
	if (ino->multilink)
		__atomic_sub_fetch(&t->nmultilink, 1, __ATOMIC_RELAXED);
	dfile_free(t->dc, ino->df);
	wback_free(ino->wb);
	free(ino->wb_before);
	free(ino->silly);
	free(ino->acc);
	dir_known_free(ino->dir_known);
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
	t->by_name = g_hash_table_new(dent_hash, dent_equal);
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
	g_hash_table_destroy(t->by_name);
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

struct inode *inode_ref(struct inode_table *t, uint64_t id)
{
	struct inode *ino;

	pthread_mutex_lock(&t->lock);
	ino = g_hash_table_lookup(t->by_id, &id);
	if (ino)
		ino->nlookup++;
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

void inode_named(struct inode_table *t, struct inode *ino, uint64_t dir,
		 const char *name)
{
	struct dent_key k = { dir, name };
	size_t len = strlen(name);
	struct inode_dent *d, *taken, **pp;
	unsigned kept = 0;
	bool same;

	/* The same name again (a listing, a LOOKUP revalidating) is the
	 * common case: it allocates nothing. */
	pthread_mutex_lock(&t->lock);
	d = g_hash_table_lookup(t->by_name, &k);
	same = d && d->ino == ino;
	if (same)
		d->seq = ++t->name_seq;
	pthread_mutex_unlock(&t->lock);
	if (same)
		return;
	d = malloc(sizeof(*d) + len + 1);
	if (!d)
		return;
	memcpy(d->name, name, len + 1);
	d->key.dir = dir;
	d->key.name = d->name;
	d->ino = ino;
	d->kid_next = NULL;
	d->kid_pprev = NULL;
	pthread_mutex_lock(&t->lock);
	pthread_mutex_lock(&ino->lock);
	/* Its names before, less those another inode took since and the
	 * oldest past the cap. */
	for (pp = &ino->dent; *pp;) {
		struct inode_dent *o = *pp;

		if (kept + 1 >= INODE_DENTS_MAX ||
		    g_hash_table_lookup(t->by_name, &o->key) != o ||
		    dent_equal(&o->key, &k)) {
			*pp = o->next;
			dent_free_locked(t, o);
		} else {
			kept++;
			pp = &o->next;
		}
	}
	d->next = ino->dent;
	ino->dent = d;
	pthread_mutex_unlock(&ino->lock);
	if ((taken = g_hash_table_lookup(t->by_name, &d->key)))
		kid_unlink(taken);
	d->seq = ++t->name_seq;
	g_hash_table_replace(t->by_name, &d->key, d);
	kid_link(t, d);
	pthread_mutex_unlock(&t->lock);
}

/* Take the name dir/name out of the index; its inode with one lookup
 * added when want, else NULL.  The inode keeps the name (newest first,
 * for the trace) until it is named again.  Table lock held. */
static struct inode *unname_locked(struct inode_table *t, uint64_t dir,
				   const char *name, bool want)
{
	struct dent_key k = { dir, name };
	struct inode_dent *d = g_hash_table_lookup(t->by_name, &k);

	if (!d)
		return NULL;
	dent_unindex(t, d);
	if (!want)
		return NULL;
	d->ino->nlookup++;
	return d->ino;
}

const char *inode_name(struct inode *ino, char *buf, size_t size)
{
	if (!size)
		return buf;
	pthread_mutex_lock(&ino->lock);
	snprintf(buf, size, "%s", ino->dent ? ino->dent->name : "");
	pthread_mutex_unlock(&ino->lock);
	return buf;
}

struct inode *inode_unnamed_take(struct inode_table *t, uint64_t dir,
				 const char *name)
{
	struct inode *ino;

	pthread_mutex_lock(&t->lock);
	ino = unname_locked(t, dir, name, true);
	pthread_mutex_unlock(&t->lock);
	return ino;
}

uint64_t inode_parent(struct inode *ino)
{
	uint64_t dir;

	pthread_mutex_lock(&ino->lock);
	dir = ino->dent ? ino->dent->key.dir : 0;
	pthread_mutex_unlock(&ino->lock);
	return dir;
}

void inode_unnamed(struct inode_table *t, uint64_t dir, const char *name)
{
	pthread_mutex_lock(&t->lock);
	unname_locked(t, dir, name, false);
	pthread_mutex_unlock(&t->lock);
}

struct inode *inode_renamed(struct inode_table *t, uint64_t dir,
			    const char *name, uint64_t newdir,
			    const char *newname)
{
	struct inode *ino;

	pthread_mutex_lock(&t->lock);
	ino = unname_locked(t, dir, name, true);
	pthread_mutex_unlock(&t->lock);
	if (ino)
		inode_named(t, ino, newdir, newname);
	return ino;
}

bool inode_kernel_names_mark(struct inode_table *t, struct inode *dir,
			     uint64_t *upto)
{
	bool has;

	pthread_mutex_lock(&t->lock);
	has = dir->kids != NULL;
	*upto = t->name_seq;
	pthread_mutex_unlock(&t->lock);
	return has;
}

void inode_kernel_names(struct inode_table *t, struct inode *dir,
			uint64_t upto,
			void (*fn)(const char *name, void *ctx), void *ctx)
{
	const struct inode_dent *d;

	pthread_mutex_lock(&t->lock);
	for (d = dir->kids; d; d = d->kid_next)
		if (d->seq <= upto)
			fn(d->name, ctx);
	pthread_mutex_unlock(&t->lock);
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

void inode_atime_moved(struct inode *ino)
{
	pthread_mutex_lock(&ino->lock);
	acache_atime_moved(&ino->as);
	pthread_mutex_unlock(&ino->lock);
}

bool inode_atime_known(struct inode *ino)
{
	bool known;

	pthread_mutex_lock(&ino->lock);
	known = !ino->as.atime_moved;
	pthread_mutex_unlock(&ino->lock);
	return known;
}

bool inode_invalidate_attr(struct inode *ino)
{
	bool had;

	pthread_mutex_lock(&ino->lock);
	had = ino->as.valid;
	acache_invalidate(&ino->as);
	pthread_mutex_unlock(&ino->lock);
	return had;
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

/* ---- what we know of a directory's names ---- */

struct dir_known {
	/* Complete (made by us, changed by nobody else since): every name
	 * we added; names we removed may linger, costing a LOOKUP, never a
	 * wrong answer.  NULL: not known to be complete. */
	GHashTable *names;      /* owned; name -> name */
	/* Names a LOOKUP found missing.  The kernel keeps that answer
	 * itself, but asks again before a create with O_EXCL or a rename
	 * over the name, which the Linux client sends without a LOOKUP. */
	GHashTable *absent;     /* owned; name -> name */
	/* Names a LOOKUP found, and the node id: the kernel asks again
	 * about a name it holds before a rename over it, or a mkdir or
	 * an O_EXCL create that then fails.  No more than the id: with
	 * the inode gone, so are the attributes the answer needs. */
	GHashTable *found;      /* owned; name -> node id */
};

/* Names remembered per directory: past this, a complete directory is
 * treated as any other (a LOOKUP per unknown name), and the absent names
 * are forgotten and gathered anew. */
#define INODE_DIR_NAMES_MAX 65536
#define INODE_DIR_ABSENT_MAX 4096
#define INODE_DIR_FOUND_MAX 4096

static void dir_known_free(struct dir_known *k)
{
	if (!k)
		return;
	if (k->names)
		g_hash_table_destroy(k->names);
	if (k->absent)
		g_hash_table_destroy(k->absent);
	if (k->found)
		g_hash_table_destroy(k->found);
	free(k);
}

static GHashTable *name_set(void)
{
	return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
}

/* The set *set, made if need be and emptied when full; NULL without
 * memory.  The lock is held. */
static GHashTable *room_in(GHashTable **set, unsigned max)
{
	if (*set && g_hash_table_size(*set) >= max)
		g_hash_table_remove_all(*set);
	if (!*set)
		*set = name_set();
	return *set;
}

/* dir->dir_known, made if need be; the lock is held.  NULL: no memory,
 * which only costs LOOKUPs. */
static struct dir_known *dir_known_get(struct inode *dir)
{
	if (!dir->dir_known)
		dir->dir_known = calloc(1, sizeof(*dir->dir_known));
	return dir->dir_known;
}

void inode_dir_complete(struct inode *dir)
{
	struct dir_known *k;

	pthread_mutex_lock(&dir->lock);
	dir->dir_gen++;
	if ((k = dir_known_get(dir)) && !k->names)
		k->names = name_set();
	pthread_mutex_unlock(&dir->lock);
}

void inode_dir_add_name(struct inode *dir, const char *name)
{
	struct dir_known *k;

	pthread_mutex_lock(&dir->lock);
	dir->dir_gen++;
	if ((k = dir->dir_known)) {
		if (k->absent)
			g_hash_table_remove(k->absent, name);
		if (k->found)
			g_hash_table_remove(k->found, name);
		if (k->names &&
		    g_hash_table_size(k->names) >= INODE_DIR_NAMES_MAX) {
			g_hash_table_destroy(k->names);
			k->names = NULL;
		} else if (k->names) {
			g_hash_table_add(k->names, g_strdup(name));
		}
	}
	pthread_mutex_unlock(&dir->lock);
}

struct names_stamp inode_dir_stamp(struct inode *dir)
{
	struct names_stamp s;

	pthread_mutex_lock(&dir->lock);
	s.gen = dir->dir_gen;
	s.epoch = dir->dir_epoch;
	pthread_mutex_unlock(&dir->lock);
	return s;
}

void inode_dir_drop_name(struct inode *dir, const char *name)
{
	struct dir_known *k;

	pthread_mutex_lock(&dir->lock);
	dir->dir_gen++;
	if ((k = dir->dir_known) && k->found)
		g_hash_table_remove(k->found, name);
	pthread_mutex_unlock(&dir->lock);
}

void inode_dir_absent(struct inode *dir, const char *name,
		      struct names_stamp s)
{
	struct dir_known *k;

	pthread_mutex_lock(&dir->lock);
	if (dir->dir_gen == s.gen && (k = dir_known_get(dir))) {
		if (k->found)
			g_hash_table_remove(k->found, name);
		g_hash_table_add(room_in(&k->absent, INODE_DIR_ABSENT_MAX),
				 g_strdup(name));
	}
	pthread_mutex_unlock(&dir->lock);
}

/* name holds the inode whose node id is id; the lock is held. */
static void keep_found(struct inode *dir, const char *name, uint64_t id)
{
	struct dir_known *k;

	/* Kept in the pointer itself: an id it cannot hold is not kept. */
	if (!id || id > UINTPTR_MAX || !(k = dir_known_get(dir)))
		return;
	if (k->absent)
		g_hash_table_remove(k->absent, name);
	g_hash_table_insert(room_in(&k->found, INODE_DIR_FOUND_MAX),
			    g_strdup(name), (gpointer)(uintptr_t)id);
}

void inode_dir_found(struct inode *dir, const char *name, uint64_t id,
		     struct names_stamp s)
{
	pthread_mutex_lock(&dir->lock);
	if (dir->dir_gen == s.gen)
		keep_found(dir, name, id);
	pthread_mutex_unlock(&dir->lock);
}

void inode_dir_listed(struct inode *dir, const char *name, uint64_t id,
		      struct names_stamp s)
{
	struct dir_known *k;

	pthread_mutex_lock(&dir->lock);
	/* A big listing fills the set once and stops: it must not push out
	 * what LOOKUPs found, nor empty the set over and over. */
	if (dir->dir_gen == s.gen &&
	    (!(k = dir->dir_known) || !k->found ||
	     g_hash_table_size(k->found) < INODE_DIR_FOUND_MAX))
		keep_found(dir, name, id);
	pthread_mutex_unlock(&dir->lock);
}

void inode_dir_made(struct inode *dir, const char *name, uint64_t id,
		    struct names_stamp s)
{
	pthread_mutex_lock(&dir->lock);
	if (dir->dir_epoch == s.epoch)
		keep_found(dir, name, id);
	pthread_mutex_unlock(&dir->lock);
}

uint64_t inode_dir_holds(struct inode *dir, const char *name)
{
	struct dir_known *k;
	uint64_t id = 0;

	pthread_mutex_lock(&dir->lock);
	if ((k = dir->dir_known) && k->found)
		id = (uintptr_t)g_hash_table_lookup(k->found, name);
	pthread_mutex_unlock(&dir->lock);
	return id;
}

void inode_dir_incomplete(struct inode *dir)
{
	pthread_mutex_lock(&dir->lock);
	dir->dir_gen++;
	dir->dir_epoch++;
	dir_known_free(dir->dir_known);
	dir->dir_known = NULL;
	pthread_mutex_unlock(&dir->lock);
}

enum dir_lack inode_dir_lacks(struct inode *dir, const char *name)
{
	enum dir_lack lack = DIR_MAY_HOLD;
	struct dir_known *k;

	pthread_mutex_lock(&dir->lock);
	if ((k = dir->dir_known)) {
		if (k->absent && g_hash_table_contains(k->absent, name))
			lack = DIR_LACKS_ABSENT;
		else if (k->names && !g_hash_table_contains(k->names, name))
			lack = DIR_LACKS_COMPLETE;
	}
	pthread_mutex_unlock(&dir->lock);
	return lack;
}
