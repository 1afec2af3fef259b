/* latency: the plan, the timed kernel and the worker (the chases are
 * linked in latency_chase.c).
 * See latency.h for the contracts; the run priced before it starts is
 * latency_price.c, revised as it goes latency_eta.c; the reading of the
 * curve is in latency_levels.c, the result in latency_result.c, JSON in latency_json.c. */
#include "config.h"

#include "base/i18n.h"

#include "latency.h"
#include "latency_eta.h"
#include "base/chase.h"
#include "machine/machine.h"
#include "os/barrier.h"
#include "os/clock.h"
#include "os/platform.h"
#include "os/sysinfo.h"
#include "run/diag.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define CHUNK_NS 20e6 /* chase at most ~20 ms between job_check() calls */
#define LATENCY_MIN_LOADS 4096     /* the fewest loads worth a warm-up or a chunk */
#define LATENCY_FIRST_LOADS 65536  /* a warm-up's first chunk at most: 16 ms at 250 ns */
#define LATENCY_MIN_POINT_NS 8e6 /* a contended run shrinks its points down to this */
#define LATENCY_RNG_SEED 0x6d656d746f70ull /* "memtop": the random chase's order */

/* ---- sizes and parameters ------------------------------------------------ */

uint64_t latency_step(uint64_t k)
{
	if (k < 1024)
		return k ? k * 2 : 1;
	if (k < 4 * 1024)
		return k + 1024;
	{
		uint64_t s = 32 * 1024;
		while (s <= k)
			s *= 2;
		return k + s / 16;
	}
}

size_t latency_sizes(uint64_t lo, uint64_t hi, uint64_t *out, size_t cap)
{
	size_t n = 0;
	uint64_t k = LATENCY_MIN_SIZE;
	while (k < lo)
		k = latency_step(k);
	for (; k <= hi && n < cap; k = latency_step(k))
		out[n++] = k;
	return n;
}

void latency_params_default(struct latency_params *p)
{
	static const unsigned strides[] = { 128, 256, 512, 1024, 2048, 4096 };
	memset(p, 0, sizeof *p);
	p->nsizes = latency_sizes(LATENCY_MIN_SIZE, 512u << 20, p->sizes, LATENCY_MAX_SIZES);
	for (size_t i = 0; i < MT_ARRAY_LEN(strides); i++)
		p->strides[i] = strides[i];
	p->nstrides = MT_ARRAY_LEN(strides);
	p->random = 1;
	p->random_stride = 128;
	p->hugepages = LATENCY_HUGE_OFF;
	p->tries = 3;
	p->try_ns = 1e6;
	p->point_ns = 30e6;
	p->target_s = 18;
}

void latency_params_quick(struct latency_params *p)
{
	latency_params_default(p);
	p->nsizes = latency_sizes(LATENCY_MIN_SIZE, 8u << 20, p->sizes, LATENCY_MAX_SIZES);
	p->strides[0] = 128;
	p->strides[1] = 4096;
	p->nstrides = 2;
	p->try_ns = 0.5e6;
	p->point_ns = 10e6;
	p->target_s = 10;
}

int latency_pages_both(struct latency_params *p, const char *thp)
{
	int was = p->other;
	p->other = p->random && p->hugepages == LATENCY_HUGE_OFF && thp &&
		   (strcmp(thp, "always") == 0 || strcmp(thp, "madvise") == 0);
	if (p->other && !was) /* one chase more: its share of the run's time more */
		p->target_s += p->target_s / (double)(p->nstrides + 1);
	return p->other;
}

int latency_params_set_max(struct latency_params *p, uint64_t max, mt_error *e)
{
	size_t n;
	if (max < LATENCY_MIN_SIZE)
		return mt_fail(e, _("--max-size: at least 4K"));
	if (max > (64ull << 30))
		return mt_fail(e, _("--max-size: at most 64G"));
	n = latency_sizes(LATENCY_MIN_SIZE, max, p->sizes, LATENCY_MAX_SIZES);
	if (n == 0)
		return mt_fail(e, _("--max-size: no size fits"));
	p->nsizes = n;
	return 0;
}

int latency_params_fit_memory(struct latency_params *p, const struct machine_budget *b,
			      const char *want_why, char *note, size_t len, mt_error *e)
{
	uint64_t cap = b->bytes / 2, asked = p->nsizes ? p->sizes[p->nsizes - 1] : 0;
	char a[32], c[32];
	note[0] = '\0';
	if (b->bytes == 0 || p->nsizes == 0)
		return 0;
	if (p->other && 2 * latency_buffer_bytes(p) > cap) { /* two buffers: one first */
		p->other = 0;
		mt_snprintf(note, len, LATENCY_SAYS_NO_OTHER, b->who, mt_fmt_size(a, sizeof a, latency_buffer_bytes(p)),
			    mt_fmt_size(c, sizeof c, b->bytes & ~(uint64_t)0xfffff));
	}
	if (asked > cap) {
		if (cap < LATENCY_MIN_SIZE)
			return mt_fail(e, _("not enough memory for a 4K chase (%s)"), b->who);
		while (p->nsizes > 1 && p->sizes[p->nsizes - 1] > cap)
			p->nsizes--;
		if (note[0])
			mt_append(note, len, "; " LATENCY_SAYS_CAPPED,
				  mt_fmt_size(a, sizeof a, p->sizes[p->nsizes - 1]),
				  want_why && want_why[0] ? want_why : N_("the plan"),
				  mt_fmt_size(c, sizeof c, asked));
		else
			machine_budget_capped(b, N_("sizes"), p->sizes[p->nsizes - 1], asked, want_why,
					      note, len);
	}
	mt_strlcpy(p->note, note, sizeof p->note);
	return 0;
}

/* ---- what the plan and the price share ---------------------------------- */

void latency_plan_point(const struct latency_params *p, uint64_t lines, double est_ns,
		       uint64_t *warm, uint64_t *timed)
{
	double budget = p->point_ns / est_ns; /* loads that fit the point budget */
	double want = (double)p->tries * p->try_ns / est_ns;
	/* four passes over the chase when they fit the budget, else a
	 * budget-long stretch of it (after the warm-up the chase is in its
	 * steady state: a stretch of a fixed chase is like any other, and a
	 * stretch of the random cycle a uniform sample of its lines); at least
	 * the tries' length when that fits the budget */
	double t = fmin(4.0 * (double)lines, budget);
	if (t < want)
		t = fmin(want, budget);
	if (t < 64 * (double)p->tries)
		t = 64.0 * p->tries;
	*timed = (uint64_t)t;
	/* warm-up: one pass, or a quarter budget when a pass is longer (such a
	 * pass fits no cache and no TLB: there is nothing to warm) */
	*warm = lines;
	if ((double)lines * est_ns > p->point_ns / 4)
		*warm = (uint64_t)(p->point_ns / 4 / est_ns);
	if (*warm < LATENCY_MIN_LOADS)
		*warm = LATENCY_MIN_LOADS;
}

uint64_t latency_chase_slots(uint64_t size, unsigned stride)
{
	return stride > size ? 1 : size / stride;
}

/* ---- the worker --------------------------------------------------------- */

uint64_t latency_chunk_loads(double ns, int first)
{
	uint64_t chunk = (uint64_t)(CHUNK_NS / (ns > 0.1 ? ns : 0.1));
	if (chunk < LATENCY_MIN_LOADS)
		chunk = LATENCY_MIN_LOADS;
	return first && chunk > LATENCY_FIRST_LOADS ? LATENCY_FIRST_LOADS : chunk;
}

/* Chase n loads from *p in chunks (latency_chunk_loads: the first from
 * est_ns, a load's expected ns, each next one from what a load of the last
 * chunk took), calling job_check() between them: the warm-up, not timed.
 * Returns JOB_GO, JOB_RESUMED (a pause happened in between) or
 * JOB_CANCELLED. */
static int chase_checked(job_t *job, void **p, uint64_t n, double est_ns)
{
	uint64_t chunk = latency_chunk_loads(est_ns, 1);
	int resumed = 0;
	while (n) {
		uint64_t m = n < chunk ? n : chunk, t0 = mt_now_ns();
		int c;
		*p = chase_walk(*p, m);
		chunk = latency_chunk_loads((double)(mt_now_ns() - t0) / (double)m, 0);
		n -= m;
		c = job_check(job);
		if (c == JOB_CANCELLED)
			return c;
		if (c == JOB_RESUMED)
			resumed = 1;
	}
	return resumed ? JOB_RESUMED : JOB_GO;
}

struct point {
	double best, second; /* ns a load */
	uint64_t loads;
	unsigned tries;
};

/* Time one point on an already linked chase starting at buf. est_ns is the
 * expected ns a load (the last point of this chase), updated. */
static int measure_point(job_t *job, const struct latency_params *p, char *buf, uint64_t lines,
			 double *est_ns, struct point *pt)
{
	uint64_t warm, timed, per_try;
	unsigned ntries;
	void *q = buf;
	int c, again = 0;
	latency_plan_point(p, lines, *est_ns, &warm, &timed);
	/* warm-up: not timed, but it tells the real cost of a load */
	{
		uint64_t t0 = mt_now_ns();
		c = chase_checked(job, &q, warm, *est_ns);
		if (c == JOB_CANCELLED)
			return c;
		if (c == JOB_GO) {
			double got = (double)(mt_now_ns() - t0) / (double)warm;
			if (got > 0) {
				*est_ns = got;
				latency_plan_point(p, lines, got, &warm, &timed);
			}
		}
	}
	/* tries of at most ~50 ms each, so pause/cancel stay prompt */
	ntries = p->tries;
	while ((double)timed / ntries * *est_ns > 50e6 && ntries < 64)
		ntries++;
	per_try = (timed + ntries - 1) / ntries;
	per_try = (per_try + 63) / 64 * 64;
	pt->best = pt->second = INFINITY;
	pt->loads = 0;
	pt->tries = 0;
	for (unsigned t = 0; t < ntries; t++) {
		uint64_t t0, t1;
		double ns;
		c = job_check(job);
		if (c == JOB_CANCELLED)
			return c;
		t0 = mt_now_ns();
		q = chase_walk(q, per_try);
		t1 = mt_now_ns();
		if (job_check(job) == JOB_RESUMED) { /* paused in between: throw it away */
			t--;
			continue;
		}
		ns = (double)(t1 - t0) / (double)per_try;
		if (ns < pt->best) {
			pt->second = pt->best;
			pt->best = ns;
		} else if (ns < pt->second) {
			pt->second = ns;
		}
		pt->loads += per_try;
		pt->tries++;
		/* the two best disagree by more than 10 %: a neighbour got in the
		 * way; as many tries again, once */
		if (t + 1 == ntries && !again && ntries <= p->tries && isfinite(pt->second) &&
		    (pt->second - pt->best) / pt->best > LATENCY_DOUBTFUL_SPREAD) {
			ntries += ntries;
			again = 1;
		}
	}
	mt_sink(q);
	*est_ns = pt->best;
	return JOB_GO;
}

const char *latency_text(char *out, size_t len, const char *stored)
{
	static const char *const forms[] = { LATENCY_SAYS_FORMS, MACHINE_FORMS, NULL };
	return mt_gettext_stored(out, len, MT_PRINTABLE(stored), forms);
}

/* What the kernel backed [buf, buf+len) with (os/platform: smaps), said
 * into out. Returns the share on huge pages (0..1), or -1 not known. */
static double pages_report(const char *buf, size_t len, int hugepages, char *out, size_t olen)
{
	char thp[16];
	uint64_t rss, huge;
	mt_thp_mode(thp, sizeof thp);
	if (mt_plat_huge_bytes(buf, len, &rss, &huge) == 0 && rss) {
		mt_snprintf(out, olen,
			    hugepages == LATENCY_HUGE_ON ? LATENCY_SAYS_HUGE_ON : LATENCY_SAYS_HUGE_OFF,
			    100.0 * (double)huge / (double)rss, thp[0] ? thp : N_("absent"));
		return (double)huge / (double)rss;
	}
	mt_snprintf(out, olen,
		    hugepages == LATENCY_HUGE_ON ? LATENCY_SAYS_HUGE_ASKED : LATENCY_SAYS_SMALL_ASKED,
		    thp[0] ? thp : N_("absent"));
	return -1;
}

static int emit_point(job_t *job, size_t row, size_t col, int kind, const struct point *pt,
		      double ghz, int type)
{
	struct job_event ev;
	job_cell(&ev, kind, (int)row, (int)col, pt->best, job_spread(pt->best, pt->second));
	ev.type = type;
	JOB_PAYLOAD_PUT(&ev, struct latency_ev_point,
			&((struct latency_ev_point){
				.cycles = pt->best * ghz, .loads = pt->loads, .tries = pt->tries }));
	return job_emit(job, &ev);
}

/* The buffer a run chases in, aligned to 2 MB so huge pages can back all of
 * it, and the random chase's scratch order (linked afresh) or the chases'
 * slots linked so far and the random one's generator (grown). */
struct chase_mem {
	char *buf;
	size_t buf_bytes;
	uint32_t *scratch;
	int callers; /* the caller's buffer (latency_params.buf): not ours to unmap */
	int grow;    /* latency_chases_grow() */
	size_t grown[LATENCY_MAX_STRIDES + 1];
	uint64_t rng;
};

uint64_t latency_buffer_bytes(const struct latency_params *p)
{
	uint64_t biggest = p->nsizes ? p->sizes[p->nsizes - 1] : 0;
	for (size_t k = 0; k < p->nstrides; k++)
		if (p->strides[k] > biggest)
			biggest = p->strides[k];
	return (biggest + MT_HUGE_2M - 1) / MT_HUGE_2M * MT_HUGE_2M;
}

/* Map m for p (or take the caller's buffer). Returns 0, or -1 with e. */
static int chase_mem_map(struct chase_mem *m, const struct latency_params *p, mt_error *e)
{
	uint64_t need = latency_buffer_bytes(p);
	memset(m, 0, sizeof *m);
	if (p->buf) {
		if (p->buf_bytes < need)
			return mt_fail(e, _("the caller's buffer is shorter than the largest size"));
		m->buf = p->buf;
		m->callers = 1;
		(void)mt_plat_page_advice(m->buf, need, p->hugepages == LATENCY_HUGE_ON);
	} else if (!(m->buf = mt_map_2m((size_t)need, p->hugepages == LATENCY_HUGE_ON))) {
		char b[32];
		return mt_fail(e, _("cannot allocate %s for the largest size: %s"),
			       mt_fmt_size(b, sizeof b, need), strerror(errno));
	}
	m->buf_bytes = (size_t)need;
	m->grow = latency_chases_grow(p);
	m->rng = LATENCY_RNG_SEED;
	if (p->random && !m->grow) {
		uint64_t slots = p->sizes[p->nsizes - 1] / p->random_stride;
		uint64_t per = p->tlb_locality / p->random_stride; /* slots a group */
		m->scratch = malloc((size_t)(slots + (per ? slots / per + 1 : 0) + 1) *
				    sizeof *m->scratch);
		if (!m->scratch) {
			if (!m->callers)
				munmap(m->buf, m->buf_bytes);
			return mt_fail(e, _("out of memory for the random chase's order"));
		}
	}
	return 0;
}

static void chase_mem_unmap(struct chase_mem *m)
{
	if (!m->callers)
		munmap(m->buf, m->buf_bytes);
	free(m->scratch);
}

/* Link the chase of column c (a fixed stride, or the random chase when
 * c == nstrides) over size bytes; *start is its first slot. Returns the
 * slot count, 0 on failure. */
static size_t link_chase(const struct latency_params *p, struct chase_mem *m, uint64_t size,
			 size_t c, char **start)
{
	int random = c == p->nstrides;
	unsigned stride = random ? p->random_stride : p->strides[c];
	*start = m->buf;
	if (m->grow) { /* column c's pointers at byte 8c of its slots */
		size_t n = (size_t)latency_chase_slots(size, stride), from = m->grown[c];
		if (n < from) /* a smaller size than the last: afresh */
			from = 0;
		*start = m->buf + 8 * c;
		m->grown[c] = random ? latency_grow_random(m->buf, stride, 8 * c, from, n, &m->rng)
				     : latency_grow_fixed(m->buf, stride, 8 * c, from, n);
		return m->grown[c];
	}
	if (stride > size) /* a stride longer than the buffer: one slot, itself */
		return latency_build_fixed(m->buf, stride, stride);
	if (random)
		return latency_build_random_local(m->buf, size, stride, p->tlb_locality,
						  LATENCY_RNG_SEED ^ size, m->scratch);
	return latency_build_fixed(m->buf, size, stride);
}

/* The chases of a row: the fixed strides, the random chase, the random chase
 * on the other page size. */
static size_t columns(const struct latency_params *p)
{
	return p->nstrides + (p->random ? 1 + (p->other ? 1 : 0) : 0);
}

/* ns the points after point (i, c) are expected to take: each one's price
 * under p (its point budget as adapted) as t corrects it by the columns'
 * latest points; into *all (when not NULL) as it corrects it by all of
 * them. */
static double remaining_ns(const struct latency_params *p, const struct latency_eta *t, size_t i,
			   size_t c, double *all)
{
	size_t ncol = columns(p);
	double ns = 0, ns_all = 0;
	for (size_t j = i; j < p->nsizes; j++) {
		for (size_t k = j == i ? c + 1 : 0; k < ncol; k++) {
			int random = k >= p->nstrides;
			unsigned stride = random ? p->random_stride : p->strides[k];
			double priced = latency_point_cost_ns(p, j, stride, random);
			ns += latency_eta_point_ns(t, k, priced);
			if (all)
				ns_all += latency_eta_point_ns_all(t, k, priced);
		}
	}
	if (all)
		*all = ns_all;
	return ns;
}

/* Behind the target (a contended host): shorter points, down to 8 ms. */
static void keep_to_target(const struct latency_params *p0, struct latency_params *p,
			   uint64_t t_start, double done, double total)
{
	double el, proj, pn = p0->point_ns;
	if (p0->target_s <= 0 || done <= 0.05 * total)
		return;
	el = (double)(mt_now_ns() - t_start) / 1e9;
	proj = el * total / done;
	if (proj > p0->target_s)
		pn = fmax(LATENCY_MIN_POINT_NS, p0->point_ns * p0->target_s / proj);
	p->point_ns = fmin(p0->point_ns, pn);
}

/* Say the run's new figure, said_s s in all, at_s s in: a LATENCY_NOTE_REVISED
 * note (value said_s, payload at_s) whose text gives the reason (a busy
 * machine, the load said; else the points run slower or faster than the
 * figure said before, before_s). Returns 0, or -1 (out of memory). */
static int say_revised(job_t *job, double said_s, double before_s, double at_s)
{
	struct job_event ev;
	double load = -1;
	int running = 0, ncpu = mt_online_cpus();
	int busy = mt_load(&load, &running) == 0 && ncpu > 0 && load > 0.5 * ncpu;
	memset(&ev, 0, sizeof ev);
	ev.type = JOB_EV_NOTE;
	ev.subtype = LATENCY_NOTE_REVISED;
	ev.value = said_s;
	JOB_PAYLOAD_PUT(&ev, struct latency_ev_revised, &((struct latency_ev_revised){ .at_s = at_s }));
	if (busy)
		mt_snprintf(ev.text, sizeof ev.text, ncpu == 1 ? LATENCY_SAYS_BUSY_1 : LATENCY_SAYS_BUSY,
			    at_s, ceil(said_s), load, ncpu);
	else
		mt_snprintf(ev.text, sizeof ev.text,
			    said_s > before_s ? LATENCY_SAYS_SLOWER : LATENCY_SAYS_FASTER, at_s,
			    ceil(said_s));
	return job_emit(job, &ev);
}

#define PROBE_LAST_SLOTS (1u << 20) /* probe_last links at most this many */

/* ns a random load over the whole of m: a cycle through one line of every
 * 4 KB page (of every few pages past PROBE_LAST_SLOTS of them), at offsets
 * that turn from page to page, in a random order: the run's page walks
 * over the same page tables. Linked over what is there (the chases link
 * their own afterwards). 0 when m is no bigger than the probe's far buffer
 * or scratch memory is short. */
static double probe_last(const struct chase_mem *m)
{
	uint64_t seg = m->buf_bytes / PROBE_LAST_SLOTS, n;
	uint32_t *scratch;
	double ns = 0;
	seg = (seg < LATENCY_PAGE ? LATENCY_PAGE : seg / 64 * 64) + 64;
	if (m->buf_bytes <= LATENCY_PROBE_FAR)
		return 0;
	n = m->buf_bytes / seg;
	if (!(scratch = malloc((size_t)(n + 1) * sizeof *scratch)))
		return 0;
	if (chase_build_cycle(m->buf, n * seg, (unsigned)seg, LATENCY_RNG_SEED, scratch))
		ns = latency_probe_walk(m->buf, 20000);
	free(scratch);
	return ns;
}

/* Fault in the pages of m and of mo (NULL: none), time a random load over
 * the whole of m into p->probe.rand_last, and say the run's figure from
 * them: a LATENCY_NOTE_PRICED note with what they took and the points priced.
 * *said is that figure. Returns JOB_GO, JOB_CANCELLED, or -1 out of
 * memory. */
static int pages_then_price(job_t *job, struct latency_params *p, struct chase_mem *m,
			    struct chase_mem *mo, uint64_t t_start, double *said)
{
	struct job_event ev;
	double took;
	/* the pages asked for, from the pinned worker (first touch puts them
	 * on its NUMA node): a fault a page costs far more on a VM (11 us a
	 * page where the host has not yet backed the memory, 1.3 where it
	 * has, on the Zen 5 guest): priced by what it took here, not by a
	 * probe of a few pages. */
	if (job_populate(job, m->buf, m->buf_bytes) == JOB_CANCELLED ||
	    (mo && job_populate(job, mo->buf, mo->buf_bytes) == JOB_CANCELLED))
		return JOB_CANCELLED;
	if (p->probe.rand_far > 0)
		p->probe.rand_last = probe_last(m);
	took = (double)(mt_now_ns() - t_start) / 1e9;
	*said = took + latency_points_cost_ns(p, 0) / 1e9;
	memset(&ev, 0, sizeof ev);
	ev.type = JOB_EV_NOTE;
	ev.subtype = LATENCY_NOTE_PRICED;
	ev.value = *said;
	JOB_PAYLOAD_PUT(&ev, struct latency_ev_revised, &((struct latency_ev_revised){ .at_s = took }));
	mt_snprintf(ev.text, sizeof ev.text, LATENCY_SAYS_PRICED, ceil(*said), took);
	return job_emit(job, &ev) < 0 ? -1 : JOB_GO;
}

/* Link and measure point (i, c) and say it: column c of p over m, or the
 * other page size's random chase (c == nstrides + 1) over mo with po; as a
 * JOB_EV_CELL, or (again) a JOB_EV_UPDATE only when it reads lower than
 * *ns. *ns gets the point's ns. Returns JOB_GO, JOB_CANCELLED, or -1 with e. */
static int one_point(job_t *job, const struct latency_params *p, struct chase_mem *m,
		     const struct latency_params *po, struct chase_mem *mo, size_t i, size_t c,
		     double *est, double ghz, int again, double *ns, mt_error *e)
{
	int other = c == p->nstrides + 1, random = c >= p->nstrides;
	unsigned stride = random ? p->random_stride : p->strides[c];
	size_t lines;
	char *start;
	struct point pt;
	lines = other ? link_chase(po, mo, p->sizes[i], 0, &start)
		      : link_chase(p, m, p->sizes[i], c, &start);
	if (lines == 0)
		return mt_fail(e, _("cannot link a chase of %llu bytes at stride %u"),
			       (unsigned long long)p->sizes[i], stride);
	if (job_check(job) == JOB_CANCELLED ||
	    measure_point(job, p, start, lines, est, &pt) == JOB_CANCELLED)
		return JOB_CANCELLED;
	if ((!again || pt.best < *ns) &&
	    emit_point(job, i, c, other ? LATENCY_CELL_OTHER : random ? LATENCY_CELL_RANDOM : LATENCY_CELL_FIXED,
		       &pt, ghz, again ? JOB_EV_UPDATE : JOB_EV_CELL) < 0)
		return mt_fail(e, _("out of memory"));
	*ns = again ? fmin(*ns, pt.best) : pt.best;
	return JOB_GO;
}

/* With the last run's main curve (p->prev_ns): measure again, once, each of
 * its points that moved from it by LATENCY_MOVED (this run's in got[]),
 * sending the lower reading; then say how many now agree with the last
 * run. Returns JOB_GO, JOB_CANCELLED, or -1 with e. */
static int retry_moved(job_t *job, const struct latency_params *p, struct chase_mem *m,
		       const struct latency_params *po, struct chase_mem *mo, double *got,
		       double ghz, mt_error *e)
{
	size_t c = latency_main_curve(p), tried = 0, agree = 0;
	double est = 2.0;
	for (size_t i = 0; p->has_prev && i < p->nsizes; i++) {
		double was = p->prev_ns[i];
		int st;
		if (!isfinite(was) || !isfinite(got[i]) ||
		    fabs(got[i] - was) < LATENCY_MOVED * fmin(got[i], was))
			continue;
		if ((st = one_point(job, p, m, po, mo, i, c, &est, ghz, 1, &got[i], e)) != JOB_GO)
			return st;
		tried++;
		agree += fabs(got[i] - was) < LATENCY_MOVED * fmin(got[i], was);
	}
	if (tried) {
		struct job_event ev;
		memset(&ev, 0, sizeof ev);
		ev.type = JOB_EV_NOTE;
		ev.subtype = LATENCY_NOTE_RETRIED;
		ev.value = (double)tried;
		/* words for people (the batch's closing lines, the Latency tab) */
		mt_snprintf(ev.text, sizeof ev.text,
			    MT_NGETTEXT("%zu of them now agree with it", "%zu of them now agree with it",
					agree),
			    agree);
		if (job_emit(job, &ev) < 0)
			return mt_fail(e, _("out of memory"));
	}
	return JOB_GO;
}

/* Measure every point of p0 over m (and the other page size's random chase
 * over mo, with po, when p0->other). Returns 0 (also when cancelled: the
 * job knows), or -1 with e. */
static int chase_all(job_t *job, const struct latency_params *p0, struct chase_mem *m,
		     const struct latency_params *po, struct chase_mem *mo, double ghz, mt_error *e)
{
	struct latency_params pp = *p0, *p = &pp; /* point_ns adapts; the probe grows */
	uint64_t t_start = mt_now_ns(), t_point;
	double units_done, units_total, priced; /* progress in ns: real done, done + expected */
	double said, before, left_all, got[LATENCY_MAX_SIZES], ns = 0;
	double est[LATENCY_ETA_COLS];
	struct latency_eta eta;
	size_t ncol = columns(p);
	int st;
	for (size_t k = 0; k < LATENCY_ETA_COLS; k++)
		est[k] = LATENCY_FIRST_GUESS_NS;
	for (size_t i = 0; i < LATENCY_MAX_SIZES; i++)
		got[i] = NAN;
	st = pages_then_price(job, p, m, p->other ? mo : NULL, t_start, &said);
	if (st != JOB_GO)
		return st == JOB_CANCELLED ? 0 : mt_fail(e, _("out of memory"));
	latency_eta_init(&eta, ceil(said)); /* as the run said it */
	units_done = (double)(mt_now_ns() - t_start);
	eta.fixed_s = units_done / 1e9; /* the pages: done, their time known */
	/* every point is ahead: the one "after" point (0, -1), unsigned wrap */
	job_set_progress(job, units_done, units_done + remaining_ns(p, &eta, 0, (size_t)-1, NULL));
	for (size_t i = 0; i < p->nsizes; i++) {
		for (size_t c = 0; c < ncol; c++) {
			int random = c >= p->nstrides;
			if (job_check(job) == JOB_CANCELLED)
				return 0;
			priced = latency_point_cost_ns(p, i, random ? p->random_stride : p->strides[c], random);
			t_point = mt_now_ns();
			st = one_point(job, p, m, po, mo, i, c, &est[c], ghz, 0, &ns, e);
			if (st != JOB_GO)
				return st == JOB_CANCELLED ? 0 : -1;
			if (c == latency_main_curve(p))
				got[i] = ns;
			latency_eta_add(&eta, c, priced, (double)(mt_now_ns() - t_point));
			units_done = (double)(mt_now_ns() - t_start);
			units_total = units_done + remaining_ns(p, &eta, i, c, &left_all);
			job_set_progress(job, units_done, units_total);
			before = eta.said_s;
			said = latency_eta_revise(&eta, units_done / 1e9, (units_total - units_done) / 1e9,
					      left_all / 1e9);
			if (said > 0 && say_revised(job, said, before, units_done / 1e9) < 0)
				return mt_fail(e, _("out of memory"));
			keep_to_target(p0, p, t_start, units_done, units_total);
		}
	}
	st = retry_moved(job, p, m, po, mo, got, ghz, e);
	return st == JOB_GO || st == JOB_CANCELLED ? 0 : -1;
}

/* The pages note of buffer m (kind LATENCY_NOTE_PAGES or LATENCY_NOTE_OTHER_PAGES,
 * whose value is the share on huge pages). Returns 0, or -1 out of memory. */
static int say_pages(job_t *job, const struct chase_mem *m, size_t len, int hugepages, int kind)
{
	struct job_event ev;
	memset(&ev, 0, sizeof ev);
	ev.type = JOB_EV_NOTE;
	ev.subtype = kind;
	ev.value = pages_report(m->buf, len, hugepages, ev.text, sizeof ev.text);
	return job_emit(job, &ev);
}

int latency_worker(job_t *job, void *arg, mt_error *e)
{
	const struct latency_params *p = arg;
	struct latency_params po;
	struct chase_mem m, mo;
	struct mt_clock clk;
	size_t last;
	double ghz;
	int st;

	if (p->nsizes == 0 || (p->nstrides == 0 && !p->random))
		return mt_fail(e, _("nothing to measure"));
	job_set_total(job, p->nsizes * columns(p));
	/* the other page size's chase: the random one alone, in its own buffer */
	po = *p;
	po.nstrides = 0;
	po.other = 0;
	po.buf = NULL;
	po.hugepages = p->hugepages == LATENCY_HUGE_ON ? LATENCY_HUGE_OFF : LATENCY_HUGE_ON;
	if (chase_mem_map(&m, p, e) < 0)
		return -1;
	if (p->random && p->other && chase_mem_map(&mo, &po, e) < 0) {
		chase_mem_unmap(&m);
		return -1;
	}
	mt_clock_calibrate(&clk, 0);
	ghz = clk.core_ghz > 0 ? clk.core_ghz : clk.ticks_per_ns;
	st = p->note[0] && job_note(job, "%s", p->note) < 0 ? mt_fail(e, _("out of memory"))
							     : chase_all(job, p, &m, &po, &mo, ghz, e);
	/* what the kernel backed the buffers with, for latency_apply() */
	last = (size_t)p->sizes[p->nsizes - 1];
	if (st == 0 && job_check(job) != JOB_CANCELLED &&
	    (say_pages(job, &m, last, p->hugepages, LATENCY_NOTE_PAGES) < 0 ||
	     (p->random && p->other &&
	      say_pages(job, &mo, last, po.hugepages, LATENCY_NOTE_OTHER_PAGES) < 0)))
		st = mt_fail(e, _("out of memory"));
	if (p->random && p->other)
		chase_mem_unmap(&mo);
	chase_mem_unmap(&m);
	return st;
}
