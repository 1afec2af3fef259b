/* bandwidth_loaded: latency under load, after Intel MLC's loaded latency.
 *
 * One thread (the chaser, on the first CPU) follows a random cycle through
 * a DRAM-sized buffer, one dependent load at a time, as the latency lab's
 * random chase does (same slot stride, 4 KB pages; 2 MB where the caller
 * asks, chase_huge, as MLC), so its idle figure is
 * the latency lab's DRAM figure. Meanwhile every other CPU runs a loader
 * that streams its own buffer in 8 KB bursts with the widest vector loads
 * (or stores), waiting `delay` ns between bursts. The sweep starts idle
 * (no loaders), then runs the delays from long (light load) to none
 * (saturation); each point is latency against the bandwidth the loaders
 * achieved during the chaser's timed tries (a try goes on until they have
 * moved bytes: no loaded point is an idle one). The idle point is measured
 * until two in a row agree: fresh memory reads slow at first (on the Zen 5
 * KVM guest 500-1200 ns a load for a second or two, then 250: the host
 * still mapping the guest's new pages), and every point is held against it. */
#include "config.h"

#include "bandwidth_worker.h"
#include "bandwidth_kernels.h"
#include "bandwidth_plan.h"
#include "base/i18n.h"
#include "bandwidth_int.h"
#include "base/chase.h"
#include "os/barrier.h"
#include "os/clock.h"
#include "os/platform.h"
#include "os/threads.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define BURST_DOUBLES 1024u /* 8 KB a burst */
#define CALIBRATE_LOADS 4096u
#define CALIBRATE_TIMES 3
#define MIN_LOADS 1000u
#define RAMP_NS 10000000L /* loaders run this long before the chaser times */
#define CHECK_EVERY_NS 50000000ull /* the job's pause and cancel, checked while a point runs */
#define SEED 0x6d656d746f70ull
#define SETTLE_MAX 8       /* idle points at most, until two agree */
#define SETTLE_RATIO 0.10  /* "agree": medians within 10 % */

/* ---- the chase --------------------------------------------------------------- */

/* ---- loaders and the chaser ----------------------------------------------------- */

struct loader {
	_Alignas(128) _Atomic uint64_t bytes; /* moved so far (one writer) */
	_Alignas(128) double *buf;
	size_t n;                              /* doubles, a multiple of BURST_DOUBLES */
	struct point_ctx *ctx;
};

struct point_ctx {
	_Alignas(128) atomic_int stop_loaders;
	_Alignas(128) atomic_int stop_chaser;
	_Alignas(128) struct mt_waitgroup chaser_done;
	bandwidth_pass_fn fn;
	uint64_t delay_ticks;
	struct loader *loaders;
	unsigned nloaders;
	void *chase_start;
	double point_ns;
	unsigned tries;
	/* the chaser's results: each try's ns per load and the loaders' GB/s */
	double ns[64], gbs[64];
	long pre[64];      /* times the chaser lost its CPU in each try */
	unsigned done_tries;
};

static void *loader_main(void *arg)
{
	struct loader *l = arg;
	struct point_ctx *c = l->ctx;
	uint64_t sum = 0, moved = 0;
	size_t pos = 0;
	unsigned spins = 0;
	while (!atomic_load_explicit(&c->stop_loaders, memory_order_relaxed)) {
		sum += c->fn(l->buf + pos, NULL, NULL, BURST_DOUBLES, 1.0, 1);
		moved += BURST_DOUBLES * sizeof(double);
		atomic_store_explicit(&l->bytes, moved, memory_order_relaxed);
		pos += BURST_DOUBLES;
		if (pos >= l->n)
			pos = 0;
		if (c->delay_ticks) {
			uint64_t t0 = mt_ticks();
			while (mt_ticks() - t0 < c->delay_ticks)
				bandwidth_relax(&spins);
		}
	}
	mt_sink(sum);
	return NULL;
}

static uint64_t loaders_bytes(const struct point_ctx *c)
{
	uint64_t b = 0;
	for (unsigned i = 0; i < c->nloaders; i++)
		b += atomic_load_explicit(&c->loaders[i].bytes, memory_order_relaxed);
	return b;
}

/* Loads a try takes to last about point_ns: the best of CALIBRATE_TIMES
 * short walks: one in which the chaser lost its CPU priced a load over 30x
 * too dear, and a try meant to last 20 ms lasted 0.6. Walks on from *q. */
static uint64_t chaser_calibrate(const struct point_ctx *c, void **q)
{
	double est = INFINITY;
	uint64_t loads;
	for (int i = 0; i < CALIBRATE_TIMES; i++) {
		uint64_t t0 = mt_now_ns();
		*q = chase_walk(*q, CALIBRATE_LOADS);
		est = fmin(est, (double)(mt_now_ns() - t0) / CALIBRATE_LOADS);
	}
	loads = est > 0 ? (uint64_t)(c->point_ns / est) : MIN_LOADS;
	return loads < MIN_LOADS ? MIN_LOADS : loads;
}

/* A loaded try: its loads, then on in MIN_LOADS steps until the loaders
 * have moved bytes since it began (b0), or the chaser is told to stop. A
 * loader on a busy CPU can be off it for a whole try; that try measured
 * the idle latency and would have been paired with 0 GB/s. *loads grows
 * by the steps taken. Returns where the chase got to. */
static void *chaser_try_loaded(struct point_ctx *c, void *q, uint64_t b0, uint64_t *loads)
{
	q = chase_walk(q, *loads);
	while (c->nloaders && loaders_bytes(c) == b0 && !atomic_load(&c->stop_chaser)) {
		q = chase_walk(q, MIN_LOADS);
		*loads += MIN_LOADS;
	}
	return q;
}

static void *chaser_main(void *arg)
{
	struct point_ctx *c = arg;
	void *q = c->chase_start;
	uint64_t want;
	if (c->nloaders)
		mt_nap(RAMP_NS);
	want = chaser_calibrate(c, &q);
	for (unsigned t = 0; t < c->tries && t < MT_ARRAY_LEN(c->ns); t++) {
		uint64_t b0, b1, t0, t1, loads = want;
		if (atomic_load(&c->stop_chaser))
			break;
		c->pre[t] = mt_plat_thread_preemptions();
		b0 = loaders_bytes(c);
		t0 = mt_now_ns();
		q = chaser_try_loaded(c, q, b0, &loads);
		t1 = mt_now_ns();
		b1 = loaders_bytes(c);
		c->pre[t] = mt_plat_thread_preemptions() - c->pre[t];
		c->ns[t] = (double)(t1 - t0) / (double)loads;
		c->gbs[t] = t1 > t0 ? (double)(b1 - b0) / (double)(t1 - t0) : 0;
		c->done_tries = t + 1;
	}
	c->chase_start = q; /* the next point goes on from here */
	mt_waitgroup_done(&c->chaser_done);
	return NULL;
}

/* ---- the sweep ----------------------------------------------------------------------- */

struct sweep {
	const struct bandwidth_params *p;
	job_t *job;
	char *chase;
	size_t chase_bytes;
	double *lbuf;
	size_t lbuf_bytes;
	struct loader *loaders;
	unsigned nloaders;
	double ticks_per_ns;
	void *pos;
};

/* Wait for the chaser of c, checking the job. Returns JOB_GO, JOB_RESUMED
 * or JOB_CANCELLED (then the chaser was told to stop). */
static int wait_chaser(struct sweep *s, struct point_ctx *c)
{
	int st = JOB_GO;
	while (mt_waitgroup_wait(&c->chaser_done, 1, CHECK_EVERY_NS) < 1) {
		int chk = job_check(s->job);
		if (chk != JOB_GO && st == JOB_GO) {
			st = chk;
			atomic_store(&c->stop_chaser, 1);
		}
	}
	return st == JOB_GO ? job_check(s->job) : st; /* a point shorter than the wait too */
}

/* One point: delay_ns < 0 is idle. Returns JOB_GO (c holds the tries),
 * JOB_RESUMED (do it again), JOB_CANCELLED, or -1 with e. */
static int run_point(struct sweep *s, double delay_ns, struct point_ctx *c, mt_error *e)
{
	const struct bandwidth_params *p = s->p;
	pthread_t lt[BANDWIDTH_MAX_THREADS], ct;
	unsigned started = 0, nl = delay_ns < 0 ? 0 : s->nloaders;
	int st = -1;
	memset(c, 0, sizeof *c);
	c->fn = bandwidth_kernel_fn(p->loader_write ? BANDWIDTH_WRITE : BANDWIDTH_READ_VECTOR, p->isa);
	c->delay_ticks = delay_ns > 0 ? (uint64_t)(delay_ns * s->ticks_per_ns) : 0;
	c->loaders = s->loaders;
	c->nloaders = nl;
	c->chase_start = s->pos;
	c->point_ns = p->point_ns;
	c->tries = p->loaded_tries;
	if (mt_waitgroup_init(&c->chaser_done, e) < 0)
		return -1;
	for (unsigned i = 0; i < nl; i++) {
		s->loaders[i].ctx = c;
		atomic_store(&s->loaders[i].bytes, 0);
		if (bandwidth_thread_start(&lt[i], p->cpus[1 + i], loader_main, &s->loaders[i], NULL,
				    e) < 0)
			goto stop;
		started++;
	}
	if (bandwidth_thread_start(&ct, p->cpus[0], chaser_main, c, job_run_clock(s->job), e) < 0)
		goto stop;
	st = wait_chaser(s, c);
	mt_thread_join(ct);
	s->pos = c->chase_start;
stop:
	atomic_store(&c->stop_loaders, 1);
	for (unsigned i = 0; i < started; i++)
		mt_thread_join(lt[i]);
	mt_waitgroup_destroy(&c->chaser_done);
	return st;
}

/* A loaded point is the median try by latency, with the loaders' GB/s
 * during that same try: a pair that was observed together. The idle point
 * is the fastest try, as the latency lab takes its points (best of tries),
 * so the two compare. Tries in which the chaser lost its CPU to another
 * task (time slicing on a busy host) are left out when there are others. */
static int emit_point(struct sweep *s, int row, double delay_ns, const struct point_ctx *c)
{
	struct job_event ev;
	unsigned n = c->done_tries, clean = 0, k = 0, mid = 0, want;
	unsigned idx[MT_ARRAY_LEN(c->ns)];
	double lo = INFINITY, hi = 0, med = 0;
	for (unsigned t = 0; t < n; t++)
		clean += c->pre[t] == 0;
	for (unsigned t = 0; t < n; t++)
		if (!clean || c->pre[t] == 0)
			idx[k++] = t;
	want = delay_ns < 0 ? 0 : k / 2;
	for (unsigned i = 0; i < k; i++) {
		unsigned t = idx[i], below = 0;
		lo = fmin(lo, c->ns[t]);
		hi = fmax(hi, c->ns[t]);
		for (unsigned j = 0; j < k; j++)
			below += c->ns[idx[j]] < c->ns[t] || (c->ns[idx[j]] == c->ns[t] && j < i);
		if (below == want)
			mid = t;
		if (below == k / 2)
			med = c->ns[t];
	}
	job_cell(&ev, BANDWIDTH_EV_LOADED, row, 0, n ? c->ns[mid] : 0, med > 0 ? (hi - lo) / med : 0);
	JOB_PAYLOAD_PUT(&ev, struct bandwidth_ev_loaded,
			&((struct bandwidth_ev_loaded){
				.gbs = delay_ns < 0 || !n ? 0 : c->gbs[mid],
				.delay_ns = delay_ns < 0 ? -1 : delay_ns,
				.tries = (int)c->done_tries,
				.preempted = (int)(n - clean),
			}));
	return job_emit(s->job, &ev);
}

/* The median of a point's tries (ns a load); 0 when none ran. */
static double point_median(const struct point_ctx *c)
{
	return c->done_tries ? mt_median(c->ns, c->done_tries) : 0;
}

/* The idle point, again until two in a row agree within SETTLE_RATIO, and
 * a note when the first read slower (fresh memory settling in) or none
 * agreed. Returns as run_point; on JOB_GO c holds the last idle point. */
static int settle_idle(struct sweep *s, struct point_ctx *c, mt_error *e)
{
	double first = 0, prev = 0, m = 0;
	for (int i = 0; i < SETTLE_MAX; i++) {
		int st = run_point(s, -1, c, e);
		if (st != JOB_GO)
			return st;
		m = point_median(c);
		if (i == 0)
			first = m;
		else if (fabs(m - prev) <= SETTLE_RATIO * prev) {
			if (first > m * (1 + SETTLE_RATIO))
				job_note(s->job, BANDWIDTH_SAYS_SETTLED, i + 1, first, m);
			return JOB_GO;
		}
		prev = m;
	}
	job_note(s->job, BANDWIDTH_SAYS_UNSETTLED, SETTLE_MAX, first, m);
	return JOB_GO;
}

/* The loaders' count of p: every CPU but the chaser's. */
static unsigned loaders_of(const struct bandwidth_params *p)
{
	int n = p->ncpus - 1 < BANDWIDTH_MAX_THREADS ? p->ncpus - 1 : BANDWIDTH_MAX_THREADS;
	return n > 0 ? (unsigned)n : 0;
}

/* Each loader's share of p->loader_bytes: whole bursts, one at least. */
static size_t loader_share(const struct bandwidth_params *p)
{
	unsigned n = loaders_of(p);
	size_t share = (size_t)(p->loader_bytes / (n ? n : 1));
	share = share / (BURST_DOUBLES * sizeof(double)) * (BURST_DOUBLES * sizeof(double));
	return share < BURST_DOUBLES * sizeof(double) ? BURST_DOUBLES * sizeof(double) : share;
}

uint64_t bandwidth_loader_bytes(const struct bandwidth_params *p)
{
	return (uint64_t)loader_share(p) * loaders_of(p);
}

/* Buffers: the chase (linked) and the loaders' (touched), mapped here or
 * the caller's (p->chase_buf, p->loader_buf, placed as the caller wants). */
static int sweep_buffers(struct sweep *s, mt_error *e)
{
	const struct bandwidth_params *p = s->p;
	size_t slots = (size_t)(p->chase_bytes / p->chase_stride), share = loader_share(p);
	uint32_t *scratch = malloc((slots ? slots : 1) * sizeof *scratch);
	char a[32];
	if (!scratch)
		return mt_fail(e, _("out of memory for the chase"));
	s->chase_bytes = slots * p->chase_stride;
	s->chase = p->chase_buf ? p->chase_buf
				: mmap(NULL, s->chase_bytes, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	s->lbuf_bytes = share * s->nloaders;
	s->lbuf = p->loader_buf ? (double *)(void *)p->loader_buf
				: mmap(NULL, s->lbuf_bytes, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->chase == MAP_FAILED || s->lbuf == MAP_FAILED) {
		free(scratch);
		return mt_fail(e, _("cannot allocate %s for the loaded latency: %s"),
			       mt_fmt_size(a, sizeof a, s->chase_bytes + s->lbuf_bytes),
			       strerror(errno));
	}
	/* 4 KB pages as the latency lab's default, or 2 MB as MLC's */
	(void)mt_plat_page_advice(s->chase, s->chase_bytes, p->chase_huge);
	if (!p->loader_buf)
		(void)mt_plat_page_advice(s->lbuf, s->lbuf_bytes, 0);
	if (chase_build_cycle(s->chase, s->chase_bytes, p->chase_stride, SEED, scratch) == 0) {
		free(scratch);
		return mt_fail(e, _("bandwidth: bad chase (%zu bytes, stride %u)"), s->chase_bytes,
			       p->chase_stride);
	}
	free(scratch);
	s->pos = s->chase;
	bandwidth_fill(s->lbuf, NULL, NULL, s->lbuf_bytes / sizeof(double));
	for (unsigned i = 0; i < s->nloaders; i++) {
		s->loaders[i].buf = (double *)(void *)((char *)s->lbuf + (size_t)i * share);
		s->loaders[i].n = share / sizeof(double);
	}
	return 0;
}

static void sweep_free(struct sweep *s)
{
	if (s->chase && s->chase != MAP_FAILED && !s->p->chase_buf)
		munmap(s->chase, s->chase_bytes);
	if (s->lbuf && s->lbuf != MAP_FAILED && !s->p->loader_buf)
		munmap((void *)s->lbuf, s->lbuf_bytes);
	free(s->loaders);
}

int bandwidth_loaded(job_t *job, const struct bandwidth_params *p, double units0,
		     double units_total, int *cancelled, mt_error *e)
{
	struct sweep s;
	struct point_ctx *c = NULL;
	struct mt_clock clk;
	int rc = 0;
	*cancelled = 0;
	if (p->ncpus < 2) {
		job_note(job, BANDWIDTH_SAYS_TWO_CPUS, p->ncpus);
		return 0;
	}
	memset(&s, 0, sizeof s);
	s.p = p;
	s.job = job;
	s.nloaders = loaders_of(p);
	mt_clock_calibrate(&clk, 20);
	s.ticks_per_ns = clk.ticks_per_ns > 0 ? clk.ticks_per_ns : 1;
	s.loaders = aligned_alloc(128, s.nloaders * sizeof *s.loaders);
	c = aligned_alloc(128, sizeof *c);
	if (!s.loaders || !c) {
		free(c);
		free(s.loaders);
		return mt_fail(e, _("out of memory"));
	}
	memset(s.loaders, 0, s.nloaders * sizeof *s.loaders);
	if (sweep_buffers(&s, e) < 0) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i <= p->ndelays && rc == 0; i++) {
		double delay = i == 0 ? -1 : p->delays[i - 1];
		int st = i == 0 ? settle_idle(&s, c, e) : run_point(&s, delay, c, e);
		if (st < 0) {
			rc = -1;
		} else if (st == JOB_CANCELLED) {
			*cancelled = 1;
			break;
		} else if (st == JOB_RESUMED) {
			i--; /* a pause fell inside: measure the point again */
		} else if (emit_point(&s, (int)i, delay, c) < 0) {
			rc = mt_fail(e, _("out of memory"));
		} else {
			job_set_progress(job, units0 + (double)(i + 1) * p->loaded_tries * p->point_ns,
					 units_total);
		}
	}
out:
	sweep_free(&s);
	free(c);
	return rc;
}
