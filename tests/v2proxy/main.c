/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfs2to3proxy --listen PORT --to HOST:PORT [--mount-to HOST:PORT]
 *              [--nlm-listen PORT [--nlm-to HOST:PORT]]
 *
 * Listens on 127.0.0.1:PORT (TCP) for NFS v2 and MOUNT v1 calls and serves
 * them through the NFSv3 server at --to and its MOUNT v3 at --mount-to
 * (default: the --to host, port 20048).  NLM v1 and v3 calls are served
 * through the server's NLM v4 at --nlm-to (default: where the rpcbind of
 * the --to host says it is), on either port; --nlm-listen opens a port of
 * their own.  Calls for other versions of the three programs get
 * PROG_MISMATCH, as from a server that has only v2, so a client's "v3,
 * else v2" negotiation can be tested too.  Test-only: no portmapper
 * registration, no UDP, one upstream call at a time per client
 * connection.  See v2proxy.h.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "mount.h"
#include "nlm.h"
#include "pmap.h"
#include "v2proxy.h"
#include "../common/stream_io.h"

static struct sockaddr_in nfs_addr, mnt_addr, nlm_addr;
static int verbose;
static uint32_t next_xid;

/* ---- record marking (RFC 5531 section 11) ---- */

static int read_all(int fd, uint8_t *p, size_t n)
{
	while (n) {
		ssize_t r = recv(fd, p, n, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r == 0 ? -ECONNRESET : -EIO;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* One whole record into a malloc'd *buf. */
static int read_record(int fd, uint8_t **buf, size_t *len)
{
	uint8_t mark[4];
	uint8_t *b = NULL, *nb;
	size_t n = 0;
	bool last = false;
	int ret;

	while (!last) {
		uint32_t m, frag;

		ret = read_all(fd, mark, 4);
		if (ret)
			goto fail;
		m = xdr_get_u32(mark);
		last = m >> 31;
		frag = m & 0x7fffffffu;
		if (frag > PROXY_MAX_RECORD - n) {
			ret = -EMSGSIZE;
			goto fail;
		}
		nb = realloc(b, n + frag + 1);
		if (!nb) {
			ret = -ENOMEM;
			goto fail;
		}
		b = nb;
		ret = read_all(fd, b + n, frag);
		if (ret)
			goto fail;
		n += frag;
	}
	*buf = b;
	*len = n;
	return 0;
fail:
	free(b);
	return ret;
}

/* Sends e->buf[4..len) as one record; the first four bytes are room for
 * the mark (xdr_enc_init headroom). */
static int write_record(int fd, struct xdr_enc *e)
{
	if (xdr_enc_error(e))
		return xdr_enc_error(e);
	xdr_put_u32(e->buf, 0x80000000u | (uint32_t)(e->len - 4));
	return stream_write_all(fd, e->buf, e->len);
}

/* ---- upstream calls ---- */

static int up_connect(struct upstream *u)
{
	int one = 1;

	u->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (u->fd < 0)
		return -errno;
	setsockopt(u->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(u->fd, (struct sockaddr *)&u->addr, sizeof(u->addr))) {
		int err = -errno;

		close(u->fd);
		u->fd = -1;
		return err;
	}
	return 0;
}

static void up_close(struct upstream *u)
{
	if (u->fd >= 0)
		close(u->fd);
	u->fd = -1;
}

/* Send one call and wait for its reply; *buf owns the reply. */
static int up_roundtrip(struct upstream *u, uint32_t proc,
			const struct rpc_cred *cred, enc_fn enc,
			const void *args, struct xdr_dec *results,
			uint8_t **buf)
{
	static const struct rpc_cred none = { .flavor = RPC_AUTH_NONE };
	struct rpc_cred c = cred ? *cred : none;
	struct rpc_reply_hdr h;
	struct xdr_enc e;
	uint32_t xid;
	int ret = -EIO, tries;

	c.machinename = "nfs2to3proxy";
	/* XIDs unique across connections, so that the server's duplicate
	 * request cache never answers one call with another's reply. */
	xid = __atomic_add_fetch(&next_xid, 1, __ATOMIC_RELAXED);
	if (xdr_enc_init(&e, 1024, 4))
		return -ENOMEM;
	rpcmsg_enc_call(&e, xid, u->prog, u->vers, proc, &c);
	if (enc && !xdr_enc_error(&e)) {
		ret = enc(&e, args);
		if (ret && !xdr_enc_error(&e))
			e.err = ret;
	}
	if (xdr_enc_error(&e)) {
		ret = xdr_enc_error(&e);
		xdr_enc_release(&e);
		return ret;
	}
	for (tries = 0; tries < 2; tries++) {
		size_t len;

		if (u->fd < 0 && (ret = up_connect(u)))
			continue;
		ret = write_record(u->fd, &e);
		/* Replies that are not ours (a call abandoned on an earlier
		 * failure, garbage) are skipped. */
		while (!ret) {
			ret = read_record(u->fd, buf, &len);
			if (ret)
				break;
			xdr_dec_init(results, *buf, len);
			if (rpcmsg_dec_reply(results, &h) == 0 && h.xid == xid)
				break;
			free(*buf);
			*buf = NULL;
		}
		if (!ret)
			break;
		up_close(u);
	}
	xdr_enc_release(&e);
	if (ret)
		return ret;
	ret = rpcmsg_reply_errno(&h);
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	return ret;
}

int up_call(struct upstream *u, uint32_t proc, const struct rpc_cred *cred,
	    enc_fn enc, const void *args, dec_fn dec, void *res,
	    uint8_t **buf)
{
	struct xdr_dec d;
	int ret;

	*buf = NULL;
	ret = up_roundtrip(u, proc, cred, enc, args, &d, buf);
	if (ret)
		return ret;
	if (dec && dec(&d, res)) {
		free(*buf);
		*buf = NULL;
		return -EBADMSG;
	}
	return 0;
}

int up_call_raw(struct upstream *u, uint32_t proc,
		const struct rpc_cred *cred, enc_fn enc, const void *args,
		const uint8_t **res, size_t *len, uint8_t **buf)
{
	struct xdr_dec d;
	int ret;

	*buf = NULL;
	ret = up_roundtrip(u, proc, cred, enc, args, &d, buf);
	if (ret)
		return ret;
	*res = d.p;
	*len = xdr_dec_left(&d);
	return 0;
}

/* ---- MOUNT v1, through MOUNT v3 ---- */

static uint32_t mnt1_serve(struct conn *c, uint32_t proc,
			   const struct rpc_cred *cred, struct xdr_dec *d,
			   struct xdr_enc *e)
{
	char path[MNT_PATHLEN + 1];
	struct mnt_dirpath_args a = { path };
	struct mnt_mnt_res r;
	const char *p;
	const uint8_t *raw;
	uint8_t *buf = NULL;
	size_t rawlen;
	uint32_t len;
	int ret;

	switch (proc) {
	case 0: /* NULL */
	case 4: /* UMNTALL */
		return RPC_SUCCESS;
	case 1: /* MNT */
	case 3: /* UMNT */
		if (mnt_dec_dirpath_args(d, &p, &len))
			return RPC_GARBAGE_ARGS;
		memcpy(path, p, len);
		path[len] = '\0';
		if (proc == 3) {
			ret = up_call(&c->mnt, 3, cred, mnt_enc_dirpath_args,
				      &a, NULL, NULL, &buf);
			free(buf);
			return ret ? RPC_SYSTEM_ERR : RPC_SUCCESS;
		}
		ret = up_call(&c->mnt, 1, cred, mnt_enc_dirpath_args, &a,
			      mnt_dec_mnt3_res, &r, &buf);
		if (ret) {
			free(buf);
			return RPC_SYSTEM_ERR;
		}
		if (r.status == 0) {
			struct nfs2_fh fh2;

			if (verbose)
				fprintf(stderr, "nfs2to3proxy: MNT %s: "
					"%u-byte v3 handle\n", path, r.fh.len);
			map_fh_to_v2(&r.fh, &fh2);
			nfs2_fh_to_fh3(&fh2, &r.fh);
		} else if (r.status > 10000) {
			r.status = EIO; /* NOTSUPP, SERVERFAULT: no v1 code */
		}
		free(buf);
		mnt_enc_mnt1_res(e, &r);
		return RPC_SUCCESS;
	case 2: /* DUMP */
	case 5: /* EXPORT: the same XDR in v1 and v3 */
		ret = up_call_raw(&c->mnt, proc, cred, NULL, NULL, &raw,
				  &rawlen, &buf);
		if (ret) {
			free(buf);
			return RPC_SYSTEM_ERR;
		}
		xdr_enc_opaque_fixed(e, raw, rawlen);
		free(buf);
		return RPC_SUCCESS;
	}
	return RPC_PROC_UNAVAIL;
}

/* ---- client connections ---- */

static int reply_to(struct conn *c, const struct rpc_call_hdr *h,
		    struct xdr_dec *args)
{
	struct xdr_enc e, res;
	uint32_t stat, low = 0, high = 0;
	int ret;

	if (xdr_enc_init(&e, 1024, 4))
		return -ENOMEM;
	if (xdr_enc_init(&res, 1024, 0)) {
		xdr_enc_release(&e);
		return -ENOMEM;
	}
	if (h->prog == NFS2_PROGRAM && h->vers == NFS2_VERSION) {
		stat = nfs2_serve(c, h->proc, &h->cred, args, &res);
	} else if (h->prog == MNT_PROGRAM && h->vers == MNT_V1) {
		stat = mnt1_serve(c, h->proc, &h->cred, args, &res);
	} else if (h->prog == NLM_PROGRAM &&
		   (h->vers == NLM_V1 || h->vers == NLM_V3) &&
		   nlm_addr.sin_port) {
		stat = nlm1_serve(c, h->vers, h->proc, &h->cred, args, &res);
	} else if (h->prog == NLM_PROGRAM && nlm_addr.sin_port) {
		stat = RPC_PROG_MISMATCH;
		low = NLM_V1;
		high = NLM_V3;
	} else if (h->prog == NFS2_PROGRAM || h->prog == MNT_PROGRAM) {
		stat = RPC_PROG_MISMATCH;
		low = high = h->prog == NFS2_PROGRAM ? NFS2_VERSION : MNT_V1;
	} else {
		stat = RPC_PROG_UNAVAIL;
	}
	if (verbose)
		fprintf(stderr, "nfs2to3proxy: prog %u v%u proc %u -> %u\n",
			h->prog, h->vers, h->proc, stat);
	rpcmsg_enc_accepted_reply(&e, h->xid, stat);
	if (stat == RPC_SUCCESS && !xdr_enc_error(&res))
		xdr_enc_opaque_fixed(&e, res.buf, res.len);
	if (stat == RPC_PROG_MISMATCH) {
		xdr_enc_u32(&e, low);
		xdr_enc_u32(&e, high);
	}
	ret = write_record(c->fd, &e);
	xdr_enc_release(&res);
	xdr_enc_release(&e);
	return ret;
}

static void *conn_main(void *arg)
{
	struct conn *c = arg;

	for (;;) {
		struct rpc_call_hdr h;
		struct xdr_dec d;
		uint8_t *buf;
		size_t len;

		if (read_record(c->fd, &buf, &len))
			break;
		xdr_dec_init(&d, buf, len);
		if (rpcmsg_dec_call(&d, &h) || reply_to(c, &h, &d)) {
			free(buf);
			break;
		}
		free(buf);
	}
	up_close(&c->nfs);
	up_close(&c->mnt);
	up_close(&c->nlm);
	close(c->fd);
	free(c);
	return NULL;
}

static int parse_hostport(const char *s, struct sockaddr_in *sa)
{
	char host[64];
	const char *colon = strrchr(s, ':');
	char *end;
	unsigned long port;

	if (!colon || (size_t)(colon - s) >= sizeof(host))
		return -1;
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = '\0';
	port = strtoul(colon + 1, &end, 10);
	if (*end || !port || port > 65535)
		return -1;
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	return inet_pton(AF_INET, host, &sa->sin_addr) == 1 ? 0 : -1;
}

static void usage(void)
{
	fprintf(stderr, "usage: nfs2to3proxy --listen PORT --to HOST:PORT "
		"[--mount-to HOST:PORT] [--nlm-listen PORT [--nlm-to "
		"HOST:PORT]] [--verbose]\n");
	exit(2);
}

static int parse_port(const char *s, unsigned long *port)
{
	char *end;

	*port = strtoul(s, &end, 10);
	return *end || !*port || *port > 65535 ? -1 : 0;
}

/* The server's NLM v4 over TCP, from the rpcbind of the --to host. */
static int find_nlm(void)
{
	struct upstream pm = { nfs_addr, PMAP_PROGRAM, PMAP_VERSION, -1 };
	struct pmap_getport_args a = {
		{ NLM_PROGRAM, NLM_V4, PMAP_PROT_TCP, 0 } };
	struct pmap_getport_res r;
	uint8_t *buf = NULL;
	int ret;

	pm.addr.sin_port = htons(PMAP_PORT);
	ret = up_call(&pm, PMAPPROC_GETPORT, NULL, pmap_enc_getport_args, &a,
		      pmap_dec_getport_res, &r, &buf);
	free(buf);
	up_close(&pm);
	if (ret)
		return ret;
	if (r.port == 0 || r.port > 65535)
		return -EPROTONOSUPPORT;
	nlm_addr = nfs_addr;
	nlm_addr.sin_port = htons((uint16_t)r.port);
	return 0;
}

static int listen_on(unsigned long port)
{
	struct sockaddr_in la;
	int lfd, one = 1;

	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0) {
		perror("nfs2to3proxy: socket");
		return -1;
	}
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&la, 0, sizeof(la));
	la.sin_family = AF_INET;
	la.sin_port = htons((uint16_t)port);
	la.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(lfd, (struct sockaddr *)&la, sizeof(la)) || listen(lfd, 64)) {
		perror("nfs2to3proxy: bind");
		close(lfd);
		return -1;
	}
	return lfd;
}

/* Accept clients on lfd for ever, a thread each. */
static void *accept_loop(void *arg)
{
	int lfd = (int)(intptr_t)arg, one = 1;

	for (;;) {
		pthread_t t;
		struct conn *c;
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			perror("nfs2to3proxy: accept");
			exit(1);
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		c = calloc(1, sizeof(*c));
		if (!c) {
			close(fd);
			continue;
		}
		c->fd = fd;
		c->nfs = (struct upstream){ nfs_addr, NFS3_PROGRAM,
					    NFS3_VERSION, -1 };
		c->mnt = (struct upstream){ mnt_addr, MNT_PROGRAM, MNT_V3,
					    -1 };
		c->nlm = (struct upstream){ nlm_addr, NLM_PROGRAM, NLM_V4,
					    -1 };
		if (pthread_create(&t, NULL, conn_main, c)) {
			close(fd);
			free(c);
			continue;
		}
		pthread_detach(t);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long port = 0, nlm_port = 0;
	bool have_to = false, have_mnt = false, have_nlm_to = false;
	int lfd, nlm_lfd = -1;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--verbose")) {
			verbose = 1;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--listen")) {
			if (parse_port(v, &port))
				usage();
		} else if (!strcmp(a, "--nlm-listen")) {
			if (parse_port(v, &nlm_port))
				usage();
		} else if (!strcmp(a, "--to")) {
			if (parse_hostport(v, &nfs_addr))
				usage();
			have_to = true;
		} else if (!strcmp(a, "--mount-to")) {
			if (parse_hostport(v, &mnt_addr))
				usage();
			have_mnt = true;
		} else if (!strcmp(a, "--nlm-to")) {
			if (parse_hostport(v, &nlm_addr))
				usage();
			have_nlm_to = true;
		} else {
			usage();
		}
	}
	if (!port || !have_to || (have_nlm_to && !nlm_port))
		usage();
	if (!have_mnt) {
		mnt_addr = nfs_addr;
		mnt_addr.sin_port = htons(20048);
	}
	signal(SIGPIPE, SIG_IGN);
	next_xid = (uint32_t)time(NULL) * 65536u ^ (uint32_t)getpid();
	if (nlm_port && !have_nlm_to) {
		int ret = find_nlm();

		if (ret) {
			fprintf(stderr, "nfs2to3proxy: the server's NLM v4: "
				"%s\n", strerror(-ret));
			return 1;
		}
	}
	lfd = listen_on(port);
	if (lfd < 0)
		return 1;
	if (nlm_port) {
		pthread_t t;

		nlm_lfd = listen_on(nlm_port);
		if (nlm_lfd < 0)
			return 1;
		if (pthread_create(&t, NULL, accept_loop,
				   (void *)(intptr_t)nlm_lfd)) {
			perror("nfs2to3proxy: pthread_create");
			return 1;
		}
		pthread_detach(t);
		fprintf(stderr, "nfs2to3proxy: NLM v1/v3 on 127.0.0.1:%lu "
			"through NLM v4 at %s:%u\n", nlm_port,
			inet_ntoa(nlm_addr.sin_addr),
			(unsigned)ntohs(nlm_addr.sin_port));
	}
	fprintf(stderr, "nfs2to3proxy: listening on 127.0.0.1:%lu\n", port);
	accept_loop((void *)(intptr_t)lfd);
	return 1;
}
