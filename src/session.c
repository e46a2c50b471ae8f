/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "session.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../xdr/nfs2.h"
#include "base/log.h"
#include "base/userns.h"
#include "base/safedir.h"
#include "proto/mount_client.h"
#include "proto/nfs4_deleg.h"
#include "proto/nfs4_open.h"
#include "proto/nfs4_owner.h"
#include "proto/nfs4_reclaim.h"
#include "proto/nfsacl_client.h"
#include "proto/pmap_client.h"
#include "base/trace.h"

/* Largest transfer we ask for when the user sets none: what the Linux
 * client settles on with servers that offer more. */
#define DEFAULT_XFER (1u << 20)
#define DEFAULT_DIRSIZE (64u << 10)
/* Over UDP a READ reply or a WRITE call must fit in one datagram (64 KiB
 * with the headers): 32 KiB unless the user asks, 60 KiB at most. */
#define DEFAULT_UDP_XFER (32u << 10)
#define MAX_UDP_XFER (60u << 10)

static int mount_proto(const struct nfsfuse_opts *o)
{
	return o->mountproto == 1 ? IPPROTO_UDP : IPPROTO_TCP;
}

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

int session_resolve(const char *host, struct rpc_addr *out, size_t max,
		    char *err, size_t errlen)
{
	/* No AI_ADDRCONFIG: where loopback is the only interface (a
	 * container) it would hide every address, loopback's included. */
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *ai;
	size_t n = 0;
	int ret = getaddrinfo(host, NULL, &hints, &res);

	if (ret) {
		set_err(err, errlen, "cannot resolve server '%s': %s", host,
			gai_strerror(ret));
		return -1;
	}
	for (ai = res; ai && n < max; ai = ai->ai_next) {
		bool seen = false;

		if (rpc_addr_set(&out[n], ai->ai_addr, ai->ai_addrlen))
			continue; /* neither IPv4 nor IPv6 */
		for (size_t i = 0; i < n && !seen; i++)
			seen = rpc_addr_same_host(&out[i], &out[n]);
		if (!seen)
			n++;
	}
	freeaddrinfo(res);
	if (n == 0) {
		set_err(err, errlen, "server '%s' has no IPv4 or IPv6 address",
			host);
		return -1;
	}
	return (int)n;
}

bool session_unreachable(int err)
{
	return err == -ECONNREFUSED || err == -ETIMEDOUT ||
	       err == -ENETUNREACH || err == -EHOSTUNREACH ||
	       err == -EADDRNOTAVAIL || err == -EAFNOSUPPORT ||
	       err == -ECONNRESET || err == -EHOSTDOWN || err == -ENETDOWN;
}

static void rpc_trace(void *ctx, const char *server, uint32_t xid,
		      const char *proc, size_t sent, size_t recvd,
		      uint64_t usec, int err)
{
	(void)ctx;
	nf_log(NF_LOG_DEBUG, "rpc %s xid=0x%08x %s sent=%zu recv=%zu %.3f ms%s%s",
	       server, xid, proc, sent, recvd, usec / 1000.0, err ? " " : "",
	       err ? strerror(-err) : "");
	TRACE("rpc %s xid=0x%08x %zu/%zu bytes %.3f ms%s%s", proc, xid, sent,
	      recvd, usec / 1000.0, err ? " " : "", err ? strerror(-err) : "");
}

/*
 * do_mount() with s->mountvers, connect_nfs() and probe_root() with
 * s->nfs.v: -1 or a negative errno, with one line in err.
 * -EPROTONOSUPPORT means the server has no such version (not registered
 * with the portmapper, or PROG_MISMATCH): with vers= absent, session_open()
 * then tries NFSv2.
 */
static int do_mount(struct session *s, char *err, size_t errlen)
{
	const struct nfsfuse_opts *o = s->o;
	uint32_t flavors[MNT_MAXFLAVORS], mntstat;
	size_t nflavors = MNT_MAXFLAVORS;
	bool sys_ok = false;
	int ret;

	ret = mnt_mount(&s->addr, (uint16_t)o->mountport, s->mountvers,
			mount_proto(o), o->resvport, o->export_path, &s->cred,
			&s->nfs.root, flavors, &nflavors, &mntstat);
	if (ret) {
		char ex[512] = "";
		struct mnt_export *list;
		size_t n;

		/* The server answered: say what it does export. */
		if (mntstat != MNT_STAT_NONE && mntstat != MNT_STAT_NOCONN &&
		    mnt_export_list(&s->addr, (uint16_t)o->mountport,
				    mount_proto(o), &list, &n) == 0) {
			mnt_export_list_str(list, n, ex, sizeof(ex));
			mnt_export_list_free(list, n);
		}
		set_err(err, errlen, "mount failed: %s%s%s%s%s",
			mnt_strerror(ret, mntstat), *ex ? " (exports: " : "",
			ex, *ex ? ")" : "",
			ret == -EACCES && mntstat == MNT_STAT_NONE &&
			rpc_resvport_refused() ? "; this process may not bind "
			"a reserved source port, which the server may require"
			: "");
		return ret;
	}
	s->mounted = true;
	if (s->mountvers == MNT_V1 && s->nfs.root.len != NFS2_FHSIZE) {
		set_err(err, errlen, "MOUNT v1 gave a %u-byte handle",
			s->nfs.root.len);
		return -1;
	}
	/* No list (MOUNT v1) means AUTH_SYS is fine. */
	sys_ok = nflavors == 0;
	for (size_t i = 0; i < nflavors; i++)
		if (flavors[i] == RPC_AUTH_SYS || flavors[i] == RPC_AUTH_NONE)
			sys_ok = true;
	if (!sys_ok) {
		set_err(err, errlen, "the export requires a security flavor "
			"other than AUTH_SYS (first offered: %u)", flavors[0]);
		return -1;
	}
	return 0;
}

/* NFSACL v3 beside NFSv3, unless noacl; a server
 * without it leaves ACLs off (getfacl shows the mode, setfacl fails with
 * "Operation not supported", as on a kernel mount). */
static void open_acl(struct session *s, const struct rpc_addr *sa,
		     const struct rpc_clnt_opts *ro)
{
	int ret;

	struct rpc_addr asa = *sa;
	uint16_t port;

	if (s->o->noacl || s->nfs.v->vers != 3)
		return;
	/* ganesha registers NFSACL on a port of its own; other servers
	 * serve it on the NFS port and may not register it.  aclport=
	 * names the port and skips the portmapper. */
	if (s->o->aclport)
		rpc_addr_set_port(&asa, (uint16_t)s->o->aclport);
	else if (pmap_clnt_getport(&s->addr, NFSACL_PROGRAM, NFSACL_V3,
				   ro->proto, &port) == 0)
		rpc_addr_set_port(&asa, port);
	ret = nfsacl_client_open(&asa, ro, &s->acl);
	if (ret) {
		s->acl = NULL;
		nf_log(NF_LOG_INFO, "no NFSACL on the server (%s): ACLs off",
		       strerror(-ret));
		return;
	}
	rpc_clnt_set_trace(s->acl, rpc_trace, NULL);
}

static int connect_nfs(struct session *s, char *err, size_t errlen)
{
	const struct nfsfuse_opts *o = s->o;
	char name[300];
	struct rpc_clnt_opts ro = {
		.proto = o->proto_udp ? IPPROTO_UDP : IPPROTO_TCP,
		.resvport = o->resvport,
		.timeo_ds = o->timeo,
		.retrans = o->retrans,
		.soft = o->soft,
		/* nfs(5): soft fails with EIO, softerr with ETIMEDOUT. */
		.timeout_eio = o->soft && !o->softerr,
		.server = name,
		.proc_names = s->nfs.v->names,
		.nprocs = s->nfs.v->nnames,
	};
	struct rpc_addr sa = s->addr;
	uint16_t port = (uint16_t)o->port;
	int ret;

	/* "server X not responding, still trying" / "server X OK" */
	snprintf(name, sizeof(name), "server %s", o->host);
	if (!port) {
		ret = pmap_clnt_getport(&s->addr, NFS3_PROGRAM, s->nfs.v->vers,
					ro.proto, &port);
		if (ret == -EPROTONOSUPPORT) {
			set_err(err, errlen, "server does not offer NFS "
				"version %u over %s", s->nfs.v->vers,
				o->proto_udp ? "UDP" : "TCP");
			return ret;
		}
		if (ret) {
			set_err(err, errlen, "cannot ask the portmapper for "
				"the NFS port: %s", strerror(-ret));
			return -1;
		}
	}
	rpc_addr_set_port(&sa, port);
	/* nconnect=N: N clients, each from a local port of its own. */
	for (unsigned i = 0; i < (o->nconnect ? o->nconnect : 1); i++) {
		ret = rpc_clnt_create(&sa.u.sa, sa.len, NFS3_PROGRAM,
				      s->nfs.v->vers, &ro, &s->nfs.conns[i]);
		if (ret) {
			set_err(err, errlen, "cannot connect to NFS on port "
				"%u: %s", port, strerror(-ret));
			return -1; /* session_close() frees those made */
		}
		s->nfs.nconns = i + 1;
		rpc_clnt_set_trace(s->nfs.conns[i], rpc_trace, NULL);
	}
	s->nfs.rpc = s->nfs.conns[0];
	open_acl(s, &sa, &ro);
	return 0;
}

static uint32_t xfer_size(unsigned want, bool udp, uint32_t max,
			  uint32_t pref)
{
	uint32_t size = want ? want : udp ? DEFAULT_UDP_XFER : DEFAULT_XFER;

	if (udp && size > MAX_UDP_XFER)
		size = MAX_UDP_XFER;
	if (max && size > max)
		size = max;
	if (!size)
		size = pref ? pref : 8192;
	if (size >= 4096)
		size &= ~4095u;
	if (size > NFS3_MAXDATA)
		size = NFS3_MAXDATA;
	return size;
}

static int probe_root(struct session *s, char *err, size_t errlen)
{
	struct nfs3_fsinfo_args fa = { .fsroot = s->nfs.root };
	struct nfs3_fsinfo_res fr;
	struct nfs3_getattr_args ga = { .object = s->nfs.root };
	struct nfs3_getattr_res gr;
	struct nfs_fsinfo *fi = &s->nfs.info;
	int ret;

	ret = nfs_call(&s->nfs, NFS3PROC_FSINFO, &s->cred, &fa, &fr, NULL,
		       NULL);
	if (ret == 0 && fr.status != NFS3_OK)
		ret = nfs_stat_errno(fr.status);
	if (ret) {
		set_err(err, errlen, "%s of the export failed: %s",
			s->nfs.v->vers == NFS2_VERSION ? "STATFS" : "FSINFO",
			strerror(-ret));
		return ret;
	}
	fi->rtmax = fr.rtmax;
	fi->rtpref = fr.rtpref;
	fi->wtmax = fr.wtmax;
	fi->wtpref = fr.wtpref;
	fi->dtpref = fr.dtpref;
	/* 0 tells nothing; the kernel's offsets end at INT64_MAX. */
	fi->maxfilesize = fr.maxfilesize && fr.maxfilesize < INT64_MAX
				  ? fr.maxfilesize
				  : INT64_MAX;
	fi->time_delta = fr.time_delta;
	fi->properties = fr.properties;
	s->nfs.rsize = xfer_size(s->o->rsize, s->o->proto_udp, fr.rtmax,
				 fr.rtpref);
	s->nfs.wsize = xfer_size(s->o->wsize, s->o->proto_udp, fr.wtmax,
				 fr.wtpref);
	/* NFSv2 moves at most 8 KiB per READ or WRITE (RFC 1094). */
	if (s->nfs.v->vers == NFS2_VERSION && s->nfs.rsize > NFS2_MAXDATA)
		s->nfs.rsize = NFS2_MAXDATA;
	if (s->nfs.v->vers == NFS2_VERSION && s->nfs.wsize > NFS2_MAXDATA)
		s->nfs.wsize = NFS2_MAXDATA;
	s->nfs.dsize = s->nfs.rsize < DEFAULT_DIRSIZE ? s->nfs.rsize
						      : DEFAULT_DIRSIZE;

	ret = nfs_call(&s->nfs, NFS3PROC_GETATTR, &s->cred, &ga, &gr, NULL,
		       NULL);
	if (ret == 0 && gr.status != NFS3_OK)
		ret = nfs_stat_errno(gr.status);
	if (ret) {
		set_err(err, errlen, "GETATTR of the export failed: %s",
			strerror(-ret));
		return -1;
	}
	if (gr.obj_attributes.type != NF3DIR) {
		set_err(err, errlen, "the export is not a directory");
		return -1;
	}
	nf_log(NF_LOG_INFO, "mounted %s:%s vers=%u rsize=%u wsize=%u "
	       "dirsize=%u time_delta=%lld.%09us", s->o->host,
	       s->o->export_path,
	       s->nfs.v->vers, s->nfs.rsize, s->nfs.wsize, s->nfs.dsize,
	       (long long)fr.time_delta.seconds, fr.time_delta.nseconds);
	return 0;
}

/* MOUNT, connect and probe with one NFS version; undone on failure. */
static int open_version(struct session *s, const struct nfs_version *v,
			char *err, size_t errlen)
{
	int ret;

	s->nfs.v = v;
	s->mountvers = s->o->mountvers;
	if (!s->mountvers)
		s->mountvers = v->vers == NFS2_VERSION ? MNT_V1 : MNT_V3;
	ret = do_mount(s, err, errlen);
	if (!ret)
		ret = connect_nfs(s, err, errlen);
	if (!ret)
		ret = probe_root(s, err, errlen);
	if (ret)
		session_close(s);
	return ret;
}

/* Where the NFSv4 host id lives: statedir=, else the parent of the lock
 * state directories (the same rules as lock/lockmgr.c). */
static char *v4_statedir(const struct nfsfuse_opts *o)
{
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	uint32_t uid = geteuid();
	char *p = NULL;
	int n;

	if (o->statedir)
		return strdup(o->statedir);
	userns_uid_out(uid, &uid);
	if (xdg && *xdg == '/')
		n = asprintf(&p, "%s/nfsfuse", xdg);
	else if (home && *home == '/' && strcmp(home, "/") &&
		 access(home, W_OK) == 0)
		n = asprintf(&p, "%s/.local/state/nfsfuse", home);
	else if (uid == 0)
		n = asprintf(&p, "/var/lib/nfsfuse");
	else
		n = asprintf(&p, "/tmp/nfsfuse-%u", (unsigned)uid);
	return n < 0 ? NULL : p;
}

static int v4_owner(struct session *s, char *owner, size_t len)
{
	char hostid[NFS4_HOSTID_LEN + 1], host[RPC_ADDR_HOSTLEN];
	char *dir = v4_statedir(s->o), *mnt;
	int ret = dir ? nfs4_hostid_load(dir, hostid) : -ENOMEM;

	if (ret)
		nf_log(NF_LOG_WARNING, "NFSv4 host id not kept in %s (%s): "
		       "a restart of this mount will look like another client",
		       dir ? dir : "the state directory", strerror(-ret));
	free(dir);
	mnt = s->o->mountpoint ? realpath(s->o->mountpoint, NULL) : NULL;
	ret = nfs4_owner_make(hostid, s->cred.uid,
			      rpc_addr_host(&s->addr, host, sizeof(host)),
			      s->o->export_path,
			      mnt ? mnt : s->o->mountpoint ? s->o->mountpoint
							   : "", owner, len);
	free(mnt);
	return ret < 0 ? ret : 0;
}

/* Connect to NFSv4 (no portmapper: 2049 unless port=), start the client
 * id and session at minor version minor, walk to the export. */
static int open_v4_minor(struct session *s, uint32_t minor, char *err,
			 size_t errlen)
{
	const struct nfsfuse_opts *o = s->o;
	char name[300], owner[NFS4_OWNER_MAX + 1];
	struct rpc_clnt_opts ro = {
		.proto = IPPROTO_TCP,
		.timeo_ds = o->timeo,
		.retrans = o->retrans,
		.soft = o->soft,
		.timeout_eio = o->soft && !o->softerr,
		.server = name,
		.proc_names = nfs_version4.names,
		.nprocs = nfs_version4.nnames,
	};
	struct rpc_addr sa = s->addr;
	const char *failed;
	size_t failed_len;
	int ret;

	s->nfs.v = &nfs_version4;
	snprintf(name, sizeof(name), "server %s", o->host);
	rpc_addr_set_port(&sa, (uint16_t)(o->port ? o->port : 2049));
	/* One connection: more would need session trunking (nconnect=
	 * is NFSv3's). */
	if (o->nconnect > 1)
		nf_log(NF_LOG_INFO, "nconnect=%u: NFSv4 uses one connection",
		       o->nconnect);
	ret = rpc_clnt_create(&sa.u.sa, sa.len, NFS4_PROGRAM, NFS4_VERSION,
			      &ro, &s->nfs.conns[0]);
	if (ret == 0) {
		s->nfs.nconns = 1;
		s->nfs.rpc = s->nfs.conns[0];
	}
	if (ret) {
		set_err(err, errlen, "cannot connect to NFSv4 on port %u: %s",
			o->port ? o->port : 2049, strerror(-ret));
		return ret;
	}
	rpc_clnt_set_trace(s->nfs.rpc, rpc_trace, NULL);
	ret = v4_owner(s, owner, sizeof(owner));
	if (ret) {
		set_err(err, errlen, "NFSv4 client owner: %s", strerror(-ret));
		return ret;
	}
	s->v4_started = true;
	ret = nfs4_session_start(&s->v4, s->nfs.rpc, minor, &s->cred, owner,
				 err, errlen);
	if (ret)
		return ret;
	s->nfs.v4 = &s->v4;
	if (!s->nfs.v4opens)
		s->nfs.v4opens = nfs4_opens_new();
	if (!s->nfs.v4opens) {
		set_err(err, errlen, "out of memory");
		return -ENOMEM;
	}
	nfs4_reclaim_register(&s->nfs);
	ret = nfs4_delegs_start(&s->nfs);
	if (ret) {
		set_err(err, errlen, "NFSv4 delegations: %s", strerror(-ret));
		return ret;
	}
	ret = nfs4_root_fh(&s->nfs, &s->cred, o->export_path, &s->nfs.root,
			   &failed, &failed_len);
	if (ret) {
		set_err(err, errlen, "NFSv4 path '%s' not found from the "
			"server's root%s%.*s%s: %s", o->export_path,
			failed ? " (at '" : "", (int)failed_len,
			failed ? failed : "", failed ? "')" : "",
			strerror(-ret));
		return ret == -EPROTONOSUPPORT ? -EIO : ret;
	}
	return probe_root(s, err, errlen);
}

/* NFSv4.x: the minor version asked for, or the highest both speak. */
static int open_v4(struct session *s, char *err, size_t errlen)
{
	unsigned want = s->o->minorversion;
	int ret = -EPROTONOSUPPORT;

	for (unsigned m = OPTS_MINOR_MAX; m >= OPTS_MINOR_MIN; m--) {
		if (want != OPTS_MINOR_ANY && m != want)
			continue;
		ret = open_v4_minor(s, m, err, errlen);
		if (ret)
			session_close(s);
		if (ret != -EPROTONOSUPPORT)
			break;
		nf_log(NF_LOG_INFO, "%s", err);
	}
	return ret;
}

/* Every step with one address; -1 or a negative errno as open_version. */
static int open_at(struct session *s, char *err, size_t errlen)
{
	const struct nfsfuse_opts *o = s->o;
	int ret, v3;

	if (o->vers == 2)
		return open_version(s, &nfs_version2, err, errlen);
	if (o->vers == 4)
		return open_v4(s, err, errlen);
	ret = v3 = open_version(s, &nfs_version3, err, errlen);
	/* vers= absent: the highest NFSv4.x when the server has no v3
	 * (MOUNT v3 or NFS v3 not registered, PROG_MISMATCH, or no
	 * portmapper at all, as on NFSv4-only servers), then NFSv2.
	 * mountvers=3 asks for v3 handles: v3 only. */
	if ((ret == -EPROTONOSUPPORT || ret == -ECONNREFUSED) && o->vers == 0 &&
	    !o->mountvers) {
		nf_log(NF_LOG_INFO, "%s: trying NFSv4", err);
		ret = open_v4(s, err, errlen);
	}
	if (ret == -EPROTONOSUPPORT || ret == -ECONNREFUSED) {
		if (v3 == -EPROTONOSUPPORT && o->vers == 0 &&
		    o->mountvers != MNT_V3) {
			nf_log(NF_LOG_INFO, "%s: trying NFS version 2", err);
			ret = open_version(s, &nfs_version2, err, errlen);
		}
	}
	return ret;
}

int session_open(struct session *s, const struct nfsfuse_opts *o, char *err,
		 size_t errlen)
{
	struct rpc_addr addrs[SESSION_MAX_ADDRS];
	char host[RPC_ADDR_HOSTLEN];
	int n, ret = -1;

	memset(s, 0, sizeof(*s));
	s->o = o;
	if (o->hostname)
		snprintf(s->machinename, sizeof(s->machinename), "%s",
			 o->hostname);
	else if (gethostname(s->machinename, sizeof(s->machinename) - 1))
		snprintf(s->machinename, sizeof(s->machinename), "localhost");
	s->cred.flavor = RPC_AUTH_SYS;
	s->cred.machinename = s->machinename;
	s->cred.uid = getuid();
	s->cred.gid = getgid();
	userns_cred_wire(&s->cred, o->uid, o->gid);

	n = session_resolve(o->host, addrs, SESSION_MAX_ADDRS, err, errlen);
	/* Each address of the name in getaddrinfo()'s order (RFC 6724:
	 * IPv6 first where it is usable), until one answers: a server that
	 * answers with a refusal is not asked again at another address. */
	for (int i = 0; i < n; i++) {
		s->addr = addrs[i];
		ret = open_at(s, err, errlen);
		if (ret == 0 || !session_unreachable(ret) || i + 1 == n)
			break;
		nf_log(NF_LOG_INFO, "%s at %s: %s; trying its next address",
		       o->host, rpc_addr_host(&addrs[i], host, sizeof(host)),
		       err);
	}
	return ret ? -1 : 0;
}

void session_close(struct session *s)
{
	int ret;

	if (s->v4_started) {
		nfs4_delegs_stop(&s->nfs);
		nfs4_session_stop(&s->v4);
		s->v4_started = false;
		s->nfs.v4 = NULL;
		nfs4_opens_free(s->nfs.v4opens);
		s->nfs.v4opens = NULL;
	}
	if (s->acl) {
		rpc_clnt_destroy(s->acl);
		s->acl = NULL;
	}
	for (unsigned i = 0; i < s->nfs.nconns; i++) {
		rpc_clnt_destroy(s->nfs.conns[i]);
		s->nfs.conns[i] = NULL;
	}
	s->nfs.nconns = 0;
	s->nfs.rpc = NULL;
	if (s->mounted) {
		ret = mnt_umount(&s->addr, (uint16_t)s->o->mountport,
				 s->mountvers, mount_proto(s->o),
				 s->o->resvport,
				 s->o->export_path, &s->cred);
		if (ret)
			nf_log(NF_LOG_INFO, "UMNT failed: %s", strerror(-ret));
		s->mounted = false;
	}
}
