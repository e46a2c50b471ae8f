/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "session.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "proto/mount_client.h"
#include "proto/pmap_client.h"
#include "trace.h"

/* Largest transfer we ask for when the user sets none: what the Linux
 * client settles on with servers that offer more. */
#define DEFAULT_XFER (1u << 20)
#define DEFAULT_DIRSIZE (64u << 10)

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static int resolve(const char *host, struct sockaddr_in *sa, char *err,
		   size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_INET,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *res;
	int ret = getaddrinfo(host, NULL, &hints, &res);

	if (ret) {
		set_err(err, errlen, "cannot resolve server '%s': %s", host,
			gai_strerror(ret));
		return -1;
	}
	memcpy(sa, res->ai_addr, sizeof(*sa));
	freeaddrinfo(res);
	return 0;
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

static int do_mount(struct session *s, char *err, size_t errlen)
{
	const struct nfsfuse_opts *o = s->o;
	uint32_t flavors[MNT_MAXFLAVORS], mntstat;
	size_t nflavors = MNT_MAXFLAVORS;
	bool sys_ok = false;
	int ret;

	ret = mnt_mount(&s->addr, (uint16_t)o->mountport, o->mountvers,
			IPPROTO_TCP, o->resvport, o->export_path, &s->cred,
			&s->nfs.root, flavors, &nflavors, &mntstat);
	if (ret) {
		char ex[512] = "";
		struct mnt_export *list;
		size_t n;

		/* The server answered: say what it does export. */
		if (mntstat != MNT_STAT_NONE &&
		    mnt_export_list(&s->addr, (uint16_t)o->mountport,
				    IPPROTO_TCP, &list, &n) == 0) {
			mnt_export_list_str(list, n, ex, sizeof(ex));
			mnt_export_list_free(list, n);
		}
		set_err(err, errlen, "mount failed: %s%s%s%s",
			mnt_strerror(ret, mntstat), *ex ? " (exports: " : "",
			ex, *ex ? ")" : "");
		return -1;
	}
	s->mounted = true;
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

static int connect_nfs(struct session *s, char *err, size_t errlen)
{
	const struct nfsfuse_opts *o = s->o;
	struct rpc_clnt_opts ro = {
		.proto = IPPROTO_TCP,
		.resvport = o->resvport,
		.timeo_ds = o->timeo,
		.retrans = o->retrans,
		.soft = o->soft,
		.server = o->host,
		.proc_names = nfs_version3.names,
		.nprocs = nfs_version3.nnames,
	};
	struct sockaddr_in sa = s->addr;
	uint16_t port = (uint16_t)o->port;
	int ret;

	if (!port) {
		ret = pmap_getport(&s->addr, NFS3_PROGRAM, NFS3_VERSION,
				   IPPROTO_TCP, &port);
		if (ret == -EPROTONOSUPPORT) {
			set_err(err, errlen, "server does not offer NFS "
				"version 3 over TCP");
			return -1;
		}
		if (ret) {
			set_err(err, errlen, "cannot ask the portmapper for "
				"the NFS port: %s", strerror(-ret));
			return -1;
		}
	}
	sa.sin_port = htons(port);
	ret = rpc_clnt_create((struct sockaddr *)&sa, sizeof(sa), NFS3_PROGRAM,
			      NFS3_VERSION, &ro, &s->nfs.rpc);
	if (ret) {
		set_err(err, errlen, "cannot connect to NFS on port %u: %s",
			port, strerror(-ret));
		return -1;
	}
	rpc_clnt_set_trace(s->nfs.rpc, rpc_trace, NULL);
	s->nfs.v = &nfs_version3;
	return 0;
}

static uint32_t xfer_size(unsigned want, uint32_t max, uint32_t pref)
{
	uint32_t size = want ? want : DEFAULT_XFER;

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
		set_err(err, errlen, "FSINFO of the export failed: %s",
			strerror(-ret));
		return -1;
	}
	fi->rtmax = fr.rtmax;
	fi->rtpref = fr.rtpref;
	fi->wtmax = fr.wtmax;
	fi->wtpref = fr.wtpref;
	fi->dtpref = fr.dtpref;
	fi->maxfilesize = fr.maxfilesize;
	fi->time_delta = fr.time_delta;
	fi->properties = fr.properties;
	s->nfs.rsize = xfer_size(s->o->rsize, fr.rtmax, fr.rtpref);
	s->nfs.wsize = xfer_size(s->o->wsize, fr.wtmax, fr.wtpref);
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
	nf_log(NF_LOG_INFO, "mounted %s:%s rsize=%u wsize=%u dirsize=%u "
	       "time_delta=%u.%09us", s->o->host, s->o->export_path,
	       s->nfs.rsize, s->nfs.wsize, s->nfs.dsize,
	       fr.time_delta.seconds, fr.time_delta.nseconds);
	return 0;
}

int session_open(struct session *s, const struct nfsfuse_opts *o, char *err,
		 size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->o = o;
	if (o->proto_udp) {
		set_err(err, errlen, "proto=udp is not supported yet");
		return -1;
	}
	if (o->vers != 3) {
		set_err(err, errlen, "vers=%u is not supported yet", o->vers);
		return -1;
	}
	if (o->hostname)
		snprintf(s->machinename, sizeof(s->machinename), "%s",
			 o->hostname);
	else if (gethostname(s->machinename, sizeof(s->machinename) - 1))
		snprintf(s->machinename, sizeof(s->machinename), "localhost");
	s->cred.flavor = RPC_AUTH_SYS;
	s->cred.machinename = s->machinename;
	s->cred.uid = getuid();
	s->cred.gid = getgid();

	if (resolve(o->host, &s->addr, err, errlen))
		return -1;
	if (do_mount(s, err, errlen) || connect_nfs(s, err, errlen) ||
	    probe_root(s, err, errlen)) {
		session_close(s);
		return -1;
	}
	return 0;
}

void session_close(struct session *s)
{
	int ret;

	if (s->nfs.rpc) {
		rpc_clnt_destroy(s->nfs.rpc);
		s->nfs.rpc = NULL;
	}
	if (s->mounted) {
		ret = mnt_umount(&s->addr, (uint16_t)s->o->mountport,
				 s->o->mountvers, IPPROTO_TCP, s->o->resvport,
				 s->o->export_path, &s->cred);
		if (ret)
			nf_log(NF_LOG_INFO, "UMNT failed: %s", strerror(-ret));
		s->mounted = false;
	}
}
