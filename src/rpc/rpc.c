/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The RPC client: creating and destroying it, making calls (synchronous
 * and asynchronous), matching replies to calls and completing them.  The
 * transport thread that moves the bytes is in clnt_io.c; see rpc_int.h for
 * the threading rules.
 */
#include "rpc_int.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "../base/log.h"

#define RPC_DEFAULT_TIMEO_US (60u * 1000 * 1000)
#define RPC_DEFAULT_UDP_TIMEO_US (1100u * 1000) /* nfs(5): timeo=11 */
#define RPC_MAX_TIMEO_US (60u * 1000 * 1000)
#define RPC_DEFAULT_NSTATS 64u
/* A caller with an interrupt flag looks at it this often. */
#define RPC_INTR_POLL_NS (100 * 1000 * 1000L)
#define RPC_INTR_POLL_MS ((int)(RPC_INTR_POLL_NS / 1000000))

/* This thread reads the socket as the leader (see rpc_int.h). */
static __thread bool reading_as_leader;

void rpc_reply_release(struct rpc_reply *r)
{
	if (!r)
		return;
	xdr_pool_give(r->buf, r->len);
	r->buf = NULL;
	r->len = 0;
}

static void ent_free(struct rpc_call_ent *e)
{
	xdr_enc_release(&e->msg);
	free(e->reply.buf);
	if (!e->done_fn)
		pthread_cond_destroy(&e->cond);
	free(e);
}

void rpc_ent_unref_locked(struct rpc_call_ent *e)
{
	if (--e->refs == 0)
		ent_free(e);
}

static void kick(int fd)
{
	uint64_t one = 1;
	ssize_t n;

	do {
		n = write(fd, &one, sizeof(one));
	} while (n < 0 && errno == EINTR);
	/* EAGAIN: the counter is already non-zero, the thread will wake. */
}

static void wake(struct rpc_clnt *c)
{
	kick(c->wakefd);
}

static const char *proc_name(const struct rpc_clnt *c, uint32_t proc,
			     char *buf, size_t len)
{
	if (c->opts.proc_names && proc < c->opts.nprocs &&
	    c->opts.proc_names[proc])
		return c->opts.proc_names[proc];
	snprintf(buf, len, "proc%u", proc);
	return buf;
}

static void outstanding_unlink_locked(struct rpc_clnt *c,
				      struct rpc_call_ent *e)
{
	if (!e->outstanding)
		return;
	g_hash_table_remove(c->calls, GUINT_TO_POINTER(e->xid));
	if (e->prev)
		e->prev->next = e->next;
	else
		c->first = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		c->last = e->prev;
	e->prev = e->next = NULL;
	e->outstanding = false;
	if (e->cong) {
		e->cong = false;
		c->inflight--;
	}
}

void rpc_finish_locked(struct rpc_clnt *c, struct rpc_call_ent *e, int err,
		       struct rpc_call_ent **done_list)
{
	outstanding_unlink_locked(c, e);
	e->done = true;
	e->err = err;
	if (!e->end_us)
		e->end_us = clock_mono_us();
	if (e->done_fn) {
		e->cnext = *done_list;
		*done_list = e;
	} else {
		pthread_cond_signal(&e->cond);
		/* The leader sleeps in poll(), not on its condition. */
		if (c->leader == e && !reading_as_leader)
			kick(c->leadfd);
	}
}

/* Statistics and the trace hook for a finished call; without the lock. */
static void account(struct rpc_clnt *c, struct rpc_call_ent *e, int err)
{
	rpc_trace_fn fn;
	void *ctx;
	char buf[24];

	pthread_mutex_lock(&c->lock);
	rpc_stats_account_locked(c, e, err);
	fn = c->trace;
	ctx = c->trace_ctx;
	pthread_mutex_unlock(&c->lock);
	if (fn)
		fn(ctx, c->server, e->xid, proc_name(c, e->proc, buf,
						     sizeof(buf)),
		   e->msg.len, e->recvd, e->end_us - e->start_us, err);
}

void rpc_run_done_list(struct rpc_clnt *c, struct rpc_call_ent *list)
{
	struct rpc_call_ent *rev = NULL, *e;

	while (list) { /* restore the order of completion */
		e = list;
		list = e->cnext;
		e->cnext = rev;
		rev = e;
	}
	while ((e = rev)) {
		struct rpc_reply reply = e->reply;
		struct xdr_dec d;

		rev = e->cnext;
		e->reply.buf = NULL;
		e->reply.len = 0;
		account(c, e, e->err);
		if (e->err == 0)
			xdr_dec_init(&d, reply.buf + e->results_off,
				     reply.len - e->results_off);
		e->done_fn(e->done_ctx, e->err, e->err == 0 ? &d : NULL,
			   &reply);
		pthread_mutex_lock(&c->lock);
		rpc_ent_unref_locked(e); /* the client's owner reference */
		pthread_mutex_unlock(&c->lock);
	}
}

static void sendq_append_locked(struct rpc_clnt *c, struct rpc_call_ent *e);

/* A CALL from the server on our connection: its reply, if the hook gives
 * one, joins the send queue as an entry nobody waits for. */
static void deliver_call(struct rpc_clnt *c, uint8_t *buf, size_t len)
{
	struct rpc_call_ent *e = NULL;
	rpc_callback_fn fn;
	void *ctx;
	int ret = -ENOENT;

	pthread_mutex_lock(&c->lock);
	fn = c->cb;
	ctx = c->cb_ctx;
	if (!fn)
		c->dropped++;
	pthread_mutex_unlock(&c->lock);
	if (fn && (e = calloc(1, sizeof(*e)))) {
		e->proc = UINT32_MAX;
		pthread_cond_init(&e->cond, NULL);
		ret = xdr_enc_init(&e->msg, 256, 4);
		if (!ret)
			ret = fn(ctx, buf, len, &e->msg);
		if (!ret)
			ret = xdr_enc_error(&e->msg);
		if (!ret && (e->msg.len < 8 || e->msg.len - 4 > 0x7fffffffu))
			ret = -EMSGSIZE;
	}
	free(buf);
	if (!e)
		return;
	if (ret) {
		ent_free(e);
		return;
	}
	xdr_put_u32(e->msg.buf, RPC_RECORD_LAST | (uint32_t)(e->msg.len - 4));
	pthread_mutex_lock(&c->lock);
	sendq_append_locked(c, e); /* the queue's reference is its only one */
	pthread_mutex_unlock(&c->lock);
	wake(c);
}

/* A leader passes a record to the transport thread. */
static void handoff(struct rpc_clnt *c, uint8_t *buf, size_t len)
{
	struct rpc_handoff *h = malloc(sizeof(*h));

	if (!h) {
		/* Lost like a dropped datagram: the call's timer sends it
		 * again. */
		free(buf);
		return;
	}
	h->next = NULL;
	h->buf = buf;
	h->len = len;
	pthread_mutex_lock(&c->lock);
	if (c->handoff_tail)
		c->handoff_tail->next = h;
	else
		c->handoff = h;
	c->handoff_tail = h;
	pthread_mutex_unlock(&c->lock);
	wake(c);
}

void rpc_run_handoff(struct rpc_clnt *c)
{
	struct rpc_handoff *h, *next;

	pthread_mutex_lock(&c->lock);
	while ((h = c->handoff)) {
		c->handoff = c->handoff_tail = NULL;
		c->handoff_running = true;
		pthread_mutex_unlock(&c->lock);
		for (; h; h = next) {
			next = h->next;
			rpc_deliver(c, h->buf, h->len);
			free(h);
		}
		pthread_mutex_lock(&c->lock);
	}
	c->handoff_running = false;
	pthread_mutex_unlock(&c->lock);
}

void rpc_deliver(struct rpc_clnt *c, uint8_t *buf, size_t len)
{
	struct rpc_call_ent *e, *done_list = NULL;
	struct rpc_reply_hdr h;
	struct xdr_dec d;
	uint32_t xid;
	int herr, err;
	char why[96];

	if (rpcmsg_dec_xid(buf, len, &xid)) {
		free(buf);
		pthread_mutex_lock(&c->lock);
		c->dropped++;
		pthread_mutex_unlock(&c->lock);
		return;
	}
	if (len >= 8 && xdr_get_u32(buf + 4) == RPC_CALL) {
		if (reading_as_leader)
			handoff(c, buf, len);
		else
			deliver_call(c, buf, len);
		return;
	}
	xdr_dec_init(&d, buf, len);
	herr = rpcmsg_dec_reply(&d, &h);
	err = herr ? -EIO : rpcmsg_reply_errno(&h);

	pthread_mutex_lock(&c->lock);
	e = g_hash_table_lookup(c->calls, GUINT_TO_POINTER(xid));
	if (!e) {
		c->dropped++;
		pthread_mutex_unlock(&c->lock);
		free(buf);
		return;
	}
	if (reading_as_leader &&
	    (e->done_fn || c->handoff || c->handoff_running)) {
		/* done() runs on the transport thread, as promised; and
		 * replies are dealt with in the order they came, while
		 * earlier ones wait there (a done() that updates the
		 * caches before the caller of a later reply does). */
		pthread_mutex_unlock(&c->lock);
		handoff(c, buf, len);
		return;
	}
	c->backoff_us = 0; /* the server answers: reconnect at once next time */
	/* A reply while the window was full: open it a little (additive
	 * increase, one call per window of replies). */
	if (e->cong && c->inflight * RPC_CWNDSCALE >= c->cwnd &&
	    c->cwnd < RPC_MAXCWND) {
		c->cwnd += (RPC_CWNDSCALE * RPC_CWNDSCALE + c->cwnd / 2) /
			   c->cwnd;
		if (c->cwnd > RPC_MAXCWND)
			c->cwnd = RPC_MAXCWND;
	}
	if (c->not_responding) {
		c->not_responding = false;
		nf_log(NF_LOG_WARNING, "%s OK", c->server);
	}
	if (herr && !c->bad_reply_logged) {
		c->bad_reply_logged = true;
		nf_log(NF_LOG_WARNING, "%s: malformed RPC reply header (xid %#x)",
		       c->server, xid);
	} else if (err) {
		nf_log(NF_LOG_DEBUG, "%s: xid %#x: %s", c->server, xid,
		       rpcmsg_reply_str(&h, why, sizeof(why)));
	}
	e->reply.buf = buf;
	e->reply.len = len;
	e->results_off = (size_t)(d.p - buf);
	e->recvd = len + 4;
	e->end_us = clock_mono_us();
	rpc_finish_locked(c, e, err, &done_list);
	pthread_mutex_unlock(&c->lock);
	rpc_run_done_list(c, done_list);
}

struct rpc_call_ent *rpc_sendq_peek(struct rpc_clnt *c)
{
	struct rpc_call_ent *e;

	pthread_mutex_lock(&c->lock);
	while ((e = c->qhead)) {
		if (e->sent > 0 || !e->done)
			break;
		/* Answered, abandoned or timed out before its first byte
		 * went out: nothing to send. */
		c->qhead = e->qnext;
		if (!c->qhead)
			c->qtail = NULL;
		e->qnext = NULL;
		e->queued = false;
		rpc_ent_unref_locked(e);
	}
	if (e && !rpc_sendq_ready_locked(c))
		e = NULL; /* the congestion window is full */
	if (e)
		e->refs++;
	pthread_mutex_unlock(&c->lock);
	return e;
}

bool rpc_sendq_ready_locked(struct rpc_clnt *c)
{
	const struct rpc_call_ent *e = c->qhead;

	if (!e)
		return false;
	if (!c->ops->datagram || e->cong || e->done)
		return true;
	return c->inflight * RPC_CWNDSCALE < c->cwnd;
}

void rpc_sendq_requeue_locked(struct rpc_clnt *c, struct rpc_call_ent *e)
{
	e->refs++;
	e->queued = true;
	e->sent = 0;
	if (c->ops->datagram) {
		/* Nothing is ever half sent: a retransmission, which already
		 * holds its window slot, goes first. */
		e->qnext = c->qhead;
		c->qhead = e;
		if (!c->qtail)
			c->qtail = e;
		return;
	}
	e->qnext = NULL;
	if (c->qtail)
		c->qtail->qnext = e;
	else
		c->qhead = e;
	c->qtail = e;
}

void rpc_sendq_advance(struct rpc_clnt *c, struct rpc_call_ent *e, size_t n)
{
	pthread_mutex_lock(&c->lock);
	e->sent += n;
	if (e->sent == e->msg.len && c->qhead == e) {
		c->qhead = e->qnext;
		if (!c->qhead)
			c->qtail = NULL;
		e->qnext = NULL;
		e->queued = false;
		e->sent = 0;
		e->transmits++;
		e->sent_us = clock_mono_us();
		if (c->ops->datagram && !e->cong && e->outstanding) {
			/* First transmission: take a window slot and start
			 * the timer now, not when the call was queued. */
			e->cong = true;
			c->inflight++;
			e->deadline_us = clock_mono_us() + e->timeout_us;
			if (e->deadline_us < c->next_deadline_us)
				c->next_deadline_us = e->deadline_us;
		}
		if (e->proc < c->nstats) {
			c->stats[e->proc].s.bytes_sent += e->msg.len;
			if (e->transmits > 1)
				c->stats[e->proc].s.retrans++;
		}
		/* the queue's reference; peek's reference still holds */
		e->refs--;
	}
	rpc_ent_unref_locked(e); /* rpc_sendq_peek()'s reference */
	pthread_mutex_unlock(&c->lock);
}

static void sendq_append_locked(struct rpc_clnt *c, struct rpc_call_ent *e)
{
	e->refs++;
	e->queued = true;
	e->sent = 0;
	e->qnext = NULL;
	if (c->qtail)
		c->qtail->qnext = e;
	else
		c->qhead = e;
	c->qtail = e;
}

void rpc_conn_established(struct rpc_clnt *c)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	struct rpc_call_ent *e, *n;
	rpc_reconnect_fn hook = NULL;
	void *hook_ctx = NULL;
	int port = 0;

	c->state = RPC_UP;
	if (getsockname(c->fd, (struct sockaddr *)&ss, &len) == 0) {
		c->local = ss;
		c->locallen = len;
		if (ss.ss_family == AF_INET)
			port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
		else if (ss.ss_family == AF_INET6)
			port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	}
	pthread_mutex_lock(&c->lock);
	if (c->local_port && port != c->local_port)
		nf_log(NF_LOG_DEBUG, "%s: reconnected from port %d (was %d)",
		       c->server, port, c->local_port);
	c->local_port = port;
	c->connects++;
	/* Rebuild the send queue: every outstanding call, in call order,
	 * with the XID it had. */
	for (e = c->qhead; e; e = n) {
		n = e->qnext;
		e->qnext = NULL;
		e->queued = false;
		e->sent = 0;
		rpc_ent_unref_locked(e);
	}
	c->qhead = c->qtail = NULL;
	for (e = c->first; e; e = e->next)
		sendq_append_locked(c, e);
	if (c->local_port_seen) {
		hook = c->on_reconnect;
		hook_ctx = c->reconnect_ctx;
	}
	c->local_port_seen = true;
	c->direct_ok = !c->ops->datagram;
	pthread_mutex_unlock(&c->lock);
	if (hook)
		hook(hook_ctx);
}

/*
 * Whether the transport thread must read the socket at once when a leader
 * leaves it: for a reply to an asynchronous call, or a call the server
 * may make at any time.  Otherwise the socket stays out of the epoll set
 * until that thread's next round (RPC_IDLE_POLL_MS at most, sooner at a
 * new asynchronous call): a caller that follows soon leads without an
 * epoll_ctl() each way, and an end of the connection meanwhile is seen by
 * the next leader or that round.
 */
static bool transport_must_read_locked(const struct rpc_clnt *c)
{
	if (c->cb)
		return true;
	for (const struct rpc_call_ent *f = c->first; f; f = f->next)
		if (f->done_fn)
			return true;
	return false;
}

/* The caller of e reads the socket from now on (see lead_locked()). */
static void lead_take_locked(struct rpc_clnt *c, struct rpc_call_ent *e)
{
	c->recv_owner = RPC_RECV_CALLER;
	c->leader = e;
	if (c->watch_fd == c->fd && (c->watch_ev & EPOLLIN))
		rpc_watch_locked(c, c->fd, c->watch_ev & ~(uint32_t)EPOLLIN);
}

/* Encodes and queues a call.  For a synchronous call (done NULL) the caller
 * keeps the owner reference and is counted in c->users. */
static int submit(struct rpc_clnt *c, uint32_t proc,
		  const struct rpc_cred *cred, xdr_enc_fn enc,
		  const void *args, rpc_done_fn done, void *ctx,
		  struct rpc_call_ent **out)
{
	struct rpc_call_ent *e = calloc(1, sizeof(*e));
	uint32_t xid;
	bool direct, soon;
	int ret;

	if (!e)
		return -ENOMEM;
	e->refs = 1;
	e->proc = proc;
	e->done_fn = done;
	e->done_ctx = ctx;
	xid = __atomic_fetch_add(&c->next_xid, 1, __ATOMIC_RELAXED);
	xdr_enc_init(&e->msg, 256, 4); /* room for the record mark */
	rpcmsg_enc_call(&e->msg, xid, c->prog, c->vers, proc, cred);
	ret = xdr_enc_error(&e->msg);
	if (!ret && enc) {
		ret = enc(&e->msg, args);
		if (!ret)
			ret = xdr_enc_error(&e->msg);
	}
	if (!ret && e->msg.len - 4 > 0x7fffffffu)
		ret = -EMSGSIZE;
	if (!ret && c->ops->datagram && e->msg.len - 4 > RPC_UDP_MAX_MSG)
		ret = -EMSGSIZE;
	if (ret) {
		xdr_enc_release(&e->msg);
		free(e);
		return ret;
	}
	xdr_put_u32(e->msg.buf,
		    RPC_RECORD_LAST | (uint32_t)(e->msg.len - 4));
	if (!done)
		clock_cond_init(&e->cond);

	pthread_mutex_lock(&c->lock);
	if (c->shutdown) {
		pthread_mutex_unlock(&c->lock);
		ent_free(e);
		return -ESHUTDOWN;
	}
	/* After 2^32 calls an XID may come round while its first user is
	 * still waiting: skip it. */
	while (g_hash_table_contains(c->calls, GUINT_TO_POINTER(xid)))
		xid = __atomic_fetch_add(&c->next_xid, 1, __ATOMIC_RELAXED);
	e->xid = xid;
	xdr_put_u32(e->msg.buf + 4, xid);
	g_hash_table_insert(c->calls, GUINT_TO_POINTER(xid), e);
	e->prev = c->last;
	if (c->last)
		c->last->next = e;
	else
		c->first = e;
	c->last = e;
	e->outstanding = true;
	e->start_us = clock_mono_us();
	e->timeout_us = c->timeo_us;
	e->deadline_us = e->start_us + e->timeout_us;
	/* The transport thread looks at its timers at least every
	 * RPC_IDLE_POLL_MS, so a deadline sooner than any it knows may be
	 * seen that much late: a wake-up, unless the timeout is ten times
	 * as long (TCP's 60 s). */
	soon = e->deadline_us < c->next_deadline_us &&
	       e->timeout_us < 10u * RPC_IDLE_POLL_MS * 1000u;
	if (e->deadline_us < c->next_deadline_us)
		c->next_deadline_us = e->deadline_us;
	sendq_append_locked(c, e);
	if (!done)
		c->users++;
	/* A synchronous caller that finds nobody reading takes the socket
	 * before its call goes out, not after: a reply that came back
	 * meanwhile would wake the transport thread to read it and the
	 * caller to take it from there, two context switches where
	 * leading costs none. */
	if (!done && c->direct_ok && c->recv_owner == RPC_RECV_NONE &&
	    !c->shutdown) {
		lead_take_locked(c, e);
		e->lead_claimed = true;
	} else if (done && c->direct_ok && c->recv_owner == RPC_RECV_NONE &&
		   c->watch_fd == c->fd && !(c->watch_ev & EPOLLIN)) {
		/* Its reply is for the transport thread to read. */
		rpc_watch_locked(c, c->fd, c->watch_ev | EPOLLIN);
	}
	direct = rpc_send_begin_locked(c, true);
	pthread_mutex_unlock(&c->lock);
	*out = e;
	if (!direct || soon)
		wake(c);
	if (!direct)
		return 0;
	/* The wire is free: write the queue from this thread rather than
	 * wake the transport thread for it.  Whatever stays (a full socket,
	 * an error, calls queued meanwhile) is left to that thread. */
	ret = c->ops->send(c);
	if (rpc_send_end(c) || ret < 0)
		wake(c);
	return 0;
}

bool rpc_send_begin_locked(struct rpc_clnt *c, bool direct)
{
	if (c->sending || (direct && !c->direct_ok))
		return false;
	c->sending = true;
	return true;
}

bool rpc_send_end(struct rpc_clnt *c)
{
	bool more;

	pthread_mutex_lock(&c->lock);
	c->sending = false;
	pthread_cond_broadcast(&c->send_done);
	more = rpc_sendq_ready_locked(c);
	pthread_mutex_unlock(&c->lock);
	return more;
}

void rpc_send_stop_direct(struct rpc_clnt *c)
{
	pthread_mutex_lock(&c->lock);
	c->direct_ok = false;
	if (c->recv_owner == RPC_RECV_CALLER)
		kick(c->leadfd);
	while (c->sending || c->recv_owner == RPC_RECV_CALLER)
		pthread_cond_wait(&c->send_done, &c->lock);
	pthread_mutex_unlock(&c->lock);
}

static void drain(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) < 0 && errno != EAGAIN && errno != EINTR)
		nf_log(NF_LOG_ERR, "eventfd: %s", strerror(errno));
}

/*
 * The caller of e reads the socket until e is answered (see rpc_int.h);
 * called and returns with the lock held, c->recv_owner free and
 * c->direct_ok set on entry.
 */
static void lead_locked(struct rpc_clnt *c, struct rpc_call_ent *e,
			volatile int *interrupted)
{
	struct rpc_call_ent *f;
	int fd = c->fd, ret = 0;

	lead_take_locked(c, e);
	while (!e->done && c->direct_ok &&
	       !(interrupted && __atomic_load_n(interrupted,
						__ATOMIC_RELAXED))) {
		struct pollfd pfd[2] = {
			{ .fd = fd, .events = POLLIN },
			{ .fd = c->leadfd, .events = POLLIN },
		};
		int n;

		pthread_mutex_unlock(&c->lock);
		n = poll(pfd, 2, interrupted ? RPC_INTR_POLL_MS : -1);
		if (n > 0 && (pfd[1].revents & POLLIN))
			drain(c->leadfd);
		if (n > 0 && (pfd[0].revents & (POLLIN | POLLHUP | POLLERR))) {
			reading_as_leader = true;
			ret = c->ops->recv(c);
			reading_as_leader = false;
		}
		pthread_mutex_lock(&c->lock);
		if (ret < 0) {
			/* The transport thread closes and reconnects. */
			c->recv_err = ret;
			c->direct_ok = false;
			break;
		}
	}
	c->recv_owner = RPC_RECV_NONE;
	c->leader = NULL;
	if (c->direct_ok && c->watch_fd == fd && !(c->watch_ev & EPOLLIN) &&
	    transport_must_read_locked(c))
		rpc_watch_locked(c, fd, c->watch_ev | EPOLLIN);
	pthread_cond_broadcast(&c->send_done);
	/* Another caller still waiting takes over the reading. */
	if (c->direct_ok) {
		for (f = c->first; f; f = f->next) {
			if (f->waiting) {
				pthread_cond_signal(&f->cond);
				break;
			}
		}
	}
	if (ret < 0)
		wake(c);
}

int rpc_clnt_call_async(struct rpc_clnt *c, uint32_t proc,
			const struct rpc_cred *cred, xdr_enc_fn enc,
			const void *args, rpc_done_fn done, void *ctx)
{
	struct rpc_call_ent *e;

	if (!done)
		return -EINVAL;
	return submit(c, proc, cred, enc, args, done, ctx, &e);
}

/*
 * An interrupted synchronous call goes on as an asynchronous one: done()
 * will run at its end, as for rpc_clnt_call_async(), and the owner's
 * reference passes to the client.  The lock is held.
 */
static void detach_locked(struct rpc_clnt *c, struct rpc_call_ent *e,
			  rpc_done_fn done, void *ctx)
{
	e->done_fn = done;
	e->done_ctx = ctx;
	if (--c->users == 0 && c->shutdown)
		pthread_cond_broadcast(&c->idle);
	/* Its reply is now for the transport thread to read. */
	if (c->direct_ok && c->recv_owner == RPC_RECV_NONE &&
	    c->watch_fd == c->fd && !(c->watch_ev & EPOLLIN))
		rpc_watch_locked(c, c->fd, c->watch_ev | EPOLLIN);
}

static int call(struct rpc_clnt *c, uint32_t proc, const struct rpc_cred *cred,
		xdr_enc_fn enc, const void *args, xdr_dec_fn dec, void *res,
		struct rpc_reply *reply, volatile int *interrupted,
		rpc_done_fn detach_done, void *detach_ctx)
{
	struct rpc_call_ent *e;
	struct rpc_reply r;
	struct timespec ts;
	int err;

	if (reply) {
		reply->buf = NULL;
		reply->len = 0;
	}
	err = submit(c, proc, cred, enc, args, NULL, NULL, &e);
	if (err)
		return err;

	pthread_mutex_lock(&c->lock);
	if (e->lead_claimed) {
		/* Leads even when the call is over or interrupted: leaving
		 * gives the socket back. */
		e->lead_claimed = false;
		lead_locked(c, e, interrupted);
	}
	while (!e->done) {
		if (c->recv_owner == RPC_RECV_NONE && c->direct_ok &&
		    !c->shutdown &&
		    !(interrupted && __atomic_load_n(interrupted,
						     __ATOMIC_RELAXED))) {
			lead_locked(c, e, interrupted);
			continue;
		}
		if (!interrupted) {
			e->waiting = true;
			pthread_cond_wait(&e->cond, &c->lock);
			e->waiting = false;
			continue;
		}
		if (__atomic_load_n(interrupted, __ATOMIC_RELAXED) &&
		    detach_done) {
			detach_locked(c, e, detach_done, detach_ctx);
			pthread_mutex_unlock(&c->lock);
			wake(c);
			return -EINPROGRESS;
		}
		if (__atomic_load_n(interrupted, __ATOMIC_RELAXED)) {
			/* Abandon the call.  If it is being written, the
			 * transport thread finishes the record and drops it;
			 * a late reply is dropped as unknown. */
			outstanding_unlink_locked(c, e);
			e->done = true;
			e->err = -EINTR;
			e->end_us = clock_mono_us();
			break;
		}
		ts = clock_mono_deadline(RPC_INTR_POLL_NS);
		e->waiting = true;
		pthread_cond_timedwait(&e->cond, &c->lock, &ts);
		e->waiting = false;
	}
	/* The reply may come while the transport thread writes a
	 * retransmission of the call: let it finish, so that the call's
	 * statistics count it. */
	while (c->sending && c->qhead == e)
		pthread_cond_wait(&c->send_done, &c->lock);
	err = e->err;
	r = e->reply;
	e->reply.buf = NULL;
	e->reply.len = 0;
	pthread_mutex_unlock(&c->lock);

	if (err == 0 && dec) {
		struct xdr_dec d;

		xdr_dec_init(&d, r.buf + e->results_off,
			     r.len - e->results_off);
		if (dec(&d, res)) {
			err = -EIO;
			pthread_mutex_lock(&c->lock);
			if (!c->bad_reply_logged) {
				c->bad_reply_logged = true;
				nf_log(NF_LOG_WARNING,
				       "%s: malformed results of procedure %u",
				       c->server, proc);
			}
			pthread_mutex_unlock(&c->lock);
		}
	}
	account(c, e, err);
	if (err == 0 && reply)
		*reply = r;
	else
		rpc_reply_release(&r);

	pthread_mutex_lock(&c->lock);
	rpc_ent_unref_locked(e);
	if (--c->users == 0 && c->shutdown)
		pthread_cond_broadcast(&c->idle);
	pthread_mutex_unlock(&c->lock);
	return err;
}

int rpc_clnt_call(struct rpc_clnt *c, uint32_t proc,
		  const struct rpc_cred *cred, xdr_enc_fn enc, const void *args,
		  xdr_dec_fn dec, void *res, struct rpc_reply *reply,
		  volatile int *interrupted)
{
	return call(c, proc, cred, enc, args, dec, res, reply, interrupted,
		    NULL, NULL);
}

int rpc_clnt_call_detach(struct rpc_clnt *c, uint32_t proc,
			 const struct rpc_cred *cred, xdr_enc_fn enc,
			 const void *args, xdr_dec_fn dec, void *res,
			 volatile int *interrupted, rpc_done_fn done,
			 void *ctx)
{
	if (!done || !interrupted)
		return -EINVAL;
	return call(c, proc, cred, enc, args, dec, res, NULL, interrupted,
		    done, ctx);
}

static uint32_t random_xid(void)
{
	uint32_t v;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) == sizeof(v))
		return v;
	return (uint32_t)clock_mono_us() ^ ((uint32_t)getpid() << 16);
}

/* The first connection, made before the transport thread starts. */
static int first_connect(struct rpc_clnt *c)
{
	struct pollfd pfd;
	uint64_t wait_ms = c->timeo_us / 1000;
	int ret;

	ret = c->ops->connect_start(c);
	if (ret < 0)
		return ret;
	if (ret == 0) {
		pfd.fd = c->fd;
		pfd.events = POLLOUT;
		do {
			ret = poll(&pfd, 1, (int)wait_ms);
		} while (ret < 0 && errno == EINTR);
		ret = ret == 0 ? -ETIMEDOUT : c->ops->connect_finish(c);
		if (ret < 0) {
			c->ops->close(c);
			return ret;
		}
	}
	rpc_conn_established(c);
	return 0;
}

static void clnt_free(struct rpc_clnt *c)
{
	struct rpc_call_ent *e, *n;

	for (e = c->qhead; e; e = n) {
		n = e->qnext;
		rpc_ent_unref_locked(e);
	}
	if (c->fd >= 0 || c->held_fd >= 0)
		c->ops->close(c);
	if (c->calls)
		g_hash_table_destroy(c->calls);
	while (c->handoff) {
		struct rpc_handoff *h = c->handoff;

		c->handoff = h->next;
		free(h->buf);
		free(h);
	}
	if (c->wakefd >= 0)
		close(c->wakefd);
	if (c->leadfd >= 0)
		close(c->leadfd);
	if (c->epfd >= 0)
		close(c->epfd);
	rpc_record_reader_free(&c->rr);
	free(c->rbuf);
	free(c->stats);
	free(c->server);
	pthread_cond_destroy(&c->send_done);
	pthread_cond_destroy(&c->idle);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

int rpc_clnt_create(const struct sockaddr *addr, socklen_t addrlen,
		    uint32_t prog, uint32_t vers,
		    const struct rpc_clnt_opts *opts, struct rpc_clnt **out)
{
	struct rpc_clnt *c;
	int ret;

	*out = NULL;
	if (opts->proto != IPPROTO_TCP && opts->proto != IPPROTO_UDP &&
	    opts->proto != 0)
		return -EINVAL;
	if (addrlen > sizeof(struct sockaddr_storage) ||
	    (addr->sa_family != AF_INET && addr->sa_family != AF_INET6))
		return -EAFNOSUPPORT;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->idle, NULL);
	pthread_cond_init(&c->send_done, NULL);
	c->fd = -1;
	c->held_fd = -1;
	c->wakefd = -1;
	c->leadfd = -1;
	c->epfd = -1;
	c->watch_fd = -1;
	memcpy(&c->addr, addr, addrlen);
	c->addrlen = addrlen;
	c->prog = prog;
	c->vers = vers;
	c->opts = *opts;
	c->server = strdup(opts->server ? opts->server : "server");
	c->opts.server = c->server;
	c->ops = opts->proto == IPPROTO_UDP ? &rpc_udp_ops : &rpc_tcp_ops;
	c->timeo_us = opts->timeo_ds ? (uint64_t)opts->timeo_ds * 100000u
		      : opts->proto == IPPROTO_UDP ? RPC_DEFAULT_UDP_TIMEO_US
						   : RPC_DEFAULT_TIMEO_US;
	c->cwnd = RPC_INITCWND;
	c->maxtimeo_us = c->timeo_us > RPC_MAX_TIMEO_US ? c->timeo_us
						       : RPC_MAX_TIMEO_US;
	c->nstats = opts->nprocs ? opts->nprocs : RPC_DEFAULT_NSTATS;
	c->stats = calloc(c->nstats, sizeof(*c->stats));
	c->rbuf = malloc(RPC_RBUF_SIZE);
	c->calls = g_hash_table_new(g_direct_hash, g_direct_equal);
	c->next_xid = random_xid();
	c->next_deadline_us = UINT64_MAX;
	c->state = RPC_DOWN;
	rpc_record_reader_init(&c->rr, RPC_RECORD_MAX);
	c->wakefd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (!c->server || !c->stats || !c->rbuf) {
		ret = -ENOMEM;
		goto fail;
	}
	if (c->wakefd < 0) {
		ret = -errno;
		goto fail;
	}
	c->leadfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	c->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (c->leadfd < 0 || c->epfd < 0) {
		ret = -errno;
		goto fail;
	}
	{
		struct epoll_event ev = { .events = EPOLLIN,
					  .data.fd = c->wakefd };

		if (epoll_ctl(c->epfd, EPOLL_CTL_ADD, c->wakefd, &ev) < 0) {
			ret = -errno;
			goto fail;
		}
	}
	ret = first_connect(c);
	if (ret)
		goto fail;
	ret = -pthread_create(&c->thread, NULL, rpc_io_thread, c);
	if (ret)
		goto fail;
	*out = c;
	return 0;
fail:
	clnt_free(c);
	return ret;
}

void rpc_clnt_destroy(struct rpc_clnt *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	c->shutdown = true;
	pthread_mutex_unlock(&c->lock);
	wake(c);
	/* The transport thread fails every outstanding call with
	 * -ESHUTDOWN before it ends. */
	pthread_join(c->thread, NULL);
	pthread_mutex_lock(&c->lock);
	while (c->users > 0)
		pthread_cond_wait(&c->idle, &c->lock);
	pthread_mutex_unlock(&c->lock);
	clnt_free(c);
}

void rpc_clnt_set_callback(struct rpc_clnt *c, rpc_callback_fn fn,
			   void *ctx)
{
	pthread_mutex_lock(&c->lock);
	c->cb = fn;
	c->cb_ctx = ctx;
	pthread_mutex_unlock(&c->lock);
}

void rpc_clnt_set_reconnect(struct rpc_clnt *c, rpc_reconnect_fn fn,
			    void *ctx)
{
	pthread_mutex_lock(&c->lock);
	c->on_reconnect = fn;
	c->reconnect_ctx = ctx;
	pthread_mutex_unlock(&c->lock);
}

void rpc_clnt_set_trace(struct rpc_clnt *c, rpc_trace_fn fn, void *ctx)
{
	pthread_mutex_lock(&c->lock);
	c->trace = fn;
	c->trace_ctx = ctx;
	pthread_mutex_unlock(&c->lock);
}

int rpc_clnt_get_stats(struct rpc_clnt *c, uint32_t proc,
		       struct rpc_proc_stats *out)
{
	if (proc >= c->nstats)
		return -EINVAL;
	pthread_mutex_lock(&c->lock);
	*out = c->stats[proc].s;
	out->rtt_us_p99 = rpc_hist_quantile(&c->stats[proc].hist, 0.99);
	pthread_mutex_unlock(&c->lock);
	return 0;
}

int rpc_clnt_local_port(struct rpc_clnt *c)
{
	int port;

	pthread_mutex_lock(&c->lock);
	port = c->local_port;
	pthread_mutex_unlock(&c->lock);
	return port ? port : -ENOTCONN;
}

uint64_t rpc_clnt_connects(struct rpc_clnt *c)
{
	uint64_t n;

	pthread_mutex_lock(&c->lock);
	n = c->connects;
	pthread_mutex_unlock(&c->lock);
	return n;
}

uint64_t rpc_clnt_dropped_replies(struct rpc_clnt *c)
{
	uint64_t n;

	pthread_mutex_lock(&c->lock);
	n = c->dropped;
	pthread_mutex_unlock(&c->lock);
	return n;
}
