/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Waits of kernel requests for the server (fs_wait.h). */
#include "fs_wait.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../base/clock.h"

/* How often a wait on a condition variable looks at its stop flag. */
#define COND_SLICE_NS (100 * 1000 * 1000ll)
/* A wait this old is looked at for a caller that is exiting. */
#define EXIT_LOOK_US (1000 * 1000ull)
/* The kernel's task flag of a task in do_exit() (include/linux/sched.h),
 * field 9 of /proc/PID/stat. */
#define PF_EXITING 0x00000004ull

/* One mount per daemon: one list.  Taken for a moment twice per call,
 * never across anything else. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct fs_wait *waits;  /* [lock] */
static bool aborted;           /* [lock] */

/*
 * Is /proc that of our pid namespace, the one the kernel gives callers'
 * pids in?  Not where a pid namespace was made without a /proc of its
 * own (`unshare -p -f` without --mount-proc): there /proc/N is another
 * process than our caller N.
 */
static bool proc_ours;
static pthread_once_t proc_checked = PTHREAD_ONCE_INIT;

static void check_proc(void)
{
	char buf[32];
	ssize_t n = readlink("/proc/self", buf, sizeof(buf) - 1);

	if (n <= 0)
		return;
	buf[n] = '\0';
	proc_ours = strtol(buf, NULL, 10) == (long)getpid();
}

/*
 * Is the thread tid dying: 1 when a fatal signal is pending for it
 * (SIGKILL in its pending set: the kernel adds it to every thread of a
 * group that a signal kills) or it is exiting, 0 when not, -1 when it
 * cannot be seen (not in our /proc, or no /proc of ours).
 */
static int caller_dying(pid_t tid)
{
	unsigned long long flags = 0, sigpnd = 0;
	char path[40], buf[1024], *p, *end;
	ssize_t n;
	int fd;

	pthread_once(&proc_checked, check_proc);
	if (tid <= 0 || !proc_ours)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* The name, field 2, may hold anything: count after its ')'. */
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	p++;
	for (int field = 3; field <= 31; field++) {
		unsigned long long v;

		while (*p == ' ')
			p++;
		if (field == 3) { /* the state, a letter */
			if (!*p)
				return -1;
			while (*p && *p != ' ')
				p++;
			continue;
		}
		v = strtoull(p, &end, 10);
		if (end == p)
			return -1;
		p = end;
		if (field == 9)
			flags = v;
		else if (field == 31)
			sigpnd = v;
	}
	return (flags & PF_EXITING) ||
	       (sigpnd & (1ull << (SIGKILL - 1))) ? 1 : 0;
}

static void on_interrupt(fuse_req_t req, void *data)
{
	struct fs_wait *w = data;

	(void)req;
	if (caller_dying(w->tid) == 0) {
		w->intr = 1; /* fs_waits_poll() looks again */
		return;
	}
	w->stop = 1;
}

void fs_wait_begin(struct fs_wait *w, fuse_req_t req)
{
	w->stop = 0;
	w->req = req;
	w->tid = req ? fuse_req_ctx(req)->pid : 0;
	w->intr = 0;
	w->since_us = req ? clock_mono_us() : 0;
	w->prev = NULL;
	pthread_mutex_lock(&lock);
	if (aborted)
		w->stop = 1;
	w->next = waits;
	if (waits)
		waits->prev = w;
	waits = w;
	pthread_mutex_unlock(&lock);
	if (req)
		fuse_req_interrupt_func(req, on_interrupt, w);
}

/* Is w one whose caller fs_waits_poll() looks at? [lock] */
static bool to_look_at(const struct fs_wait *w, uint64_t now)
{
	return w->req && !w->stop &&
	       (w->intr || now - w->since_us >= EXIT_LOOK_US);
}

void fs_waits_poll(void)
{
	pid_t *tids = NULL, *more;
	size_t n = 0, cap = 0, ndying = 0;
	uint64_t now;

	/* The callers are read from /proc without the lock, which every
	 * request takes: their tids first, each once.  The time is read
	 * under it, after every wait listed began. */
	pthread_mutex_lock(&lock);
	now = clock_mono_us();
	for (struct fs_wait *w = waits; w; w = w->next) {
		size_t i = 0;

		if (!to_look_at(w, now))
			continue;
		while (i < n && tids[i] != w->tid)
			i++;
		if (i < n)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			more = realloc(tids, cap * sizeof(*tids));
			if (!more)
				break; /* the others at the next round */
			tids = more;
		}
		tids[n++] = w->tid;
	}
	pthread_mutex_unlock(&lock);
	/* The dying ones go to the front of tids. */
	for (size_t i = 0; i < n; i++)
		if (caller_dying(tids[i]) == 1)
			tids[ndying++] = tids[i];
	if (ndying) {
		/* A tid is one thread: any of its waits still there is its. */
		pthread_mutex_lock(&lock);
		now = clock_mono_us();
		for (struct fs_wait *w = waits; w; w = w->next)
			for (size_t i = 0; i < ndying; i++)
				if (w->tid == tids[i] && to_look_at(w, now))
					w->stop = 1;
		pthread_mutex_unlock(&lock);
	}
	free(tids);
}

void fs_wait_end(struct fs_wait *w)
{
	/* After this, libfuse will not call on_interrupt again, so w may
	 * go with the caller's stack. */
	if (w->req)
		fuse_req_interrupt_func(w->req, NULL, NULL);
	pthread_mutex_lock(&lock);
	if (w->prev)
		w->prev->next = w->next;
	else
		waits = w->next;
	if (w->next)
		w->next->prev = w->prev;
	pthread_mutex_unlock(&lock);
}

int fs_wait_cond(struct fs_wait *w, pthread_cond_t *cond,
		 pthread_mutex_t *mu)
{
	struct timespec t;

	if (w->stop)
		return -EINTR;
	t = clock_mono_deadline(COND_SLICE_NS);
	pthread_cond_timedwait(cond, mu, &t);
	return w->stop ? -EINTR : 0;
}

int fs_wait_lock(struct fs_wait *w, pthread_mutex_t *mu)
{
	while (pthread_mutex_trylock(mu)) {
		struct timespec t;

		if (w->stop)
			return -EINTR;
		t = clock_mono_deadline(COND_SLICE_NS);
		if (!pthread_mutex_clocklock(mu, CLOCK_MONOTONIC, &t))
			break;
	}
	return 0;
}

void fs_waits_abort(void)
{
	pthread_mutex_lock(&lock);
	aborted = true;
	for (struct fs_wait *w = waits; w; w = w->next)
		w->stop = 1;
	pthread_mutex_unlock(&lock);
}

bool fs_waits_aborted(void)
{
	bool a;

	pthread_mutex_lock(&lock);
	a = aborted;
	pthread_mutex_unlock(&lock);
	return a;
}
