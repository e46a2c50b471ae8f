/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitor thread: polls the server's NSM state while it is watched,
 * runs reclaim after a reboot, and rewrites the status file when it is
 * stale.
 */
#include <time.h>

#include "../base/clock.h"
#include "lock_int.h"

#define LK_SM_STAT_HELD_S 1.0    /* SM_STAT poll while locks are held */
#define LK_SM_STAT_IDLE_S 10.0

void *lk_monitor_main(void *arg)
{
	struct lockmgr *lm = arg;
	double last_stat = 0, last_status = 0;

	pthread_mutex_lock(&lm->mu);
	while (!lm->stopping) {
		struct timespec until;
		bool reboot, watch, dirty;
		double stat_every;

		until = clock_mono_deadline(200 * 1000000LL);
		pthread_cond_timedwait(&lm->wake, &lm->mu, &until);
		if (lm->stopping)
			break;
		reboot = lm->reboot_pending;
		lm->reboot_pending = false;
		watch = lm->sm_stat_watch;
		/* Once a second while locks are held; otherwise now and then,
		 * only to keep the baseline current. */
		stat_every = lm->held ? LK_SM_STAT_HELD_S : LK_SM_STAT_IDLE_S;
		if (watch && lm->server_state == 0)
			stat_every = LK_SM_STAT_HELD_S; /* no baseline yet */
		dirty = lm->status_dirty;
		pthread_mutex_unlock(&lm->mu);

		if (reboot)
			lk_reclaim_all(lm);
		if (watch && lk_now() - last_stat >= stat_every) {
			last_stat = lk_now();
			lk_check_server_state(lm);
		}
		if (dirty && lk_now() - last_status >= 0.1) {
			last_status = lk_now();
			pthread_mutex_lock(&lm->mu);
			lm->status_dirty = false;
			pthread_mutex_unlock(&lm->mu);
			lk_journal_write(lm);
			lk_statedir_write_status(lm);
		}
		pthread_mutex_lock(&lm->mu);
	}
	pthread_mutex_unlock(&lm->mu);
	return NULL;
}

/* From SM_STAT polling (statmon.c) or a statd callback (listener.c): the
 * one seen second, for the same new state, is no news. */
void lk_server_rebooted(struct lockmgr *lm, int32_t state)
{
	pthread_mutex_lock(&lm->mu);
	if (state != 0 && state == lm->server_state && lm->sm_stat_watch &&
	    !lm->reboot_pending) {
		pthread_mutex_unlock(&lm->mu);
		return;
	}
	lm->server_state = state;
	lm->reboot_pending = true;
	pthread_cond_signal(&lm->wake);
	pthread_mutex_unlock(&lm->mu);
	LK_INC(lm, server_reboots);
}
