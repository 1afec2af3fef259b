/* mountain: the measuring kernel, the grid, and the mountain job.
 *
 * How a cell is measured (SPEC 2.1, seed 000, made faster and steadier):
 *  - one warm-up pass (not counted), then one timed pass to size the try;
 *  - a try repeats the pass until it lasts try_ns (2 ms) so the clock's
 *    resolution and the call overhead do not matter; passes of big buffers
 *    are longer than that on their own and are one pass a try;
 *  - tries repeat until the two best agree within `tolerance` (1 %), at
 *    least min_tries (3) and at most max_tries (9); the best (minimum) try
 *    counts: noise can only slow a pass down;
 *  - a tiny L1 canary is timed before every try; its ratio to the fastest
 *    canary of the run says how fast the core was at that moment (another
 *    tenant on the sibling hyperthread halves it). A cell whose best try
 *    ran with a slow canary, or whose tries disagree, is measured again at
 *    the end of its row and keeps the better result.
 *  - big passes are cut into 8 MB chunks at multiples of the stride (the
 *    same addresses in the same order), checking for pause and cancel
 *    between chunks, so both act within 100 ms even in a 128 MB row. */
#include "config.h"

#include "mountain.h"
#include "core/barrier.h"
#include "core/clock.h"
#include "core/sysinfo.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define CHUNK_WORDS (1u << 20) /* 8 MB */
#define CANARY_WORDS 256        /* 2 KB: always in L1 */
#define CANARY_PASSES 32
#define DOUBTFUL_CANARY 1.15
#define DOUBTFUL_SPREAD 0.05

#if defined(__GNUC__) && !defined(__clang__)
#define KERNEL_ATTR __attribute__((noinline, noipa, optimize("no-tree-vectorize")))
#else
#define KERNEL_ATTR __attribute__((noinline))
#endif

KERNEL_ATTR int64_t mountain_read_pass(const int64_t *data, size_t n, size_t stride)
{
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0; /* unsigned: wrap-around adds */
	const uint64_t *d = (const uint64_t *)data;
	size_t step = stride * 4, i = 0;
	if (stride == 0)
		return 0;
	for (; i + step <= n; i += step) {
		a0 += d[i];
		a1 += d[i + stride];
		a2 += d[i + 2 * stride];
		a3 += d[i + 3 * stride];
	}
	for (; i < n; i += stride)
		a0 += d[i];
	return (int64_t)((a0 + a1) + (a2 + a3));
}

/* ---- parameters --------------------------------------------------------- */

void mountain_params_default(struct mountain_params *p)
{
	memset(p, 0, sizeof *p);
	mountain_params_set_sizes(p, 16u << 10, 128u << 20, NULL);
	mountain_params_set_max_stride(p, 15, NULL);
	p->min_tries = 3;
	p->max_tries = 9;
	p->tolerance = 0.01;
	p->try_ns = 2e6;
	p->only_row = p->only_col = -1;
}

void mountain_params_quick(struct mountain_params *p)
{
	static const unsigned quick[] = { 1, 2, 4, 8 };
	mountain_params_default(p);
	mountain_params_set_sizes(p, 16u << 10, 8u << 20, NULL);
	p->nstrides = MT_ARRAY_LEN(quick);
	memcpy(p->strides, quick, sizeof quick);
	p->try_ns = 1e6;
}

void mountain_params_seed(struct mountain_params *p)
{
	mountain_params_default(p);
	p->fixed_accesses = 1u << 23;
	p->min_tries = p->max_tries = 5;
	p->tolerance = 0;
}

int mountain_params_set_sizes(struct mountain_params *p, uint64_t lo, uint64_t hi, mt_error *e)
{
	size_t n = 0;
	lo &= ~(uint64_t)7;
	hi &= ~(uint64_t)7;
	if (lo < MOUNTAIN_MIN_SIZE)
		return mt_fail(e, "--sizes: the smallest size must be at least 4K");
	if (hi > MOUNTAIN_MAX_SIZE)
		return mt_fail(e, "--sizes: the largest size must be at most 64G");
	if (hi < lo)
		return mt_fail(e, "--sizes: the largest size is below the smallest");
	for (uint64_t s = lo; s <= hi; s *= 2) {
		if (n == MOUNTAIN_MAX_SIZES)
			return mt_fail(e, "--sizes: more than %d sizes", MOUNTAIN_MAX_SIZES);
		p->sizes[n++] = s;
	}
	p->nsizes = n;
	return 0;
}

int mountain_params_set_max_stride(struct mountain_params *p, unsigned max, mt_error *e)
{
	if (max < 1 || max > MOUNTAIN_MAX_STRIDES)
		return mt_fail(e, "--max-stride: must be 1..%d", MOUNTAIN_MAX_STRIDES);
	for (unsigned s = 1; s <= max; s++)
		p->strides[s - 1] = s;
	p->nstrides = max;
	return 0;
}

int mountain_params_fit_memory(struct mountain_params *p, uint64_t available, char *note,
			       size_t len, mt_error *e)
{
	uint64_t budget = available / 2;
	size_t n = p->nsizes;
	char a[32], b[32];
	note[0] = '\0';
	if (available == 0)
		return 0; /* unknown: try, mmap will tell */
	while (n > 0 && p->sizes[n - 1] > budget)
		n--;
	if (n == 0)
		return mt_fail(e, "not enough memory: %s available, the smallest size needs %s",
			       mt_fmt_size(a, sizeof a, available),
			       mt_fmt_size(b, sizeof b, p->sizes[0] * 2));
	if (n < p->nsizes) {
		mt_snprintf(note, len, "grid shrunk to %s: only %s of memory available",
			    mt_fmt_size(a, sizeof a, p->sizes[n - 1]),
			    mt_fmt_size(b, sizeof b, available));
		p->nsizes = n;
	}
	return 0;
}

/* Expected ns of one cell: a warm-up and a sizing pass, then tries of
 * max(try length, one pass), about 6 with the second looks. The ns per
 * read come from mountains of x86 and Apple machines: a few tenths of a ns
 * in the caches, and per line moved beyond them. */
static double cell_cost_ns(const struct mountain_params *p, uint64_t size, unsigned stride)
{
	double accesses = (double)(size / 8) / stride;
	double lines = stride < 8 ? stride : 8; /* eighths of a line per read */
	double per = size <= (256u << 10) ? 0.25 + 0.01 * lines
		   : size <= (4u << 20)   ? 0.25 + 0.03 * lines
		   : size <= (32u << 20)  ? 0.35 + 0.25 * lines
					  : 1.0 + 0.45 * lines;
	double pass = accesses * per;
	double tries = p->fixed_accesses ? p->max_tries : p->min_tries + 3.0;
	double try_ns = p->fixed_accesses ? fmax(pass, (double)p->fixed_accesses * per)
					  : fmax(p->try_ns, pass);
	return 2 * pass + tries * try_ns;
}

double mountain_params_estimate_s(const struct mountain_params *p)
{
	double ns = 0;
	for (size_t r = 0; r < p->nsizes; r++)
		for (size_t c = 0; c < p->nstrides; c++)
			ns += cell_cost_ns(p, p->sizes[r], p->strides[c]);
	/* plus touching the buffer */
	return ns / 1e9 + (double)p->sizes[p->nsizes ? p->nsizes - 1 : 0] / 2e9;
}

/* ---- the model ------------------------------------------------------------ */

struct mountain *mountain_new(const uint64_t *sizes, size_t nsizes, const unsigned *strides,
			      size_t nstrides)
{
	struct mountain *m = calloc(1, sizeof *m);
	size_t cells = nsizes * nstrides;
	if (!m)
		return NULL;
	m->nsizes = nsizes;
	m->nstrides = nstrides;
	m->sizes = malloc((nsizes ? nsizes : 1) * sizeof *m->sizes);
	m->strides = malloc((nstrides ? nstrides : 1) * sizeof *m->strides);
	m->mbs = malloc((cells ? cells : 1) * sizeof *m->mbs);
	m->spread = malloc((cells ? cells : 1) * sizeof *m->spread);
	m->canary = malloc((cells ? cells : 1) * sizeof *m->canary);
	if (!m->sizes || !m->strides || !m->mbs || !m->spread || !m->canary) {
		mountain_free(m);
		return NULL;
	}
	if (nsizes)
		memcpy(m->sizes, sizes, nsizes * sizeof *sizes);
	if (nstrides)
		memcpy(m->strides, strides, nstrides * sizeof *strides);
	for (size_t i = 0; i < cells; i++)
		m->mbs[i] = m->spread[i] = m->canary[i] = NAN;
	return m;
}

void mountain_free(struct mountain *m)
{
	if (!m)
		return;
	free(m->sizes);
	free(m->strides);
	free(m->mbs);
	free(m->spread);
	free(m->canary);
	cJSON_Delete(m->caches);
	free(m);
}

int mountain_stride_index(const struct mountain *m, unsigned stride)
{
	for (size_t i = 0; i < m->nstrides; i++)
		if (m->strides[i] == stride)
			return (int)i;
	return -1;
}

int mountain_size_index(const struct mountain *m, uint64_t size)
{
	for (size_t i = 0; i < m->nsizes; i++)
		if (m->sizes[i] == size)
			return (int)i;
	return -1;
}

size_t mountain_measured(const struct mountain *m)
{
	size_t n = 0;
	for (size_t i = 0; i < m->nsizes * m->nstrides; i++)
		n += !isnan(m->mbs[i]);
	return n;
}

int mountain_apply(struct mountain *m, const struct job_event *ev)
{
	size_t i;
	if ((ev->type != JOB_EV_CELL && ev->type != JOB_EV_UPDATE) || ev->row < 0 || ev->col < 0 || (size_t)ev->row >= m->nsizes ||
	    (size_t)ev->col >= m->nstrides)
		return -1;
	i = (size_t)ev->row * m->nstrides + (size_t)ev->col;
	m->mbs[i] = ev->value;
	m->spread[i] = ev->spread;
	m->canary[i] = ev->aux[1];
	return 0;
}

/* ---- the worker ------------------------------------------------------------ */

struct cell {
	double best_ns, second_ns; /* per pass */
	double canary;             /* canary factor at the best try */
	unsigned tries;
	int twice;                 /* measured again at the end of its row */
};

struct worker {
	const struct mountain_params *p;
	job_t *job;
	int64_t *buf;       /* mmap'd, 4 KB pages */
	size_t buf_bytes;
	double canary_best; /* fastest canary of the run, ns */
	double units_done, units_total;
};

/* One pass over n words at stride, in chunks with pause/cancel checks.
 * Returns JOB_GO, JOB_RESUMED (the timing must be thrown away) or
 * JOB_CANCELLED. */
static int chunked_pass(job_t *job, const int64_t *buf, size_t n, size_t stride, int64_t *sum)
{
	size_t chunk = (CHUNK_WORDS / stride) * stride;
	int st = JOB_GO;
	for (size_t off = 0; off < n; off += chunk) {
		const int64_t *p = buf + off;
		size_t len = n - off < chunk ? n - off : chunk;
		mt_launder(p);
		*sum += mountain_read_pass(p, len, stride);
		if (off + chunk < n) {
			int c = job_check(job);
			if (c == JOB_CANCELLED)
				return c;
			if (c == JOB_RESUMED)
				st = JOB_RESUMED;
		}
	}
	return st;
}

static double time_canary(const int64_t *buf)
{
	uint64_t t0;
	int64_t s = mountain_read_pass(buf, CANARY_WORDS, 1); /* back into L1 */
	t0 = mt_now_ns();
	for (int i = 0; i < CANARY_PASSES; i++) {
		const int64_t *p = buf;
		mt_launder(p);
		s += mountain_read_pass(p, CANARY_WORDS, 1);
	}
	mt_sink(s);
	return (double)(mt_now_ns() - t0);
}

/* Measure one cell. Returns JOB_GO or JOB_CANCELLED. */
static int measure_cell(struct worker *w, uint64_t size, unsigned stride, struct cell *out)
{
	const struct mountain_params *p = w->p;
	job_t *job = w->job;
	const int64_t *buf = w->buf;
	/* The canary lives at the far end of the buffer (past the cell's
	 * words when there is room) so it does not warm the cell's lines. */
	const int64_t *canary_buf = w->buf + (w->buf_bytes / 8 - CANARY_WORDS);
	size_t n = size / 8;
	size_t accesses = (n + stride - 1) / stride;
	uint64_t reps, t0, t1;
	int64_t sum = 0;
	int st;
	double pass_ns;

restart:
	memset(out, 0, sizeof *out);
	out->best_ns = out->second_ns = INFINITY;
	/* warm-up, then one timed pass to size the try */
	if ((st = chunked_pass(job, buf, n, stride, &sum)) == JOB_CANCELLED)
		return st;
	t0 = mt_now_ns();
	if ((st = chunked_pass(job, buf, n, stride, &sum)) == JOB_CANCELLED)
		return st;
	t1 = mt_now_ns();
	if (st == JOB_RESUMED)
		goto restart;
	pass_ns = (double)(t1 - t0);
	if (pass_ns < 1)
		pass_ns = 1;
	if (p->fixed_accesses)
		reps = accesses >= p->fixed_accesses ? 1 : p->fixed_accesses / accesses;
	else
		reps = pass_ns >= p->try_ns ? 1 : (uint64_t)(p->try_ns / pass_ns);
	if (reps < 1)
		reps = 1;

	while (out->tries < p->max_tries) {
		double c = time_canary(canary_buf), ns;
		if (c < w->canary_best)
			w->canary_best = c;
		t0 = mt_now_ns();
		st = JOB_GO;
		for (uint64_t r = 0; r < reps; r++) {
			int s = chunked_pass(job, buf, n, stride, &sum);
			if (s != JOB_GO)
				st = s;
			if (st == JOB_CANCELLED)
				return st;
		}
		t1 = mt_now_ns();
		if (st == JOB_RESUMED || job_check(job) == JOB_RESUMED)
			goto restart; /* a pause fell inside the try */
		if (job_check(job) == JOB_CANCELLED)
			return JOB_CANCELLED;
		ns = (double)(t1 - t0) / (double)reps;
		out->tries++;
		if (ns < out->best_ns) {
			out->second_ns = out->best_ns;
			out->best_ns = ns;
			out->canary = c / w->canary_best;
		} else if (ns < out->second_ns) {
			out->second_ns = ns;
		}
		if (out->tries >= p->min_tries && p->tolerance > 0 &&
		    (out->second_ns - out->best_ns) / out->best_ns <= p->tolerance)
			break;
	}
	mt_sink(sum);
	return JOB_GO;
}

static int emit_cell(struct worker *w, size_t row, size_t col, const struct cell *c, int type)
{
	const struct mountain_params *p = w->p;
	struct job_event ev;
	double bytes = (double)((p->sizes[row] / 8 + p->strides[col] - 1) / p->strides[col]) * 8.0;
	memset(&ev, 0, sizeof ev);
	ev.type = type;
	ev.row = (int)row;
	ev.col = (int)col;
	ev.value = bytes * 1000.0 / c->best_ns;
	ev.spread = isfinite(c->second_ns) ? (c->second_ns - c->best_ns) / c->best_ns : 0;
	ev.aux[0] = c->tries;
	ev.aux[1] = c->canary;
	ev.aux[2] = c->best_ns;
	ev.aux[3] = c->twice;
	return job_emit(w->job, &ev);
}

static int doubtful(const struct cell *c)
{
	return c->canary > DOUBTFUL_CANARY ||
	       (isfinite(c->second_ns) && (c->second_ns - c->best_ns) / c->best_ns > DOUBTFUL_SPREAD);
}

/* The buffer for the largest size the run measures, plus the canary, on
 * 4 KB pages. Returns 0, or -1 with e. */
static int map_buffer(struct worker *w, mt_error *e)
{
	const struct mountain_params *p = w->p;
	uint64_t page = mt_page_size();
	uint64_t need = p->only_row >= 0 ? p->sizes[p->only_row] : p->sizes[p->nsizes - 1];
	need += CANARY_WORDS * 8 + page;
	need = (need + page - 1) / page * page;
	/* 4 KB pages always, as the book's mountain had, whatever the system's
	 * THP mode: with 2 MB pages the L2-sized rows land on exactly the same
	 * sets every run and swing between fitting and thrashing (measured:
	 * 85 % between two runs at 2M on a 2 MB L2), and khugepaged must not
	 * change the pages under a running sweep. */
	w->buf = mmap(NULL, need, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->buf == MAP_FAILED) {
		char b[32];
		w->buf = NULL;
		return mt_fail(e, "cannot allocate %s for the largest size: %s",
			       mt_fmt_size(b, sizeof b, need), strerror(errno));
	}
	w->buf_bytes = need;
#ifdef MADV_NOHUGEPAGE
	madvise(w->buf, need, MADV_NOHUGEPAGE);
#endif
	return 0;
}

/* What the sweep's parts return: go on, stop (cancelled), or fail with e. */
enum { SWEEP_GO = 0, SWEEP_STOP = 1, SWEEP_FAILED = -1 };

/* Touch every page (first touch from the pinned worker, so the pages sit on
 * its NUMA node), with the seed's values. Returns SWEEP_GO or SWEEP_STOP. */
static int touch_buffer(struct worker *w)
{
	size_t words = w->buf_bytes / 8;
	for (size_t i = 0; i < words; i++) {
		w->buf[i] = (int64_t)(i & 0xff);
		if ((i & (CHUNK_WORDS - 1)) == 0 && job_check(w->job) == JOB_CANCELLED)
			return SWEEP_STOP;
	}
	return SWEEP_GO;
}

/* Second look at the doubtful cells of row r (columns c0..c1); each keeps
 * the better of its two measurements. Returns SWEEP_GO, SWEEP_STOP, or
 * SWEEP_FAILED with e. */
static int second_looks(struct worker *w, size_t r, size_t c0, size_t c1, struct cell *cells,
			mt_error *e)
{
	const struct mountain_params *p = w->p;
	for (size_t c = c0; c < c1; c++) {
		struct cell again;
		if (!doubtful(&cells[c]))
			continue;
		if (measure_cell(w, p->sizes[r], p->strides[c], &again) == JOB_CANCELLED)
			return SWEEP_STOP;
		if (again.best_ns < cells[c].best_ns) {
			again.tries += cells[c].tries;
			cells[c] = again;
		} else {
			cells[c].tries += again.tries;
		}
		cells[c].twice = 1;
		if (emit_cell(w, r, c, &cells[c], JOB_EV_UPDATE) < 0)
			return mt_fail(e, "out of memory");
	}
	return SWEEP_GO;
}

/* Measure rows r0..r1 x columns c0..c1. Returns SWEEP_GO, SWEEP_STOP, or
 * SWEEP_FAILED with e. */
static int sweep(struct worker *w, size_t r0, size_t r1, size_t c0, size_t c1, mt_error *e)
{
	const struct mountain_params *p = w->p;
	struct cell cells[MOUNTAIN_MAX_STRIDES];
	for (size_t r = r0; r < r1; r++)
		for (size_t c = c0; c < c1; c++)
			w->units_total += cell_cost_ns(p, p->sizes[r], p->strides[c]);
	for (size_t r = r0; r < r1; r++) {
		int st;
		for (size_t c = c0; c < c1; c++) {
			if (measure_cell(w, p->sizes[r], p->strides[c], &cells[c]) == JOB_CANCELLED)
				return SWEEP_STOP;
			if (emit_cell(w, r, c, &cells[c], JOB_EV_CELL) < 0)
				return mt_fail(e, "out of memory");
			w->units_done += cell_cost_ns(p, p->sizes[r], p->strides[c]);
			job_set_progress(w->job, w->units_done, w->units_total);
		}
		if (p->fixed_accesses)
			continue; /* the seed's method: no second looks */
		if ((st = second_looks(w, r, c0, c1, cells, e)) != SWEEP_GO)
			return st;
	}
	return SWEEP_GO;
}

int mountain_worker(job_t *job, void *arg, mt_error *e)
{
	const struct mountain_params *p = arg;
	struct worker w;
	size_t r0 = 0, r1 = p->nsizes, c0 = 0, c1 = p->nstrides;
	int st;

	if (p->nsizes == 0 || p->nstrides == 0)
		return mt_fail(e, "empty grid");
	if (p->only_row >= 0) {
		r0 = (size_t)p->only_row;
		r1 = r0 + 1;
		c0 = (size_t)p->only_col;
		c1 = c0 + 1;
	}
	job_set_total(job, (r1 - r0) * (c1 - c0));
	memset(&w, 0, sizeof w);
	w.p = p;
	w.job = job;
	w.canary_best = INFINITY;
	if (map_buffer(&w, e) < 0)
		return -1;
	st = touch_buffer(&w);
	if (st == SWEEP_GO)
		st = sweep(&w, r0, r1, c0, c1, e);
	munmap(w.buf, w.buf_bytes);
	return st == SWEEP_FAILED ? -1 : 0; /* a stop is the job's cancel */
}
