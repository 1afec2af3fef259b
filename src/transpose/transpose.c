/* transpose: the simulated and the real transpose of seed 003 (see
 * transpose.h). The simulated versions follow the seed's transpose.zig
 * access for access: A is read with get(), B written with set() and, in the
 * 64x64 trick, read back with getb(); every call is one cache access. */
#include "config.h"

#include "base/i18n.h"

#include "transpose.h"
#include "machine/machine.h"
#include "os/barrier.h"
#include "os/clock.h"
#include "os/sysinfo.h"
#include "sim/sim.h"
#include "sim/trace.h"

#include <stdlib.h>
#include <string.h>

/* ---- parsing ------------------------------------------------------------ */

const int transpose_sweep_sides[TRANSPOSE_SWEEP_N] = { 4, 8, 12, 16, 20, 24 };
const int transpose_real_sweep_sides[TRANSPOSE_REAL_SWEEP_N] = { 4, 8, 16, 32, 64, 128 };

/* "K" or "RxC" after "block:" / "buffer:" into v->br, v->bc. */
static int parse_tile(const char *s, struct transpose_version *v)
{
	char r[16];
	const char *x = strchr(s, 'x');
	size_t n = x ? (size_t)(x - s) : 0;
	if (!x)
		return mt_parse_int(s, 1, TRANSPOSE_MAX_BLOCK, &v->br) < 0 ? -1 : (v->bc = v->br, 0);
	if (n == 0 || n >= sizeof r)
		return -1;
	memcpy(r, s, n);
	r[n] = '\0';
	if (mt_parse_int(r, 1, TRANSPOSE_MAX_BLOCK, &v->br) < 0 ||
	    mt_parse_int(x + 1, 1, TRANSPOSE_MAX_BLOCK, &v->bc) < 0)
		return -1;
	return 0;
}

int transpose_version_parse(const char *s, struct transpose_version *v, mt_error *e)
{
	memset(v, 0, sizeof *v);
	if (strcmp(s, "naive") == 0) {
		v->method = TRANSPOSE_NAIVE;
		return 0;
	}
	if (strcmp(s, "diagonal") == 0) {
		v->method = TRANSPOSE_DIAGONAL;
		return 0;
	}
	if (strncmp(s, "block:", 6) == 0) {
		v->method = TRANSPOSE_BLOCK;
		if (parse_tile(s + 6, v) < 0)
			return mt_fail(e, _("version '%s': a block is K or RxC, each 1..%d"), s,
				       TRANSPOSE_MAX_BLOCK);
		return 0;
	}
	if (strncmp(s, "buffer:", 7) == 0) {
		v->method = TRANSPOSE_BUFFER;
		if (parse_tile(s + 7, v) < 0 || v->bc > TRANSPOSE_MAX_BUFFER)
			return mt_fail(e, _("version '%s': a buffer block is K or RxC, rows 1..%d, "
					  "columns 1..%d"), s, TRANSPOSE_MAX_BLOCK, TRANSPOSE_MAX_BUFFER);
		return 0;
	}
	return mt_fail(e, _("version '%s': expected naive, block:K, block:RxC, buffer:K or diagonal"),
		       s);
}

const char *transpose_version_name(const struct transpose_version *v, char *buf, size_t len)
{
	const char *kind = v->method == TRANSPOSE_BUFFER ? "buffer" : "block";
	switch (v->method) {
	case TRANSPOSE_NAIVE:
		mt_strlcpy(buf, "naive", len);
		break;
	case TRANSPOSE_BLOCK:
	case TRANSPOSE_BUFFER:
		if (v->br == v->bc)
			mt_snprintf(buf, len, "%s:%d", kind, v->br);
		else
			mt_snprintf(buf, len, "%s:%dx%d", kind, v->br, v->bc);
		break;
	default:
		mt_strlcpy(buf, "diagonal", len);
		break;
	}
	return buf;
}

int transpose_size_parse(const char *s, int *rows, int *cols, mt_error *e)
{
	char r[16];
	const char *x = strchr(s, 'x');
	size_t n;
	if (!x)
		x = strchr(s, 'X');
	if (!x || (n = (size_t)(x - s)) == 0 || n >= sizeof r)
		return mt_fail(e, _("size '%s': expected ROWSxCOLS such as 61x67"), s);
	memcpy(r, s, n);
	r[n] = 0;
	if (mt_parse_int(r, 1, 8192, rows) < 0 || mt_parse_int(x + 1, 1, 8192, cols) < 0)
		return mt_fail(e, _("size '%s': rows and columns must be 1..8192"), s);
	if ((uint64_t)*rows * (uint64_t)*cols > TRANSPOSE_MAX_ELEMS)
		return mt_fail(e, _("size '%s': at most %u elements"), s, TRANSPOSE_MAX_ELEMS);
	return 0;
}

uint64_t transpose_base_b(int rows, int cols)
{
	uint64_t bytes = (uint64_t)rows * (uint64_t)cols * 4, span = 0x40000;
	if (bytes <= span)
		return TRANSPOSE_BASE_B;
	return TRANSPOSE_BASE_A + (bytes + span - 1) / span * span;
}

uint64_t transpose_addr(int matrix, int row, int col, int rows, int cols)
{
	if (matrix == 0)
		return TRANSPOSE_BASE_A + ((uint64_t)row * (uint64_t)cols + (uint64_t)col) * 4;
	return transpose_base_b(rows, cols) + ((uint64_t)row * (uint64_t)rows + (uint64_t)col) * 4;
}

uint64_t transpose_set_of(int matrix, int row, int col, int rows, int cols, int s, int b)
{
	return (transpose_addr(matrix, row, col, rows, cols) >> b) & ((1ull << s) - 1);
}

int transpose_cachelab_limit(int rows, int cols)
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
	transpose_access_fn fn;
	void *ctx;
};

static inline int32_t get(struct trm *m, int i, int j)
{
	unsigned r = sim_access(m->c, TRANSPOSE_BASE_A + ((uint64_t)i * (uint64_t)m->cols + (uint64_t)j) * 4, 0);
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

/* Blocks of br rows by bc columns of A. */
static void blocked(struct trm *m, int br, int bc)
{
	for (int ii = 0; ii < m->rows; ii += br)
		for (int jj = 0; jj < m->cols; jj += bc)
			for (int i = ii; i < imin(ii + br, m->rows); i++)
				for (int j = jj; j < imin(jj + bc, m->cols); j++)
					set(m, j, i, get(m, i, j));
}

/* The same blocks, each block row of A read into locals before its stores
 * (diagonal32's trick for any block: buffer:8 on 32x32 is diagonal32). */
static void buffered(struct trm *m, int br, int bc)
{
	int32_t row[TRANSPOSE_MAX_BUFFER];
	for (int ii = 0; ii < m->rows; ii += br)
		for (int jj = 0; jj < m->cols; jj += bc)
			for (int i = ii; i < imin(ii + br, m->rows); i++) {
				int w = imin(jj + bc, m->cols) - jj;
				for (int t = 0; t < w; t++)
					row[t] = get(m, i, jj + t);
				for (int t = 0; t < w; t++)
					set(m, jj + t, i, row[t]);
			}
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
		blocked(m, 16, 16);
	}
}

int transpose_simulate(const struct transpose_version *v, int rows, int cols, int s, int E, int b,
		transpose_access_fn fn, void *ctx, struct transpose_counts *out, mt_error *e)
{
	struct trm m;
	struct sim_stats st;
	size_t n;
	int ok = 1;
	if (rows < 1 || cols < 1 || (uint64_t)rows * (uint64_t)cols > TRANSPOSE_MAX_ELEMS)
		return mt_fail(e, _("transpose: %dx%d is out of range (at most %u elements)"), rows,
			       cols, TRANSPOSE_MAX_ELEMS);
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
		return mt_fail(e, _("transpose: out of memory for %dx%d"), rows, cols);
	}
	for (size_t k = 0; k < n; k++) {
		m.a[k] = (int32_t)k;
		m.b[k] = -1;
	}
	m.rows = rows;
	m.cols = cols;
	m.base_b = transpose_base_b(rows, cols);
	m.fn = fn;
	m.ctx = ctx;
	switch (v->method) {
	case TRANSPOSE_NAIVE:
		naive(&m);
		break;
	case TRANSPOSE_BLOCK:
		blocked(&m, v->br, v->bc);
		break;
	case TRANSPOSE_BUFFER:
		buffered(&m, v->br, v->bc);
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

/* ---- traces and sets ---------------------------------------------------- */

struct trace_ctx {
	struct trace_writer *w;
	int rows, cols;
};

static void trace_one(void *ctx, int matrix, int row, int col, int is_store, unsigned flags)
{
	struct trace_ctx *t = ctx;
	(void)flags;
	trace_writer_add(t->w, is_store ? 'S' : 'L', transpose_addr(matrix, row, col, t->rows, t->cols),
			 sizeof(int32_t));
}

int transpose_write_trace(const struct transpose_version *v, int rows, int cols, const char *path, mt_error *e)
{
	struct trace_ctx t = { NULL, rows, cols };
	struct transpose_counts r;
	if (!(t.w = trace_writer_open(path, e)))
		return -1;
	/* the accesses do not depend on the cache: any geometry replays them */
	if (transpose_simulate(v, rows, cols, 0, 1, 0, trace_one, &t, &r, e) < 0) {
		trace_writer_abort(t.w);
		return -1;
	}
	return trace_writer_commit(t.w, e);
}

const char *transpose_trace_path(const char *dir, const struct transpose_version *v, int rows, int cols,
			  char *buf, size_t len)
{
	char name[32];
	transpose_version_name(v, name, sizeof name);
	for (char *c = name; *c; c++)
		if (*c == ':')
			*c = '-';
	if (mt_snprintf(buf, len, "%s/transpose-%s-%dx%d.trace", dir, name, rows, cols) < 0)
		return NULL;
	return buf;
}

struct sets_ctx {
	uint64_t *misses;
	int rows, cols, s, b;
};

static void count_set(void *ctx, int matrix, int row, int col, int is_store, unsigned flags)
{
	struct sets_ctx *c = ctx;
	(void)is_store;
	if (flags & SIM_MISS)
		c->misses[transpose_set_of(matrix, row, col, c->rows, c->cols, c->s, c->b)]++;
}

int transpose_misses_by_set(const struct transpose_version *v, int rows, int cols, int s, int E, int b,
		     uint64_t *misses, mt_error *e)
{
	struct sets_ctx c = { misses, rows, cols, s, b };
	struct transpose_counts r;
	if (s < 0 || s > TRANSPOSE_SETS_MAX_S)
		return mt_fail(e, _("transpose: misses by set for up to 2^%d sets, not 2^%d"),
			       TRANSPOSE_SETS_MAX_S, s);
	memset(misses, 0, ((size_t)1 << s) * sizeof *misses);
	return transpose_simulate(v, rows, cols, s, E, b, count_set, &c, &r, e);
}

/* ---- the real machine --------------------------------------------------- */

MT_KERNEL void transpose_real_naive(const int32_t *a, int32_t *b, size_t n, size_t i0,
					     size_t i1)
{
	for (size_t i = i0; i < i1; i++)
		for (size_t j = 0; j < n; j++)
			b[j * n + i] = a[i * n + j];
}

MT_KERNEL void transpose_real_blocked(const int32_t *a, int32_t *b, size_t n, size_t i0,
					       size_t i1, size_t br, size_t bc)
{
	for (size_t ii = i0; ii < i1; ii += br) {
		size_t ie = ii + br < i1 ? ii + br : i1;
		for (size_t jj = 0; jj < n; jj += bc) {
			size_t je = jj + bc < n ? jj + bc : n;
			for (size_t i = ii; i < ie; i++)
				for (size_t j = jj; j < je; j++)
					b[j * n + i] = a[i * n + j];
		}
	}
}

MT_KERNEL void transpose_real_buffered(const int32_t *a, int32_t *b, size_t n, size_t i0,
						size_t i1, size_t br, size_t bc)
{
	int32_t row[TRANSPOSE_MAX_BUFFER];
	if (bc > TRANSPOSE_MAX_BUFFER)
		bc = TRANSPOSE_MAX_BUFFER;
	for (size_t ii = i0; ii < i1; ii += br) {
		size_t ie = ii + br < i1 ? ii + br : i1;
		for (size_t jj = 0; jj < n; jj += bc) {
			size_t w = (jj + bc < n ? jj + bc : n) - jj;
			for (size_t i = ii; i < ie; i++) {
				memcpy(row, a + i * n + jj, w * sizeof *row);
				mt_sink_memory(row); /* the row really goes through the locals */
				for (size_t t = 0; t < w; t++)
					b[(jj + t) * n + i] = row[t];
			}
		}
	}
}

void transpose_real_run(const struct transpose_version *v, const int32_t *a, int32_t *b, size_t n, size_t i0,
		 size_t i1)
{
	switch (v->method) {
	case TRANSPOSE_BLOCK:
		transpose_real_blocked(a, b, n, i0, i1, (size_t)v->br, (size_t)v->bc);
		break;
	case TRANSPOSE_BUFFER:
		transpose_real_buffered(a, b, n, i0, i1, (size_t)v->br, (size_t)v->bc);
		break;
	default:
		transpose_real_naive(a, b, n, i0, i1);
		break;
	}
}

size_t transpose_real_band(const struct transpose_version *v)
{
	size_t br = v->method == TRANSPOSE_BLOCK || v->method == TRANSPOSE_BUFFER ? (size_t)(v->br > 0 ? v->br : 1) : 1;
	return (TRANSPOSE_BAND_ROWS + br - 1) / br * br;
}

void transpose_plan_default(struct transpose_plan *p)
{
	static const char *const names[] = { "naive", "block:8", "block:16", "diagonal" };
	memset(p, 0, sizeof *p);
	for (size_t i = 0; i < MT_ARRAY_LEN(names); i++)
		transpose_version_parse(names[i], &p->versions[p->nversions++], NULL);
	p->rows[0] = 32, p->cols[0] = 32;
	p->rows[1] = 64, p->cols[1] = 64;
	p->rows[2] = 61, p->cols[2] = 67;
	p->nsizes = 3;
	p->s = 5, p->E = 1, p->b = 5;
	p->real_n = 4096;
	transpose_version_parse("naive", &p->real[0], NULL);
	transpose_version_parse("block:16", &p->real[1], NULL);
	p->nreal = 2;
	p->real_tries = 5;
}

void transpose_plan_real_sweep(struct transpose_plan *p)
{
	p->nreal = 0;
	p->real[p->nreal++].method = TRANSPOSE_NAIVE;
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < TRANSPOSE_REAL_SWEEP_N; i++) {
			struct transpose_version *v = &p->real[p->nreal++];
			v->method = k ? TRANSPOSE_BUFFER : TRANSPOSE_BLOCK;
			v->br = v->bc = transpose_real_sweep_sides[i];
		}
}

struct real_buf {
	int32_t *a, *b;
};

/* Whether b is a^T, on a sample of elements. */
static int real_correct(const struct real_buf *rb, size_t n)
{
	for (size_t i = 0; i < n; i += 97)
		for (size_t j = 0; j < n; j += 89)
			if (rb->b[j * n + i] != rb->a[i * n + j])
				return 0;
	return 1;
}

/* One run of version v over all n rows, a band of rows at a time with the
 * job checked between bands (a band takes a few ms; a whole run of naive
 * at 4096 half a second or more, too long for q to wait on). Returns 0, 1
 * when a pause fell inside (a timed run is spoiled), -1 when cancelled. */
static int real_run_checked(job_t *job, const struct transpose_version *v, const struct real_buf *rb,
			    size_t n)
{
	size_t band = transpose_real_band(v);
	int resumed = 0;
	for (size_t i0 = 0; i0 < n; i0 += band) {
		int chk = job_check(job);
		if (chk == JOB_CANCELLED)
			return -1;
		resumed |= chk == JOB_RESUMED;
		transpose_real_run(v, rb->a, rb->b, n, i0, i0 + band < n ? i0 + band : n);
	}
	return resumed;
}

/* Version v: one untimed run (warm caches and TLB: no verdict rests on a
 * cold first try), then the best and second best of p->real_tries.
 * Returns 0, or -1 when cancelled. */
static int time_kernel(job_t *job, const struct transpose_plan *p, const struct real_buf *rb,
		       const struct transpose_version *v, double *best, double *second, int *correct)
{
	size_t n = p->real_n, cells = n * n;
	*best = *second = 1e300;
	for (size_t k = 0; k < cells; k++)
		rb->b[k] = -1; /* what the kernel must overwrite */
	if (real_run_checked(job, v, rb, n) < 0)
		return -1;
	mt_sink_memory(rb->b);
	for (int t = 0; t < p->real_tries; t++) {
		uint64_t t0, t1;
		double ns;
		int rc;
		t0 = mt_now_ns();
		rc = real_run_checked(job, v, rb, n);
		t1 = mt_now_ns();
		if (rc < 0)
			return -1;
		if (rc > 0) { /* paused inside: this try again */
			t--;
			continue;
		}
		mt_sink_memory(rb->b);
		ns = (double)(t1 - t0) / (double)cells;
		if (ns < *best) {
			*second = *best;
			*best = ns;
		} else if (ns < *second) {
			*second = ns;
		}
	}
	*correct = real_correct(rb, n);
	return 0;
}

/* The simulated cells, version by version, size by size, each trace
 * written when asked. Returns 0, 1 when cancelled, -1 with e. */
static int run_simulated(job_t *job, const struct transpose_plan *p, mt_error *e)
{
	for (int v = 0; v < p->nversions; v++)
		for (int z = 0; z < p->nsizes; z++) {
			struct job_event ev;
			struct transpose_counts r;
			char path[4096];
			if (job_check(job) == JOB_CANCELLED)
				return 1;
			if (transpose_simulate(&p->versions[v], p->rows[z], p->cols[z], p->s, p->E, p->b,
					NULL, NULL, &r, e) < 0)
				return -1;
			if (p->trace_dir && !transpose_trace_path(p->trace_dir, &p->versions[v], p->rows[z],
							   p->cols[z], path, sizeof path))
				return mt_fail(e, _("%s: path too long"), p->trace_dir);
			if (p->trace_dir &&
			    transpose_write_trace(&p->versions[v], p->rows[z], p->cols[z], path, e) < 0)
				return -1;
			job_cell(&ev, TRANSPOSE_EV_SIM, v, z, (double)r.misses, 0);
			JOB_PAYLOAD_PUT(&ev, struct transpose_ev_sim,
					&((struct transpose_ev_sim){ .hits = r.hits,
							      .evictions = r.evictions,
							      .accesses = r.accesses,
							      .correct = r.correct }));
			if (job_emit(job, &ev) < 0)
				return mt_fail(e, _("transpose: out of memory"));
		}
	return 0;
}

/* The real versions on N x N: each one's cell. Returns 0 (also when
 * cancelled), -1 with e. */
static int run_real(job_t *job, const struct transpose_plan *p, mt_error *e)
{
	size_t n = p->real_n, cells = n * n;
	struct real_buf rb = { malloc(cells * sizeof(int32_t)), malloc(cells * sizeof(int32_t)) };
	int rc = 0;
	if (!rb.a || !rb.b) {
		rc = mt_fail(e, _("transpose: out of memory for two %zux%zu matrices"), n, n);
		goto out;
	}
	for (size_t k = 0; k < cells; k++)
		rb.a[k] = (int32_t)k;
	for (int i = 0; i < p->nreal; i++) {
		struct job_event ev;
		double best, second;
		int correct;
		if (time_kernel(job, p, &rb, &p->real[i], &best, &second, &correct) < 0)
			break;
		job_cell(&ev, TRANSPOSE_EV_REAL, i, 0, best, second < 1e300 ? (second - best) / best : 0);
		JOB_PAYLOAD_PUT(&ev, struct transpose_ev_real,
				&((struct transpose_ev_real){ .tries = p->real_tries,
						       .n = n,
						       .version = p->real[i],
						       .correct = correct }));
		if (job_emit(job, &ev) < 0) {
			rc = mt_fail(e, _("transpose: out of memory"));
			break;
		}
	}
out:
	free(rb.a);
	free(rb.b);
	return rc;
}

int transpose_worker(job_t *job, void *arg, mt_error *e)
{
	const struct transpose_plan *p = arg;
	int rc;
	job_set_total(job, (uint64_t)p->nversions * (uint64_t)p->nsizes +
				   (p->real_n ? (uint64_t)p->nreal : 0));
	rc = run_simulated(job, p, e);
	if (rc)
		return rc < 0 ? -1 : 0;
	return p->real_n ? run_real(job, p, e) : 0;
}

int transpose_plan_check(const struct transpose_plan *p, mt_error *e)
{
	struct sim_cache *c;
	if (p->nversions < 0 || p->nversions > TRANSPOSE_MAX_VERSIONS || p->nsizes < 0 ||
	    p->nsizes > TRANSPOSE_MAX_SIZES || p->nreal < 0 || p->nreal > TRANSPOSE_MAX_REAL)
		return mt_fail(e, _("transpose: bad plan"));
	c = sim_new(p->s, p->E, p->b, e);
	if (!c)
		return -1;
	sim_free(c);
	if (p->real_n) {
		struct machine_budget b;
		uint64_t need = (uint64_t)p->real_n * p->real_n * 8, avail;
		machine_mem_budget(machine_this(), &b);
		avail = b.bytes;
		for (int i = 0; i < p->nreal; i++)
			if (p->real[i].method == TRANSPOSE_DIAGONAL)
				return mt_fail(e, _("transpose: diagonal is a trick for the simulated "
						  "cache; time naive, block:K or buffer:K"));
		if (p->real_tries < 1)
			return mt_fail(e, _("transpose: at least one try"));
		if (avail && need > avail / 2)
			return mt_fail(e, _("transpose: N = %zu needs %llu MB, more than half of "
					  "what a run may take (%s)"),
				       p->real_n, (unsigned long long)(need >> 20), b.who);
	}
	return 0;
}
