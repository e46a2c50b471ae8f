/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "nfs4_idmap.h"

#include <ctype.h>
#include <grp.h>
#include <netdb.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../base/log.h"
#include "nfs4_idcache.h"

/* Set once by nfs4_idmap_init() before any other thread exists. */
static char domain[NFS4_IDMAP_DOMAIN_MAX] = "localdomain";

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

bool nfs4_idmap_conf_domain(const char *text, char *out, size_t outlen)
{
	bool general = false, found = false;
	char *copy = strdup(text), *save = NULL, *line;

	if (!copy)
		return false;
	for (line = strtok_r(copy, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char *l = trim(line), *eq;

		if (*l == '#' || *l == ';' || !*l)
			continue;
		if (*l == '[') {
			general = !strncasecmp(l, "[General]", 9);
			continue;
		}
		eq = strchr(l, '=');
		if (!general || !eq)
			continue;
		*eq = '\0';
		if (strcasecmp(trim(l), "Domain"))
			continue;
		l = trim(eq + 1);
		if (*l && strlen(l) < outlen) {
			snprintf(out, outlen, "%s", l);
			found = true;
		}
	}
	free(copy);
	return found;
}

static bool conf_domain(char *out, size_t outlen)
{
	char text[16384];
	size_t n;
	FILE *f = fopen("/etc/idmapd.conf", "re");

	if (!f)
		return false;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	return nfs4_idmap_conf_domain(text, out, outlen);
}

/* The part after the first dot of the host's canonical name. */
static bool dns_domain(char *out, size_t outlen)
{
	struct addrinfo hints = { .ai_flags = AI_CANONNAME }, *ai;
	char host[256];
	const char *dot;
	bool ok = false;

	if (gethostname(host, sizeof(host) - 1))
		return false;
	host[sizeof(host) - 1] = '\0';
	if (getaddrinfo(host, NULL, &hints, &ai))
		return false;
	dot = ai->ai_canonname ? strchr(ai->ai_canonname, '.') : NULL;
	if (dot && dot[1] && strlen(dot + 1) < outlen) {
		snprintf(out, outlen, "%s", dot + 1);
		ok = true;
	}
	freeaddrinfo(ai);
	return ok;
}

void nfs4_idmap_init(const char *option)
{
	const char *from = "-o idmap_domain=";

	if (option && *option && strlen(option) < sizeof(domain))
		snprintf(domain, sizeof(domain), "%s", option);
	else if (conf_domain(domain, sizeof(domain)))
		from = "/etc/idmapd.conf";
	else if (dns_domain(domain, sizeof(domain)))
		from = "the DNS domain";
	else
		from = "the default";
	nf_log(NF_LOG_INFO, "NFSv4 owner domain '%s' (%s)", domain, from);
}

const char *nfs4_idmap_domain(void)
{
	return domain;
}

/* A whole decimal id below 2^32 - 1. */
static bool numeric(const char *s, size_t len, uint32_t *id)
{
	uint64_t v = 0;

	if (len == 0 || len > 10)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v >= 4294967295u)
		return false;
	*id = (uint32_t)v;
	return true;
}

/* name of "name@domain" into out when the domain is ours. */
static bool local_name(const char *s, size_t len, char *out, size_t outlen)
{
	const char *at = memchr(s, '@', len);
	size_t nlen, dlen;

	if (!at)
		return false;
	nlen = (size_t)(at - s);
	dlen = len - nlen - 1;
	if (nlen == 0 || nlen >= outlen || dlen != strlen(domain) ||
	    strncasecmp(at + 1, domain, dlen))
		return false;
	memcpy(out, s, nlen);
	out[nlen] = '\0';
	return true;
}

static uint32_t user_id(const char *s, size_t len)
{
	char name[NFS4_IDMAP_NAME_MAX], buf[4096];
	struct passwd pw, *r = NULL;

	if (!local_name(s, len, name, sizeof(name)) ||
	    getpwnam_r(name, &pw, buf, sizeof(buf), &r) || !r)
		return NFS4_IDMAP_OVERFLOW;
	return (uint32_t)r->pw_uid;
}

static uint32_t group_id(const char *s, size_t len)
{
	char name[NFS4_IDMAP_NAME_MAX], buf[16384];
	struct group gr, *r = NULL;

	if (!local_name(s, len, name, sizeof(name)) ||
	    getgrnam_r(name, &gr, buf, sizeof(buf), &r) || !r)
		return NFS4_IDMAP_OVERFLOW;
	return (uint32_t)r->gr_gid;
}

/* An owner or group string to its id: a number as it is, a name as the
 * database said, lately (nfs4_idcache.h) or now. */
static uint32_t to_id(enum nfs4_idcache_db db, const char *s, size_t len)
{
	uint32_t id;

	if (numeric(s, len, &id) || nfs4_idcache_id(db, s, len, &id))
		return id;
	id = db == NFS4_IDCACHE_USER ? user_id(s, len) : group_id(s, len);
	nfs4_idcache_put_id(db, s, len, id);
	return id;
}

uint32_t nfs4_idmap_uid(const char *s, size_t len)
{
	return to_id(NFS4_IDCACHE_USER, s, len);
}

uint32_t nfs4_idmap_gid(const char *s, size_t len)
{
	return to_id(NFS4_IDCACHE_GROUP, s, len);
}

void nfs4_idmap_user(uint32_t uid, char *out, size_t outlen)
{
	char buf[4096];
	struct passwd pw, *r = NULL;

	if (nfs4_idcache_name(NFS4_IDCACHE_USER, uid, out, outlen))
		return;
	if (getpwuid_r((uid_t)uid, &pw, buf, sizeof(buf), &r) != 0 || !r ||
	    (size_t)snprintf(out, outlen, "%s@%s", r->pw_name, domain) >=
		    outlen)
		snprintf(out, outlen, "%u", (unsigned)uid);
	nfs4_idcache_put_name(NFS4_IDCACHE_USER, uid, out);
}

void nfs4_idmap_group(uint32_t gid, char *out, size_t outlen)
{
	char buf[16384];
	struct group gr, *r = NULL;

	if (nfs4_idcache_name(NFS4_IDCACHE_GROUP, gid, out, outlen))
		return;
	if (getgrgid_r((gid_t)gid, &gr, buf, sizeof(buf), &r) != 0 || !r ||
	    (size_t)snprintf(out, outlen, "%s@%s", r->gr_name, domain) >=
		    outlen)
		snprintf(out, outlen, "%u", (unsigned)gid);
	nfs4_idcache_put_name(NFS4_IDCACHE_GROUP, gid, out);
}
