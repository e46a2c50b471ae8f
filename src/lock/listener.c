/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The callback listener: a small RPC service on its own thread.
 *
 * It serves
 *   NLM GRANTED (5) and GRANTED_MSG (10), in v1, v3 or v4 (each decoded
 *     with its version's codec): a blocked lock was granted.
 *     Accepted only from the server's address and only for a lock we are
 *     waiting on; GRANTED_MSG is answered with GRANTED_RES (15) sent to the
 *     server's NLM, as the server waits for it (5 s for nfs-ganesha).
 *   the local statd's notice that the server rebooted: NLM procedure 16
 *     (the callback SM_MON names while we own our NLM version here:
 *     statmon.c), or
 *     a private statd program.  Accepted only from loopback with the priv
 *     bytes of our SM_MON.
 *
 * How the server finds us: it asks the rpcbind on the caller's host for NLM
 * in the version of our calls (v4; v3 from an NFSv2 mount) over the
 * transport of the original call, and connects to that port at the address
 * our calls came from.  The NLM sockets are of the server's address
 * family, bound to that address (clientaddr=, else the local end of the
 * route to the server), never the wildcard; an IPv6 socket is dual-stack,
 * which matters only for a clientaddr= of the IPv4-mapped form.  Which
 * version is taken is read from the exact registrations (portmap DUMP).
 * So (below, "our version" is that one):
 *   - our version not registered locally: we listen on an ephemeral port
 *     and register it, and unregister at exit: portmap v2 SET ("tcp",
 *     "udp") for an IPv4 listener; for an IPv6 one rpcbind v4 SET ("tcp6",
 *     "udp6", universal addresses; v3 where v4 is refused) and portmap v2
 *     SET too, since its sockets take IPv4 calls as well.
 *   - registered by someone else (a local NFS server, another nfsfuse):
 *     with clientaddr= we listen on that same port at our own address,
 *     when that address is free there (the other owner bound another).
 *   - otherwise, or with nlm_callback=no, or without rpcbind: no
 *     callbacks; blocked locks are polled (wait.c).  lockmgr_mode() says
 *     which.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "../../xdr/pmap.h"
#include "../base/log.h"
#include "../proto/pmap_client.h"
#include "../base/trace.h"
#include "../rpc/record.h"
#include "lock_int.h"

#define LK_SM_PROG_BASE 0x4e465300u /* transient range 0x40000000.. */
#define LK_MAX_CONNS 16
#define LK_IDLE_S 5.0       /* a connection with nothing to say goes */
#define LK_MAX_RECORD (64 * 1024) /* callbacks are small */

bool lk_statd_priv_ok(struct lockmgr *lm, const uint8_t *priv);

/* The local rpcbind, at the loopback address of family. */
static void local_rpcbind(struct rpc_addr *sa, int family)
{
	rpc_addr_parse(sa, family == AF_INET6 ? "::1" : "127.0.0.1",
		       PMAP_PORT);
}

static int pmap_change(uint32_t proc, uint32_t prog, uint32_t vers,
		       uint32_t prot, uint16_t port)
{
	struct rpc_addr sa;
	struct pmap_getport_args args;
	struct pmap_set_res res;
	struct lk_conn c;
	int ret;

	local_rpcbind(&sa, AF_INET);
	lk_conn_init(&c, &sa, NULL, PMAP_PROGRAM, PMAP_VERSION, IPPROTO_UDP);
	args.map.prog = prog;
	args.map.vers = vers;
	args.map.prot = prot;
	args.map.port = port;
	ret = lk_conn_call(&c, proc, NULL, pmap_enc_getport_args, &args,
			   pmap_dec_set_res, &res, NULL, 3000);
	lk_conn_close(&c);
	if (ret == 0 && !res.ok)
		ret = -EADDRINUSE;
	return ret;
}

/* rpcbind v4 (else v3) SET or UNSET of prog, vers at netid: the only
 * way to register an IPv6 address.  uaddr is ignored by UNSET. */
static int rpcb_change(uint32_t proc, uint32_t prog, uint32_t vers,
		       const char *netid, const char *uaddr)
{
	struct pmap_rpcb_args args = {
		.prog = prog,
		.vers = vers,
		.netid = netid,
		.addr = proc == RPCBPROC_SET ? uaddr : "",
		.owner = "",
	};
	struct pmap_set_res res;
	struct rpc_addr sa;
	int ret = -EPROTONOSUPPORT;

	local_rpcbind(&sa, AF_INET);
	for (uint32_t v = RPCB_VERSION4;
	     v >= RPCB_VERSION3 && ret == -EPROTONOSUPPORT; v--) {
		struct lk_conn c;

		lk_conn_init(&c, &sa, NULL, PMAP_PROGRAM, v, IPPROTO_UDP);
		ret = lk_conn_call(&c, proc, NULL, pmap_enc_rpcb_args, &args,
				   pmap_dec_set_res, &res, NULL, 3000);
		lk_conn_close(&c);
	}
	if (ret == 0 && !res.ok)
		ret = -EADDRINUSE;
	return ret;
}

/* Registers (set) or unregisters prog at port for proto in the ways a
 * listener of family needs (see the top).  The result is the IPv6
 * registration's for an IPv6 listener (the IPv4 one is a courtesy), else
 * portmap v2's. */
static int register_prog(bool set, uint32_t prog, uint32_t vers, int proto,
			 uint16_t port, int family)
{
	uint32_t prot = proto == IPPROTO_TCP ? PMAP_PROT_TCP : PMAP_PROT_UDP;
	int ret = 0, r2;

	if (family == AF_INET6) {
		struct rpc_addr any;
		char uaddr[RPC_ADDR_UADDRLEN];

		rpc_addr_parse(&any, "::", port);
		if (rpc_addr_to_uaddr(&any, uaddr, sizeof(uaddr)))
			return -EINVAL;
		ret = rpcb_change(set ? RPCBPROC_SET : RPCBPROC_UNSET, prog,
				  vers, proto == IPPROTO_TCP ? "tcp6" : "udp6",
				  uaddr);
		if (set && ret)
			return ret;
	}
	r2 = pmap_change(set ? PMAPPROC_SET : PMAPPROC_UNSET, prog, vers, prot,
			 set ? port : 0);
	return family == AF_INET6 ? ret : r2;
}

/* A socket of addr's family bound to addr (its port included), listening
 * when a stream.  The fd, with *bound set to the port; or -errno. */
static int bind_sock(int type, const struct rpc_addr *addr, uint16_t *bound)
{
	struct rpc_addr sa = *addr;
	socklen_t sl = sizeof(sa.u);
	int fd = socket(rpc_addr_family(addr),
			type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int one = 1, zero = 0;

	if (fd < 0)
		return -errno;
	if (type == SOCK_STREAM)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* Dual stack: the server may call back over either family. */
	if (rpc_addr_family(addr) == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, &sa.u.sa, sa.len) < 0 ||
	    (type == SOCK_STREAM && listen(fd, 16) < 0)) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	getsockname(fd, &sa.u.sa, &sl);
	if (bound)
		*bound = rpc_addr_port(&sa);
	return fd;
}

/*
 * The address to listen on, at port: clientaddr=, or else the local
 * address of the route to the server, in the server's family -- the
 * address our calls come from, where the server calls back.  Never the
 * wildcard: nothing but the server has anything to say to this socket.
 */
static int listen_addr(struct lockmgr *lm, uint16_t port, struct rpc_addr *out)
{
	struct rpc_addr to = lm->cfg.server;
	struct sockaddr_storage me;
	socklen_t sl = sizeof(me);
	int fd, ret = 0;

	if (lm->src.len) {
		*out = lm->src;
		rpc_addr_set_port(out, port);
		return 0;
	}
	fd = socket(rpc_addr_family(&to), SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	rpc_addr_set_port(&to, PMAP_PORT); /* any port: nothing is sent */
	if (connect(fd, &to.u.sa, to.len) < 0 ||
	    getsockname(fd, (struct sockaddr *)&me, &sl) < 0)
		ret = -errno;
	else if (rpc_addr_set(out, (struct sockaddr *)&me, sl))
		ret = -EAFNOSUPPORT;
	else
		rpc_addr_set_port(out, port);
	close(fd);
	return ret;
}

/*
 * The port registered for exactly (prog, vers, proto), from the local
 * portmap v2 DUMP (an IPv6 listener registers there too: register_prog).
 * Not GETPORT or GETADDR: rpcbind answers them with another version's
 * port when the one asked for is not registered, and NLM v4 of a local
 * server would make our NLM v3 look taken.
 */
static int registered_port(uint32_t prog, uint32_t vers, int proto,
			   uint16_t *port)
{
	struct pmap_mapping *maps;
	struct rpc_addr rpcb;
	size_t n;
	uint32_t prot = proto == IPPROTO_TCP ? PMAP_PROT_TCP : PMAP_PROT_UDP;
	int ret;

	local_rpcbind(&rpcb, AF_INET);
	ret = pmap_clnt_dump(&rpcb, &maps, &n);
	if (ret)
		return ret;
	ret = -EPROTONOSUPPORT;
	for (size_t i = 0; i < n; i++)
		if (maps[i].prog == prog && maps[i].vers == vers &&
		    maps[i].prot == prot && maps[i].port &&
		    maps[i].port <= 65535) {
			*port = (uint16_t)maps[i].port;
			ret = 0;
			break;
		}
	free(maps);
	return ret;
}

/* Decide how NLM callbacks can reach us; fills lm->mode. */
static void setup_nlm_callbacks(struct lockmgr *lm)
{
	int family = rpc_addr_family(&lm->cfg.server);
	struct rpc_addr at;
	char addr[RPC_ADDR_HOSTLEN];
	uint16_t port_tcp = 0, port_udp = 0;
	uint32_t v = lm->nlm_vers;
	int ret, fd;

	rpc_addr_host(&lm->src, addr, sizeof(addr));
	if (!lm->cfg.callbacks) {
		snprintf(lm->mode, sizeof(lm->mode),
			 "poll (nlm_callback=no)");
		return;
	}
	ret = listen_addr(lm, 0, &at);
	if (ret) {
		snprintf(lm->mode, sizeof(lm->mode), "poll (no route to the "
			 "server: %s)", strerror(-ret));
		return;
	}
	rpc_addr_host(&at, addr, sizeof(addr));
	ret = registered_port(NLM_PROGRAM, v, IPPROTO_TCP, &port_tcp);
	if (ret == -EPROTONOSUPPORT) {
		/* Free: ours to register. */
		fd = bind_sock(SOCK_STREAM, &at, &lm->nlm_port_tcp);
		if (fd < 0)
			goto fail;
		lm->nlm_tcp_fd = fd;
		fd = bind_sock(SOCK_DGRAM, &at, &lm->nlm_port_udp);
		if (fd >= 0)
			lm->nlm_udp_fd = fd;
		lm->nlm_family = family;
		ret = register_prog(true, NLM_PROGRAM, v, IPPROTO_TCP,
				    lm->nlm_port_tcp, family);
		if (ret == 0 && lm->nlm_udp_fd >= 0)
			register_prog(true, NLM_PROGRAM, v, IPPROTO_UDP,
				      lm->nlm_port_udp, family);
		if (ret) {
			snprintf(lm->mode, sizeof(lm->mode),
				 "poll (rpcbind refused our NLM "
				 "registration: %s)", strerror(-ret));
			return;
		}
		lm->nlm_registered = true;
		lm->callbacks_on = true;
		snprintf(lm->mode, sizeof(lm->mode),
			 "callback (NLM v%u registered with rpcbind, port %u "
			 "at %s)", v, lm->nlm_port_tcp, addr);
		return;
	}
	if (ret) {
		snprintf(lm->mode, sizeof(lm->mode), "poll (no rpcbind: %s)",
			 strerror(-ret));
		return;
	}
	/* Registered by someone else: share its port at our own address. */
	if (!lm->src.len) {
		snprintf(lm->mode, sizeof(lm->mode),
			 "poll (NLM v%u registered by another process, port "
			 "%u; no clientaddr=)", v, port_tcp);
		return;
	}
	listen_addr(lm, port_tcp, &at); /* clientaddr=: cannot fail */
	fd = bind_sock(SOCK_STREAM, &at, NULL);
	if (fd < 0) {
		snprintf(lm->mode, sizeof(lm->mode),
			 "poll (NLM v%u registered by another process, port "
			 "%u busy at %s)", v, port_tcp, addr);
		return;
	}
	lm->nlm_tcp_fd = fd;
	lm->nlm_port_tcp = port_tcp;
	if (registered_port(NLM_PROGRAM, v, IPPROTO_UDP, &port_udp) == 0) {
		listen_addr(lm, port_udp, &at);
		fd = bind_sock(SOCK_DGRAM, &at, NULL);
		if (fd >= 0) {
			lm->nlm_udp_fd = fd;
			lm->nlm_port_udp = port_udp;
		}
	}
	lm->callbacks_on = true;
	snprintf(lm->mode, sizeof(lm->mode),
		 "callback (shared NLM port %u at %s)", port_tcp, addr);
	return;
fail:
	snprintf(lm->mode, sizeof(lm->mode), "poll (cannot listen: %s)",
		 strerror(-fd));
}

/* The statd callback program: private, UDP, on loopback. */
static void setup_statd_callback(struct lockmgr *lm)
{
	struct rpc_addr lo, rpcb;
	int fd;

	/* The local statd calls over IPv4 loopback (statmon.c), whatever
	 * the server's family; no one else has anything to say here. */
	rpc_addr_parse(&lo, "127.0.0.1", 0);
	fd = bind_sock(SOCK_DGRAM, &lo, &lm->sm_port);
	if (fd < 0)
		return;
	lm->sm_fd = fd;
	local_rpcbind(&rpcb, AF_INET);
	for (uint32_t k = 0; k < 64; k++) {
		uint32_t prog = LK_SM_PROG_BASE + (((uint32_t)getpid() + k) & 0xff);
		uint16_t port;
		int ret = pmap_clnt_getport(&rpcb, prog, 1, IPPROTO_UDP, &port);

		if (ret == 0)
			continue; /* taken */
		if (ret != -EPROTONOSUPPORT)
			return; /* no rpcbind */
		if (pmap_change(PMAPPROC_SET, prog, 1, PMAP_PROT_UDP,
				lm->sm_port) == 0) {
			lm->sm_prog = prog;
			return;
		}
	}
}

/* ---- serving ---- */

static void send_reply(struct lk_reply_sink *s, uint32_t xid,
		       uint32_t accept_stat, xdr_enc_fn enc, const void *res)
{
	struct xdr_enc e;

	if (xdr_enc_init(&e, 128, s->tcp ? 4 : 0))
		return;
	rpcmsg_enc_accepted_reply(&e, xid, accept_stat);
	if (enc && accept_stat == RPC_SUCCESS)
		enc(&e, res);
	if (accept_stat == RPC_PROG_MISMATCH) {
		/* mismatch_info: the NLM versions served (1, 3, 4) */
		xdr_enc_u32(&e, NLM_V1);
		xdr_enc_u32(&e, NLM_V4);
	}
	if (!xdr_enc_error(&e)) {
		if (s->tcp) {
			xdr_put_u32(e.buf, 0x80000000u | (uint32_t)(e.len - 4));
			(void)!send(s->fd, e.buf, e.len, MSG_NOSIGNAL);
		} else {
			(void)!sendto(s->fd, e.buf, e.len, 0,
				      &s->to.u.sa, s->to.len);
		}
	}
	xdr_enc_release(&e);
}

/*
 * A statd's word that a monitored host rebooted (struct status): from the
 * local statd only, and carrying the priv we gave it with SM_MON, which
 * no other process knows.  It arrives on the private statd program, or
 * on NLM procedure 16 when we own our NLM version and statd calls "lockd"
 * back.
 */
static void statd_notice(struct lockmgr *lm, const struct rpc_call_hdr *h,
			 struct xdr_dec *d, const struct rpc_addr *from,
			 struct lk_reply_sink *s)
{
	struct nsm_status st;

	if (nsm_dec_status(d, &st)) {
		send_reply(s, h->xid, RPC_GARBAGE_ARGS, NULL, NULL);
		return;
	}
	send_reply(s, h->xid, RPC_SUCCESS, NULL, NULL);
	if (!rpc_addr_is_loopback(from) || !lk_statd_priv_ok(lm, st.priv)) {
		LK_INC(lm, callbacks_rejected);
		TRACE("lock statd notice for %.*s refused: not from our "
		      "statd", (int)st.mon_name_len, st.mon_name);
		return;
	}
	LK_INC(lm, statd_callbacks);
	TRACE("lock statd: %.*s is now in state %d", (int)st.mon_name_len,
	      st.mon_name, st.state);
	lk_server_rebooted(lm, st.state);
}

static void serve_nlm(struct lockmgr *lm, const struct rpc_call_hdr *h,
		      struct xdr_dec *d, const struct rpc_addr *from,
		      struct lk_reply_sink *s)
{
	const struct xdr_proc_codec *codec;
	struct nlm_testargs a;
	struct nlm_res res;
	char fromtxt[RPC_ADDR_HOSTLEN];
	bool ours, ok = false;

	if (h->vers != NLM_V1 && h->vers != NLM_V3 && h->vers != NLM_V4) {
		send_reply(s, h->xid, RPC_PROG_MISMATCH, NULL, NULL);
		return;
	}
	switch (h->proc) {
	case NLMPROC_NULL:
		send_reply(s, h->xid, RPC_SUCCESS, NULL, NULL);
		return;
	case NLMPROC_GRANTED:
	case NLMPROC_GRANTED_MSG:
		break;
	case NLMPROC_NSM_NOTIFY:
		statd_notice(lm, h, d, from, s);
		return;
	case NLMPROC_TEST_RES:
	case NLMPROC_LOCK_RES:
	case NLMPROC_CANCEL_RES:
	case NLMPROC_UNLOCK_RES:
	case NLMPROC_GRANTED_RES:
		/* We never send the _MSG requests these answer; and a
		 * message gets no reply (the sender does not read one). */
		return;
	default:
		send_reply(s, h->xid, RPC_PROC_UNAVAIL, NULL, NULL);
		return;
	}
	/* nlm_testargs in v1/v3 (32-bit range) or nlm4_testargs. */
	codec = nlm_proc_codec(h->vers, h->proc);
	if (!codec || codec->dec_args(d, &a)) {
		send_reply(s, h->xid, RPC_GARBAGE_ARGS, NULL, NULL);
		return;
	}
	LK_INC(lm, callbacks);
	ours = rpc_addr_same_host(from, &lm->cfg.server);
	if (ours)
		ok = lk_granted(lm, &a);
	if (!ours)
		LK_INC(lm, callbacks_refused_address);
	else if (!ok)
		LK_INC(lm, callbacks_refused_match);
	if (!ok)
		LK_INC(lm, callbacks_rejected);
	TRACE("lock callback %s v%u from %s svid=%d %llu+%llu -> %s",
	      nlm_proc_names[h->proc], h->vers,
	      rpc_addr_host(from, fromtxt, sizeof(fromtxt)),
	      a.alock.svid, (unsigned long long)a.alock.l_offset,
	      (unsigned long long)a.alock.l_len,
	      ok ? "granted to a waiter"
		 : (ours ? "no such waiter" : "not our server"));
	res.cookie = a.cookie;
	res.stat = ok ? NLM_GRANTED : NLM_DENIED;
	if (h->proc == NLMPROC_GRANTED) {
		send_reply(s, h->xid, RPC_SUCCESS, nlm_enc_res, &res);
		return;
	}
	/* GRANTED_MSG is a one-way message: the answer is GRANTED_RES. */
	if (ours) {
		struct rpc_cred cred = { .flavor = RPC_AUTH_NONE };

		lk_conn_send(&lm->nlm, NLMPROC_GRANTED_RES, &cred, nlm_enc_res,
			     &res);
	}
}

static void serve_statd(struct lockmgr *lm, const struct rpc_call_hdr *h,
			struct xdr_dec *d, const struct rpc_addr *from,
			struct lk_reply_sink *s)
{
	if (h->proc == 0)
		send_reply(s, h->xid, RPC_SUCCESS, NULL, NULL);
	else if (h->proc == 1)
		statd_notice(lm, h, d, from, s);
	else
		send_reply(s, h->xid, RPC_PROC_UNAVAIL, NULL, NULL);
}

void lk_listener_dispatch(struct lockmgr *lm, const uint8_t *buf, size_t len,
			  const struct rpc_addr *from, struct lk_reply_sink *s)
{
	struct rpc_call_hdr h;
	struct xdr_dec d;

	xdr_dec_init(&d, buf, len);
	if (rpcmsg_dec_call(&d, &h))
		return;
	if (h.prog == NLM_PROGRAM && (s->fd == lm->nlm_tcp_fd ||
				      s->fd == lm->nlm_udp_fd || s->tcp))
		serve_nlm(lm, &h, &d, from, s);
	else if (lm->sm_prog && h.prog == lm->sm_prog)
		serve_statd(lm, &h, &d, from, s);
	else
		send_reply(s, h.xid, RPC_PROG_UNAVAIL, NULL, NULL);
}

bool lk_listener_stream(struct lockmgr *lm, struct rpc_record_reader *rr,
			int fd, const struct rpc_addr *from,
			const uint8_t *buf, size_t n)
{
	size_t off = 0;

	while (off < n) {
		struct lk_reply_sink s = { .fd = fd, .tcp = true };
		uint8_t *rec = NULL;
		size_t used, len = 0;
		int ret = rpc_record_feed(rr, buf + off, n - off, &used, &rec,
					  &len);

		if (ret < 0)
			return false;
		off += used;
		/* An empty record (rec NULL) holds no call to answer. */
		if (ret == 1 && len > 0)
			lk_listener_dispatch(lm, rec, len, from, &s);
		free(rec);
	}
	return true;
}

struct lk_tcp_conn {
	int fd;
	struct rpc_addr from;
	struct rpc_record_reader rr;
	double last;             /* lk_now() of its last bytes */
};

/* Read what is there; serve each complete record.  Returns false when the
 * connection is done (closed, or a record over the limit). */
static bool tcp_readable(struct lockmgr *lm, struct lk_tcp_conn *c)
{
	uint8_t tmp[8192];
	ssize_t n = recv(c->fd, tmp, sizeof(tmp), 0);

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		return false;
	c->last = lk_now();
	return n < 0 || lk_listener_stream(lm, &c->rr, c->fd, &c->from, tmp,
					   (size_t)n);
}

/* A peer's address as accepted or received: IPv4 or IPv6 only, and an
 * IPv4 peer of a dual-stack socket as IPv4.  0 or -EAFNOSUPPORT. */
static int peer_addr(struct rpc_addr *a, const struct sockaddr_storage *ss,
		     socklen_t len)
{
	if (rpc_addr_set(a, (const struct sockaddr *)ss, len))
		return -EAFNOSUPPORT;
	rpc_addr_unmap(a);
	return 0;
}

static void conn_close(struct lk_tcp_conn *conns, size_t *n, size_t i)
{
	close(conns[i].fd);
	rpc_record_reader_free(&conns[i].rr);
	conns[i] = conns[--*n];
}

/*
 * Take every pending connection.  When all slots are taken, the one idle
 * longest makes room: a callback comes in right after its connect, so
 * connections opened to fill the slots cannot keep it out.
 */
static void accept_all(struct lockmgr *lm, struct lk_tcp_conn *conns,
		       size_t *n)
{
	for (;;) {
		struct sockaddr_storage ss;
		struct rpc_addr from;
		socklen_t fl = sizeof(ss);
		int fd = accept4(lm->nlm_tcp_fd, (struct sockaddr *)&ss, &fl,
				 SOCK_CLOEXEC | SOCK_NONBLOCK);

		if (fd < 0)
			return;
		if (peer_addr(&from, &ss, fl)) {
			close(fd);
			continue;
		}
		if (*n == LK_MAX_CONNS) {
			size_t idlest = 0;

			for (size_t i = 1; i < *n; i++)
				if (conns[i].last < conns[idlest].last)
					idlest = i;
			conn_close(conns, n, idlest);
			LK_INC(lm, listener_evicted);
		}
		conns[*n] = (struct lk_tcp_conn){ .fd = fd, .from = from,
						  .last = lk_now() };
		rpc_record_reader_init(&conns[*n].rr, LK_MAX_RECORD);
		(*n)++;
	}
}

static void udp_readable(struct lockmgr *lm, int fd)
{
	uint8_t buf[9000];
	struct sockaddr_storage ss;
	socklen_t fl = sizeof(ss);
	ssize_t n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&ss,
			     &fl);
	struct lk_reply_sink s = { .fd = fd, .tcp = false };
	struct rpc_addr from;

	if (n <= 0 || peer_addr(&from, &ss, fl))
		return;
	/* The reply goes back exactly where the call came from. */
	rpc_addr_set(&s.to, (const struct sockaddr *)&ss, fl);
	lk_listener_dispatch(lm, buf, (size_t)n, &from, &s);
}

static void *listener_main(void *arg)
{
	struct lockmgr *lm = arg;
	struct lk_tcp_conn conns[LK_MAX_CONNS];
	size_t nconns = 0;

	for (;;) {
		struct pollfd pfd[4 + LK_MAX_CONNS];
		nfds_t n = 0;
		size_t fixed, ready;
		double now;

		pfd[n++] = (struct pollfd){ lm->wake_pipe[0], POLLIN, 0 };
		pfd[n++] = (struct pollfd){ lm->nlm_tcp_fd, POLLIN, 0 };
		pfd[n++] = (struct pollfd){ lm->nlm_udp_fd, POLLIN, 0 };
		pfd[n++] = (struct pollfd){ lm->sm_fd, POLLIN, 0 };
		fixed = n;
		for (size_t i = 0; i < nconns; i++)
			pfd[n++] = (struct pollfd){ conns[i].fd, POLLIN, 0 };
		/* Wake up now and then to close idle connections. */
		if (poll(pfd, n, nconns ? 1000 : -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[0].revents)
			break;
		/* Connections first: the slots an accept frees are then not
		 * those of connections with bytes waiting. */
		ready = nconns;
		for (size_t i = ready; i-- > 0;)
			if (pfd[fixed + i].revents &&
			    !tcp_readable(lm, &conns[i]))
				conn_close(conns, &nconns, i);
		now = lk_now();
		for (size_t i = nconns; i-- > 0;)
			if (now - conns[i].last > LK_IDLE_S) {
				conn_close(conns, &nconns, i);
				LK_INC(lm, listener_idle_closed);
			}
		if (pfd[1].revents & POLLIN)
			accept_all(lm, conns, &nconns);
		if (pfd[2].revents & POLLIN)
			udp_readable(lm, lm->nlm_udp_fd);
		if (pfd[3].revents & POLLIN)
			udp_readable(lm, lm->sm_fd);
	}
	for (size_t i = 0; i < nconns; i++) {
		close(conns[i].fd);
		rpc_record_reader_free(&conns[i].rr);
	}
	return NULL;
}

int lk_listener_start(struct lockmgr *lm, char *err, size_t errlen)
{
	if (pipe2(lm->wake_pipe, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	setup_nlm_callbacks(lm);
	setup_statd_callback(lm);
	if (pthread_create(&lm->listener, NULL, listener_main, lm)) {
		snprintf(err, errlen, "cannot start the lock listener thread");
		lk_listener_stop(lm);
		return -1;
	}
	lm->listener_running = true;
	return 0;
}

void lk_listener_stop(struct lockmgr *lm)
{
	if (lm->listener_running) {
		(void)!write(lm->wake_pipe[1], "x", 1);
		pthread_join(lm->listener, NULL);
		lm->listener_running = false;
	}
	if (lm->nlm_registered) {
		register_prog(false, NLM_PROGRAM, lm->nlm_vers, IPPROTO_TCP,
			      0, lm->nlm_family);
		if (lm->nlm_family == AF_INET6)
			register_prog(false, NLM_PROGRAM, lm->nlm_vers,
				      IPPROTO_UDP, 0, lm->nlm_family);
		lm->nlm_registered = false;
	}
	if (lm->sm_prog) {
		pmap_change(PMAPPROC_UNSET, lm->sm_prog, 1, 0, 0);
		lm->sm_prog = 0;
	}
	if (lm->nlm_tcp_fd >= 0)
		close(lm->nlm_tcp_fd);
	if (lm->nlm_udp_fd >= 0)
		close(lm->nlm_udp_fd);
	if (lm->sm_fd >= 0)
		close(lm->sm_fd);
	lm->nlm_tcp_fd = lm->nlm_udp_fd = lm->sm_fd = -1;
	for (int i = 0; i < 2; i++)
		if (lm->wake_pipe[i] >= 0)
			close(lm->wake_pipe[i]);
	lm->wake_pipe[0] = lm->wake_pipe[1] = -1;
}
