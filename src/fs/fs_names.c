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
#include "fs.h"
#include "../base/log.h"
#include "../base/stats.h"
#include "../base/trace.h"

/* One directory's names to expire. */
struct names_job {
	uint64_t dir;
	GPtrArray *names;           /* owned strings */
};

static struct {
	pthread_mutex_t mu;
	pthread_cond_t cond;        /* a job queued, or stop */
	struct fs *fs;              /* set while the thread runs */
	pthread_t thread;
	bool running;               /* [mu] */
	bool stopping;              /* atomic; written under mu */
	GQueue jobs;                /* [mu] struct names_job *, oldest first */
} N = { .mu = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER,
	.jobs = G_QUEUE_INIT };

static bool stopping(void)
{
	return __atomic_load_n(&N.stopping, __ATOMIC_RELAXED);
}

static void job_free(struct names_job *j)
{
	g_ptr_array_free(j->names, TRUE);
	free(j);
}

/*
 * FUSE_NOTIFY_INVAL_ENTRY with FUSE_EXPIRE_ONLY (protocol 7.38): the
 * entry's timeout runs out, and the kernel asks again at the next use;
 * it is not unhashed.  Unhashed, an entry nothing holds would take its
 * inode along, the kernel would send FORGET, and the daemon's caches of
 * a file that may live on under another name would go with it.
 * libfuse 3.14 sends no flags: the message is written here, with the
 * layout of its argument (flags where older headers name padding).
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

static void run_job(struct fs *fs, struct names_job *j)
{
	unsigned n = 0;

	/* ENOENT: the kernel holds no entry for the name any more. */
	for (guint k = 0; k < j->names->len && !stopping(); k++)
		if (expire_entry(fs->se, j->dir,
				 g_ptr_array_index(j->names, k)) == 0)
			n++;
	STAT_ADD(names_expired, n);
	TRACE("directory node %llu: %u of %u entries for names it no "
	      "longer has expired in the kernel (the others it held no "
	      "more), each looked up again at its next use",
	      (unsigned long long)j->dir, n, j->names->len);
}

static void *names_thread(void *arg)
{
	struct fs *fs = arg;
	struct names_job *j;

	pthread_mutex_lock(&N.mu);
	for (;;) {
		while (!stopping() && g_queue_is_empty(&N.jobs))
			pthread_cond_wait(&N.cond, &N.mu);
		if (stopping())
			break;
		j = g_queue_pop_head(&N.jobs);
		pthread_mutex_unlock(&N.mu);
		run_job(fs, j);
		job_free(j);
		pthread_mutex_lock(&N.mu);
	}
	pthread_mutex_unlock(&N.mu);
	return NULL;
}

int fs_names_start(struct fs *fs)
{
	int ret;

	pthread_mutex_lock(&N.mu);
	N.fs = fs;
	__atomic_store_n(&N.stopping, false, __ATOMIC_RELAXED);
	ret = -pthread_create(&N.thread, NULL, names_thread, fs);
	N.running = ret == 0;
	pthread_mutex_unlock(&N.mu);
	return ret;
}

void fs_names_expire(struct fs *fs, uint64_t dir, GPtrArray *names)
{
	struct names_job *j = NULL;

	pthread_mutex_lock(&N.mu);
	if (fs->kernel_expire && N.running && !stopping() && N.fs == fs &&
	    g_queue_get_length(&N.jobs) < FS_NAMES_QUEUE_MAX && names->len)
		j = malloc(sizeof(*j));
	if (!j) {
		pthread_mutex_unlock(&N.mu);
		g_ptr_array_free(names, TRUE);
		return;
	}
	j->dir = dir;
	j->names = names;
	g_queue_push_tail(&N.jobs, j);
	pthread_cond_signal(&N.cond);
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
	while ((j = g_queue_pop_head(&N.jobs)))
		job_free(j);
	N.fs = NULL;
	pthread_mutex_unlock(&N.mu);
}
