/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "options.h"

#include <errno.h>
#include <fuse_lowlevel.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../xdr/nfs3.h"

enum opt_kind { OPT_UINT, OPT_SIZE, OPT_FLAG, OPT_STR, OPT_CHOICE };

struct opt_def {
	const char *name;
	enum opt_kind kind;
	size_t off;          /* into struct nfsfuse_opts */
	unsigned long min, max;
	bool flag_value;     /* OPT_FLAG: what the bare word sets */
	const char *const *choices; /* OPT_CHOICE: index stored as unsigned */
};

#define O(f) offsetof(struct nfsfuse_opts, f)
#define DAY (24u * 3600u)

static const char *const proto_choices[] = { "tcp", "udp", NULL };
static const char *const lookupcache_choices[] = { "all", "positive", "none",
						   NULL };
static const char *const local_lock_choices[] = { "none", "flock", "posix",
						  "all", NULL };
static const char *const yes_no_choices[] = { "yes", "no", NULL };
static const char *const excl_choices[] = { "exclusive", "guarded", NULL };

static const struct opt_def opt_table[] = {
	{ "minorversion", OPT_UINT, O(minorversion), OPTS_MINOR_MIN,
	  OPTS_MINOR_MAX, false, NULL },
	{ "port", OPT_UINT, O(port), 1, 65535, false, NULL },
	{ "mountport", OPT_UINT, O(mountport), 1, 65535, false, NULL },
	{ "mountvers", OPT_UINT, O(mountvers), 1, 3, false, NULL },
	{ "rsize", OPT_SIZE, O(rsize), 1024, NFS3_MAXDATA, false, NULL },
	{ "wsize", OPT_SIZE, O(wsize), 1024, NFS3_MAXDATA, false, NULL },
	{ "timeo", OPT_UINT, O(timeo), 1, 6000, false, NULL },
	{ "retrans", OPT_UINT, O(retrans), 0, 100, false, NULL },
	{ "nconnect", OPT_UINT, O(nconnect), 1, 16, false, NULL },
	{ "acregmin", OPT_UINT, O(acregmin), 0, DAY, false, NULL },
	{ "acregmax", OPT_UINT, O(acregmax), 0, DAY, false, NULL },
	{ "acdirmin", OPT_UINT, O(acdirmin), 0, DAY, false, NULL },
	{ "acdirmax", OPT_UINT, O(acdirmax), 0, DAY, false, NULL },
	{ "cache_size", OPT_SIZE, O(cache_size), 1u << 20, 1ul << 40, false,
	  NULL },
	{ "resvport", OPT_FLAG, O(resvport), 0, 0, true, NULL },
	{ "noresvport", OPT_FLAG, O(resvport), 0, 0, false, NULL },
	{ "ac", OPT_FLAG, O(noac), 0, 0, false, NULL },
	{ "noac", OPT_FLAG, O(noac), 0, 0, true, NULL },
	{ "cto", OPT_FLAG, O(cto), 0, 0, true, NULL },
	{ "nocto", OPT_FLAG, O(cto), 0, 0, false, NULL },
	{ "dircomplete", OPT_FLAG, O(dircomplete), 0, 0, true, NULL },
	{ "nodircomplete", OPT_FLAG, O(dircomplete), 0, 0, false, NULL },
	{ "rdirplus", OPT_FLAG, O(rdirplus), 0, 0, true, NULL },
	{ "nordirplus", OPT_FLAG, O(rdirplus), 0, 0, false, NULL },
	{ "hostname", OPT_STR, O(hostname), 1, 255, false, NULL },
	{ "uid", OPT_UINT, O(uid), 0, OPTS_ID_NONE - 1, false, NULL },
	{ "gid", OPT_UINT, O(gid), 0, OPTS_ID_NONE - 1, false, NULL },
	{ "proto", OPT_CHOICE, O(proto_udp), 0, 0, false, proto_choices },
	{ "mountproto", OPT_CHOICE, O(mountproto), 0, 0, false,
	  proto_choices },
	{ "lookupcache", OPT_CHOICE, O(lookupcache), 0, 0, false,
	  lookupcache_choices },
	{ "lock", OPT_FLAG, O(nolock), 0, 0, false, NULL },
	{ "nolock", OPT_FLAG, O(nolock), 0, 0, true, NULL },
	{ "local_lock", OPT_CHOICE, O(local_lock), 0, 0, false,
	  local_lock_choices },
	{ "statedir", OPT_STR, O(statedir), 1, 4095, false, NULL },
	{ "clientaddr", OPT_STR, O(clientaddr), 1, 63, false, NULL },
	{ "idmap_domain", OPT_STR, O(idmap_domain), 1, 255, false, NULL },
	{ "nlm_callback", OPT_CHOICE, O(nlm_callback), 0, 0, false,
	  yes_no_choices },
	{ "nlmport", OPT_UINT, O(nlmport), 1, 65535, false, NULL },
	{ "excl", OPT_CHOICE, O(excl), 0, 0, false, excl_choices },
	{ "acl", OPT_FLAG, O(noacl), 0, 0, false, NULL },
	{ "noacl", OPT_FLAG, O(noacl), 0, 0, true, NULL },
	{ "aclport", OPT_UINT, O(aclport), 1, 65535, false, NULL },
	{ "quota_statfs", OPT_FLAG, O(quota_statfs), 0, 0, true, NULL },
	{ "noquota_statfs", OPT_FLAG, O(quota_statfs), 0, 0, false, NULL },
};

/* Words parse_one() takes besides opt_table's, for opts_list_names(). */
static const char *const special_words[] = { "hard", "soft", "softerr",
					     "actimeo", "vers", "nfsvers", NULL };

/* Words from fstab that mean nothing to a FUSE daemon. */
static const char *const fstab_noise[] = {
	"_netdev", "defaults", "auto", "noauto", "user", "nouser", "users",
	"nofail", "bg", "fg", "intr", "nointr", NULL
};

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* A whole decimal number with an optional k/m/g suffix (OPT_SIZE): "12abc",
 * "", "-1" and overflow are errors rather than a silent prefix. */
static int parse_number(const char *s, bool suffix, unsigned long *out)
{
	unsigned long v, mult = 1;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno)
		return -1;
	if (suffix && *end) {
		switch (*end) {
		case 'k': case 'K': mult = 1ul << 10; break;
		case 'm': case 'M': mult = 1ul << 20; break;
		case 'g': case 'G': mult = 1ul << 30; break;
		default: return -1;
		}
		end++;
	}
	if (*end || v > ULONG_MAX / mult)
		return -1;
	*out = v * mult;
	return 0;
}

static int apply_opt(const struct opt_def *d, const char *val,
		     struct nfsfuse_opts *o, char *err, size_t errlen)
{
	void *field = (char *)o + d->off;
	unsigned long v;

	if (d->kind == OPT_FLAG) {
		if (val) {
			set_err(err, errlen, "option '%s' takes no value",
				d->name);
			return -1;
		}
		*(bool *)field = d->flag_value;
		return 0;
	}
	if (!val || !*val) {
		set_err(err, errlen, "option '%s' needs a value", d->name);
		return -1;
	}
	switch (d->kind) {
	case OPT_UINT:
	case OPT_SIZE:
		if (parse_number(val, d->kind == OPT_SIZE, &v) ||
		    v < d->min || v > d->max) {
			set_err(err, errlen,
				"option '%s=%s': expected a number from %lu to %lu",
				d->name, val, d->min, d->max);
			return -1;
		}
		if (d->kind == OPT_SIZE && d->off == O(cache_size))
			*(unsigned long *)field = v;
		else
			*(unsigned *)field = (unsigned)v;
		return 0;
	case OPT_STR:
		if (strlen(val) > d->max) {
			set_err(err, errlen, "option '%s': value too long",
				d->name);
			return -1;
		}
		free(*(char **)field);
		*(char **)field = strdup(val);
		return *(char **)field ? 0 : -1;
	case OPT_CHOICE:
		for (unsigned i = 0; d->choices[i]; i++) {
			if (strcmp(val, d->choices[i]))
				continue;
			if (d->off == O(proto_udp))
				o->proto_udp = i == 1;
			else if (d->off == O(lookupcache))
				*(enum lookupcache_mode *)field = i;
			else
				*(unsigned *)field = i;
			return 0;
		}
		set_err(err, errlen, "option '%s=%s': unknown value", d->name,
			val);
		return -1;
	case OPT_FLAG:
		break;
	}
	return -1;
}

/* vers=2, 3, 4 (the highest 4.x both sides speak) or 4.N (N from
 * OPTS_MINOR_MIN to OPTS_MINOR_MAX): a minor version only after 4. */
static int parse_vers(const char *name, const char *val,
		      struct nfsfuse_opts *o, char *err, size_t errlen)
{
	unsigned long major, minor = OPTS_MINOR_ANY;
	const char *dot = val ? strchr(val, '.') : NULL;
	char buf[8];

	if (!val || !*val || strlen(val) >= sizeof(buf))
		goto bad;
	memcpy(buf, val, strlen(val) + 1);
	if (dot) {
		buf[dot - val] = '\0';
		if (parse_number(dot + 1, false, &minor))
			goto bad;
	}
	if (parse_number(buf, false, &major) || major < 2 || major > 4)
		goto bad;
	if (dot && (major != 4 || minor < OPTS_MINOR_MIN ||
		    minor > OPTS_MINOR_MAX))
		goto bad;
	o->vers = (unsigned)major;
	if (major != 4)
		o->minorversion = OPTS_MINOR_ANY;
	else if (dot)
		o->minorversion = (unsigned)minor;
	return 0;
bad:
	set_err(err, errlen, "option '%s=%s': expected 2, 3, 4, 4.1 or 4.2",
		name, val ? val : "");
	return -1;
}

/* One item of a -o list.  Returns 0 if it was ours, 1 if it is FUSE's. */
static int parse_one(char *item, struct nfsfuse_opts *o, char *err,
		     size_t errlen)
{
	char *val = strchr(item, '=');
	unsigned long v;

	if (val)
		*val++ = '\0';
	for (unsigned i = 0; fstab_noise[i]; i++)
		if (!strcmp(item, fstab_noise[i]))
			return 0;
	/* hard|soft|softerr: one mode, the last word wins. */
	if (!strcmp(item, "hard") || !strcmp(item, "soft") ||
	    !strcmp(item, "softerr")) {
		if (val) {
			set_err(err, errlen, "option '%s' takes no value",
				item);
			return -1;
		}
		o->soft = item[0] == 's';
		o->softerr = !strcmp(item, "softerr");
		return 0;
	}
	if (!strcmp(item, "vers") || !strcmp(item, "nfsvers"))
		return parse_vers(item, val, o, err, errlen);
	if (!strcmp(item, "actimeo")) {
		if (!val || parse_number(val, false, &v) || v > DAY) {
			set_err(err, errlen, "option 'actimeo': expected a "
				"number of seconds from 0 to %u", DAY);
			return -1;
		}
		o->acregmin = o->acregmax = o->acdirmin = o->acdirmax =
			(unsigned)v;
		return 0;
	}
	for (size_t i = 0; i < sizeof(opt_table) / sizeof(opt_table[0]); i++)
		if (!strcmp(item, opt_table[i].name))
			return apply_opt(&opt_table[i], val, o, err, errlen);
	if (val)
		val[-1] = '=';
	return 1;
}

static int parse_list(const char *list, struct nfsfuse_opts *o,
		      struct fuse_args *fa, char *err, size_t errlen)
{
	char *copy = strdup(list), *save = NULL, *item;
	int ret = 0;

	if (!copy)
		return -1;
	for (item = strtok_r(copy, ",", &save); item && ret == 0;
	     item = strtok_r(NULL, ",", &save)) {
		int r = parse_one(item, o, err, errlen);

		if (r < 0)
			ret = -1;
		else if (r == 1 && (fuse_opt_add_arg(fa, "-o") ||
				    fuse_opt_add_arg(fa, item)))
			ret = -1;
	}
	free(copy);
	return ret;
}

/*
 * nfs:// URLs (RFC 2224, in the form libnfs users know):
 *
 *	nfs://HOST[:PORT]/PATH[?KEY[=VALUE][&KEY[=VALUE]...]]
 *
 * The URL is split at its raw delimiters first and each piece is
 * percent-decoded afterwards, never before: an escaped "%3F", "%26" or
 * "%2F" stays data (a '?' or '&' in a file name, a '/' in a value).
 * HOST may be "[v6]".  PORT is port=.  Each query item is one -o option
 * through parse_one(); libnfs's names "version" and "nfsport" mean vers=
 * and port=.  Options that are not ours (FUSE's) are refused in a URL: it
 * names a server and an export, not how to mount them.  Query options are
 * applied after the port, so "?port=N" wins over ":N".
 */
static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* s[0..n) percent-decoded into a new string, or NULL with a message
 * (a bad escape, an escaped NUL, out of memory). */
static char *pct_decode(const char *s, size_t n, const char *what,
			char *err, size_t errlen)
{
	char *out = malloc(n + 1), *q = out;

	if (!out) {
		set_err(err, errlen, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		int hi, lo;

		if (s[i] != '%') {
			*q++ = s[i];
			continue;
		}
		hi = i + 1 < n ? hexval(s[i + 1]) : -1;
		lo = i + 2 < n ? hexval(s[i + 2]) : -1;
		if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
			set_err(err, errlen, "URL %s '%.*s': bad percent escape "
				"(%%XX with two hex digits, not %%00)", what,
				(int)n, s);
			free(out);
			return NULL;
		}
		*q++ = (char)(hi << 4 | lo);
		i += 2;
	}
	*q = '\0';
	return out;
}

/* One item of the query string, "key[=value]", not yet decoded. */
static int url_query_item(const char *item, size_t n, struct nfsfuse_opts *o,
			  char *err, size_t errlen)
{
	const char *eq = memchr(item, '=', n);
	size_t klen = eq ? (size_t)(eq - item) : n;
	char *key, *val = NULL, *opt = NULL;
	int ret = -1;

	key = pct_decode(item, klen, "option", err, errlen);
	if (!key)
		return -1;
	if (eq && !(val = pct_decode(eq + 1, n - klen - 1, "option", err,
				     errlen)))
		goto out;
	if (!*key || strpbrk(key, "=,")) {
		set_err(err, errlen, "URL option '%.*s': bad option name",
			(int)n, item);
		goto out;
	}
	if (!strcmp(key, "version"))
		strcpy(key, "vers");
	else if (!strcmp(key, "nfsport"))
		strcpy(key, "port");
	if (asprintf(&opt, "%s%s%s", key, val ? "=" : "", val ? val : "") < 0) {
		opt = NULL;
		set_err(err, errlen, "out of memory");
		goto out;
	}
	ret = parse_one(opt, o, err, errlen);
	if (ret == 1) {
		set_err(err, errlen, "URL option '%s' is unknown (a URL takes "
			"nfsfuse's -o options only)", key);
		ret = -1;
	}
out:
	free(opt);
	free(val);
	free(key);
	return ret;
}

static int parse_url(const char *url, struct nfsfuse_opts *o, bool need_path,
		     char *err, size_t errlen)
{
	const char *auth = url + 6, *auth_end, *host, *host_end, *port = NULL;
	const char *path, *query;
	char *h = NULL, *p = NULL;
	unsigned long v;

	if (strchr(url, '#')) {
		set_err(err, errlen, "'%s': a '#' in a URL must be escaped as "
			"%%23", url);
		return -1;
	}
	auth_end = auth + strcspn(auth, "/?");
	if (memchr(auth, '@', (size_t)(auth_end - auth))) {
		set_err(err, errlen, "'%s': user names in nfs:// URLs are not "
			"supported", url);
		return -1;
	}
	host = auth;
	if (*host == '[') {
		host_end = memchr(host, ']', (size_t)(auth_end - host));
		if (!host_end || (host_end + 1 != auth_end &&
				  host_end[1] != ':')) {
			set_err(err, errlen, "'%s': expected nfs://[ADDRESS]"
				"[:PORT]/PATH", url);
			return -1;
		}
		host++;
		if (host_end + 1 != auth_end)
			port = host_end + 2;
	} else {
		host_end = memchr(host, ':', (size_t)(auth_end - host));
		if (host_end)
			port = host_end + 1;
		else
			host_end = auth_end;
	}
	if (host_end == host) {
		set_err(err, errlen, "'%s': no server in the URL", url);
		return -1;
	}
	/* ":" with nothing after it is the default port (RFC 3986). */
	if (port && port != auth_end) {
		char num[8];
		size_t plen = (size_t)(auth_end - port);

		if (plen >= sizeof(num) ||
		    (memcpy(num, port, plen), num[plen] = '\0',
		     parse_number(num, false, &v)) ||
		    v < 1 || v > 65535) {
			set_err(err, errlen, "'%s': port '%.*s' is not a number "
				"from 1 to 65535", url, (int)plen, port);
			return -1;
		}
		o->port = (unsigned)v;
	}
	path = auth_end;
	query = path + strcspn(path, "?");
	if (query == path && need_path) {
		set_err(err, errlen, "'%s': no export path in the URL "
			"(nfs://SERVER/PATH)", url);
		return -1;
	}
	h = pct_decode(host, (size_t)(host_end - host), "server", err, errlen);
	if (!h)
		return -1;
	if (query != path) {
		p = pct_decode(path, (size_t)(query - path), "path", err,
			       errlen);
		if (!p)
			goto fail;
		if (strlen(p) > 1024) {
			set_err(err, errlen, "'%s': export path longer than "
				"1024 bytes", url);
			goto fail;
		}
	}
	free(o->host);
	free(o->export_path);
	o->host = h;
	o->export_path = p;
	h = p = NULL;
	if (*query == '?') {
		for (const char *it = query + 1; *it;) {
			size_t n = strcspn(it, "&");

			if (n && url_query_item(it, n, o, err, errlen))
				return -1;
			it += n;
			if (*it == '&')
				it++;
		}
	}
	return 0;
fail:
	free(h);
	free(p);
	return -1;
}

static bool is_url(const char *spec)
{
	return !strncasecmp(spec, "nfs://", 6);
}

int opts_parse_spec(const char *spec, struct nfsfuse_opts *o, char *err,
		    size_t errlen)
{
	const char *colon, *host = spec;
	size_t hostlen;

	if (is_url(spec))
		return parse_url(spec, o, true, err, errlen);
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');

		if (!close || close[1] != ':') {
			set_err(err, errlen, "'%s': expected [ADDRESS]:/PATH",
				spec);
			return -1;
		}
		host = spec + 1;
		hostlen = (size_t)(close - host);
		colon = close + 1;
	} else {
		colon = strchr(spec, ':');
		if (!colon) {
			set_err(err, errlen, "'%s': expected SERVER:/PATH",
				spec);
			return -1;
		}
		hostlen = (size_t)(colon - spec);
	}
	if (hostlen == 0 || colon[1] != '/') {
		set_err(err, errlen, "'%s': expected SERVER:/PATH (the path is "
			"absolute)", spec);
		return -1;
	}
	if (strlen(colon + 1) > 1024) {
		set_err(err, errlen, "'%s': export path longer than 1024 bytes",
			spec);
		return -1;
	}
	free(o->host);
	free(o->export_path);
	o->host = strndup(host, hostlen);
	o->export_path = strdup(colon + 1);
	if (!o->host || !o->export_path) {
		set_err(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* --list-exports: "host", "host:/anything", "[v6]" or an nfs:// URL
 * whose path may be left out. */
static int parse_server(const char *server, struct nfsfuse_opts *o,
			char *err, size_t errlen)
{
	size_t n = strlen(server);

	if (is_url(server))
		return parse_url(server, o, false, err, errlen);
	if (strchr(server, '/'))
		return opts_parse_spec(server, o, err, errlen);
	if (n >= 2 && server[0] == '[' && server[n - 1] == ']') {
		server++;
		n -= 2;
	}
	if (n == 0 || n > 255) {
		set_err(err, errlen, "--list-exports: bad server name '%s'",
			server);
		return -1;
	}
	free(o->host);
	o->host = strndup(server, n);
	if (!o->host) {
		set_err(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

static void opts_defaults(struct nfsfuse_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->vers = 0;      /* auto: 3, or 2, or 4.x when the server has no v3 */
	o->minorversion = OPTS_MINOR_ANY;
	o->mountvers = 0; /* follows vers */
	o->timeo = 0;            /* by proto= once parsed */
	o->retrans = UINT_MAX;
	o->nconnect = 1;
	o->mountproto = UINT_MAX;
	o->resvport = geteuid() == 0;
	o->uid = OPTS_ID_NONE;
	o->gid = OPTS_ID_NONE;
	o->acregmin = 3;
	o->acregmax = 60;
	o->acdirmin = 30;
	o->acdirmax = 60;
	o->cto = true;
	o->rdirplus = true;
	o->lookupcache = LOOKUPCACHE_ALL;
	o->cache_size = 256ul << 20;
}

int opts_parse(int argc, char **argv, struct nfsfuse_opts *o,
	       struct fuse_args *fa, char *err, size_t errlen)
{
	const char *spec = NULL, *server = NULL;
	int nonopt = 0;

	opts_defaults(o);
	err[0] = '\0';
	if (fuse_opt_add_arg(fa, argc > 0 ? argv[0] : "nfsfuse"))
		goto nomem;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			o->show_help = true;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			o->show_version = true;
		} else if (!strcmp(a, "--list-options")) {
			o->list_options = true;
		} else if (!strcmp(a, "-f")) {
			o->foreground = true;
		} else if (!strcmp(a, "-d") || !strcmp(a, "--debug")) {
			o->debug = true;
			o->foreground = true;
		} else if (!strcmp(a, "--list-exports") ||
			   !strncmp(a, "--list-exports=", 15)) {
			o->list_exports = true;
			if (a[14] == '=') {
				server = a + 15;
			} else if (i + 1 < argc) {
				server = argv[++i];
			} else {
				set_err(err, errlen, "--list-exports needs a "
					"SERVER");
				return -1;
			}
		} else if (!strncmp(a, "-o", 2)) {
			const char *list = a[2] ? a + 2 : NULL;

			if (!list && i + 1 < argc)
				list = argv[++i];
			if (!list) {
				set_err(err, errlen, "-o needs a list of options");
				return -1;
			}
			if (parse_list(list, o, fa, err, errlen)) {
				if (!err[0])
					goto nomem;
				return -1;
			}
		} else if (a[0] == '-' && a[1]) {
			set_err(err, errlen, "unknown option '%s'", a);
			return -1;
		} else if (nonopt == 0) {
			spec = a;
			nonopt++;
		} else if (nonopt == 1) {
			o->mountpoint = strdup(a);
			if (!o->mountpoint)
				goto nomem;
			nonopt++;
		} else {
			set_err(err, errlen, "unexpected argument '%s'", a);
			return -1;
		}
	}
	if (o->show_help || o->show_version || o->list_options)
		return 0;
	/* nfs(5): UDP starts at 1.1 s and tries each request three times. */
	if (o->timeo == 0)
		o->timeo = o->proto_udp ? 11 : 600;
	if (o->retrans == UINT_MAX)
		o->retrans = o->proto_udp ? 3 : 2;
	if (o->mountproto == UINT_MAX)
		o->mountproto = o->proto_udp ? 1 : 0;
	if (o->list_exports) {
		if (nonopt) {
			set_err(err, errlen, "usage: nfsfuse [-o mountport=N] "
				"--list-exports SERVER");
			return -1;
		}
		return parse_server(server, o, err, errlen);
	}
	if (!spec || !o->mountpoint) {
		set_err(err, errlen, "usage: nfsfuse [options] SERVER:/EXPORT "
			"MOUNTPOINT (see --help)");
		return -1;
	}
	if (opts_parse_spec(spec, o, err, errlen))
		return -1;
	/* minorversion= alone means vers=4 (nfs(5)); with vers=2 or 3 it
	 * contradicts. */
	if (o->minorversion != OPTS_MINOR_ANY && o->vers == 0)
		o->vers = 4;
	if (o->minorversion != OPTS_MINOR_ANY && o->vers != 4) {
		set_err(err, errlen, "minorversion= needs vers=4");
		return -1;
	}
	if (o->vers == 4 && o->proto_udp) {
		set_err(err, errlen, "NFSv4 needs proto=tcp (RFC 8881 "
			"sessions run over a stream)");
		return -1;
	}
	if (o->mountvers == 0 && o->vers && o->vers != 4)
		o->mountvers = o->vers == 2 ? 1 : 3;
	if (o->vers == 2 && o->mountvers == 3) {
		set_err(err, errlen, "vers=2 needs mountvers=1 (MOUNT v3 gives "
			"NFSv3 handles)");
		return -1;
	}
	if (o->nconnect > 1 && o->proto_udp) {
		set_err(err, errlen, "nconnect=%u needs proto=tcp: UDP has no "
			"connections to spread calls over", o->nconnect);
		return -1;
	}
	if (o->acregmin > o->acregmax || o->acdirmin > o->acdirmax) {
		set_err(err, errlen, "acregmin/acdirmin must not exceed "
			"acregmax/acdirmax");
		return -1;
	}
	return 0;
nomem:
	set_err(err, errlen, "out of memory");
	return -1;
}

void opts_free(struct nfsfuse_opts *o)
{
	free(o->host);
	free(o->export_path);
	free(o->mountpoint);
	free(o->hostname);
	free(o->statedir);
	free(o->clientaddr);
	free(o->idmap_domain);
	memset(o, 0, sizeof(*o));
}

void opts_usage(const char *progname)
{
	printf("usage: %s [options] SERVER:/EXPORT MOUNTPOINT\n"
	       "   or: %s [options] nfs://SERVER[:PORT]/EXPORT[?OPT=V&...] "
	       "MOUNTPOINT\n"
	       "\n"
	       "  -f                 stay in the foreground\n"
	       "  -d                 debug: foreground, one trace line per RPC\n"
	       "  -o OPT[,OPT...]    mount options (see README):\n"
	       "     vers=2|3|4|4.1|4.2 minorversion=N idmap_domain=DOMAIN\n"
	       "     proto=tcp|udp port=N mountport=N mountvers=N\n"
	       "     mountproto=tcp|udp\n"
	       "     rsize=N wsize=N timeo=DS retrans=N hard|soft|softerr\n"
	       "     nconnect=N\n"
	       "     resvport|noresvport hostname=NAME uid=N gid=N\n"
	       "     acregmin=S acregmax=S acdirmin=S acdirmax=S actimeo=S\n"
	       "     noac cto|nocto rdirplus|nordirplus dircomplete|nodircomplete\n"
	       "     lookupcache=all|positive|none cache_size=N[kmg]\n"
	       "     excl=exclusive|guarded\n"
	       "     lock|nolock local_lock=none|flock|posix|all statedir=DIR\n"
	       "     clientaddr=IPV4 nlm_callback=yes|no nlmport=N\n"
	       "     acl|noacl aclport=N quota_statfs|noquota_statfs\n"
	       "     and FUSE's own: allow_other, default_permissions, ro, ...\n"
	       "  --list-exports SERVER  the server's exports, like showmount -e\n"
	       "  -h, --help         this text\n"
	       "  -V, --version      version\n",
	       progname, progname);
}

void opts_list_names(FILE *f)
{
	for (size_t i = 0; i < sizeof(opt_table) / sizeof(opt_table[0]); i++)
		fprintf(f, "%s\n", opt_table[i].name);
	for (unsigned i = 0; special_words[i]; i++)
		fprintf(f, "%s\n", special_words[i]);
	for (unsigned i = 0; fstab_noise[i]; i++)
		fprintf(f, "%s\n", fstab_noise[i]);
}
