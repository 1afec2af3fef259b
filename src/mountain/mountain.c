/* mountain: the measuring kernel, the grid, and the mountain job.
 *
 * How a cell is measured (seed 000, made faster and steadier):
 *  - the first cell of a row warms up (not counted): passes for at least
 *    one try's length, so a pass of a fraction of a us has the branches and
 *    the prefetchers trained too; their time sizes the first tries. The
 *    row's next cells need none: a stride reads the same lines as the one
 *    before it or a subset of them, which the caches hold as far as they
 *    can already, and the pass time of the cell before, scaled by the
 *    reads, sizes their first try (which counts: the fastest try wins);
 *  - a try repeats the pass until it lasts about try_ns (4 us), timed with
 *    the tick counter (the TSC: 25 ns a read on the Zen 5 guest, where its
 *    monotonic clock takes 80-90 ns, 2 % of a 4 us try, which every try of
 *    an L1 row paid and its fastest cell showed); passes longer than that
 *    are one pass a try;
 *  - tries repeat until the 3 fastest agree within `tolerance` (1 %), after
 *    at least 3 tries and 1 ms, or until 20 ms have passed and there are at
 *    least kbest + 1 tries (a memory row's cell, passes of 10-20 ms, is
 *    the best of 4 with the warm-up's pass given to it, not of the 3 that
 *    were all the K-best would have); the fastest try counts, since noise
 *    can only slow a pass down. This is the book's
 *    K-best method (single passes, the fastest counts) with passes batched
 *    into tries long enough for the clock. Short tries matter: on the Zen 5
 *    build guest the rows that fit L2 alternate every few tens of us
 *    between two speeds 4:3 apart; 2 ms tries averaged the two and their
 *    averages disagreed by up to 40 %, while 4 us tries find the fast
 *    state in every cell. The median try is kept too: it says how often
 *    the fast state held (memtop(1), "Two speeds");
 *  - a tiny L1 canary is timed before the first try and every 250 us; its
 *    ratio to the fastest canary of the run says how fast the core was
 *    (another tenant on the sibling hyperthread halves it). A cell whose
 *    fastest canary was still slow, or whose fastest tries never agreed,
 *    is measured again at the end of its row and keeps the better result;
 *  - --seed-settings is the seed's method: tries of 8M reads, exactly 5,
 *    the best counts, no second looks;
 *  - big passes are cut into 8 MB chunks at multiples of the stride (the
 *    same addresses in the same order), checking for pause and cancel
 *    between chunks, so both act within 100 ms even in a 128 MB row. */
#include "config.h"

#include "base/i18n.h"

#include "mountain.h"
#include "machine/machine.h"
#include "os/barrier.h"
#include "os/clock.h"
#include "os/platform.h"
#include "os/sysinfo.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define CHUNK_WORDS (1u << 20) /* 8 MB */
#define FILL_NS_PER_BYTE 0.25   /* writing the seed's values (planning only) */
/* touching the buffer checks for pause and cancel every 1 MB: 256 fresh
 * pages, 10 ms where a page costs 40 us (a VM's host backing it) */
#define TOUCH_CHECK_WORDS (1u << 17)
#define CANARY_WORDS 256        /* 2 KB: always in L1 */
#define CANARY_PASSES 32
#define DOUBTFUL_CANARY 1.15

MT_KERNEL_SCALAR int64_t mountain_read_pass(const int64_t *data, size_t n, size_t stride)
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

static const struct mountain_params mountain_defaults = {
	.min_tries = 3,
	.max_tries = 1000000,
	.kbest = 3,
	.tolerance = 0.01,
	.try_ns = 4e3,
	.cell_ns = 1e6,
	.cell_max_ns = 20e6,
	.only_row = -1,
	.only_col = -1,
};

void mountain_params_default(struct mountain_params *p)
{
	*p = mountain_defaults;
	mountain_params_set_sizes(p, 16u << 10, 128u << 20, NULL);
	mountain_params_set_max_stride(p, 15, NULL);
}

void mountain_params_quick(struct mountain_params *p)
{
	static const unsigned quick[] = { 1, 2, 4, 8 };
	mountain_params_default(p);
	mountain_params_set_sizes(p, 16u << 10, 8u << 20, NULL);
	p->nstrides = MT_ARRAY_LEN(quick);
	memcpy(p->strides, quick, sizeof quick);
	p->cell_ns = 0.5e6;
}

void mountain_params_seed(struct mountain_params *p)
{
	mountain_params_default(p);
	mountain_params_seed_method(p);
}

void mountain_params_seed_method(struct mountain_params *p)
{
	p->fixed_accesses = 1u << 23;
	p->min_tries = p->max_tries = 5;
	p->kbest = 1;
	p->tolerance = 0;
}

int mountain_params_set_sizes(struct mountain_params *p, uint64_t lo, uint64_t hi, mt_error *e)
{
	size_t n = 0;
	lo &= ~(uint64_t)7;
	hi &= ~(uint64_t)7;
	if (lo < MOUNTAIN_MIN_SIZE)
		return mt_fail(e, _("--sizes: the smallest size must be at least 4K"));
	if (hi > MOUNTAIN_MAX_SIZE)
		return mt_fail(e, _("--sizes: the largest size must be at most 64G"));
	if (hi < lo)
		return mt_fail(e, _("--sizes: the largest size is below the smallest"));
	for (uint64_t s = lo; s <= hi; s *= 2) {
		if (n == MOUNTAIN_MAX_SIZES)
			return mt_fail(e, _("--sizes: more than %d sizes"), MOUNTAIN_MAX_SIZES);
		p->sizes[n++] = s;
	}
	p->nsizes = n;
	return 0;
}

int mountain_params_set_max_stride(struct mountain_params *p, unsigned max, mt_error *e)
{
	if (max < 1 || max > MOUNTAIN_MAX_STRIDES)
		return mt_fail(e, _("--max-stride: must be 1..%d"), MOUNTAIN_MAX_STRIDES);
	for (unsigned s = 1; s <= max; s++)
		p->strides[s - 1] = s;
	p->nstrides = max;
	return 0;
}

int mountain_params_fit_memory(struct mountain_params *p, const struct machine_budget *b,
			       char *note, size_t len, mt_error *e)
{
	uint64_t budget = b->bytes / 2;
	size_t n = p->nsizes;
	char a[32];
	note[0] = '\0';
	if (b->bytes == 0)
		return 0; /* unknown: try, mmap will tell */
	while (n > 0 && p->sizes[n - 1] > budget)
		n--;
	if (n == 0)
		return mt_fail(e, _("not enough memory: %s, the smallest size needs %s"), b->who,
			       mt_fmt_size(a, sizeof a, p->sizes[0] * 2));
	if (n < p->nsizes) {
		machine_budget_capped(b, N_("the grid"), p->sizes[n - 1], p->sizes[p->nsizes - 1],
				      N_("its largest size"), note, len);
		p->nsizes = n;
	}
	return 0;
}

/* Expected ns of one cell. memtop's method: a warm-up pass, then tries for
 * cell_ns or min_tries + 1 tries of max(try length, one pass), whichever is
 * longer; the seed's: a warm-up pass and max_tries tries of fixed_accesses
 * reads. The ns per read come from mountains of x86 and Apple machines: a
 * few tenths of a ns in the caches, and per line moved beyond them. */
static double cell_cost_ns(const struct mountain_params *p, uint64_t size, unsigned stride)
{
	double accesses = (double)(size / 8) / stride;
	double lines = stride < 8 ? stride : 8; /* eighths of a line per read */
	double per = size <= (256u << 10) ? 0.25 + 0.01 * lines
		   : size <= (4u << 20)   ? 0.25 + 0.03 * lines
		   : size <= (32u << 20)  ? 0.35 + 0.25 * lines
					  : 1.0 + 0.45 * lines;
	double pass = accesses * per;
	if (p->fixed_accesses)
		return pass + p->max_tries * fmax(pass, (double)p->fixed_accesses * per);
	return pass + fmax(p->cell_ns, (p->min_tries + 1.0) * fmax(p->try_ns, pass));
}

double mountain_params_estimate_s(const struct mountain_params *p)
{
	double ns = 0;
	for (size_t r = 0; r < p->nsizes; r++)
		for (size_t c = 0; c < p->nstrides; c++)
			ns += cell_cost_ns(p, p->sizes[r], p->strides[c]);
	/* plus the buffer's pages and the seed's values written into it */
	if (p->nsizes) {
		uint64_t bytes = p->sizes[p->nsizes - 1];
		ns += (double)(bytes / 4096) * (p->page_ns > 0 ? p->page_ns : MT_FRESH_PAGE_NS_GUESS);
		ns += (double)bytes * FILL_NS_PER_BYTE;
	}
	return ns / 1e9;
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
	m->typical = malloc((cells ? cells : 1) * sizeof *m->typical);
	if (!m->sizes || !m->strides || !m->mbs || !m->spread || !m->canary || !m->typical) {
		mountain_free(m);
		return NULL;
	}
	if (nsizes)
		memcpy(m->sizes, sizes, nsizes * sizeof *sizes);
	if (nstrides)
		memcpy(m->strides, strides, nstrides * sizeof *strides);
	for (size_t i = 0; i < cells; i++)
		m->mbs[i] = m->spread[i] = m->canary[i] = m->typical[i] = NAN;
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
	free(m->typical);
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
	struct mountain_ev_cell x;
	size_t i;
	if ((ev->type != JOB_EV_CELL && ev->type != JOB_EV_UPDATE) || ev->row < 0 || ev->col < 0 || (size_t)ev->row >= m->nsizes ||
	    (size_t)ev->col >= m->nstrides || JOB_PAYLOAD_GET(ev, struct mountain_ev_cell, &x) < 0)
		return -1;
	i = (size_t)ev->row * m->nstrides + (size_t)ev->col;
	m->mbs[i] = ev->value;
	m->spread[i] = ev->spread;
	m->canary[i] = x.canary;
	m->typical[i] = x.typical_mbs;
	return 0;
}

/* ---- the worker ------------------------------------------------------------ */

#define KEPT_TRIES 4096       /* tries kept per cell for the median */
#define CANARY_EVERY_NS 250e3 /* the canary is timed every 250 us of a cell */

struct cell {
	double best[MOUNTAIN_MAX_KBEST]; /* the fastest tries, ns a pass, sorted */
	unsigned kept;                   /* entries in best[] */
	double median_ns;                /* the median try, ns a pass */
	double canary;                   /* canary factor (see measure_cell_kbest) */
	unsigned tries;
	int settled; /* its kbest fastest tries agreed within the tolerance */
	int twice;   /* measured again at the end of its row */
};

/* Where a row's time went (--profile). */
struct row_time {
	uint64_t start;
	double warm_ns, tries_ns, canary_ns, second_ns;
	unsigned long tries;
	unsigned second_cells;
};

struct worker {
	const struct mountain_params *p;
	job_t *job;
	double ns_per_tick;  /* the tick counter's period (mt_clock_calibrate) */
	double row_pass_ns;  /* the last cell's fastest pass, ns, and its reads (0: none */
	double row_reads;    /* yet in this row: the next cell warms up) */
	int64_t *buf;       /* mmap'd, 4 KB pages */
	size_t buf_bytes;
	double canary_best; /* fastest canary of the run, ns */
	double units_done, units_total;
	struct row_time rt;
	double *times; /* KEPT_TRIES: the current cell's tries, ns a pass */
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

/* One try: reps passes, timed; *ns is the time of one pass. Returns as
 * chunked_pass(); JOB_RESUMED also when a pause fell just after the try. */
static int timed_try(struct worker *w, size_t n, size_t stride, uint64_t reps, int64_t *sum,
		     double *ns)
{
	uint64_t t0 = mt_ticks(), t1;
	int st = JOB_GO, c;
	double took;
	for (uint64_t r = 0; r < reps; r++) {
		int s = chunked_pass(w->job, w->buf, n, stride, sum);
		if (s == JOB_CANCELLED)
			return s;
		if (s == JOB_RESUMED)
			st = s;
	}
	t1 = mt_ticks();
	took = (double)(t1 - t0) * w->ns_per_tick;
	*ns = took / (double)reps;
	w->rt.tries_ns += took;
	c = job_check(w->job);
	return c == JOB_GO ? st : c;
}

/* The canary: 32 passes over 2 KB at the far end of the buffer (past the
 * cell's words when there is room, so it does not warm the cell's lines),
 * after one pass to bring it back into L1. Returns its ns and keeps the
 * run's fastest. */
static double canary(struct worker *w)
{
	const int64_t *buf = w->buf + (w->buf_bytes / 8 - CANARY_WORDS);
	uint64_t t0 = mt_now_ns(), t1;
	int64_t s = mountain_read_pass(buf, CANARY_WORDS, 1);
	uint64_t c0 = mt_now_ns();
	double c;
	for (int i = 0; i < CANARY_PASSES; i++) {
		const int64_t *p = buf;
		mt_launder(p);
		s += mountain_read_pass(p, CANARY_WORDS, 1);
	}
	mt_sink(s);
	t1 = mt_now_ns();
	c = (double)(t1 - c0);
	if (c < w->canary_best)
		w->canary_best = c;
	w->rt.canary_ns += (double)(t1 - t0);
	return c;
}

/* Count a try: among the kbest fastest (sorted), and kept for the median. */
static void record_try(struct worker *w, struct cell *c, double ns, unsigned kbest)
{
	unsigned j;
	if (c->tries < KEPT_TRIES)
		w->times[c->tries] = ns;
	c->tries++;
	if (c->kept < kbest)
		c->kept++;
	else if (ns >= c->best[c->kept - 1])
		return;
	for (j = c->kept - 1; j > 0 && c->best[j - 1] > ns; j--)
		c->best[j] = c->best[j - 1];
	c->best[j] = ns;
}

static int agreed(const struct cell *c, const struct mountain_params *p)
{
	return c->kept == p->kbest && p->tolerance > 0 &&
	       c->best[c->kept - 1] <= (1 + p->tolerance) * c->best[0];
}

/* Warm-up passes, not counted: they bring the cell's lines into the caches
 * (and, for at least least_ns, train the branches and the prefetchers on
 * a short pass). Returns the fastest pass's ns, or -1 when cancelled. */
static double warm_up(struct worker *w, size_t n, unsigned stride, int64_t *sum, double least_ns)
{
	double best = INFINITY, spent = 0;
	for (;;) {
		uint64_t t0 = mt_now_ns();
		int st = chunked_pass(w->job, w->buf, n, stride, sum);
		double ns = (double)(mt_now_ns() - t0);
		w->rt.warm_ns += ns;
		if (st == JOB_CANCELLED)
			return -1;
		if (st == JOB_RESUMED) { /* paused in between: warm up afresh */
			best = INFINITY;
			spent = 0;
			continue;
		}
		best = fmin(best, ns);
		spent += ns;
		if (spent >= least_ns)
			return best;
	}
}

/* The seed's method (--seed-settings): tries of fixed_accesses reads,
 * exactly max_tries of them, a canary before each; the canary factor is the
 * one of the best try. Returns JOB_GO or JOB_CANCELLED. */
static int measure_cell_seed(struct worker *w, size_t n, unsigned stride, struct cell *out)
{
	const struct mountain_params *p = w->p;
	size_t accesses = (n + stride - 1) / stride;
	uint64_t reps = accesses >= p->fixed_accesses ? 1 : p->fixed_accesses / accesses;
	int64_t sum = 0;
	double c = INFINITY;
restart:
	memset(out, 0, sizeof *out);
	if (warm_up(w, n, stride, &sum, 0) < 0) /* the seed's one pass */
		return JOB_CANCELLED;
	while (out->tries < p->max_tries) {
		double before = canary(w), ns;
		int st = timed_try(w, n, stride, reps, &sum, &ns);
		if (st == JOB_CANCELLED)
			return st;
		if (st == JOB_RESUMED)
			goto restart; /* a pause fell inside the try */
		if (out->kept == 0 || ns < out->best[0])
			c = before;
		record_try(w, out, ns, 2);
	}
	out->canary = c;
	out->settled = 1;
	mt_sink(sum);
	return JOB_GO;
}

/* memtop's method, the book's K-best made cheap: a warm-up pass (not
 * counted), then tries of as many passes as last about try_ns (one pass when
 * a pass is longer; sized by the fastest pass so far), until the kbest
 * fastest agree within the tolerance after at least min_tries tries and
 * cell_ns, or cell_max_ns have passed, or max_tries were made. Short tries
 * catch the core's fast moments as single passes do (the L2 rows of a Zen 5
 * alternate between two speeds every few tens of us). The canary is timed
 * before the first try and every CANARY_EVERY_NS; the cell keeps its
 * fastest canary (against the run's fastest after the cell). Returns JOB_GO
 * or JOB_CANCELLED. */
static int measure_cell_kbest(struct worker *w, size_t n, unsigned stride, struct cell *out)
{
	const struct mountain_params *p = w->p;
	int64_t sum = 0;
	double pass_ns, next_canary = 0, el = 0;
	uint64_t start;

	memset(out, 0, sizeof *out);
	out->canary = INFINITY;
	if (w->row_pass_ns > 0) /* the row's cell before: the lines are in, its pass sizes ours */
		pass_ns = w->row_pass_ns * ((double)n / stride) / w->row_reads;
	else if ((pass_ns = warm_up(w, n, stride, &sum, p->try_ns)) < 0)
		return JOB_CANCELLED;
	start = mt_now_ns();
	while (out->tries < p->max_tries) {
		uint64_t reps = pass_ns >= p->try_ns ? 1 : (uint64_t)ceil(p->try_ns / fmax(pass_ns, 1));
		double ns;
		int st;
		if (el >= next_canary) {
			out->canary = fmin(out->canary, canary(w));
			next_canary = el + CANARY_EVERY_NS;
		}
		st = timed_try(w, n, stride, reps, &sum, &ns);
		if (st == JOB_CANCELLED)
			return st;
		if (st == JOB_RESUMED) { /* a pause fell inside the try: warm up again */
			if (warm_up(w, n, stride, &sum, p->try_ns) < 0)
				return JOB_CANCELLED;
			continue;
		}
		pass_ns = fmin(pass_ns, ns);
		record_try(w, out, ns, p->kbest);
		el = (double)(mt_now_ns() - start);
		if (out->tries >= p->min_tries &&
		    ((el >= p->cell_ns && agreed(out, p)) ||
		     (el >= p->cell_max_ns && out->tries > p->kbest)))
			break;
	}
	out->settled = agreed(out, p);
	w->row_pass_ns = out->best[0];
	w->row_reads = (double)n / stride;
	mt_sink(sum);
	return JOB_GO;
}

/* Measure one cell by the params' method. Returns JOB_GO or JOB_CANCELLED. */
static int measure_cell(struct worker *w, uint64_t size, unsigned stride, struct cell *out)
{
	size_t n = size / 8;
	int st = w->p->fixed_accesses ? measure_cell_seed(w, n, stride, out)
				      : measure_cell_kbest(w, n, stride, out);
	if (st == JOB_GO) {
		out->canary /= w->canary_best;
		out->median_ns = mt_median(w->times, out->tries < KEPT_TRIES ? out->tries : KEPT_TRIES);
		w->rt.tries += out->tries;
	}
	return st;
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
	ev.value = bytes * 1000.0 / c->best[0];
	ev.spread = c->kept > 1 ? (c->best[c->kept - 1] - c->best[0]) / c->best[0] : 0;
	JOB_PAYLOAD_PUT(&ev, struct mountain_ev_cell,
			&((struct mountain_ev_cell){
				.tries = c->tries,
				.canary = c->canary,
				.best_ns = c->best[0],
				.twice = c->twice,
				.typical_mbs = isfinite(c->median_ns) ? bytes * 1000.0 / c->median_ns
								      : (double)NAN,
			}));
	return job_emit(w->job, &ev);
}

/* A cell worth a second look: its fastest tries never agreed, or even its
 * fastest canary says the core was slow all along. */
static int doubtful(const struct cell *c)
{
	return c->canary > DOUBTFUL_CANARY || !c->settled;
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
		return mt_fail(e, _("cannot allocate %s for the largest size: %s"),
			       mt_fmt_size(b, sizeof b, need), strerror(errno));
	}
	w->buf_bytes = need;
	(void)mt_plat_page_advice(w->buf, need, 0);
	return 0;
}

/* What the sweep's parts return: go on, stop (cancelled), or fail with e. */
enum { SWEEP_GO = 0, SWEEP_STOP = 1, SWEEP_FAILED = -1 };

/* Touch every page (first touch from the pinned worker, so the pages sit on
 * its NUMA node), with the seed's values. The kernel gives the pages first
 * (mt_populate) where it can: a fault a page costs far more on a VM (0.8 s
 * for 128 MB on the Zen 5 guest, against 0.1 s). Returns SWEEP_GO or
 * SWEEP_STOP. */
static int touch_buffer(struct worker *w)
{
	size_t words = w->buf_bytes / 8;
	if (job_populate(w->job, w->buf, w->buf_bytes) == JOB_CANCELLED)
		return SWEEP_STOP;
	for (size_t i = 0; i < words; i++) {
		w->buf[i] = (int64_t)(i & 0xff);
		if ((i & (TOUCH_CHECK_WORDS - 1)) == 0 && job_check(w->job) == JOB_CANCELLED)
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
		struct row_time before = w->rt;
		uint64_t t0 = mt_now_ns();
		if (!doubtful(&cells[c]))
			continue;
		if (measure_cell(w, p->sizes[r], p->strides[c], &again) == JOB_CANCELLED)
			return SWEEP_STOP;
		/* the whole second look counts as such, not as warm-up and tries */
		w->rt.warm_ns = before.warm_ns;
		w->rt.tries_ns = before.tries_ns;
		w->rt.canary_ns = before.canary_ns;
		w->rt.second_ns += (double)(mt_now_ns() - t0);
		w->rt.second_cells++;
		if (again.best[0] < cells[c].best[0]) {
			again.tries += cells[c].tries;
			cells[c] = again;
		} else {
			cells[c].tries += again.tries;
		}
		cells[c].twice = 1;
		if (emit_cell(w, r, c, &cells[c], JOB_EV_UPDATE) < 0)
			return mt_fail(e, _("out of memory"));
	}
	return SWEEP_GO;
}

/* The row's time account as a note (--profile): the row's wall time, the
 * warm-up passes, the timed tries (and how many), the canary, the second
 * looks (all of their time), and the rest (clock reads, events). Returns 0,
 * or -1 when out of memory. */
static int profile_note(struct worker *w, uint64_t size)
{
	const struct row_time *t = &w->rt;
	char sz[32];
	double total = (double)(mt_now_ns() - t->start);
	double other = total - t->warm_ns - t->tries_ns - t->canary_ns - t->second_ns;
	return job_note(w->job, t->second_cells == 1 ? MOUNTAIN_NOTE_ROW_1 : MOUNTAIN_NOTE_ROW,
			mt_fmt_size(sz, sizeof sz, size), total / 1e6, t->warm_ns / 1e6,
			t->tries_ns / 1e6, t->tries, t->canary_ns / 1e6, t->second_ns / 1e6,
			t->second_cells, other / 1e6) < 0
		       ? -1
		       : 0;
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
		memset(&w->rt, 0, sizeof w->rt);
		w->rt.start = mt_now_ns();
		w->row_pass_ns = 0; /* a new size: its first cell warms up */
		for (size_t c = c0; c < c1; c++) {
			if (measure_cell(w, p->sizes[r], p->strides[c], &cells[c]) == JOB_CANCELLED)
				return SWEEP_STOP;
			if (emit_cell(w, r, c, &cells[c], JOB_EV_CELL) < 0)
				return mt_fail(e, _("out of memory"));
			w->units_done += cell_cost_ns(p, p->sizes[r], p->strides[c]);
			job_set_progress(w->job, w->units_done, w->units_total);
		}
		/* the seed's method has no second looks */
		if (!p->fixed_accesses && (st = second_looks(w, r, c0, c1, cells, e)) != SWEEP_GO)
			return st;
		if (p->profile && profile_note(w, p->sizes[r]) < 0)
			return mt_fail(e, _("out of memory"));
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
		return mt_fail(e, _("empty grid"));
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
	{
		struct mt_clock clk;
		mt_clock_calibrate(&clk, 0);
		w.ns_per_tick = clk.ticks_per_ns > 0 ? 1 / clk.ticks_per_ns : 1;
	}
	w.times = malloc(KEPT_TRIES * sizeof *w.times);
	if (!w.times)
		return mt_fail(e, _("out of memory"));
	if (map_buffer(&w, e) < 0) {
		free(w.times);
		return -1;
	}
	st = touch_buffer(&w);
	if (st == SWEEP_GO)
		st = sweep(&w, r0, r1, c0, c1, e);
	munmap(w.buf, w.buf_bytes);
	free(w.times);
	return st == SWEEP_FAILED ? -1 : 0; /* a stop is the job's cancel */
}
