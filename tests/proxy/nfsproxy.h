/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfsproxy: a fault-injecting ONC RPC proxy for the integration tests.
 *
 * One thread, one poll() loop.  Bytes from a client are cut into whole RPC
 * messages (a TCP record, or a UDP datagram), each message goes through the
 * fault pipeline (fault.c) and, unless dropped, is queued towards the other
 * side -- at once, after a delay, or after the next message (reorder).
 *
 * Ownership: a struct msg owns its data.  A flow (one client connection or
 * one UDP client address) is never freed while a queued msg points to it:
 * msgs in the delay list hold a reference (flow->refs).  Closing a flow only
 * marks it dead and closes its sockets; the main loop frees dead flows with
 * no references after it has finished dispatching events, so no pointer held
 * by a caller further up the stack goes stale.
 */
#ifndef NFSPROXY_H
#define NFSPROXY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <poll.h>
#include <sys/socket.h>

#define PROXY_MAX_RECORD	(16u * 1024 * 1024) /* body bytes */
#define PROXY_MAX_FLOWS		256
#define PROXY_HIGH_WATER	(4u * 1024 * 1024) /* stop reading above */
#define PROXY_REORDER_HOLD_MS	1000	/* then a held message goes */
#define PROXY_UDP_IDLE_MS	300000	/* forget a silent UDP client */
#define PROXY_PPM		1000000u /* percentages are kept in ppm */

enum dir { DIR_CALL = 0, DIR_REPLY = 1 };

enum corrupt_mode {
	CORRUPT_FLIP,
	CORRUPT_TRUNCATE,
	CORRUPT_ENLARGE,
	CORRUPT_GARBAGE,
};

/* Everything the control socket may change at run time. */
struct faults {
	uint32_t drop_ppm[2];		/* by enum dir */
	uint32_t dup_ppm[2];
	uint32_t reorder_ppm;		/* both directions */
	uint32_t corrupt_ppm;		/* replies only */
	enum corrupt_mode corrupt_mode;
	uint32_t delay_min_ms, delay_max_ms; /* max 0: no delay */
	uint64_t cut_every_ms;		/* 0: never */
	/* Replies dropped once per XID (fault.c, xid_once): without and
	 * with closing the connection after the drop. */
	uint32_t once_ppm, once_cut_ppm;
	uint32_t once_procs;		/* bit n: procedure n; 0: all */
	/* Not 0: the delay is for the replies to these procedures alone
	 * (bit n: procedure n), every other message passes at once. */
	uint32_t delay_reply_procs;
};

struct stats {
	uint64_t msgs[2];
	uint64_t drops[2];
	uint64_t dups[2];
	uint64_t delays, reorders, corruptions, blackholed;
	uint64_t accepts, cuts, closes, malformed;
	uint64_t once_drops, once_cuts;
};

/* A growable byte queue: bytes [off, off + len) of buf are pending. */
struct outbuf {
	uint8_t *buf;
	size_t off, len, cap;
};

/* Reassembly of one TCP record from its fragments (RFC 5531, section 11). */
struct recin {
	uint8_t mark[4];
	size_t mark_got;
	uint32_t frag_left;
	bool last;
	uint8_t *buf;
	size_t len, cap;
};

struct msg {
	struct msg *next;
	struct flow *flow;
	enum dir dir;
	bool reorder;
	uint64_t due;		/* monotonic ms */
	uint8_t *data;
	size_t len;
};

/*
 * One client.  TCP: cfd is the accepted socket, sfd our connection to the
 * server; DIR_CALL bytes are read from cfd and written to sfd.  UDP: cfd is
 * -1 (replies go out of the shared listening socket to caddr) and sfd is a
 * socket connected to the server for this client alone, so the server's
 * replies can be told apart by the socket they arrive on.
 */
struct flow {
	struct flow *next;
	bool udp;
	bool dead;
	bool connecting;	/* TCP connect() to the server in progress */
	int cfd, sfd;
	struct sockaddr_storage caddr;
	socklen_t caddrlen;
	char name[64];		/* client address, "127.0.0.1:876" */
	unsigned int refs;	/* msgs in the delay list */
	bool eof[2];		/* the sender in this direction closed */
	bool shut[2];		/* we shut down writing this way */
	struct recin in[2];
	struct outbuf out[2];
	size_t queued[2];	/* bytes waiting in the delay list */
	struct msg *held[2];	/* reorder: waits for the next message */
	uint64_t held_due[2];
	uint64_t last_active;	/* UDP idle expiry */
};

struct proxy {
	bool udp;
	int lfd;			/* listening TCP or bound UDP socket */
	struct sockaddr_storage to;	/* the server */
	socklen_t tolen;
	struct faults f;
	struct stats st;
	uint64_t rng;
	struct flow *flows;
	unsigned int nflows;
	struct msg *delayed;		/* by due time, FIFO among equals */
	uint64_t next_cut;		/* 0: none */
	uint64_t bh_start, bh_end;	/* blackhole window; bh_end 0: none */
	bool bh_active;
};

extern struct proxy P;

/* nfsproxy.c */
uint64_t now_ms(void);
void plog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void stats_line(char *buf, size_t len);

/* options.c: shared by the command line and the control socket */
int parse_pct(const char *s, uint32_t *ppm);
int parse_seconds(const char *s, uint64_t *ms);
int parse_delay(const char *s, uint32_t *min, uint32_t *max);
int parse_corrupt_mode(const char *s, enum corrupt_mode *m);
int parse_u64(const char *s, uint64_t *v);
int parse_procs(const char *s, uint32_t *mask);
int parse_addr(const char *s, bool port_only, bool port0_ok,
	       struct sockaddr_storage *ss, socklen_t *len);
void addr_str(const struct sockaddr_storage *ss, char *buf, size_t len);
/* Applies "name value" to f; -EINVAL (and *err) if name or value is bad,
 * -ENOENT if name is not a fault setting. */
int fault_set(struct faults *f, const char *name, const char *val,
	      const char **err);
void faults_clear(struct faults *f);
void cut_reschedule(uint64_t now);

/* fault.c */
void rng_seed(uint64_t seed);
void xid_once_free(void);
void proxy_message(struct flow *fl, enum dir dir, uint8_t *data, size_t len);
void delayed_run(uint64_t now);
void held_run(struct flow *fl, uint64_t now);
void msg_free(struct msg *m);
void blackhole_start(uint64_t now, uint64_t for_ms);
void timers_run(uint64_t now);
int timers_timeout(uint64_t now);

/* flow.c */
int tcp_accept(void);
void udp_recv_client(void);
void flow_close(struct flow *fl, const char *why);
void flow_free_dead(void);
void flow_send(struct flow *fl, enum dir dir, const uint8_t *data,
	       size_t len);
short flow_events(const struct flow *fl, int fd);
void flow_ready(struct flow *fl, int fd, short revents);
void flows_cut_all(void);
void flows_expire_udp(uint64_t now);

/* control.c */
int control_open(const char *path);
int control_poll_fill(struct pollfd *pfd, int max);
void control_ready(const struct pollfd *pfd, int n);
void control_close(void);

#endif
