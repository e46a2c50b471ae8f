/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Start and stop of the lock manager: its state directory, NSM notices of
 * our own restart, the listener and monitor threads; at stop, the release
 * of every lock still held.
 */
#include <errno.h>
#include <pwd.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <arpa/inet.h>

#include "../base/clock.h"
#include "../base/log.h"
#include "../base/trace.h"
#include "../base/userns.h"
#include "lock_int.h"

double lk_now(void)
{
	return (double)clock_mono_ns() / 1e9;
}

void lk_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

void lk_mark_dirty(struct lockmgr *lm)
{
	lm->status_dirty = true; /* mu held by the caller or benign race */
}

/* A home directory of ours: mount(8) runs the helper of an fstab "user"
 * mount as the user but with root's HOME. */
static bool own_home(const char *home)
{
	struct stat st;

	return home && *home == '/' && strcmp(home, "/") &&
	       stat(home, &st) == 0 && S_ISDIR(st.st_mode) &&
	       st.st_uid == geteuid();
}

static char *default_statedir(const char *name)
{
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	uint32_t uid = geteuid();
	struct passwd *pw;
	char *p = NULL;
	int n;

	if (!own_home(home)) {
		pw = getpwuid(geteuid());
		home = pw ? pw->pw_dir : NULL;
	}
	/* Root of a user namespace is an ordinary user of the machine. */
	userns_uid_out(uid, &uid);
	if (xdg && *xdg == '/')
		n = asprintf(&p, "%s/nfsfuse/%s", xdg, name);
	else if (own_home(home))
		n = asprintf(&p, "%s/.local/state/nfsfuse/%s", home, name);
	else if (uid == 0)
		n = asprintf(&p, "/var/lib/nfsfuse/%s", name);
	else
		n = asprintf(&p, "/tmp/nfsfuse-%u/%s", (unsigned)uid, name);
	return n < 0 ? NULL : p;
}

int lockmgr_start(const struct lockmgr_config *cfg, struct lockmgr **out,
		  char *err, size_t errlen)
{
	struct lockmgr *lm = calloc(1, sizeof(*lm));

	*out = NULL;
	if (!lm) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	lm->cfg = *cfg;
	lm->statedir_fd = -1;
	lm->journal_fd = -1;
	pthread_mutex_init(&lm->journal_mu, NULL);
	lm->nlm_tcp_fd = lm->nlm_udp_fd = lm->sm_fd = -1;
	lm->wake_pipe[0] = lm->wake_pipe[1] = -1;
	lm->server_name = strdup(cfg->server_name);
	lm->caller_name = strdup(cfg->caller_name);
	lm->statedir = cfg->statedir ? strdup(cfg->statedir)
				     : default_statedir(cfg->caller_name);
	if (!lm->server_name || !lm->caller_name || !lm->statedir) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (getrandom(&lm->oh_secret, sizeof(lm->oh_secret), 0) !=
	    (ssize_t)sizeof(lm->oh_secret)) {
		snprintf(err, errlen, "getrandom: %s", strerror(errno));
		goto fail;
	}
	if (cfg->clientaddr && rpc_addr_parse(&lm->src, cfg->clientaddr, 0)) {
		snprintf(err, errlen, "clientaddr=%s: not a numeric IPv4 or "
			 "IPv6 address", cfg->clientaddr);
		goto fail;
	}
	/* Our calls leave from it and callbacks come to it: it must be of
	 * the family the server is reached by. */
	if (cfg->clientaddr &&
	    rpc_addr_family(&lm->src) != rpc_addr_family(&cfg->server)) {
		snprintf(err, errlen, "clientaddr=%s: the server is reached "
			 "over %s", cfg->clientaddr,
			 rpc_addr_family(&cfg->server) == AF_INET6 ? "IPv6"
								    : "IPv4");
		goto fail;
	}
	pthread_mutex_init(&lm->mu, NULL);
	clock_cond_init(&lm->wake);
	clock_cond_init(&lm->wait_cv);
	/* NFSv2 goes with NLM v3 (v1 lacks FREE_ALL), NFSv3 with NLM v4. */
	lm->nlm_vers = cfg->nfs_vers == 2 ? NLM_V3 : NLM_V4;
	{
		struct rpc_addr peer = lk_nlm_peer(lm, &cfg->server);

		lk_conn_init(&lm->nlm, &peer, &lm->src, NLM_PROGRAM,
			     lm->nlm_vers, IPPROTO_TCP);
	}
	if (lk_statedir_open(lm, err, errlen))
		goto fail_conn;
	/* Before ours exists: every journal without a daemon is dead. */
	lk_journal_recover(lm);
	if (lk_journal_open(lm))
		nf_log(NF_LOG_WARNING, "locks: no journal in %s: the locks "
		       "of this mount stay on the server if it dies",
		       lm->statedir);
	if (lk_listener_start(lm, err, errlen))
		goto fail_statedir;
	if (pthread_create(&lm->monitor, NULL, lk_monitor_main, lm)) {
		snprintf(err, errlen, "cannot start the lock monitor thread");
		goto fail_listener;
	}
	lm->monitor_running = true;
	if (pthread_create(&lm->wait_thread, NULL, lk_wait_main, lm)) {
		snprintf(err, errlen, "cannot start the lock wait thread");
		goto fail_monitor;
	}
	lm->wait_running = true;
	lk_statedir_write_status(lm);
	nf_log(NF_LOG_INFO, "locks: NLM v%u, caller_name %s, NSM state %d, "
	       "%s", lm->nlm_vers, lm->caller_name, lm->nsm_state, lm->mode);
	*out = lm;
	return 0;
fail_monitor:
	pthread_mutex_lock(&lm->mu);
	lm->stopping = true;
	pthread_cond_broadcast(&lm->wake);
	pthread_mutex_unlock(&lm->mu);
	pthread_join(lm->monitor, NULL);
fail_listener:
	lk_listener_stop(lm);
fail_statedir:
	lk_journal_close(lm);
	lk_statedir_close(lm);
fail_conn:
	lk_conn_close(&lm->nlm);
	pthread_cond_destroy(&lm->wake);
	pthread_cond_destroy(&lm->wait_cv);
	pthread_mutex_destroy(&lm->mu);
fail:
	free(lm->server_name);
	free(lm->caller_name);
	free(lm->statedir);
	free(lm);
	return -1;
}

void lockmgr_stop(struct lockmgr *lm)
{
	struct lk_held *h;
	bool had_locks;

	if (!lm)
		return;
	/* Normally done already, before the session went away. */
	lockmgr_end_waits(lm);
	if (lm->wait_running)
		pthread_join(lm->wait_thread, NULL);
	pthread_mutex_lock(&lm->mu);
	lm->stopping = true;
	pthread_cond_broadcast(&lm->wake);
	pthread_mutex_unlock(&lm->mu);
	if (lm->monitor_running)
		pthread_join(lm->monitor, NULL);

	/* The kernel forgets a dead mount's locks: so must the server. */
	pthread_mutex_lock(&lm->mu);
	had_locks = lm->monitored;
	pthread_mutex_unlock(&lm->mu);
	while ((h = lm->held)) {
		struct lock_req r = { .fh = &h->fh, .ino = h->ino,
				      .owner = h->owner, .flock = h->flock,
				      .start = h->start, .len = h->len };
		struct nlm_lock a;
		uint32_t stat;

		lm->held = h->next;
		lk_fill_alock(lm, &r, h->oh, h->oh_len, h->svid, &a);
		lk_nlm_call(lm, NLMPROC_UNLOCK,
			    &(struct lk_call){
				    .a = &a,
				    .cred = h->cred.flavor == RPC_AUTH_SYS
						    ? &h->cred : NULL },
			    &stat);
		free(h);
	}
	if (had_locks)
		lk_unmonitor_server(lm);
	lk_listener_stop(lm);
	lk_journal_close(lm);
	lk_statedir_write_status(lm);
	lk_statedir_close(lm);
	lk_conn_close(&lm->nlm);
	free(lm->lost_inos);
	pthread_cond_destroy(&lm->wake);
	pthread_cond_destroy(&lm->wait_cv);
	pthread_mutex_destroy(&lm->mu);
	free(lm->server_name);
	free(lm->caller_name);
	free(lm->statedir);
	free(lm);
}
