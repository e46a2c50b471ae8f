/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfsfusectl: talk to the control socket of a running nfsfuse mount.
 *
 *     nfsfusectl MOUNTPOINT stats [--json|--prometheus]
 *     nfsfusectl MOUNTPOINT cache PATH
 *     nfsfusectl MOUNTPOINT trace
 *     nfsfusectl MOUNTPOINT drop [PATH]
 *     nfsfusectl MOUNTPOINT set KEY=VALUE...
 *     nfsfusectl MOUNTPOINT locks
 *     nfsfusectl MOUNTPOINT quota [USER|--group GROUP]
 *     nfsfusectl MOUNTPOINT iostat [INTERVAL [COUNT]]
 *     nfsfusectl list
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
#include "client.h"
#include "monitor.h"
#include "../src/proto/quota.h"

#define EXIT_NOQUOTA 3

#ifndef NFSFUSE_VERSION
#define NFSFUSE_VERSION "unknown"
#endif

#define LINE_MAX_LEN 4096


/* Every command; the man page test checks that each is in nfsfusectl(8). */
static const struct command {
	const char *name;
	const char *help;  /* "ARGS  what it does", wrapped by hand */
} commands[] = {
	{ "stats", "stats [--json|--prometheus]\n"
	  "       RPC calls, retransmissions, errors, bytes and latency per\n"
	  "       procedure; cache counters; as JSON or in the Prometheus\n"
	  "       text format" },
	{ "iostat", "iostat [INTERVAL [COUNT]]\n"
	  "       per-operation rates like nfsiostat: ops/s, kB/s, kB/op,\n"
	  "       retransmissions, average RTT and execution time" },
	{ "cache", "cache PATH\n"
	  "       what is cached for PATH, until when and why" },
	{ "trace", "trace\n"
	  "       live stream: one line per cache decision and RPC, until\n"
	  "       interrupted" },
	{ "drop", "drop [PATH]\n"
	  "       drop the cached attributes and data of PATH (of every\n"
	  "       file without PATH)" },
	{ "set", "set KEY=VALUE...\n"
	  "       change cache options of the running mount (acregmin,\n"
	  "       acregmax, acdirmin, acdirmax, actimeo, noac, ...)" },
	{ "locks", "locks\n"
	  "       byte-range locks held and waited for" },
	{ "quota", "quota [USER|--group GROUP]\n"
	  "       the server's disk quota (RQUOTA) for USER (default: you)\n"
	  "       or GROUP, by name or number, like quota(1); only root may\n"
	  "       ask about others or groups it is not in" },
	{ "list", "list   (no MOUNTPOINT)\n"
	  "       every nfsfuse mount you may see, with its server, version\n"
	  "       and options, like nfsstat -m" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: nfsfusectl MOUNTPOINT COMMAND [ARGS]\n"
		   "       nfsfusectl list\n"
		   "       nfsfusectl -V|--version\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %s\n", commands[i].help);
	fprintf(f, "\nExit status: 0 done, 1 failed, 2 bad usage, "
		   "3 no quota.\n");
}

static bool known_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(name, commands[i].name))
			return true;
	return false;
}

/* A whole decimal number from 1 to max, or 0 when s is not one. */
static unsigned parse_count(const char *s, unsigned max)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return 0;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return 0;
	return (unsigned)v;
}

static int bad_usage(const char *msg)
{
	fprintf(stderr, "nfsfusectl: %s\n", msg);
	fprintf(stderr, "Try 'nfsfusectl -h' for help.\n");
	return 2;
}

/* The fileid of path, which must be on the mount.  A relative path that
 * does not exist from here is tried from the mount point.  A symlink
 * names itself, as with ls -l: the daemon keeps its attributes, and the
 * kernel its target, apart from those of the file it points to. */
static int fileid_of(const char *path, const struct stat *mnt_st,
		     uint64_t *fileid)
{
	struct stat st;
	char alt[PATH_MAX];

	if (lstat(path, &st) < 0) {
		int err = errno;

		if (path[0] == '/' || err != ENOENT ||
		    (size_t)snprintf(alt, sizeof(alt), "%s/%s", client_mnt, path) >=
			    sizeof(alt) ||
		    lstat(alt, &st) < 0)
			return client_fail("%s: %s", path, strerror(err));
	}
	if (st.st_dev != mnt_st->st_dev)
		return client_fail("%s is not on this mount", path);
	*fileid = (uint64_t)st.st_ino;
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
		return client_fail("quota: unexpected answer from the daemon");
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
		return client_fail("out of memory");
	quota_format(&r, name, text, need);
	fputs(text, stdout);
	free(text);
	return fflush(stdout) == 0 ? 0 : 1;
}

static void on_signal(int sig)
{
	(void)sig;
	client_interrupted = 1;
}

int main(int argc, char **argv)
{
	char sock[CTL_PATH_MAX], canon[PATH_MAX], line[LINE_MAX_LEN];
	const char *cmd;
	struct stat mnt_st;
	GString *answer = NULL;
	uint64_t fileid = 0;
	uint32_t qid = 0;
	unsigned interval = 0, count = 0;
	bool trace = false;
	int ret, n;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
	}
	if (argc == 2 && (!strcmp(argv[1], "-V") ||
			  !strcmp(argv[1], "--version"))) {
		printf("nfsfusectl %s\n", NFSFUSE_VERSION);
		return fflush(stdout) ? 1 : 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--list-commands")) {
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]);
		     i++)
			printf("%s\n", commands[i].name);
		return fflush(stdout) ? 1 : 0;
	}
	if (argc == 2 && !strcmp(argv[1], "list"))
		return monitor_list();
	if (argc < 3)
		return bad_usage(argc < 2 ? "missing MOUNTPOINT and COMMAND"
					  : "missing COMMAND");
	client_mnt = argv[1];
	cmd = argv[2];

	/* Check the command line before touching the mount. */
	if (!strcmp(cmd, "list")) {
		return bad_usage("list takes no MOUNTPOINT: nfsfusectl list");
	} else if (!known_command(cmd)) {
		fprintf(stderr, "nfsfusectl: unknown command '%s'\n", cmd);
		usage(stderr);
		return 2;
	} else if (!strcmp(cmd, "stats")) {
		if (argc > 4 || (argc == 4 && strcmp(argv[3], "--json") &&
				 strcmp(argv[3], "json") &&
				 strcmp(argv[3], "--prometheus")))
			return bad_usage("usage: stats [--json|--prometheus]");
	} else if (!strcmp(cmd, "iostat")) {
		if (argc > 5 ||
		    (argc >= 4 && !(interval = parse_count(argv[3], 86400))) ||
		    (argc == 5 && !(count = parse_count(argv[4], 1000000))))
			return bad_usage("usage: iostat [INTERVAL [COUNT]] "
					 "(whole seconds from 1, a count "
					 "from 1)");
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
	}

	ret = ctl_sock_path(client_mnt, sock, sizeof(sock), canon,
			    sizeof(canon));
	if (ret == -ENAMETOOLONG)
		return client_fail("path too long for a control socket");
	if (ret)
		return client_fail("%s", strerror(-ret));
	if (!strcmp(cmd, "iostat")) {
		struct sigaction sa = { .sa_handler = on_signal };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		return monitor_iostat(sock, canon, interval,
				      argc == 4 ? 0 : count);
	}
	/* The command line for the daemon.  Only a command about a file
	 * looks at the mount itself: statistics must not disturb what they
	 * count. */
	if (!strcmp(cmd, "stats")) {
		n = snprintf(line, sizeof(line), "stats%s\n",
			     argc < 4 ? ""
			     : !strcmp(argv[3], "--prometheus") ? " prometheus"
								: " json");
	} else if (!strcmp(cmd, "cache") || !strcmp(cmd, "drop")) {
		if (argc == 4) {
			if (stat(canon, &mnt_st) < 0)
				return client_fail("%s", strerror(errno));
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
	/* Only the final newline ends the command (a path may hold one). */
	for (int i = 0; i + 1 < n; i++)
		if (line[i] == '\n' || line[i] == '\r')
			line[i] = '?';

	if (trace) {
		struct sigaction sa = { .sa_handler = on_signal };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL); /* no SA_RESTART: read ends */
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
	}
	if (!strcmp(cmd, "quota"))
		answer = g_string_new(NULL); /* printed by print_quota() */
	ret = client_ask(sock, line, (size_t)n, trace, answer, NULL, 0);
	if (answer) {
		if (ret == 0)
			ret = print_quota(answer->str);
		g_string_free(answer, TRUE);
	}
	return ret;
}
