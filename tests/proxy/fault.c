// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fault pipeline: every whole RPC message passes through
 * proxy_message(), which decides, in this fixed order, blackhole, drop,
 * corrupt (replies), duplicate, delay and reorder.
 *
 * Determinism: the generator is consulted only for faults that are turned
 * on, always in the order above, so one --seed and one sequence of messages
 * give one sequence of faults.  (With several clients at once the sequence
 * of messages itself depends on scheduling.)
 */
#include <stdlib.h>
#include <string.h>

#include "nfsproxy.h"

static const char *const dir_name[] = { "call", "reply" };
static const char *const mode_name[] = { "flip", "truncate", "enlarge",
					 "garbage" };

/* The RPC reply header up to the results with an AUTH_NONE verifier:
 * xid, msg_type, reply_stat, verf flavor, verf length, accept_stat. */
#define RPC_REPLY_HDR	24u

void rng_seed(uint64_t seed)
{
	P.rng = seed;
}

/* splitmix64: tiny, fast, and good enough to pick faults. */
static uint64_t rng_next(void)
{
	uint64_t z = (P.rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rng_below(uint64_t n)
{
	return n ? rng_next() % n : 0;
}

static bool roll(uint32_t ppm)
{
	if (ppm == 0)
		return false;
	return rng_below(PROXY_PPM) < ppm;
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint32_t msg_xid(const uint8_t *data, size_t len)
{
	return len >= 4 ? get_be32(data) : 0;
}

void msg_free(struct msg *m)
{
	if (m) {
		free(m->data);
		free(m);
	}
}

/* Bits flipped past the header: the XID still matches, the body lies. */
static bool corrupt_flip(uint8_t *data, size_t len)
{
	unsigned int i, n = 1 + (unsigned int)rng_below(4);

	if (len <= RPC_REPLY_HDR)
		return false;
	for (i = 0; i < n; i++) {
		size_t pos = RPC_REPLY_HDR + rng_below(len - RPC_REPLY_HDR);

		data[pos] ^= (uint8_t)(1u << rng_below(8));
	}
	return true;
}

/* At least the XID stays, so the client finds the call it answers. */
static bool corrupt_truncate(size_t *len)
{
	if (*len <= 4)
		return false;
	*len = 4 + rng_below(*len - 4);
	return true;
}

/*
 * The first word that looks like a count or length becomes huge, to catch
 * decoders that trust a length before checking the bytes left.  Zero is
 * skipped: after the header it is nearly always a status or FALSE, and
 * turning NFS3_OK into garbage tests nothing a flip does not.
 */
static bool corrupt_enlarge(uint8_t *data, size_t len)
{
	size_t off;

	for (off = RPC_REPLY_HDR; off < len && len - off >= 4; off += 4) {
		uint32_t w = get_be32(data + off);

		if (w > 0 && w < 4096) {
			data[off] = 0xff;
			data[off + 1] = 0xff;
			data[off + 2] = 0xff;
			data[off + 3] = 0x00;
			return true;
		}
	}
	return false;
}

static bool corrupt_garbage(uint8_t *data, size_t len)
{
	size_t i;

	if (len <= 4)
		return false;
	for (i = 4; i < len; i++)
		data[i] = (uint8_t)rng_next();
	return true;
}

static void corrupt(uint8_t *data, size_t *len, uint32_t xid)
{
	size_t old = *len;
	bool done = false;

	switch (P.f.corrupt_mode) {
	case CORRUPT_FLIP:
		done = corrupt_flip(data, *len);
		break;
	case CORRUPT_TRUNCATE:
		done = corrupt_truncate(len);
		break;
	case CORRUPT_ENLARGE:
		done = corrupt_enlarge(data, *len);
		break;
	case CORRUPT_GARBAGE:
		done = corrupt_garbage(data, *len);
		break;
	}
	if (!done) {
		plog("corrupt reply xid=0x%08x mode=%s skipped len=%zu", xid,
		     mode_name[P.f.corrupt_mode], old);
		return;
	}
	P.st.corruptions++;
	plog("corrupt reply xid=0x%08x mode=%s len=%zu->%zu", xid,
	     mode_name[P.f.corrupt_mode], old, *len);
}

/*
 * Sends m now, or keeps it back for reorder; a message kept back goes right
 * after the next one in the same direction.  Takes ownership of m.
 */
static void emit(struct msg *m, uint64_t now)
{
	struct flow *fl = m->flow;
	struct msg *held;

	if (fl->dead) {
		msg_free(m);
		return;
	}
	if (m->reorder && !fl->held[m->dir]) {
		fl->held[m->dir] = m;
		fl->held_due[m->dir] = now + PROXY_REORDER_HOLD_MS;
		return;
	}
	flow_send(fl, m->dir, m->data, m->len);
	held = fl->held[m->dir];
	fl->held[m->dir] = NULL;
	if (held && !fl->dead)
		flow_send(fl, held->dir, held->data, held->len);
	msg_free(held);
	msg_free(m);
}

/* The list is short in practice; FIFO among equal due times keeps a
 * constant delay from reordering anything by itself. */
static void delayed_insert(struct msg *m)
{
	struct msg **pp = &P.delayed;

	while (*pp && (*pp)->due <= m->due)
		pp = &(*pp)->next;
	m->next = *pp;
	*pp = m;
	m->flow->refs++;
	m->flow->queued[m->dir] += m->len;
}

void delayed_run(uint64_t now)
{
	struct msg *m;

	/* Always pop the head again: emit() may close flows. */
	while ((m = P.delayed) && m->due <= now) {
		P.delayed = m->next;
		m->next = NULL;
		m->flow->refs--;
		m->flow->queued[m->dir] -= m->len;
		emit(m, now);
	}
}

void held_run(struct flow *fl, uint64_t now)
{
	int d;

	for (d = DIR_CALL; d <= DIR_REPLY; d++) {
		struct msg *m = fl->held[d];

		if (!m || fl->held_due[d] > now)
			continue;
		fl->held[d] = NULL;
		if (!fl->dead)
			flow_send(fl, m->dir, m->data, m->len);
		msg_free(m);
	}
}

static struct msg *msg_new(struct flow *fl, enum dir dir, uint8_t *data,
			   size_t len)
{
	struct msg *m = calloc(1, sizeof(*m));

	if (!m) {
		free(data);
		return NULL;
	}
	m->flow = fl;
	m->dir = dir;
	m->data = data;
	m->len = len;
	return m;
}

static uint8_t *dup_bytes(const uint8_t *data, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	if (p)
		memcpy(p, data, len);
	return p;
}

/*
 * Drop-reply-once: an open-addressing table of the XIDs whose calls have
 * been looked at, so that every XID is rolled for once, when its call
 * first passes, and a chosen one loses only its first reply.  Full (half
 * of XID_SLOTS in use): no new XID is chosen any more.
 */
#define XID_SLOTS	65536u

enum once_state { ONCE_FREE, ONCE_PASS, ONCE_ARMED, ONCE_ARMED_CUT,
		  ONCE_DONE };

struct xid_slot {
	uint32_t xid;
	uint8_t state;
	bool delay_reply;	/* its procedure is in delay_reply_procs */
};

static struct xid_slot *xid_tab;
static unsigned int xid_used;

void xid_once_free(void)
{
	free(xid_tab);
	xid_tab = NULL;
	xid_used = 0;
}

/* The slot of xid; with add, a free one is claimed.  NULL: none. */
static struct xid_slot *xid_find(uint32_t xid, bool add)
{
	uint32_t h = (xid * 2654435761u) & (XID_SLOTS - 1), i;

	if (!xid_tab) {
		if (!add)
			return NULL;
		xid_tab = calloc(XID_SLOTS, sizeof(*xid_tab));
		if (!xid_tab)
			return NULL;
	}
	for (i = 0; i < XID_SLOTS; i++, h = (h + 1) & (XID_SLOTS - 1)) {
		struct xid_slot *sl = &xid_tab[h];

		if (sl->state == ONCE_FREE) {
			if (!add || xid_used >= XID_SLOTS / 2)
				return NULL;
			xid_used++;
			sl->xid = xid;
			sl->state = ONCE_PASS;
			return sl;
		}
		if (sl->xid == xid)
			return sl;
	}
	return NULL;
}

/* A call: msg_type CALL (0), procedure in once_procs. */
static bool once_candidate(const uint8_t *data, size_t len)
{
	uint32_t proc;

	if (len < 24 || get_be32(data + 4) != 0)
		return false;
	proc = get_be32(data + 20);
	if (!P.f.once_procs)
		return true;
	return proc < 32 && (P.f.once_procs & (1u << proc));
}

static void once_call(const uint8_t *data, size_t len, uint32_t xid)
{
	struct xid_slot *sl;

	if ((!P.f.once_ppm && !P.f.once_cut_ppm) ||
	    !once_candidate(data, len))
		return;
	if (xid_find(xid, false))
		return;		/* a retransmission: decided already */
	sl = xid_find(xid, true);
	if (!sl)
		return;
	if (roll(P.f.once_cut_ppm))
		sl->state = ONCE_ARMED_CUT;
	else if (roll(P.f.once_ppm))
		sl->state = ONCE_ARMED;
}

/* A reply: true if it is dropped (and fl perhaps closed). */
static bool once_reply(struct flow *fl, uint32_t xid)
{
	struct xid_slot *sl = xid_find(xid, false);
	bool cut;

	if (!sl || (sl->state != ONCE_ARMED && sl->state != ONCE_ARMED_CUT))
		return false;
	cut = sl->state == ONCE_ARMED_CUT;
	sl->state = ONCE_DONE;
	P.st.once_drops++;
	plog("drop-once reply xid=0x%08x%s", xid, cut ? " cut" : "");
	if (cut) {
		P.st.once_cuts++;
		flow_close(fl, "cut after drop-once");
	}
	return true;
}

/* Drops or not; returns true when the message goes no further. */
static bool fault_discard(enum dir dir, uint32_t xid)
{
	if (P.bh_active) {
		P.st.blackholed++;
		plog("blackhole %s xid=0x%08x", dir_name[dir], xid);
		return true;
	}
	if (roll(P.f.drop_ppm[dir])) {
		P.st.drops[dir]++;
		plog("drop %s xid=0x%08x", dir_name[dir], xid);
		return true;
	}
	return false;
}

/* With delay_reply_procs, a call of one of them: its reply is to be
 * delayed. */
static void delay_call(const uint8_t *data, size_t len, uint32_t xid)
{
	struct xid_slot *sl;
	uint32_t proc;

	if (!P.f.delay_reply_procs || len < 24 || get_be32(data + 4) != 0)
		return;
	proc = get_be32(data + 20);
	if (proc >= 32 || !(P.f.delay_reply_procs & (1u << proc)))
		return;
	sl = xid_find(xid, true);
	if (sl)
		sl->delay_reply = true;
}

static uint64_t fault_delay(enum dir dir, uint32_t xid)
{
	uint32_t lo = P.f.delay_min_ms, hi = P.f.delay_max_ms;
	struct xid_slot *sl;
	uint64_t ms;

	if (hi == 0)
		return 0;
	if (P.f.delay_reply_procs) {
		sl = dir == DIR_REPLY ? xid_find(xid, false) : NULL;
		if (!sl || !sl->delay_reply)
			return 0;
	}
	ms = lo + rng_below((uint64_t)hi - lo + 1);
	if (ms) {
		P.st.delays++;
		plog("delay %s xid=0x%08x ms=%llu", dir_name[dir], xid,
		     (unsigned long long)ms);
	}
	return ms;
}

/* Takes ownership of data (malloc'd, len bytes: one whole RPC message). */
void proxy_message(struct flow *fl, enum dir dir, uint8_t *data, size_t len)
{
	uint32_t xid = msg_xid(data, len);
	uint64_t now = now_ms(), delay;
	unsigned int i, copies = 1;
	bool reorder;

	P.st.msgs[dir]++;
	if (fault_discard(dir, xid) ||
	    (dir == DIR_REPLY && once_reply(fl, xid))) {
		free(data);
		return;
	}
	if (dir == DIR_CALL) {
		once_call(data, len, xid);
		delay_call(data, len, xid);
	}
	if (dir == DIR_REPLY && roll(P.f.corrupt_ppm))
		corrupt(data, &len, xid);
	if (roll(P.f.dup_ppm[dir])) {
		copies = 2;
		P.st.dups[dir]++;
		plog("dup %s xid=0x%08x", dir_name[dir], xid);
	}
	delay = fault_delay(dir, xid);
	reorder = roll(P.f.reorder_ppm);
	if (reorder) {
		P.st.reorders++;
		plog("reorder %s xid=0x%08x", dir_name[dir], xid);
	}

	for (i = 0; i < copies; i++) {
		uint8_t *d = i + 1 < copies ? dup_bytes(data, len) : data;
		struct msg *m;

		if (!d)
			continue;
		m = msg_new(fl, dir, d, len);
		if (!m)
			continue;
		/* Only the first copy is kept back: a duplicate stays a
		 * duplicate of what was sent, not a second reorder. */
		m->reorder = reorder && i == 0;
		m->due = now + delay;
		if (delay)
			delayed_insert(m);
		else
			emit(m, now);
	}
}

void blackhole_start(uint64_t now, uint64_t for_ms)
{
	P.bh_start = now;
	P.bh_end = now + for_ms;
}

/* Time-driven events: blackhole edges, cuts, delayed and held messages. */
void timers_run(uint64_t now)
{
	struct flow *fl;
	bool bh = P.bh_end && now >= P.bh_start && now < P.bh_end;

	if (bh != P.bh_active) {
		P.bh_active = bh;
		plog("blackhole %s", bh ? "start" : "end");
	}
	if (P.bh_end && now >= P.bh_end)
		P.bh_end = P.bh_start = 0;
	if (P.next_cut && now >= P.next_cut) {
		flows_cut_all();
		cut_reschedule(now);
	}
	delayed_run(now);
	for (fl = P.flows; fl; fl = fl->next)
		held_run(fl, now);
	if (P.udp)
		flows_expire_udp(now);
}

static void earliest(uint64_t *t, uint64_t cand)
{
	if (cand && (!*t || cand < *t))
		*t = cand;
}

/* poll() timeout in ms; at most a second so UDP expiry needs no timer. */
int timers_timeout(uint64_t now)
{
	const struct flow *fl;
	uint64_t t = 0;

	if (P.delayed)
		earliest(&t, P.delayed->due);
	earliest(&t, P.next_cut);
	earliest(&t, P.bh_active ? P.bh_end : P.bh_start);
	for (fl = P.flows; fl; fl = fl->next) {
		if (fl->held[DIR_CALL])
			earliest(&t, fl->held_due[DIR_CALL]);
		if (fl->held[DIR_REPLY])
			earliest(&t, fl->held_due[DIR_REPLY]);
	}
	if (!t || t > now + 1000)
		return 1000;
	return t <= now ? 0 : (int)(t - now);
}
