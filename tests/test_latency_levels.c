/* Unit tests of the latency lab's level finder on synthetic curves: the
 * segmentation (a clean curve, a noisy outlier), the levels, the TLB, the
 * way size and the pages inferred (three levels, outliers, a thin or
 * inconsistent curve, the two page sizes paired and their walks), and a
 * synthetic run's result through its JSON and back. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latency/latency.h"
#include "testlib.h"

#define KB 1024ull
#define MB (1024ull * 1024ull)

static const unsigned strides6[] = { 128, 256, 512, 1024, 2048, 4096 };

/* ---- synthetic curves --------------------------------------------------- */

#define GHZ 2.5

/* Curves in cycles (cyc, rnd) and the same in ns (what the finder reads). */
struct synth {
	uint64_t sizes[LATENCY_MAX_SIZES];
	size_t n;
	double cyc[LATENCY_MAX_STRIDES][LATENCY_MAX_SIZES];
	double rnd[LATENCY_MAX_SIZES];
	double ns[LATENCY_MAX_STRIDES][LATENCY_MAX_SIZES];
	double rnd_ns[LATENCY_MAX_SIZES];
	double small[LATENCY_MAX_SIZES]; /* the random chase on 4 KB pages (synth_pages) */
	const double *rows[LATENCY_MAX_STRIDES];
	struct latency_curves c;
};

static void synth_init(struct synth *s, uint64_t max, int with_random)
{
	memset(s, 0, sizeof *s);
	s->n = latency_sizes(4 * KB, max, s->sizes, LATENCY_MAX_SIZES);
	for (size_t k = 0; k < 6; k++)
		s->rows[k] = s->ns[k];
	s->c.sizes = s->sizes;
	s->c.nsizes = s->n;
	s->c.strides = strides6;
	s->c.nstrides = 6;
	s->c.ns = s->rows;
	s->c.random = with_random ? s->rnd_ns : NULL;
	s->c.huge = LATENCY_HUGE_OFF;
	s->c.ghz = GHZ;
}

/* The cycles as ns (call after filling cyc and rnd). */
static void synth_ns(struct synth *s)
{
	for (size_t i = 0; i < LATENCY_MAX_SIZES; i++) {
		for (size_t k = 0; k < 6; k++)
			s->ns[k][i] = s->cyc[k][i] / GHZ;
		s->rnd_ns[i] = s->rnd[i] / GHZ;
	}
}

static size_t idx_of(const struct synth *s, uint64_t size)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->sizes[i] == size)
			return i;
	fail_msg("size %llu not in the sequence", (unsigned long long)size);
	return 0;
}

/* L1 32K 4 cycles, L2 512K 12, L3 8M 40, memory 200: vertical steps. */
static double three(uint64_t size)
{
	if (size <= 32 * KB)
		return 4;
	if (size <= 512 * KB)
		return 12;
	if (size <= 8 * MB)
		return 40;
	return 200;
}

static void fill_three(struct synth *s)
{
	for (size_t i = 0; i < s->n; i++) {
		for (size_t k = 0; k < 6; k++)
			s->cyc[k][i] = three(s->sizes[i]);
		s->rnd[i] = three(s->sizes[i]);
	}
	synth_ns(s);
}

/* s: the three-level machine of fill_three over 4K..64M, the random chase
 * too. */
static void synth_three(struct synth *s)
{
	synth_init(s, 64 * MB, 1);
	fill_three(s);
}

static void check_level(const struct latency_level *l, int level, uint64_t size, double cycles,
			uint64_t wmin, uint64_t wmax)
{
	assert_int_equal(l->tlb, 0);
	assert_int_equal(l->level, level);
	assert_int_equal(l->size, size);
	assert_true(fabs(l->cycles - cycles) < 1e-9);
	assert_true(fabs(l->ns - cycles / GHZ) < 1e-9);
	assert_int_equal(l->way_min, wmin);
	assert_int_equal(l->way_max, wmax);
}

/* fill_three's levels as latency_detect_curves must read them from s (into
 * lv): three, L1 32K at 4 cycles with a way of 4K (8 ways), L2 512K at 12,
 * L3 8M at 40. */
static void check_three_levels(const struct synth *s, struct latency_levels *lv)
{
	assert_int_equal(latency_detect_curves(&s->c, lv), 3);
	check_level(&lv->lv[0], 1, 32 * KB, 4, 4 * KB, 4 * KB);
	check_level(&lv->lv[1], 2, 512 * KB, 12, 0, 0);
	check_level(&lv->lv[2], 3, 8 * MB, 40, 0, 0);
}

/* fill_three's plateaus as the segmenter must find them in s's first
 * curve (into p): four, L1 from the first point to 32K, L2 from 36K to
 * 512K, L3 to 8M, then memory (levels 4, 12, 40 and 200 cycles). */
static void check_three_plateaus(const struct synth *s, struct latency_plateau *p)
{
	assert_int_equal(latency_segment(s->sizes, s->cyc[0], s->n, p, 16), 4);
	assert_int_equal(p[0].i0, 0);
	assert_int_equal(p[0].i1, idx_of(s, 32 * KB));
	assert_int_equal(p[1].i0, idx_of(s, 36 * KB));
	assert_int_equal(p[1].i1, idx_of(s, 512 * KB));
	assert_int_equal(p[2].i1, idx_of(s, 8 * MB));
	assert_true(p[0].level == 4 && p[1].level == 12 && p[2].level == 40 && p[3].level == 200);
}

static void segment_clean_curve(void **state)
{
	struct synth s;
	struct latency_plateau p[16];
	size_t np;
	(void)state;
	synth_three(&s);
	check_three_plateaus(&s, p);
	assert_int_equal(p[3].i0, idx_of(&s, 9 * MB));
	assert_int_equal(p[3].i1, s.n - 1);
	/* levels less than 2x apart are one: 12 then 13 */
	for (size_t i = idx_of(&s, 256 * KB); i <= idx_of(&s, 512 * KB); i++)
		s.cyc[1][i] = 13;
	np = latency_segment(s.sizes, s.cyc[1], s.n, p, 16);
	assert_int_equal(np, 4);
	assert_int_equal(p[1].i1, idx_of(&s, 512 * KB));
	/* a partial curve: what has been measured so far */
	for (size_t i = idx_of(&s, 1 * MB); i < s.n; i++)
		s.cyc[2][i] = NAN;
	np = latency_segment(s.sizes, s.cyc[2], s.n, p, 16);
	assert_int_equal(np, 3);
	assert_int_equal(p[2].i1, idx_of(&s, 1 * MB) - 1);
	/* too short to hold a step */
	assert_int_equal(latency_segment(s.sizes, s.cyc[0], 1, p, 16), 0);
}

static void segment_noisy_outlier(void **state)
{
	struct synth s;
	struct latency_plateau p[16];
	(void)state;
	synth_three(&s);
	s.cyc[0][0] = 9;                          /* the overhead-bound first point */
	s.cyc[0][idx_of(&s, 16 * KB)] = 11;       /* one spike in L1 */
	s.cyc[0][idx_of(&s, 160 * KB)] = 30;      /* a spike two points wide in L2 */
	s.cyc[0][idx_of(&s, 176 * KB)] = 25;
	s.cyc[0][idx_of(&s, 2 * MB)] = 20;        /* a dip in L3 */
	check_three_plateaus(&s, p); /* the first point is no level of its own */
}

static void detect_three_levels(void **state)
{
	struct synth s;
	struct latency_levels lv;
	char line[256];
	(void)state;
	synth_three(&s);
	/* way size where the strides support it: every stride steps at 32K in
	 * one size step (4K wide), so a way of 4K (32K / 4K = 8 ways); the
	 * larger caches would need more than 64 ways: not measurable */
	check_three_levels(&s, &lv);
	assert_int_equal(lv.lv[0].from_random, 1);
	assert_int_equal(lv.lv[0].nstrides, 6);
	assert_int_equal(lv.lv[1].step_end, 576 * KB);
	assert_string_equal(lv.curve, "random chase");
	assert_int_equal(lv.has_memory, 1);
	assert_int_equal(lv.memory_from, 9 * MB);
	assert_true(fabs(lv.memory_ns - 200 / GHZ) < 1e-9);
	assert_true(fabs(lv.memory_cycles - 200) < 1e-9);
	latency_level_text(&lv.lv[0], 0, line, sizeof line);
	assert_string_equal(line, "L1 size: 32 KB, latency: 4.00 cycles (1.60 ns), way size: 4 KB "
				  "(8 ways)");
	latency_level_text(&lv.lv[2], 0, line, sizeof line);
	assert_string_equal(line, "L3 size: 8 MB, latency: 40.0 cycles (16.0 ns), way size: not "
				  "measurable here");
	/* without the random chase: the same, read from the largest stride */
	s.c.random = NULL;
	assert_int_equal(latency_detect_curves(&s.c, &lv), 3);
	check_level(&lv.lv[1], 2, 512 * KB, 12, 0, 0);
	assert_int_equal(lv.lv[1].from_random, 0);
	assert_string_equal(lv.curve, "fixed stride 4096");
	/* a partial result: what has been measured so far */
	for (size_t k = 0; k < 6; k++)
		for (size_t i = idx_of(&s, 2 * MB); i < s.n; i++)
			s.ns[k][i] = NAN;
	assert_int_equal(latency_detect_curves(&s.c, &lv), 2);
	check_level(&lv.lv[1], 2, 512 * KB, 12, 0, 0);
	/* no clock: ns only, cycles unknown (0) */
	s.c.ghz = 0;
	assert_int_equal(latency_detect_curves(&s.c, &lv), 2);
	assert_true(lv.lv[0].cycles == 0 && fabs(lv.lv[0].ns - 4 / GHZ) < 1e-9);
	latency_level_text(&lv.lv[0], 0, line, sizeof line);
	assert_string_equal(line, "L1 size: 32 KB, latency: 1.60 ns, way size: 4 KB (8 ways)");
	/* nothing measured: nothing read, no crash */
	for (size_t k = 0; k < 6; k++)
		for (size_t i = 0; i < s.n; i++)
			s.ns[k][i] = NAN;
	assert_int_equal(latency_detect_curves(&s.c, &lv), 0);
}

static void detect_with_outliers(void **state)
{
	struct synth s;
	struct latency_levels lv;
	(void)state;
	synth_three(&s);
	s.cyc[1][0] = 10;                       /* overhead-bound 4K */
	s.cyc[1][idx_of(&s, 28 * KB)] = 9;      /* spike just before the L1 step */
	s.cyc[2][idx_of(&s, 36 * KB)] = 5;      /* dip just after it */
	s.cyc[3][idx_of(&s, 256 * KB)] = 30;    /* spike in L2 */
	s.rnd[idx_of(&s, 384 * KB)] = 24;       /* a spike two points wide */
	s.rnd[idx_of(&s, 416 * KB)] = 26;
	s.cyc[5][idx_of(&s, 4 * MB)] = 150;     /* spike in L3 */
	s.cyc[4][idx_of(&s, 32 * MB)] = 90;     /* dip in memory */
	/* a step spread over three sizes on one stride */
	s.cyc[0][idx_of(&s, 8 * MB)] = 60;
	s.cyc[0][idx_of(&s, 9 * MB)] = 110;
	s.cyc[0][idx_of(&s, 10 * MB)] = 160;
	synth_ns(&s);
	check_three_levels(&s, &lv);
	assert_true(fabs(lv.memory_cycles - 200) < 1e-9);
}

/* L1 32K 4, L2 512K 12, memory 100; a TLB of 64 entries (256K of 4K pages)
 * whose miss costs 16 cycles: added latency 16 * stride / 4096 beyond 256K.
 * No random chase: the caches are read from the largest stride, which
 * steps at the TLB's reach too. */
static void detect_tlb(void **state)
{
	struct synth s;
	struct latency_levels lv;
	char line[256];
	(void)state;
	synth_init(&s, 64 * MB, 0);
	for (size_t i = 0; i < s.n; i++) {
		uint64_t z = s.sizes[i];
		double base = z <= 32 * KB ? 4 : z <= 512 * KB ? 12 : 100;
		for (size_t k = 0; k < 6; k++)
			s.cyc[k][i] = base + (z > 256 * KB ? 16.0 * strides6[k] / 4096 : 0);
	}
	synth_ns(&s);
	assert_int_equal(latency_detect_curves(&s.c, &lv), 3);
	check_level(&lv.lv[0], 1, 32 * KB, 4, 4 * KB, 4 * KB);
	assert_int_equal(lv.lv[1].tlb, LATENCY_TLB_STRIDES);
	assert_int_equal(lv.lv[1].level, 1);
	assert_int_equal(lv.lv[1].size, 256 * KB);
	assert_int_equal(lv.lv[1].entries, 64);
	assert_true(fabs(lv.lv[1].cycles - 16) < 1e-9);
	latency_level_text(&lv.lv[1], 0, line, sizeof line);
	assert_string_equal(line, "TLB1 size: 64 entries (256 KB of 4 KB pages), latency: +16.0 "
				  "cycles (6.40 ns) a miss, way size: not measurable here");
	/* the cache above the TLB's reach keeps its latency before the misses */
	check_level(&lv.lv[2], 2, 512 * KB, 12, 0, 0);
	/* a cache step whose added latency is the same on every stride is not
	 * a TLB */
	fill_three(&s);
	latency_detect_curves(&s.c, &lv);
	for (size_t i = 0; i < lv.n; i++)
		assert_int_equal(lv.lv[i].tlb, 0);
}

/* A 16K cache with 1K ways (16-way): strides up to 1K see its step at 16K;
 * 2K and 4K reach only half and a quarter of its sets, so the step moves to
 * 32K and 64K (the seed's associativity case). L2 1M 12, memory 100. */
static void detect_associativity(void **state)
{
	struct synth s;
	struct latency_levels lv;
	(void)state;
	synth_init(&s, 64 * MB, 1);
	for (size_t i = 0; i < s.n; i++) {
		uint64_t z = s.sizes[i];
		for (size_t k = 0; k < 6; k++) {
			uint64_t l1 = 16 * KB * (strides6[k] > 1024 ? strides6[k] / 1024 : 1);
			s.cyc[k][i] = z <= l1 ? 4 : z <= 1 * MB ? 12 : 100;
		}
		s.rnd[i] = z <= 16 * KB ? 4 : z <= 1 * MB ? 12 : 100;
	}
	synth_ns(&s);
	assert_int_equal(latency_detect_curves(&s.c, &lv), 2);
	check_level(&lv.lv[0], 1, 16 * KB, 4, 1 * KB, 1 * KB);
	assert_int_equal(lv.lv[0].nstrides, 6);
	check_level(&lv.lv[1], 2, 1 * MB, 12, 0, 0);
	/* a slanted step (16K..20K on every curve) says no way size: on real
	 * machines noise, replacement and pages scattered over the sets slant
	 * every step */
	for (size_t i = 0; i < s.n; i++) {
		uint64_t z = s.sizes[i];
		double v = z <= 16 * KB ? 4 : z <= 32 * KB ? 12 : 100;
		if (z == 18 * KB)
			v = 8;
		for (size_t k = 0; k < 6; k++)
			s.cyc[k][i] = v;
		s.rnd[i] = v;
	}
	synth_ns(&s);
	assert_int_equal(latency_detect_curves(&s.c, &lv), 2);
	check_level(&lv.lv[0], 1, 16 * KB, 4, 0, 0);
}

/* Seed 002's warnings. Missing results: a stride whose curve ends before
 * twice a level's size cannot show that level's step. Inconsistent results:
 * the stride 128 steps in place at the L1's 16K (the way is at least 128
 * bytes) while the stride 192 steps twice as far right (so the way is at
 * most 96 bytes): no way size, and the level says why. */
static void detect_thin_and_inconsistent(void **state)
{
	static const unsigned two[] = { 128, 192 };
	struct synth s;
	struct latency_levels lv;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	(void)state;
	synth_init(&s, 64 * MB, 1);
	for (size_t i = 0; i < s.n; i++) {
		uint64_t z = s.sizes[i];
		for (size_t k = 0; k < 6; k++) { /* as detect_associativity: a 1 KB way */
			uint64_t l1 = 16 * KB * (strides6[k] > 1024 ? strides6[k] / 1024 : 1);
			s.cyc[k][i] = z <= l1 ? 4 : z <= 1 * MB ? 12 : 100;
		}
		s.rnd[i] = z <= 16 * KB ? 4 : z <= 1 * MB ? 12 : 100;
		if (z > 1536 * KB) /* stride 4096 stops at 1.5 MB */
			s.cyc[5][i] = NAN;
	}
	synth_ns(&s);
	assert_int_equal(latency_detect_curves(&s.c, &lv), 2);
	assert_int_equal(lv.lv[0].missing, 0);
	assert_int_equal(lv.lv[1].missing, 1u << 5);
	assert_int_equal(lv.lv[0].inconsistent, 0);
	assert_int_equal(lv.lv[0].way_min, 1 * KB);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	latency_levels_print(f, &lv, NULL);
	fclose(f);
	assert_non_null(strstr(text, "\n   missing results: stride 4096 ends before 2 MB: too thin "
				     "to read this level's way from them (a larger --max-size)\n"));
	free(text);

	for (size_t i = 0; i < s.n; i++) {
		uint64_t z = s.sizes[i];
		s.cyc[0][i] = z <= 16 * KB ? 4 : 40;
		s.cyc[1][i] = z <= 32 * KB ? 4 : 40;
		s.rnd[i] = z <= 16 * KB ? 4 : 40;
	}
	synth_ns(&s);
	s.c.strides = two;
	s.c.nstrides = 2;
	assert_int_equal(latency_detect_curves(&s.c, &lv), 1);
	assert_int_equal(lv.lv[0].size, 16 * KB);
	assert_int_equal(lv.lv[0].inconsistent, 1);
	assert_int_equal(lv.lv[0].way_min, 0);
	assert_int_equal(lv.lv[0].way_max, 0);
}

/* fill_three's levels as latency_detect_curves must read them from s (into
 * lv) with a TLB of entries pages among them, at index at: four, the
 * caches with no way read. */
static void check_three_and_tlb(const struct synth *s, struct latency_levels *lv, size_t at,
				unsigned entries)
{
	static const struct {
		int level;
		uint64_t size;
		double cycles;
	} caches[] = { { 1, 32 * KB, 4 }, { 2, 512 * KB, 12 }, { 3, 8 * MB, 40 } };
	assert_int_equal(latency_detect_curves(&s->c, lv), 4);
	assert_int_equal(lv->lv[at].tlb, LATENCY_TLB_PAGES);
	assert_int_equal(lv->lv[at].entries, entries);
	for (size_t i = 0, k = 0; i < 4; i++)
		if (i != at) {
			check_level(&lv->lv[i], caches[k].level, caches[k].size, caches[k].cycles,
				    0, 0);
			k++;
		}
}

/* The 4 KB-page chase's ns at a size, from the huge-page chase's. */
typedef double small_pages_fn(uint64_t size, double huge_ns);

/* s's 4 KB-page curve, small, from its huge-page one by fn. */
static void synth_small(struct synth *s, small_pages_fn *fn)
{
	for (size_t i = 0; i < s->n; i++)
		s->small[i] = fn(s->sizes[i], s->rnd_ns[i]);
}

/* The three levels on both page sizes: the huge-page curve synth_three's,
 * the random chase on 4 KB pages fn's of it, no strides. */
static void synth_pages(struct synth *s, small_pages_fn *fn)
{
	synth_three(s);
	synth_small(s, fn);
	s->c.random = s->small;
	s->c.other = s->rnd_ns; /* huge pages: the other curve */
	s->c.huge = LATENCY_HUGE_OFF;
	s->c.nstrides = 0;
}

/* 30 % slower from 160K on. */
static double slower_past_128k(uint64_t size, double ns)
{
	return ns * (size > 128 * KB ? 1.3 : 1.0);
}

/* Page walks from 4 MB on, +20 cycles, and +40 more from 32 MB. */
static double walks_past_4m(uint64_t size, double ns)
{
	return ns + (size > 4 * MB ? 20 / GHZ : 0) + (size > 32 * MB ? 40 / GHZ : 0);
}

/* Only the walks' own misses, +40 cycles past 48 MB. */
static double walks_past_48m(uint64_t size, double ns)
{
	return ns + (size > 48 * MB ? 40 / GHZ : 0);
}

/* Both page sizes (tinymembench's two tables): the caches are read from
 * the huge-page curve; where the 4 KB-page curve becomes and stays slower
 * (30 % from 160K on), a TLB whose reach is the size before. */
static void detect_pages_pair(void **state)
{
	struct synth s;
	struct latency_levels lv;
	(void)state;
	synth_pages(&s, slower_past_128k);
	check_three_and_tlb(&s, &lv, 1, 32);
	assert_string_equal(lv.curve, "random chase, huge pages");
	assert_int_equal(lv.lv[1].size, 128 * KB);
	assert_true(fabs(lv.lv[1].ns - 0.3 * 12 / GHZ) < 1e-9); /* in L2, where it begins */
}

/* Both page sizes measured: the 4 KB-page chase pays page walks from 4 MB
 * on (+20 cycles: a second-level TLB of 1024 entries) and more from 32 MB
 * (+60: the walks' own tables leave the caches). The caches come from the
 * huge-page curve (L3 at 8M, not at the TLB's 4M); the walks' cost is read
 * level by level: none in L1 and L2, +20 cycles in L3's top octave and in
 * memory's window (18M..36M), +60 at the last size. */
static void detect_pages_walks(void **state)
{
	struct synth s;
	struct latency_levels lv;
	(void)state;
	synth_pages(&s, walks_past_4m);
	check_three_and_tlb(&s, &lv, 2, 1024);
	assert_int_equal(lv.has_walks, 1);
	assert_true(lv.walk_ns[0] == 0 && lv.walk_ns[1] == 0);
	assert_true(isnan(lv.walk_ns[2])); /* the TLB's line has none */
	assert_true(fabs(lv.walk_ns[3] - 20 / GHZ) < 1e-9);
	assert_int_equal(lv.memory_at, 18 * MB);
	assert_true(fabs(lv.memory_walk_ns - 20 / GHZ) < 1e-9);
	assert_true(fabs(lv.last_walk_ns - 60 / GHZ) < 1e-9);
	/* a gap that opens only past 32 MB (8192 pages) is no TLB's reach: the
	 * walks' own misses, said as their cost, not as a TLB */
	synth_small(&s, walks_past_48m);
	assert_int_equal(latency_detect_curves(&s.c, &lv), 3);
	for (size_t i = 0; i < lv.n; i++)
		assert_int_equal(lv.lv[i].tlb, 0);
	assert_true(fabs(lv.last_walk_ns - 40 / GHZ) < 1e-9);
	assert_true(lv.memory_walk_ns == 0);
	/* one page size alone: no walks to read */
	s.c.other = NULL;
	latency_detect_curves(&s.c, &lv);
	assert_int_equal(lv.has_walks, 0);
	assert_int_equal(lv.small_pages_only, 1);
}

/* A run on both page sizes, as the worker's events fill it: the other
 * column's cells land in other_*, its pages note in other_pages with the
 * share on huge pages; JSON keeps them; and a buffer the kernel put mostly
 * on 4 KB pages is not read as the huge-page curve. */
static void result_both_pages(void **state)
{
	struct latency_params p;
	struct latency_result *r, *back;
	struct latency_levels lv;
	struct job_event ev;
	cJSON *root;
	mt_error e = { "" };
	(void)state;
	latency_params_quick(&p);
	assert_int_equal(latency_pages_both(&p, "never"), 0);
	assert_int_equal(latency_pages_both(&p, ""), 0);
	assert_int_equal(latency_pages_both(&p, "madvise"), 1);
	r = latency_result_new(&p, 2.5);
	assert_non_null(r);
	assert_int_equal(r->has_other, 1);
	assert_int_equal(r->other_hugepages, LATENCY_HUGE_ON);
	for (size_t i = 0; i < r->nsizes; i++) {
		for (int c = 0; c < 4; c++) { /* strides 128, 4096, random, other */
			double cyc = three(r->sizes[i]) + (c == 2 && r->sizes[i] > 2 * MB ? 30 : 0);
			job_cell(&ev, c < 2 ? LATENCY_CELL_FIXED : c == 2 ? LATENCY_CELL_RANDOM : LATENCY_CELL_OTHER,
				 (int)i, c, cyc / 2.5, c == 3 && i == 5 ? 0.2 : 0);
			JOB_PAYLOAD_PUT(&ev, struct latency_ev_point,
					&((struct latency_ev_point){ .cycles = cyc, .tries = 3 }));
			assert_int_equal(latency_apply(r, &ev), 0);
		}
	}
	assert_int_equal(latency_measured(r), 4 * r->nsizes);
	assert_int_equal(latency_doubtful(r), 1); /* the other chase's point 5 */
	assert_int_equal(latency_point_doubtful(r, 3, 5), 1);
	memset(&ev, 0, sizeof ev);
	ev.type = JOB_EV_NOTE;
	ev.subtype = LATENCY_NOTE_OTHER_PAGES;
	ev.value = 1.0;
	mt_strlcpy(ev.text, "huge pages on: 100% of the buffer on 2 MB pages (THP madvise)",
		   sizeof ev.text);
	assert_int_equal(latency_apply(r, &ev), 0);
	latency_detect(r, &lv);
	assert_string_equal(lv.curve, "random chase, huge pages");
	assert_int_equal(lv.has_walks, 1);
	/* through JSON and back: the same */
	root = latency_to_json(r);
	assert_non_null(root);
	back = latency_from_json(root, "t.json", &e);
	assert_non_null(back);
	assert_int_equal(back->has_other, 1);
	assert_true(back->other_share == 1.0);
	assert_string_equal(back->other_pages, r->other_pages);
	assert_true(back->other_tries[5] == 3 && fabs(back->other_spread[5] - 0.2) < 1e-9);
	assert_true(fabs(back->other_cycles[7] - r->other_cycles[7]) < 1e-6);
	latency_result_free(back);
	cJSON_Delete(root);
	/* a fifth of the buffer on huge pages: that chase is a 4 KB one */
	ev.value = 0.2;
	assert_int_equal(latency_apply(r, &ev), 0);
	latency_detect(r, &lv);
	assert_string_equal(lv.curve, "random chase");
	assert_int_equal(lv.has_walks, 0);
	latency_result_free(r);
}

/* ---- results and JSON ----------------------------------------------------- */

static void result_json_roundtrip(void **state)
{
	struct latency_params p;
	struct latency_result *r, *back;
	struct job_event ev;
	cJSON *root;
	mt_error e = { "" };
	(void)state;
	latency_params_quick(&p);
	p.tlb_locality = 256 * KB;
	r = latency_result_new(&p, 2.5);
	assert_non_null(r);
	assert_int_equal(r->nstrides, 2);
	assert_int_equal(latency_measured(r), 0);
	for (size_t i = 0; i < r->nsizes; i++) {
		for (int c = 0; c < 3; c++) {
			job_cell(&ev, c == 2, (int)i, c, three(r->sizes[i]) / 2.5, 0);
			JOB_PAYLOAD_PUT(&ev, struct latency_ev_point,
					&((struct latency_ev_point){ .cycles = three(r->sizes[i]) }));
			assert_int_equal(latency_apply(r, &ev), 0);
		}
	}
	ev.row = (int)r->nsizes;
	assert_int_equal(latency_apply(r, &ev), -1);
	ev.row = 0;
	ev.subtype = LATENCY_CELL_FIXED;
	ev.col = 2;
	assert_int_equal(latency_apply(r, &ev), -1);
	ev.col = 0; /* a cell of the right place without its payload, or with another's */
	ev.payload_type = NULL;
	assert_int_equal(latency_apply(r, &ev), -1);
	JOB_PAYLOAD_PUT(&ev, struct latency_ev_revised, &((struct latency_ev_revised){ 1.0 }));
	assert_int_equal(latency_apply(r, &ev), -1);
	assert_int_equal(latency_measured(r), 3 * r->nsizes);
	root = latency_to_json(r);
	assert_non_null(root);
	assert_true(cJSON_GetObjectItem(root, "ghz")->valuedouble == 2.5);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "cycles")), 2);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "levels")), 2);
	{
		const cJSON *l0 = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "levels"), 0);
		assert_int_equal(cJSON_GetObjectItem(l0, "size")->valuedouble, 32768);
		assert_true(cJSON_GetObjectItem(l0, "cycles")->valuedouble == 4);
		assert_true(cJSON_IsFalse(cJSON_GetObjectItem(l0, "tlb")));
	}
	back = latency_from_json(root, "r.json", &e);
	assert_non_null(back);
	assert_int_equal(back->nsizes, r->nsizes);
	assert_int_equal(back->strides[1], 4096);
	assert_int_equal(back->has_random, 1);
	assert_true(back->cycles[1][3] == r->cycles[1][3]);
	assert_true(back->random_ns[r->nsizes - 1] == r->random_ns[r->nsizes - 1]);
	assert_int_equal(back->tlb_locality, 256 * KB); /* the chase it was */
	latency_result_free(back);
	/* a ragged row is refused, naming the file and the field */
	cJSON_DeleteItemFromArray(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "ns"), 1), 0);
	back = latency_from_json(root, "r.json", &e);
	assert_null(back);
	assert_string_equal(e.msg, "r.json: ns row 2 has 78 values, expected 79");
	cJSON_Delete(root);
	latency_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(segment_clean_curve),
		cmocka_unit_test(segment_noisy_outlier),
		cmocka_unit_test(detect_three_levels),
		cmocka_unit_test(detect_with_outliers),
		cmocka_unit_test(detect_tlb),
		cmocka_unit_test(detect_pages_walks),
		cmocka_unit_test(result_both_pages),
		cmocka_unit_test(detect_associativity),
		cmocka_unit_test(detect_thin_and_inconsistent),
		cmocka_unit_test(detect_pages_pair),
		cmocka_unit_test(result_json_roundtrip),
	};
	return cmocka_run_group_tests_name("latency_levels", tests, NULL, NULL);
}
