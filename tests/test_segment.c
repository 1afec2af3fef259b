/* Unit tests of the segmentation every level finder uses (base/segment):
 * the median filter, the octave weights, the penalised fit, and the phases
 * of seg_levels() on synthetic curves with known steps. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "base/segment.h"

#define KB 1024ull
#define MB (1024ull * 1024ull)

/* Sizes from lo to hi, per doubling `per` sizes spread evenly (in log). */
static size_t grid(uint64_t lo, uint64_t hi, int per, uint64_t *out)
{
	size_t n = 0;
	for (double s = (double)lo; s <= (double)hi * 1.0001; s *= exp2(1.0 / per))
		out[n++] = (uint64_t)llround(s / 64) * 64;
	return n;
}

/* L1 32K 1.2 ns, L2 1M 4 ns, L3 8M 15 ns, memory 100 ns: vertical steps. */
static double stairs(uint64_t s)
{
	return s <= 32 * KB ? 1.2 : s <= 1 * MB ? 4 : s <= 8 * MB ? 15 : 100;
}

static void smooth_and_octaves(void **state)
{
	const double v[] = { 5, 1, 9, 2, 2, 7 };
	const uint64_t sz[] = { 4 * KB, 8 * KB, 16 * KB, 20 * KB, 24 * KB, 32 * KB };
	double out[6], w[6];
	(void)state;
	seg_smooth(v, 6, out);
	assert_true(out[0] == 5 && out[1] == 5 && out[2] == 2 && out[3] == 2 && out[4] == 2 &&
		    out[5] == 7);
	seg_octaves(sz, 6, w);
	assert_true(fabs(w[0] - 1) < 1e-12);                       /* one-sided at the ends */
	assert_true(fabs(w[1] - 1) < 1e-12);                       /* (log2 16K - log2 4K) / 2 */
	assert_true(fabs(w[5] - log2(32.0 / 24)) < 1e-12);
}

static void fit_splits_where_it_pays(void **state)
{
	const double x[] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	const double w[] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	size_t start[8];
	(void)state;
	/* a step of 1 over 4 + 4 points lowers the error by 2: worth a 0.5 penalty */
	assert_int_equal(seg_fit(x, w, 8, 0.5, start, 8), 2);
	assert_int_equal(start[0], 0);
	assert_int_equal(start[1], 4);
	/* not worth a penalty of 3 */
	assert_int_equal(seg_fit(x, w, 8, 3, start, 8), 1);
	assert_int_equal(seg_fit(x, w, 0, 0.5, start, 8), 0);
}

/* A curve on a grid of sizes and the levels seg_levels reads off it. */
struct curve {
	uint64_t sz[SEG_MAX_POINTS];
	double v[SEG_MAX_POINTS];
	struct seg_level lv[8];
	struct seg_params p;
	size_t n;
};

/* c's sizes from lo to hi, per a doubling, the latency finder's
 * parameters, and each value f(size) (f NULL: the values are the test's). */
static void curve_on(struct curve *c, uint64_t lo, uint64_t hi, int per, double (*f)(uint64_t))
{
	c->n = grid(lo, hi, per, c->sz);
	seg_params_latency(&c->p);
	for (size_t i = 0; f && i < c->n; i++)
		c->v[i] = f(c->sz[i]);
}

/* How many levels seg_levels reads off c (into c->lv). */
static size_t levels(struct curve *c)
{
	return seg_levels(c->sz, c->v, c->n, &c->p, c->lv, 8);
}

/* The size at the edge of c's level k. */
static uint64_t edge(const struct curve *c, int k)
{
	return c->sz[c->lv[k].edge];
}

/* The same staircase read at one size a doubling and at eight: the same
 * levels, the same sizes. */
static void grid_independent(void **state)
{
	static struct curve c;
	(void)state;
	for (int per = 1; per <= 8; per *= 8) {
		curve_on(&c, 4 * KB, 256 * MB, per, stairs);
		assert_int_equal(levels(&c), 4);
		assert_int_equal(edge(&c, 0), 32 * KB);
		assert_int_equal(edge(&c, 1), 1 * MB);
		assert_int_equal(edge(&c, 2), 8 * MB);
		assert_true(c.lv[0].cost == 1.2 && c.lv[1].cost == 4 && c.lv[2].cost == 15 &&
			    c.lv[3].cost == 100);
	}
}

/* L1 32K 1.2 ns, L2 1M 4 ns, then a cache of 1M with the best possible
 * replacement keeping 1M / S of the loads on the way to memory's 100 ns. */
static double rise_to_memory(uint64_t s)
{
	return s <= 32 * KB ? 1.2 : s <= 1 * MB ? 4 : 4 + 96 * (1 - (double)MB / (double)s);
}

/* Between L2 (4 ns up to 1M) and memory (100 ns), a cache of 1M with the
 * best possible replacement keeps 1M / S of the loads: the curve rises
 * over several octaves, and no point of it is a level of its own. An L3
 * (20 ns from 2M to 8M) is one. */
static void transition_is_no_level(void **state)
{
	static struct curve c;
	(void)state;
	curve_on(&c, 4 * KB, 256 * MB, 1, rise_to_memory);
	assert_int_equal(levels(&c), 3);
	/* the curve passes the middle of 4 and ~95 ns (19.5) at 2M (52 ns) */
	assert_int_equal(edge(&c, 1), 1 * MB);
	/* an L3 holding 2M..8M at 20 ns, then the same rise to memory */
	for (size_t i = 0; i < c.n; i++) {
		double s = (double)c.sz[i];
		if (c.sz[i] > 1 * MB)
			c.v[i] = c.sz[i] <= 8 * MB ? 20 : 20 + 80 * (1 - 8.0 * (double)MB / s);
	}
	assert_int_equal(levels(&c), 4);
	assert_int_equal(edge(&c, 1), 1 * MB);
	assert_int_equal(edge(&c, 2), 8 * MB);
	/* transitions kept (for reading small steps): each rising point a level */
	c.p.transitions = 0;
	c.p.min_ratio = 1.2;
	assert_true(levels(&c) > 4);
}

/* 4 ns to 256K, 6 to 8M, then 80: a TLB-like 1.5x step below a cache's. */
static double tlb_step(uint64_t s)
{
	return s <= 256 * KB ? 4 : s <= 8 * MB ? 6 : 80;
}

/* Levels less than min_ratio apart are one; dips and spikes are none. */
static void merge_dips_and_spikes(void **state)
{
	static struct curve c;
	(void)state;
	curve_on(&c, 4 * KB, 64 * MB, 8, tlb_step);
	assert_true(c.p.shallow == 0); /* pages that can step (a TLB's reach): none stays */
	assert_int_equal(levels(&c), 2);
	assert_int_equal(edge(&c, 0), 8 * MB);
	/* where they cannot (huge pages), the 1.5x step flat for octaves on both
	 * sides, at a size a cache can have, is a level */
	c.p.shallow = SEG_SHALLOW;
	assert_int_equal(levels(&c), 3);
	assert_int_equal(edge(&c, 0), 256 * KB);
	/* and not where its sides climb (4 -> 6 over 256K..8M: a ramp) */
	for (size_t i = 0; i < c.n; i++)
		if (c.sz[i] > 256 * KB && c.sz[i] <= 8 * MB)
			c.v[i] = 4 * pow(1.5, log2((double)c.sz[i] / (256.0 * KB)) / 5);
	assert_int_equal(levels(&c), 2);
	curve_on(&c, 4 * KB, 64 * MB, 8, tlb_step);
	c.p.min_ratio = 1.2;
	assert_int_equal(levels(&c), 3);
	assert_int_equal(edge(&c, 0), 256 * KB);
	curve_on(&c, 4 * KB, 64 * MB, 8, stairs);
	c.v[40] = 1.5;             /* a dip in L2 */
	c.v[50] = c.v[51] = 40;    /* a spike two points wide in L2 */
	c.v[0] = 3;                /* the overhead-bound first point */
	assert_int_equal(levels(&c), 4);
	assert_int_equal(c.lv[0].i0, 0);
	assert_int_equal(edge(&c, 0), 32 * KB);
	assert_int_equal(edge(&c, 1), 1 * MB);
}

/* Unmeasured points are skipped: a stride whose small sizes are missing,
 * a run that has not reached the large ones; indices stay the caller's. */
static void unmeasured_points(void **state)
{
	static struct curve c;
	(void)state;
	curve_on(&c, 4 * KB, 64 * MB, 1, NULL);
	for (size_t i = 0; i < c.n; i++)
		c.v[i] = i < 2 || c.sz[i] > 4 * MB ? (double)NAN : stairs(c.sz[i]);
	assert_int_equal(levels(&c), 3);
	assert_int_equal(c.lv[0].i0, 2);
	assert_int_equal(edge(&c, 0), 32 * KB);
	assert_int_equal(c.sz[c.lv[2].i1], 4 * MB);
	c.v[3] = -1; /* not a latency */
	c.v[4] = 0;
	assert_int_equal(levels(&c), 3);
	for (size_t i = 0; i < c.n; i++)
		c.v[i] = NAN;
	c.v[5] = 3;
	assert_int_equal(levels(&c), 0); /* one point: nothing */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(smooth_and_octaves),
		cmocka_unit_test(fit_splits_where_it_pays),
		cmocka_unit_test(grid_independent),
		cmocka_unit_test(transition_is_no_level),
		cmocka_unit_test(merge_dips_and_spikes),
		cmocka_unit_test(unmeasured_points),
	};
	return cmocka_run_group_tests_name("segment", tests, NULL, NULL);
}
