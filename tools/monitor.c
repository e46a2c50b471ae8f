/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iostat reads the daemon's counters in the Prometheus text format (the
 * one machine-readable form that carries every per-procedure total) and
 * prints the difference between two readings, as nfsiostat does with
 * /proc/self/mountstats.  list walks /proc/self/mountinfo and asks each
 * nfsfuse mount's daemon for its options ("mountinfo").
 */
#include "monitor.h"

#include <errno.h>
#include <glib.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../src/ctl/ctl_path.h"
#include "client.h"

/* ---- iostat ---- */

enum { C_CALLS, C_RETRANS, C_SENT, C_RECV, C_RTT, C_EXE, C_COUNT };

static const char *const counter_metric[C_COUNT] = {
	"nfsfuse_rpc_calls_total", "nfsfuse_rpc_retransmissions_total",
	"nfsfuse_rpc_sent_bytes_total", "nfsfuse_rpc_received_bytes_total",
	"nfsfuse_rpc_rtt_seconds_total", "nfsfuse_rpc_execute_seconds_total",
};

struct op {
	char name[32];
	double v[C_COUNT];
};

struct reading {
	GArray *ops;      /* struct op, in the daemon's procedure order */
	double age;       /* seconds since the mount */
	char server[600]; /* "host:/export" */
};

/* The value of label key in a sample's "{...}", unescaped, or false. */
static bool label(const char *labels, const char *key, char *out,
		  size_t outlen)
{
	size_t klen = strlen(key), n = 0;
	const char *p = labels;

	while (*p && *p != '}') {
		bool match = !strncmp(p, key, klen) && p[klen] == '=';
		const char *q = strchr(p, '=');

		if (!q || q[1] != '"')
			return false;
		for (q += 2; *q && *q != '"'; q++) {
			char c = *q;

			if (c == '\\' && q[1]) {
				c = *++q == 'n' ? '\n' : *q;
			}
			if (match && n + 1 < outlen)
				out[n++] = c;
		}
		if (match) {
			out[n] = '\0';
			return true;
		}
		if (*q != '"')
			return false;
		p = q + 1;
		if (*p == ',')
			p++;
	}
	return false;
}

static struct op *op_of(GArray *ops, const char *name)
{
	struct op o = { { 0 }, { 0 } };

	for (guint i = 0; i < ops->len; i++)
		if (!strcmp(g_array_index(ops, struct op, i).name, name))
			return &g_array_index(ops, struct op, i);
	snprintf(o.name, sizeof(o.name), "%.31s", name);
	g_array_append_val(ops, o);
	return &g_array_index(ops, struct op, ops->len - 1);
}

static int parse_reading(char *text, struct reading *r)
{
	char *line, *save = NULL, buf[300], exp[256];
	bool any = false;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *brace = strchr(line, '{'), *close, *end;
		double v;
		int c = -1;

		if (line[0] == '#' || !brace)
			continue;
		close = strrchr(line, '}');
		if (!close)
			continue;
		v = strtod(close + 1, &end);
		if (end == close + 1)
			continue;
		*brace = '\0';
		if (!strcmp(line, "nfsfuse_mount_age_seconds")) {
			r->age = v;
			if (label(brace + 1, "server", buf, sizeof(buf)) &&
			    label(brace + 1, "export", exp, sizeof(exp)))
				snprintf(r->server, sizeof(r->server), "%s:%s",
					 buf, exp);
			continue;
		}
		for (int k = 0; k < C_COUNT; k++)
			if (!strcmp(line, counter_metric[k]))
				c = k;
		if (c < 0 || !label(brace + 1, "program", buf, sizeof(buf)) ||
		    strcmp(buf, "nfs") ||
		    !label(brace + 1, "procedure", buf, sizeof(buf)))
			continue;
		op_of(r->ops, buf)->v[c] = v;
		any = true;
	}
	return any ? 0 : -1;
}

static int read_counters(const char *sock, struct reading *r)
{
	GString *text = g_string_new(NULL);
	int ret;

	g_array_set_size(r->ops, 0);
	ret = client_ask(sock, "stats prometheus\n", 17, false, text, NULL, 0);
	if (ret == 0 && parse_reading(text->str, r))
		ret = client_fail("iostat: the daemon sent no RPC counters");
	g_string_free(text, TRUE);
	return ret;
}

static void print_op(const struct op *now, const struct op *before,
		     double secs)
{
	double d[C_COUNT];

	for (int k = 0; k < C_COUNT; k++)
		d[k] = now->v[k] - (before ? before->v[k] : 0);
	printf("%-12s %10.0f %10.3f %11.3f %9.3f %8.0f (%5.1f%%) %12.3f "
	       "%12.3f\n", now->name, d[C_CALLS],
	       secs > 0 ? d[C_CALLS] / secs : 0.0,
	       secs > 0 ? (d[C_SENT] + d[C_RECV]) / 1024.0 / secs : 0.0,
	       d[C_CALLS] ? (d[C_SENT] + d[C_RECV]) / 1024.0 / d[C_CALLS]
			  : 0.0,
	       d[C_RETRANS], d[C_CALLS] ? 100.0 * d[C_RETRANS] / d[C_CALLS]
					: 0.0,
	       d[C_CALLS] ? 1e3 * d[C_RTT] / d[C_CALLS] : 0.0,
	       d[C_CALLS] ? 1e3 * d[C_EXE] / d[C_CALLS] : 0.0);
}

/* One report: every operation with calls in the interval, and READ and
 * WRITE always (nfsiostat's two); the totals last. */
static void report(const char *canon, const struct reading *now,
		   const struct reading *before, unsigned n, unsigned count)
{
	double secs = before ? now->age - before->age : now->age;
	struct op total = { "total", { 0 } }, zero = { "total", { 0 } };

	printf("%s mounted on %s, ", now->server, canon);
	if (before)
		printf("interval %u%s%.0u: %.2f s\n", n, count ? " of " : "",
		       count, secs);
	else
		printf("report %u%s%.0u: since the mount, %.2f s\n", n,
		       count ? " of " : "", count, secs);
	printf("%-12s %10s %10s %11s %9s %17s %12s %12s\n", "op", "ops",
	       "ops/s", "kB/s", "kB/op", "retrans", "avg RTT (ms)",
	       "avg exe (ms)");
	for (guint i = 0; i < now->ops->len; i++) {
		const struct op *o = &g_array_index(now->ops, struct op, i);
		const struct op *b = NULL;

		for (guint j = 0; before && j < before->ops->len; j++)
			if (!strcmp(g_array_index(before->ops, struct op,
						  j).name, o->name))
				b = &g_array_index(before->ops, struct op, j);
		for (int k = 0; k < C_COUNT; k++) {
			total.v[k] += o->v[k];
			if (b)
				zero.v[k] += b->v[k];
		}
		if (o->v[C_CALLS] - (b ? b->v[C_CALLS] : 0) == 0 &&
		    strcmp(o->name, "READ") && strcmp(o->name, "WRITE"))
			continue;
		print_op(o, b, secs);
	}
	print_op(&total, before ? &zero : NULL, secs);
	printf("\n");
	fflush(stdout);
}

static void sleep_until(struct timespec *t, unsigned interval)
{
	t->tv_sec += interval;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL) ==
	       EINTR && !client_interrupted)
		;
}

int monitor_iostat(const char *sock, const char *canon, unsigned interval,
		   unsigned count)
{
	struct reading a = { g_array_new(FALSE, TRUE, sizeof(struct op)), 0,
			     "" };
	struct reading b = { g_array_new(FALSE, TRUE, sizeof(struct op)), 0,
			     "" };
	struct reading *now = &a, *before = NULL;
	struct timespec t;
	int ret = 0;

	clock_gettime(CLOCK_MONOTONIC, &t);
	for (unsigned n = 1; !client_interrupted; n++) {
		if (n > 1)
			sleep_until(&t, interval);
		if (client_interrupted)
			break;
		ret = read_counters(sock, now);
		if (ret)
			break;
		report(canon, now, before, n, interval ? count : 1);
		if (!interval || (count && n == count))
			break;
		before = now;
		now = now == &a ? &b : &a;
	}
	g_array_free(a.ops, TRUE);
	g_array_free(b.ops, TRUE);
	return ret;
}

/* ---- list ---- */

/* mountinfo escapes blanks, tabs, newlines and backslashes as \ooo. */
static void unescape(char *s)
{
	char *q = s;

	for (char *p = s; *p; p++) {
		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' &&
		    p[2] >= '0' && p[2] <= '7' && p[3] >= '0' && p[3] <= '7') {
			*q++ = (char)((p[1] - '0') << 6 | (p[2] - '0') << 3 |
				      (p[3] - '0'));
			p += 3;
		} else {
			*q++ = *p;
		}
	}
	*q = '\0';
}

/*
 * The mount's options from its daemon.  The socket is where the daemon's
 * owner keeps it (ctl_path.h): ours first; root also tries the places an
 * ordinary owner's daemon uses.
 */
static int ask_mountinfo(const char *mnt, unsigned owner, GString *answer,
			 char *why, size_t whylen)
{
	char sock[CTL_PATH_MAX], alt[CTL_PATH_MAX];
	const char *base;

	if (ctl_sock_path_canon(mnt, sock, sizeof(sock))) {
		snprintf(why, whylen, "path too long for a control socket");
		return 1;
	}
	if (!client_ask(sock, "mountinfo\n", 10, false, answer, why, whylen))
		return 0;
	if (geteuid() != 0 || owner == 0)
		return 1;
	base = strrchr(sock, '/') + 1;
	snprintf(alt, sizeof(alt), "/run/user/%u/nfsfuse/%s", owner, base);
	g_string_truncate(answer, 0);
	if (!client_ask(alt, "mountinfo\n", 10, false, answer, NULL, 0))
		return 0;
	snprintf(alt, sizeof(alt), "/tmp/nfsfuse-%u/%s", owner, base);
	g_string_truncate(answer, 0);
	return client_ask(alt, "mountinfo\n", 10, false, answer, NULL, 0);
}

/* The value of "key value" line key in the daemon's answer. */
static const char *field(const char *answer, const char *key, char *buf,
			 size_t len)
{
	size_t klen = strlen(key);

	for (const char *l = answer; *l; l += strcspn(l, "\n") + !!l[strcspn(l, "\n")]) {
		if (!strncmp(l, key, klen) && l[klen] == ' ') {
			size_t n = strcspn(l + klen + 1, "\n");

			snprintf(buf, len, "%.*s", (int)n, l + klen + 1);
			return buf;
		}
	}
	return NULL;
}

int monitor_list(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	GString *answer = g_string_new(NULL);
	char *line = NULL;
	size_t cap = 0;
	unsigned found = 0;

	if (!f) {
		fprintf(stderr, "nfsfusectl: /proc/self/mountinfo: %s\n",
			strerror(errno));
		g_string_free(answer, TRUE);
		return 1;
	}
	while (getline(&line, &cap, f) > 0) {
		char *fields[12], *save = NULL, *tok, *dash, *uid;
		char why[512], opts[2048], vers[16];
		unsigned owner = 0, nf = 0;

		dash = strstr(line, " - ");
		if (!dash)
			continue;
		*dash = '\0';
		for (tok = strtok_r(line, " ", &save); tok && nf < 5;
		     tok = strtok_r(NULL, " ", &save))
			fields[nf++] = tok;
		save = NULL;
		for (tok = strtok_r(dash + 3, " \n", &save); tok && nf < 8;
		     tok = strtok_r(NULL, " \n", &save))
			fields[nf++] = tok;
		if (nf < 8 || strcmp(fields[5], "fuse.nfsfuse"))
			continue;
		unescape(fields[4]);
		unescape(fields[6]);
		uid = strstr(fields[7], "user_id=");
		if (uid)
			owner = (unsigned)strtoul(uid + 8, NULL, 10);
		found++;
		g_string_truncate(answer, 0);
		printf("%s from %s\n", fields[4], fields[6]);
		if (ask_mountinfo(fields[4], owner, answer, why, sizeof(why))) {
			printf(" Flags:\t(unknown: %s)\n", why);
			continue;
		}
		printf(" Version:\tNFSv%s\n Flags:\t%s\n",
		       field(answer->str, "vers", vers, sizeof(vers)) ?: "?",
		       field(answer->str, "options", opts, sizeof(opts)) ?: "?");
	}
	free(line);
	fclose(f);
	g_string_free(answer, TRUE);
	if (!found)
		printf("no nfsfuse mounts\n");
	return fflush(stdout) ? 1 : 0;
}
