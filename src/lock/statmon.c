/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * STATMON: knowing when the server reboots, and telling servers when we
 * did.
 *
 * Learning of a server reboot.  The server's statd keeps the host's NSM
 * state number, which a booting host bumps (sm-notify does, before statd
 * starts) and statd then reports.  From the first grant on, the monitor
 * thread (monitor.c) asks the server's statd for that number (SM_STAT, once
 * a second while locks are held) and takes a change as a reboot: every
 * held lock is then reclaimed (reclaim.c, lk_reclaim_all).  This needs no
 * local daemon, no callback and no privilege, and works from behind NAT.
 *
 * Why not the local statd (SM_MON, and its callback when the server's
 * sm-notify reaches it)?  nfs-utils statd, the statd of every Linux host,
 * refuses SM_MON (STAT_FAIL) unless my_prog is 100021 (NLM) and my_proc is
 * 16 or 24, Linux lockd's private notify procedures; and it makes the
 * callback to whoever owns NLM 100021 in the local rpcbind.  Where a
 * kernel lockd or a local NFS server (nfs-ganesha on the test machines)
 * owns NLM, the callback would go to it, not to us -- and naming it in
 * SM_MON could make that lock manager act on a notice meant for us.  So
 * the local statd is asked only when we registered our NLM version
 * ourselves (listener.c), with my_prog 100021, my_vers 4 (3 on an NFSv2
 * mount), my_proc 16: its callback then reaches our NLM port.  Even then it is an extra: SM_STAT polling
 * stays on, and a notice for a state already seen is ignored (monitor.c,
 * lk_server_rebooted).  The private callback program that the listener
 * registers is never named in SM_MON: nfs-utils statd refuses it.
 *
 * We send no SM_NOTIFY at start: a restart frees exactly the locks of
 * the run that died (journal.c), not the whole host's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "../base/log.h"
#include "../base/trace.h"
#include "lock_int.h"

#define LK_NSM_MS 5000
#define LK_SM_STAT_MS 2000 /* one poll; the next comes a second later */

static const uint8_t lk_priv_magic[8] = { 'n', 'f', 's', 'f', 'u', 's',
					  'e', 'L' };

static void server_text(struct lockmgr *lm, char *buf, size_t len)
{
	rpc_addr_host(&lm->cfg.server, buf, len);
}

static int nsm_call_ms(const struct rpc_addr *host,
		       const struct rpc_addr *src, uint32_t proc,
		       xdr_enc_fn enc, const void *args, xdr_dec_fn dec,
		       void *res, struct rpc_reply *reply, int timeout_ms)
{
	struct lk_conn c;
	struct rpc_addr peer = *host;
	int ret;

	rpc_addr_set_port(&peer, 0);
	lk_conn_init(&c, &peer, src, NSM_PROGRAM, NSM_VERSION, IPPROTO_UDP);
	ret = lk_conn_call(&c, proc, NULL, enc, args, dec, res, reply,
			   timeout_ms);
	lk_conn_close(&c);
	return ret;
}

static int nsm_call(const struct rpc_addr *host, const struct rpc_addr *src,
		    uint32_t proc, xdr_enc_fn enc, const void *args,
		    xdr_dec_fn dec, void *res, struct rpc_reply *reply)
{
	return nsm_call_ms(host, src, proc, enc, args, dec, res, reply,
			   LK_NSM_MS);
}

/* The local statd, by IPv4 loopback whatever the server's family: it
 * calls us back there (fill_my_id). */
static void local_statd(struct rpc_addr *sa)
{
	rpc_addr_parse(sa, "127.0.0.1", 0);
}

/* Only used while we own our NLM version in the local rpcbind (see the
 * top). */
static void fill_my_id(struct lockmgr *lm, struct nsm_my_id *id)
{
	id->my_name = "127.0.0.1"; /* statd calls back on loopback */
	id->my_name_len = 9;
	id->my_prog = NLM_PROGRAM;
	id->my_vers = lm->nlm_vers;
	id->my_proc = NLMPROC_NSM_NOTIFY;
}

static int sm_stat_server(struct lockmgr *lm, int32_t *state)
{
	char name[RPC_ADDR_HOSTLEN];
	struct nsm_name args;
	struct nsm_stat_res res;
	int ret;

	server_text(lm, name, sizeof(name));
	args.mon_name = name;
	args.mon_name_len = (uint32_t)strlen(name);
	/* nfs-utils statd answers with its own state whatever the name
	 * (res_stat only says whether it could resolve it). */
	ret = nsm_call_ms(&lm->cfg.server, &lm->src, NSMPROC_STAT,
			  nsm_enc_name, &args, nsm_dec_stat_res, &res, NULL,
			  LK_SM_STAT_MS);
	if (ret == 0 && res.state == 0)
		ret = -EPROTO; /* 0 is no state: never a live host's */
	if (ret == 0)
		*state = res.state;
	return ret;
}

/* SM_MON to the local statd, naming our own NLM as the callback.  Only
 * while we own our NLM version in the local rpcbind: see the top. */
static void local_statd_mon(struct lockmgr *lm, const char *name)
{
	struct rpc_addr statd;
	struct nsm_mon mon;
	struct nsm_stat_res res;
	int ret;

	if (!lm->nlm_registered) {
		TRACE("lock SM_MON %s: not asked (NLM v%u in the local "
		      "rpcbind is not ours: statd would call its owner back)",
		      name, lm->nlm_vers);
		return;
	}
	memset(&mon, 0, sizeof(mon));
	mon.mon_id.mon_name = name;
	mon.mon_id.mon_name_len = (uint32_t)strlen(name);
	fill_my_id(lm, &mon.mon_id.my_id);
	memcpy(mon.priv, lk_priv_magic, sizeof(lk_priv_magic));
	memcpy(mon.priv + 8, &lm, sizeof(lm) < 8 ? sizeof(lm) : 8);
	local_statd(&statd);
	ret = nsm_call(&statd, NULL, NSMPROC_MON, nsm_enc_mon, &mon, nsm_dec_stat_res, &res,
		       NULL);
	if (ret == 0 && res.res_stat != NSM_STAT_SUCC)
		ret = -ENOLCK;
	if (ret == 0)
		nf_log(NF_LOG_INFO, "locks: local statd monitors %s too", name);
	TRACE("lock SM_MON %s (callback NLM v%u proc %u): %s", name,
	      lm->nlm_vers, (unsigned)NLMPROC_NSM_NOTIFY,
	      ret ? strerror(-ret) : "ok");
}

void lk_monitor_server(struct lockmgr *lm)
{
	char name[RPC_ADDR_HOSTLEN];

	server_text(lm, name, sizeof(name));
	/* The monitor thread takes the baseline with its first SM_STAT, at
	 * once (not here: a worker would wait out an unreachable statd). */
	pthread_mutex_lock(&lm->mu);
	lm->sm_stat_watch = true;
	pthread_cond_signal(&lm->wake);
	pthread_mutex_unlock(&lm->mu);
	TRACE("lock watching %s by SM_STAT", name);
	local_statd_mon(lm, name);
}

void lk_unmonitor_server(struct lockmgr *lm)
{
	char name[RPC_ADDR_HOSTLEN];
	struct rpc_addr statd;
	struct nsm_mon_id id;
	struct nsm_stat res;

	if (!lm->nlm_registered)
		return; /* never asked (local_statd_mon) */
	server_text(lm, name, sizeof(name));
	memset(&id, 0, sizeof(id));
	id.mon_name = name;
	id.mon_name_len = (uint32_t)strlen(name);
	fill_my_id(lm, &id.my_id);
	local_statd(&statd);
	nsm_call(&statd, NULL, NSMPROC_UNMON, nsm_enc_mon_id, &id,
		 nsm_dec_stat, &res, NULL);
}

void lk_check_server_state(struct lockmgr *lm)
{
	int32_t state, old;

	/* Down (a reboot in progress) or unreachable: ask again later;
	 * the state it comes back with tells. */
	if (sm_stat_server(lm, &state))
		return;
	pthread_mutex_lock(&lm->mu);
	old = lm->server_state;
	if (old == 0)
		lm->server_state = state; /* first answer: the baseline */
	pthread_mutex_unlock(&lm->mu);
	if (old == 0)
		TRACE("lock SM_STAT: server state %d", state);
	if (old != 0 && state != old) {
		TRACE("lock SM_STAT: server state %d -> %d", old, state);
		nf_log(NF_LOG_WARNING, "locks: the NSM state of %s changed "
		       "(%d -> %d): it rebooted", lm->server_name, old, state);
		lk_server_rebooted(lm, state);
	}
}

/* Is this statd callback ours?  (listener.c) */
bool lk_statd_priv_ok(struct lockmgr *lm, const uint8_t *priv);
bool lk_statd_priv_ok(struct lockmgr *lm, const uint8_t *priv)
{
	return !memcmp(priv, lk_priv_magic, sizeof(lk_priv_magic)) &&
	       !memcmp(priv + 8, &lm, sizeof(lm) < 8 ? sizeof(lm) : 8);
}
