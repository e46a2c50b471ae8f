/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfs4_delegproxy: a test-only NFSv4.1 proxy that grants the read (and,
 * when asked, write) delegations the server behind it never grants,
 * recalls them, asks a write delegation's holder for the file's size
 * (CB_GETATTR), and sends the CB_NOTIFY_LOCK the server never sends
 * either (see main.c for the command line, deleg.c and notify.c for the
 * rules).
 *
 * One thread, one poll loop: every client connection has its own
 * connection to the server, and all state (delegations, held messages,
 * counters) is touched only from the loop, so nothing is locked.
 */
#ifndef NFSFUSE_TESTS_DELEGPROXY_H
#define NFSFUSE_TESTS_DELEGPROXY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nfs4.h"

/* The longest lock-owner the proxy keeps (this client's are ~22 bytes);
 * a longer one is not tracked. */
#define DP_OWNER_MAX 64u

/* A whole RPC message, without its record mark. */
struct dp_buf {
	uint8_t *p;
	size_t len, cap;
};

/* One socket: the record being read and the bytes waiting to be sent. */
struct dp_side {
	int fd;
	uint8_t mark[4];
	size_t mark_got;     /* bytes of the record mark read so far */
	uint32_t frag_left;  /* bytes of the current fragment still to read */
	bool frag_last;
	bool in_frag;
	struct dp_buf in;    /* the record assembled so far */
	struct dp_buf out;
	size_t out_off;      /* bytes of out already sent */
};

enum dp_pending_kind {
	PEND_CREATE_SESSION = 1,
	PEND_OPEN_FH,        /* OPEN(CLAIM_FH): grant, or note a write open */
	PEND_OPEN_NAME,      /* OPEN(CLAIM_NULL): look at GETFH */
	PEND_RETURN,         /* our DELEGRETURN, cut off the call */
	PEND_LOCK,           /* LOCK: a waiter when denied, gone when granted */
	PEND_UNLOCK,         /* LOCKU or CLOSE: notify the waiters on fh */
	PEND_GETATTR,        /* a held GETATTR let go: patch its size */
	PEND_LOOKUP,         /* LOOKUP: its GETFH may name a delegated file */
};

/* A lock-owner4 (RFC 8881 §3.3.10 lock_owner4): clientid, owner<>. */
struct dp_owner {
	uint64_t clientid;
	uint32_t len;
	uint8_t owner[DP_OWNER_MAX];
};

/* A call of the client whose reply needs a look (deleg.c, notify.c). */
struct dp_pending {
	uint32_t xid;
	uint32_t kind;       /* enum dp_pending_kind */
	uint32_t share_access; /* OPEN: with its WANT bits */
	uint32_t fhlen;
	uint8_t fh[NFS4_FHSIZE];
	uint8_t other[NFS4_OTHER_SIZE]; /* DELEGRETURN: the proxy stateid */
	uint32_t cb_prog;    /* CREATE_SESSION */
	uint32_t locktype;   /* LOCK */
	bool have_owner;     /* LOCK: the lock-owner is known */
	struct dp_owner owner;
	bool patch_size;     /* GETATTR: put size in the reply's fattr4 */
	uint64_t size;
};

struct dp_conn {
	unsigned int id;
	bool dead;
	struct dp_side cli;  /* the client's connection to us */
	struct dp_side srv;  /* ours to the server */
	bool have_cb;        /* the session and its callback program are known */
	uint32_t cb_prog;
	uint8_t sessionid[NFS4_SESSIONID_SIZE];
	uint32_t cb_seq;     /* the next CB_SEQUENCE sequenceid of slot 0 */
	uint32_t cb_xid;     /* our callback in flight on slot 0, or 0: one
			      * at a time, the others wait their turn */
	uint32_t notify_xid; /* our CB_NOTIFY_LOCK in flight, or 0 */
	struct dp_pending *pend;
	size_t npend, cappend;
	struct dp_conn *next;
};

/* ---- main.c: connections, records, log, counters ---- */

struct dp_stats {
	uint64_t granted, granted_write, recalls_sent, recall_replies,
		 recall_replies_ok, returned, held, released_on_return,
		 released_on_timeout, released_on_close, errors,
		 dropped_on_close, blocked_denied, notifies_sent,
		 notify_replies, notify_replies_ok, cb_getattrs_sent,
		 cb_getattr_replies, cb_getattr_replies_ok,
		 cb_getattr_timeouts, cb_getattr_size, cb_getattr_change;
};
extern struct dp_stats dp_st;
extern unsigned int dp_recall_timeout_s;
/* --write-delegations: OPENs that want one may get a write delegation. */
extern bool dp_grant_writes;

void dp_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* An event: the stats file is written again before the next wait. */
void dp_stats_changed(void);
uint64_t dp_now_ms(void);
struct dp_conn *dp_conn_by_id(unsigned int id);
/* Queue one message (a record mark is put in front); false when the
 * connection is gone or out of memory (the connection is then closed). */
bool dp_send(struct dp_conn *c, struct dp_side *s, const uint8_t *p,
	     size_t len);
/* Hex of p[0..n) into out (2n+1 bytes at most, cut short to fit). */
const char *dp_hex(const uint8_t *p, size_t n, char *out, size_t outlen);

/* ---- deleg.c: the delegation rules ---- */

/* A whole message from the client (to_server) or the server; the
 * message is the caller's: copy what is kept. */
void deleg_from_client(struct dp_conn *c, const uint8_t *p, size_t len);
void deleg_from_server(struct dp_conn *c, const uint8_t *p, size_t len);
/* c is going away: its delegations dropped, messages it waited for let
 * go, messages held for it discarded. */
void deleg_conn_closed(struct dp_conn *c);
/* Held messages past their time let go; the next deadline (0: none). */
uint64_t deleg_timers(uint64_t now);
void deleg_free_all(void);
/* c's callback slot is free: send the next callback waiting for it;
 * true when one went. */
bool deleg_cb_next(struct dp_conn *c);

/* ---- opens.c: the files each connection has open ---- */

/* An OPEN the server granted (stateid: its open stateid), until CLOSE. */
void opens_add(unsigned int conn, const uint8_t stateid[16],
	       const uint8_t *fh, uint32_t fhlen, uint32_t access);
void opens_close(unsigned int conn, const uint8_t stateid[16]);
/* Has a connection other than conn fh open (for writing, writers_only)? */
bool opens_other(unsigned int conn, const uint8_t *fh, uint32_t fhlen,
		 bool writers_only);
void opens_conn_closed(unsigned int conn);
void opens_free_all(void);

/* ---- notify.c: lock waiters and CB_NOTIFY_LOCK ---- */

struct dp_call;
struct dp_reply;

/* A LOCK, LOCKU or CLOSE call of c (ci->op): noted in *pe (kind 0 when
 * its reply needs no look). */
void notify_call(struct dp_conn *c, const struct dp_call *ci,
		 struct dp_pending *pe);
/* The reply to a call notify_call() noted. */
void notify_reply(struct dp_conn *c, const struct dp_pending *pe,
		  const struct dp_reply *ri);
/* A reply on c's backchannel: true when it answered our CB_NOTIFY_LOCK
 * (it is then consumed). */
bool notify_cb_reply(struct dp_conn *c, uint32_t xid, const uint8_t *p,
		     size_t len);
void notify_conn_closed(struct dp_conn *c);
void notify_free_all(void);
/* c's callback slot is free: send the next waiter due, if any. */
void notify_cb_next(struct dp_conn *c);

/* ---- compound.c: the bounded parsers and rewrites ---- */

/* What a client's NFSv4 COMPOUND call is, as far as it matters here.
 * Only SEQUENCE and PUTFH are walked before the operation of interest. */
struct dp_call {
	uint32_t xid;
	uint32_t nops;
	size_t nops_at;        /* offset of the operation count */
	uint32_t first_op;
	uint32_t cb_prog;      /* first_op CREATE_SESSION */
	bool have_fh;          /* SEQUENCE PUTFH(fh) ... */
	uint32_t fhlen;
	uint8_t fh[NFS4_FHSIZE];
	uint32_t op;           /* the operation after PUTFH, or 0 */
	uint32_t op_index;     /* its index in the compound */
	uint32_t share_access; /* op OPEN */
	uint32_t claim;        /* op OPEN */
	uint8_t stateid[16];   /* op DELEGRETURN, CLOSE, LOCKU, and LOCK of
				* an existing lock-owner: seqid and other */
	uint32_t locktype;     /* op LOCK, LOCKU */
	bool new_lock_owner;   /* op LOCK: open_to_lock_owner4 */
	bool owner_fits;       /* op LOCK, new owner: lock_owner is it */
	struct dp_owner lock_owner;
	bool op_last;          /* op is the last, and ends the message */
	size_t op_at;          /* offset of op's number */
};
/* 0: a COMPOUND (of minor version 1 or 2, AUTH_NONE or AUTH_SYS) whose
 * fields above are filled as far as they go; -1: anything else (forward
 * it untouched).  op is 0 when the compound is not SEQUENCE PUTFH op. */
int dp_parse_call(const uint8_t *p, size_t len, struct dp_call *ci);

/* What a COMPOUND reply holds, walking SEQUENCE, PUTFH, LOOKUP, OPEN,
 * GETFH, GETATTR, LOCK, LOCKU, CLOSE and CREATE_SESSION results and
 * stopping at any other (or at the first that failed). */
struct dp_reply {
	uint32_t xid;
	uint32_t status;       /* the compound's */
	uint32_t nres;
	size_t nres_at;
	bool have_open;        /* an OPEN result with NFS4_OK */
	uint8_t open_stateid[16];
	size_t deleg_at, deleg_end; /* its open_delegation4 */
	uint32_t deleg_type;
	bool have_getfh;       /* a GETFH result with NFS4_OK */
	size_t getfh_end;      /* where it ends */
	uint32_t fhlen;
	uint8_t fh[NFS4_FHSIZE];
	bool have_session;     /* a CREATE_SESSION result with NFS4_OK */
	uint8_t sessionid[NFS4_SESSIONID_SIZE];
	uint32_t last_op;      /* the last result read, and its status */
	uint32_t last_status;
	bool have_stateid;     /* a LOCK, LOCKU or CLOSE result with NFS4_OK */
	uint8_t stateid[16];   /* its stateid */
	bool have_getattr;     /* the first GETATTR result with NFS4_OK */
	size_t getattr_at;     /* its fattr4 */
};
/* 0, or -1 when it is no accepted COMPOUND reply we can read. */
int dp_parse_reply(const uint8_t *p, size_t len, struct dp_reply *ri);

/* The xid and type (0 CALL, 1 REPLY) of any RPC message; -1 if short. */
int dp_msg_head(const uint8_t *p, size_t len, uint32_t *xid, uint32_t *type);
/* The status of a CB_COMPOUND reply, or -1 if it cannot be read. */
int64_t dp_cb_reply_status(const uint8_t *p, size_t len);

/* The reply with its OPEN's delegation replaced by a read delegation with
 * stateid {1, other}; malloc'ed into *out.  0 or -1. */
int dp_grant_read(const uint8_t *p, size_t len, const struct dp_reply *ri,
		  const uint8_t other[NFS4_OTHER_SIZE], uint8_t **out,
		  size_t *outlen);
/* The same with a write delegation: recall false, no limit on the size
 * (NFS_LIMIT_SIZE, all ones), the same permissions. */
int dp_grant_write(const uint8_t *p, size_t len, const struct dp_reply *ri,
		   const uint8_t other[NFS4_OTHER_SIZE], uint8_t **out,
		   size_t *outlen);
/* The call without its last operation (ci->op_last must hold). */
int dp_strip_last(const uint8_t *p, size_t len, const struct dp_call *ci,
		  uint8_t **out, size_t *outlen);
/* The reply with one more result, op with NFS4_OK. */
int dp_append_ok(const uint8_t *p, size_t len, const struct dp_reply *ri,
		 uint32_t op, uint8_t **out, size_t *outlen);
/* A CB_COMPOUND call: CB_SEQUENCE on slot 0, then CB_RECALL. */
int dp_cb_recall(uint32_t xid, uint32_t prog,
		 const uint8_t sessionid[NFS4_SESSIONID_SIZE], uint32_t seq,
		 const uint8_t stateid[16], const uint8_t *fh, uint32_t fhlen,
		 uint8_t **out, size_t *outlen);
/* A CB_COMPOUND call: CB_SEQUENCE on slot 0, then CB_NOTIFY_LOCK. */
int dp_cb_notify_lock(uint32_t xid, uint32_t prog,
		      const uint8_t sessionid[NFS4_SESSIONID_SIZE],
		      uint32_t seq, const uint8_t *fh, uint32_t fhlen,
		      const struct dp_owner *owner, uint8_t **out,
		      size_t *outlen);

/* A CB_COMPOUND call: CB_SEQUENCE on slot 0, then CB_GETATTR of fh asking
 * for CHANGE and SIZE. */
int dp_cb_getattr(uint32_t xid, uint32_t prog,
		  const uint8_t sessionid[NFS4_SESSIONID_SIZE], uint32_t seq,
		  const uint8_t *fh, uint32_t fhlen, uint8_t **out,
		  size_t *outlen);

/* What the holder answered to CB_COMPOUND [CB_SEQUENCE, CB_GETATTR]. */
struct dp_cb_attrs {
	uint32_t status;       /* the compound's */
	bool have_change, have_size;
	uint64_t change, size;
};
/* 0 (what is absent is not "have"), or -1 when the reply is malformed
 * or cut short anywhere. */
int dp_cb_getattr_reply(const uint8_t *p, size_t len, struct dp_cb_attrs *a);
/* The reply with the size in its GETATTR's fattr4 (ri->getattr_at)
 * replaced: 0 and *out malloc'ed; 1 when that fattr4 holds no size:
 * nothing made; -1 when it is malformed. */
int dp_patch_size(const uint8_t *p, size_t len, const struct dp_reply *ri,
		  uint64_t size, uint8_t **out, size_t *outlen);

#endif
