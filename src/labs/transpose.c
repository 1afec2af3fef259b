/* transpose: the simulated and the real transpose of seed 003 (see
 * transpose.h). The simulated versions follow the seed's transpose.zig
 * access for access: A is read with get(), B written with set() and, in the
 * 64x64 trick, read back with getb(); every call is one cache access. */
#include "config.h"

#include "transpose.h"
#include "core/barrier.h"
#include "core/clock.h"
#include "sim/sim.h"
#include "core/sysinfo.h"

#include <stdlib.h>
#include <string.h>

/* ---- parsing ------------------------------------------------------------ */

int tr_version_parse(const char *s, struct tr_version *v, mt_error *e)
{
	if (strcmp(s, "naive") == 0) {
		v->kind = TR_NAIVE;
		v->block = 0;
		return 0;
	}
	if (strcmp(s, "diagonal") == 0) {
		v->kind = TR_DIAGONAL;
		v->block = 0;
		return 0;
	}
	if (strncmp(s, "block:", 6) == 0) {
		if (mt_parse_int(s + 6, 1, 4096, &v->block) < 0)
			return mt_fail(e, "version '%s': the block side must be 1..4096", s);
		v->kind = TR_BLOCK;
		return 0;
	}
	return mt_fail(e, "version '%s': expected naive, block:K or diagonal", s);
}

const char *tr_version_name(const struct tr_version *v, char *buf, size_t len)
{
	switch (v->kind) {
	case TR_NAIVE:
		mt_strlcpy(buf, "naive", len);
		break;
	case TR_BLOCK:
		mt_snprintf(buf, len, "block:%d", v->block);
		break;
	default:
		mt_strlcpy(buf, "diagonal", len);
		break;
	}
	return buf;
}

int tr_size_parse(const char *s, int *rows, int *cols, mt_error *e)
{
	char r[16];
	const char *x = strchr(s, 'x');
	size_t n;
	if (!x)
		x = strchr(s, 'X');
	if (!x || (n = (size_t)(x - s)) == 0 || n >= sizeof r)
		return mt_fail(e, "size '%s': expected ROWSxCOLS such as 61x67", s);
	memcpy(r, s, n);
	r[n] = 0;
	if (mt_parse_int(r, 1, 8192, rows) < 0 || mt_parse_int(x + 1, 1, 8192, cols) < 0)
		return mt_fail(e, "size '%s': rows and columns must be 1..8192", s);
	if ((uint64_t)*rows * (uint64_t)*cols > TR_MAX_ELEMS)
		return mt_fail(e, "size '%s': at most %u elements", s, TR_MAX_ELEMS);
	return 0;
}

uint64_t tr_base_b(int rows, int cols)
{
	uint64_t bytes = (uint64_t)rows * (uint64_t)cols * 4, span = 0x40000;
	if (bytes <= span)
		return TR_BASE_B;
	return TR_BASE_A + (bytes + span - 1) / span * span;
}

int tr_cachelab_limit(int rows, int cols)
{
	if (rows == 32 && cols == 32)
		return 300;
	if (rows == 64 && cols == 64)
		return 1300;
	if (rows == 61 && cols == 67)
		return 2000;
	return 0;
}

/* ---- the simulated versions --------------------------------------------- */

struct trm {
	struct sim_cache *c;
	int32_t *a, *b; /* A rows x cols, B cols x rows */
	int rows, cols;
	uint64_t base_b;
	tr_access_fn fn;
	void *ctx;
};

static inline int32_t get(struct trm *m, int i, int j)
{
	unsigned r = sim_access(m->c, TR_BASE_A + ((uint64_t)i * (uint64_t)m->cols + (uint64_t)j) * 4, 0);
	if (m->fn)
		m->fn(m->ctx, 0, i, j, 0, r);
	return m->a[(size_t)i * (size_t)m->cols + (size_t)j];
}

/* B[j][i] = v (B has rows columns). */
static inline void set(struct trm *m, int j, int i, int32_t v)
{
	unsigned r = sim_access(m->c, m->base_b + ((uint64_t)j * (uint64_t)m->rows + (uint64_t)i) * 4, 1);
	if (m->fn)
		m->fn(m->ctx, 1, j, i, 1, r);
	m->b[(size_t)j * (size_t)m->rows + (size_t)i] = v;
}

static inline int32_t getb(struct trm *m, int j, int i)
{
	unsigned r = sim_access(m->c, m->base_b + ((uint64_t)j * (uint64_t)m->rows + (uint64_t)i) * 4, 0);
	if (m->fn)
		m->fn(m->ctx, 1, j, i, 0, r);
	return m->b[(size_t)j * (size_t)m->rows + (size_t)i];
}

static int imin(int x, int y)
{
	return x < y ? x : y;
}

static void naive(struct trm *m)
{
	for (int i = 0; i < m->rows; i++)
		for (int j = 0; j < m->cols; j++)
			set(m, j, i, get(m, i, j));
}

static void blocked(struct trm *m, int k)
{
	for (int ii = 0; ii < m->rows; ii += k)
		for (int jj = 0; jj < m->cols; jj += k)
			for (int i = ii; i < imin(ii + k, m->rows); i++)
				for (int j = jj; j < imin(jj + k, m->cols); j++)
					set(m, j, i, get(m, i, j));
}

/* 32x32: 8x8 blocks; each row of the A block goes into eight locals before
 * the eight stores, so the diagonal blocks' shared sets are not fought over
 * in the middle of a row. */
static void diagonal32(struct trm *m)
{
	int32_t row[8];
	for (int ii = 0; ii < 32; ii += 8)
		for (int jj = 0; jj < 32; jj += 8)
			for (int i = ii; i < ii + 8; i++) {
				for (int t = 0; t < 8; t++)
					row[t] = get(m, i, jj + t);
				for (int t = 0; t < 8; t++)
					set(m, jj + t, i, row[t]);
			}
}

/* 64x64: four rows fill the cache, so an 8x8 block of B does not fit. Split
 * it in 4x4 quarters; the top-right quarter of B holds A's top-right quarter
 * until its place (B's bottom-left) is free. */
static void block64(struct trm *m, int ii, int jj)
{
	int32_t row[8], saved[4], column[4];
	/* 1. top half of A by rows: left quarter into place, right quarter
	 *    parked in B's top-right quarter */
	for (int i = ii; i < ii + 4; i++) {
		for (int t = 0; t < 8; t++)
			row[t] = get(m, i, jj + t);
		for (int t = 0; t < 4; t++)
			set(m, jj + t, i, row[t]);
		for (int t = 0; t < 4; t++)
			set(m, jj + t, i + 4, row[t + 4]);
	}
	/* 2. by columns j: the parked values move down to B's bottom-left, and
	 *    A's bottom-left column takes their place (the loads from B count) */
	for (int j = jj; j < jj + 4; j++) {
		for (int t = 0; t < 4; t++)
			saved[t] = getb(m, j, ii + 4 + t);
		for (int t = 0; t < 4; t++)
			column[t] = get(m, ii + 4 + t, j);
		for (int t = 0; t < 4; t++)
			set(m, j, ii + 4 + t, column[t]);
		for (int t = 0; t < 4; t++)
			set(m, j + 4, ii + t, saved[t]);
	}
	/* 3. the bottom-right quarter as usual */
	for (int i = ii + 4; i < ii + 8; i++) {
		for (int t = 0; t < 4; t++)
			row[t] = get(m, i, jj + 4 + t);
		for (int t = 0; t < 4; t++)
			set(m, jj + 4 + t, i, row[t]);
	}
}

static void diagonal(struct trm *m)
{
	if (m->rows == 32 && m->cols == 32) {
		diagonal32(m);
	} else if (m->rows == 64 && m->cols == 64) {
		for (int ii = 0; ii < 64; ii += 8)
			for (int jj = 0; jj < 64; jj += 8)
				block64(m, ii, jj);
	} else {
		blocked(m, 16);
	}
}

int tr_simulate(const struct tr_version *v, int rows, int cols, int s, int E, int b,
		tr_access_fn fn, void *ctx, struct tr_result *out, mt_error *e)
{
	struct trm m;
	struct sim_stats st;
	size_t n;
	int ok = 1;
	if (rows < 1 || cols < 1 || (uint64_t)rows * (uint64_t)cols > TR_MAX_ELEMS)
		return mt_fail(e, "transpose: %dx%d is out of range (at most %u elements)", rows,
			       cols, TR_MAX_ELEMS);
	memset(&m, 0, sizeof m);
	m.c = sim_new(s, E, b, e);
	if (!m.c)
		return -1;
	n = (size_t)rows * (size_t)cols;
	m.a = malloc(n * sizeof(*m.a));
	m.b = malloc(n * sizeof(*m.b));
	if (!m.a || !m.b) {
		free(m.a);
		free(m.b);
		sim_free(m.c);
		return mt_fail(e, "transpose: out of memory for %dx%d", rows, cols);
	}
	for (size_t k = 0; k < n; k++) {
		m.a[k] = (int32_t)k;
		m.b[k] = -1;
	}
	m.rows = rows;
	m.cols = cols;
	m.base_b = tr_base_b(rows, cols);
	m.fn = fn;
	m.ctx = ctx;
	switch (v->kind) {
	case TR_NAIVE:
		naive(&m);
		break;
	case TR_BLOCK:
		blocked(&m, v->block);
		break;
	default:
		diagonal(&m);
		break;
	}
	for (int i = 0; i < rows && ok; i++)
		for (int j = 0; j < cols; j++)
			if (m.b[(size_t)j * (size_t)rows + (size_t)i] != m.a[(size_t)i * (size_t)cols + (size_t)j]) {
				ok = 0;
				break;
			}
	sim_stats(m.c, &st);
	out->accesses = st.accesses;
	out->hits = st.hits;
	out->misses = st.misses;
	out->evictions = st.evictions;
	out->correct = ok;
	free(m.a);
	free(m.b);
	sim_free(m.c);
	return 0;
}

/* ---- the real machine --------------------------------------------------- */

__attribute__((noinline)) void tr_real_naive(const int32_t *a, int32_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			b[j * n + i] = a[i * n + j];
}

__attribute__((noinline)) void tr_real_blocked(const int32_t *a, int32_t *b, size_t n, size_t k)
{
	for (size_t ii = 0; ii < n; ii += k) {
		size_t ie = ii + k < n ? ii + k : n;
		for (size_t jj = 0; jj < n; jj += k) {
			size_t je = jj + k < n ? jj + k : n;
			for (size_t i = ii; i < ie; i++)
				for (size_t j = jj; j < je; j++)
					b[j * n + i] = a[i * n + j];
		}
	}
}

void tr_plan_default(struct tr_plan *p)
{
	static const char *const names[] = { "naive", "block:8", "block:16", "diagonal" };
	memset(p, 0, sizeof *p);
	for (size_t i = 0; i < MT_ARRAY_LEN(names); i++)
		tr_version_parse(names[i], &p->versions[p->nversions++], NULL);
	p->rows[0] = 32, p->cols[0] = 32;
	p->rows[1] = 64, p->cols[1] = 64;
	p->rows[2] = 61, p->cols[2] = 67;
	p->nsizes = 3;
	p->s = 5, p->E = 1, p->b = 5;
	p->real_n = 4096;
	p->real_block = 16;
	p->real_tries = 5;
}

struct real_buf {
	int32_t *a, *b;
};

/* Best of tries timings of one kernel; returns 0 or -1 when cancelled. */
static int time_kernel(job_t *job, const struct tr_plan *p, const struct real_buf *rb, int blocked_v,
		       double *best, double *second, int *correct)
{
	size_t n = p->real_n, cells = n * n;
	*best = *second = 1e300;
	for (int t = 0; t < p->real_tries; t++) {
		uint64_t t0, t1;
		double ns;
		if (job_check(job) == JOB_CANCELLED)
			return -1;
		t0 = mt_now_ns();
		if (blocked_v)
			tr_real_blocked(rb->a, rb->b, n, p->real_block);
		else
			tr_real_naive(rb->a, rb->b, n);
		t1 = mt_now_ns();
		mt_sink_memory(rb->b);
		ns = (double)(t1 - t0) / (double)cells;
		if (ns < *best) {
			*second = *best;
			*best = ns;
		} else if (ns < *second) {
			*second = ns;
		}
	}
	*correct = 1;
	for (size_t i = 0; i < n && *correct; i += 97)
		for (size_t j = 0; j < n; j += 89)
			if (rb->b[j * n + i] != rb->a[i * n + j]) {
				*correct = 0;
				break;
			}
	return 0;
}

int transpose_worker(job_t *job, void *arg, mt_error *e)
{
	const struct tr_plan *p = arg;
	struct job_event ev;
	struct real_buf rb = { NULL, NULL };
	job_set_total(job, (uint64_t)p->nversions * (uint64_t)p->nsizes + (p->real_n ? 2 : 0));
	for (int v = 0; v < p->nversions; v++)
		for (int z = 0; z < p->nsizes; z++) {
			struct tr_result r;
			if (job_check(job) == JOB_CANCELLED)
				return 0;
			if (tr_simulate(&p->versions[v], p->rows[z], p->cols[z], p->s, p->E, p->b,
					NULL, NULL, &r, e) < 0)
				return -1;
			memset(&ev, 0, sizeof ev);
			ev.type = JOB_EV_CELL;
			ev.kind = TR_EV_SIM;
			ev.row = v;
			ev.col = z;
			ev.value = (double)r.misses;
			ev.aux[0] = (double)r.hits;
			ev.aux[1] = (double)r.evictions;
			ev.aux[2] = (double)r.accesses;
			ev.aux[3] = r.correct;
			if (job_emit(job, &ev) < 0)
				return mt_fail(e, "transpose: out of memory");
		}
	if (p->real_n) {
		size_t n = p->real_n, cells = n * n;
		rb.a = malloc(cells * sizeof(*rb.a));
		rb.b = malloc(cells * sizeof(*rb.b));
		if (!rb.a || !rb.b) {
			free(rb.a);
			free(rb.b);
			return mt_fail(e, "transpose: out of memory for two %zux%zu matrices", n, n);
		}
		for (size_t k = 0; k < cells; k++) {
			rb.a[k] = (int32_t)k;
			rb.b[k] = 0; /* touch every page before timing */
		}
		for (int which = 0; which < 2; which++) {
			double best, second;
			int correct;
			if (time_kernel(job, p, &rb, which, &best, &second, &correct) < 0)
				break;
			memset(&ev, 0, sizeof ev);
			ev.type = JOB_EV_CELL;
			ev.kind = TR_EV_REAL;
			ev.row = which;
			ev.value = best;
			ev.spread = second < 1e300 ? (second - best) / best : 0;
			ev.aux[0] = p->real_tries;
			ev.aux[1] = (double)n;
			ev.aux[2] = (double)p->real_block;
			ev.aux[3] = correct;
			if (job_emit(job, &ev) < 0) {
				free(rb.a);
				free(rb.b);
				return mt_fail(e, "transpose: out of memory");
			}
		}
		free(rb.a);
		free(rb.b);
	}
	return 0;
}

int tr_plan_check(const struct tr_plan *p, mt_error *e)
{
	struct sim_cache *c;
	if (p->nversions < 1 || p->nversions > TR_MAX_VERSIONS || p->nsizes < 0 ||
	    p->nsizes > TR_MAX_SIZES)
		return mt_fail(e, "transpose: bad plan");
	c = sim_new(p->s, p->E, p->b, e);
	if (!c)
		return -1;
	sim_free(c);
	if (p->real_n) {
		uint64_t need = (uint64_t)p->real_n * p->real_n * 8, avail = mt_mem_available();
		if (p->real_block < 1)
			return mt_fail(e, "transpose: the real block side must be at least 1");
		if (p->real_tries < 1)
			return mt_fail(e, "transpose: at least one try");
		if (avail && need > avail / 2)
			return mt_fail(e,
				       "transpose: N = %zu needs %llu MB, more than half the memory "
				       "available",
				       p->real_n, (unsigned long long)(need >> 20));
	}
	return 0;
}
