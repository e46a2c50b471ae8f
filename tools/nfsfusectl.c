/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfsfusectl: talk to the control socket of a running nfsfuse mount.
 *
 *     nfsfusectl MOUNTPOINT stats [--json]
 *     nfsfusectl MOUNTPOINT cache PATH
 *     nfsfusectl MOUNTPOINT trace
 *     nfsfusectl MOUNTPOINT drop [PATH]
 *     nfsfusectl MOUNTPOINT set KEY=VALUE...
 *     nfsfusectl MOUNTPOINT locks
 *     nfsfusectl MOUNTPOINT quota [USER|--group GROUP]
 *
 * The socket is found from the mount point alone (src/ctl/ctl_path.h).
 * Files are named to the daemon by their fileid, which is st_ino on the
 * mount; users and groups by their number, resolved here.  Exit status:
 * 0 done, 1 failed (no such mount, the daemon said no), 2 bad usage
 * (an unknown user or group too), 3 quota: the server has no quota for
 * that user or group.
 */
#include <errno.h>
#include <glib.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <pwd.h>
#include <unistd.h>

#include "../src/ctl/ctl_path.h"
#include "../src/proto/quota.h"

#define EXIT_NOQUOTA 3

#define LINE_MAX_LEN 4096

static const char *mnt;            /* as the user wrote it, for messages */
static volatile sig_atomic_t interrupted;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nfsfusectl MOUNTPOINT COMMAND [ARGS]\n"
		"\n"
		"commands:\n"
		"  stats [--json]     RPC calls, retransmissions, errors, bytes and\n"
		"                     latency per procedure; cache counters\n"
		"  cache PATH         what is cached for PATH, until when and why\n"
		"  trace              live stream: one line per cache decision and\n"
		"                     RPC, until interrupted\n"
		"  drop [PATH]        drop the cached attributes and data of PATH\n"
		"                     (of every file without PATH)\n"
		"  set KEY=VALUE...   change cache options of the running mount\n"
		"                     (acregmin, acregmax, acdirmin, acdirmax,\n"
		"                     actimeo, noac, ...)\n"
		"  locks              byte-range locks held and waited for\n"
		"  quota [USER|--group GROUP]\n"
		"                     the server's disk quota (RQUOTA) for USER\n"
		"                     (default: you) or GROUP, by name or number,\n"
		"                     like quota(1); only root may ask about\n"
		"                     others or groups it is not in\n"
		"\n"
		"Exit status: 0 done, 1 failed, 2 bad usage, 3 no quota.\n");
}

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "nfsfusectl: %s: ", mnt);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

static int bad_usage(const char *msg)
{
	fprintf(stderr, "nfsfusectl: %s\n", msg);
	fprintf(stderr, "Try 'nfsfusectl -h' for help.\n");
	return 2;
}

/* The fileid of path, which must be on the mount.  A relative path that
 * does not exist from here is tried from the mount point. */
static int fileid_of(const char *path, const struct stat *mnt_st,
		     uint64_t *fileid)
{
	struct stat st;
	char alt[PATH_MAX];

	if (stat(path, &st) < 0) {
		int err = errno;

		if (path[0] == '/' || err != ENOENT ||
		    (size_t)snprintf(alt, sizeof(alt), "%s/%s", mnt, path) >=
			    sizeof(alt) ||
		    stat(alt, &st) < 0)
			return fail("%s: %s", path, strerror(err));
	}
	if (st.st_dev != mnt_st->st_dev)
		return fail("%s is not on this mount", path);
	*fileid = (uint64_t)st.st_ino;
	return 0;
}

static int connect_ctl(const char *sock)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd, err;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		fail("socket: %s", strerror(errno));
		return -1;
	}
	memcpy(sun.sun_path, sock, strlen(sock) + 1);
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0)
		return fd;
	err = errno;
	close(fd);
	if (err == ENOENT || err == ENOTDIR)
		fail("not an nfsfuse mount (no control socket at %s)", sock);
	else if (err == ECONNREFUSED)
		fail("not an nfsfuse mount (control socket at %s is stale: "
		     "its daemon is gone)", sock);
	else if (err == EACCES || err == EPERM)
		fail("control socket %s: %s (the mount belongs to another "
		     "user?)", sock, strerror(err));
	else
		fail("control socket %s: %s", sock, strerror(err));
	return -1;
}

static int send_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A user or group named by name or number ("1000" is a name first, as
 * with chown).  0, or 2 with a message. */
static int resolve_id(const char *s, bool group, uint32_t *id)
{
	if (group) {
		struct group *g = getgrnam(s);

		if (g) {
			*id = (uint32_t)g->gr_gid;
			return 0;
		}
	} else {
		struct passwd *pw = getpwnam(s);

		if (pw) {
			*id = (uint32_t)pw->pw_uid;
			return 0;
		}
	}
	/* (uid_t)-1 means "no id" to the system: not one to ask about */
	if (quota_parse_id(s, id) == 0 && *id != UINT32_MAX)
		return 0;
	fprintf(stderr, "nfsfusectl: quota: no such %s '%s'\n",
		group ? "group" : "user", s);
	return 2;
}

/* The daemon's report (quota_report_write's lines) as quota(1) prints
 * it; "no quota for ..." and EXIT_NOQUOTA when the server has none. */
static int print_quota(const char *answer)
{
	struct quota_report r;
	char name[64], *text;
	size_t need;

	if (quota_report_parse(answer, &r))
		return fail("quota: unexpected answer from the daemon");
	if (r.type == RQUOTA_GRPQUOTA) {
		struct group *g = getgrgid((gid_t)r.id);

		snprintf(name, sizeof(name), "%s", g ? g->gr_name : "");
	} else {
		struct passwd *pw = getpwuid((uid_t)r.id);

		snprintf(name, sizeof(name), "%s", pw ? pw->pw_name : "");
	}
	if (!name[0])
		snprintf(name, sizeof(name), "#%" PRIu32, r.id);
	if (!r.found) {
		printf("no quota for %s %s on %s\n",
		       r.type == RQUOTA_GRPQUOTA ? "group" : "user", name,
		       r.where);
		return fflush(stdout) == 0 ? EXIT_NOQUOTA : 1;
	}
	need = quota_format(&r, name, NULL, 0) + 1;
	text = malloc(need);
	if (!text)
		return fail("out of memory");
	quota_format(&r, name, text, need);
	fputs(text, stdout);
	free(text);
	return fflush(stdout) == 0 ? 0 : 1;
}

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/*
 * Read the answer: "OK\n" and the text, or "ERR message\n".  For a trace
 * the text is endless, and a trace line may come before "OK".
 */
static int read_answer(int fd, bool trace, GString *collect)
{
	char buf[8192], status[LINE_MAX_LEN];
	size_t slen = 0;
	bool have_status = false;
	ssize_t n;

	for (;;) {
		char *p, *end;

		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR) {
			if (interrupted)
				return 0;
			continue;
		}
		if (n < 0)
			return fail("control socket: %s", strerror(errno));
		if (n == 0)
			break;
		p = buf;
		end = buf + n;
		while (!have_status && p < end) {
			char c = *p++;

			if (c != '\n') {
				if (slen < sizeof(status) - 1)
					status[slen++] = c;
				continue;
			}
			status[slen] = '\0';
			slen = 0;
			if (strcmp(status, "OK") == 0) {
				have_status = true;
			} else if (strncmp(status, "ERR ", 4) == 0) {
				return fail("%s", status + 4);
			} else if (trace) {
				puts(status); /* a line that overtook OK */
			} else {
				return fail("unexpected answer '%s'", status);
			}
		}
		if (have_status && p < end && collect) {
			g_string_append_len(collect, p, end - p);
		} else if (have_status && p < end) {
			fwrite(p, 1, (size_t)(end - p), stdout);
			if (trace)
				fflush(stdout);
		}
	}
	if (!have_status)
		return fail("the daemon closed the connection without an "
			    "answer");
	return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	char sock[CTL_PATH_MAX], canon[PATH_MAX], line[LINE_MAX_LEN];
	const char *cmd;
	struct stat mnt_st;
	GString *answer = NULL;
	uint64_t fileid = 0;
	uint32_t qid = 0;
	size_t len;
	bool trace = false;
	int fd, ret, n;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
	}
	if (argc < 3)
		return bad_usage(argc < 2 ? "missing MOUNTPOINT and COMMAND"
					  : "missing COMMAND");
	mnt = argv[1];
	cmd = argv[2];

	/* Check the command line before touching the mount. */
	if (!strcmp(cmd, "stats")) {
		if (argc > 4 || (argc == 4 && strcmp(argv[3], "--json") &&
				 strcmp(argv[3], "json")))
			return bad_usage("usage: stats [--json]");
	} else if (!strcmp(cmd, "cache")) {
		if (argc != 4)
			return bad_usage("usage: cache PATH");
	} else if (!strcmp(cmd, "drop")) {
		if (argc > 4)
			return bad_usage("usage: drop [PATH]");
	} else if (!strcmp(cmd, "set")) {
		if (argc < 4)
			return bad_usage("usage: set KEY=VALUE...");
		for (int i = 3; i < argc; i++) {
			const char *eq = strchr(argv[i], '=');

			if (!eq || eq == argv[i] || strpbrk(argv[i], " \t\n"))
				return bad_usage("set: expected KEY=VALUE "
						 "(no spaces)");
		}
	} else if (!strcmp(cmd, "quota")) {
		bool group = argc == 5 && (!strcmp(argv[3], "--group") ||
					   !strcmp(argv[3], "-g"));

		if (!(argc == 3 || (argc == 4 && argv[3][0] != '-') || group) ||
		    (argc > 3 && !argv[argc - 1][0]))
			return bad_usage("usage: quota [USER|--group GROUP]");
		if (argc > 3) {
			ret = resolve_id(argv[argc - 1], group, &qid);
			if (ret)
				return ret;
		}
	} else if (!strcmp(cmd, "trace") || !strcmp(cmd, "locks")) {
		if (argc != 3)
			return bad_usage(!strcmp(cmd, "trace")
						 ? "usage: trace"
						 : "usage: locks");
		trace = !strcmp(cmd, "trace");
	} else {
		fprintf(stderr, "nfsfusectl: unknown command '%s'\n", cmd);
		usage(stderr);
		return 2;
	}

	ret = ctl_sock_path(mnt, sock, sizeof(sock), canon, sizeof(canon));
	if (ret == -ENAMETOOLONG)
		return fail("path too long for a control socket");
	if (ret)
		return fail("%s", strerror(-ret));
	/* The command line for the daemon.  Only a command about a file
	 * looks at the mount itself: statistics must not disturb what they
	 * count. */
	if (!strcmp(cmd, "stats")) {
		n = snprintf(line, sizeof(line), "stats%s\n",
			     argc == 4 ? " json" : "");
	} else if (!strcmp(cmd, "cache") || !strcmp(cmd, "drop")) {
		if (argc == 4) {
			if (stat(canon, &mnt_st) < 0)
				return fail("%s", strerror(errno));
			if (fileid_of(argv[3], &mnt_st, &fileid))
				return 1;
			if (!strcmp(cmd, "cache"))
				n = snprintf(line, sizeof(line),
					     "cache %" PRIu64 " %s\n", fileid,
					     argv[3]);
			else
				n = snprintf(line, sizeof(line),
					     "drop %" PRIu64 "\n", fileid);
		} else {
			n = snprintf(line, sizeof(line), "drop\n");
		}
	} else if (!strcmp(cmd, "quota")) {
		/* Without a name the daemon takes the caller's uid from the
		 * socket: the answer is about whoever asks. */
		if (argc == 3)
			n = snprintf(line, sizeof(line), "quota\n");
		else
			n = snprintf(line, sizeof(line),
				     "quota %s %" PRIu32 "\n",
				     argc == 5 ? "group" : "user", qid);
	} else if (!strcmp(cmd, "set")) {
		n = snprintf(line, sizeof(line), "set");
		for (int i = 3; i < argc && n >= 0 && (size_t)n < sizeof(line);
		     i++)
			n += snprintf(line + n, sizeof(line) - (size_t)n,
				      " %s", argv[i]);
		if (n >= 0 && (size_t)n < sizeof(line))
			n += snprintf(line + n, sizeof(line) - (size_t)n,
				      "\n");
	} else {
		n = snprintf(line, sizeof(line), "%s\n", cmd);
	}
	if (n < 0 || (size_t)n >= sizeof(line))
		return bad_usage("command line too long");
	len = (size_t)n;
	/* Only the final newline ends the command (a path may hold one). */
	for (size_t i = 0; i + 1 < len; i++)
		if (line[i] == '\n' || line[i] == '\r')
			line[i] = '?';

	fd = connect_ctl(sock);
	if (fd < 0)
		return 1;
	if (trace) {
		struct sigaction sa = { .sa_handler = on_signal };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL); /* no SA_RESTART: read ends */
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
	}
	if (!strcmp(cmd, "quota"))
		answer = g_string_new(NULL); /* printed by print_quota() */
	if (send_all(fd, line, len) < 0) {
		ret = fail("control socket: %s", strerror(errno));
	} else {
		ret = read_answer(fd, trace, answer);
	}
	close(fd);
	if (answer) {
		if (ret == 0)
			ret = print_quota(answer->str);
		g_string_free(answer, TRUE);
	}
	return ret;
}
