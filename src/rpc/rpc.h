/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ONC RPC client transport (RFC 5531): one connection to one (program,
 * version) at one server, many calls in flight at once.
 *
 * Concurrency: any thread may call rpc_clnt_call(); it encodes its call,
 * queues it (writing it itself when the wire is free) and waits for its
 * reply: reading the socket itself when no other thread does, handing the
 * other callers' replies to them, or else sleeping on its own condition.
 * Replies are matched to calls by XID; a reply with an XID that nobody
 * waits for is dropped and counted.  One transport thread per client runs
 * the timers, reconnects, and reads when no caller does; asynchronous
 * completions and calls from the server always run on it (see rpc_int.h).
 * No lock is held while waiting for a reply.
 * Retransmissions keep the call's XID so that the server's duplicate
 * request cache can recognise them; after a broken TCP connection
 * the client reconnects, from the same local port when it can, and sends
 * every outstanding call again.  Over UDP each call is one datagram from
 * one local port for the client's whole life, and a congestion window
 * bounds the calls in flight.
 */
#ifndef NFSFUSE_RPC_H
#define NFSFUSE_RPC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "../../xdr/xdr.h"
#include "../../xdr/rpc_msg.h"

struct rpc_clnt;

struct rpc_clnt_opts {
	int proto;            /* IPPROTO_TCP (or 0) or IPPROTO_UDP */
	bool resvport;        /* bind a port < 1024 (needs privilege) */
	unsigned timeo_ds;    /* first timeout, deciseconds (nfs(5) timeo=);
			       * 0: 60 s over TCP, 1.1 s over UDP */
	unsigned retrans;     /* minor timeouts before a major one */
	bool soft;            /* fail with -ETIMEDOUT after a major timeout */
	bool timeout_eio;     /* soft: fail with -EIO instead (nfs(5) soft
			       * without softerr) */
	const char *server;   /* for messages: "server 127.0.0.1" */
	/* Procedure names for statistics and the trace, indexed by number;
	 * may be NULL.  The array must outlive the client. */
	const char *const *proc_names;
	unsigned nprocs;
};

/* Statistics per procedure, for `nfsfusectl stats`. */
struct rpc_proc_stats {
	uint64_t calls;
	uint64_t retrans;
	uint64_t errors;     /* transport errors and RPC-level rejections */
	uint64_t bytes_sent;
	uint64_t bytes_recv;
	/* Round trip: from the end of the call's last transmission to its
	 * reply (nfsiostat's "RTT"); calls with a reply only. */
	uint64_t rtt_us_total;
	uint64_t rtt_us_p99; /* from a log-scale histogram */
	/* Execution: from the call being queued to its end, waits for the
	 * connection and the congestion window included ("exe"); every
	 * finished call, failed ones too. */
	uint64_t exe_us_total;
};

/* A trace hook, called after every reply (or failure) on the caller's
 * thread: one line per RPC in debug mode. */
typedef void (*rpc_trace_fn)(void *ctx, const char *server, uint32_t xid,
			     const char *proc, size_t sent, size_t recvd,
			     uint64_t usec, int err);

int rpc_clnt_create(const struct sockaddr *addr, socklen_t addrlen,
		    uint32_t prog, uint32_t vers,
		    const struct rpc_clnt_opts *opts, struct rpc_clnt **out);
void rpc_clnt_destroy(struct rpc_clnt *c);
void rpc_clnt_set_trace(struct rpc_clnt *c, rpc_trace_fn fn, void *ctx);
/* Copies the counters of procedure proc; -EINVAL when proc is out of range. */
int rpc_clnt_get_stats(struct rpc_clnt *c, uint32_t proc,
		       struct rpc_proc_stats *out);
/* Local port of the connection in host byte order (or a negative errno
 * before the first connection), for tests. */
int rpc_clnt_local_port(struct rpc_clnt *c);

/* An owned reply buffer; decoded results may point into it. */
struct rpc_reply {
	uint8_t *buf;
	size_t len;
};
void rpc_reply_release(struct rpc_reply *r);

/*
 * One call, waiting for its reply.  enc may be NULL (no arguments); dec may
 * be NULL (results ignored).  On success the results are decoded into res
 * and *reply owns the buffer they point into (release it with
 * rpc_reply_release); reply may be NULL when the results hold no pointers.
 *
 * Returns 0, or:
 *  -ETIMEDOUT   soft mount, no reply after the retries (-EIO with
 *               opts.timeout_eio)
 *  -EMSGSIZE    over UDP, the call does not fit in a datagram
 *  -EINTR       *interrupted became true while waiting (may be NULL)
 *  -EPROTONOSUPPORT / -EPROCUNAVAIL-like: mapped RPC accept errors, see
 *               rpcmsg_reply_errno()
 *  -EACCES      auth errors (AUTH_ERROR)
 *  -EIO         malformed reply (counted and logged once)
 */
int rpc_clnt_call(struct rpc_clnt *c, uint32_t proc,
		  const struct rpc_cred *cred, xdr_enc_fn enc, const void *args,
		  xdr_dec_fn dec, void *res, struct rpc_reply *reply,
		  volatile int *interrupted);

/*
 * Asynchronous calls, for read-ahead and write-back pipelining.
 *
 * rpc_clnt_call_async() queues the call and returns at once: 0 when
 * queued, in which case done() will run exactly once; or a negative errno
 * (encoding failed, -ESHUTDOWN), in which case it will not.
 *
 * done(ctx, err, results, reply) runs on the client's transport thread
 * (also for -ESHUTDOWN, while rpc_clnt_destroy() waits), so it must not
 * block and must not call rpc_clnt_call() or rpc_clnt_destroy() on the
 * same client; it may call rpc_clnt_call_async().  err is as for
 * rpc_clnt_call() before results decoding; when err is 0, results is a
 * cursor at the procedure's results, else NULL.  done() owns reply->buf
 * (possibly NULL on error): it either keeps a copy of *reply or calls
 * rpc_reply_release(reply).
 * The trace hook for an asynchronous call runs on the transport thread too.
 *
 * Timeouts, retransmission and reconnection are those of rpc_clnt_call();
 * on a hard mount the call is retried until it is answered or the client is
 * destroyed.  Nothing bounds how many calls may be in flight: the caller
 * keeps its own window.
 */
typedef void (*rpc_done_fn)(void *ctx, int err, struct xdr_dec *results,
			    struct rpc_reply *reply);

int rpc_clnt_call_async(struct rpc_clnt *c, uint32_t proc,
			const struct rpc_cred *cred, xdr_enc_fn enc,
			const void *args, rpc_done_fn done, void *ctx);

/*
 * A synchronous call whose caller may stop waiting without abandoning it:
 * as rpc_clnt_call() (reply NULL), but once *interrupted is set the call
 * goes on as if made by rpc_clnt_call_async(ctx, done) and this returns
 * -EINPROGRESS; done() then runs exactly once, with the results not yet
 * decoded, and res is not touched.  For a call whose effect the caller
 * must go on following (a WRITE that later ones may not overtake): an
 * abandoned one could still be carried out at any time.
 */
int rpc_clnt_call_detach(struct rpc_clnt *c, uint32_t proc,
			 const struct rpc_cred *cred, xdr_enc_fn enc,
			 const void *args, xdr_dec_fn dec, void *res,
			 volatile int *interrupted, rpc_done_fn done,
			 void *ctx);

/*
 * Calls from the server on the client's own connection (the NFSv4.1
 * backchannel, RFC 8881 §2.10.3.1): a record whose message type is CALL
 * goes to fn instead of the XID table.  fn runs on the transport thread
 * and must not block; msg is the whole call (from the XID), valid during
 * the call only.  It returns 0 with the whole reply message (from the
 * XID) appended to *reply, an encoder made with 4 bytes of headroom for
 * the record mark, which the client then sends and releases; or a
 * negative errno to drop the call (the encoder is released).  Without a
 * hook, calls are dropped and counted as unknown replies.
 */
typedef int (*rpc_callback_fn)(void *ctx, const uint8_t *msg, size_t len,
			       struct xdr_enc *reply);
void rpc_clnt_set_callback(struct rpc_clnt *c, rpc_callback_fn fn,
			   void *ctx);
/* After each reconnection (not the first connection), on the transport
 * thread, with the outstanding calls queued again: fn may only queue
 * asynchronous calls (NFSv4.1 binds the new connection to its session's
 * backchannel). */
typedef void (*rpc_reconnect_fn)(void *ctx);
void rpc_clnt_set_reconnect(struct rpc_clnt *c, rpc_reconnect_fn fn,
			    void *ctx);

/* Did the kernel refuse this process a reserved source port?  Clients
 * asked for one (resvport) then connect from ordinary ports. */
bool rpc_resvport_refused(void);

/* Replies received that matched no outstanding call (late replies to
 * abandoned or timed-out calls, duplicates). */
uint64_t rpc_clnt_dropped_replies(struct rpc_clnt *c);
/* Connections made so far, the first one included: more than 1 after a
 * reconnection. */
uint64_t rpc_clnt_connects(struct rpc_clnt *c);

#endif
