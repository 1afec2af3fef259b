/* matmul: the kernels, their slicing into steps, and the timing worker.
 * See matmul.h for the contracts and the cells streamed. */
#include "config.h"

#include "matmul.h"
#include "core/clock.h"
#include "core/jsonio.h"
#include "core/sysinfo.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const order_names[MATMUL_NORDERS] = {
	"ijk", "jik", "jki", "kji", "kij", "ikj", "blocked",
	"blocked-ijk", "blocked-jik", "blocked-jki", "blocked-kji", "blocked-kij"
};

void matmul_params_default(struct matmul_params *p)
{
	memset(p, 0, sizeof *p);
	p->n = 512;
	p->block = 32;
	p->tries = 3;
	p->race = 0;
	p->slice_ms = 2.0;
	p->nsweep = 0;
	p->sim_s = -1;
	p->sim_E = 1;
	p->sim_b = 6;
	p->sim_sample = 4000000;
	p->orders = MATMUL_CLASSIC_MASK;
}

const char *matmul_order_name(int order)
{
	if (order < 0 || order >= MATMUL_NORDERS)
		return NULL;
	return order_names[order];
}

int matmul_order_parse(const char *s)
{
	if (strcmp(s, "blocked-ikj") == 0)
		return MATMUL_BLOCKED;
	for (int i = 0; i < MATMUL_NORDERS; i++)
		if (strcmp(s, order_names[i]) == 0)
			return i;
	return -1;
}

int matmul_base_order(int order)
{
	if (order == MATMUL_BLOCKED)
		return MATMUL_IKJ;
	return order > MATMUL_BLOCKED ? order - MATMUL_B_IJK + MATMUL_IJK : order;
}

int matmul_blocked_of(int order)
{
	if (order == MATMUL_IKJ)
		return MATMUL_BLOCKED;
	return order < MATMUL_IKJ ? order - MATMUL_IJK + MATMUL_B_IJK : order;
}

int matmul_blocked_parse(const char *list, unsigned *mask)
{
	char buf[128], *save = NULL, *tok;
	*mask = 0;
	if (strcmp(list, "none") == 0)
		return 0;
	if (strcmp(list, "all") == 0)
		list = "ijk,jik,jki,kji,kij,ikj";
	if (mt_strlcpy(buf, list, sizeof buf) < 0)
		return -1;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int o = matmul_order_parse(tok);
		if (o < 0 || matmul_is_blocked(o))
			return -1;
		*mask |= 1u << matmul_blocked_of(o);
	}
	return *mask ? 0 : -1;
}

enum matmul_class matmul_order_class(int order)
{
	switch (matmul_base_order(order)) {
	case MATMUL_IJK:
	case MATMUL_JIK:
		return MATMUL_AB;
	case MATMUL_JKI:
	case MATMUL_KJI:
		return MATMUL_AC;
	default:
		return MATMUL_BC;
	}
}

const char *matmul_class_name(enum matmul_class c)
{
	switch (c) {
	case MATMUL_AB:
		return "AB";
	case MATMUL_AC:
		return "AC";
	default:
		return "BC";
	}
}

void matmul_inner_walk(int order, enum matmul_walk walk[3])
{
	switch (matmul_order_class(order)) {
	case MATMUL_AB: /* inner k: a[i][k] along a row, b[k][j] down a column */
		walk[0] = MATMUL_WALK_ROW;
		walk[1] = MATMUL_WALK_COL;
		walk[2] = MATMUL_WALK_NONE;
		break;
	case MATMUL_AC: /* inner i: a[i][k], c[i][j] down columns, b[k][j] held */
		walk[0] = MATMUL_WALK_COL;
		walk[1] = MATMUL_WALK_REG;
		walk[2] = MATMUL_WALK_COL;
		break;
	default: /* inner j: b[k][j], c[i][j] along rows, a[i][k] held */
		walk[0] = MATMUL_WALK_REG;
		walk[1] = MATMUL_WALK_ROW;
		walk[2] = MATMUL_WALK_ROW;
		break;
	}
}

const char *matmul_walk_name(enum matmul_walk w)
{
	switch (w) {
	case MATMUL_WALK_ROW:
		return "along a row";
	case MATMUL_WALK_COL:
		return "down a column";
	case MATMUL_WALK_REG:
		return "in a register";
	default:
		return "summed in a register";
	}
}

double matmul_book_estimate(int order, double L, double miss[3])
{
	enum matmul_walk w[3];
	double total = 0;
	if (L < 1)
		L = 1;
	matmul_inner_walk(order, w);
	for (int m = 0; m < 3; m++) {
		miss[m] = w[m] == MATMUL_WALK_ROW ? 1.0 / L : w[m] == MATMUL_WALK_COL ? 1.0 : 0.0;
		total += miss[m];
	}
	return total;
}

void matmul_fill(size_t n, double *a, double *b)
{
	for (size_t idx = 0; idx < n * n; idx++) {
		a[idx] = (double)(idx % 7);
		b[idx] = (double)(idx % 5);
	}
}

/* ---- kernels: one outer index, a range of the middle loop ---------------- */

/* The seed's numbers come from a compiler that vectorizes stride-1 inner
 * loops (Zig ReleaseFast, LLVM). GCC's -O2 uses the "very cheap" cost model,
 * which skips loops whose trip count is not known, so the kernels ask for
 * the normal one: the classes then differ as the seed's do. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("vect-cost-model=dynamic")
#endif

static void part_ijk(size_t n, const double *restrict a, const double *restrict b,
		     double *restrict c, size_t i, size_t j0, size_t j1)
{
	for (size_t j = j0; j < j1; j++) {
		double sum = 0;
		for (size_t k = 0; k < n; k++)
			sum += a[i * n + k] * b[k * n + j];
		c[i * n + j] += sum;
	}
}

static void part_jik(size_t n, const double *restrict a, const double *restrict b,
		     double *restrict c, size_t j, size_t i0, size_t i1)
{
	for (size_t i = i0; i < i1; i++) {
		double sum = 0;
		for (size_t k = 0; k < n; k++)
			sum += a[i * n + k] * b[k * n + j];
		c[i * n + j] += sum;
	}
}

static void part_jki(size_t n, const double *restrict a, const double *restrict b,
		     double *restrict c, size_t j, size_t k0, size_t k1)
{
	for (size_t k = k0; k < k1; k++) {
		const double r = b[k * n + j];
		for (size_t i = 0; i < n; i++)
			c[i * n + j] += a[i * n + k] * r;
	}
}

static void part_kji(size_t n, const double *restrict a, const double *restrict b,
		     double *restrict c, size_t k, size_t j0, size_t j1)
{
	for (size_t j = j0; j < j1; j++) {
		const double r = b[k * n + j];
		for (size_t i = 0; i < n; i++)
			c[i * n + j] += a[i * n + k] * r;
	}
}

static void part_kij(size_t n, const double *restrict a, const double *restrict b,
		     double *restrict c, size_t k, size_t i0, size_t i1)
{
	for (size_t i = i0; i < i1; i++) {
		const double r = a[i * n + k];
		for (size_t j = 0; j < n; j++)
			c[i * n + j] += r * b[k * n + j];
	}
}

static void part_ikj(size_t n, const double *restrict a, const double *restrict b,
		     double *restrict c, size_t i, size_t k0, size_t k1)
{
	for (size_t k = k0; k < k1; k++) {
		const double r = a[i * n + k];
		for (size_t j = 0; j < n; j++)
			c[i * n + j] += r * b[k * n + j];
	}
}

/* Rows i0..i1 of one block pair (kk, jj); BS is a constant where the caller
 * dispatches on it, so full blocks get fixed-length inner loops. */
static inline __attribute__((always_inline)) void
blocked_rows(size_t n, size_t BS, const double *restrict a, const double *restrict b,
	     double *restrict c, size_t kk, size_t jj, size_t i0, size_t i1)
{
	const size_t k_end = kk + BS < n ? kk + BS : n;
	const size_t j_end = jj + BS < n ? jj + BS : n;
	if (k_end - kk == BS && j_end - jj == BS) {
		for (size_t i = i0; i < i1; i++)
			for (size_t k = kk; k < kk + BS; k++) {
				const double r = a[i * n + k];
				double *restrict ci = c + i * n + jj;
				const double *restrict bk = b + k * n + jj;
				for (size_t j = 0; j < BS; j++)
					ci[j] += r * bk[j];
			}
		return;
	}
	for (size_t i = i0; i < i1; i++)
		for (size_t k = kk; k < k_end; k++) {
			const double r = a[i * n + k];
			for (size_t j = jj; j < j_end; j++)
				c[i * n + j] += r * b[k * n + j];
		}
}

static void part_blocked(size_t n, size_t bs, const double *restrict a,
			 const double *restrict b, double *restrict c, size_t kk, size_t jj,
			 size_t i0, size_t i1)
{
	switch (bs) {
	case 8:
		blocked_rows(n, 8, a, b, c, kk, jj, i0, i1);
		break;
	case 16:
		blocked_rows(n, 16, a, b, c, kk, jj, i0, i1);
		break;
	case 32:
		blocked_rows(n, 32, a, b, c, kk, jj, i0, i1);
		break;
	case 64:
		blocked_rows(n, 64, a, b, c, kk, jj, i0, i1);
		break;
	case 128:
		blocked_rows(n, 128, a, b, c, kk, jj, i0, i1);
		break;
	default:
		blocked_rows(n, bs, a, b, c, kk, jj, i0, i1);
		break;
	}
}

/* The blocked versions of the other five orders: outer values o0..o1 of
 * one tile pair, the middle loop over [m0, m1), the inner over [x0, x1).
 * ijk and jik keep the seed's partial sum in a register per tile. */
static void tiled_ijk(size_t n, const double *restrict a, const double *restrict b,
		      double *restrict c, size_t i, size_t m0, size_t m1, size_t x0, size_t x1)
{
	for (size_t j = m0; j < m1; j++) {
		double sum = 0;
		for (size_t k = x0; k < x1; k++)
			sum += a[i * n + k] * b[k * n + j];
		c[i * n + j] += sum;
	}
}

static void tiled_jik(size_t n, const double *restrict a, const double *restrict b,
		      double *restrict c, size_t j, size_t m0, size_t m1, size_t x0, size_t x1)
{
	for (size_t i = m0; i < m1; i++) {
		double sum = 0;
		for (size_t k = x0; k < x1; k++)
			sum += a[i * n + k] * b[k * n + j];
		c[i * n + j] += sum;
	}
}

static void tiled_jki(size_t n, const double *restrict a, const double *restrict b,
		      double *restrict c, size_t j, size_t m0, size_t m1, size_t x0, size_t x1)
{
	for (size_t k = m0; k < m1; k++) {
		const double r = b[k * n + j];
		for (size_t i = x0; i < x1; i++)
			c[i * n + j] += a[i * n + k] * r;
	}
}

static void tiled_kji(size_t n, const double *restrict a, const double *restrict b,
		      double *restrict c, size_t k, size_t m0, size_t m1, size_t x0, size_t x1)
{
	for (size_t j = m0; j < m1; j++) {
		const double r = b[k * n + j];
		for (size_t i = x0; i < x1; i++)
			c[i * n + j] += a[i * n + k] * r;
	}
}

static void tiled_kij(size_t n, const double *restrict a, const double *restrict b,
		      double *restrict c, size_t k, size_t m0, size_t m1, size_t x0, size_t x1)
{
	for (size_t i = m0; i < m1; i++) {
		const double r = a[i * n + k];
		for (size_t j = x0; j < x1; j++)
			c[i * n + j] += r * b[k * n + j];
	}
}

/* Outer values o0..o1 of one tile pair of a blocked order other than the
 * seed's: the middle tile starts at m0, the inner at x0. */
static void part_tiled(int order, size_t n, size_t bs, const double *a, const double *b,
		       double *c, size_t m0, size_t x0, size_t o0, size_t o1)
{
	typedef void (*tile_fn)(size_t, const double *restrict, const double *restrict,
				double *restrict, size_t, size_t, size_t, size_t, size_t);
	static const tile_fn fn[] = { tiled_ijk, tiled_jik, tiled_jki, tiled_kji, tiled_kij };
	const size_t m1 = m0 + bs < n ? m0 + bs : n, x1 = x0 + bs < n ? x0 + bs : n;
	const tile_fn f = fn[order - MATMUL_B_IJK];
	for (size_t o = o0; o < o1; o++)
		f(n, a, b, c, o, m0, m1, x0, x1);
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

uint64_t matmul_run_steps(int order, size_t n, size_t bsize, const double *a, const double *b,
			  double *c, uint64_t from, uint64_t to)
{
	uint64_t s = from, iters = 0;
	if (n == 0)
		return 0;
	if (matmul_is_blocked(order)) {
		size_t bs = bsize ? bsize : 1, nb = matmul_nblocks(n, bs);
		while (s < to) {
			uint64_t pair = s / n;
			size_t o0 = (size_t)(s % n), o1 = n;
			size_t mm = (size_t)(pair / nb) * bs, xx = (size_t)(pair % nb) * bs;
			size_t mw, xw;
			if (to - s < (uint64_t)(n - o0))
				o1 = o0 + (size_t)(to - s);
			if (order == MATMUL_BLOCKED) /* the seed's: kk = mm, jj = xx, rows i */
				part_blocked(n, bs, a, b, c, mm, xx, o0, o1);
			else
				part_tiled(order, n, bs, a, b, c, mm, xx, o0, o1);
			mw = (mm + bs < n ? mm + bs : n) - mm;
			xw = (xx + bs < n ? xx + bs : n) - xx;
			iters += (uint64_t)(o1 - o0) * mw * xw;
			s += o1 - o0;
		}
		return iters;
	}
	while (s < to) {
		size_t o = (size_t)(s / n), m0 = (size_t)(s % n), m1 = n;
		if (to - s < (uint64_t)(n - m0))
			m1 = m0 + (size_t)(to - s);
		switch (order) {
		case MATMUL_IJK:
			part_ijk(n, a, b, c, o, m0, m1);
			break;
		case MATMUL_JIK:
			part_jik(n, a, b, c, o, m0, m1);
			break;
		case MATMUL_JKI:
			part_jki(n, a, b, c, o, m0, m1);
			break;
		case MATMUL_KJI:
			part_kji(n, a, b, c, o, m0, m1);
			break;
		case MATMUL_KIJ:
			part_kij(n, a, b, c, o, m0, m1);
			break;
		default:
			part_ikj(n, a, b, c, o, m0, m1);
			break;
		}
		iters += (uint64_t)(m1 - m0) * n;
		s += m1 - m0;
	}
	return iters;
}

void matmul_multiply(int order, size_t n, size_t bsize, const double *a, const double *b,
		     double *c)
{
	matmul_run_steps(order, n, bsize, a, b, c, 0, matmul_steps(order, n, bsize));
}

/* ---- the worker ---------------------------------------------------------- */

struct mm_ctx {
	job_t *job;
	const struct matmul_params *p;
	size_t n;
	double *a, *b, *ref;
	double units_done, units_total;
};

/* Steps per chunk between job_check() calls: about 2^17 inner iterations,
 * at most ~1.5 ms even at 10 ns an iteration. */
static uint64_t chunk_steps(int order, size_t n, size_t bs)
{
	uint64_t per = matmul_is_blocked(order) ? (uint64_t)bs * bs : n;
	uint64_t c = per ? (1u << 17) / per : 1;
	return c ? c : 1;
}

static double *alloc_matrix(size_t n)
{
	size_t bytes = n * n * sizeof(double);
	void *m = NULL;
	bytes = (bytes + 4095) & ~(size_t)4095;
	if (posix_memalign(&m, mt_page_size(), bytes ? bytes : mt_page_size()) != 0)
		return NULL;
	memset(m, 0, bytes);
	return m;
}

/* Best (and second best) of p->tries runs of order into c. Returns 0, 1 when
 * cancelled. Leaves c = A * B (from zero). */
static int time_order(struct mm_ctx *x, int order, size_t bs, double *c, double *best,
		      double *second)
{
	const size_t n = x->n;
	const uint64_t steps = matmul_steps(order, n, bs), chunk = chunk_steps(order, n, bs);
	const double iters = (double)n * n * n;
	*best = *second = INFINITY;
	for (int t = 0; t < x->p->tries; t++) {
		uint64_t t0, s = 0;
		int redo = 0;
		memset(c, 0, n * n * sizeof *c);
		t0 = mt_now_ns();
		while (s < steps) {
			uint64_t e = s + chunk < steps ? s + chunk : steps;
			int rc;
			matmul_run_steps(order, n, bs, x->a, x->b, c, s, e);
			s = e;
			rc = job_check(x->job);
			if (rc == JOB_CANCELLED)
				return 1;
			if (rc == JOB_RESUMED) {
				redo = 1;
				break;
			}
			job_set_progress(x->job, x->units_done + iters * ((double)s / (double)steps),
					 x->units_total);
		}
		if (redo) {
			t--;
			continue;
		}
		{
			double ns = (double)(mt_now_ns() - t0);
			if (ns < *best) {
				*second = *best;
				*best = ns;
			} else if (ns < *second) {
				*second = ns;
			}
		}
		x->units_done += iters;
	}
	return 0;
}

static void emit_result(struct mm_ctx *x, int kind, int row, double ns, double second, int equal,
			size_t bs, int rank)
{
	struct job_event ev;
	const double iters = (double)x->n * x->n * x->n;
	memset(&ev, 0, sizeof ev);
	ev.type = JOB_EV_CELL;
	ev.kind = kind;
	ev.row = row;
	ev.value = ns / iters;
	ev.spread = isfinite(second) && ns > 0 ? (second - ns) / ns : 0;
	ev.aux[0] = ns / 1e6;
	ev.aux[1] = 1;
	ev.aux[2] = equal;
	ev.aux[3] = (double)bs;
	ev.aux[4] = rank;
	job_emit(x->job, &ev);
}

/* The orders a run has: p->orders, and ijk always (every other C is
 * checked against its). */
static unsigned run_orders(const struct matmul_params *p)
{
	return (p->orders ? p->orders : MATMUL_CLASSIC_MASK) | 1u << MATMUL_IJK;
}

static size_t order_block(const struct matmul_params *p, int o)
{
	return matmul_is_blocked(o) ? p->block : 0;
}

static int run_table(struct mm_ctx *x, double *c)
{
	const struct matmul_params *p = x->p;
	for (int o = 0; o < MATMUL_NORDERS && !p->skip_table; o++) {
		double best, second;
		int eq;
		size_t bs = order_block(p, o);
		if (!(run_orders(p) & (1u << o)))
			continue;
		if (time_order(x, o, bs, o == MATMUL_IJK ? x->ref : c, &best, &second))
			return 1;
		eq = o == MATMUL_IJK ||
		     memcmp(c, x->ref, x->n * x->n * sizeof *c) == 0;
		emit_result(x, MATMUL_CELL_RESULT, o, best, second, eq, bs, 0);
	}
	for (size_t i = 0; i < p->nsweep; i++) {
		double best, second;
		int eq;
		if (time_order(x, MATMUL_BLOCKED, p->sweep[i], c, &best, &second))
			return 1;
		eq = memcmp(c, x->ref, x->n * x->n * sizeof *c) == 0;
		emit_result(x, MATMUL_CELL_SWEEP, (int)i, best, second, eq, p->sweep[i], 0);
	}
	return 0;
}

struct runner {
	double *c;
	uint64_t step, steps, chunk, iters;
	uint64_t ns;
	int rank;
};

/* The race's runners: a C per order of the run (ijk's is x->ref). Returns
 * how many, or -1 with e when memory runs out. */
static int race_setup(struct mm_ctx *x, struct runner *r, mt_error *e)
{
	const unsigned orders = run_orders(x->p);
	int count = 0;
	for (int o = 0; o < MATMUL_NORDERS; o++) {
		size_t bs = order_block(x->p, o);
		if (!(orders & (1u << o)))
			continue;
		r[o].c = o == MATMUL_IJK ? x->ref : alloc_matrix(x->n);
		if (!r[o].c)
			return mt_fail(e, "matmul: out of memory for %zu x %zu matrices", x->n, x->n);
		r[o].steps = matmul_steps(o, x->n, bs);
		r[o].chunk = chunk_steps(o, x->n, bs);
		count++;
	}
	return count;
}

/* One round: each order still running gets its slice; ran[o] says which
 * ran. Returns 1 when cancelled. */
static int race_round(struct mm_ctx *x, struct runner *r, int *ran)
{
	const uint64_t slice_ns = (uint64_t)(x->p->slice_ms > 0 ? x->p->slice_ms * 1e6 : 2e6);
	for (int o = 0; o < MATMUL_NORDERS; o++) {
		struct runner *q = &r[o];
		size_t bs = order_block(x->p, o);
		uint64_t t0, t;
		if (!q->c || q->rank)
			continue;
		ran[o] = 1;
		t0 = mt_now_ns();
		t = t0;
		while (q->step < q->steps && t - t0 < slice_ns) {
			uint64_t end = q->step + q->chunk < q->steps ? q->step + q->chunk : q->steps;
			q->iters += matmul_run_steps(o, x->n, bs, x->a, x->b, q->c, q->step, end);
			q->step = end;
			t = mt_now_ns();
		}
		q->ns += t - t0; /* a pause happens in job_check, after t */
		if (job_check(x->job) == JOB_CANCELLED)
			return 1;
	}
	return 0;
}

/* After a round: those that finished it get their places, in the order of
 * their own time (the race is run as if all ran side by side at full
 * speed); every order that ran reports its progress. */
static void race_report(struct mm_ctx *x, struct runner *r, const int *ran, int *finished)
{
	double done = 0;
	for (;;) {
		int first = -1;
		for (int o = 0; o < MATMUL_NORDERS; o++)
			if (ran[o] && !r[o].rank && r[o].step >= r[o].steps &&
			    (first < 0 || r[o].ns < r[first].ns))
				first = o;
		if (first < 0)
			break;
		r[first].rank = ++*finished;
	}
	for (int o = 0; o < MATMUL_NORDERS; o++) {
		struct job_event ev;
		done += (double)r[o].iters;
		if (!ran[o])
			continue;
		memset(&ev, 0, sizeof ev);
		ev.type = JOB_EV_CELL;
		ev.kind = MATMUL_CELL_RACE;
		ev.row = o;
		ev.value = r[o].iters ? (double)r[o].ns / (double)r[o].iters : 0;
		ev.aux[0] = (double)r[o].step / (double)r[o].steps;
		ev.aux[1] = r[o].rank;
		ev.aux[2] = (double)r[o].iters;
		job_emit(x->job, &ev);
	}
	job_set_progress(x->job, done, x->units_total);
}

/* All orders advance together: round robin, each gets slice_ms of CPU time a
 * round, so the finish order is the speed order. */
static int run_race(struct mm_ctx *x, mt_error *e)
{
	struct runner r[MATMUL_NORDERS];
	int finished = 0, count;
	memset(r, 0, sizeof r);
	count = race_setup(x, r, e);
	x->units_total = (double)x->n * x->n * x->n * (count > 0 ? count : 1);
	while (count > 0 && finished < count) {
		int ran[MATMUL_NORDERS] = { 0 };
		if (race_round(x, r, ran))
			break;
		race_report(x, r, ran, &finished);
	}
	for (int rank = 1; count > 0 && finished == count && rank <= count; rank++)
		for (int o = 0; o < MATMUL_NORDERS; o++)
			if (r[o].c && r[o].rank == rank)
				emit_result(x, MATMUL_CELL_RESULT, o, (double)r[o].ns, INFINITY,
					    memcmp(r[o].c, x->ref, x->n * x->n * sizeof(double)) == 0,
					    order_block(x->p, o), rank);
	for (int o = 0; o < MATMUL_NORDERS; o++)
		if (r[o].c != x->ref)
			free(r[o].c);
	return count < 0 ? -1 : 0;
}

/* The simulator's misses per iteration of every order of the run, on
 * (p->sim_s, sim_E, sim_b), streamed as MATMUL_CELL_SIM before any timing.
 * Returns JOB_CANCELLED when cancelled, else JOB_GO. */
static int simulate_orders(job_t *job, const struct matmul_params *p, size_t n)
{
	for (int o = 0; o < MATMUL_NORDERS; o++) {
		struct matmul_sim r;
		struct job_event ev;
		mt_error se;
		if (!(run_orders(p) & (1u << o)))
			continue;
		if (job_check(job) == JOB_CANCELLED)
			return JOB_CANCELLED;
		if (matmul_simulate(o, n, p->block, p->sim_s, p->sim_E, p->sim_b, p->sim_sample, &r,
				    &se) < 0)
			break;
		memset(&ev, 0, sizeof ev);
		ev.type = JOB_EV_CELL;
		ev.kind = MATMUL_CELL_SIM;
		ev.row = o;
		ev.value = r.per_iter;
		for (int m = 0; m < 3; m++)
			ev.aux[m] = r.per_iter_m[m];
		ev.aux[3] = r.steps_done < r.steps;
		job_emit(job, &ev);
	}
	return JOB_GO;
}

int matmul_worker(job_t *job, void *arg, mt_error *e)
{
	const struct matmul_params *p = arg;
	struct mm_ctx x;
	double *c = NULL;
	int rc = 0;
	memset(&x, 0, sizeof x);
	x.job = job;
	x.p = p;
	x.n = p->n;
	if (p->n < 1 || p->n > MATMUL_MAX_N || p->block < 1 || p->tries < 1)
		return mt_fail(e, "matmul: bad parameters (n %zu, block %zu, tries %d)", p->n,
			       p->block, p->tries);
	x.a = alloc_matrix(x.n);
	x.b = alloc_matrix(x.n);
	x.ref = alloc_matrix(x.n);
	c = alloc_matrix(x.n);
	if (!x.a || !x.b || !x.ref || !c) {
		rc = mt_fail(e, "matmul: out of memory for %zu x %zu matrices", x.n, x.n);
		goto out;
	}
	matmul_fill(x.n, x.a, x.b);
	if (p->sim_s >= 0 && simulate_orders(job, p, x.n) == JOB_CANCELLED)
		goto out;
	if (p->race) {
		rc = run_race(&x, e);
	} else {
		double iters = (double)x.n * x.n * x.n;
		x.units_total = iters * p->tries *
				(double)((p->skip_table ? 0 : __builtin_popcount(run_orders(p))) +
					 (int)p->nsweep);
		if (p->skip_table && p->nsweep) /* the sweep needs ijk's C to check against */
			matmul_multiply(MATMUL_IJK, x.n, 0, x.a, x.b, x.ref);
		run_table(&x, c);
	}
out:
	free(x.a);
	free(x.b);
	free(x.ref);
	free(c);
	return rc;
}

/* ---- results ---------------------------------------------------------------- */

void matmul_result_init(struct matmul_result *r, const struct matmul_params *p, int line_bytes,
			const char *sim_from)
{
	double m[3];
	memset(r, 0, sizeof *r);
	r->n = p->n;
	r->block = p->block;
	r->tries = p->tries;
	r->race = p->race;
	r->line_bytes = line_bytes > 0 ? line_bytes : 64;
	r->orders = run_orders(p);
	for (int o = 0; o < MATMUL_NORDERS; o++) {
		r->book[o] = matmul_book_estimate(o, (double)r->line_bytes / sizeof(double), m);
		r->res[o].equal = 1;
	}
	if (p->sim_s >= 0) {
		r->have_sim = 1;
		r->sim_s = p->sim_s;
		r->sim_E = p->sim_E;
		r->sim_b = p->sim_b;
		mt_strlcpy(r->sim_from, sim_from ? sim_from : "", sizeof r->sim_from);
	}
	r->nsweep = p->nsweep;
	for (size_t i = 0; i < p->nsweep && i < MATMUL_MAX_SWEEP; i++) {
		r->sweep[i].block = p->sweep[i];
		r->sweep[i].equal = 1;
	}
}

int matmul_result_apply(struct matmul_result *r, const struct job_event *ev)
{
	struct matmul_row *row;
	int o = ev->row;
	if (ev->type != JOB_EV_CELL || o < 0)
		return 0;
	switch (ev->kind) {
	case MATMUL_CELL_SIM:
		if (o >= MATMUL_NORDERS)
			return 0;
		r->have_sim_o[o] = 1;
		r->sim[o] = ev->value;
		for (int m = 0; m < 3; m++)
			r->sim_m[o][m] = ev->aux[m];
		r->sim_sampled = ev->aux[3] > 0.5;
		return ev->kind;
	case MATMUL_CELL_RACE:
		if (o >= MATMUL_NORDERS)
			return 0;
		r->frac[o] = ev->aux[0];
		r->run_ns[o] = ev->value;
		r->run_rank[o] = (int)ev->aux[1];
		return ev->kind;
	case MATMUL_CELL_RESULT:
		if (o >= MATMUL_NORDERS)
			return 0;
		row = &r->res[o];
		r->frac[o] = 1;
		r->run_ns[o] = ev->value;
		r->run_rank[o] = (int)ev->aux[4];
		break;
	case MATMUL_CELL_SWEEP:
		if ((size_t)o >= r->nsweep)
			return 0;
		row = &r->sweep[o];
		break;
	default:
		return 0;
	}
	row->have = 1;
	row->ms = ev->aux[0];
	row->ns_iter = ev->value;
	row->spread = ev->spread;
	row->equal = ev->aux[2] > 0.5;
	row->block = (size_t)ev->aux[3];
	row->rank = (int)ev->aux[4];
	if (!row->equal)
		r->failed_equal = 1;
	return ev->kind;
}

size_t matmul_result_measured(const struct matmul_result *r)
{
	size_t n = 0;
	for (int o = 0; o < MATMUL_NORDERS; o++)
		n += (size_t)r->res[o].have;
	for (size_t i = 0; i < r->nsweep; i++)
		n += (size_t)r->sweep[i].have;
	return n;
}

static cJSON *row_json(const struct matmul_row *w)
{
	cJSON *it = cJSON_CreateObject();
	if (!it)
		return NULL;
	cJSON_AddNumberToObject(it, "ms", w->ms);
	cJSON_AddNumberToObject(it, "ns_per_iter", w->ns_iter);
	cJSON_AddNumberToObject(it, "spread", w->spread);
	cJSON_AddBoolToObject(it, "equal", w->equal);
	return it;
}

cJSON *matmul_result_to_json(const struct matmul_result *r)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	if (!root || run_header_to_json(&r->hdr, root) < 0 ||
	    !cJSON_AddStringToObject(root, "experiment", "matmul"))
		goto oom;
	cJSON_AddNumberToObject(root, "n", (double)r->n);
	cJSON_AddNumberToObject(root, "block", (double)r->block);
	cJSON_AddNumberToObject(root, "tries", r->tries);
	cJSON_AddStringToObject(root, "mode", r->race ? "race" : "table");
	cJSON_AddNumberToObject(root, "line_bytes", r->line_bytes);
	if (r->have_sim) {
		cJSON *c = cJSON_AddObjectToObject(root, "sim_cache");
		if (!c)
			goto oom;
		cJSON_AddNumberToObject(c, "s", r->sim_s);
		cJSON_AddNumberToObject(c, "E", r->sim_E);
		cJSON_AddNumberToObject(c, "b", r->sim_b);
		cJSON_AddNumberToObject(c, "bytes", (double)((1ull << r->sim_s) * (uint64_t)r->sim_E *
							     (1ull << r->sim_b)));
		cJSON_AddStringToObject(c, "source", r->sim_from);
	}
	arr = cJSON_AddArrayToObject(root, "results");
	if (!arr)
		goto oom;
	for (int o = 0; o < MATMUL_NORDERS; o++) {
		const struct matmul_row *w = &r->res[o];
		cJSON *it;
		if (!w->have)
			continue;
		if (!(it = row_json(w)))
			goto oom;
		cJSON_AddItemToArray(arr, it);
		cJSON_AddStringToObject(it, "order", matmul_order_name(o));
		cJSON_AddStringToObject(it, "class", matmul_class_name(matmul_order_class(o)));
		if (matmul_is_blocked(o))
			cJSON_AddNumberToObject(it, "block", (double)w->block);
		if (w->rank)
			cJSON_AddNumberToObject(it, "finish", w->rank);
		cJSON_AddNumberToObject(it, "book_misses_per_iter", r->book[o]);
		if (r->have_sim && r->have_sim_o[o]) {
			cJSON *sj = cJSON_AddObjectToObject(it, "sim");
			if (!sj)
				goto oom;
			cJSON_AddNumberToObject(sj, "misses_per_iter", r->sim[o]);
			cJSON_AddNumberToObject(sj, "per_iter_a", r->sim_m[o][0]);
			cJSON_AddNumberToObject(sj, "per_iter_b", r->sim_m[o][1]);
			cJSON_AddNumberToObject(sj, "per_iter_c", r->sim_m[o][2]);
			if (!cJSON_AddBoolToObject(sj, "sampled", r->sim_sampled))
				goto oom;
		}
	}
	if (r->nsweep) {
		arr = cJSON_AddArrayToObject(root, "sweep");
		if (!arr)
			goto oom;
		for (size_t i = 0; i < r->nsweep; i++) {
			const struct matmul_row *w = &r->sweep[i];
			cJSON *it;
			if (!w->have)
				continue;
			if (!(it = row_json(w)))
				goto oom;
			cJSON_AddItemToArray(arr, it);
			if (!cJSON_AddNumberToObject(it, "block", (double)w->block))
				goto oom;
		}
	}
	return root;
oom:
	cJSON_Delete(root);
	return NULL;
}

static int row_from_json(const cJSON *it, const char *where, struct matmul_row *w, mt_error *e)
{
	const cJSON *eq;
	if (jsonio_number(it, "ms", where, &w->ms, e) < 0 ||
	    jsonio_number(it, "ns_per_iter", where, &w->ns_iter, e) < 0)
		return -1;
	w->spread = jsonio_opt_number(it, "spread", NAN);
	eq = cJSON_GetObjectItemCaseSensitive(it, "equal");
	if (!cJSON_IsBool(eq))
		return mt_fail(e, "%s: field \"equal\" must be true or false", where);
	w->equal = cJSON_IsTrue(eq);
	w->have = 1;
	return 0;
}

/* One order of "results" (where names it in errors) into r; block is the
 * file's block side, a blocked row's when it names none. Returns 0, or -1
 * with e. */
static int order_from_json(const cJSON *it, const char *where, size_t block,
			   struct matmul_result *r, mt_error *e)
{
	const cJSON *ord = cJSON_GetObjectItemCaseSensitive(it, "order"), *sj;
	struct matmul_row w;
	char at[360];
	int o;
	memset(&w, 0, sizeof w);
	if (!cJSON_IsString(ord) || (o = matmul_order_parse(ord->valuestring)) < 0)
		return mt_fail(e, "%s: field \"order\" must name an order (ijk .. blocked-kij)",
			       where);
	if (row_from_json(it, where, &w, e) < 0)
		return -1;
	w.block = matmul_is_blocked(o)
			  ? (size_t)jsonio_opt_int(it, "block", 1, LONG_MAX, (long)block)
			  : 0;
	w.rank = (int)jsonio_opt_int(it, "finish", 0, MATMUL_NORDERS, 0);
	r->orders |= 1u << o;
	r->res[o] = w;
	r->frac[o] = 1;
	r->run_ns[o] = w.ns_iter;
	r->run_rank[o] = w.rank;
	if (!w.equal)
		r->failed_equal = 1;
	r->book[o] = jsonio_opt_number(it, "book_misses_per_iter", r->book[o]);
	sj = cJSON_GetObjectItemCaseSensitive(it, "sim");
	if (!cJSON_IsObject(sj))
		return 0;
	mt_snprintf(at, sizeof at, "%s: sim", where);
	if (jsonio_number(sj, "misses_per_iter", at, &r->sim[o], e) < 0)
		return -1;
	r->sim_m[o][0] = jsonio_opt_number(sj, "per_iter_a", NAN);
	r->sim_m[o][1] = jsonio_opt_number(sj, "per_iter_b", NAN);
	r->sim_m[o][2] = jsonio_opt_number(sj, "per_iter_c", NAN);
	r->sim_sampled = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(sj, "sampled"));
	r->have_sim_o[o] = 1;
	return 0;
}

int matmul_result_from_json(const cJSON *root, const char *file, struct matmul_result *r,
			    mt_error *e)
{
	const char *f = file ? file : "input";
	const cJSON *arr, *it, *mode, *sc, *sw;
	char where[320];
	long n, block, tries, line;
	int i = 0;
	memset(r, 0, sizeof *r);
	if (jsonio_int(root, "n", file, 1, MATMUL_MAX_N, &n, e) < 0 ||
	    jsonio_int(root, "block", file, 1, MATMUL_MAX_N, &block, e) < 0 ||
	    jsonio_int(root, "tries", file, 1, 1000, &tries, e) < 0 ||
	    jsonio_int(root, "line_bytes", file, 8, 4096, &line, e) < 0 ||
	    !(arr = jsonio_array(root, "results", file, e)))
		return -1;
	mode = cJSON_GetObjectItemCaseSensitive(root, "mode");
	if (!cJSON_IsString(mode) ||
	    (strcmp(mode->valuestring, "race") != 0 && strcmp(mode->valuestring, "table") != 0))
		return mt_fail(e, "%s: field \"mode\" must be \"race\" or \"table\"", f);
	{
		struct matmul_params p;
		matmul_params_default(&p);
		p.n = (size_t)n;
		p.block = (size_t)block;
		p.tries = (int)tries;
		p.race = strcmp(mode->valuestring, "race") == 0;
		p.sim_s = -1;
		matmul_result_init(r, &p, (int)line, NULL);
	}
	run_header_from_json(root, &r->hdr); /* after the init, which clears r */
	sc = cJSON_GetObjectItemCaseSensitive(root, "sim_cache");
	if (sc) {
		long s, E, b;
		mt_snprintf(where, sizeof where, "%s: sim_cache", f);
		if (jsonio_int(sc, "s", where, 0, 30, &s, e) < 0 ||
		    jsonio_int(sc, "E", where, 1, 1 << 16, &E, e) < 0 ||
		    jsonio_int(sc, "b", where, 0, 20, &b, e) < 0)
			return -1;
		r->have_sim = 1;
		r->sim_s = (int)s;
		r->sim_E = (int)E;
		r->sim_b = (int)b;
		jsonio_opt_string(sc, "source", r->sim_from, sizeof r->sim_from);
	}
	cJSON_ArrayForEach(it, arr) {
		mt_snprintf(where, sizeof where, "%s: results[%d]", f, i++);
		if (order_from_json(it, where, (size_t)block, r, e) < 0)
			return -1;
	}
	sw = cJSON_GetObjectItemCaseSensitive(root, "sweep");
	if (sw && !cJSON_IsArray(sw))
		return mt_fail(e, "%s: field \"sweep\" is not an array", f);
	i = 0;
	cJSON_ArrayForEach(it, sw) {
		struct matmul_row w;
		long b;
		mt_snprintf(where, sizeof where, "%s: sweep[%d]", f, i++);
		memset(&w, 0, sizeof w);
		if (r->nsweep == MATMUL_MAX_SWEEP)
			return mt_fail(e, "%s: more than %d blocks", where, MATMUL_MAX_SWEEP);
		if (row_from_json(it, where, &w, e) < 0 ||
		    jsonio_int(it, "block", where, 1, MATMUL_MAX_N, &b, e) < 0)
			return -1;
		w.block = (size_t)b;
		r->sweep[r->nsweep++] = w;
	}
	if (file)
		mt_strlcpy(r->source, file, sizeof r->source);
	return 0;
}
