/* matmul_model: the six loop orders (and the blocked one) driven through the
 * in-process cache simulator (sim.h), misses split by matrix. The book's
 * formula is matmul_book_estimate() in matmul.c. See matmul.h. */
#include "config.h"

#include "matmul.h"
#include "info/info.h"
#include "sim/sim.h"

#include <string.h>

#define MB (1ull << 20)

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

/* One step (see matmul_steps): the accesses the C kernels make, in the order
 * the seed's traced kernels make them. Returns inner iterations. */
static uint64_t trace_step(struct tracer *t, int order, size_t bs, uint64_t s)
{
	const size_t n = t->n;
	if (order == MATMUL_BLOCKED) {
		size_t nb = (n + bs - 1) / bs;
		uint64_t pair = s / n;
		size_t i = (size_t)(s % n);
		size_t kk = (size_t)(pair / nb) * bs, jj = (size_t)(pair % nb) * bs;
		size_t k_end = kk + bs < n ? kk + bs : n, j_end = jj + bs < n ? jj + bs : n;
		for (size_t k = kk; k < k_end; k++) {
			touch(t, A, i, k, 0);
			for (size_t j = jj; j < j_end; j++) {
				touch(t, B, k, j, 0);
				touch(t, C, i, j, 0);
				touch(t, C, i, j, 1);
			}
		}
		return (uint64_t)(k_end - kk) * (j_end - jj);
	}
	{
		size_t o = (size_t)(s / n), m = (size_t)(s % n);
		switch (order) {
		case MATMUL_IJK:
		case MATMUL_JIK: {
			size_t i = order == MATMUL_IJK ? o : m, j = order == MATMUL_IJK ? m : o;
			for (size_t k = 0; k < n; k++) {
				touch(t, A, i, k, 0);
				touch(t, B, k, j, 0);
			}
			touch(t, C, i, j, 0);
			touch(t, C, i, j, 1);
			break;
		}
		case MATMUL_JKI:
		case MATMUL_KJI: {
			size_t j = order == MATMUL_JKI ? o : m, k = order == MATMUL_JKI ? m : o;
			touch(t, B, k, j, 0);
			for (size_t i = 0; i < n; i++) {
				touch(t, A, i, k, 0);
				touch(t, C, i, j, 0);
				touch(t, C, i, j, 1);
			}
			break;
		}
		default: {
			size_t k = order == MATMUL_KIJ ? o : m, i = order == MATMUL_KIJ ? m : o;
			touch(t, A, i, k, 0);
			for (size_t j = 0; j < n; j++) {
				touch(t, B, k, j, 0);
				touch(t, C, i, j, 0);
				touch(t, C, i, j, 1);
			}
			break;
		}
		}
	}
	return n;
}

uint64_t matmul_steps(int order, size_t n, size_t bsize)
{
	if (order == MATMUL_BLOCKED) {
		size_t nb = matmul_nblocks(n, bsize ? bsize : 1);
		return (uint64_t)nb * nb * n;
	}
	return (uint64_t)n * n;
}

int matmul_simulate(int order, size_t n, size_t bsize, int s, int E, int b,
		    uint64_t max_accesses, struct matmul_sim *out, mt_error *e)
{
	struct tracer t;
	uint64_t steps, st, iters = 0;
	memset(out, 0, sizeof *out);
	memset(&t, 0, sizeof t);
	if (n < 1 || order < 0 || order >= MATMUL_NORDERS)
		return mt_fail(e, "matmul: bad simulation parameters (n %zu, order %d)", n, order);
	if (order == MATMUL_BLOCKED && bsize < 1)
		bsize = 1;
	t.c = sim_new(s, E, b, e);
	if (!t.c)
		return -1;
	t.n = n;
	matmul_model_bases(n, t.base);
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
