/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Waits of kernel requests for the server (fs_wait.h). */
#include "fs_wait.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <time.h>

#include "../base/clock.h"

/* How often a wait on a condition variable looks at its stop flag. */
#define COND_SLICE_NS (100 * 1000 * 1000ll)

/* One mount per daemon: one list.  Taken for a moment twice per call,
 * never across anything else. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct fs_wait *waits;  /* [lock] */
static bool aborted;           /* [lock] */

static void on_interrupt(fuse_req_t req, void *data)
{
	struct fs_wait *w = data;

	(void)req;
	w->stop = 1;
}

void fs_wait_begin(struct fs_wait *w, fuse_req_t req)
{
	w->stop = 0;
	w->req = req;
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
