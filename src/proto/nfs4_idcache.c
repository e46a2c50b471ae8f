/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the user and group databases answered, kept: nfs4_idcache.h. */
#include "nfs4_idcache.h"

#include <glib.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/clock.h"
#include "../base/stats.h"

#define LOOK_EVERY_NS CLOCK_NS_PER_SEC
#define KEEP_NS (600 * CLOCK_NS_PER_SEC)
/* Past this many answers in one table, it starts again empty. */
#define ANSWERS_MAX 4096u

/* What says a database file is the one read before. */
struct file_sig {
	bool exists;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static GHashTable *ids[2];   /* owner string (owned) -> id */
static GHashTable *names[2]; /* id -> owner string (owned) */
static int64_t since;        /* when the answers began */
static int64_t looked;       /* last look at the files; 0: look now */
static const char *files[2] = { "/etc/passwd", "/etc/group" };
static struct file_sig sigs[2];

static struct file_sig sig_of(const char *path)
{
	struct file_sig s = { 0 };
	struct stat st;

	if (stat(path, &st) == 0)
		s = (struct file_sig){ true, st.st_dev, st.st_ino, st.st_size,
				       st.st_mtim, st.st_ctim };
	return s;
}

static bool sig_eq(const struct file_sig *a, const struct file_sig *b)
{
	return a->exists == b->exists && a->dev == b->dev &&
	       a->ino == b->ino && a->size == b->size &&
	       a->mtime.tv_sec == b->mtime.tv_sec &&
	       a->mtime.tv_nsec == b->mtime.tv_nsec &&
	       a->ctime.tv_sec == b->ctime.tv_sec &&
	       a->ctime.tv_nsec == b->ctime.tv_nsec;
}

static void clear_locked(void)
{
	for (int d = 0; d < 2; d++) {
		if (ids[d])
			g_hash_table_remove_all(ids[d]);
		if (names[d])
			g_hash_table_remove_all(names[d]);
	}
}

/* Under lock: the answers, or none when what they came from may have
 * changed. */
static void check_locked(void)
{
	int64_t now = clock_mono_ns();
	bool same = true;

	if (looked && now - looked < LOOK_EVERY_NS && now - since < KEEP_NS)
		return;
	looked = now;
	for (int d = 0; d < 2; d++) {
		struct file_sig s = sig_of(files[d]);

		if (!sig_eq(&s, &sigs[d]))
			same = false;
		sigs[d] = s;
	}
	if (!same || now - since >= KEEP_NS) {
		clear_locked();
		since = now;
	}
}

bool nfs4_idcache_id(enum nfs4_idcache_db db, const char *s, size_t len,
		     uint32_t *id)
{
	gpointer v = NULL;
	bool found = false;
	char key[512];

	if (len >= sizeof(key))
		return false;
	memcpy(key, s, len);
	key[len] = '\0';
	pthread_mutex_lock(&lock);
	check_locked();
	if (ids[db])
		found = g_hash_table_lookup_extended(ids[db], key, NULL, &v);
	pthread_mutex_unlock(&lock);
	if (found) {
		*id = GPOINTER_TO_UINT(v);
		STAT_INC(idmap_hits);
	} else {
		STAT_INC(idmap_lookups);
	}
	return found;
}

void nfs4_idcache_put_id(enum nfs4_idcache_db db, const char *s, size_t len,
			 uint32_t id)
{
	pthread_mutex_lock(&lock);
	if (!ids[db])
		ids[db] = g_hash_table_new_full(g_str_hash, g_str_equal,
						g_free, NULL);
	if (g_hash_table_size(ids[db]) >= ANSWERS_MAX)
		g_hash_table_remove_all(ids[db]);
	g_hash_table_replace(ids[db], g_strndup(s, len), GUINT_TO_POINTER(id));
	pthread_mutex_unlock(&lock);
}

bool nfs4_idcache_name(enum nfs4_idcache_db db, uint32_t id, char *out,
		       size_t outlen)
{
	const char *name = NULL;
	bool found;

	pthread_mutex_lock(&lock);
	check_locked();
	if (names[db])
		name = g_hash_table_lookup(names[db], GUINT_TO_POINTER(id));
	found = name && (size_t)snprintf(out, outlen, "%s", name) < outlen;
	pthread_mutex_unlock(&lock);
	if (found)
		STAT_INC(idmap_hits);
	else
		STAT_INC(idmap_lookups);
	return found;
}

void nfs4_idcache_put_name(enum nfs4_idcache_db db, uint32_t id,
			   const char *name)
{
	pthread_mutex_lock(&lock);
	if (!names[db])
		names[db] = g_hash_table_new_full(g_direct_hash,
						  g_direct_equal, NULL, g_free);
	if (g_hash_table_size(names[db]) >= ANSWERS_MAX)
		g_hash_table_remove_all(names[db]);
	g_hash_table_replace(names[db], GUINT_TO_POINTER(id), g_strdup(name));
	pthread_mutex_unlock(&lock);
}

void nfs4_idcache_forget(void)
{
	pthread_mutex_lock(&lock);
	clear_locked();
	pthread_mutex_unlock(&lock);
}

void nfs4_idcache_watch(const char *passwd, const char *group)
{
	pthread_mutex_lock(&lock);
	files[0] = passwd ? passwd : "/etc/passwd";
	files[1] = group ? group : "/etc/group";
	looked = 0;
	pthread_mutex_unlock(&lock);
}
