/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internals of the lock manager, shared by its files:
 *   lockmgr.c     start and stop
 *   lock.c        the calls that answer at once: TEST, UNLOCK, questions
 *   wait.c        LOCK and the wait of blocked locks
 *   lock_table.c  the table of held locks, owners and their handles
 *   nlm_calls.c   LOCK/CANCEL/UNLOCK calls and what their answers mean
 *   nlm_client.c  a small synchronous RPC client (TCP, bound to our
 *                 clientaddr)
 *   lock_text.c   counters and tables as text
 *   reclaim.c     reclaim after a server reboot
 *   monitor.c     the monitor thread
 *   listener.c    the callback service thread and its rpcbind registration
 *   statmon.c     SM_MON / SM_STAT, reboot detection
 *   statedir.c    our NSM state number and status file on stable storage
 *   journal.c     our locks on stable storage; release of a dead run's
 *
 * Lock order: lockmgr.journal_mu before lockmgr.mu; lockmgr.mu before
 * nothing else; lk_conn.mu is taken only
 * without lockmgr.mu, and no RPC is made while holding lockmgr.mu.
 */
#ifndef NFSFUSE_LOCK_INT_H
#define NFSFUSE_LOCK_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "../../xdr/nlm.h"
#include "../../xdr/nsm.h"
#include "../rpc/rpc.h"
#include "lock.h"

/* ---- nlm_client.c: one synchronous RPC connection ---- */

struct lk_conn {
	pthread_mutex_t mu;       /* one call at a time */
	int fd;                   /* -1: not connected; mu */
	struct rpc_addr peer;     /* port 0: ask rpcbind at connect */
	struct rpc_addr src;      /* len 0: let the kernel choose */
	uint32_t prog, vers;
	uint32_t xid;             /* mu */
	int proto;                /* IPPROTO_TCP or IPPROTO_UDP */
};

/* src: where our calls leave from (its port ignored), NULL or unset for
 * the kernel's choice; of peer's family. */
void lk_conn_init(struct lk_conn *c, const struct rpc_addr *peer,
		  const struct rpc_addr *src, uint32_t prog, uint32_t vers,
		  int proto);
void lk_conn_close(struct lk_conn *c);
/*
 * One call and its reply, within timeout_ms (retried once on a new
 * connection after a transport error).  res is decoded from *reply, which
 * the caller releases.  Returns 0 or a negative errno (-ETIMEDOUT,
 * -ECONNREFUSED, -EPROTONOSUPPORT, -EIO ...).
 */
int lk_conn_call(struct lk_conn *c, uint32_t proc, const struct rpc_cred *cred,
		 xdr_enc_fn enc, const void *args, xdr_dec_fn dec, void *res,
		 struct rpc_reply *reply, int timeout_ms);
/* A message that needs no reply (the _MSG/_RES procedures). */
int lk_conn_send(struct lk_conn *c, uint32_t proc, const struct rpc_cred *cred,
		 xdr_enc_fn enc, const void *args);
/*
 * The reply to call xid from the TCP stream fd, before deadline: replies
 * to other XIDs are read and dropped.  res is decoded from *reply (may be
 * NULL), which the caller releases.  0, -EIO for a reply that does not
 * decode or a record over 64 KiB, or the socket's error (-ECONNRESET at
 * its end, -ETIMEDOUT).  lk_conn_call's reader, and the fuzz harness's
 * (tests/fuzz/fuzz_nlm_client.c).
 */
struct timespec;
int lk_conn_recv_reply(int fd, uint32_t xid, xdr_dec_fn dec, void *res,
		       struct rpc_reply *reply,
		       const struct timespec *deadline);

/* ---- the tables (lock_table.c, wait.c) ---- */

#define LK_OH_MAX 160

/* One held range of one owner on one file (the server's view, mirrored). */
struct lk_held {
	struct lk_held *next;
	struct nfs_fh3 fh;
	uint64_t ino;
	uint64_t owner;
	bool flock;
	bool excl;
	bool lost;               /* reclaim failed */
	int32_t svid;
	uint64_t start, len;     /* len 0: to EOF */
	uint8_t oh[LK_OH_MAX];
	uint32_t oh_len;
	struct rpc_cred cred;    /* machinename not kept */
};

/* A lock that waits for GRANTED (or for its next LOCK); owns copies of
 * everything it needs.  Flags are read and written with lockmgr.mu. */
struct lk_waiter {
	struct lk_waiter *next;
	struct nfs_fh3 fh;
	uint8_t oh[LK_OH_MAX];
	uint32_t oh_len;
	int32_t svid;
	bool excl, flock;
	uint64_t start, len;
	uint64_t ino, owner;
	struct rpc_cred cred;    /* machinename not kept */
	bool has_cred;
	uint8_t cookie[8];       /* of every LOCK of this wait */
	bool cb;                 /* LOCK(block=true): the server calls back */
	bool blocked;            /* the server said BLOCKED or DENIED */
	bool queued;             /* it said BLOCKED: CANCEL when ended */
	bool armed;              /* the caller can take done() now */
	bool busy;               /* the wait thread is sending its LOCK */
	bool finishing;          /* the wait thread is answering it */
	bool granted;            /* by the listener */
	bool interrupted;
	int result;              /* -EINPROGRESS while it waits */
	enum lock_grant how;
	int delay_ms;            /* poll backoff */
	double next_send;        /* monotonic seconds */
	double since;
	lock_done_fn done;
	void *ctx;
};

#define LOCK_COUNTERS(X)                                                    \
	X(tests)                                                            \
	X(locks_granted)         /* granted at once */                      \
	X(locks_denied)          /* EAGAIN */                               \
	X(locks_blocked)         /* server queued a blocking lock */        \
	X(granted_callback)      /* a waiter granted by GRANTED/_MSG */     \
	X(granted_poll)          /* a waiter granted by polling */          \
	X(polls)                 /* LOCK retries of waiting locks */        \
	X(cancels)               /* CANCEL after an interrupt */            \
	X(unlocks)                                                          \
	X(callbacks)             /* GRANTED/GRANTED_MSG received */         \
	X(callbacks_rejected)    /* all refusals below, and statd's */      \
	X(callbacks_refused_address) /* GRANTED not from the server */      \
	X(callbacks_refused_match)   /* GRANTED for no lock of ours */  \
	X(listener_idle_closed)  /* connections idle too long */            \
	X(listener_evicted)      /* the idlest, closed for a new one */     \
	X(statd_callbacks)       /* reboot notices from statd */            \
	X(server_reboots)                                                   \
	X(reclaims)                                                         \
	X(locks_lost)                                                       \
	X(grace_retries)         /* DENIED_GRACE_PERIOD, retried */         \
	X(recovered)             /* UNLOCK/CANCEL of a dead run's locks */

struct lk_stats {
#define X(n) atomic_uint_fast64_t n;
	LOCK_COUNTERS(X)
#undef X
};
/* A counter that moved makes the status file stale: tests and people
 * read it right after the operation that counted. */
#define LK_INC(lm, n)                                                     \
	do {                                                              \
		atomic_fetch_add(&(lm)->stats.n, 1);                      \
		lk_mark_dirty(lm);                                        \
	} while (0)

struct lockmgr {
	struct lockmgr_config cfg;  /* strings below are owned copies */
	char *server_name, *caller_name, *statedir;
	struct rpc_addr src;        /* clientaddr, or unset (len 0) */
	uint64_t oh_secret;         /* in every owner handle: lock_table.c */

	pthread_mutex_t mu;
	struct lk_held *held;       /* mu */
	struct lk_waiter *waiting;  /* mu */
	size_t nwaiting;            /* mu */
	pthread_cond_t wait_cv;     /* the wait thread's; with mu */
	bool waits_ending;          /* mu: answer every waiter now */
	pthread_t wait_thread;
	bool wait_running;
	uint64_t *lost_inos;        /* mu; inodes whose lock was lost */
	size_t nlost;
	uint64_t cookie;            /* mu */
	bool monitored;             /* mu: SM_MON done, or SM_STAT watch */
	bool sm_stat_watch;         /* mu: no statd: poll SM_STAT */
	int32_t server_state;       /* mu: last SM_STAT answer */
	bool reboot_pending;        /* mu */
	bool status_dirty;          /* mu */
	bool stopping;              /* mu */
	pthread_cond_t wake;        /* the monitor thread's; with mu */

	uint32_t nlm_vers;          /* NLM_V4, or NLM_V3 for NFSv2 */
	struct lk_conn nlm;         /* to the server's NLM of nlm_vers */
	int32_t nsm_state;          /* ours, from the state directory */
	int statedir_fd;            /* the held lock on the directory */
	int journal_fd;             /* ours, flock()ed; -1: none */
	char *journal_path;
	pthread_mutex_t journal_mu; /* one rewrite at a time */

	/* listener */
	char mode[128];             /* written before the threads start */
	bool callbacks_on;
	int nlm_tcp_fd, nlm_udp_fd; /* the NLM callback sockets, or -1 */
	int sm_fd;                  /* UDP socket for statd's callback */
	uint32_t sm_prog;           /* private program, 0 if unregistered */
	uint16_t sm_port;
	bool nlm_registered;        /* we registered NLM nlm_vers */
	int nlm_family;             /* of the NLM sockets we registered */
	uint16_t nlm_port_tcp, nlm_port_udp;
	int wake_pipe[2];
	pthread_t listener;
	bool listener_running;
	pthread_t monitor;
	bool monitor_running;

	struct lk_stats stats;
};

/* ---- lockmgr.c ---- */
#define LK_GRACE_RETRY_MS 1000   /* after DENIED_GRACE_PERIOD */
#define LK_CALL_MS 15000         /* one NLM call */
double lk_now(void);
void lk_sleep_ms(int ms);

/* ---- lock_table.c (mu held where said) ---- */
uint64_t lk_range_end(uint64_t start, uint64_t len);
bool lk_fh_eq(const struct nfs_fh3 *a, const struct nfs_fh3 *b);
void lk_make_oh(struct lockmgr *lm, uint64_t owner, bool flock, uint8_t *oh,
		uint32_t *len);
/* mu held.  The svid of an owner that already holds a lock, else pid. */
int32_t lk_owner_svid(struct lockmgr *lm, uint64_t owner, bool flock,
		      pid_t pid);
void lk_fill_alock(struct lockmgr *lm, const struct lock_req *r,
		   const uint8_t *oh, uint32_t oh_len, int32_t svid,
		   struct nlm_lock *a);
/* mu held.  A grant (lock) or an unlock of r's range, POSIX style. */
void lk_held_apply(struct lockmgr *lm, const struct lock_req *r, int32_t svid,
		   const uint8_t *oh, uint32_t oh_len, bool lock);
/* mu held.  Does r's owner hold anything in r's range?  Its svid. */
bool lk_owner_overlaps(struct lockmgr *lm, const struct lock_req *r,
		       int32_t *svid);
/* A grant into the table; the first one starts watching the server. */
void lk_record_grant(struct lockmgr *lm, const struct lock_req *r,
		     int32_t svid, const uint8_t *oh, uint32_t oh_len);

/* ---- nlm_calls.c ---- */
struct lk_call {
	const struct nlm_lock *a;
	bool excl, block, reclaim;
	const struct rpc_cred *cred; /* NULL: the daemon's own */
	const uint8_t *cookie;       /* NULL: a fresh one */
	uint32_t cookie_len;
};
/* NLMPROC_LOCK, _CANCEL or _UNLOCK; *stat is the server's answer. */
int lk_nlm_call(struct lockmgr *lm, uint32_t proc, const struct lk_call *c,
		uint32_t *stat);
/* The same on another connection (a server of an earlier run). */
int lk_nlm_call_on(struct lockmgr *lm, struct lk_conn *conn, uint32_t vers,
		   uint32_t proc, const struct lk_call *c, uint32_t *stat);
void lk_next_cookie(struct lockmgr *lm, uint8_t c[8]);
void lk_cred_for_call(struct lockmgr *lm, const struct rpc_cred *in,
		      struct rpc_cred *out);
/* -EINVAL for a range NLM v3 cannot carry. */
int lk_check_range(struct lockmgr *lm, const struct lock_req *r);
int lk_stat_errno(struct lockmgr *lm, uint32_t stat);
/* The codecs of proc in the mount's NLM version (never NULL for the
 * procedures the lock manager calls). */
const struct xdr_proc_codec *lk_codec(struct lockmgr *lm, uint32_t proc);
/* Where the server's NLM is: its address, and the nlmport= port or 0. */
struct rpc_addr lk_nlm_peer(struct lockmgr *lm,
			    const struct rpc_addr *server);
/* Listener: a GRANTED for these arguments; true when a waiter took it. */
bool lk_granted(struct lockmgr *lm, const struct nlm_testargs *a);
/* statmon: statd says mon_name changed state (rebooted). */
void lk_server_rebooted(struct lockmgr *lm, int32_t state);
void lk_mark_dirty(struct lockmgr *lm);

/* ---- monitor.c ---- */
void *lk_monitor_main(void *arg);

/* ---- wait.c ---- */
void *lk_wait_main(void *arg);

/* ---- listener.c ---- */
int lk_listener_start(struct lockmgr *lm, char *err, size_t errlen);
void lk_listener_stop(struct lockmgr *lm);
/* Where a call's reply goes: the TCP connection it came on, or a UDP
 * socket and the address the datagram came from. */
struct lk_reply_sink {
	int fd;
	bool tcp;
	struct rpc_addr to; /* UDP */
};
/* Serve one call (a whole record or datagram) from `from`.  With
 * lk_listener_stream, the part of the listener that reads no socket: the
 * fuzz harness (tests/fuzz/fuzz_listener.c) drives both. */
void lk_listener_dispatch(struct lockmgr *lm, const uint8_t *buf, size_t len,
			  const struct rpc_addr *from, struct lk_reply_sink *s);
/* n bytes of a TCP connection's stream (rr its reader, fd where replies
 * go): serves each record they complete.  False when the connection must
 * close (a record over rr's limit). */
struct rpc_record_reader;
bool lk_listener_stream(struct lockmgr *lm, struct rpc_record_reader *rr,
			int fd, const struct rpc_addr *from,
			const uint8_t *buf, size_t n);

/* ---- statmon.c ---- */
/* After the first grant: SM_MON, or SM_STAT watching when no statd. */
void lk_monitor_server(struct lockmgr *lm);
void lk_unmonitor_server(struct lockmgr *lm);
/* Monitor thread body pieces. */
void lk_check_server_state(struct lockmgr *lm);
void lk_reclaim_all(struct lockmgr *lm);

/* ---- journal.c ---- */
/* Undo what dead daemons' journals in the state directory list. */
void lk_journal_recover(struct lockmgr *lm);
int lk_journal_open(struct lockmgr *lm);
/* Rewrite ours from the tables (mu not held). */
void lk_journal_write(struct lockmgr *lm);
void lk_journal_close(struct lockmgr *lm);

/* ---- statedir.c ---- */
int lk_statedir_open(struct lockmgr *lm, char *err, size_t errlen);
void lk_statedir_close(struct lockmgr *lm);
void lk_statedir_write_status(struct lockmgr *lm);

#endif
