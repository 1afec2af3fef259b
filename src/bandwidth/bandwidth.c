/* bandwidth: the table's measuring threads and the job worker.
 *
 * How a cell (kernel, size, threads) is measured:
 *  - the coordinator (the job's worker) fills each thread's arrays with
 *    known values (untimed), then runs tries; a try starts one thread per
 *    thread count, each pinned to its CPU; each thread makes one warm-up
 *    pass over its own arrays (not timed), times a tiny L1 canary, and
 *    waits at a barrier; the last to arrive takes the start time and lets
 *    them all go; each makes reps passes and notes its end; the try lasts
 *    from the start to the last end, so the slowest thread counts;
 *  - the first try sizes reps so a try lasts try_ns (4 ms); tries repeat
 *    until the two best agree within the tolerance and neither lost its CPU
 *    (at least min_tries, at most max_tries); the best counts: noise only
 *    slows a try down;
 *  - a one-thread cell's timed tries are bracketed by the core clock: the
 *    measuring thread looks at it (a chain of dependent adds, 0.2 ms)
 *    right before the barrier and right after its last pass, and the
 *    cell's bytes a cycle divide by the mean of the two around its best
 *    try: this guest's clock moves between 3.4 and 4.0 GHz from one
 *    millisecond to the next, so the run's start and end say little of
 *    a 4 ms try in between. It costs 0.4 ms a try (a tenth of a 4 ms
 *    try); cells of more threads print no bytes a cycle and take none;
 *  - after the tries the coordinator checks the arrays hold what the
 *    kernel computes (copy copied, triad computed, writes wrote, reads
 *    summed every word);
 *  - a cell whose best try ran with a slow canary (another tenant on the
 *    core) or lost its CPU to another task (getrusage's involuntary
 *    context switches: time slicing on a busy host), or whose tries disagree is measured again at the end of its row
 *    (all kernels at one size and thread count) and keeps the better
 *    result (a JOB_EV_UPDATE before the next row's first cell);
 *  - a kernel call covers at most 8 MB (many passes of a small array, or a
 *    chunk of a big one's pass), so stop (pause, cancel) takes effect
 *    within 100 ms; a try a pause fell into is thrown away and redone. */
#include "config.h"

#include "bandwidth_worker.h"
#include "bandwidth_kernels.h"
#include "bandwidth_plan.h"
#include "base/i18n.h"
#include "bandwidth_int.h"
#include "base/util.h"
#include "os/arch.h"
#include "os/barrier.h"
#include "os/clock.h"
#include "os/platform.h"
#include "os/sysinfo.h"
#include "os/threads.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define CHUNK_DOUBLES (1u << 20) /* 8 MB a kernel call: stop is seen within ~1 ms */
#define CANARY_DOUBLES 256       /* 2 KB: always in L1 */
#define CANARY_PASSES 32
#define DOUBTFUL_CANARY 1.15
#define DOUBTFUL_SPREAD 0.05
#define DOUBTFUL_UNEVEN 0.2 /* the first thread done this much of the try before the last */
#define CHECK_EVERY_NS 50000000ull /* the job's pause and cancel, checked while a try runs */
#define TRIAD_S 3.0

/* ---- check ------------------------------------------------------------------ */

/* What AVX2's vector read returns for reps passes over n doubles: each
 * chunk's first half times its second half, word by word, summed (exact:
 * bandwidth_fill's words are small integers). */
static uint64_t fma_read_sum(const double *a, size_t n, size_t reps)
{
	double total = 0;
	for (size_t off = 0; off < n; off += CHUNK_DOUBLES) {
		size_t len = n - off < CHUNK_DOUBLES ? n - off : CHUNK_DOUBLES;
		for (size_t j = 0; j < len / 2; j++)
			total += a[off + j] * a[off + len / 2 + j];
	}
	return (uint64_t)(int64_t)(total * (double)reps);
}

int bandwidth_check(int kernel, int isa, const double *a, const double *b, const double *c,
		    size_t n, double s, uint64_t sum, size_t reps)
{
	uint64_t want = 0;
	if (kernel == BANDWIDTH_READ_VECTOR && isa == BANDWIDTH_ISA_AVX2)
		return sum == fma_read_sum(a, n, reps);
	switch (kernel) {
	case BANDWIDTH_READ:
	case BANDWIDTH_READ_VECTOR:
		/* the vector read xors each call's words and a big array is
		 * read a chunk a call (passes()): the sum of the chunks' xors */
		for (size_t off = 0; off < n; off += CHUNK_DOUBLES) {
			uint64_t x = 0;
			for (size_t i = off; i < n && i < off + CHUNK_DOUBLES; i++) {
				uint64_t w;
				memcpy(&w, &a[i], sizeof w);
				want += kernel == BANDWIDTH_READ ? w : 0;
				x ^= w;
			}
			want += kernel == BANDWIDTH_READ ? 0 : x;
		}
		return sum == want * (uint64_t)reps; /* wrap-around, as the kernels add */
	case BANDWIDTH_LOAD: /* its loads leave no trace: it returns 0 and stores nothing */
		for (size_t i = 0; i < n; i++)
			if (a[i] != -1.0 - (double)(i % 1000))
				return 0;
		return sum == 0;
	case BANDWIDTH_WRITE:
	case BANDWIDTH_WRITE_NT:
		for (size_t i = 0; i < n; i++)
			if (a[i] != s)
				return 0;
		return 1;
	case BANDWIDTH_COPY:
	case BANDWIDTH_COPY_NT:
	case BANDWIDTH_COPY_LIB:
		return memcmp(a, b, n * sizeof *a) == 0;
	case BANDWIDTH_FILL:
	case BANDWIDTH_FILL_ZERO: { /* every byte the one memset wrote */
		const unsigned char *p = (const unsigned char *)a;
		unsigned char want_byte = kernel == BANDWIDTH_FILL ? BANDWIDTH_FILL_BYTE(s) : 0;
		for (size_t i = 0; i < n * sizeof *a; i++)
			if (p[i] != want_byte)
				return 0;
		return 1;
	}
	case BANDWIDTH_TRIAD:
	case BANDWIDTH_TRIAD_NT: /* small integers: exact however it is evaluated (FMA too) */
		for (size_t i = 0; i < n; i++)
			if (a[i] != b[i] + s * c[i])
				return 0;
		return 1;
	default: /* the mixes, and 0 for no kernel */
		return bandwidth_mix_check(kernel, a, b, c, n, sum, reps);
	}
}

/* ---- one try ----------------------------------------------------------------------- */

struct try_ctx {
	_Alignas(128) atomic_int ready;
	_Alignas(128) atomic_int go;
	_Alignas(128) atomic_int stop;
	_Alignas(128) struct mt_waitgroup done;
	uint64_t t0;
	bandwidth_pass_fn fn, canary_fn;
	double (*clock)(void); /* the core clock around each try (NULL: none) */
	char *buf;
	struct bandwidth_layout lay;
	unsigned threads, arrays;
	uint64_t reps;
	double s;
	int whole; /* the C library's kernel: a pass is one call over the whole array, as
		    * a program calls it; the library picks its way by the call's length
		    * (glibc 2.36 on the Zen 5 guest: memset calls from 32 MB on ran zeros at
		    * 72-90 GB/s, 16 MB and shorter ones at 36-38; glibc sizes such
		    * thresholds from the cache sizes CPUID reports) */
};

struct member {
	struct try_ctx *ctx;
	unsigned index;
	uint64_t end_ns;
	uint64_t sum;      /* the last kernel call's sum (reads) ... */
	size_t sum_reps;   /* ... over this many passes */
	double canary_ns;
	long preempted;    /* times it lost its CPU during the timed passes */
	double ghz_before, ghz_after; /* the core clock around them (0: not taken) */
};

static double *array_of(const struct try_ctx *c, unsigned thread, unsigned k)
{
	if (k >= c->arrays)
		return NULL;
	return (double *)(void *)(c->buf + (size_t)thread * c->lay.slice_stride + c->lay.array_off[k]);
}

/* reps passes over one thread's arrays: a small array many passes a call
 * (up to CHUNK_DOUBLES a call, so the call and the kernel's final sum cost
 * nothing against the passes), a big one each pass in chunks (the C
 * library's kernels: one call a pass, c->whole). The stop flag is checked
 * between calls (*stopped set). Returns the sum of all
 * passes; m->sum and m->sum_reps get the last call's sum and passes. */
static uint64_t passes(struct try_ctx *c, struct member *m, double *a, double *b, double *d,
		       uint64_t reps, int *stopped)
{
	size_t n = c->lay.n;
	uint64_t sum = 0;
	if (n <= CHUNK_DOUBLES) {
		uint64_t per = CHUNK_DOUBLES / n;
		for (uint64_t done = 0; done < reps && !*stopped;) {
			size_t k = (size_t)(reps - done < per ? reps - done : per);
			m->sum = c->fn(a, b, d, n, c->s, k);
			m->sum_reps = k;
			sum += m->sum;
			done += k;
			*stopped = atomic_load_explicit(&c->stop, memory_order_relaxed);
		}
		return sum;
	}
	for (uint64_t r = 0; r < reps && !*stopped; r++) {
		uint64_t one = 0;
		size_t chunk = c->whole ? n : CHUNK_DOUBLES;
		for (size_t off = 0; off < n && !*stopped; off += chunk) {
			size_t len = n - off < chunk ? n - off : chunk;
			one += c->fn(a + off, b ? b + off : NULL, d ? d + off : NULL, len, c->s, 1);
			*stopped = atomic_load_explicit(&c->stop, memory_order_relaxed);
		}
		m->sum = one;
		m->sum_reps = 1;
		sum += one;
	}
	return sum;
}

static double time_canary(struct try_ctx *c)
{
	_Alignas(64) double canary[CANARY_DOUBLES];
	uint64_t s = 0, t0;
	for (size_t i = 0; i < CANARY_DOUBLES; i++)
		canary[i] = (double)i;
	s += c->canary_fn(canary, NULL, NULL, CANARY_DOUBLES, 0, 1); /* into L1 */
	t0 = mt_now_ns();
	s += c->canary_fn(canary, NULL, NULL, CANARY_DOUBLES, 0, CANARY_PASSES);
	mt_sink(s);
	return (double)(mt_now_ns() - t0);
}

/* One look at the core clock (c->clock), 0 when the thread lost its CPU
 * to another task meanwhile: a chain cut by a time slice reads low (on a
 * busy guest one such look made a triad's clock 2.62 GHz, its share
 * 62 % where the run's ends gave 46 %). */
static double clock_look(struct try_ctx *c)
{
	long before = mt_plat_thread_preemptions();
	double ghz = c->clock();
	return mt_plat_thread_preemptions() == before ? ghz : 0;
}

static void *member_main(void *arg)
{
	struct member *m = arg;
	struct try_ctx *c = m->ctx;
	double *a = array_of(c, m->index, 0), *b = array_of(c, m->index, 1);
	double *d = array_of(c, m->index, 2);
	uint64_t sum = 0;
	unsigned spins = 0;
	int stopped = 0;
	sum += passes(c, m, a, b, d, 1, &stopped); /* warm-up */
	m->canary_ns = time_canary(c);
	if (c->clock)
		m->ghz_before = clock_look(c);
	/* counted from before the barrier: a thread that loses its CPU right
	 * after letting the others go still delays the try */
	m->preempted = mt_plat_thread_preemptions();
	if (atomic_fetch_add(&c->ready, 1) + 1 == (int)c->threads) {
		c->t0 = mt_now_ns();
		atomic_store_explicit(&c->go, 1, memory_order_release);
	} else {
		while (!atomic_load_explicit(&c->go, memory_order_acquire))
			bandwidth_relax(&spins);
	}
	sum += passes(c, m, a, b, d, c->reps, &stopped);
	m->end_ns = mt_now_ns();
	m->preempted = mt_plat_thread_preemptions() - m->preempted;
	if (c->clock)
		m->ghz_after = clock_look(c);
	mt_sink(sum);
	mt_waitgroup_done(&c->done);
	return NULL;
}

enum { TRY_OK = 0, TRY_CANCELLED = 1, TRY_AGAIN = 2 };

/* Run one try of c with its members. *ns = start to the last end. Returns
 * TRY_OK, TRY_CANCELLED, TRY_AGAIN (a pause fell inside), -1 with e. */
static int run_try(job_t *job, const struct bandwidth_params *p, struct try_ctx *c,
		   struct member *m, double *ns, mt_error *e)
{
	pthread_t tid[BANDWIDTH_MAX_THREADS];
	unsigned started = 0;
	uint64_t tend = 0;
	int rc = TRY_OK;
	atomic_store(&c->ready, 0);
	atomic_store(&c->go, 0);
	atomic_store(&c->stop, 0);
	if (mt_waitgroup_init(&c->done, e) < 0)
		return -1;
	for (unsigned i = 0; i < c->threads; i++) {
		int cpu = p->ncpus > 0 ? p->cpus[i % (unsigned)p->ncpus] : -1;
		memset(&m[i], 0, sizeof m[i]);
		m[i].ctx = c;
		m[i].index = i;
		if (bandwidth_thread_start(&tid[i], cpu, member_main, &m[i],
				    i == 0 ? job_run_clock(job) : NULL, e) < 0) {
			rc = -1;
			break;
		}
		started++;
	}
	if (started < c->threads) { /* the barrier can never fill: release them */
		atomic_store(&c->stop, 1);
		c->t0 = mt_now_ns();
		atomic_store(&c->go, 1);
	}
	/* the job is checked every CHECK_EVERY_NS while the try runs and once
	 * after it: a try shorter than that (most are 4 ms) would otherwise
	 * never see a stop, and a table of them ran on for seconds after q */
	while (mt_waitgroup_wait(&c->done, (int)started, CHECK_EVERY_NS) < (int)started) {
		if (job) {
			int chk = job_check(job);
			if ((chk == JOB_CANCELLED || chk == JOB_RESUMED) && rc == TRY_OK) {
				atomic_store(&c->stop, 1);
				rc = chk == JOB_CANCELLED ? TRY_CANCELLED : TRY_AGAIN;
			}
		}
	}
	if (job && rc == TRY_OK) {
		int chk = job_check(job);
		rc = chk == JOB_CANCELLED ? TRY_CANCELLED : chk == JOB_RESUMED ? TRY_AGAIN : TRY_OK;
	}
	for (unsigned i = 0; i < started; i++) {
		mt_thread_join(tid[i]);
		if (m[i].end_ns > tend)
			tend = m[i].end_ns;
	}
	mt_waitgroup_destroy(&c->done);
	*ns = tend > c->t0 ? (double)(tend - c->t0) : 1;
	return rc;
}

/* ---- one cell ------------------------------------------------------------------------ */

struct cell {
	double best_ns, second_ns, canary;
	double ghz;                /* the core clock around the best try (0: not taken) */
	unsigned tries;
	int checked, twice;
	long preempted;            /* in the best try, all threads */
	int uneven;                /* in the best try the threads ended DOUBTFUL_UNEVEN apart */
	uint64_t reps, pass_bytes; /* all threads */
};

struct worker {
	const struct bandwidth_params *p;
	job_t *job;
	char *buf;
	size_t buf_bytes;
	struct member *m;
	double canary_best[BANDWIDTH_MAX_THREADS]; /* fastest canary of each thread slot */
	double units_done, units_total;
};

/* Fill the arrays of every thread and set up c for kernel at size sz. The
 * fill goes in BANDWIDTH_FILL_STRETCH stretches with the job looked at between them
 * (not timed): the DRAM row's arrays, hundreds of MB, took ~0.3 s, and a
 * stop waited for them. Returns TRY_OK, or TRY_CANCELLED. */
static int cell_setup(struct worker *w, struct try_ctx *c, int kernel, const struct bandwidth_size *sz,
		      unsigned threads)
{
	memset(c, 0, sizeof *c);
	c->fn = bandwidth_kernel_fn(kernel, w->p->isa);
	c->canary_fn = bandwidth_kernel_fn(BANDWIDTH_READ, BANDWIDTH_ISA_SCALAR);
	c->buf = w->buf;
	c->threads = threads;
	c->arrays = bandwidth_kernel_arrays(kernel);
	c->s = TRIAD_S;
	c->whole = kernel == BANDWIDTH_FILL || kernel == BANDWIDTH_FILL_ZERO || kernel == BANDWIDTH_COPY_LIB;
	bandwidth_layout(kernel, sz, threads, bandwidth_groups_of(w->p, threads), &c->lay);
	for (unsigned t = 0; t < threads; t++) {
		double *a = array_of(c, t, 0), *b = array_of(c, t, 1), *d = array_of(c, t, 2);
		for (size_t off = 0; off < c->lay.n; off += BANDWIDTH_FILL_STRETCH) {
			size_t len = c->lay.n - off < BANDWIDTH_FILL_STRETCH ? c->lay.n - off : BANDWIDTH_FILL_STRETCH;
			bandwidth_fill(a + off, b ? b + off : NULL, d ? d + off : NULL, len);
			if (w->job && job_check(w->job) == JOB_CANCELLED)
				return TRY_CANCELLED;
		}
	}
	return TRY_OK;
}

/* Whether the threads of the try just run ended far apart (one of them
 * held up: another task on its CPU, or an unfair share of a cache). */
static int try_uneven(const struct worker *w, const struct try_ctx *c)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	for (unsigned t = 0; t < c->threads; t++) {
		lo = w->m[t].end_ns < lo ? w->m[t].end_ns : lo;
		hi = w->m[t].end_ns > hi ? w->m[t].end_ns : hi;
	}
	return c->threads > 1 && hi > c->t0 &&
	       (double)(hi - lo) > DOUBTFUL_UNEVEN * (double)(hi - c->t0);
}

/* Times the threads of the try just run lost their CPU. */
static long try_preempted(const struct worker *w, const struct try_ctx *c)
{
	long n = 0;
	for (unsigned t = 0; t < c->threads; t++)
		n += w->m[t].preempted;
	return n;
}

/* The canary factor of the try just run: the slowest thread against its
 * own best. */
static double canary_factor(struct worker *w, const struct try_ctx *c)
{
	double f = 1;
	for (unsigned t = 0; t < c->threads && t < BANDWIDTH_MAX_THREADS; t++) {
		if (w->m[t].canary_ns < w->canary_best[t])
			w->canary_best[t] = w->m[t].canary_ns;
		if (w->m[t].canary_ns / w->canary_best[t] > f)
			f = w->m[t].canary_ns / w->canary_best[t];
	}
	return f;
}

/* The core clock around the try just run: the mean of the first
 * thread's looks before and after it (one of them when the other is
 * missing or lost its CPU), 0 when none was taken. */
static double try_ghz(const struct worker *w)
{
	double a = w->m[0].ghz_before, b = w->m[0].ghz_after;
	if (a > 0 && b > 0)
		return (a + b) / 2;
	return a > 0 ? a : b > 0 ? b : 0;
}

/* The look at the core clock around a try of a cell of threads threads:
 * the run clock's (a test's stand-in there), for one thread only. */
static double (*try_clock(const struct worker *w, unsigned threads))(void)
{
	struct mt_run_clock *rc = job_run_clock(w->job);
	if (threads != 1)
		return NULL;
	return rc && rc->measure_try ? rc->measure_try : mt_clock_measure_short;
}

/* Measure one cell. Returns TRY_OK, TRY_CANCELLED, or -1 with e. */
static int measure_cell(struct worker *w, int kernel, const struct bandwidth_size *sz, unsigned threads,
			struct cell *out, mt_error *e)
{
	const struct bandwidth_params *p = w->p;
	struct try_ctx c;
	double ns;
	long pre, second_pre = 0;
	int rc;
	if (cell_setup(w, &c, kernel, sz, threads) == TRY_CANCELLED)
		return TRY_CANCELLED;
restart:
	memset(out, 0, sizeof *out);
	out->best_ns = out->second_ns = INFINITY;
	c.reps = 1;
	c.clock = NULL; /* the sizing try is not bracketed */
	if ((rc = run_try(w->job, p, &c, w->m, &ns, e)) < 0 || rc == TRY_CANCELLED)
		return rc;
	if (rc == TRY_AGAIN)
		goto restart;
	c.reps = ns >= p->try_ns ? 1 : (uint64_t)(p->try_ns / ns);
	c.clock = try_clock(w, threads); /* the timed tries only */
	while (out->tries < p->max_tries) {
		double f;
		c.s = kernel == BANDWIDTH_WRITE || kernel == BANDWIDTH_WRITE_NT || kernel == BANDWIDTH_FILL
			      ? 1.5 + out->tries
			      : TRIAD_S;
		if ((rc = run_try(w->job, p, &c, w->m, &ns, e)) < 0 || rc == TRY_CANCELLED)
			return rc;
		if (rc == TRY_AGAIN)
			goto restart;
		f = canary_factor(w, &c);
		pre = try_preempted(w, &c);
		ns /= (double)c.reps;
		out->tries++;
		if (ns < out->best_ns) {
			out->second_ns = out->best_ns;
			second_pre = out->preempted;
			out->best_ns = ns;
			out->canary = f;
			out->preempted = pre;
			out->uneven = try_uneven(w, &c);
			out->ghz = try_ghz(w);
		} else if (ns < out->second_ns) {
			out->second_ns = ns;
			second_pre = pre;
		}
		/* two best tries that agree, and neither time sliced, end the cell */
		if (out->tries >= p->min_tries && !out->preempted && !second_pre &&
		    (out->second_ns - out->best_ns) / out->best_ns <= p->tolerance)
			break;
	}
	out->checked = 1;
	for (unsigned t = 0; t < threads; t++)
		out->checked &= bandwidth_check(kernel, p->isa, array_of(&c, t, 0),
						array_of(&c, t, 1), array_of(&c, t, 2), c.lay.n, c.s,
						w->m[t].sum, w->m[t].sum_reps);
	out->reps = c.reps;
	out->pass_bytes = c.lay.pass_bytes * threads;
	return TRY_OK;
}

static int emit_cell(struct worker *w, size_t si, int kernel, size_t ti, const struct cell *c,
		     int type)
{
	struct job_event ev;
	struct bandwidth_ev_table x = {
		.thread_index = (int)ti,
		.tries = (int)c->tries,
		.canary = c->canary,
		.flags = (c->checked ? BANDWIDTH_CHECKED : 0) | (c->twice ? BANDWIDTH_TWICE : 0) |
			 (c->uneven ? BANDWIDTH_UNEVEN : 0),
		.pass_bytes = (double)c->pass_bytes,
		.preempted = (int)c->preempted,
		.ghz = c->ghz,
	};
	memset(&ev, 0, sizeof ev);
	ev.type = type;
	ev.subtype = BANDWIDTH_EV_TABLE;
	ev.row = (int)si;
	ev.col = kernel;
	ev.value = (double)c->pass_bytes / c->best_ns; /* bytes/ns = GB/s */
	ev.spread = isfinite(c->second_ns) ? (c->second_ns - c->best_ns) / c->best_ns : 0;
	JOB_PAYLOAD_PUT(&ev, struct bandwidth_ev_table, &x);
	return job_emit(w->job, &ev) < 0 ? mt_fail(NULL, _("out of memory")) : 0;
}

static int doubtful(const struct cell *c)
{
	return c->canary > DOUBTFUL_CANARY || c->preempted > 0 || c->uneven ||
	       (isfinite(c->second_ns) && (c->second_ns - c->best_ns) / c->best_ns > DOUBTFUL_SPREAD);
}

static double cell_units(const struct bandwidth_params *p, const struct bandwidth_size *sz)
{
	double pass = (double)sz->bytes / 20.0; /* ns at 20 GB/s: only for the ETA */
	return 3 * pass + (p->min_tries + 1) * fmax(pass, p->try_ns);
}

/* One row of the table: every kernel at size si with thread index ti,
 * then a second look at the doubtful ones (before the next row starts, so
 * a consumer may print the row when the next one begins). Returns TRY_OK,
 * TRY_CANCELLED, -1 with e. */
static int table_row(struct worker *w, size_t si, size_t ti, mt_error *e)
{
	const struct bandwidth_params *p = w->p;
	struct cell cells[BANDWIDTH_NKERNELS];
	int rc;
	for (size_t ki = 0; ki < p->nkernels; ki++) {
		int k = p->kernels[ki];
		rc = measure_cell(w, k, &p->sizes[si], p->threads[ti], &cells[ki], e);
		if (rc != TRY_OK)
			return rc;
		if (emit_cell(w, si, k, ti, &cells[ki], JOB_EV_CELL) < 0)
			return mt_fail(e, _("out of memory"));
		w->units_done += cell_units(p, &p->sizes[si]);
		job_set_progress(w->job, w->units_done, w->units_total);
	}
	for (size_t ki = 0; ki < p->nkernels; ki++) {
		struct cell again, *c = &cells[ki];
		if (!doubtful(c))
			continue;
		rc = measure_cell(w, p->kernels[ki], &p->sizes[si], p->threads[ti], &again, e);
		if (rc != TRY_OK)
			return rc;
		if (again.best_ns < c->best_ns) {
			again.tries += c->tries;
			again.checked &= c->checked;
			*c = again;
		} else {
			c->tries += again.tries;
			c->checked &= again.checked;
		}
		c->twice = 1;
		if (emit_cell(w, si, p->kernels[ki], ti, c, JOB_EV_UPDATE) < 0)
			return mt_fail(e, _("out of memory"));
	}
	return TRY_OK;
}

/* The load ports' canary (bandwidth.h, BANDWIDTH_PORTS_BYTES) before the table
 * (when 0) or after it (1), said in a BANDWIDTH_NOTE_PORTS note; none for a run
 * without one-thread cells, in a caller's buffer (memtop run numa's
 * sub-runs: its cells are memory's, and it passes notes on) or a buffer
 * too short for it. Returns TRY_OK, TRY_CANCELLED, -1 with e. */
static int port_canary(struct worker *w, int when, mt_error *e)
{
	const struct bandwidth_params *p = w->p;
	struct bandwidth_size sz = { .bytes = BANDWIDTH_PORTS_BYTES, .per_thread = 1 };
	struct bandwidth_layout lay;
	struct bandwidth_ev_ports x = { .when = when };
	struct job_event ev;
	struct cell c;
	int rc, one = 0;
	for (size_t t = 0; t < p->nthreads; t++)
		one |= p->threads[t] == 1;
	bandwidth_layout(BANDWIDTH_LOAD, &sz, 1, 1, &lay);
	if (!one || p->buf || !bandwidth_kernel_fn(BANDWIDTH_LOAD, p->isa) || lay.slice_stride > w->buf_bytes)
		return TRY_OK;
	if ((rc = measure_cell(w, BANDWIDTH_LOAD, &sz, 1, &c, e)) != TRY_OK)
		return rc;
	x.gbs = (double)c.pass_bytes / c.best_ns;
	x.ghz = c.ghz;
	x.preempted = (int)c.preempted;
	memset(&ev, 0, sizeof ev);
	ev.type = JOB_EV_NOTE;
	ev.subtype = BANDWIDTH_NOTE_PORTS;
	ev.value = x.gbs;
	mt_snprintf(ev.text, sizeof ev.text,
		    when ? BANDWIDTH_SAYS_PORTS_AFTER : BANDWIDTH_SAYS_PORTS_BEFORE, x.gbs,
		    x.ghz > 0 ? x.gbs / x.ghz : 0, x.ghz);
	if (x.preempted)
		mt_append(ev.text, sizeof ev.text, "; %s", BANDWIDTH_SAYS_PORTS_LOST);
	JOB_PAYLOAD_PUT(&ev, struct bandwidth_ev_ports, &x);
	return job_emit(w->job, &ev) < 0 ? mt_fail(e, _("out of memory")) : TRY_OK;
}

/* The table: sizes x threads x kernels, between the load ports' canaries.
 * Returns TRY_OK, TRY_CANCELLED, -1 with e. */
static int table(struct worker *w, mt_error *e)
{
	const struct bandwidth_params *p = w->p;
	int rc = port_canary(w, 0, e);
	for (size_t si = 0; si < p->nsizes && rc == TRY_OK; si++)
		for (size_t ti = 0; ti < p->nthreads && rc == TRY_OK; ti++)
			rc = table_row(w, si, ti, e);
	return rc == TRY_OK ? port_canary(w, 1, e) : rc;
}

static int check_params(const struct bandwidth_params *p, mt_error *e)
{
	if (p->loaded != 2 && (p->nsizes == 0 || p->nkernels == 0 || p->nthreads == 0))
		return mt_fail(e, _("bandwidth: nothing to measure"));
	if (p->min_tries < 1 || p->max_tries < p->min_tries || p->try_ns <= 0)
		return mt_fail(e, _("bandwidth: bad tries"));
	for (size_t i = 0; i < p->nthreads; i++)
		if (p->threads[i] < 1 || p->threads[i] > BANDWIDTH_MAX_THREADS)
			return mt_fail(e, _("bandwidth: bad thread count %u"), p->threads[i]);
	for (size_t i = 0; i < p->nkernels; i++)
		if (!bandwidth_kernel_fn(p->kernels[i], p->isa))
			return mt_fail(e, _("bandwidth: %s has no %s kernel here"),
				       bandwidth_isa_name(p->isa), bandwidth_kernel_name(p->kernels[i]));
	return 0;
}

/* Say what pages the kernel gave the table's buffer: a BANDWIDTH_NOTE_PAGES note
 * (value: bytes on huge pages, -1 not known). Returns 0, or -1 (out of
 * memory). */
static int say_pages(struct worker *w)
{
	struct job_event ev;
	uint64_t rss, huge;
	char thp[16], n[80];
	int known = mt_plat_huge_bytes(w->buf, w->buf_bytes, &rss, &huge) == 0;
	mt_thp_mode(thp, sizeof thp);
	if (known)
		mt_snprintf(n, sizeof n, BANDWIDTH_SAYS_HUGE_COUNT,
			    (unsigned)(huge / MT_HUGE_2M), (unsigned)(w->buf_bytes / MT_HUGE_2M));
	else
		mt_strlcpy(n, BANDWIDTH_SAYS_HUGE_UNKNOWN, sizeof n);
	memset(&ev, 0, sizeof ev);
	ev.type = JOB_EV_NOTE;
	ev.subtype = BANDWIDTH_NOTE_PAGES;
	ev.value = known ? (double)huge : -1;
	mt_snprintf(ev.text, sizeof ev.text, BANDWIDTH_SAYS_PAGES,
		    w->p->pages == BANDWIDTH_PAGES_HUGE ? BANDWIDTH_SAYS_HUGE_ASKED : BANDWIDTH_SAYS_SMALL,
		    bandwidth_pages_name(w->p->pages_asked), thp[0] ? thp : N_("absent"), n);
	return job_emit(w->job, &ev);
}

/* The table's buffer on the pages asked (4 KB: advised not to take huge
 * ones), 2 MB aligned, every page touched (or the caller's, as the caller
 * placed it). Returns TRY_OK, TRY_CANCELLED (the buffer mapped: the caller
 * unmaps it), or -1 with e. */
static int table_buffer(struct worker *w, mt_error *e)
{
	char a[32];
	if (w->p->buf) {
		if (w->p->buf_bytes < bandwidth_table_bytes(w->p))
			return mt_fail(e, _("bandwidth: the caller's buffer is shorter than the table"));
		w->buf = w->p->buf;
		w->buf_bytes = w->p->buf_bytes;
		return 0;
	}
	w->buf_bytes = (size_t)bandwidth_buffer_bytes(w->p);
	w->buf = mt_map_2m(w->buf_bytes, w->p->pages == BANDWIDTH_PAGES_HUGE);
	if (!w->buf)
		return mt_fail(e, _("cannot allocate %s for the table: %s"),
			       mt_fmt_size(a, sizeof a, w->buf_bytes), strerror(errno));
	/* its pages asked for a stretch at a time, the job looked at between two
	 * (a DRAM row of gigabytes took seconds to touch in one go); then every
	 * page touched, a stretch at a time too */
	if (w->job && job_populate(w->job, w->buf, w->buf_bytes) == JOB_CANCELLED)
		return TRY_CANCELLED;
	for (size_t off = 0; off < w->buf_bytes; off += 4096) {
		w->buf[off] = 0;
		if (w->job && off % MT_POPULATE_STEP == 0 && job_check(w->job) == JOB_CANCELLED)
			return TRY_CANCELLED;
	}
	if (say_pages(w) < 0) {
		munmap(w->buf, w->buf_bytes);
		return mt_fail(e, _("out of memory"));
	}
	return 0;
}

int bandwidth_worker(job_t *job, void *arg, mt_error *e)
{
	const struct bandwidth_params *p = arg;
	struct worker w;
	int rc = TRY_OK, cancelled = 0;
	if (check_params(p, e) < 0)
		return -1;
	memset(&w, 0, sizeof w);
	w.p = p;
	w.job = job;
	for (size_t i = 0; i < BANDWIDTH_MAX_THREADS; i++)
		w.canary_best[i] = INFINITY;
	if (p->loaded != 2)
		for (size_t si = 0; si < p->nsizes; si++)
			w.units_total += cell_units(p, &p->sizes[si]) * (double)(p->nkernels * p->nthreads);
	if (p->loaded)
		w.units_total += (double)(p->ndelays + 1) * p->loaded_tries * p->point_ns;
	job_set_total(job, (p->loaded != 2 ? p->nsizes * p->nkernels * p->nthreads : 0) +
				   (p->loaded && p->ncpus > 1 ? p->ndelays + 1 : 0));
	if (p->loaded != 2) {
		w.m = calloc(BANDWIDTH_MAX_THREADS, sizeof *w.m);
		if (!w.m)
			return mt_fail(e, _("out of memory"));
		rc = table_buffer(&w, e);
		if (rc < 0 || rc == TRY_CANCELLED) {
			if (rc == TRY_CANCELLED && !p->buf)
				munmap(w.buf, w.buf_bytes);
			free(w.m);
			return rc < 0 ? -1 : 0;
		}
		rc = table(&w, e);
		if (!p->buf)
			munmap(w.buf, w.buf_bytes);
		free(w.m);
	}
	if (rc < 0)
		return -1;
	if (rc == TRY_OK && p->loaded) {
		job_set_progress(job, w.units_done, w.units_total);
		if (bandwidth_loaded(job, p, w.units_done, w.units_total, &cancelled, e) < 0)
			return -1;
	}
	return 0;
}
