// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parsing of option values, shared by the command line and the control
 * socket so that "drop-calls 10" means the same thing in both places.
 * Every parser is strict: trailing junk, signs, or out-of-range values are
 * errors, never silently clamped (a test that asks for 150% has a bug).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfsproxy.h"

/* A non-negative decimal number: no sign, no "inf", no hex. */
static int parse_double(const char *s, double max, double *v)
{
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	*v = strtod(s, &end);
	if (errno || *end || !isfinite(*v) || *v < 0 || *v > max)
		return -EINVAL;
	return 0;
}

int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

int parse_pct(const char *s, uint32_t *ppm)
{
	double v;

	if (parse_double(s, 100, &v))
		return -EINVAL;
	*ppm = (uint32_t)lround(v * (PROXY_PPM / 100));
	return 0;
}

/* Seconds, fractions allowed ("0.5"), up to a day. */
int parse_seconds(const char *s, uint64_t *ms)
{
	double v;

	if (parse_double(s, 86400, &v))
		return -EINVAL;
	*ms = (uint64_t)llround(v * 1000);
	return 0;
}

/* "MIN" or "MIN-MAX" in milliseconds, up to ten minutes. */
int parse_delay(const char *s, uint32_t *min, uint32_t *max)
{
	char buf[64], *dash;
	uint64_t lo, hi;

	if (!s || strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	dash = strchr(buf, '-');
	if (dash)
		*dash = '\0';
	if (parse_u64(buf, &lo))
		return -EINVAL;
	hi = lo;
	if (dash && parse_u64(dash + 1, &hi))
		return -EINVAL;
	if (lo > hi || hi > 600000)
		return -EINVAL;
	*min = (uint32_t)lo;
	*max = (uint32_t)hi;
	return 0;
}

/* "all", or procedure numbers 0-31 separated by commas ("8,9"). */
int parse_procs(const char *s, uint32_t *mask)
{
	char buf[256], *tok, *save = NULL;
	uint32_t m = 0;
	uint64_t v;

	if (!s || strlen(s) >= sizeof(buf))
		return -EINVAL;
	if (!strcmp(s, "all")) {
		*mask = 0;
		return 0;
	}
	strcpy(buf, s);
	if (!buf[0] || buf[strlen(buf) - 1] == ',')
		return -EINVAL;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (parse_u64(tok, &v) || v > 31)
			return -EINVAL;
		m |= 1u << v;
	}
	*mask = m;
	return 0;
}

static const char *const corrupt_names[] = {
	[CORRUPT_FLIP] = "flip",
	[CORRUPT_TRUNCATE] = "truncate",
	[CORRUPT_ENLARGE] = "enlarge",
	[CORRUPT_GARBAGE] = "garbage",
};

int parse_corrupt_mode(const char *s, enum corrupt_mode *m)
{
	size_t i;

	for (i = 0; s && i < sizeof(corrupt_names) / sizeof(corrupt_names[0]);
	     i++) {
		if (!strcmp(s, corrupt_names[i])) {
			*m = (enum corrupt_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

static bool is_loopback(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *sin = (const void *)ss;

		return (ntohl(sin->sin_addr.s_addr) >> 24) == 127;
	}
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const void *)ss;

		return IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr);
	}
	return false;
}

/*
 * "PORT" (when port_only: 127.0.0.1), "HOST:PORT" or "[V6]:PORT".  HOST is
 * a numeric address or "localhost"; no name service, so the loopback check
 * cannot be fooled by what a resolver returns.
 */
int parse_addr(const char *s, bool port_only, bool port0_ok,
	       struct sockaddr_storage *ss, socklen_t *len)
{
	char host[INET6_ADDRSTRLEN + 8];
	const char *colon, *hs = "127.0.0.1";
	size_t hlen;
	uint64_t port;
	struct sockaddr_in *sin = (void *)ss;
	struct sockaddr_in6 *sin6 = (void *)ss;

	if (!s)
		return -EINVAL;
	colon = strrchr(s, ':');
	if (!colon && !port_only)
		return -EINVAL;
	if (colon) {
		hlen = (size_t)(colon - s);
		if (hlen >= 2 && s[0] == '[' && s[hlen - 1] == ']') {
			s++;
			hlen -= 2;
		}
		if (hlen == 0 || hlen >= sizeof(host))
			return -EINVAL;
		memcpy(host, s, hlen);
		host[hlen] = '\0';
		hs = host;
		s = colon + 1;
	}
	if (parse_u64(s, &port) || port > 65535 || (port == 0 && !port0_ok))
		return -EINVAL;
	if (!strcmp(hs, "localhost"))
		hs = "127.0.0.1";

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, hs, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)port);
		*len = sizeof(*sin);
	} else if (inet_pton(AF_INET6, hs, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*sin6);
	} else {
		return -EINVAL;
	}
	return is_loopback(ss) ? 0 : -EPERM;
}

void addr_str(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN];

	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *sin = (const void *)ss;

		inet_ntop(AF_INET, &sin->sin_addr, ip, sizeof(ip));
		snprintf(buf, len, "%s:%u", ip, ntohs(sin->sin_port));
	} else if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const void *)ss;

		inet_ntop(AF_INET6, &sin6->sin6_addr, ip, sizeof(ip));
		snprintf(buf, len, "[%s]:%u", ip, ntohs(sin6->sin6_port));
	} else {
		snprintf(buf, len, "?");
	}
}

void faults_clear(struct faults *f)
{
	memset(f, 0, sizeof(*f));
	f->corrupt_mode = CORRUPT_FLIP;
}

/* A new period starts counting now, not from the old schedule. */
void cut_reschedule(uint64_t now)
{
	P.next_cut = P.f.cut_every_ms ? now + P.f.cut_every_ms : 0;
}

int fault_set(struct faults *f, const char *name, const char *val,
	      const char **err)
{
	int ret;

	*err = "bad percentage (0-100)";
	if (!strcmp(name, "drop-calls"))
		ret = parse_pct(val, &f->drop_ppm[DIR_CALL]);
	else if (!strcmp(name, "drop-replies"))
		ret = parse_pct(val, &f->drop_ppm[DIR_REPLY]);
	else if (!strcmp(name, "dup-calls"))
		ret = parse_pct(val, &f->dup_ppm[DIR_CALL]);
	else if (!strcmp(name, "dup-replies"))
		ret = parse_pct(val, &f->dup_ppm[DIR_REPLY]);
	else if (!strcmp(name, "reorder"))
		ret = parse_pct(val, &f->reorder_ppm);
	else if (!strcmp(name, "drop-reply-once"))
		ret = parse_pct(val, &f->once_ppm);
	else if (!strcmp(name, "drop-reply-once-cut"))
		ret = parse_pct(val, &f->once_cut_ppm);
	else if (!strcmp(name, "once-procs")) {
		*err = "procedure numbers 0-31 separated by commas, or all";
		ret = parse_procs(val, &f->once_procs);
	} else if (!strcmp(name, "delay-reply-procs")) {
		*err = "procedure numbers 0-31 separated by commas, or all";
		ret = parse_procs(val, &f->delay_reply_procs);
	} else if (!strcmp(name, "corrupt-replies"))
		ret = parse_pct(val, &f->corrupt_ppm);
	else if (!strcmp(name, "corrupt-mode")) {
		*err = "corrupt mode is flip, truncate, enlarge or garbage";
		ret = parse_corrupt_mode(val, &f->corrupt_mode);
	} else if (!strcmp(name, "delay-ms")) {
		*err = "delay is MIN[-MAX] milliseconds, at most 600000";
		ret = parse_delay(val, &f->delay_min_ms, &f->delay_max_ms);
	} else if (!strcmp(name, "cut-every")) {
		*err = "bad number of seconds";
		ret = parse_seconds(val, &f->cut_every_ms);
	} else {
		*err = "unknown setting";
		return -ENOENT;
	}
	return ret ? -EINVAL : 0;
}
