/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Delegations on a mount (nfs4_deleg.h): what an OPEN brought kept or
 * given back, CB_RECALL and CB_GETATTR answered on the transport thread
 * and the flush and DELEGRETURN sent from a thread of its own (the
 * transport thread must not wait for a reply it is the one to read),
 * every delegation given back at unmount and forgotten when the server
 * lost them.
 */
#include "nfs4_deleg_int.h"

#include <errno.h>
#include <string.h>

#include "../base/clock.h"
#include "../base/log.h"
#include "../base/stats.h"
#include "../base/trace.h"
#include "nfs4_open.h"
#include "nfs4_session.h"
#include "nfs4_walk.h"

static const char *type_name(uint32_t type)
{
	return type == NFS4_OPEN_DELEGATE_WRITE ? "write" : "read";
}

/* The hooks for one call, counted as in progress: false when there are
 * none.  hooks_put() after the call. */
static bool hooks_get(struct nfs4_delegs *t, struct nfs4_deleg_hooks *h)
{
	bool have;

	pthread_mutex_lock(&t->hook_lock);
	have = t->have_hooks;
	if (have) {
		*h = t->hooks;
		t->hook_calls++;
	}
	pthread_mutex_unlock(&t->hook_lock);
	return have;
}

static void hooks_put(struct nfs4_delegs *t)
{
	pthread_mutex_lock(&t->hook_lock);
	if (--t->hook_calls == 0)
		pthread_cond_broadcast(&t->hook_idle);
	pthread_mutex_unlock(&t->hook_lock);
}

static void forget(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
		   bool recalled)
{
	struct nfs4_deleg_hooks h;

	if (!hooks_get(t, &h))
		return;
	if (h.forget)
		h.forget(h.ctx, fh, recalled);
	hooks_put(t);
}

/* A write delegation's file: every byte written here onto the server
 * before it goes back, so that whoever opens the file next reads them. */
static void flush(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
		  uint32_t type)
{
	struct nfs4_deleg_hooks h;
	int ret = 0;

	if (type != NFS4_OPEN_DELEGATE_WRITE || !hooks_get(t, &h))
		return;
	if (h.flush)
		ret = h.flush(h.ctx, fh);
	hooks_put(t);
	if (ret)
		nf_log(NF_LOG_WARNING, "a written file's data before its "
		       "delegation went back: %s (reported again at fsync "
		       "or close)", strerror(-ret));
}

/* DELEGRETURN as the daemon: the delegation is the client's, not a
 * user's.  One the server has revoked meanwhile (a recall we answered
 * too late, or revoked state flagged in SEQUENCE) is freed instead
 * (FREE_STATEID), so that the server stops flagging it.  Any other error
 * is logged: the server takes it back at the end of the lease anyway,
 * and nothing here trusts it any more. */
static void send_return(struct nfs_client *c, const struct nfs_fh3 *fh,
			const struct nfs4_stateid *sid, const char *why)
{
	uint32_t st = NFS4_OK;
	int ret = nfs4_delegreturn(c, &c->v4->cred, fh, sid, &st);

	if (ret == 0 && (st == NFS4ERR_DELEG_REVOKED ||
			 st == NFS4ERR_ADMIN_REVOKED)) {
		STAT_INC(deleg_revoked);
		ret = nfs4_free_stateid(c, &c->v4->cred, fh, sid, &st);
		TRACE("delegation (%s) revoked by the server: FREE_STATEID: "
		      "%s", why, ret ? strerror(-ret) : nfs4_stat_name(st) ?
		      nfs4_stat_name(st) : "?");
		if (ret == 0 && st != NFS4_OK)
			ret = nfs_stat_errno(nfs4_stat_to_nfs3(st));
		if (ret)
			nf_log(NF_LOG_INFO, "FREE_STATEID of a revoked "
			       "delegation (%s): %s", why, strerror(-ret));
		return;
	}
	if (ret == 0 && st != NFS4_OK)
		ret = nfs_stat_errno(nfs4_stat_to_nfs3(st));
	if (ret == 0) {
		STAT_INC(deleg_returned);
		TRACE("delegation given back (%s): DELEGRETURN", why);
	} else {
		nf_log(NF_LOG_INFO, "DELEGRETURN (%s): %s", why,
		       strerror(-ret));
	}
}

/* One that was held: out of the count, then back to the server. */
static void give_back(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
		      const struct nfs4_stateid *sid, const char *why)
{
	STAT_ADD(deleg_held, -1);
	send_return(t->c, fh, sid, why);
}

static void *return_thread(void *arg)
{
	struct nfs4_delegs *t = arg;
	struct nfs4_stateid sid;
	struct nfs_fh3 fh;
	uint32_t type;

	pthread_mutex_lock(&t->lock);
	for (;;) {
		while (!t->stop && t->nrecalled == 0)
			pthread_cond_wait(&t->wake, &t->lock);
		if (t->stop)
			break;
		pthread_mutex_unlock(&t->lock);
		/* The caches stopped believing it at the recall; what we
		 * wrote goes to the server, the layer above drops what it
		 * believed, then the delegation goes. */
		if ((type = nfs4_delegs_take_recalled(t, &fh, &sid))) {
			flush(t, &fh, type);
			forget(t, &fh, true);
			give_back(t, &fh, &sid, "recalled");
			nfs4_open_close_idle(t->c, &fh);
		}
		pthread_mutex_lock(&t->lock);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

static uint32_t on_recall(void *ctx, const struct nfs4_cb_recall_args *a)
{
	struct nfs4_delegs *t = ctx;
	struct nfs_fh3 fh;
	bool queued;
	uint32_t st;

	if (nfs4_fh_to_fh3(&a->fh, &fh))
		return NFS4ERR_BADHANDLE;
	st = nfs4_delegs_recall(t, &fh, &a->stateid, &queued);
	if (queued) {
		uint32_t type = 0;
		int64_t when;
		bool recalled;

		nfs4_delegs_describe(t, &fh, &type, &when, &recalled);
		STAT_INC(deleg_recalled);
		TRACE("CB_RECALL of a %s delegation: attributes no longer "
		      "believed → %sDELEGRETURN", type_name(type),
		      type == NFS4_OPEN_DELEGATE_WRITE
			      ? "what we wrote sent and committed, then " : "");
	}
	return st;
}

/* CB_GETATTR: size and change attribute of a file we hold a write
 * delegation for, as this mount knows them (RFC 8881 §10.4.3). */
static uint32_t on_getattr(void *ctx, const struct nfs4_cb_getattr_args *a,
			   struct nfs4_fattr *out)
{
	struct nfs4_delegs *t = ctx;
	struct nfs4_deleg_hooks h;
	struct nfs4_deleg_report r;
	struct nfs_fh3 fh;
	uint64_t change;
	uint32_t st;
	int ret = -ENOENT;

	memset(out, 0, sizeof(*out));
	if (nfs4_fh_to_fh3(&a->fh, &fh))
		return NFS4ERR_BADHANDLE;
	memset(&r, 0, sizeof(r));
	if (hooks_get(t, &h)) {
		if (h.report)
			ret = h.report(h.ctx, &fh, &r);
		hooks_put(t);
	}
	if (ret)
		return NFS4ERR_BADHANDLE;
	st = nfs4_delegs_cb_change(t, &fh, &r, &change);
	if (st != NFS4_OK)
		return st;
	if (nfs4_bitmap_isset(&a->request, NFS4_FATTR_CHANGE)) {
		nfs4_bitmap_set(&out->mask, NFS4_FATTR_CHANGE);
		out->change = change;
	}
	if (nfs4_bitmap_isset(&a->request, NFS4_FATTR_SIZE)) {
		nfs4_bitmap_set(&out->mask, NFS4_FATTR_SIZE);
		out->size = r.size;
	}
	STAT_INC(deleg_cb_getattr);
	TRACE("CB_GETATTR of a written file: size %llu, change %llu%s",
	      (unsigned long long)r.size, (unsigned long long)change,
	      r.dirty ? " (our writes pending)" : "");
	return NFS4_OK;
}

int nfs4_delegs_start(struct nfs_client *c)
{
	struct nfs4_delegs *t;
	int ret;

	if (!c->v4)
		return -EINVAL;
	t = nfs4_delegs_new();
	if (!t)
		return -ENOMEM;
	t->c = c;
	ret = pthread_create(&t->thread, NULL, return_thread, t);
	if (ret) {
		nfs4_delegs_free(t);
		return -ret;
	}
	t->running = true;
	c->v4delegs = t;
	nfs4_session_set_recall(c->v4, on_recall, t);
	nfs4_session_set_cb_getattr(c->v4, on_getattr, t);
	return 0;
}

void nfs4_delegs_stop(struct nfs_client *c)
{
	struct nfs4_delegs *t = c->v4delegs;
	struct nfs4_stateid sid;
	struct nfs_fh3 fh;
	uint32_t type;

	if (!t)
		return;
	nfs4_session_set_recall(c->v4, NULL, NULL);
	nfs4_session_set_cb_getattr(c->v4, NULL, NULL);
	if (t->running) {
		pthread_mutex_lock(&t->lock);
		t->stop = true;
		pthread_cond_broadcast(&t->wake);
		pthread_mutex_unlock(&t->lock);
		pthread_join(t->thread, NULL);
		t->running = false;
	}
	/* Recalled or not, each goes back before the session does. */
	while ((type = nfs4_delegs_take_any(t, &fh, &sid))) {
		flush(t, &fh, type);
		give_back(t, &fh, &sid, "unmount");
	}
	/* The opens they kept: DESTROY_CLIENTID wants no state left. */
	nfs4_open_close_idle(c, NULL);
	c->v4delegs = NULL;
	nfs4_delegs_free(t);
}

void nfs4_delegs_set_hooks(struct nfs_client *c,
			   const struct nfs4_deleg_hooks *h)
{
	struct nfs4_delegs *t = c->v4delegs;

	if (!t)
		return;
	pthread_mutex_lock(&t->hook_lock);
	while (t->hook_calls)
		pthread_cond_wait(&t->hook_idle, &t->hook_lock);
	t->have_hooks = h != NULL;
	if (h)
		t->hooks = *h;
	pthread_mutex_unlock(&t->hook_lock);
}

void nfs4_delegs_revoked(struct nfs_client *c)
{
	struct nfs4_delegs *t = c->v4delegs;
	size_t n;

	if (!t)
		return;
	n = nfs4_delegs_recall_all(t);
	STAT_ADD(deleg_recalled, n);
	if (n)
		TRACE("SEQUENCE: the server revoked delegations → all %zu "
		      "given back (the revoked ones freed)", n);
}

void nfs4_delegs_lost(struct nfs_client *c)
{
	struct nfs4_delegs *t = c->v4delegs;
	struct nfs4_stateid sid;
	struct nfs_fh3 fh;
	unsigned n = 0;

	if (!t)
		return;
	while (nfs4_delegs_take_any(t, &fh, &sid)) {
		forget(t, &fh, false);
		STAT_ADD(deleg_held, -1);
		STAT_INC(deleg_lost);
		n++;
	}
	if (n)
		nf_log(NF_LOG_WARNING, "NFSv4 recovery: %u delegation(s) lost "
		       "with the client id: their files are asked again", n);
}

uint32_t nfs4_deleg_want(const struct nfs_client *c, uint32_t access)
{
	if (!c->v4delegs || access == 0)
		return NFS4_SHARE_WANT_NO_DELEG;
	return access & NFS4_SHARE_ACCESS_WRITE ? NFS4_SHARE_WANT_WRITE_DELEG
						: NFS4_SHARE_WANT_READ_DELEG;
}

void nfs4_deleg_offered(struct nfs_client *c, const struct nfs_fh3 *fh,
			const struct nfs4_open_delegation *d, bool wanted)
{
	const char *why;
	int ret;

	if (d->type != NFS4_OPEN_DELEGATE_READ &&
	    d->type != NFS4_OPEN_DELEGATE_WRITE)
		return;
	if (!wanted || !c->v4delegs) {
		why = "not asked for";
	} else {
		ret = nfs4_delegs_add(c->v4delegs, fh, &d->stateid, d->type,
				      clock_mono_ns());
		if (ret == 0) {
			STAT_INC(deleg_granted);
			STAT_INC(deleg_held);
			TRACE("OPEN brought a %s delegation: attributes "
			      "believed until it is recalled",
			      type_name(d->type));
			return;
		}
		if (ret == -EALREADY)
			return; /* the one we hold, named again */
		why = ret == -EEXIST ? "the file has one" : strerror(-ret);
	}
	send_return(c, fh, &d->stateid, why);
}

void nfs4_deleg_before_write(struct nfs_client *c, const struct nfs_fh3 *fh)
{
	struct nfs4_stateid sid;

	if (!c->v4delegs || !nfs4_delegs_take(c->v4delegs, fh,
					      NFS4_OPEN_DELEGATE_READ, &sid))
		return;
	forget(c->v4delegs, fh, false);
	give_back(c->v4delegs, fh, &sid, "opened for writing here");
	nfs4_open_close_idle(c, fh);
}

uint32_t nfs4_deleg_held(struct nfs_client *c, const struct nfs_fh3 *fh)
{
	return c->v4delegs ? nfs4_delegs_held(c->v4delegs, fh) : 0;
}
