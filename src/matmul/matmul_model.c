/* matmul_model: the six loop orders (and the blocked one) driven through the
 * in-process cache simulator (sim.h), misses split by matrix. The book's
 * formula is matmul_book_estimate() in matmul_orders.c. See matmul.h. */
#include "config.h"

#include "base/i18n.h"

#include "matmul.h"
#include "info/info.h"
#include "sim/sim.h"

#include <string.h>

#define MB (1ull << 20)
#define MALLOC_HEADER 16 /* glibc malloc's chunk header before the pointer it returns */

void matmul_model_bases(size_t n, uint64_t base[3])
{
	uint64_t bytes = (uint64_t)n * n * sizeof(double);
	uint64_t span = (bytes + MB - 1) / MB * MB;
	if (span == 0)
		span = MB;
	base[0] = MB;
	base[1] = base[0] + span;
	base[2] = base[1] + span;
}

void matmul_model_bases_packed(size_t n, uint64_t base[3])
{
	uint64_t bytes = (uint64_t)n * n * sizeof(double);
	base[0] = MB + MALLOC_HEADER;
	base[1] = base[0] + bytes + MALLOC_HEADER;
	base[2] = base[1] + bytes + MALLOC_HEADER;
}

struct tracer {
	struct sim_cache *c;
	uint64_t base[3];
	size_t n;
	uint64_t acc[3], miss[3];
};

static inline void touch(struct tracer *t, int m, size_t row, size_t col, int store)
{
	uint64_t addr = t->base[m] + ((uint64_t)row * t->n + col) * sizeof(double);
	unsigned r = sim_access(t->c, addr, store);
	t->acc[m]++;
	if (r & SIM_MISS)
		t->miss[m]++;
}

enum { A = 0, B = 1, C = 2 };

/* The indices of (outer, middle, inner) for loops named v ("jki": j
 * outer, k middle, i inner: an order's base order's name). */
static void loop_indices(const char *v, size_t o, size_t m, size_t x, size_t *i, size_t *j,
			 size_t *k)
{
	size_t val[3] = { o, m, x }, idx[3] = { 0, 0, 0 }; /* i, j, k */
	for (int p = 0; p < 3; p++)
		idx[v[p] - 'i'] = val[p];
	*i = idx[0];
	*j = idx[1];
	*k = idx[2];
}

/* The accesses order's kernel makes, in order, at outer value o over the
 * middle values [m0, m1) and the inner [x0, x1): class AB loads A and B
 * each iteration and C once per middle value after the partial sum; AC
 * and BC load the register operand per middle value, then per iteration
 * the walked operand and C, and store C. Returns the inner iterations. */
static uint64_t trace_tile(struct tracer *t, int order, size_t o, size_t m0, size_t m1,
			   size_t x0, size_t x1)
{
	const char *v = matmul_order_name(matmul_base_order(order));
	const enum matmul_class cls = matmul_order_class(order);
	size_t i, j, k;
	for (size_t m = m0; m < m1; m++) {
		loop_indices(v, o, m, x0, &i, &j, &k);
		if (cls == MATMUL_AC)
			touch(t, B, k, j, 0);
		else if (cls == MATMUL_BC)
			touch(t, A, i, k, 0);
		for (size_t x = x0; x < x1; x++) {
			loop_indices(v, o, m, x, &i, &j, &k);
			if (cls == MATMUL_AB) {
				touch(t, A, i, k, 0);
				touch(t, B, k, j, 0);
				continue;
			}
			touch(t, cls == MATMUL_AC ? A : B, cls == MATMUL_AC ? i : k, cls == MATMUL_AC ? k : j,
			      0);
			touch(t, C, i, j, 0);
			touch(t, C, i, j, 1);
		}
		if (cls == MATMUL_AB) {
			touch(t, C, i, j, 0);
			touch(t, C, i, j, 1);
		}
	}
	return (uint64_t)(m1 - m0) * (x1 - x0);
}

/* One step (see matmul_steps), as the C kernels make it: of an order
 * without blocks, one (outer, middle) pair over the whole inner loop; of a
 * blocked order, outer value o of a tile pair (middle tile [m0, m1), inner
 * [x0, x1)). Returns inner iterations. */
static uint64_t trace_step(struct tracer *t, int order, size_t bs, uint64_t s)
{
	const size_t n = t->n;
	size_t nb, o, m0, x0;
	uint64_t pair;
	if (!matmul_is_blocked(order))
		return trace_tile(t, order, (size_t)(s / n), (size_t)(s % n), (size_t)(s % n) + 1, 0, n);
	nb = (n + bs - 1) / bs;
	pair = s / n;
	o = (size_t)(s % n);
	m0 = (size_t)(pair / nb) * bs;
	x0 = (size_t)(pair % nb) * bs;
	return trace_tile(t, order, o, m0, m0 + bs < n ? m0 + bs : n, x0, x0 + bs < n ? x0 + bs : n);
}

uint64_t matmul_steps(int order, size_t n, size_t bsize)
{
	if (matmul_is_blocked(order)) {
		size_t nb = matmul_nblocks(n, bsize ? bsize : 1);
		return (uint64_t)nb * nb * n;
	}
	return (uint64_t)n * n;
}

int matmul_simulate(int order, size_t n, size_t bsize, int s, int E, int b,
		    uint64_t max_accesses, struct matmul_sim *out, mt_error *e)
{
	uint64_t base[3];
	matmul_model_bases(n, base);
	return matmul_simulate_at(order, n, bsize, s, E, b, max_accesses, base, out, e);
}

int matmul_simulate_at(int order, size_t n, size_t bsize, int s, int E, int b,
		       uint64_t max_accesses, const uint64_t base[3], struct matmul_sim *out,
		       mt_error *e)
{
	struct tracer t;
	uint64_t steps, st, iters = 0;
	memset(out, 0, sizeof *out);
	memset(&t, 0, sizeof t);
	if (n < 1 || order < 0 || order >= MATMUL_NORDERS)
		return mt_fail(e, _("matmul: bad simulation parameters (n %zu, order %d)"), n, order);
	if (matmul_is_blocked(order) && bsize < 1)
		bsize = 1;
	t.c = sim_new(s, E, b, e);
	if (!t.c)
		return -1;
	t.n = n;
	memcpy(t.base, base, sizeof t.base);
	steps = matmul_steps(order, n, bsize);
	for (st = 0; st < steps; st++) {
		iters += trace_step(&t, order, bsize, st);
		if (max_accesses && t.acc[0] + t.acc[1] + t.acc[2] >= max_accesses) {
			st++;
			break;
		}
	}
	sim_free(t.c);
	for (int m = 0; m < 3; m++) {
		out->acc[m] = t.acc[m];
		out->miss[m] = t.miss[m];
		out->accesses += t.acc[m];
		out->misses += t.miss[m];
		out->per_iter_m[m] = iters ? (double)t.miss[m] / (double)iters : 0;
	}
	out->iterations = iters;
	out->steps_done = st;
	out->steps = steps;
	out->per_iter = iters ? (double)out->misses / (double)iters : 0;
	return 0;
}

static int log2_exact(uint64_t v)
{
	int k = 0;
	if (v == 0 || (v & (v - 1)))
		return -1;
	while ((1ull << k) < v)
		k++;
	return k;
}

/* The first level-1 data (or unified) cache of src that gives size, ways
 * and line, or NULL. */
static const struct cache_level *full_l1d(const struct info_source *src)
{
	for (int l = 0; src && l < src->nlevels; l++) {
		const struct cache_level *lv = &src->lv[l];
		if (lv->level == 1 && strcmp(lv->type, "instruction") != 0 && lv->line && lv->size &&
		    lv->ways)
			return lv;
	}
	return NULL;
}

void matmul_l1d(const struct info *inf, struct matmul_l1d *d)
{
	const char *from = "";
	const struct cache_level *lv = NULL;
	int sets;
	memset(d, 0, sizeof *d);
	d->line = 64;
	d->s = -1;
	if (!inf || !info_best_size(inf, 1, &from))
		return;
	lv = full_l1d(info_find_source(inf, from));
	for (int i = 0; !lv && i < inf->nsources; i++) { /* the best source lacks ways or line */
		lv = full_l1d(&inf->src[i]);
		from = inf->src[i].name;
	}
	if (!lv)
		return;
	sets = lv->sets ? lv->sets : (int)(lv->size / ((uint64_t)lv->ways * lv->line));
	d->line = lv->line;
	d->ways = lv->ways;
	d->sets = sets;
	d->size = lv->size;
	mt_strlcpy(d->from, from, sizeof d->from);
	d->s = log2_exact((uint64_t)sets);
	d->b = log2_exact((uint64_t)lv->line);
	d->E = lv->ways;
	if (d->b < 0)
		d->s = -1;
}
