// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nfsproxy: fault-injection proxy for ONC RPC on loopback.
 *
 *   nfsproxy --listen PORT --to HOST:PORT [--proto tcp|udp] [--seed N]
 *            [--drop-calls PCT] [--drop-replies PCT]
 *            [--dup-calls PCT] [--dup-replies PCT]
 *            [--delay-ms MIN[-MAX]] [--reorder PCT] [--cut-every SECONDS]
 *            [--blackhole-after SECONDS --blackhole-for SECONDS]
 *            [--corrupt-replies PCT --corrupt-mode flip|truncate|enlarge|garbage]
 *            [--drop-reply-once PCT] [--drop-reply-once-cut PCT]
 *            [--once-procs N[,N...]|all] [--delay-reply-procs N[,N...]|all]
 *            [--control PATH] [--log FILE] [--ready-file FILE]
 *
 * --delay-reply-procs: --delay-ms is for the replies to these procedures
 * alone; their calls, and every other message, pass at once.  The server
 * then answers from the file as it was when the call came, and the client
 * sees the answer only after what it did meanwhile.
 * --drop-reply-once PCT: PCT % of the calls (of --once-procs, default all
 * procedures), chosen by XID when the call first passes, lose their first
 * reply; the retransmission with the same XID and its reply go through.
 * The server's duplicate request cache answers that retransmission.
 * --drop-reply-once-cut PCT: the same, and the connection (both sides) is
 * closed right after the lost reply: the client reconnects and the proxy
 * opens a new upstream connection from a new port, where the server's
 * duplicate request cache cannot match the XID, so a retransmitted
 * non-idempotent call (CREATE, MKDIR) is executed a second time.  XIDs are
 * remembered for the proxy's lifetime (up to 32768 of them; not per client).
 *
 * --listen takes PORT (on 127.0.0.1), HOST:PORT or [::1]:PORT; port 0 picks
 * a free one, which is written to --ready-file.  Only loopback addresses are
 * accepted: this is a test tool and must never relay anything off the host.
 *
 * Log lines (to --log, else stderr), one event each, no time stamp so that
 * tests can grep them:  "accept 127.0.0.1:876", "udp-peer 127.0.0.1:876",
 * "drop call xid=0x1234abcd", "dup reply xid=...", "delay call xid=... ms=N",
 * "reorder ...", "corrupt reply xid=... mode=M len=A->B", "blackhole call
 * xid=...", "blackhole start|end", "cut 127.0.0.1:876", "close ADDR WHY",
 * "eof ADDR from client|server", "control CMD", "drop-once reply xid=...
 * [cut]", and at exit "summary calls=N replies=N drops=N dups=N
 * corruptions=N cuts=N ... drop-once=N cut-once=N".
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>

#include "nfsproxy.h"

struct proxy P = { .lfd = -1 };

static FILE *log_out;
static volatile sig_atomic_t stop_signal;

uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	/* +1: zero means "not set" for every time stamp we keep. */
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000 + 1;
}

void plog(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(log_out, fmt, ap);
	va_end(ap);
	fputc('\n', log_out);
	fflush(log_out);
}

void stats_line(char *buf, size_t len)
{
	const struct stats *s = &P.st;

	snprintf(buf, len,
		 "calls=%llu replies=%llu drops=%llu dups=%llu corruptions=%llu cuts=%llu "
		 "drop-calls=%llu drop-replies=%llu dup-calls=%llu dup-replies=%llu "
		 "delays=%llu reorders=%llu blackholed=%llu accepts=%llu "
		 "closes=%llu malformed=%llu drop-once=%llu cut-once=%llu",
		 (unsigned long long)s->msgs[DIR_CALL],
		 (unsigned long long)s->msgs[DIR_REPLY],
		 (unsigned long long)(s->drops[DIR_CALL] + s->drops[DIR_REPLY]),
		 (unsigned long long)(s->dups[DIR_CALL] + s->dups[DIR_REPLY]),
		 (unsigned long long)s->corruptions,
		 (unsigned long long)s->cuts,
		 (unsigned long long)s->drops[DIR_CALL],
		 (unsigned long long)s->drops[DIR_REPLY],
		 (unsigned long long)s->dups[DIR_CALL],
		 (unsigned long long)s->dups[DIR_REPLY],
		 (unsigned long long)s->delays,
		 (unsigned long long)s->reorders,
		 (unsigned long long)s->blackholed,
		 (unsigned long long)s->accepts,
		 (unsigned long long)s->closes,
		 (unsigned long long)s->malformed,
		 (unsigned long long)s->once_drops,
		 (unsigned long long)s->once_cuts);
}

/* ---- command line ---- */

struct cmdline {
	const char *listen, *to, *control, *log, *ready;
	uint64_t seed;
	bool have_seed;
	uint64_t bh_after, bh_for;
	bool have_bh_after, have_bh_for;
};

enum {
	OPT_LISTEN = 256, OPT_TO, OPT_PROTO, OPT_SEED, OPT_FAULT,
	OPT_BH_AFTER, OPT_BH_FOR, OPT_CONTROL, OPT_LOG, OPT_READY, OPT_HELP,
};

static const struct option longopts[] = {
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "to", required_argument, NULL, OPT_TO },
	{ "proto", required_argument, NULL, OPT_PROTO },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "drop-calls", required_argument, NULL, OPT_FAULT },
	{ "drop-replies", required_argument, NULL, OPT_FAULT },
	{ "dup-calls", required_argument, NULL, OPT_FAULT },
	{ "dup-replies", required_argument, NULL, OPT_FAULT },
	{ "delay-ms", required_argument, NULL, OPT_FAULT },
	{ "reorder", required_argument, NULL, OPT_FAULT },
	{ "cut-every", required_argument, NULL, OPT_FAULT },
	{ "corrupt-replies", required_argument, NULL, OPT_FAULT },
	{ "corrupt-mode", required_argument, NULL, OPT_FAULT },
	{ "drop-reply-once", required_argument, NULL, OPT_FAULT },
	{ "drop-reply-once-cut", required_argument, NULL, OPT_FAULT },
	{ "once-procs", required_argument, NULL, OPT_FAULT },
	{ "delay-reply-procs", required_argument, NULL, OPT_FAULT },
	{ "blackhole-after", required_argument, NULL, OPT_BH_AFTER },
	{ "blackhole-for", required_argument, NULL, OPT_BH_FOR },
	{ "control", required_argument, NULL, OPT_CONTROL },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "ready-file", required_argument, NULL, OPT_READY },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *out)
{
	fputs("usage: nfsproxy --listen PORT --to HOST:PORT [--proto tcp|udp] [--seed N]\n"
	      "         [--drop-calls PCT] [--drop-replies PCT] [--dup-calls PCT] [--dup-replies PCT]\n"
	      "         [--delay-ms MIN[-MAX]] [--delay-reply-procs N,N|all]\n"
	      "         [--reorder PCT] [--cut-every SECONDS]\n"
	      "         [--blackhole-after SECONDS --blackhole-for SECONDS]\n"
	      "         [--corrupt-replies PCT --corrupt-mode flip|truncate|enlarge|garbage]\n"
	      "         [--drop-reply-once PCT] [--drop-reply-once-cut PCT] [--once-procs N,N|all]\n"
	      "         [--control PATH] [--log FILE] [--ready-file FILE]\n"
	      "Addresses must be loopback (127.0.0.0/8 or ::1).\n", out);
}

static int bad(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "nfsproxy: --%s %s: %s\n", opt, val ? val : "", why);
	return -1;
}

static int parse_one(struct cmdline *cl, int c, int idx, const char *arg)
{
	const char *name = longopts[idx].name, *err;

	switch (c) {
	case OPT_LISTEN:
		cl->listen = arg;
		return 0;
	case OPT_TO:
		cl->to = arg;
		return 0;
	case OPT_PROTO:
		if (strcmp(arg, "tcp") && strcmp(arg, "udp"))
			return bad(name, arg, "tcp or udp");
		P.udp = !strcmp(arg, "udp");
		return 0;
	case OPT_SEED:
		cl->have_seed = true;
		return parse_u64(arg, &cl->seed) ?
		       bad(name, arg, "not a number") : 0;
	case OPT_FAULT:
		return fault_set(&P.f, name, arg, &err) ?
		       bad(name, arg, err) : 0;
	case OPT_BH_AFTER:
		cl->have_bh_after = true;
		return parse_seconds(arg, &cl->bh_after) ?
		       bad(name, arg, "bad number of seconds") : 0;
	case OPT_BH_FOR:
		cl->have_bh_for = true;
		return parse_seconds(arg, &cl->bh_for) ?
		       bad(name, arg, "bad number of seconds") : 0;
	case OPT_CONTROL:
		cl->control = arg;
		return 0;
	case OPT_LOG:
		cl->log = arg;
		return 0;
	case OPT_READY:
		cl->ready = arg;
		return 0;
	}
	return -1;
}

/* 0 to run, 1 for --help, -1 on error (already reported). */
static int parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	int c, idx;

	faults_clear(&P.f);
	while ((c = getopt_long(argc, argv, "", longopts, &idx)) != -1) {
		if (c == OPT_HELP) {
			usage(stdout);
			return 1;
		}
		if (c == '?' || parse_one(cl, c, idx, optarg)) {
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "nfsproxy: unexpected argument '%s'\n",
			argv[optind]);
		return -1;
	}
	if (!cl->listen || !cl->to) {
		usage(stderr);
		return -1;
	}
	if (cl->have_bh_after != cl->have_bh_for) {
		fprintf(stderr, "nfsproxy: --blackhole-after and --blackhole-for go together\n");
		return -1;
	}
	return 0;
}

/* ---- set-up ---- */

static int open_listener(const char *spec, const struct sockaddr_storage *ss,
			 socklen_t sl)
{
	int one = 1;

	P.lfd = socket(ss->ss_family, (P.udp ? SOCK_DGRAM : SOCK_STREAM) |
		       SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (P.lfd < 0)
		return bad("listen", spec, strerror(errno));
	setsockopt(P.lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ss->ss_family == AF_INET6)
		setsockopt(P.lfd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(P.lfd, (const struct sockaddr *)ss, sl) < 0 ||
	    (!P.udp && listen(P.lfd, 128) < 0))
		return bad("listen", spec, strerror(errno));
	return 0;
}

/* Both addresses, before anything is opened: a bad one is a usage error. */
static int parse_addrs(const struct cmdline *cl, struct sockaddr_storage *lss,
		       socklen_t *lsl)
{
	int err;

	err = parse_addr(cl->listen, true, true, lss, lsl);
	if (err)
		return bad("listen", cl->listen, err == -EPERM ?
			   "not a loopback address" :
			   "expected PORT or HOST:PORT");
	err = parse_addr(cl->to, false, false, &P.to, &P.tolen);
	if (err)
		return bad("to", cl->to, err == -EPERM ?
			   "not a loopback address" : "expected HOST:PORT");
	return 0;
}

static unsigned int bound_port(void)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(P.lfd, (struct sockaddr *)&ss, &sl) < 0)
		return 0;
	if (ss.ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *)&ss)->sin_port);
	return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
}

/* Written whole under a temporary name, so a reader never sees half. */
static int write_ready(const char *path, unsigned int port)
{
	char tmp[4096];
	FILE *f;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp))
		return bad("ready-file", path, "path too long");
	f = fopen(tmp, "w");
	if (!f)
		return bad("ready-file", path, strerror(errno));
	fprintf(f, "%u\n", port);
	if (fclose(f) != 0 || rename(tmp, path) < 0)
		return bad("ready-file", path, strerror(errno));
	return 0;
}

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void signals_setup(sigset_t *orig)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	/* Blocked except inside ppoll(), so no signal slips in between the
	 * check of stop_signal and the wait. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, orig);
	sigdelset(orig, SIGTERM);
	sigdelset(orig, SIGINT);
}

/* ---- main loop ---- */

#define MAX_PFD	(1 + 16 + 2 * PROXY_MAX_FLOWS)

static struct pollfd pfd[MAX_PFD];
static struct flow *owner[MAX_PFD];

static int poll_fill(int *nctl)
{
	struct flow *fl;
	int n = 0, fd;

	pfd[n].fd = P.lfd;
	pfd[n++].events = POLLIN;
	*nctl = control_poll_fill(pfd + n, 16);
	n += *nctl;
	for (fl = P.flows; fl; fl = fl->next) {
		int fds[2] = { fl->cfd, fl->sfd }, i;

		for (i = 0; i < 2; i++) {
			fd = fds[i];
			if (fd < 0 || !flow_events(fl, fd))
				continue;
			owner[n] = fl;
			pfd[n].fd = fd;
			pfd[n++].events = flow_events(fl, fd);
		}
	}
	return n;
}

static void dispatch(int n, int nctl)
{
	int i;

	if (pfd[0].revents & POLLIN) {
		if (P.udp)
			udp_recv_client();
		else
			for (i = 0; i < 16 && tcp_accept(); i++)
				;
	}
	control_ready(pfd + 1, nctl);
	for (i = 1 + nctl; i < n; i++)
		if (pfd[i].revents)
			flow_ready(owner[i], pfd[i].fd, pfd[i].revents);
}

static int run(const sigset_t *mask)
{
	struct timespec ts;
	uint64_t now;
	int n, nctl, r, ms;

	while (!stop_signal) {
		now = now_ms();
		timers_run(now);
		flow_free_dead();
		n = poll_fill(&nctl);
		ms = timers_timeout(now_ms());
		ts.tv_sec = ms / 1000;
		ts.tv_nsec = (long)(ms % 1000) * 1000000;
		r = ppoll(pfd, (nfds_t)n, &ts, mask);
		if (r < 0 && errno != EINTR) {
			plog("poll failed: %s", strerror(errno));
			return 1;
		}
		if (r > 0)
			dispatch(n, nctl);
	}
	return 0;
}

/* Everything freed, so that LeakSanitizer runs of the tests stay quiet. */
static void shutdown_all(void)
{
	struct flow *fl;
	struct msg *m;

	while ((m = P.delayed)) {
		P.delayed = m->next;
		m->flow->refs--;
		msg_free(m);
	}
	for (fl = P.flows; fl; fl = fl->next)
		if (!fl->dead) {
			fl->dead = true;
			if (fl->cfd >= 0)
				close(fl->cfd);
			if (fl->sfd >= 0)
				close(fl->sfd);
		}
	flow_free_dead();
	control_close();
	xid_once_free();
	if (P.lfd >= 0)
		close(P.lfd);
}

static void start_log(uint64_t seed)
{
	char to[80];

	addr_str(&P.to, to, sizeof(to));
	plog("listening port=%u proto=%s to=%s seed=%llu", bound_port(),
	     P.udp ? "udp" : "tcp", to, (unsigned long long)seed);
}

int main(int argc, char **argv)
{
	struct cmdline cl = { 0 };
	struct sockaddr_storage lss;
	socklen_t lsl;
	char line[512];
	sigset_t mask;
	uint64_t seed, now;
	int ret, err;

	log_out = stderr;
	ret = parse_cmdline(argc, argv, &cl);
	if (ret)
		return ret > 0 ? 0 : 2;
	if (parse_addrs(&cl, &lss, &lsl))
		return 2;
	if (cl.log && !(log_out = fopen(cl.log, "a"))) {
		log_out = stderr;
		bad("log", cl.log, strerror(errno));
		return 1;
	}
	signals_setup(&mask);
	ret = 1;
	if (open_listener(cl.listen, &lss, lsl))
		goto out;
	if (cl.control && (err = control_open(cl.control))) {
		bad("control", cl.control, strerror(-err));
		goto out;
	}
	seed = cl.have_seed ? cl.seed :
	       (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	rng_seed(seed);
	now = now_ms();
	cut_reschedule(now);
	if (cl.have_bh_after && cl.bh_for) {
		P.bh_start = now + cl.bh_after;
		P.bh_end = P.bh_start + cl.bh_for;
	}
	start_log(seed);
	if (cl.ready && write_ready(cl.ready, bound_port()))
		goto out;

	ret = run(&mask);
	stats_line(line, sizeof(line));
	plog("summary %s", line);
	if (stop_signal)
		plog("exit on signal %d", (int)stop_signal);
out:
	shutdown_all();
	if (log_out != stderr)
		fclose(log_out);
	return ret;
}
