/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "client.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define STATUS_MAX 4096

const char *client_mnt = "";
volatile int client_interrupted;

int client_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "nfsfusectl: %s: ", client_mnt);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

/* A failure: into why when the caller wants it quiet, else on stderr. */
static int say(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int say(char *why, size_t whylen, const char *fmt, ...)
{
	char msg[STATUS_MAX + 128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (why)
		snprintf(why, whylen, "%s", msg);
	else
		client_fail("%s", msg);
	return 1;
}

static int connect_ctl(const char *sock, char *why, size_t whylen)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd, err;

	if (strlen(sock) >= sizeof(sun.sun_path)) {
		say(why, whylen, "control socket path too long");
		return -1;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		say(why, whylen, "socket: %s", strerror(errno));
		return -1;
	}
	memcpy(sun.sun_path, sock, strlen(sock) + 1);
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0)
		return fd;
	err = errno;
	close(fd);
	if (err == ENOENT || err == ENOTDIR)
		say(why, whylen, "not an nfsfuse mount (no control socket at "
		    "%s)", sock);
	else if (err == ECONNREFUSED)
		say(why, whylen, "not an nfsfuse mount (control socket at %s "
		    "is stale: its daemon is gone)", sock);
	else if (err == EACCES || err == EPERM)
		say(why, whylen, "control socket %s: %s (the mount belongs to "
		    "another user?)", sock, strerror(err));
	else
		say(why, whylen, "control socket %s: %s", sock, strerror(err));
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

/*
 * Read the answer: "OK\n" and the text, or "ERR message\n".  For a trace
 * the text is endless, and a trace line may come before "OK".
 */
static int read_answer(int fd, bool trace, GString *collect, char *why,
		       size_t whylen)
{
	char buf[8192], status[STATUS_MAX];
	size_t slen = 0;
	bool have_status = false;
	ssize_t n;

	for (;;) {
		char *p, *end;

		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR) {
			if (client_interrupted)
				return 0;
			continue;
		}
		if (n < 0)
			return say(why, whylen, "control socket: %s",
				   strerror(errno));
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
				return say(why, whylen, "%s", status + 4);
			} else if (trace) {
				puts(status); /* a line that overtook OK */
			} else {
				return say(why, whylen, "unexpected answer "
					   "'%s'", status);
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
		return say(why, whylen, "the daemon closed the connection "
			   "without an answer");
	return collect || fflush(stdout) == 0 ? 0 : 1;
}

int client_ask(const char *sock, const char *line, size_t len, bool trace,
	       GString *collect, char *why, size_t whylen)
{
	int fd, ret;

	fd = connect_ctl(sock, why, whylen);
	if (fd < 0)
		return 1;
	if (send_all(fd, line, len) < 0)
		ret = say(why, whylen, "control socket: %s", strerror(errno));
	else
		ret = read_answer(fd, trace, collect, why, whylen);
	close(fd);
	return ret;
}
