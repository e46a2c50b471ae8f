/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The delegation table's insides, shared by nfs4_deleg.c (the table) and
 * nfs4_deleg_return.c (its thread and hooks). */
#ifndef NFSFUSE_PROTO_NFS4_DELEG_INT_H
#define NFSFUSE_PROTO_NFS4_DELEG_INT_H

#include <pthread.h>

#include "nfs4_deleg.h"

#define NFS4_DELEG_BUCKETS 256u

struct nfs4_deleg {
	struct nfs4_deleg *next;     /* in its bucket */
	struct nfs_fh3 fh;
	struct nfs4_stateid sid;
	uint32_t type;               /* NFS4_OPEN_DELEGATE_READ or _WRITE */
	int64_t granted_ns;          /* monotonic */
	bool recalled;
	/* A write delegation's CB_GETATTR answers: the change attribute
	 * last reported while our writes were pending (0: none yet), and
	 * the write count of the layer above at that moment. */
	uint64_t cb_change;
	uint64_t cb_wgen;
};

struct nfs4_delegs {
	pthread_mutex_t lock;
	pthread_cond_t wake;         /* [lock] a recall queued, or stop */
	struct nfs4_deleg *bucket[NFS4_DELEG_BUCKETS]; /* [lock] */
	size_t count;                /* [lock] */
	size_t nrecalled;            /* [lock] recalled, not yet taken */
	bool stop;                   /* [lock] the thread must end */

	/* On a mount (nfs4_deleg_return.c). */
	struct nfs_client *c;
	pthread_t thread;
	bool running;
	/* The hooks are called with hook_lock NOT held (a flush waits for
	 * replies that the transport thread reads, and that thread may be
	 * calling the report hook meanwhile); hook_calls counts the calls
	 * in progress, which changing the hooks waits out. */
	pthread_mutex_t hook_lock;   /* taken alone */
	pthread_cond_t hook_idle;    /* [hook_lock] hook_calls fell to 0 */
	struct nfs4_deleg_hooks hooks; /* [hook_lock] */
	bool have_hooks;             /* [hook_lock] */
	unsigned hook_calls;         /* [hook_lock] */
};

#endif
