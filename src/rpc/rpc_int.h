/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internals of the RPC client, shared by rpc.c (calls and completion),
 * clnt_io.c (the transport thread: connection state, timeouts), tcp.c (the
 * stream transport), udp.c (the datagram transport) and stats.c.  Not for
 * use outside src/rpc/.
 *
 * Threads and locks
 * -----------------
 * Each client has one transport thread.  It connects, reads replies, runs
 * the retransmission timers and reconnects.  Calling threads encode their
 * call and queue it; a synchronous caller then sleeps on its own condition
 * variable, an asynchronous call's done() runs on the transport thread.
 *
 * Writing the send queue is done by one thread at a time, the holder of
 * c->sending: the transport thread, or, on a stream transport whose
 * connection is up (c->direct_ok), the caller that just queued a call and
 * found the wire free.  Writing from the caller saves a wake-up of the
 * transport thread (an eventfd write, a poll and a context switch) per
 * call.  A caller writes without blocking and leaves what does not go out
 * at once to the transport thread, which it wakes through the eventfd, as
 * does a caller that finds the wire busy.  One writer at a time means a
 * partially written record is never interleaved with another one, and a
 * caller that gives up (interrupted) never leaves half a record on the
 * wire: an entry that is being written stays queued until it is out.  The
 * transport thread closes the socket only after clearing c->direct_ok and
 * waiting for c->sending to clear, so a caller never writes to a closed
 * (or reused) descriptor; c->fd is read by a caller only while it holds
 * c->sending, or leads, with c->direct_ok set.
 *
 * Reading the socket is likewise done by one thread at a time, the
 * holder of c->recv_owner: the transport thread, or, on a stream whose
 * connection is up, a synchronous caller waiting for its reply (the
 * leader).  A caller that finds nobody reading when it queues its call
 * becomes the leader (it claims the socket before the call goes out, so
 * that a quick reply does not wake the transport thread): it
 * takes the socket out of the transport thread's epoll set, polls the
 * socket itself and reads every reply that comes, hands the replies of
 * other synchronous callers to them (they sleep on their condition
 * variables, the followers) and leaves the rest -- replies of
 * asynchronous calls and calls from the server, whose callbacks are
 * promised the transport thread -- to the transport thread through
 * c->handoff, followed there by every later reply until that thread has
 * caught up, so that replies are still dealt with in the order they
 * came.  When its own reply is in, it wakes one follower to lead in its
 * place, and gives the socket back to the epoll set where the transport
 * thread has something to read (a reply to an asynchronous call, or
 * calls from the server); otherwise that thread takes it back at its next
 * round, and the next caller leads without an epoll_ctl() each way.  So a
 * lone
 * caller sleeps once per call, in poll(), and the transport thread does
 * not wake at all: one context switch per call instead of two.  The
 * leader also wakes through c->leadfd when its call ends otherwise (a
 * timeout, the client's destruction) or when the transport thread must
 * close the socket (rpc_send_stop_direct() waits for the leader to leave,
 * as for the sender).  A read error found by a leader goes to the
 * transport thread in c->recv_err.  The transport thread keeps the
 * timers, connecting and reconnecting, the leftovers of the send queue
 * and reading whenever no caller leads.  The record reader (c->rr,
 * c->rbuf) belongs to the holder of c->recv_owner.
 *
 * c->lock protects every field marked [L] below and every field of
 * struct rpc_call_ent; it is never held across socket I/O, a wait for a
 * reply, a done() callback or the trace hook (it is held across the
 * epoll_ctl() calls that keep c->watch_ev true).  Fields marked [T] belong
 * to the transport thread alone.
 *
 * An entry is referenced by its owner (the synchronous caller, or the
 * client on behalf of an asynchronous call until done() ran) and by the
 * send queue while it is queued.  The outstanding table and list hold no
 * reference: the owner removes the entry from them before dropping its own.
 */
#ifndef NFSFUSE_RPC_INT_H
#define NFSFUSE_RPC_INT_H

#include <netinet/in.h>
#include <pthread.h>
#include <glib.h>

#include "../base/clock.h"
#include "rpc.h"
#include "record.h"

#define RPC_RBUF_SIZE (64u * 1024)
/* The transport thread looks at its timers at least this often. */
#define RPC_IDLE_POLL_MS 1000
/* Largest RPC message in one UDP datagram over IPv4 (65535 - 8 - 20). */
#define RPC_UDP_MAX_MSG 65507u
/*
 * Congestion window of a datagram transport, as in the Linux client
 * (net/sunrpc/xprt.c): at most cwnd / RPC_CWNDSCALE calls in flight; one
 * more per window of replies, halved by a retransmission timeout.  TCP
 * needs none: the stream has its own.
 */
#define RPC_CWNDSCALE 256u
#define RPC_INITCWND (8u * RPC_CWNDSCALE)
#define RPC_MAXCWND (16u * RPC_CWNDSCALE)
#define RPC_HIST_BUCKETS 160 /* 4 per power of two: 1 us .. 2^40 us */

struct rpc_hist {
	uint64_t n[RPC_HIST_BUCKETS];
};

struct rpc_stats_slot {
	struct rpc_proc_stats s;
	struct rpc_hist hist;
};

struct rpc_call_ent {
	unsigned refs;
	uint32_t xid;
	uint32_t proc;
	struct xdr_enc msg;       /* the whole record, mark included */

	/* list of outstanding calls, in the order they were made */
	struct rpc_call_ent *prev, *next;
	bool outstanding;         /* in the table and the list */
	/* send queue */
	struct rpc_call_ent *qnext;
	bool queued;
	size_t sent;              /* bytes of msg written (head of queue) */
	unsigned transmits;       /* times written in full */
	bool cong;                /* holds a slot of the congestion window */

	/* timers (monotonic microseconds) */
	uint64_t start_us, end_us;
	uint64_t sent_us;         /* end of the last transmission; 0: none */
	uint64_t deadline_us;
	uint64_t timeout_us;
	unsigned minor;           /* minor timeouts in this major one */

	/* completion */
	bool waiting;             /* a synchronous caller sleeps on cond */
	bool lead_claimed;        /* its caller holds c->recv_owner, not
				   * yet leading */
	bool done;
	int err;
	struct rpc_reply reply;   /* whole reply record */
	size_t results_off;       /* where the results start in it */
	size_t recvd;             /* reply bytes, mark included */
	pthread_cond_t cond;      /* synchronous caller */
	rpc_done_fn done_fn;      /* asynchronous call */
	void *done_ctx;
	struct rpc_call_ent *cnext; /* local list of completions */
};

enum rpc_conn_state { RPC_DOWN, RPC_CONNECTING, RPC_UP };
enum rpc_recv_owner { RPC_RECV_NONE, RPC_RECV_THREAD, RPC_RECV_CALLER };

/* A record read by a leader for the transport thread to deliver. */
struct rpc_handoff {
	struct rpc_handoff *next;
	uint8_t *buf;
	size_t len;
};

struct rpc_clnt;

/*
 * A transport.  Every operation runs on the transport thread without the
 * lock, except send, which runs on the holder of c->sending (on a stream,
 * maybe a caller's thread).  TCP (tcp.c) sends records on a stream; UDP (udp.c) sends each
 * call as one datagram without its record mark, and a retransmission is
 * a new datagram with the same XID.
 */
struct rpc_xprt_ops {
	const char *name;
	/* Messages are datagrams: never partly written, limited to
	 * RPC_UDP_MAX_MSG bytes, paced by the congestion window;
	 * retransmissions go to the head of the send queue. */
	bool datagram;
	/* Opens c->fd and starts connecting; 1 when already connected,
	 * 0 when in progress (poll for POLLOUT), or a negative errno. */
	int (*connect_start)(struct rpc_clnt *c);
	/* Connect finished (POLLOUT): 0 or a negative errno. */
	int (*connect_finish)(struct rpc_clnt *c);
	/* Socket readable: read and deliver replies with rpc_deliver().
	 * 0, or a negative errno when the connection is lost. */
	int (*recv)(struct rpc_clnt *c);
	/* Socket writable: write queued calls until the queue is empty or
	 * the socket is full.  0, or a negative errno. */
	int (*send)(struct rpc_clnt *c);
	/* Closes c->fd (abortively for TCP: no TIME_WAIT on our port). */
	void (*close)(struct rpc_clnt *c);
	/* Optional: closes c->fd as close does, after a connection was
	 * lost, but keeps its local port for the next connect_start. */
	void (*drop)(struct rpc_clnt *c);
};

extern const struct rpc_xprt_ops rpc_tcp_ops;
extern const struct rpc_xprt_ops rpc_udp_ops;

struct rpc_clnt {
	/* fixed at creation */
	struct sockaddr_storage addr;
	socklen_t addrlen;
	uint32_t prog, vers;
	struct rpc_clnt_opts opts;
	char *server;             /* owned copy of opts.server */
	const struct rpc_xprt_ops *ops;
	uint64_t timeo_us;        /* first timeout */
	uint64_t maxtimeo_us;     /* cap of the doubling */
	unsigned nstats;
	int wakefd;               /* eventfd: wakes the transport thread */
	int epfd;                 /* the transport thread's epoll set */
	int leadfd;               /* eventfd: wakes the leader */
	pthread_t thread;

	pthread_mutex_t lock;
	uint32_t next_xid;        /* [atomic] */
	GHashTable *calls;        /* [L] xid -> struct rpc_call_ent */
	struct rpc_call_ent *first, *last; /* [L] outstanding, call order */
	struct rpc_call_ent *qhead, *qtail; /* [L] send queue */
	uint64_t next_deadline_us; /* [L] earliest deadline (lower bound) */
	bool shutdown;            /* [L] destroy began */
	unsigned users;           /* [L] threads inside rpc_clnt_call() */
	pthread_cond_t idle;      /* [L] users dropped to 0 */
	bool not_responding;      /* [L] "not responding" was logged */
	bool bad_reply_logged;    /* [L] */
	uint64_t dropped;         /* [L] replies nobody waited for */
	unsigned cwnd;            /* [L] datagram congestion window (scaled) */
	unsigned inflight;        /* [L] calls holding a window slot */
	struct rpc_stats_slot *stats; /* [L] nstats of them */
	rpc_trace_fn trace;       /* [L] */
	void *trace_ctx;          /* [L] */
	int local_port;           /* [L] host order; 0 before connecting */
	uint64_t connects;        /* [L] connections made, the first too */
	bool direct_ok;           /* [L] callers may write (stream, up) */
	bool sending;             /* [L] a thread writes the send queue */
	pthread_cond_t send_done; /* [L] sending went false, or the
				   * leader left */
	enum rpc_recv_owner recv_owner; /* [L] who reads the socket */
	struct rpc_call_ent *leader; /* [L] the leader's call */
	int recv_err;             /* [L] a leader lost the connection */
	struct rpc_handoff *handoff, *handoff_tail; /* [L] for the thread */
	bool handoff_running;     /* [L] the thread delivers handed records */
	int watch_fd;             /* [L] c->fd as it is in epfd, or -1 */
	uint32_t watch_ev;        /* [L] its events there */
	rpc_callback_fn cb;       /* [L] calls from the server */
	void *cb_ctx;             /* [L] */
	rpc_reconnect_fn on_reconnect; /* [L] */
	bool local_port_seen;     /* [L] a connection was up before */
	void *reconnect_ctx;      /* [L] */

	/* transport thread */
	int fd;                   /* [T] */
	int held_fd;              /* [T] bound to the last local port, or -1 */
	enum rpc_conn_state state; /* [T] */
	uint64_t connect_deadline_us; /* [T] */
	uint64_t reconnect_at_us; /* [T] */
	uint64_t backoff_us;      /* [T]; reset by rpc_deliver() under the
				   * lock, by a leader too, while
				   * c->direct_ok */
	struct sockaddr_storage local; /* [T] last local address */
	socklen_t locallen;       /* [T] 0 before the first connection */
	unsigned rebind_tries;    /* [T] bind() to the local port failed */
	bool resv_warned;         /* [T] said that no reserved port was free */
	struct rpc_record_reader rr; /* [T] */
	uint8_t *rbuf;            /* [T] RPC_RBUF_SIZE bytes for small reads */
};

/* Binds fd to a free reserved port (tcp.c): 0 or a negative errno;
 * -EACCES when the process may not (rpc_resvport_refused()). */
int rpc_bind_resvport(int fd, int family);
/* Transport thread: the connection is up (c->fd connected): note the
 * local address and queue every outstanding call again. */
void rpc_conn_established(struct rpc_clnt *c);
void rpc_ent_unref_locked(struct rpc_call_ent *e);

/* Holder of c->recv_owner: hand over one reply record (ownership
 * passes).  On a leader, what is not a synchronous call's reply goes to
 * the transport thread. */
void rpc_deliver(struct rpc_clnt *c, uint8_t *buf, size_t len);
/* Holder of c->sending: the head of the send queue to write, with a
 * reference, and the offset to write from; NULL when the queue is empty. */
struct rpc_call_ent *rpc_sendq_peek(struct rpc_clnt *c);
/* Holder of c->sending: n more bytes of e were written; drops the
 * reference taken by rpc_sendq_peek(). */
void rpc_sendq_advance(struct rpc_clnt *c, struct rpc_call_ent *e, size_t n);
/* Something in the send queue may go out now (for a datagram transport:
 * the congestion window has room for its head). */
bool rpc_sendq_ready_locked(struct rpc_clnt *c);
/* Queues e again for a retransmission (check_timeouts()). */
void rpc_sendq_requeue_locked(struct rpc_clnt *c, struct rpc_call_ent *e);
/* Take the right to write the send queue (c->sending): false when another
 * thread holds it or, for a caller (direct), the connection is not up or
 * not a stream. */
bool rpc_send_begin_locked(struct rpc_clnt *c, bool direct);
/* Give it back; true when the queue still has something ready to send. */
bool rpc_send_end(struct rpc_clnt *c);
/* Transport thread, before closing the socket: no caller writes or
 * reads from now on, and the one writing or leading (if any) is done. */
void rpc_send_stop_direct(struct rpc_clnt *c);
/* Sets the events of fd in the transport thread's epoll set (fd -1:
 * none is watched). */
void rpc_watch_locked(struct rpc_clnt *c, int fd, uint32_t ev);
/* Transport thread: hand the records a leader left to rpc_deliver(). */
void rpc_run_handoff(struct rpc_clnt *c);

void *rpc_io_thread(void *arg);

/* Completes e with err (reply already attached, or none); for an
 * asynchronous call e is pushed on *done_list to be run after unlocking. */
void rpc_finish_locked(struct rpc_clnt *c, struct rpc_call_ent *e, int err,
		       struct rpc_call_ent **done_list);
/* Runs done() of the entries on the list (without the lock). */
void rpc_run_done_list(struct rpc_clnt *c, struct rpc_call_ent *list);

/* stats.c */
void rpc_hist_add(struct rpc_hist *h, uint64_t usec);
uint64_t rpc_hist_quantile(const struct rpc_hist *h, double q);
void rpc_stats_account_locked(struct rpc_clnt *c, struct rpc_call_ent *e,
			      int err);

#endif
