/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "options.h"

#include <errno.h>
#include <fuse_lowlevel.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static const struct opt_def opt_table[] = {
	{ "vers", OPT_UINT, O(vers), 2, 3, false, NULL },
	{ "nfsvers", OPT_UINT, O(vers), 2, 3, false, NULL },
	{ "port", OPT_UINT, O(port), 1, 65535, false, NULL },
	{ "mountport", OPT_UINT, O(mountport), 1, 65535, false, NULL },
	{ "mountvers", OPT_UINT, O(mountvers), 1, 3, false, NULL },
	{ "rsize", OPT_SIZE, O(rsize), 1024, NFS3_MAXDATA, false, NULL },
	{ "wsize", OPT_SIZE, O(wsize), 1024, NFS3_MAXDATA, false, NULL },
	{ "timeo", OPT_UINT, O(timeo), 1, 6000, false, NULL },
	{ "retrans", OPT_UINT, O(retrans), 0, 100, false, NULL },
	{ "acregmin", OPT_UINT, O(acregmin), 0, DAY, false, NULL },
	{ "acregmax", OPT_UINT, O(acregmax), 0, DAY, false, NULL },
	{ "acdirmin", OPT_UINT, O(acdirmin), 0, DAY, false, NULL },
	{ "acdirmax", OPT_UINT, O(acdirmax), 0, DAY, false, NULL },
	{ "cache_size", OPT_SIZE, O(cache_size), 1u << 20, 1ul << 40, false,
	  NULL },
	{ "hard", OPT_FLAG, O(soft), 0, 0, false, NULL },
	{ "soft", OPT_FLAG, O(soft), 0, 0, true, NULL },
	{ "resvport", OPT_FLAG, O(resvport), 0, 0, true, NULL },
	{ "noresvport", OPT_FLAG, O(resvport), 0, 0, false, NULL },
	{ "ac", OPT_FLAG, O(noac), 0, 0, false, NULL },
	{ "noac", OPT_FLAG, O(noac), 0, 0, true, NULL },
	{ "cto", OPT_FLAG, O(cto), 0, 0, true, NULL },
	{ "nocto", OPT_FLAG, O(cto), 0, 0, false, NULL },
	{ "rdirplus", OPT_FLAG, O(rdirplus), 0, 0, true, NULL },
	{ "nordirplus", OPT_FLAG, O(rdirplus), 0, 0, false, NULL },
	{ "hostname", OPT_STR, O(hostname), 1, 255, false, NULL },
	{ "proto", OPT_CHOICE, O(proto_udp), 0, 0, false, proto_choices },
	{ "lookupcache", OPT_CHOICE, O(lookupcache), 0, 0, false,
	  lookupcache_choices },
};

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
			else
				*(enum lookupcache_mode *)field = i;
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

int opts_parse_spec(const char *spec, struct nfsfuse_opts *o, char *err,
		    size_t errlen)
{
	const char *colon, *host = spec;
	size_t hostlen;

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

static void opts_defaults(struct nfsfuse_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->vers = 3;
	o->mountvers = 0;
	o->timeo = 600;
	o->retrans = 2;
	o->resvport = geteuid() == 0;
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
	const char *spec = NULL;
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
		} else if (!strcmp(a, "-f")) {
			o->foreground = true;
		} else if (!strcmp(a, "-d") || !strcmp(a, "--debug")) {
			o->debug = true;
			o->foreground = true;
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
	if (o->show_help || o->show_version)
		return 0;
	if (!spec || !o->mountpoint) {
		set_err(err, errlen, "usage: nfsfuse [options] SERVER:/EXPORT "
			"MOUNTPOINT (see --help)");
		return -1;
	}
	if (opts_parse_spec(spec, o, err, errlen))
		return -1;
	if (o->mountvers == 0)
		o->mountvers = o->vers == 2 ? 1 : 3;
	if (o->vers == 2 && o->mountvers == 3) {
		set_err(err, errlen, "vers=2 needs mountvers=1 (MOUNT v3 gives "
			"NFSv3 handles)");
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
	memset(o, 0, sizeof(*o));
}

void opts_usage(const char *progname)
{
	printf("usage: %s [options] SERVER:/EXPORT MOUNTPOINT\n"
	       "\n"
	       "  -f                 stay in the foreground\n"
	       "  -d                 debug: foreground, one trace line per RPC\n"
	       "  -o OPT[,OPT...]    mount options (see README):\n"
	       "     vers=3 proto=tcp port=N mountport=N mountvers=N\n"
	       "     rsize=N wsize=N timeo=DS retrans=N hard|soft\n"
	       "     resvport|noresvport hostname=NAME\n"
	       "     acregmin=S acregmax=S acdirmin=S acdirmax=S actimeo=S\n"
	       "     noac cto|nocto rdirplus|nordirplus\n"
	       "     lookupcache=all|positive|none cache_size=N[kmg]\n"
	       "     and FUSE's own: allow_other, default_permissions, ro, ...\n"
	       "  -h, --help         this text\n"
	       "  -V, --version      version\n",
	       progname);
}
