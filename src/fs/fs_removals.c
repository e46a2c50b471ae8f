// SPDX-License-Identifier: GPL-2.0-or-later
#include "fs_removals.h"
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include "../base/clock.h"
#include "fs_wait.h"

static pthread_mutex_t removals_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t removals_ended;
static pthread_once_t removals_once = PTHREAD_ONCE_INIT;
/* Tickets are 1, 2, ...: begun counts them. */
static uint64_t begun;                 /* [removals_mu] */
static struct fs_removal *in_flight;   /* [removals_mu], oldest last */

static void removals_init(void)
{
	clock_cond_init(&removals_ended);
}

void fs_removal_begin(struct fs_removal *r)
{
	pthread_once(&removals_once, removals_init);
	pthread_mutex_lock(&removals_mu);
	r->ticket = ++begun;
	r->prev = NULL;
	r->next = in_flight;
	if (in_flight)
		in_flight->prev = r;
	in_flight = r;
	pthread_mutex_unlock(&removals_mu);
}

void fs_removal_end(struct fs_removal *r)
{
	pthread_mutex_lock(&removals_mu);
	if (r->prev)
		r->prev->next = r->next;
	else
		in_flight = r->next;
	if (r->next)
		r->next->prev = r->prev;
	pthread_cond_broadcast(&removals_ended);
	pthread_mutex_unlock(&removals_mu);
}

uint64_t fs_removals_begun(void)
{
	uint64_t n;

	pthread_mutex_lock(&removals_mu);
	n = begun;
	pthread_mutex_unlock(&removals_mu);
	return n;
}

/* Is a removal with a ticket up to last still in flight? [removals_mu] */
static bool older_in_flight(uint64_t last)
{
	const struct fs_removal *r;

	for (r = in_flight; r; r = r->next)
		if (r->ticket <= last)
			return true;
	return false;
}

int fs_removals_settle(fuse_req_t req, uint64_t seen)
{
	struct fs_wait w;
	bool waited = false;
	uint64_t last;
	int ret = 0;

	pthread_once(&removals_once, removals_init);
	pthread_mutex_lock(&removals_mu);
	last = begun;
	if (last == seen && !in_flight) {
		pthread_mutex_unlock(&removals_mu);
		return 0;
	}
	fs_wait_begin(&w, req);
	while (older_in_flight(last)) {
		waited = true;
		if ((ret = fs_wait_cond(&w, &removals_ended, &removals_mu)))
			break;
	}
	fs_wait_end(&w);
	pthread_mutex_unlock(&removals_mu);
	if (ret)
		return ret;
	return waited || last != seen;
}
