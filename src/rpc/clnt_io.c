/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The transport thread of a client: connection state, reconnection with
 * backoff, the retransmission timers (timeo, retrans, soft/hard) and the
 * poll loop that lets the transport read and write.
 *
 * Timers (nfs(5)): a call's first timeout is timeo; each expiry is a minor
 * timeout: the call is sent again with the same XID and its timeout
 * doubles, up to 60 s (or timeo when larger).  After retrans minor timeouts
 * the next expiry is a major timeout: a soft call fails with -ETIMEDOUT
 * (-EIO with opts.timeout_eio); a hard call logs "not responding" once for
 * the client and goes on.  Timers run whether or not the connection is up.
 * Over UDP a call's timer starts when it is first sent: a call that waits
 * for room in the congestion window has not timed out; each retransmission
 * timeout halves the window.
 *
 * Connection: lost on EOF, a read or write error or a protocol error (an
 * oversized record).  The thread then reconnects -- at once the first
 * time, then with a backoff of 0.1 s doubling to 5 s, reset by the next
 * reply -- but only while calls are outstanding; an idle connection closed
 * by the server is opened again by the next call.
 */
#include "rpc_int.h"

#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "../base/log.h"

#define RPC_BACKOFF_MIN_US (100u * 1000)
#define RPC_BACKOFF_MAX_US (5u * 1000 * 1000)
#define RPC_CONNECT_MIN_US (1000u * 1000)

void rpc_watch_locked(struct rpc_clnt *c, int fd, uint32_t ev)
{
	struct epoll_event ee = { .events = ev, .data.fd = fd };
	int op;

	if (fd == c->watch_fd && (fd < 0 || ev == c->watch_ev))
		return;
	if (c->watch_fd >= 0 && fd != c->watch_fd) {
		epoll_ctl(c->epfd, EPOLL_CTL_DEL, c->watch_fd, NULL);
		c->watch_fd = -1;
	}
	if (fd < 0)
		return;
	op = fd == c->watch_fd ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
	if (epoll_ctl(c->epfd, op, fd, &ee) < 0) {
		nf_log(NF_LOG_ERR, "%s: epoll_ctl: %s", c->server,
		       strerror(errno));
		return;
	}
	c->watch_fd = fd;
	c->watch_ev = ev;
}

/* Before the socket is closed: out of the epoll set. */
static void unwatch(struct rpc_clnt *c)
{
	pthread_mutex_lock(&c->lock);
	rpc_watch_locked(c, -1, 0);
	pthread_mutex_unlock(&c->lock);
}

static void conn_lost(struct rpc_clnt *c, int err)
{
	uint64_t now = clock_mono_us();

	nf_log(NF_LOG_DEBUG, "%s: connection %s: %s", c->server,
	       c->state == RPC_UP ? "lost" : "failed", strerror(-err));
	rpc_send_stop_direct(c);
	/* The previous local port cannot be had again: take any. */
	if (c->state == RPC_CONNECTING &&
	    (err == -EADDRINUSE || err == -EADDRNOTAVAIL))
		c->locallen = 0;
	unwatch(c);
	if (c->ops->drop && c->locallen > 0)
		c->ops->drop(c);
	else
		c->ops->close(c);
	c->state = RPC_DOWN;
	rpc_record_reader_reset(&c->rr);
	c->reconnect_at_us = now + c->backoff_us;
	if (c->backoff_us == 0)
		c->backoff_us = RPC_BACKOFF_MIN_US;
	else if (c->backoff_us < RPC_BACKOFF_MAX_US / 2)
		c->backoff_us *= 2;
	else
		c->backoff_us = RPC_BACKOFF_MAX_US;
}

static void start_connect(struct rpc_clnt *c)
{
	uint64_t wait = c->timeo_us;
	int ret;

	if (wait < RPC_CONNECT_MIN_US)
		wait = RPC_CONNECT_MIN_US;
	ret = c->ops->connect_start(c);
	if (ret < 0) {
		conn_lost(c, ret);
	} else if (ret == 0) {
		c->state = RPC_CONNECTING;
		c->connect_deadline_us = clock_mono_us() + wait;
	} else {
		rpc_conn_established(c);
	}
}

/* Write the send queue, unless a caller is writing it (it wakes this
 * thread for what it leaves). */
static int send_queue(struct rpc_clnt *c)
{
	bool mine;
	int ret;

	pthread_mutex_lock(&c->lock);
	mine = rpc_send_begin_locked(c, false);
	pthread_mutex_unlock(&c->lock);
	if (!mine)
		return 0;
	ret = c->ops->send(c);
	rpc_send_end(c);
	return ret;
}

/* Minor and major timeouts of the outstanding calls. */
static void check_timeouts(struct rpc_clnt *c)
{
	struct rpc_call_ent *e, *n, *done_list = NULL;
	uint64_t now = clock_mono_us(), next = UINT64_MAX;
	bool queued = false;

	pthread_mutex_lock(&c->lock);
	if (now < c->next_deadline_us) {
		pthread_mutex_unlock(&c->lock);
		return;
	}
	for (e = c->first; e; e = n) {
		n = e->next;
		if (e->deadline_us <= now && c->ops->datagram && !e->cong) {
			/* Not sent yet: waiting for the window. */
			e->deadline_us = now + e->timeout_us;
		} else if (e->deadline_us <= now) {
			if (c->ops->datagram) {
				c->cwnd /= 2;
				if (c->cwnd < RPC_CWNDSCALE)
					c->cwnd = RPC_CWNDSCALE;
			}
			if (++e->minor > c->opts.retrans) {
				if (c->opts.soft) {
					rpc_finish_locked(c, e,
							  c->opts.timeout_eio
							  ? -EIO : -ETIMEDOUT,
							  &done_list);
					continue;
				}
				if (!c->not_responding) {
					c->not_responding = true;
					nf_log(NF_LOG_WARNING,
					       "%s not responding, still trying",
					       c->server);
				}
				e->minor = 0;
			}
			e->timeout_us *= 2;
			if (e->timeout_us > c->maxtimeo_us)
				e->timeout_us = c->maxtimeo_us;
			e->deadline_us = now + e->timeout_us;
			/* Retransmit with the same XID; while the connection
			 * is down, reconnecting queues it anyway. */
			if (!e->queued && c->state == RPC_UP) {
				rpc_sendq_requeue_locked(c, e);
				queued = true;
			}
		}
		if (e->deadline_us < next)
			next = e->deadline_us;
	}
	c->next_deadline_us = next;
	pthread_mutex_unlock(&c->lock);
	rpc_run_done_list(c, done_list);
	if (queued && c->state == RPC_UP) {
		int ret = send_queue(c);

		if (ret < 0)
			conn_lost(c, ret);
	}
}

static void fail_all(struct rpc_clnt *c, int err)
{
	struct rpc_call_ent *done_list = NULL;

	pthread_mutex_lock(&c->lock);
	while (c->first)
		rpc_finish_locked(c, c->first, err, &done_list);
	pthread_mutex_unlock(&c->lock);
	rpc_run_done_list(c, done_list);
}

static int ms_until(uint64_t when, uint64_t now)
{
	uint64_t ms;

	if (when <= now)
		return 0;
	ms = (when - now + 999) / 1000;
	return ms > RPC_IDLE_POLL_MS ? RPC_IDLE_POLL_MS : (int)ms;
}

/* Socket events while a caller leads: its error or hang-up is the
 * leader's to find, but epoll reports them whatever the mask, so the
 * thread takes the socket back rather than spin; when the socket turns
 * out well after all, callers may use it again. */
static int take_back(struct rpc_clnt *c)
{
	int ret;

	rpc_send_stop_direct(c);
	ret = c->ops->recv(c);
	if (ret == 0) {
		pthread_mutex_lock(&c->lock);
		c->direct_ok = !c->ops->datagram;
		pthread_mutex_unlock(&c->lock);
	}
	return ret;
}

/* The socket is readable: read it unless a caller leads. */
static int read_socket(struct rpc_clnt *c, uint32_t ev)
{
	enum rpc_recv_owner owner;
	int ret;

	pthread_mutex_lock(&c->lock);
	owner = c->recv_owner;
	if (owner == RPC_RECV_NONE)
		c->recv_owner = RPC_RECV_THREAD;
	pthread_mutex_unlock(&c->lock);
	if (owner != RPC_RECV_NONE)
		return ev & (EPOLLHUP | EPOLLERR) ? take_back(c) : 0;
	ret = c->ops->recv(c);
	pthread_mutex_lock(&c->lock);
	c->recv_owner = RPC_RECV_NONE;
	pthread_mutex_unlock(&c->lock);
	return ret;
}

void *rpc_io_thread(void *arg)
{
	struct rpc_clnt *c = arg;

	for (;;) {
		struct epoll_event evs[2];
		bool outstanding, queued;
		uint64_t now, next_deadline;
		uint32_t sock_ev = 0, want;
		bool woken = false;
		int timeout = RPC_IDLE_POLL_MS, t, ret, recv_err;

		rpc_run_handoff(c);
		pthread_mutex_lock(&c->lock);
		if (c->shutdown) {
			pthread_mutex_unlock(&c->lock);
			break;
		}
		recv_err = c->recv_err;
		c->recv_err = 0;
		outstanding = c->first != NULL;
		/* A caller writing the queue wakes this thread for what it
		 * leaves: no POLLOUT meanwhile. */
		queued = !c->sending && rpc_sendq_ready_locked(c);
		next_deadline = c->next_deadline_us;
		pthread_mutex_unlock(&c->lock);

		if (recv_err && c->state == RPC_UP) {
			conn_lost(c, recv_err);
			continue;
		}
		now = clock_mono_us();
		if (c->state == RPC_DOWN && outstanding &&
		    now >= c->reconnect_at_us) {
			start_connect(c);
			continue;
		}
		if (c->state == RPC_CONNECTING &&
		    now >= c->connect_deadline_us) {
			conn_lost(c, -ETIMEDOUT);
			continue;
		}

		if (outstanding) {
			t = ms_until(next_deadline, now);
			timeout = t < timeout ? t : timeout;
		}
		want = 0;
		if (c->state == RPC_DOWN && outstanding) {
			t = ms_until(c->reconnect_at_us, now);
			timeout = t < timeout ? t : timeout;
		} else if (c->state == RPC_CONNECTING) {
			want = EPOLLOUT;
			t = ms_until(c->connect_deadline_us, now);
			timeout = t < timeout ? t : timeout;
		}
		pthread_mutex_lock(&c->lock);
		/* While a caller leads, the socket's replies are its own. */
		if (c->state == RPC_UP)
			want = (c->recv_owner == RPC_RECV_CALLER ? 0 : EPOLLIN) |
			       (queued ? EPOLLOUT : 0);
		rpc_watch_locked(c, c->state == RPC_DOWN ? -1 : c->fd, want);
		pthread_mutex_unlock(&c->lock);

		ret = epoll_wait(c->epfd, evs, 2, timeout);
		if (ret < 0) {
			if (errno != EINTR) {
				nf_log(NF_LOG_ERR, "%s: epoll_wait: %s",
				       c->server, strerror(errno));
				usleep(10000);
			}
			ret = 0;
		}
		for (int i = 0; i < ret; i++) {
			if (evs[i].data.fd == c->wakefd)
				woken = true;
			else if (evs[i].data.fd == c->fd)
				sock_ev = evs[i].events;
		}
		if (woken) {
			uint64_t v;

			if (read(c->wakefd, &v, sizeof(v)) < 0 &&
			    errno != EAGAIN)
				nf_log(NF_LOG_ERR, "%s: eventfd: %s",
				       c->server, strerror(errno));
		}

		if (c->state == RPC_CONNECTING && sock_ev) {
			ret = c->ops->connect_finish(c);
			if (ret < 0)
				conn_lost(c, ret);
			else
				rpc_conn_established(c);
		} else if (c->state == RPC_UP) {
			ret = 0;
			if (sock_ev & (EPOLLIN | EPOLLHUP | EPOLLERR))
				ret = read_socket(c, sock_ev);
			/* Write after a wake-up too: new calls need not wait
			 * for another round of poll. */
			if (ret == 0 && ((sock_ev & EPOLLOUT) || woken))
				ret = send_queue(c);
			if (ret < 0)
				conn_lost(c, ret);
		}
		check_timeouts(c);
	}

	fail_all(c, -ESHUTDOWN);
	rpc_send_stop_direct(c);
	rpc_run_handoff(c);
	unwatch(c);
	if (c->fd >= 0 || c->held_fd >= 0)
		c->ops->close(c);
	c->state = RPC_DOWN;
	return NULL;
}
