/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The commands of the control socket: one table line each.  A command
 * writes its answer to out and returns CTL_DONE, or writes one line of
 * explanation and returns CTL_ERROR.
 */
#include "ctl_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../rpc/rpc.h"
#include "../base/clock.h"
#include "../base/stats.h"

#define CTL_MAX_ARGS 64

void ctl_printf(struct ctl_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_string_append_vprintf(o->s, fmt, ap);
	va_end(ap);
}

const struct ctl_peer *ctl_out_peer(const struct ctl_out *o)
{
	return o->peer;
}

void ctl_json_string(GString *g, const char *s)
{
	g_string_append_c(g, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			g_string_append(g, "\\\"");
			break;
		case '\\':
			g_string_append(g, "\\\\");
			break;
		case '\n':
			g_string_append(g, "\\n");
			break;
		case '\t':
			g_string_append(g, "\\t");
			break;
		default:
			if (*p < 0x20)
				g_string_append_printf(g, "\\u%04x", *p);
			else
				g_string_append_c(g, (char)*p);
		}
	}
	g_string_append_c(g, '"');
}

void ctl_stat_u64(struct ctl_stats *s, const char *name, uint64_t value)
{
	if (s->prom_labels) {
		g_string_append_printf(s->s, "# TYPE nfsfuse_%s untyped\n"
				       "nfsfuse_%s{%s} %" PRIu64 "\n", name,
				       name, s->prom_labels, value);
	} else if (s->json) {
		g_string_append(s->s, ",\n  ");
		ctl_json_string(s->s, name);
		g_string_append_printf(s->s, ": %" PRIu64, value);
	} else {
		g_string_append_printf(s->s, "%s %" PRIu64 "\n", name, value);
	}
}

void ctl_stat_str(struct ctl_stats *s, const char *name, const char *value)
{
	if (s->prom_labels) {
		g_string_append_printf(s->s, "# TYPE nfsfuse_%s_info gauge\n"
				       "nfsfuse_%s_info{%s,value=", name, name,
				       s->prom_labels);
		ctl_prom_label_value(s->s, value);
		g_string_append(s->s, "} 1\n");
	} else if (s->json) {
		g_string_append(s->s, ",\n  ");
		ctl_json_string(s->s, name);
		g_string_append(s->s, ": ");
		ctl_json_string(s->s, value);
	} else {
		g_string_append_printf(s->s, "%s %s\n", name, value);
	}
}

/* A hook failed with err: keep its message, or say what err means. */
static enum ctl_result hook_error(struct ctl_out *out, int err)
{
	if (out->s->len == 0)
		ctl_printf(out, "%s", strerror(err < 0 ? -err : err));
	return CTL_ERROR;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno == 0 && *end == '\0';
}

/* ---- stats ---- */

/* Where a table of per-procedure counters comes from: the NFS client,
 * or one of hooks->progs. */
struct rpc_src {
	const struct ctl_hooks *h;
	const struct ctl_rpc_prog *prog; /* NULL: the NFS client */
};

static unsigned src_nprocs(const struct rpc_src *r)
{
	if (r->prog)
		return r->prog->nprocs;
	return r->h->rpc ? r->h->nprocs : 0;
}

/* The sum over the connections of the NFS client; p99 is the worst. */
static int conns_get(const struct ctl_hooks *h, unsigned p,
		     struct rpc_proc_stats *st)
{
	struct rpc_proc_stats one;
	int ret;

	memset(st, 0, sizeof(*st));
	for (unsigned i = 0; i < h->nconns; i++) {
		ret = rpc_clnt_get_stats(h->conns[i], p, &one);
		if (ret)
			return ret;
		st->calls += one.calls;
		st->retrans += one.retrans;
		st->errors += one.errors;
		st->bytes_sent += one.bytes_sent;
		st->bytes_recv += one.bytes_recv;
		st->rtt_us_total += one.rtt_us_total;
		st->exe_us_total += one.exe_us_total;
		if (one.rtt_us_p99 > st->rtt_us_p99)
			st->rtt_us_p99 = one.rtt_us_p99;
	}
	return 0;
}

static int src_get(const struct rpc_src *r, unsigned p,
		   struct rpc_proc_stats *st)
{
	if (r->prog)
		return r->prog->get(r->h->ctx, p, st);
	if (r->h->nconns > 1)
		return conns_get(r->h, p, st);
	return rpc_clnt_get_stats(r->h->rpc, p, st);
}

static uint64_t dropped_replies(const struct ctl_hooks *h)
{
	uint64_t n = 0;

	if (h->nconns == 0)
		return rpc_clnt_dropped_replies(h->rpc);
	for (unsigned i = 0; i < h->nconns; i++)
		n += rpc_clnt_dropped_replies(h->conns[i]);
	return n;
}

/* One connection of the NFS client, all procedures together. */
struct conn_stats {
	int local_port;     /* negative before the first connection */
	uint64_t connects;  /* 1, and one more per reconnection */
	struct rpc_proc_stats st;
};

static void conn_stats(const struct ctl_hooks *h, unsigned i,
		       struct conn_stats *cs)
{
	struct rpc_proc_stats one;

	memset(cs, 0, sizeof(*cs));
	cs->local_port = rpc_clnt_local_port(h->conns[i]);
	cs->connects = rpc_clnt_connects(h->conns[i]);
	for (unsigned p = 0; p < h->nprocs; p++) {
		if (rpc_clnt_get_stats(h->conns[i], p, &one))
			continue;
		cs->st.calls += one.calls;
		cs->st.retrans += one.retrans;
		cs->st.errors += one.errors;
		cs->st.bytes_sent += one.bytes_sent;
		cs->st.bytes_recv += one.bytes_recv;
	}
}

static void stats_conns_text(const struct ctl_hooks *h, GString *g)
{
	struct conn_stats cs;

	g_string_append_printf(g, "\nconnections:\n%-4s %6s %8s %10s %8s "
			       "%8s %14s %14s\n", "#", "port", "connects",
			       "calls", "retrans", "errors", "bytes out",
			       "bytes in");
	for (unsigned i = 0; i < h->nconns; i++) {
		conn_stats(h, i, &cs);
		g_string_append_printf(
			g, "%-4u %6d %8" PRIu64 " %10" PRIu64 " %8" PRIu64
			" %8" PRIu64 " %14" PRIu64 " %14" PRIu64 "\n", i,
			cs.local_port > 0 ? cs.local_port : 0, cs.connects,
			cs.st.calls, cs.st.retrans, cs.st.errors,
			cs.st.bytes_sent, cs.st.bytes_recv);
	}
}

static void stats_conns_json(const struct ctl_hooks *h, GString *g)
{
	struct conn_stats cs;

	g_string_append(g, ",\n  \"connections\": [");
	for (unsigned i = 0; i < h->nconns; i++) {
		conn_stats(h, i, &cs);
		g_string_append_printf(
			g, "%s\n    {\"local_port\": %d, \"connects\": %"
			PRIu64 ", \"calls\": %" PRIu64 ", \"retrans\": %"
			PRIu64 ", \"errors\": %" PRIu64 ", \"bytes_sent\": %"
			PRIu64 ", \"bytes_recv\": %" PRIu64 "}",
			i ? "," : "", cs.local_port > 0 ? cs.local_port : 0,
			cs.connects, cs.st.calls, cs.st.retrans, cs.st.errors,
			cs.st.bytes_sent, cs.st.bytes_recv);
	}
	g_string_append(g, h->nconns ? "\n  ]" : "]");
}

static void stats_conns_prometheus(const struct ctl_hooks *h,
				   const char *labels, GString *g)
{
	struct conn_stats cs;

	if (!h->nconns)
		return;
	g_string_append(g, "# HELP nfsfuse_rpc_connection_calls_total RPC "
			"calls finished on one connection to the NFS server\n"
			"# TYPE nfsfuse_rpc_connection_calls_total counter\n");
	for (unsigned i = 0; i < h->nconns; i++) {
		conn_stats(h, i, &cs);
		g_string_append_printf(g, "nfsfuse_rpc_connection_calls_total"
				       "{%s,connection=\"%u\"} %" PRIu64 "\n",
				       labels, i, cs.st.calls);
	}
	g_string_append(g, "# HELP nfsfuse_rpc_connection_connects_total "
			"connections made (1, and 1 more per reconnection)\n"
			"# TYPE nfsfuse_rpc_connection_connects_total counter\n");
	for (unsigned i = 0; i < h->nconns; i++)
		g_string_append_printf(g, "nfsfuse_rpc_connection_connects_total"
				       "{%s,connection=\"%u\"} %" PRIu64 "\n",
				       labels, i,
				       rpc_clnt_connects(h->conns[i]));
}

static const char *proc_name(const struct rpc_src *r, unsigned p,
			     char *buf, size_t len)
{
	const char *const *names =
		r->prog ? r->prog->proc_names : r->h->proc_names;

	if (names && names[p])
		return names[p];
	snprintf(buf, len, "PROC%u", p);
	return buf;
}

static double mean_ms(const struct rpc_proc_stats *st)
{
	return st->calls ? (double)st->rtt_us_total / (double)st->calls / 1e3
			 : 0.0;
}

static void stats_rpc_text(const struct rpc_src *r, GString *g)
{
	struct rpc_proc_stats st;
	char buf[16];
	bool any = false;

	g_string_append_printf(g, "%-12s %10s %8s %8s %14s %14s %9s %9s\n",
			       "procedure", "calls", "retrans", "errors",
			       "bytes out", "bytes in", "mean ms", "p99 ms");
	for (unsigned p = 0; p < src_nprocs(r); p++) {
		if (src_get(r, p, &st) || st.calls == 0)
			continue;
		any = true;
		g_string_append_printf(
			g,
			"%-12s %10" PRIu64 " %8" PRIu64 " %8" PRIu64
			" %14" PRIu64 " %14" PRIu64 " %9.3f %9.3f\n",
			proc_name(r, p, buf, sizeof(buf)), st.calls,
			st.retrans, st.errors, st.bytes_sent, st.bytes_recv,
			mean_ms(&st), (double)st.rtt_us_p99 / 1e3);
	}
	if (!any)
		g_string_append(g, "(no calls yet)\n");
}

/* Every procedure, calls or not, so that scripts find every key: the
 * members of a JSON object, indented by two. */
static void stats_rpc_json(const struct rpc_src *r, GString *g)
{
	struct rpc_proc_stats st;
	char buf[16];
	bool first = true;

	g_string_append(g, "{");
	for (unsigned p = 0; p < src_nprocs(r); p++) {
		if (src_get(r, p, &st))
			continue;
		g_string_append(g, first ? "\n    " : ",\n    ");
		first = false;
		ctl_json_string(g, proc_name(r, p, buf, sizeof(buf)));
		g_string_append_printf(
			g,
			": {\"calls\": %" PRIu64 ", \"retrans\": %" PRIu64
			", \"errors\": %" PRIu64 ", \"bytes_sent\": %" PRIu64
			", \"bytes_recv\": %" PRIu64
			", \"mean_ms\": %.3f, \"p99_ms\": %.3f"
			", \"rtt_us_total\": %" PRIu64
			", \"exe_us_total\": %" PRIu64 "}",
			st.calls, st.retrans, st.errors, st.bytes_sent,
			st.bytes_recv, mean_ms(&st),
			(double)st.rtt_us_p99 / 1e3, st.rtt_us_total,
			st.exe_us_total);
	}
	g_string_append(g, first ? "}" : "\n  }");
}

/*
 * Prometheus text exposition format (version 0.0.4), for node_exporter's
 * textfile collector.  The metric names are documented in nfsfusectl(8)
 * and must not change: dashboards and alerts name them.
 */
void ctl_prom_label_value(GString *g, const char *v)
{
	g_string_append_c(g, '"');
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			g_string_append_c(g, '\\');
		if (*v == '\n')
			g_string_append(g, "\\n");
		else
			g_string_append_c(g, *v);
	}
	g_string_append_c(g, '"');
}

static const struct prom_rpc_metric {
	const char *name;
	const char *help;
	bool seconds;       /* a microsecond total, shown in seconds */
	size_t off;         /* into struct rpc_proc_stats */
} prom_rpc_metrics[] = {
	{ "calls", "RPC calls finished", false,
	  offsetof(struct rpc_proc_stats, calls) },
	{ "retransmissions", "RPC calls sent again", false,
	  offsetof(struct rpc_proc_stats, retrans) },
	{ "errors", "RPC calls failed (transport or RPC-level)", false,
	  offsetof(struct rpc_proc_stats, errors) },
	{ "sent_bytes", "bytes of RPC calls sent", false,
	  offsetof(struct rpc_proc_stats, bytes_sent) },
	{ "received_bytes", "bytes of RPC replies received", false,
	  offsetof(struct rpc_proc_stats, bytes_recv) },
	{ "rtt_seconds", "time from sending to the reply, summed", true,
	  offsetof(struct rpc_proc_stats, rtt_us_total) },
	{ "execute_seconds", "time from queueing to the end, summed", true,
	  offsetof(struct rpc_proc_stats, exe_us_total) },
};

static void prom_rpc(struct ctl *c, const struct prom_rpc_metric *m,
		     const char *labels, GString *g)
{
	struct rpc_proc_stats st;
	char buf[16];

	g_string_append_printf(g, "# HELP nfsfuse_rpc_%s_total %s\n"
			       "# TYPE nfsfuse_rpc_%s_total counter\n",
			       m->name, m->help, m->name);
	for (unsigned i = 0; i <= c->h.nprogs; i++) {
		struct rpc_src r = { &c->h, i ? &c->h.progs[i - 1] : NULL };

		for (unsigned p = 0; p < src_nprocs(&r); p++) {
			uint64_t v;

			if (src_get(&r, p, &st))
				continue;
			memcpy(&v, (const char *)&st + m->off, sizeof(v));
			g_string_append_printf(
				g, "nfsfuse_rpc_%s_total{%s,program=\"%s\","
				"procedure=\"%s\"} ", m->name, labels,
				r.prog ? r.prog->name : "nfs",
				proc_name(&r, p, buf, sizeof(buf)));
			if (m->seconds)
				g_string_append_printf(g, "%.6f\n",
						       (double)v / 1e6);
			else
				g_string_append_printf(g, "%" PRIu64 "\n", v);
		}
	}
}

static void stats_prometheus(struct ctl *c, struct ctl_stats *s)
{
	GString *labels = g_string_new("mountpoint=");

	ctl_prom_label_value(labels, c->mountpoint);
	g_string_append(labels, ",server=");
	ctl_prom_label_value(labels, c->h.server ? c->h.server : "");
	g_string_append(labels, ",export=");
	ctl_prom_label_value(labels, c->h.export_path ? c->h.export_path : "");
	s->prom_labels = labels->str;
	/* iostat's first report covers the time since the mount. */
	g_string_append_printf(
		s->s, "# HELP nfsfuse_mount_age_seconds seconds since the "
		"mount was made\n# TYPE nfsfuse_mount_age_seconds gauge\n"
		"nfsfuse_mount_age_seconds{%s} %.3f\n", labels->str,
		(double)(clock_mono_ms() - c->started_ms) / 1e3);
	for (size_t i = 0; i < G_N_ELEMENTS(prom_rpc_metrics); i++)
		prom_rpc(c, &prom_rpc_metrics[i], labels->str, s->s);
	if (c->h.rpc)
		g_string_append_printf(
			s->s, "# HELP nfsfuse_rpc_dropped_replies_total "
			"replies that matched no call\n"
			"# TYPE nfsfuse_rpc_dropped_replies_total counter\n"
			"nfsfuse_rpc_dropped_replies_total{%s} %" PRIu64 "\n",
			labels->str, dropped_replies(&c->h));
	stats_conns_prometheus(&c->h, labels->str, s->s);
#define X(name)                                                           \
	g_string_append_printf(s->s, "# TYPE nfsfuse_cache_" #name "_total " \
			       "counter\nnfsfuse_cache_" #name "_total{%s} " \
			       "%" PRIu64 "\n", labels->str, STAT_GET(name));
	CACHE_COUNTERS(X)
#undef X
	if (c->h.stats_extra)
		c->h.stats_extra(c->h.ctx, s);
	s->prom_labels = NULL;
	g_string_free(labels, TRUE);
}

static enum ctl_result cmd_stats(struct ctl *c, int argc, char **argv,
				 struct ctl_out *out)
{
	struct ctl_stats s = { .s = out->s };
	struct rpc_src nfs = { &c->h, NULL };
	const char *sep = "\n    ";

	if (argc == 2 && (!strcmp(argv[1], "prometheus") ||
			  !strcmp(argv[1], "--prometheus"))) {
		stats_prometheus(c, &s);
		return CTL_DONE;
	}
	if (argc > 2 || (argc == 2 && strcmp(argv[1], "json") &&
			 strcmp(argv[1], "--json"))) {
		ctl_printf(out, "usage: stats [json|prometheus]");
		return CTL_ERROR;
	}
	s.json = argc == 2;
	if (s.json) {
		g_string_append(s.s, "{\n  \"mountpoint\": ");
		ctl_json_string(s.s, c->mountpoint);
		g_string_append(s.s, ",\n  \"rpc\": ");
		stats_rpc_json(&nfs, s.s);
		if (c->h.rpc)
			g_string_append_printf(s.s,
					       ",\n  \"dropped_replies\": %" PRIu64,
					       dropped_replies(&c->h));
		stats_conns_json(&c->h, s.s);
		for (unsigned i = 0; i < c->h.nprogs; i++) {
			struct rpc_src r = { &c->h, &c->h.progs[i] };

			g_string_append(s.s, ",\n  ");
			ctl_json_string(s.s, c->h.progs[i].name);
			g_string_append(s.s, ": ");
			stats_rpc_json(&r, s.s);
		}
		g_string_append(s.s, ",\n  \"cache\": {");
#define X(name)                                                        \
	g_string_append_printf(s.s, "%s\"" #name "\": %" PRIu64, sep, \
			       STAT_GET(name));                        \
	sep = ",\n    ";
		CACHE_COUNTERS(X)
#undef X
		g_string_append(s.s, "\n  }");
		if (c->h.stats_extra)
			c->h.stats_extra(c->h.ctx, &s);
		g_string_append(s.s, "\n}\n");
		return CTL_DONE;
	}
	if (c->h.rpc) {
		stats_rpc_text(&nfs, s.s);
		g_string_append_printf(s.s, "dropped replies %" PRIu64 "\n",
				       dropped_replies(&c->h));
		if (c->h.nconns)
			stats_conns_text(&c->h, s.s);
	} else {
		g_string_append(s.s, "(no RPC client)\n");
	}
	for (unsigned i = 0; i < c->h.nprogs; i++) {
		struct rpc_src r = { &c->h, &c->h.progs[i] };

		g_string_append_printf(s.s, "\n%s:\n", c->h.progs[i].name);
		stats_rpc_text(&r, s.s);
	}
	g_string_append(s.s, "\ncache:\n");
#define X(name) \
	g_string_append_printf(s.s, #name " %" PRIu64 "\n", STAT_GET(name));
	CACHE_COUNTERS(X)
#undef X
	if (c->h.stats_extra) {
		g_string_append(s.s, "\n");
		c->h.stats_extra(c->h.ctx, &s);
	}
	return CTL_DONE;
}

/* ---- cache, drop, set ---- */

static enum ctl_result cmd_cache(struct ctl *c, int argc, char **argv,
				 struct ctl_out *out)
{
	uint64_t fileid;
	int ret;

	if (argc < 2 || !parse_u64(argv[1], &fileid)) {
		ctl_printf(out, "usage: cache FILEID [PATH]");
		return CTL_ERROR;
	}
	if (!c->h.describe) {
		ctl_printf(out, "this mount cannot describe its cache");
		return CTL_ERROR;
	}
	if (argc > 2) {
		ctl_printf(out, "path: ");
		for (int i = 2; i < argc; i++)
			ctl_printf(out, "%s%s", i > 2 ? " " : "", argv[i]);
		ctl_printf(out, "\n");
	}
	ctl_printf(out, "fileid: %" PRIu64 "\n", fileid);
	ret = c->h.describe(c->h.ctx, fileid, out);
	if (ret == -ENOENT) {
		g_string_truncate(out->s, 0);
		ctl_printf(out, "nothing cached: the daemon holds no file "
				"with fileid %" PRIu64, fileid);
		return CTL_ERROR;
	}
	if (ret < 0) {
		g_string_truncate(out->s, 0);
		return hook_error(out, ret);
	}
	return CTL_DONE;
}

static enum ctl_result cmd_drop(struct ctl *c, int argc, char **argv,
				struct ctl_out *out)
{
	uint64_t fileid = 0;
	int ret;

	if (argc > 2 || (argc == 2 && !parse_u64(argv[1], &fileid))) {
		ctl_printf(out, "usage: drop [FILEID]");
		return CTL_ERROR;
	}
	if (!c->h.drop) {
		ctl_printf(out, "this mount cannot drop its caches");
		return CTL_ERROR;
	}
	ret = c->h.drop(c->h.ctx, fileid, argc == 1);
	if (ret == -ENOENT && argc == 2) {
		g_string_truncate(out->s, 0);
		ctl_printf(out, "nothing cached: the daemon holds no file "
				"with fileid %" PRIu64, fileid);
		return CTL_ERROR;
	}
	if (ret < 0)
		return hook_error(out, ret);
	if (argc == 1)
		ctl_printf(out, "dropped the caches of every file\n");
	else
		ctl_printf(out, "dropped the caches of fileid %" PRIu64 "\n",
			   fileid);
	return CTL_DONE;
}

/* Options are applied one by one, in order; the first that fails stops
 * the rest, and the answer says which ones took effect. */
static enum ctl_result cmd_set(struct ctl *c, int argc, char **argv,
			       struct ctl_out *out)
{
	struct ctl_out msg;
	int i, ret;

	if (argc < 2) {
		ctl_printf(out, "usage: set KEY=VALUE...");
		return CTL_ERROR;
	}
	if (!c->h.set) {
		ctl_printf(out, "this mount has no run-time options");
		return CTL_ERROR;
	}
	for (i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq || eq == argv[i]) {
			g_string_truncate(out->s, 0);
			ctl_printf(out, "'%s': expected KEY=VALUE", argv[i]);
			break;
		}
		*eq = '\0';
		msg.s = g_string_new(NULL);
		ret = c->h.set(c->h.ctx, argv[i], eq + 1, &msg);
		*eq = '=';
		if (ret < 0) {
			g_string_truncate(out->s, 0);
			ctl_printf(out, "%s: %s", argv[i],
				   msg.s->len ? msg.s->str
					      : strerror(-ret));
			g_string_free(msg.s, TRUE);
			break;
		}
		g_string_free(msg.s, TRUE);
		ctl_printf(out, "%s\n", argv[i]);
	}
	if (i == argc)
		return CTL_DONE;
	if (i > 1) {
		ctl_printf(out, " (already set:");
		for (int j = 1; j < i; j++)
			ctl_printf(out, " %s", argv[j]);
		ctl_printf(out, ")");
	}
	return CTL_ERROR;
}

static enum ctl_result cmd_trace(struct ctl *c, int argc, char **argv,
				 struct ctl_out *out)
{
	if (argc != 1) {
		ctl_printf(out, "usage: trace");
		return CTL_ERROR;
	}
	return CTL_TRACE;
}

static enum ctl_result cmd_help(struct ctl *c, int argc, char **argv,
				struct ctl_out *out);

/* ---- the table ---- */

struct ctl_cmd {
	const char *name;
	enum ctl_result (*run)(struct ctl *c, int argc, char **argv,
			       struct ctl_out *out);
	const char *help;
};

static const struct ctl_cmd ctl_cmds[] = {
	{ "stats", cmd_stats,
	  "stats [json|prometheus]: RPC and cache statistics" },
	{ "cache", cmd_cache, "cache FILEID [PATH]: what is cached and why" },
	{ "drop", cmd_drop, "drop [FILEID]: drop cached data and attributes" },
	{ "set", cmd_set, "set KEY=VALUE...: change cache options" },
	{ "trace", cmd_trace, "trace: live cache decisions and RPCs" },
	{ "help", cmd_help, "help: this list" },
};

static enum ctl_result cmd_help(struct ctl *c, int argc, char **argv,
				struct ctl_out *out)
{
	for (size_t i = 0; i < G_N_ELEMENTS(ctl_cmds); i++)
		ctl_printf(out, "%s\n", ctl_cmds[i].help);
	for (unsigned i = 0; i < c->h.ncmds; i++)
		ctl_printf(out, "%s: %s\n", c->h.cmds[i].name,
			   c->h.cmds[i].help ? c->h.cmds[i].help : "");
	return CTL_DONE;
}

enum ctl_result ctl_dispatch(struct ctl *c, char *line, struct ctl_out *out)
{
	char *argv[CTL_MAX_ARGS + 1], *save = NULL, *tok;
	int argc = 0, ret;

	for (tok = strtok_r(line, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (argc == CTL_MAX_ARGS) {
			ctl_printf(out, "too many arguments");
			return CTL_ERROR;
		}
		argv[argc++] = tok;
	}
	argv[argc] = NULL;
	if (argc == 0) {
		ctl_printf(out, "empty command");
		return CTL_ERROR;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(ctl_cmds); i++)
		if (strcmp(argv[0], ctl_cmds[i].name) == 0)
			return ctl_cmds[i].run(c, argc, argv, out);
	for (unsigned i = 0; i < c->h.ncmds; i++) {
		if (strcmp(argv[0], c->h.cmds[i].name))
			continue;
		ret = c->h.cmds[i].run(c->h.ctx, argc, argv, out);
		return ret < 0 ? hook_error(out, ret) : CTL_DONE;
	}
	ctl_printf(out, "unknown command '%s' (this mount knows: ", argv[0]);
	for (size_t i = 0; i < G_N_ELEMENTS(ctl_cmds); i++)
		ctl_printf(out, "%s%s", i ? ", " : "", ctl_cmds[i].name);
	for (unsigned i = 0; i < c->h.ncmds; i++)
		ctl_printf(out, ", %s", c->h.cmds[i].name);
	ctl_printf(out, ")");
	return CTL_ERROR;
}
