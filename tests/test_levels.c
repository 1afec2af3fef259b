/* The level finders on recorded curves of real machines (tests/data/corpus,
 * public data; see tests/data/README): what memtop import reads from each
 * format, and the exact levels memtop levels and memtop cliffs find. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "latency/latency.h"
#include "mountain/cliffs.h"
#include "result/result.h"

#define KB 1024ull
#define MB (1024ull * 1024ull)

static const char *path_of(const char *name, char *buf, size_t len)
{
	const char *d = getenv("TESTDATA");
	mt_snprintf(buf, len, "%s/corpus/%s", d ? d : "tests/data", name);
	return buf;
}

/* Import name (and its pair on the other pages, when given). */
static void import(const char *name, const char *pair, int random, struct import_result *res)
{
	struct import_opts o = { IMPORT_AUTO, random, NULL, NULL };
	char p[512];
	mt_error e = { "" };
	if (import_file(path_of(name, p, sizeof p), &o, res, &e) < 0)
		fail_msg("%s", e.msg);
	if (pair && import_add_pages(res, path_of(pair, p, sizeof p), &o, &e) < 0)
		fail_msg("%s", e.msg);
}

/* The sizes of the cache levels (TLBs apart) and of the TLBs. */
static void sizes_of(const struct latency_levels *lv, uint64_t *cache, size_t *nc, uint64_t *tlb,
		     size_t *nt)
{
	*nc = *nt = 0;
	for (size_t i = 0; i < lv->n; i++) {
		if (lv->lv[i].tlb)
			tlb[(*nt)++] = lv->lv[i].size;
		else
			cache[(*nc)++] = lv->lv[i].size;
	}
}

/* A curve as a table: size, ns, as the seed prints one. */
struct row {
	uint64_t size;
	double ns;
};

/* Read table t of n rows as a random chase on pages huge (LATENCY_HUGE_*),
 * its ns over L1 when over_l1 (tinymembench's). */
static void table_detect(const struct row *t, size_t n, int huge, int over_l1,
			 struct latency_levels *lv, uint64_t *sizes, double *ns)
{
	struct latency_curves c;
	for (size_t i = 0; i < n; i++) {
		sizes[i] = t[i].size;
		ns[i] = t[i].ns;
	}
	memset(&c, 0, sizeof c);
	c.sizes = sizes;
	c.nsizes = n;
	c.random = ns;
	c.over_l1 = over_l1;
	c.huge = huge;
	latency_detect_curves(&c, lv);
}

/* What a curve reads as: its levels, and their sizes, caches (TLBs apart)
 * and TLBs (read_table's). */
struct found {
	struct latency_levels lv;
	uint64_t c[8], t[8];
	size_t nc, nt;
	uint64_t sizes[32];
	double ns[32];
};

/* Table t of n rows (at most 32) read as table_detect reads it, into f. */
static void read_table(const struct row *t, size_t n, int huge, int over_l1, struct found *f)
{
	assert_true(n <= sizeof f->sizes / sizeof *f->sizes);
	table_detect(t, n, huge, over_l1, &f->lv, f->sizes, f->ns);
	sizes_of(&f->lv, f->c, &f->nc, f->t, &f->nt);
}

/* The sizes a curve must read as: how many caches (-1: not checked), the
 * caches' sizes in order (0: not checked), how many TLBs (-1: not
 * checked), the first TLB's reach and where memory starts (0: not
 * checked). */
struct sizes_want {
	int nc;
	uint64_t c[4];
	int nt;
	uint64_t t0, memory_from;
};

static void check_sizes(const struct found *f, const struct sizes_want *w)
{
	if (w->nc >= 0)
		assert_int_equal(f->nc, w->nc);
	for (size_t i = 0; i < sizeof w->c / sizeof *w->c; i++)
		if (w->c[i])
			assert_int_equal(f->c[i], w->c[i]);
	if (w->nt >= 0)
		assert_int_equal(f->nt, w->nt);
	if (w->t0)
		assert_int_equal(f->t[0], w->t0);
	if (w->memory_from)
		assert_int_equal(f->lv.memory_from, w->memory_from);
}

/* A recorded file, its pair on the other pages (NULL: none) and whether
 * its random column is read, and what it reads as: the format, the levels
 * latency_detect finds (-1: not checked) and their sizes (0: not
 * checked), then the file's own checks, more. */
struct import_case {
	const char *file, *pair;
	int random, format, nlevels;
	uint64_t size[3];
	void (*more)(const struct import_result *res, const struct found *f);
};

/* Intel N100 (L1d 32K, L2 2M, L3 6M): tinymembench's two tables, 4 KB and
 * huge pages. The caches from the huge-page curve, the 4 KB pages' TLB
 * reach beside them; the L3 at 8M is the one size its single point gives. */
static void n100_more(const struct import_result *res, const struct found *f)
{
	static const struct sizes_want w = { 3, { 32 * KB, 2 * MB, 8 * MB }, 1, 128 * KB, 16 * MB };
	assert_int_equal(res->lat->nsizes, 17);
	assert_int_equal(res->lat->sizes[16], 64 * MB);
	assert_int_equal(res->lat->ns_over_l1, 1);
	assert_int_equal(res->lat->hugepages, LATENCY_HUGE_OFF);
	assert_int_equal(res->lat->other_hugepages, LATENCY_HUGE_ON);
	assert_true(res->lat->random_ns[12] == 15.4 && res->lat->other_ns[12] == 11.7); /* 4M */
	check_sizes(f, &w);
	assert_int_equal(f->lv.over_l1, 1);
	assert_true(fabs(f->lv.lv[2].ns - 4.7) < 1e-9); /* L2, ns over L1 (huge pages) */
}

/* AMD Ryzen R1505G (32K, 512K, 4M): sbc-bench's ramlat, the 1xPTR column. */
static void ryzen_more(const struct import_result *res, const struct found *f)
{
	assert_int_equal(res->lat->nsizes, 16);
	assert_int_equal(res->lat->sizes[0], 4 * KB);
	assert_true(res->lat->random_ns[4] == 3.966);     /* 64k, 1xPTR */
	assert_true(fabs(f->lv.lv[0].ns - 1.236) < 1e-9); /* the median of 4k..32k */
	assert_true(f->lv.lv[0].cycles == 0);             /* no clock in the table */
}

/* The Zen 5 guest (48K, 1M, ~5M effective): lmbench's lat_mem_rd -t; its
 * 1M L2 read 960K (704K before the L2 plateau was kept from the rise after
 * it). */
static void zen5_lmbench_more(const struct import_result *res, const struct found *f)
{
	(void)f;
	assert_int_equal(res->lat->has_random, 1);
	assert_int_equal(res->lat->random_stride, 64);
	assert_int_equal(res->lat->sizes[0], 512); /* 0.00049 MB */
	assert_int_equal(res->lat->sizes[2], 2048);
}

static const struct import_case imports[] = {
	{ "tinymembench-intel-n100-nohuge.txt", "tinymembench-intel-n100-huge.txt", 0,
	  IMPORT_TINYMEMBENCH, -1, { 0 }, n100_more },
	{ "ramlat-amd-ryzen-r1505g.txt", NULL, 0, IMPORT_RAMLAT, 3, { 32 * KB, 512 * KB, 4 * MB },
	  ryzen_more },
	{ "lmbench-zen5-vm-random64.txt", NULL, 1, IMPORT_LMBENCH, 3, { 40 * KB, 960 * KB, 5 * MB },
	  zen5_lmbench_more },
};

static void imported_levels(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof imports / sizeof *imports; i++) {
		const struct import_case *w = &imports[i];
		struct import_result res;
		struct found f;
		size_t n;
		import(w->file, w->pair, w->random, &res);
		assert_int_equal(res.format, w->format);
		n = latency_detect(res.lat, &f.lv);
		if (w->nlevels >= 0)
			assert_int_equal(n, w->nlevels);
		for (size_t k = 0; k < sizeof w->size / sizeof *w->size; k++)
			if (w->size[k])
				assert_int_equal(f.lv.lv[k].size, w->size[k]);
		sizes_of(&f.lv, f.c, &f.nc, f.t, &f.nt);
		w->more(&res, &f);
		import_result_free(&res);
	}
}

/* The same guest, memtop's own run: the L1's way from the strides (48K in
 * 12 ways of 4K, as CPUID says), the L1 DTLB's 96 entries from the page
 * stride against half of it, the effective L3 of 3.75M. */
static void zen5_memtop_run(void **state)
{
	struct latency_result *r;
	struct latency_levels lv;
	char p[512];
	mt_error e = { "" };
	(void)state;
	r = result_load_as(path_of("memtop-zen5-vm-latency-2.json", p, sizeof p), &kind_latency, &e);
	assert_non_null(r);
	assert_int_equal(latency_detect(r, &lv), 4);
	assert_int_equal(lv.lv[0].size, 48 * KB);
	assert_int_equal(lv.lv[0].way_min, 4 * KB);
	assert_int_equal(lv.lv[0].way_max, 4 * KB);
	assert_int_equal(lv.lv[1].tlb, LATENCY_TLB_STRIDES);
	assert_int_equal(lv.lv[1].entries, 96);
	assert_int_equal(lv.lv[2].size, 896 * KB);
	assert_int_equal(lv.lv[2].way_max, 0); /* not measurable here */
	assert_int_equal(lv.lv[3].size, 3840 * KB);
	assert_true(lv.lv[0].cycles > 4 && lv.lv[0].cycles < 4.5);
	assert_true(lv.lv[2].ns < lv.lv[3].ns && lv.lv[3].ns < lv.memory_ns);
	latency_result_free(r);
}

/* The same guest's CS:APP mountain: L1 and L2 as CPUID says; the L3's knee
 * where the streaming reads see it, 16M. */
static void zen5_csapp_mountain(void **state)
{
	struct import_result res;
	struct detection d;
	(void)state;
	import("csapp-zen5-vm-mountain.txt", NULL, 0, &res);
	assert_int_equal(res.format, IMPORT_CSAPP);
	assert_int_equal(res.mtn->nsizes, 14);
	assert_int_equal(res.mtn->nstrides, 15);
	assert_int_equal(res.mtn->sizes[0], 16 * KB); /* growing, though the book prints 128m first */
	assert_true(mountain_at(res.mtn, 13, 0) == 33989);
	assert_true(fabs(res.mtn->hdr.clock.ticks_per_ns - 2.096) < 1e-9);
	assert_int_equal(cliffs_detect(res.mtn, CLIFFS_RATIO, &d), 0);
	assert_int_equal(d.nlevels, 3);
	assert_int_equal(d.size[0], 64 * KB);
	assert_int_equal(d.size[1], 1 * MB);
	assert_int_equal(d.size[2], 16 * MB);
	assert_int_equal(d.votes[0], 8);
	import_result_free(&res);
}

/* ---- synthetic 4 KB-page curves (issue 36): a TLB's step or a cache's -- */

#define SYN_N 19 /* 1K .. 256M, powers of two, as tinymembench prints them */

struct syn_level {
	uint64_t size;
	double ns;
};

/* A synthetic curve: its levels, memory's ns, the reach past which a walk
 * of walk_ns is added (0: none), as syn_curve reads them. */
struct syn_def {
	const struct syn_level *lv;
	size_t nlv;
	double memory_ns;
	uint64_t walk_reach;
	double walk_ns;
};

/* A random chase over sizes 1K..256M, the rows t: each level answers the
 * share of the loads it holds (size / footprint), memory the rest; past
 * walk_reach (0: none) a walk of walk_ns plus 2 ns an octave (its tables
 * leaving the caches) is added to the share of the loads that miss the
 * TLB. As tinymembench prints it: ns over an L1 hit of 1 ns. */
static void syn_curve(struct row *t, const struct syn_def *d)
{
	for (size_t i = 0; i < SYN_N; i++) {
		double s = (double)(1024ull << i), held = 0, ns = 0;
		t[i].size = 1024ull << i;
		for (size_t k = 0; k < d->nlv; k++) {
			double h = fmin(1, (double)d->lv[k].size / s);
			ns += (h - held) * d->lv[k].ns;
			held = h;
		}
		ns += (1 - held) * d->memory_ns;
		if (d->walk_reach && s > (double)d->walk_reach)
			ns += (1 - (double)d->walk_reach / s) *
			      (d->walk_ns + 2 * log2(s / (double)d->walk_reach));
		t[i].ns = ns - 1.0;
	}
}

/* A small core on 4 KB pages: L1 32K (1 ns), L2 512K (12 ns), L3 24M
 * (30 ns), memory 160 ns, a second-level TLB reaching 4M past which a walk
 * adds 40 ns: the walk doubles the L3's latency, so the plateau past 4M
 * reads as a level of its own, and alone (the pages not stated) the step
 * at 4M is an L3 and all behind it memory. Stated 4 KB pages: the rise is
 * within what 4 loads from the 12 ns L2 can add, the curve rises again at
 * the L3's end, so 4M is a TLB's reach (1024 entries) and the L3 is read
 * where the shifted plateau ends, 16M (the 32M point is on the step). */
static const struct syn_level walk_core_lv[] = {
	{ 32 * KB, 1 }, { 512 * KB, 12 }, { 24 * MB, 30 }
};
static const struct syn_def walk_core = { walk_core_lv, 3, 160, 4 * MB, 40 };

static void walk_step_more(const struct found *f)
{
	for (size_t i = 0; i < f->lv.n; i++) {
		const struct latency_level *l = &f->lv.lv[i];
		if (l->tlb) {
			assert_int_equal(l->tlb, LATENCY_TLB_WALK);
			assert_int_equal(l->entries, 1024);
			assert_int_equal(l->step_end, 8 * MB);
			assert_true(l->ns > 20 && l->ns < 48); /* the walk's rise */
		} else if (l->size == 16 * MB) {
			assert_true(l->ns < 30); /* the L3's own latency, without walks */
		}
	}
	assert_int_equal(f->lv.has_memory, 1);
	assert_int_equal(f->lv.small_pages_only, 1);
}

/* The same shape, steps at 512K, 4M and 24M, where the one at 4M is a
 * cache's: L2 4 ns, L3 4M 14 ns, L4 24M 40 ns, no walk. The rise at 4M
 * (about 18 ns) is more than 4 loads from the 4 ns L2 could add: the L4
 * multiplies, it is a cache level, and both stay caches on 4 KB pages.
 * The L4's 32M point (a quarter of its loads miss: 70 ns) is under what a
 * walk could add to it (walk_shifted_edge, 2.25x): on 4 KB pages alone
 * that point cannot be told from walks raising the L4, and the L4 is read
 * to it, 32M (the size past 24M, as 16M is the one before). */
static const struct syn_level cache_core_lv[] = {
	{ 32 * KB, 1 }, { 512 * KB, 4 }, { 4 * MB, 14 }, { 24 * MB, 40 }
};
static const struct syn_def cache_core = { cache_core_lv, 4, 160, 0, 0 };

/* ---- published curves of the classes the finder's rules serve --------- */

/* A small core whose L3 answers 1.4x its L2 (Qualcomm SDM845's Kryo 385
 * Silver, an A55: L1d 32K, L2 128K, L3 2M; sbc-bench's ramlat, 1xPTR, on
 * the Dragonboard 845c): a shallow step (1.3-2x) flat on both sides over
 * an octave, at a size a cache can have (128K). Where the pages cannot add
 * a step (huge pages) it is the L2; where they can (4 KB pages, or not
 * said) a first-level TLB's reach steps alike, and it is not kept. */
static const struct row sdm845_silver[] = {
	{ 4 * KB, 1.134 },   { 8 * KB, 1.135 },   { 16 * KB, 1.134 },  { 32 * KB, 1.139 },
	{ 64 * KB, 10.77 },  { 128 * KB, 11.89 }, { 256 * KB, 14.03 }, { 512 * KB, 15.68 },
	{ 1 * MB, 15.85 },   { 2 * MB, 16.90 },   { 4 * MB, 105.7 },   { 8 * MB, 144.1 },
	{ 16 * MB, 152.3 },
};

static void shallow_kept_more(const struct found *f)
{
	assert_int_equal(f->lv.shallow_read, 1);
	assert_true(f->lv.lv[2].ns / f->lv.lv[1].ns > 1.3 && f->lv.lv[2].ns / f->lv.lv[1].ns < 2);
}

static void shallow_dropped_more(const struct found *f)
{
	assert_int_equal(f->lv.shallow_read, 0);
}

/* The same step where one side is not flat over an octave (its L2's 64K
 * point read 9.0 instead of 10.77: the side spans 1.3x, more than a third
 * of the step): a bump, not a level. */
static void shallow_step_needs_flat_sides(void **state)
{
	static const struct sizes_want w = { 2, { 0, 2 * MB }, -1, 0, 0 };
	struct row t2[sizeof sdm845_silver / sizeof *sdm845_silver];
	struct found f;
	(void)state;
	memcpy(t2, sdm845_silver, sizeof t2);
	t2[4].ns = 9.0;
	read_table(t2, sizeof t2 / sizeof *t2, LATENCY_HUGE_ON, 0, &f);
	check_sizes(&f, &w);
}

/* A laptop on 4 KB pages (Intel Core Ultra 9 185H, Redwood Cove: L1d 48K,
 * L2 2M, L3 24M; tinymembench's MADV_NOHUGEPAGE table, ns over L1, on the
 * GEEKOM GT1 Mega): past the second-level TLB's reach (8M) each load also
 * walks, which adds about a load of the L3 (29 -> 57 ns at 16M), where
 * memory multiplies it (84 ns from 32M). The L3 is read to 16M, the walks'
 * start said (8M); on huge pages, said, the same table's L3 ends at 8M. */
static const struct row u185h_4k[] = {
	{ 1 * KB, 0.0 },    { 2 * KB, 0.0 },    { 4 * KB, 0.0 },    { 8 * KB, 0.0 },
	{ 16 * KB, 0.0 },   { 32 * KB, 0.0 },   { 64 * KB, 0.6 },   { 128 * KB, 1.5 },
	{ 256 * KB, 2.2 },  { 512 * KB, 3.2 },  { 1 * MB, 4.5 },    { 2 * MB, 10.6 },
	{ 4 * MB, 24.6 },   { 8 * MB, 29.2 },   { 16 * MB, 56.8 },  { 32 * MB, 83.4 },
	{ 64 * MB, 83.9 },
};

static void walks_said_more(const struct found *f)
{
	assert_int_equal(f->lv.lv[f->nc + f->nt - 1].walks_from, 8 * MB);
}

static void no_walks_more(const struct found *f)
{
	for (size_t i = 0; i < f->lv.n; i++)
		assert_int_equal(f->lv.lv[i].walks_from, 0);
}

#define ROWS(t) t, sizeof t / sizeof *t

/* A curve, synthetic (syn, its rows syn_curve's, ns over L1) or published
 * (t, n rows, ns over L1 when over_l1), read on pages huge, and what it
 * must read as: the sizes, then the case's own checks (more; NULL: none). */
static const struct level_case {
	const struct syn_def *syn;
	const struct row *t;
	size_t n;
	int over_l1, huge;
	struct sizes_want want;
	void (*more)(const struct found *f);
} level_cases[] = {
	/* walk_core on 4 KB pages */
	{ &walk_core, NULL, 0, 1, LATENCY_HUGE_OFF,
	  { 3, { 32 * KB, 512 * KB, 16 * MB }, 1, 4 * MB, 32 * MB }, walk_step_more },
	/* The same curve where the file does not say its pages (ramlat, an old
	 * tinymembench): the shape tells the walk whatever the file says, so it
	 * is read as on 4 KB pages (a TLB at 4M, the L3 at 16M); on huge pages,
	 * said, no walk can add a step and the step at 4M stays a cache's. */
	{ &walk_core, NULL, 0, 1, LATENCY_HUGE_UNKNOWN,
	  { 3, { 0, 0, 16 * MB }, 1, 4 * MB, 32 * MB }, NULL },
	{ &walk_core, NULL, 0, 1, LATENCY_HUGE_ON, { 3, { 0, 0, 4 * MB }, 0, 0, 0 }, NULL },
	/* cache_core on 4 KB pages */
	{ &cache_core, NULL, 0, 1, LATENCY_HUGE_OFF,
	  { 4, { 32 * KB, 512 * KB, 4 * MB, 32 * MB }, 0, 0, 64 * MB }, NULL },
	/* the SDM845's shallow step kept on huge pages, not where pages may step */
	{ NULL, ROWS(sdm845_silver), 0, LATENCY_HUGE_ON,
	  { 3, { 32 * KB, 128 * KB, 2 * MB }, -1, 0, 0 }, shallow_kept_more },
	{ NULL, ROWS(sdm845_silver), 0, LATENCY_HUGE_UNKNOWN, { 2, { 0, 2 * MB }, -1, 0, 0 },
	  shallow_dropped_more },
	/* the 185H's walks raise its L3, on 4 KB pages or not said; on huge
	 * pages none */
	{ NULL, ROWS(u185h_4k), 1, LATENCY_HUGE_OFF, { 3, { 0, 0, 16 * MB }, -1, 0, 32 * MB },
	  walks_said_more },
	{ NULL, ROWS(u185h_4k), 1, LATENCY_HUGE_UNKNOWN, { -1, { 0, 0, 16 * MB }, -1, 0, 0 },
	  NULL },
	{ NULL, ROWS(u185h_4k), 1, LATENCY_HUGE_ON, { 3, { 0, 0, 8 * MB }, -1, 0, 16 * MB },
	  no_walks_more },
};

static void curves_read(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof level_cases / sizeof *level_cases; i++) {
		const struct level_case *w = &level_cases[i];
		struct row syn[SYN_N];
		struct found f;
		if (w->syn) {
			syn_curve(syn, w->syn);
			read_table(syn, SYN_N, w->huge, 1, &f);
		} else {
			read_table(w->t, w->n, w->huge, w->over_l1, &f);
		}
		check_sizes(&f, &w->want);
		if (w->more)
			w->more(&f);
	}
}

/* ---- memory only on a plateau the curve reaches (issue 42 item 13) ---- */

/* A run cut at 3 MB on a guest whose L3 holds about 2 MB here: L1 48K
 * 1.2 ns, L2 1M 4 ns, L3 2M 15 ns, then memory's 150 ns, four sizes an
 * octave. Cut at 3M the last level (2.5M..3M, 77..143 ns) is as slow as
 * memory but climbs: no plateau, no memory (the curve ends inside a
 * level); run on to 64M it settles (150 ns over the last octave), and
 * cut at 3M with memory read 150 ns elsewhere in the run (the probe), its
 * last point (143 ns) is memory's. */
static const struct row cut_at_3m[] = {
	{ 16 * KB, 1.2 },    { 32 * KB, 1.2 },    { 48 * KB, 1.2 },    { 64 * KB, 4.0 },
	{ 128 * KB, 4.0 },   { 256 * KB, 4.0 },   { 512 * KB, 4.0 },   { 768 * KB, 4.0 },
	{ 1 * MB, 4.1 },     { 1280 * KB, 15.0 }, { 1536 * KB, 15.0 }, { 1792 * KB, 15.2 },
	{ 2 * MB, 16.0 },    { 2560 * KB, 77.0 }, { 2816 * KB, 110.0 }, { 3 * MB, 143.0 },
	{ 4 * MB, 148.0 },   { 8 * MB, 150.0 },   { 16 * MB, 151.0 },  { 32 * MB, 150.0 },
	{ 64 * MB, 152.0 },
};

static void memory_only_on_a_plateau(void **state)
{
	uint64_t sizes[24];
	double ns[24];
	struct latency_levels lv;
	struct latency_curves c;
	(void)state;
	table_detect(cut_at_3m, 16, LATENCY_HUGE_ON, 0, &lv, sizes, ns); /* to 3M */
	assert_int_equal(lv.has_memory, 0);
	assert_int_equal(lv.memory_unreached, 1);
	assert_int_equal(lv.memory_rising, 1);
	assert_int_equal(lv.memory_from, 2560 * KB);
	assert_true(lv.memory_lo_ns == 77 && lv.memory_hi_ns == 143);
	table_detect(cut_at_3m, 21, LATENCY_HUGE_ON, 0, &lv, sizes, ns); /* to 64M */
	assert_int_equal(lv.has_memory, 1);
	assert_int_equal(lv.memory_rising, 0);
	assert_int_equal(lv.memory_from, 2560 * KB);
	assert_true(lv.memory_ns >= 148 && lv.memory_ns <= 152);
	/* to 3M, memory read 150 ns elsewhere in the run: 143 is at least 90 % */
	memset(&c, 0, sizeof c);
	c.sizes = sizes;
	c.nsizes = 16;
	c.random = ns;
	c.huge = LATENCY_HUGE_ON;
	c.memory_ref_ns = 150;
	latency_detect_curves(&c, &lv);
	assert_int_equal(lv.has_memory, 1);
	c.memory_ref_ns = 200; /* 143 is not 90 % of 200: still inside the level */
	latency_detect_curves(&c, &lv);
	assert_int_equal(lv.has_memory, 0);
	assert_int_equal(lv.memory_rising, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(imported_levels),
		cmocka_unit_test(zen5_memtop_run),
		cmocka_unit_test(zen5_csapp_mountain),
		cmocka_unit_test(curves_read),
		cmocka_unit_test(shallow_step_needs_flat_sides),
		cmocka_unit_test(memory_only_on_a_plateau),
	};
	return cmocka_run_group_tests_name("levels", tests, NULL, NULL);
}
