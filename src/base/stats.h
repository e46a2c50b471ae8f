/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counters of every cache decision, for `nfsfusectl stats`.  Each is a
 * relaxed atomic: a reader may see them a moment apart, never torn.
 * The list is an X-macro so that the control socket prints every counter
 * by its name without a second list to keep in step.
 */
#ifndef NFSFUSE_STATS_H
#define NFSFUSE_STATS_H

#include <stdint.h>

#define CACHE_COUNTERS(X)                                                   \
	X(attr_hits)            /* attributes answered from the cache */    \
	X(attr_misses)          /* no attributes cached: asked the server */\
	X(attr_revalidations)   /* timed out or cto: asked the server */    \
	X(attr_uncacheable)     /* reply not cached: a write was in flight */\
	X(attr_straddled)       /* entry asked again: a batch of our writes
				 * began or settled during its call */\
	X(attr_from_flush)      /* a stat after a flush answered from its
				 * WRITE replies, no GETATTR */\
	X(attr_batch_size)      /* the kernel's size check before a read or
				 * lseek answered, our writes left gathered */\
	X(attr_stale_handles)   /* attributes dropped: the handle is stale */\
	X(attr_atime_asked)     /* GETATTR for the atime a READ without
				 * attributes may have moved (NFSv4) */\
	X(attr_refused)         /* no file type, or not the file's: dropped */\
	X(lookup_hits)                                                      \
	X(lookup_misses)                                                    \
	X(lookup_negative_hits)                                             \
	X(lookup_negative_stored)                                           \
	X(acl_hits)             /* getxattr/listxattr of ACLs from cache */\
	X(acl_none_fs)          /* "no ACL": its file system keeps none */ \
	X(acl_set_refused)      /* ACL set refused without a call: the
				 * server refused SETACL there */         \
	X(getxattr_other)       /* getxattr of a name that is no ACL */     \
	X(groups_hits)          /* caller's groups known, not read */      \
	X(groups_reads)         /* caller's groups read from /proc */      \
	X(idmap_hits)           /* NFSv4 owner mapped from a kept answer */\
	X(idmap_lookups)        /* ... by asking the user/group database */\
	X(lookup_complete_dir)  /* "no such name" from a directory we made */\
	X(names_expired)        /* kernel entries expired: a listing showed
				 * their names gone */\
	X(data_hits)            /* blocks read from the data cache */       \
	X(data_misses)          /* blocks read from the server */           \
	X(data_left_to_kernel)  /* READs too small to take a block (data.h) */\
	X(readahead_issued)                                                 \
	X(readahead_used)                                                   \
	X(readahead_wasted)                                                 \
	X(data_dropped_behind)  /* read-ahead blocks the reader had whole */\
	X(data_stream_uncached) /* bytes of a long written sequence: none kept */\
	X(data_fill_in_place)   /* read-ahead bytes kept in the reply */    \
	X(purge_cto)            /* open found the file changed */           \
	X(purge_timeout)        /* revalidation after timeout: changed */   \
	X(purge_wcc)            /* wcc showed another client's change */    \
	X(purge_drop)           /* nfsfusectl drop */                       \
	X(purge_lock)           /* a lock grant found the file changed */   \
	X(wcc_kept)                                                         \
	X(wcc_lost)                                                         \
	X(cto_keep)             /* open proved the data unchanged */        \
	X(writebacks)           /* WRITE calls sent from dirty blocks */    \
	X(writeback_bytes)                                                  \
	X(writes_gathered)      /* writes joined to a WRITE not yet sent */ \
	X(gather_early)         /* gathered WRITE sent short of wsize */    \
	X(commits)                                                          \
	X(verifier_changes)     /* server restarted: data written again */  \
	X(evictions)            /* clean blocks dropped for the size cap */ \
	X(dir_hits)             /* READDIR(PLUS) served from a buffer */    \
	X(dir_ahead_issued)     /* next part of a listing asked for early */\
	X(dir_ahead_used)       /* ... and the lister read on into it */    \
	X(dir_entries_kept)     /* entry the kernel held unchanged: kept */ \
	X(dir_rereads)          /* a listing's first part read again by its
				 * lister from the reply kept at close */ \
	X(silly_renames)        /* open file unlinked: moved to .nfsXXXX */ \
	X(silly_removes)        /* .nfsXXXX name removed at last close */   \
	X(silly_orphans)        /* .nfsXXXX left by a crashed run: removed */\
	X(open_after_removal)   /* an open waited out an unlink deciding */\
	X(nfs4_recoveries)      /* NFSv4 session or client id recovered */ \
	X(nfs4_clientid_recoveries) /* ... with a new EXCHANGE_ID */       \
	X(nfs4_calls_resent)    /* calls sent again after a recovery */    \
	X(nfs4_calls_queued)    /* async calls that waited for a slot */   \
	X(nfs4_delay_waits)     /* NFS4ERR_DELAY/GRACE waited out */       \
	X(nfs4_reclaims)        /* opens had again after a recovery */     \
	X(nfs4_state_lost)      /* opens lost: their I/O answers EIO */     \
	X(nfs4_lock_reclaims)   /* lock ranges had again after a recovery */\
	X(nfs4_locks_lost)      /* lock ranges lost: their file answers EIO */\
	X(deleg_granted)        /* delegations kept from an OPEN */         \
	X(deleg_held)           /* ... held now (goes down too) */          \
	X(deleg_recalled)       /* CB_RECALLs of one we held */             \
	X(deleg_returned)       /* DELEGRETURNs that succeeded */           \
	X(deleg_lost)           /* held when the server lost our state */   \
	X(deleg_attr_hits)      /* attributes believed past their timeout */\
	X(deleg_local_opens)    /* opens made here under one: no OPEN */   \
	X(deleg_cb_getattr)     /* CB_GETATTRs answered from the cache */  \
	X(deleg_revoked)        /* revoked by the server: FREE_STATEID */

struct cache_stats {
#define X(name) uint64_t name;
	CACHE_COUNTERS(X)
#undef X
};

extern struct cache_stats cache_stats;

#define STAT_ADD(name, n) \
	__atomic_fetch_add(&cache_stats.name, (uint64_t)(n), __ATOMIC_RELAXED)
#define STAT_INC(name) STAT_ADD(name, 1)
#define STAT_GET(name) __atomic_load_n(&cache_stats.name, __ATOMIC_RELAXED)

#endif
