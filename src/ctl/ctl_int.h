/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by ctl.c (the socket and its thread) and ctl_cmds.c (commands). */
#ifndef NFSFUSE_CTL_INT_H
#define NFSFUSE_CTL_INT_H

#include <glib.h>
#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

#include "ctl.h"
#include "ctl_path.h"

#define CTL_LINE_MAX 4096   /* longest command line */
#define CTL_MAX_CONNS 16    /* connections at once, trace listeners included */
#define CTL_CMD_TIMEOUT_MS 5000 /* a client must send its line by then */
#define CTL_SEND_TIMEOUT_S 5    /* and take its answer */

struct ctl_out {
	GString *s;
	const struct ctl_peer *peer; /* may be NULL */
};

struct ctl_stats {
	GString *s;
	bool json;
	const char *prom_labels; /* non-NULL: Prometheus text, these labels */
};

struct ctl_conn {
	int fd;
	bool trace;             /* subscribed: only wait for EOF */
	struct ctl_peer peer;   /* who connected */
	int64_t deadline_ms;    /* monotonic; for the command line */
	size_t len;
	char buf[CTL_LINE_MAX];
};

/* Everything below is the control thread's alone after ctl_start, but for
 * wake[1], which ctl_stop writes. */
struct ctl {
	struct ctl_hooks h;
	char path[CTL_PATH_MAX];
	char mountpoint[4096];  /* canonical */
	dev_t dev;              /* of the socket file we bound */
	ino_t ino;
	int64_t started_ms;     /* CLOCK_MONOTONIC, for the mount's age */
	int lfd;
	int wake[2];
	pthread_t thread;
	struct ctl_conn *conns[CTL_MAX_CONNS];
	unsigned nconns;
};

enum ctl_result {
	CTL_DONE,   /* answer in out (status OK) */
	CTL_ERROR,  /* message in out (status ERR) */
	CTL_TRACE   /* answer OK, then subscribe the connection */
};

/* Run one command line (NUL-terminated, no newline). */
enum ctl_result ctl_dispatch(struct ctl *c, char *line, struct ctl_out *out);

/* Append v to g as a Prometheus label value, quotes included. */
void ctl_prom_label_value(GString *g, const char *v);

/* Append s to g as a JSON string literal, quotes included. */
void ctl_json_string(GString *g, const char *s);

#endif
