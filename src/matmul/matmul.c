/* matmul: the kernels, their slicing into steps, and the timing worker.
 * See matmul.h for the contracts and the cells streamed. */
#include "config.h"

#include "base/i18n.h"

#include "matmul.h"
#include "os/clock.h"
#include "os/sysinfo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct matmul_params matmul_defaults = {
	.n = 512,
	.block = 32,
	.tries = 3,
	.slice_ms = 2.0,
	.sim_s = -1,
	.sim_E = 1,
	.sim_b = 6,
	.sim_sample = 4000000,
	.orders = MATMUL_CLASSIC_MASK,
};

void matmul_params_default(struct matmul_params *p)
{
	*p = matmul_defaults;
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

/* The three inner loops, one a class of the book's (matmul_order_class):
 * the dot product of row i of A and column j of B over k0..k1 (ijk, jik),
 * column j of C updated by column k of A times b[k][j] over rows i0..i1
 * (jki, kji), and row i of C by row k of B times a[i][k] over columns
 * j0..j1 (kij, ikj). Inlined into every order below, so each order is its
 * loop nest: the outer index fixed, the middle loop, and its class's inner
 * loop, over 0..n (part_*) or over one tile (tiled_*). */
static inline __attribute__((always_inline)) double
dot_ab(size_t n, const double *restrict a, const double *restrict b, size_t i, size_t j,
       size_t k0, size_t k1)
{
	double sum = 0;
	for (size_t k = k0; k < k1; k++)
		sum += a[i * n + k] * b[k * n + j];
	return sum;
}

static inline __attribute__((always_inline)) void
col_ac(size_t n, const double *restrict a, const double *restrict b, double *restrict c,
       size_t j, size_t k, size_t i0, size_t i1)
{
	const double r = b[k * n + j];
	for (size_t i = i0; i < i1; i++)
		c[i * n + j] += a[i * n + k] * r;
}

static inline __attribute__((always_inline)) void
row_bc(size_t n, const double *restrict a, const double *restrict b, double *restrict c,
       size_t i, size_t k, size_t j0, size_t j1)
{
	const double r = a[i * n + k];
	for (size_t j = j0; j < j1; j++)
		c[i * n + j] += r * b[k * n + j];
}

static void part_ijk(size_t n, const double *restrict a, const double *restrict b,
		     double *restrict c, size_t i, size_t j0, size_t j1)
{
	for (size_t j = j0; j < j1; j++)
		c[i * n + j] += dot_ab(n, a, b, i, j, 0, n);
}

static void part_jik(size_t n, const double *restrict a, const double *restrict b,
		     double *restrict c, size_t j, size_t i0, size_t i1)
{
	for (size_t i = i0; i < i1; i++)
		c[i * n + j] += dot_ab(n, a, b, i, j, 0, n);
}

static void part_jki(size_t n, const double *restrict a, const double *restrict b,
		     double *restrict c, size_t j, size_t k0, size_t k1)
{
	for (size_t k = k0; k < k1; k++)
		col_ac(n, a, b, c, j, k, 0, n);
}

static void part_kji(size_t n, const double *restrict a, const double *restrict b,
		     double *restrict c, size_t k, size_t j0, size_t j1)
{
	for (size_t j = j0; j < j1; j++)
		col_ac(n, a, b, c, j, k, 0, n);
}

static void part_kij(size_t n, const double *restrict a, const double *restrict b,
		     double *restrict c, size_t k, size_t i0, size_t i1)
{
	for (size_t i = i0; i < i1; i++)
		row_bc(n, a, b, c, i, k, 0, n);
}

static void part_ikj(size_t n, const double *restrict a, const double *restrict b,
		     double *restrict c, size_t i, size_t k0, size_t k1)
{
	for (size_t k = k0; k < k1; k++)
		row_bc(n, a, b, c, i, k, 0, n);
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
	for (size_t j = m0; j < m1; j++)
		c[i * n + j] += dot_ab(n, a, b, i, j, x0, x1);
}

static void tiled_jik(size_t n, const double *restrict a, const double *restrict b,
		      double *restrict c, size_t j, size_t m0, size_t m1, size_t x0, size_t x1)
{
	for (size_t i = m0; i < m1; i++)
		c[i * n + j] += dot_ab(n, a, b, i, j, x0, x1);
}

static void tiled_jki(size_t n, const double *restrict a, const double *restrict b,
		      double *restrict c, size_t j, size_t m0, size_t m1, size_t x0, size_t x1)
{
	for (size_t k = m0; k < m1; k++)
		col_ac(n, a, b, c, j, k, x0, x1);
}

static void tiled_kji(size_t n, const double *restrict a, const double *restrict b,
		      double *restrict c, size_t k, size_t m0, size_t m1, size_t x0, size_t x1)
{
	for (size_t j = m0; j < m1; j++)
		col_ac(n, a, b, c, j, k, x0, x1);
}

static void tiled_kij(size_t n, const double *restrict a, const double *restrict b,
		      double *restrict c, size_t k, size_t m0, size_t m1, size_t x0, size_t x1)
{
	for (size_t i = m0; i < m1; i++)
		row_bc(n, a, b, c, i, k, x0, x1);
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
	job_cell(&ev, kind, row, 0, ns / iters, job_spread(ns, second));
	JOB_PAYLOAD_PUT(&ev, struct matmul_ev_result,
			&((struct matmul_ev_result){
				.ms = ns / 1e6, .equal = equal, .block = bs, .rank = rank }));
	job_emit(x->job, &ev);
}

/* The orders a run has: p->orders, and ijk always (every other C is
 * checked against its). */
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
		if (!(matmul_run_orders(p) & (1u << o)))
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
	const unsigned orders = matmul_run_orders(x->p);
	int count = 0;
	for (int o = 0; o < MATMUL_NORDERS; o++) {
		size_t bs = order_block(x->p, o);
		if (!(orders & (1u << o)))
			continue;
		r[o].c = o == MATMUL_IJK ? x->ref : alloc_matrix(x->n);
		if (!r[o].c)
			return mt_fail(e, _("matmul: out of memory for %zu x %zu matrices"), x->n, x->n);
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
		job_cell(&ev, MATMUL_CELL_RACE, o, 0,
			 r[o].iters ? (double)r[o].ns / (double)r[o].iters : 0, 0);
		JOB_PAYLOAD_PUT(&ev, struct matmul_ev_race,
				&((struct matmul_ev_race){
					.frac = (double)r[o].step / (double)r[o].steps,
					.rank = r[o].rank,
					.iters = r[o].iters }));
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
		if (!(matmul_run_orders(p) & (1u << o)))
			continue;
		if (job_check(job) == JOB_CANCELLED)
			return JOB_CANCELLED;
		if (matmul_simulate(o, n, p->block, p->sim_s, p->sim_E, p->sim_b, p->sim_sample, &r,
				    &se) < 0)
			break;
		job_cell(&ev, MATMUL_CELL_SIM, o, 0, r.per_iter, 0);
		JOB_PAYLOAD_PUT(&ev, struct matmul_ev_sim,
				&((struct matmul_ev_sim){
					.per_iter = { r.per_iter_m[0], r.per_iter_m[1], r.per_iter_m[2] },
					.sampled = r.steps_done < r.steps }));
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
		return mt_fail(e, _("matmul: bad parameters (n %zu, block %zu, tries %d)"), p->n,
			       p->block, p->tries);
	x.a = alloc_matrix(x.n);
	x.b = alloc_matrix(x.n);
	x.ref = alloc_matrix(x.n);
	c = alloc_matrix(x.n);
	if (!x.a || !x.b || !x.ref || !c) {
		rc = mt_fail(e, _("matmul: out of memory for %zu x %zu matrices"), x.n, x.n);
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
				(double)((p->skip_table ? 0 : __builtin_popcount(matmul_run_orders(p))) +
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
