/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "rquota_client.h"

#include <errno.h>
#include <string.h>

#include "oneshot.h"
#include "pmap_client.h"

/* Soft and short, as for the portmapper: a quota is information, and an
 * rquotad that does not answer in 5 s (and once more) is not there. */
#define RQUOTA_TIMEO_DS 50u
#define RQUOTA_RETRANS 1u

void rquota_stats_init(struct rquota_stats *s)
{
	memset(s->proc, 0, sizeof(s->proc));
	pthread_mutex_init(&s->lock, NULL);
}

void rquota_stats_destroy(struct rquota_stats *s)
{
	pthread_mutex_destroy(&s->lock);
}

int rquota_stats_get(struct rquota_stats *s, uint32_t proc,
		     struct rpc_proc_stats *out)
{
	if (proc >= RQUOTAPROC_COUNT)
		return -EINVAL;
	pthread_mutex_lock(&s->lock);
	*out = s->proc[proc];
	pthread_mutex_unlock(&s->lock);
	return 0;
}

/* Add the counters of one call of proc to s. */
static void stats_add(struct rquota_stats *s, uint32_t proc,
		      const struct rpc_proc_stats *st)
{
	struct rpc_proc_stats *t = &s->proc[proc];

	pthread_mutex_lock(&s->lock);
	t->calls += st->calls;
	t->retrans += st->retrans;
	t->errors += st->errors;
	t->bytes_sent += st->bytes_sent;
	t->bytes_recv += st->bytes_recv;
	t->rtt_us_total += st->rtt_us_total;
	t->exe_us_total += st->exe_us_total;
	if (st->rtt_us_p99 > t->rtt_us_p99)
		t->rtt_us_p99 = st->rtt_us_p99;
	pthread_mutex_unlock(&s->lock);
}

int rquota_locate(const struct rpc_addr *server, int proto,
		  struct rquota_server *rs)
{
	uint16_t port;
	int ret;

	memset(rs, 0, sizeof(*rs));
	rs->vers = RQUOTA_V2;
	ret = pmap_clnt_getport(server, RQUOTA_PROGRAM, RQUOTA_V2, proto,
				&port);
	if (ret == -EPROTONOSUPPORT) {
		/* An rquotad from before EXT_RQUOTAVERS: users only. */
		rs->vers = RQUOTA_V1;
		ret = pmap_clnt_getport(server, RQUOTA_PROGRAM, RQUOTA_V1,
					proto, &port);
	}
	if (ret)
		return ret;
	rs->addr = *server;
	rpc_addr_set_port(&rs->addr, port);
	rs->proto = proto;
	return 0;
}

/* One GETQUOTA with version vers at addr; the reply's status as -errno. */
static int getquota_at(const struct rpc_addr *addr, int proto,
		       uint32_t vers, const struct rpc_cred *cred,
		       const struct rquota_getquota_args *args,
		       struct rquota_dqblk *q, struct rquota_stats *stats)
{
	struct oneshot_peer peer = {
		.addr = *addr,
		.proto = proto,
		.resvport = false,
		.timeo_ds = RQUOTA_TIMEO_DS,
		.retrans = RQUOTA_RETRANS,
		.service = "rquotad",
		.prog = RQUOTA_PROGRAM,
		.vers = vers,
		.proc_names = rquota_proc_names,
		.nprocs = RQUOTAPROC_COUNT,
	};
	struct rquota_getquota_res res;
	struct rpc_proc_stats st;
	int ret;

	ret = oneshot_call(&peer, RQUOTAPROC_GETQUOTA, cred,
			   vers == RQUOTA_V2 ? rquota_enc_getquota2_args
					     : rquota_enc_getquota1_args,
			   args, rquota_dec_getquota_res, &res, NULL,
			   stats ? &st : NULL);
	if (stats && st.calls)
		stats_add(stats, RQUOTAPROC_GETQUOTA, &st);
	if (ret)
		return ret;
	ret = rquota_stat_errno(res.status);
	if (ret == 0)
		*q = res.q;
	return ret;
}

int rquota_getquota(const struct rquota_server *rs,
		    const struct rpc_cred *cred, const char *path,
		    uint32_t type, uint32_t id, struct rquota_dqblk *q,
		    struct rquota_stats *stats)
{
	struct rquota_getquota_args args = { path, type, id };
	struct rpc_addr v1 = rs->addr;
	uint16_t port;
	int ret;

	if (strlen(path) > RQUOTA_PATHLEN)
		return -ENAMETOOLONG;
	if (type != RQUOTA_USRQUOTA && type != RQUOTA_GRPQUOTA)
		return -EINVAL;
	if (rs->vers == RQUOTA_V1)
		return type == RQUOTA_USRQUOTA
			       ? getquota_at(&rs->addr, rs->proto, RQUOTA_V1,
					     cred, &args, q, stats)
			       : -EOPNOTSUPP;
	ret = getquota_at(&rs->addr, rs->proto, RQUOTA_V2, cred, &args, q,
			  stats);
	if (ret != -EPROTONOSUPPORT || type != RQUOTA_USRQUOTA)
		return ret;
	/* Registered as v2 but refusing it (a program mismatch): v1 still
	 * answers for users, on whatever port it is registered at. */
	ret = pmap_clnt_getport(&rs->addr, RQUOTA_PROGRAM, RQUOTA_V1, rs->proto,
				&port);
	if (ret)
		return ret;
	rpc_addr_set_port(&v1, port);
	return getquota_at(&v1, rs->proto, RQUOTA_V1, cred, &args, q, stats);
}

const char *rquota_strerror(int err)
{
	switch (err) {
	case 0:
		return "success";
	case -ESRCH:
		return "no quota";
	case -EPERM:
		return "the server's rquotad refused to tell (Q_EPERM)";
	case -EOPNOTSUPP:
		return "the server's rquotad speaks RQUOTA v1 only, which "
		       "has no group quotas";
	case -EPROTONOSUPPORT:
		return "the server has no rquotad (RQUOTA not registered "
		       "with its portmapper)";
	case -ECONNREFUSED:
		return "connection refused (no portmapper or rquotad "
		       "listening)";
	case -ETIMEDOUT:
		return "no answer from the server's rquotad (timed out)";
	case -EHOSTUNREACH:
	case -ENETUNREACH:
		return "server unreachable";
	case -EACCES:
		return "credentials refused by the server's rquotad (RPC "
		       "auth error)";
	case -EIO:
		return "malformed reply from the server's rquotad";
	case -ENAMETOOLONG:
		return "export path too long for RQUOTA (over 1024 bytes)";
	case -EINVAL:
		return "invalid argument";
	case -ENOMEM:
		return "out of memory";
	default:
		return strerrordesc_np(-err) ? strerrordesc_np(-err)
					     : "unknown error";
	}
}
