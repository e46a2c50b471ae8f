/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The lock manager as text: `nfsfusectl stats` and `nfsfusectl locks`,
 * and the status file in the state directory. */
#include <inttypes.h>
#include <stdio.h>

#include "lock_int.h"

void lockmgr_format_stats(struct lockmgr *lm, GString *out)
{
	g_string_append_printf(out, "lock_mode %s\n", lm->mode);
	g_string_append_printf(out, "lock_nlm_version %u\n", lm->nlm_vers);
	g_string_append_printf(out, "lock_caller_name %s\n", lm->caller_name);
	g_string_append_printf(out, "lock_nsm_state %d\n", lm->nsm_state);
	pthread_mutex_lock(&lm->mu);
	if (!lm->monitored || !lm->sm_stat_watch)
		g_string_append(out, "lock_server_watch none (no lock yet)\n");
	else
		g_string_append_printf(out,
				       "lock_server_watch sm_stat%s "
				       "(server state %d)\n",
				       lm->nlm_registered ? "+statd" : "",
				       lm->server_state);
	g_string_append_printf(out, "lock_waiting %zu\n", lm->nwaiting);
	pthread_mutex_unlock(&lm->mu);
#define X(n)                                                                \
	g_string_append_printf(out, "lock_" #n " %" PRIu64 "\n",            \
			       (uint64_t)atomic_load(&lm->stats.n));
	LOCK_COUNTERS(X)
#undef X
}

static void append_hex(GString *out, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		g_string_append_printf(out, "%02x", p[i]);
}

void lockmgr_format_locks(struct lockmgr *lm, GString *out)
{
	double now = lk_now();

	pthread_mutex_lock(&lm->mu);
	for (struct lk_held *h = lm->held; h; h = h->next)
		g_string_append_printf(out,
				       "held ino=%" PRIu64 " owner=%016" PRIx64
				       " kind=%s type=%s start=%" PRIu64
				       " len=%" PRIu64 " svid=%d%s\n",
				       h->ino, h->owner,
				       h->flock ? "flock" : "posix",
				       h->excl ? "write" : "read", h->start,
				       h->len, h->svid, h->lost ? " LOST" : "");
	/* With the handles the server's GRANTED must name (fh, oh: the
	 * owner handle and its secret): this text is for the mount's
	 * owner only (the control socket, the state directory). */
	for (struct lk_waiter *w = lm->waiting; w; w = w->next) {
		g_string_append_printf(out,
				       "waiting ino=%" PRIu64 " kind=%s type=%s"
				       " start=%" PRIu64 " len=%" PRIu64
				       " svid=%d for=%.1fs fh=",
				       w->ino, w->flock ? "flock" : "posix",
				       w->excl ? "write" : "read", w->start,
				       w->len, w->svid, now - w->since);
		append_hex(out, w->fh.data, w->fh.len);
		g_string_append(out, " oh=");
		append_hex(out, w->oh, w->oh_len);
		g_string_append_c(out, '\n');
	}
	pthread_mutex_unlock(&lm->mu);
}
