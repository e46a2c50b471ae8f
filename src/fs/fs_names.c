// SPDX-License-Identifier: GPL-2.0-or-later
#include "fs_names.h"
#include <errno.h>
#include <linux/fuse.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <glib.h>
#include "fs.h"
#include "../base/clock.h"
#include "../base/log.h"
#include "../base/stats.h"
#include "../base/trace.h"

/* One directory to tell about: the names it held negative answers for
 * (taken when it was queued: its knowledge of them goes right after);
 * those the kernel holds entries for are taken when it is told. */
struct names_job {
	uint64_t dir;
	GPtrArray *absent;          /* owned strings */
	struct names_job *next;
};

static struct {
	pthread_mutex_t mu;
	pthread_cond_t cond;        /* a job queued, or stop */
	pthread_cond_t done;        /* a job done (clock_cond_init) */
	uint64_t running_dir;       /* [mu] the job's directory; 0: none */
	struct fs *fs;              /* set while the thread runs */
	pthread_t thread;
	bool running;               /* [mu] */
	bool stopping;              /* atomic; written under mu */
	struct names_job *head, **tail; /* [mu] */
	GHashTable *queued;         /* [mu] dir node ids queued */
} N = { .mu = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

static bool stopping(void)
{
	return __atomic_load_n(&N.stopping, __ATOMIC_RELAXED);
}

static void job_free(struct names_job *j)
{
	if (j->absent)
		g_ptr_array_free(j->absent, TRUE);
	free(j);
}

static void add_name(const char *name, void *ctx)
{
	GPtrArray *a = ctx;

	if (a->len < FS_NAMES_MAX_PER_DIR)
		g_ptr_array_add(a, g_strdup(name));
}

/*
 * FUSE_NOTIFY_INVAL_ENTRY with FUSE_EXPIRE_ONLY (protocol 7.38): the
 * entry's timeout runs out, and the kernel asks again at the next use;
 * it is not unhashed.  Unhashed, an entry nothing holds takes its inode
 * along, the kernel sends FORGET, and the daemon's caches of the file go
 * with it, where a LOOKUP answering the same file keeps them all.
 * libfuse 3.14 sends no flags: the message is written here.  The layout
 * of its argument, with flags where older headers name padding.
 */
#ifndef FUSE_EXPIRE_ONLY
#define FUSE_EXPIRE_ONLY (1 << 0)
#endif
struct expire_entry_out {
	uint64_t parent;
	uint32_t namelen;
	uint32_t flags;
};

static int expire_entry(struct fuse_session *se, uint64_t dir,
			const char *name)
{
	size_t len = strlen(name);
	struct fuse_out_header out = { .error = FUSE_NOTIFY_INVAL_ENTRY };
	struct expire_entry_out arg = { .parent = dir,
					.namelen = (uint32_t)len,
					.flags = FUSE_EXPIRE_ONLY };
	struct iovec iov[3] = { { &out, sizeof(out) }, { &arg, sizeof(arg) },
				{ (void *)name, len + 1 } };

	out.len = (uint32_t)(sizeof(out) + sizeof(arg) + len + 1);
	return writev(fuse_session_fd(se), iov, 3) < 0 ? -errno : 0;
}

/* Expires the kernel's entry for each name; how many it held. */
static unsigned drop_all(struct fuse_session *se, uint64_t dir,
			 const GPtrArray *names)
{
	unsigned dropped = 0;

	for (guint k = 0; k < names->len; k++) {
		const char *name = g_ptr_array_index(names, k);

		if (stopping())
			break;
		if (expire_entry(se, dir, name) == 0)
			dropped++;
	}
	return dropped;
}

static void run_job(struct fs *fs, struct names_job *j)
{
	GPtrArray *held = g_ptr_array_new_with_free_func(g_free);
	struct inode *dir = inode_ref(fs->inodes, j->dir);
	unsigned n;

	if (dir)
		inode_kernel_names(fs->inodes, dir, add_name, held);
	n = drop_all(fs->se, j->dir, held) + drop_all(fs->se, j->dir,
						      j->absent);
	STAT_ADD(names_dropped, n);
	TRACE("%s: changed elsewhere → %u of its names dropped from the "
	      "kernel (%u held, %u known missing), looked up again at their "
	      "next use", dir ? fs_name_of(dir) : "(gone)", n, held->len,
	      j->absent->len);
	if (dir)
		inode_forget(fs->inodes, dir->id, 1);
	g_ptr_array_free(held, TRUE);
}

static void *names_thread(void *arg)
{
	struct fs *fs = arg;
	struct names_job *j;

	pthread_mutex_lock(&N.mu);
	for (;;) {
		while (!stopping() && !N.head)
			pthread_cond_wait(&N.cond, &N.mu);
		if (stopping())
			break;
		j = N.head;
		N.head = j->next;
		if (!N.head)
			N.tail = &N.head;
		g_hash_table_remove(N.queued, &j->dir);
		N.running_dir = j->dir;
		pthread_mutex_unlock(&N.mu);
		run_job(fs, j);
		job_free(j);
		pthread_mutex_lock(&N.mu);
		N.running_dir = 0;
		pthread_cond_broadcast(&N.done);
	}
	pthread_mutex_unlock(&N.mu);
	return NULL;
}

static pthread_once_t done_once = PTHREAD_ONCE_INIT;

static void done_init(void)
{
	clock_cond_init(&N.done);
}

int fs_names_start(struct fs *fs)
{
	int ret;

	pthread_once(&done_once, done_init);
	pthread_mutex_lock(&N.mu);
	N.fs = fs;
	N.head = NULL;
	N.tail = &N.head;
	__atomic_store_n(&N.stopping, false, __ATOMIC_RELAXED);
	N.queued = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
					 NULL);
	ret = -pthread_create(&N.thread, NULL, names_thread, fs);
	N.running = ret == 0;
	if (ret) {
		g_hash_table_destroy(N.queued);
		N.queued = NULL;
	}
	pthread_mutex_unlock(&N.mu);
	return ret;
}

void fs_names_changed(struct fs *fs, struct inode *dir)
{
	struct names_job *j;
	uint64_t *key;

	if (!fs->kernel_expire)
		return;
	pthread_mutex_lock(&N.mu);
	if (!N.running || stopping() || N.fs != fs ||
	    g_hash_table_contains(N.queued, &dir->id)) {
		pthread_mutex_unlock(&N.mu);
		return;
	}
	pthread_mutex_unlock(&N.mu);
	j = calloc(1, sizeof(*j));
	key = g_new(uint64_t, 1);
	if (!j) {
		g_free(key);
		return;
	}
	j->dir = *key = dir->id;
	j->absent = g_ptr_array_new_with_free_func(g_free);
	inode_dir_absent_names(dir, add_name, j->absent);
	pthread_mutex_lock(&N.mu);
	if (!N.running || stopping() ||
	    g_hash_table_contains(N.queued, key)) {
		pthread_mutex_unlock(&N.mu);
		g_free(key);
		job_free(j);
		return;
	}
	g_hash_table_add(N.queued, key);
	*N.tail = j;
	N.tail = &j->next;
	pthread_cond_signal(&N.cond);
	pthread_mutex_unlock(&N.mu);
}

void fs_names_settle(struct inode *dir)
{
	struct timespec until = clock_mono_deadline(FS_NAMES_SETTLE_NS);

	pthread_mutex_lock(&N.mu);
	while (N.running && !stopping() &&
	       (N.running_dir == dir->id ||
		g_hash_table_contains(N.queued, &dir->id)))
		if (pthread_cond_timedwait(&N.done, &N.mu, &until))
			break;
	pthread_mutex_unlock(&N.mu);
}

void fs_names_stop(void)
{
	struct names_job *j;
	bool was;

	pthread_mutex_lock(&N.mu);
	was = N.running;
	__atomic_store_n(&N.stopping, true, __ATOMIC_RELAXED);
	pthread_cond_signal(&N.cond);
	pthread_mutex_unlock(&N.mu);
	if (!was)
		return;
	pthread_join(N.thread, NULL);
	pthread_mutex_lock(&N.mu);
	N.running = false;
	pthread_cond_broadcast(&N.done);
	while ((j = N.head)) {
		N.head = j->next;
		job_free(j);
	}
	N.tail = &N.head;
	g_hash_table_destroy(N.queued);
	N.queued = NULL;
	N.fs = NULL;
	pthread_mutex_unlock(&N.mu);
}
