/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The control socket with fake hooks: each command reaches the right hook
 * with the right arguments, stats in text and valid JSON, the trace
 * stream, a stale socket replaced, a live one left alone, file modes.
 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../src/ctl/ctl.h"
#include "../../src/ctl/ctl_path.h"
#include "../../src/rpc/rpc.h"
#include "../../src/base/stats.h"
#include "../../src/base/trace.h"
#include "../../xdr/nfs3.h"

static char runtime_dir[64], mnt_dir[64];

/* ---- fake hooks ---- */

struct fake {
	int describe_calls;
	uint64_t describe_id;
	int drop_calls;
	uint64_t drop_id;
	bool drop_all;
	int set_calls;
	char set_keys[4][32], set_vals[4][32];
};

static int fake_describe(void *ctx, uint64_t fileid, struct ctl_out *out)
{
	struct fake *f = ctx;

	f->describe_calls++;
	f->describe_id = fileid;
	if (fileid != 42)
		return -ENOENT;
	ctl_printf(out, "attributes: valid for 2.5 s more (acregmin 3 s)\n");
	ctl_printf(out, "data: 3 blocks clean, 0 dirty\n");
	return 0;
}

static int fake_drop(void *ctx, uint64_t fileid, bool all)
{
	struct fake *f = ctx;

	f->drop_calls++;
	f->drop_id = fileid;
	f->drop_all = all;
	return fileid == 99 ? -ENOENT : 0;
}

static int fake_set(void *ctx, const char *key, const char *value,
		    struct ctl_out *out)
{
	struct fake *f = ctx;

	if (strcmp(key, "acregmin") && strcmp(key, "acdirmax")) {
		ctl_printf(out, "unknown option");
		return -EINVAL;
	}
	if (f->set_calls < 4) {
		snprintf(f->set_keys[f->set_calls], 32, "%s", key);
		snprintf(f->set_vals[f->set_calls], 32, "%s", value);
	}
	f->set_calls++;
	return 0;
}

static void fake_stats_extra(void *ctx, struct ctl_stats *s)
{
	ctl_stat_u64(s, "inodes", 3);
	ctl_stat_str(s, "lock_mode", "nlm \"v4\"");
}

static int fake_locks(void *ctx, int argc, char **argv, struct ctl_out *out)
{
	ctl_printf(out, "no locks held (%d)\n", argc);
	return 0;
}

static const struct ctl_cmd_ext fake_cmds[] = {
	{ "locks", "byte-range locks", fake_locks },
};

static struct ctl_hooks hooks_for(struct fake *f)
{
	struct ctl_hooks h = {
		.ctx = f,
		.describe = fake_describe,
		.drop = fake_drop,
		.set = fake_set,
		.stats_extra = fake_stats_extra,
		.cmds = fake_cmds,
		.ncmds = 1,
	};

	return h;
}

/* ---- a client ---- */

static int dial(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Send one line and read the answer to EOF; the caller frees it. */
static char *ask(struct ctl *c, const char *line)
{
	size_t len = 0, cap = 65536;
	char *buf = malloc(cap);
	int fd = dial(ctl_socket_path(c));
	ssize_t n;

	assert_non_null(buf);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, line, strlen(line)), (ssize_t)strlen(line));
	while ((n = read(fd, buf + len, cap - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	close(fd);
	return buf;
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!hay)
		fail_msg("no answer");
	else if (!strstr(hay, needle))
		fail_msg("'%s' not found in:\n%s", needle, hay);
}

/* ---- a small JSON validator: value := object|array|string|number|lit ---- */

static const char *js_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *js_value(const char *p);

static const char *js_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF",
						    p[i]) || !p[i])
						return NULL;
				p += 4;
			} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
				return NULL;
			}
		}
		p++;
	}
	return *p == '"' ? p + 1 : NULL;
}

static const char *js_number(const char *p)
{
	const char *s = p;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return p > s ? p : NULL;
}

static const char *js_seq(const char *p, char close, bool object)
{
	p = js_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (object) {
			p = js_string(js_ws(p));
			if (!p)
				return NULL;
			p = js_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = js_value(p);
		if (!p)
			return NULL;
		p = js_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *js_value(const char *p)
{
	p = js_ws(p);
	switch (*p) {
	case '{':
		return js_seq(p, '}', true);
	case '[':
		return js_seq(p, ']', false);
	case '"':
		return js_string(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		return js_number(p);
	}
}

static void assert_json(const char *text)
{
	const char *end = js_value(text);

	if (!end || *js_ws(end) != '\0')
		fail_msg("invalid JSON near offset %td:\n%s",
			 end ? end - text : (ptrdiff_t)-1, text);
}

/* ---- tests ---- */

static struct ctl *start(struct fake *f)
{
	struct ctl_hooks h = hooks_for(f);
	struct ctl *c = NULL;

	assert_int_equal(ctl_start(mnt_dir, &h, &c), 0);
	assert_non_null(c);
	return c;
}

static void test_stats_text_without_rpc(void **state)
{
	struct fake f = { 0 };
	struct ctl *c = start(&f);
	char *a;

	(void)state;
	STAT_ADD(attr_hits, 5);
	a = ask(c, "stats\n");
	assert_true(strncmp(a, "OK\n", 3) == 0);
	assert_contains(a, "(no RPC client)");
	assert_contains(a, "\nattr_hits 5\n");
	assert_contains(a, "\ndir_hits 0\n");
	assert_contains(a, "\ninodes 3\n");
	free(a);
	ctl_stop(c);
}

/* An RPC client whose server accepts the connection and never answers:
 * one soft GETATTR fails and is counted. */
static struct rpc_clnt *silent_rpc(int *lfd)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	struct rpc_clnt_opts o = {
		.proto = IPPROTO_TCP,
		.timeo_ds = 1,
		.retrans = 0,
		.soft = true,
		.server = "server 127.0.0.1",
		.proc_names = nfs3_proc_names,
		.nprocs = NFS3PROC_COUNT,
	};
	struct rpc_cred cred = { .flavor = RPC_AUTH_SYS, .uid = 1, .gid = 1 };
	struct rpc_clnt *r = NULL;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	*lfd = socket(AF_INET, SOCK_STREAM, 0);
	assert_int_equal(bind(*lfd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(listen(*lfd, 4), 0);
	getsockname(*lfd, (struct sockaddr *)&sin, &len);
	assert_int_equal(rpc_clnt_create((struct sockaddr *)&sin, sizeof(sin),
					 100003, 3, &o, &r), 0);
	assert_int_equal(rpc_clnt_call(r, NFS3PROC_GETATTR, &cred, NULL, NULL,
				       NULL, NULL, NULL, NULL), -ETIMEDOUT);
	return r;
}

static void test_stats_json(void **state)
{
	struct fake f = { 0 };
	struct ctl_hooks h = hooks_for(&f);
	struct ctl *c = NULL;
	struct rpc_clnt *r;
	char *a;
	int lfd;

	(void)state;
	/* without an RPC client: "rpc" is an empty object */
	c = start(&f);
	a = ask(c, "stats json\n");
	assert_true(strncmp(a, "OK\n", 3) == 0);
	assert_json(a + 3);
	assert_contains(a, "\"rpc\": {}");
	assert_contains(a, "\"cache\": {");
	free(a);
	ctl_stop(c);

	r = silent_rpc(&lfd);
	h.rpc = r;
	h.proc_names = nfs3_proc_names;
	h.nprocs = NFS3PROC_COUNT;
	assert_int_equal(ctl_start(mnt_dir, &h, &c), 0);
	a = ask(c, "stats json\n");
	assert_true(strncmp(a, "OK\n", 3) == 0);
	assert_json(a + 3);
	assert_contains(a, "\"GETATTR\": {\"calls\": 1, \"retrans\": ");
	assert_contains(a, "\"READDIRPLUS\": {\"calls\": 0,");
	assert_contains(a, "\"errors\": 1");
	assert_contains(a, "\"p99_ms\": ");
	assert_contains(a, "\"attr_hits\": ");
	assert_contains(a, "\"purge_drop\": ");
	assert_contains(a, "\"inodes\": 3");
	assert_contains(a, "\"lock_mode\": \"nlm \\\"v4\\\"\"");
	assert_contains(a, "\"mountpoint\": \"/");
	free(a);

	/* the text table shows only procedures that were called */
	a = ask(c, "stats\n");
	assert_contains(a, "procedure");
	assert_contains(a, "\nGETATTR ");
	assert_null(strstr(a, "READDIRPLUS"));
	free(a);
	ctl_stop(c);
	rpc_clnt_destroy(r);
	close(lfd);
}

/* Another program's calls (as RQUOTA's): a table of their own in text,
 * a top-level object in JSON, every procedure there. */
static const char *const fake_prog_names[] = { "NULL", "GETQUOTA" };

static int fake_prog_get(void *ctx, unsigned proc, struct rpc_proc_stats *st)
{
	(void)ctx;
	memset(st, 0, sizeof(*st));
	if (proc == 1) {
		st->calls = 4;
		st->errors = 1;
		st->rtt_us_total = 2000;
	}
	return 0;
}

static const struct ctl_rpc_prog fake_progs[] = {
	{ "rquota", fake_prog_names, 2, fake_prog_get },
};

/* The quota command's view of who asks. */
static int fake_whoami(void *ctx, int argc, char **argv, struct ctl_out *out)
{
	const struct ctl_peer *p = ctl_out_peer(out);

	if (!p)
		return -EPERM;
	ctl_printf(out, "uid %u gid %u groups %u pid-ok %d\n",
		   (unsigned)p->uid, (unsigned)p->gid, p->ngroups,
		   p->pid == getpid());
	return 0;
}

static const struct ctl_cmd_ext whoami_cmds[] = {
	{ "whoami", "the peer", fake_whoami },
};

static void test_other_programs_and_peer(void **state)
{
	struct fake f = { 0 };
	struct ctl_hooks h = hooks_for(&f);
	struct ctl *c = NULL;
	char *a, want[128];
	gid_t groups[256];
	int ng = getgroups(256, groups);

	(void)state;
	h.progs = fake_progs;
	h.nprogs = 1;
	h.cmds = whoami_cmds;
	assert_int_equal(ctl_start(mnt_dir, &h, &c), 0);
	a = ask(c, "stats json\n");
	assert_true(strncmp(a, "OK\n", 3) == 0);
	assert_json(a + 3);
	assert_contains(a, "\"rquota\": {\n    \"NULL\": {\"calls\": 0,");
	assert_contains(a, "\"GETQUOTA\": {\"calls\": 4, \"retrans\": 0, "
			   "\"errors\": 1, \"bytes_sent\": 0, \"bytes_recv\": 0, "
			   "\"mean_ms\": 0.500,");
	free(a);
	a = ask(c, "stats\n");
	assert_contains(a, "\nrquota:\nprocedure ");
	assert_contains(a, "\nGETQUOTA              4        0        1 ");
	assert_null(strstr(a, "\nNULL "));
	free(a);

	a = ask(c, "whoami\n");
	snprintf(want, sizeof(want), "OK\nuid %u gid %u groups %d pid-ok 1\n",
		 (unsigned)geteuid(), (unsigned)getegid(),
		 ng > CTL_PEER_MAXGROUPS ? 0 : ng);
	assert_string_equal(a, want);
	free(a);
	ctl_stop(c);
}

/* The Prometheus text: every sample labelled, label values escaped,
 * microsecond totals in seconds, numbers untyped, strings as _info. */
static void test_stats_prometheus(void **state)
{
	struct fake f = { 0 };
	struct ctl_hooks h = hooks_for(&f);
	struct ctl *c = NULL;
	char *a;

	(void)state;
	h.progs = fake_progs;
	h.nprogs = 1;
	h.server = "srv\"1";
	h.export_path = "/exp\\x";
	assert_int_equal(ctl_start(mnt_dir, &h, &c), 0);
	a = ask(c, "stats prometheus\n");
	assert_true(strncmp(a, "OK\n# HELP nfsfuse_mount_age_seconds ", 36) == 0);
	assert_contains(a, "\n# TYPE nfsfuse_rpc_calls_total counter\n");
	assert_contains(a, ",server=\"srv\\\"1\",export=\"/exp\\\\x\","
			   "program=\"rquota\",procedure=\"GETQUOTA\"} 4\n");
	assert_contains(a, "program=\"rquota\",procedure=\"GETQUOTA\"} "
			   "0.002000\n");
	assert_contains(a, "\n# TYPE nfsfuse_cache_attr_hits_total counter\n"
			   "nfsfuse_cache_attr_hits_total{mountpoint=\"");
	assert_contains(a, "\n# TYPE nfsfuse_inodes untyped\nnfsfuse_inodes{");
	assert_contains(a, ",value=\"nlm \\\"v4\\\"\"} 1\n");
	for (char *l = strchr(a, '\n') + 1; *l; l = strchr(l, '\n') + 1)
		assert_true(l[0] == '#' || !strncmp(l, "nfsfuse_", 8));
	free(a);
	ctl_stop(c);
}

static void test_cache_drop_set(void **state)
{
	struct fake f = { 0 };
	struct ctl *c = start(&f);
	char *a;

	(void)state;
	a = ask(c, "cache 42 /mnt/a b\n");
	assert_int_equal(f.describe_calls, 1);
	assert_int_equal(f.describe_id, 42);
	assert_true(strncmp(a, "OK\n", 3) == 0);
	assert_contains(a, "path: /mnt/a b\nfileid: 42\nattributes: valid");
	free(a);

	a = ask(c, "cache 7 /mnt/x\n");
	assert_int_equal(f.describe_id, 7);
	assert_true(strncmp(a, "ERR nothing cached", 18) == 0);
	free(a);
	a = ask(c, "cache nope\n");
	assert_true(strncmp(a, "ERR usage: cache", 16) == 0);
	assert_int_equal(f.describe_calls, 2);
	free(a);

	a = ask(c, "drop\n");
	assert_int_equal(f.drop_calls, 1);
	assert_true(f.drop_all);
	assert_int_equal(f.drop_id, 0);
	assert_true(strncmp(a, "OK\n", 3) == 0);
	free(a);
	a = ask(c, "drop 42\n");
	assert_int_equal(f.drop_calls, 2);
	assert_false(f.drop_all);
	assert_int_equal(f.drop_id, 42);
	free(a);
	a = ask(c, "drop 99\n");
	assert_true(strncmp(a, "ERR nothing cached", 18) == 0);
	free(a);

	a = ask(c, "set acregmin=5 acdirmax=10\n");
	assert_true(strncmp(a, "OK\n", 3) == 0);
	assert_int_equal(f.set_calls, 2);
	assert_string_equal(f.set_keys[0], "acregmin");
	assert_string_equal(f.set_vals[0], "5");
	assert_string_equal(f.set_keys[1], "acdirmax");
	assert_string_equal(f.set_vals[1], "10");
	free(a);
	a = ask(c, "set acregmin=1 bogus=2 acdirmax=3\n");
	assert_int_equal(f.set_calls, 3); /* stopped at bogus */
	assert_string_equal(a, "ERR bogus=2: unknown option "
			       "(already set: acregmin=1)\n");
	free(a);
	a = ask(c, "set noequals\n");
	assert_true(strncmp(a, "ERR 'noequals'", 14) == 0);
	assert_int_equal(f.set_calls, 3);
	free(a);

	/* a command from the hooks' table, and an unknown one */
	a = ask(c, "locks\n");
	assert_string_equal(a, "OK\nno locks held (1)\n");
	free(a);
	a = ask(c, "frobnicate\n");
	assert_true(strncmp(a, "ERR unknown command 'frobnicate'", 32) == 0);
	assert_contains(a, "locks)");
	free(a);
	ctl_stop(c);
}

/* A command line may arrive in pieces; one too long is refused. */
static void test_framing(void **state)
{
	struct fake f = { 0 };
	struct ctl *c = start(&f);
	char buf[8192], *big;
	ssize_t n;
	size_t len = 0;
	int fd;

	(void)state;
	fd = dial(ctl_socket_path(c));
	assert_int_equal(write(fd, "dr", 2), 2);
	usleep(50000);
	assert_int_equal(write(fd, "op 42\r\n", 7), 7);
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	close(fd);
	assert_true(strncmp(buf, "OK\n", 3) == 0);
	assert_int_equal(f.drop_id, 42);

	big = malloc(6000);
	memset(big, 'x', 5999);
	big[5999] = '\0';
	fd = dial(ctl_socket_path(c));
	(void)!write(fd, big, 5999);
	len = 0;
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	close(fd);
	free(big);
	assert_string_equal(buf, "ERR command line too long\n");
	ctl_stop(c);
}

static bool wait_trace_active(bool want)
{
	for (int i = 0; i < 200; i++) {
		if (trace_active() == want)
			return true;
		usleep(10000);
	}
	return false;
}

static void test_trace(void **state)
{
	struct fake f = { 0 };
	struct ctl *c = start(&f);
	char buf[4096];
	size_t len = 0;
	ssize_t n;
	int fd;

	(void)state;
	assert_false(trace_active());
	fd = dial(ctl_socket_path(c));
	assert_int_equal(write(fd, "trace\n", 6), 6);
	/* "OK\n" comes once the listener is subscribed */
	while (len < 3 && (n = read(fd, buf + len, 3 - len)) > 0)
		len += (size_t)n;
	assert_memory_equal(buf, "OK\n", 3);
	assert_true(trace_active());
	trace_line("GETATTR fileid %d: %s", 42, "attr_hit");
	len = 0;
	while (!memchr(buf, '\n', len) &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	assert_contains(buf, " GETATTR fileid 42: attr_hit\n");

	/* the client goes away: the listener is unsubscribed */
	close(fd);
	assert_true(wait_trace_active(false));

	/* the daemon goes away: the client sees EOF */
	fd = dial(ctl_socket_path(c));
	assert_int_equal(write(fd, "trace\n", 6), 6);
	assert_int_equal(read(fd, buf, 3), 3);
	ctl_stop(c);
	assert_false(trace_active());
	assert_int_equal(read(fd, buf, sizeof(buf)), 0);
	close(fd);
}

static void test_stale_and_live_socket(void **state)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct fake f = { 0 };
	struct ctl_hooks h = hooks_for(&f);
	char path[CTL_PATH_MAX], dir[CTL_PATH_MAX];
	struct ctl *c, *c2 = NULL;
	struct stat st;
	char *a;
	int fd;

	(void)state;
	assert_int_equal(ctl_sock_path(mnt_dir, path, sizeof(path), NULL, 0),
			 0);
	assert_int_equal(ctl_sock_dir(dir, sizeof(dir)), 0);
	assert_true(strncmp(path, dir, strlen(dir)) == 0);
	mkdir(dir, 0700);

	/* a daemon died and left its socket file behind */
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	assert_int_equal(bind(fd, (struct sockaddr *)&sun, sizeof(sun)), 0);
	close(fd);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(dial(path), -1);

	c = start(&f);
	assert_string_equal(ctl_socket_path(c), path);
	a = ask(c, "stats\n");
	assert_true(strncmp(a, "OK\n", 3) == 0);
	free(a);

	/* a live daemon's socket is not taken over */
	assert_int_equal(ctl_start(mnt_dir, &h, &c2), -EADDRINUSE);
	assert_null(c2);
	a = ask(c, "stats\n");
	assert_true(strncmp(a, "OK\n", 3) == 0);
	free(a);

	ctl_stop(c);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(errno, ENOENT);
}

struct late_stop {
	struct ctl *c;
	unsigned ms;
};

static void *stop_later(void *arg)
{
	struct late_stop *l = arg;

	usleep(l->ms * 1000);
	ctl_stop(l->c);
	return NULL;
}

/* umount; mount at once: the new daemon waits for the departing one to
 * give its socket up, and then has it. */
static void test_socket_of_departing_daemon(void **state)
{
	struct fake f = { 0 }, f2 = { 0 };
	struct ctl_hooks h2 = hooks_for(&f2);
	struct late_stop l;
	struct ctl *c2 = NULL;
	pthread_t t;
	char *a;

	(void)state;
	l.c = start(&f);
	l.ms = 300;
	assert_int_equal(pthread_create(&t, NULL, stop_later, &l), 0);
	assert_int_equal(ctl_start(mnt_dir, &h2, &c2), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_non_null(c2);
	/* The new daemon answers, not the old one. */
	a = ask(c2, "set acregmin=5\n");
	assert_true(strncmp(a, "OK\n", 3) == 0);
	free(a);
	assert_int_equal(f2.set_calls, 1);
	assert_int_equal(f.set_calls, 0);
	ctl_stop(c2);
}

static void test_modes_and_path(void **state)
{
	struct fake f = { 0 };
	char dir[CTL_PATH_MAX], path[CTL_PATH_MAX], via[256];
	struct ctl *c;
	struct stat st;

	(void)state;
	c = start(&f);
	assert_int_equal(stat(ctl_socket_path(c), &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(ctl_sock_dir(dir, sizeof(dir)), 0);
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	snprintf(via, sizeof(via), "%s/nfsfuse", runtime_dir);
	assert_string_equal(dir, via);

	/* the same mount point written another way finds the same socket */
	snprintf(via, sizeof(via), "%s/./../%s", mnt_dir,
		 strrchr(mnt_dir, '/') + 1);
	assert_int_equal(ctl_sock_path(via, path, sizeof(path), NULL, 0), 0);
	assert_string_equal(path, ctl_socket_path(c));
	/* 40 hex digits of SHA-1 and ".sock" */
	assert_int_equal(strlen(strrchr(path, '/') + 1), 45);
	ctl_stop(c);

	/* a missing mount point is an error, not a socket */
	assert_int_equal(ctl_sock_path("/nonexistent/nfsfuse", path,
				       sizeof(path), NULL, 0), -ENOENT);
}

static int setup_dirs(void **state)
{
	(void)state;
	snprintf(runtime_dir, sizeof(runtime_dir), "/tmp/ctl-run-XXXXXX");
	snprintf(mnt_dir, sizeof(mnt_dir), "/tmp/ctl-mnt-XXXXXX");
	if (!mkdtemp(runtime_dir) || !mkdtemp(mnt_dir))
		return -1;
	setenv("XDG_RUNTIME_DIR", runtime_dir, 1);
	return 0;
}

static int teardown_dirs(void **state)
{
	char dir[CTL_PATH_MAX];

	(void)state;
	if (ctl_sock_dir(dir, sizeof(dir)) == 0)
		rmdir(dir);
	rmdir(runtime_dir);
	rmdir(mnt_dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_text_without_rpc),
		cmocka_unit_test(test_stats_json),
		cmocka_unit_test(test_other_programs_and_peer),
		cmocka_unit_test(test_stats_prometheus),
		cmocka_unit_test(test_cache_drop_set),
		cmocka_unit_test(test_framing),
		cmocka_unit_test(test_trace),
		cmocka_unit_test(test_stale_and_live_socket),
		cmocka_unit_test(test_socket_of_departing_daemon),
		cmocka_unit_test(test_modes_and_path),
	};

	return cmocka_run_group_tests(tests, setup_dirs, teardown_dirs);
}
