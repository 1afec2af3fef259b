/* Unit tests of latency: lat_mem_rd's size sequence, the chase builders,
 * a point's record (its marks, its JSON), the params and the memory cap,
 * the price and the time left, the warm-up's chunks. The level finder on
 * synthetic curves is test_latency_levels.c's. */
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

#include "base/chase.h"
#include "latency/latency.h"
#include "latency/latency_eta.h"
#include "machine/machine.h"
#include "testlib.h"

#define KB 1024ull
#define MB (1024ull * 1024ull)

/* ---- the size sequence ------------------------------------------------- */

static void step_sequence(void **state)
{
	uint64_t s[LATENCY_MAX_SIZES];
	size_t n;
	(void)state;
	assert_int_equal(latency_step(512), 1024);
	assert_int_equal(latency_step(1024), 2048);
	assert_int_equal(latency_step(3072), 4096);
	assert_int_equal(latency_step(4 * KB), 6 * KB);
	assert_int_equal(latency_step(30 * KB), 32 * KB);
	assert_int_equal(latency_step(32 * KB), 36 * KB);
	assert_int_equal(latency_step(48 * KB), 52 * KB);
	assert_int_equal(latency_step(64 * KB), 72 * KB);
	assert_int_equal(latency_step(1 * MB), 1152 * KB);
	assert_int_equal(latency_step(8 * MB), 9 * MB);
	/* 4K..32K in 2K steps (15), then 8 a doubling up to 512M (14 x 8) */
	n = latency_sizes(4 * KB, 512 * MB, s, LATENCY_MAX_SIZES);
	assert_int_equal(n, 15 + 14 * 8);
	assert_int_equal(s[0], 4 * KB);
	assert_int_equal(s[14], 32 * KB);
	assert_int_equal(s[n - 1], 512 * MB);
	n = latency_sizes(4 * KB, 40 * KB, s, LATENCY_MAX_SIZES);
	assert_int_equal(n, 17);
	assert_int_equal(s[16], 40 * KB);
}

/* ---- chases ------------------------------------------------------------- */

static void fixed_chase_visits_its_slots(void **state)
{
	const uint64_t size = 64 * KB;
	const unsigned stride = 256;
	char *buf = aligned_alloc(4096, size);
	void *p;
	size_t n;
	(void)state;
	assert_non_null(buf);
	n = latency_build_fixed(buf, size, stride);
	assert_int_equal(n, size / stride);
	p = buf;
	for (size_t i = 1; i <= n; i++) {
		p = *(void **)p;
		/* slot i mod n, in order */
		assert_ptr_equal(p, buf + (i % n) * stride);
	}
	assert_ptr_equal(chase_walk(buf, n), buf);
	assert_ptr_equal(chase_walk(buf, 3 * n + 5), buf + 5 * stride);
	assert_int_equal(latency_build_fixed(buf, size, 0), 0);
	assert_int_equal(latency_build_fixed(buf, size, 12), 0);
	assert_int_equal(latency_build_fixed(buf, 4096, 8192), 0);
	/* one slot: points to itself */
	assert_int_equal(latency_build_fixed(buf, 4096, 4096), 1);
	assert_ptr_equal(*(void **)buf, buf);
	free(buf);
}

/* Follow the chase at start for n loads within buf: each load lands on a
 * slot of the chase (stride apart, off into it), none twice, and the n-th
 * back at start, every slot seen. Returns how many loads went on to the
 * next slot in memory (the fixed chase: all); *changes (unless NULL) how
 * many went from one group of locality bytes to another. */
static size_t check_one_cycle(char *buf, char *start, size_t n, unsigned stride, unsigned off,
			      uint64_t locality, size_t *changes)
{
	unsigned char *seen = calloc(n, 1);
	char *p = start;
	size_t in_order = 0;
	assert_non_null(seen);
	for (size_t i = 0; i < n; i++) {
		size_t at = (size_t)(p - buf), next;
		assert_int_equal(at % stride, off);
		assert_true(at / stride < n);
		assert_int_equal(seen[at / stride], 0); /* never twice before the end */
		seen[at / stride] = 1;
		p = *(void **)p;
		next = (size_t)(p - buf);
		in_order += next == (at + stride) % (n * stride);
		if (changes)
			*changes += next / locality != at / locality;
	}
	assert_ptr_equal(p, start); /* back at the start after exactly n loads */
	for (size_t i = 0; i < n; i++)
		assert_int_equal(seen[i], 1);
	free(seen);
	return in_order;
}

static void random_chase_is_one_cycle(void **state)
{
	const uint64_t size = 256 * KB;
	const unsigned stride = 128;
	size_t n = size / stride;
	char *buf = aligned_alloc(4096, size);
	uint32_t *scratch = malloc(n * sizeof *scratch);
	(void)state;
	assert_non_null(buf);
	assert_non_null(scratch);
	assert_int_equal(latency_build_random(buf, size, stride, 42, scratch), n);
	/* not the fixed chase in disguise */
	assert_true(check_one_cycle(buf, buf, n, stride, 0, size, NULL) < n / 8);
	assert_ptr_equal(chase_walk(buf, n), buf);
	/* the same seed gives the same order; another seed another */
	{
		void *first = *(void **)buf;
		latency_build_random(buf, size, stride, 42, scratch);
		assert_ptr_equal(*(void **)buf, first);
	}
	/* two slots: each points to the other */
	assert_int_equal(latency_build_random(buf, 256, 128, 7, scratch), 2);
	assert_ptr_equal(*(void **)buf, buf + 128);
	assert_ptr_equal(*(void **)(buf + 128), buf);
	/* a stride that is no multiple of a pointer: refused */
	assert_int_equal(chase_build_cycle(buf, size, 12, 1, scratch), 0);
	free(scratch);
	free(buf);
}

/* Chases grown size by size side by side: two fixed strides and the random
 * cycle share one buffer at offsets 0, 8 and 16 of their slots; after each
 * size every one is a whole cycle through its slots and the others are
 * untouched; the random cycle grown in steps is byte for byte the one grown
 * in one go (the same draws); a slot a size: itself. */
static void grown_chases_share_a_buffer(void **state)
{
	static const uint64_t sizes[] = { 4 * KB, 6 * KB, 64 * KB, 72 * KB, 256 * KB };
	const uint64_t big = 256 * KB;
	char *buf = aligned_alloc(4096, big), *once = aligned_alloc(4096, big);
	size_t have[3] = { 0, 0, 0 };
	uint64_t rng = 42, rng1 = 42;
	(void)state;
	assert_non_null(buf);
	assert_non_null(once);
	memset(buf, 0, big);
	memset(once, 0, big);
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		size_t n0 = sizes[k] / 128, n1 = sizes[k] / 4096;
		assert_int_equal(latency_grow_fixed(buf, 128, 0, have[0], n0), n0);
		assert_int_equal(latency_grow_fixed(buf, 4096, 8, have[1], n1), n1);
		assert_int_equal(latency_grow_random(buf, 128, 16, have[2], n0, &rng), n0);
		have[0] = have[2] = n0;
		have[1] = n1;
		check_one_cycle(buf, buf, n0, 128, 0, big, NULL);
		check_one_cycle(buf, buf + 8, n1, 4096, 8, big, NULL);
		check_one_cycle(buf, buf + 16, n0, 128, 16, big, NULL);
		/* the fixed chases in order */
		assert_ptr_equal(*(void **)(buf + (n0 - 1) * 128), buf);
		assert_ptr_equal(*(void **)(buf + 8), n1 > 1 ? buf + 4096 + 8 : buf + 8);
	}
	assert_true(chase_walk(buf, 1) == buf + 128);
	assert_int_equal(latency_grow_random(once, 128, 16, 0, big / 128, &rng1), big / 128);
	for (size_t i = 0; i < big / 128; i++)
		assert_ptr_equal(*(char **)(buf + i * 128 + 16) - buf,
				 *(char **)(once + i * 128 + 16) - once);
	assert_true(rng == rng1);
	/* bad arguments: nothing to grow to, shrinking, an offset past the
	 * slot or off the pointer size */
	assert_int_equal(latency_grow_fixed(buf, 128, 0, 0, 0), 0);
	assert_int_equal(latency_grow_fixed(buf, 128, 0, 9, 8), 0);
	assert_int_equal(latency_grow_fixed(buf, 128, 124, 0, 8), 0);
	assert_int_equal(latency_grow_random(buf, 128, 4, 0, 8, &rng), 0);
	assert_int_equal(latency_grow_random(buf, 128, 0, 0, 8, NULL), 0);
	free(once);
	free(buf);
}

/* The grown random cycle is a uniform one: over 6000 draws of a cycle
 * through 4 slots, each of the 3! = 6 cycles comes up 1000 times give or
 * take 4.5 standard deviations (29 each; the draws are fixed, so this is
 * exact for these seeds), and none else. */
static void grown_random_cycle_is_uniform(void **state)
{
	char buf[4 * 64];
	unsigned count[64] = { 0 }, kinds = 0;
	uint64_t rng = 7;
	(void)state;
	for (int t = 0; t < 6000; t++) {
		unsigned code = 0;
		char *p = buf;
		latency_grow_random(buf, 64, 0, 0, 4, &rng);
		/* the cycle by the slots after 0, after that one, after that */
		for (int k = 0; k < 3; k++) {
			p = *(char **)p;
			code = code * 4 + (unsigned)((p - buf) / 64);
		}
		assert_ptr_equal(*(char **)p, buf);
		count[code % 64]++;
	}
	for (unsigned c = 0; c < 64; c++) {
		if (!count[c])
			continue;
		kinds++;
		assert_true(count[c] > 870 && count[c] < 1130);
	}
	assert_int_equal(kinds, 6);
}

/* Which parameters grow their chases side by side: the default and the
 * quick run; not a stride off 64, nor TLB locality, nor more than 8 chases. */
static void chases_grow_when_they_can(void **state)
{
	struct latency_params p;
	(void)state;
	latency_params_default(&p);
	assert_true(latency_chases_grow(&p));
	latency_params_quick(&p);
	assert_true(latency_chases_grow(&p));
	p.tlb_locality = 256 * KB;
	assert_false(latency_chases_grow(&p));
	p.random = 0; /* no random chase: its locality does not matter */
	assert_true(latency_chases_grow(&p));
	p.strides[0] = 96;
	assert_false(latency_chases_grow(&p));
	latency_params_default(&p);
	p.nstrides = 7;
	p.strides[6] = 8192; /* 8 chases */
	assert_true(latency_chases_grow(&p));
	p.nstrides = 8;
	p.strides[7] = 16384;
	assert_false(latency_chases_grow(&p));
}

/* The chase with TLB locality: one cycle through every slot, where each
 * group of locality bytes is visited as one unbroken run (so the cycle
 * changes group exactly once a group), in a random order inside the group;
 * a locality at least the size is the plain random chase. */
static void local_random_chase_keeps_to_its_groups(void **state)
{
	const uint64_t size = 1024 * KB, locality = 64 * KB;
	const unsigned stride = 128;
	size_t n = size / stride, per = locality / stride, changes = 0, in_order;
	char *buf = aligned_alloc(4096, size);
	uint32_t *scratch = malloc((n + n / per + 1) * sizeof *scratch);
	char *p;
	(void)state;
	assert_non_null(buf);
	assert_non_null(scratch);
	assert_int_equal(latency_build_random_local(buf, size, stride, locality, 42, scratch), n);
	in_order = check_one_cycle(buf, buf, n, stride, 0, locality, &changes);
	assert_int_equal(changes, size / locality); /* each group one run */
	assert_true(in_order < n / 8);              /* random inside the groups */
	/* a locality at least the size: the plain random chase, slot for slot */
	latency_build_random(buf, size, stride, 7, scratch);
	p = *(void **)buf;
	assert_int_equal(latency_build_random_local(buf, size, stride, size, 7, scratch), n);
	assert_ptr_equal(*(void **)buf, p);
	/* a last group cut short: 5 slots in groups of 2 */
	assert_int_equal(latency_build_random_local(buf, 640, 128, 256, 3, scratch), 5);
	p = buf;
	for (size_t i = 0; i < 5; i++)
		p = *(void **)p;
	assert_ptr_equal(p, buf);
	free(scratch);
	free(buf);
}

/* The synthetic run of the point record's tests: four sizes, strides 128
 * and 4096 and the random chase, nine points of them measured. */
static struct latency_result *record_run(void)
{
	static const struct {
		int row, col, kind;
		double ns, spread;
		int tries;
	} pts[] = {
		{ 0, 0, 0, 1.5, 0.05, 3 },   { 0, 1, 0, 1.5, 0.25, 6 },  /* trusted, not */
		{ 0, 2, 1, 1.6, 0.10, 3 },   { 1, 0, 0, 4.0, 0.1001, 6 }, /* the bound: trusted; over */
		{ 1, 1, 0, 4.0, 0.5, 0 },    { 1, 2, 1, 4.5, 0.0, 3 },   /* tries unknown: trusted */
		{ 2, 0, 0, 12.0, 0.02, 3 },  { 2, 1, 0, 12.5, 0.01, 3 },
		{ 2, 2, 1, 40.0, 0.75, 6 },  /* row 3 (16K) left unmeasured */
	};
	struct latency_params p;
	struct latency_result *r;
	struct job_event ev;
	latency_params_quick(&p);
	p.nsizes = latency_sizes(4096, 16384, p.sizes, LATENCY_MAX_SIZES); /* 4K 6K 8K .. 16K */
	p.nsizes = 4;
	r = latency_result_new(&p, 2.0);
	assert_non_null(r);
	for (size_t j = 0; j < sizeof pts / sizeof pts[0]; j++) {
		job_cell(&ev, pts[j].kind, pts[j].row, pts[j].col, pts[j].ns, 0);
		JOB_PAYLOAD_PUT(&ev, struct latency_ev_point,
				&((struct latency_ev_point){ .cycles = pts[j].ns * 2.0,
							 .tries = (unsigned)pts[j].tries }));
		ev.spread = pts[j].spread;
		assert_int_equal(latency_apply(r, &ev), 0);
	}
	return r;
}

/* A point's record: the spread and tries of each point kept, the points
 * whose tries stay over LATENCY_DOUBTFUL_SPREAD apart marked ~ in the table,
 * counted (record_run's synthetic run). */
static void point_record_marks(void **state)
{
	struct latency_result *r = record_run();
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	(void)state;
	assert_int_equal(latency_measured(r), 9);
	assert_int_equal(latency_doubtful(r), 3);
	assert_true(latency_point_doubtful(r, 1, 0) && latency_point_doubtful(r, 0, 1) &&
		    latency_point_doubtful(r, 2, 2));
	assert_false(latency_point_doubtful(r, 2, 0) || latency_point_doubtful(r, 1, 1) ||
		     latency_point_doubtful(r, 0, 3) || latency_point_doubtful(r, 3, 0));
	assert_int_equal(r->tries[1][0], 6);
	assert_true(r->random_spread[2] == 0.75);
	/* the table's rows: an untrusted ns ends in ~, the columns stay */
	f = open_memstream(&text, &len);
	assert_non_null(f);
	for (size_t i = 0; i < 3; i++)
		latency_print_row(f, r, i, 0);
	latency_print_row(f, r, 0, 1);
	latency_print_row(f, r, 1, 1);
	fclose(f);
	/* the CSV's: cycles, ns, spread, tries, trusted a chase; spread and
	 * trusted empty where the tries are not known */
	assert_string_equal(text, "      4K     3.00    1.50     3.00   1.50~     3.20    1.60\n"
				  "      6K     8.00   4.00~     8.00    4.00     9.00    4.50\n"
				  "      8K    24.00   12.00    25.00   12.50    80.00  40.00~\n"
				  "4096,3.000,1.500,0.0500,3,1,3.000,1.500,0.2500,6,0,"
				  "3.200,1.600,0.1000,3,1\n"
				  "6144,8.000,4.000,0.1001,6,0,8.000,4.000,,0,,9.000,4.500,0.0000,3,1\n");
	free(text);
	latency_result_free(r);
}

/* The point record through the JSON: spread null where the tries are not
 * known, read back with the same marks; a spread without its tries
 * refused; a file from before the record read with nothing marked. */
static void point_record_in_json(void **state)
{
	struct latency_result *r = record_run(), *back;
	cJSON *root, *rnd;
	mt_error e = { "" };
	(void)state;
	root = latency_to_json(r);
	assert_non_null(root);
	rnd = cJSON_GetObjectItem(root, "random");
	/* one row per stride, one value per size */
	assert_true(cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "spread"), 1), 0)
			    ->valuedouble == 0.25);
	assert_true(cJSON_IsNull(
		cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "spread"), 1), 1)));
	assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(rnd, "tries"), 2)->valueint, 6);
	back = latency_from_json(root, "r.json", &e);
	assert_non_null(back);
	assert_int_equal(latency_doubtful(back), 3);
	assert_true(latency_point_doubtful(back, 0, 1) && back->tries[0][1] == 6);
	latency_result_free(back);
	/* spread without tries, and a spread where the tries are 0, are refused */
	cJSON_DeleteItemFromObject(root, "tries");
	assert_null(latency_from_json(root, "r.json", &e));
	assert_string_equal(e.msg, "r.json: spread and tries need 2 rows each (one per stride)");
	cJSON_Delete(root);
	root = latency_to_json(r);
	cJSON_ReplaceItemInArray(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "random"), "tries"), 0,
				 cJSON_CreateNumber(0));
	assert_null(latency_from_json(root, "r.json", &e));
	assert_string_equal(e.msg, "r.json: spread random value 1: null exactly where tries is 0");
	/* a file from before the record (or an import): nothing known, nothing marked */
	cJSON_DeleteItemFromObject(root, "spread");
	cJSON_DeleteItemFromObject(root, "tries");
	cJSON_DeleteItemFromObject(cJSON_GetObjectItem(root, "random"), "spread");
	cJSON_DeleteItemFromObject(cJSON_GetObjectItem(root, "random"), "tries");
	back = latency_from_json(root, "r.json", &e);
	assert_non_null(back);
	assert_int_equal(latency_measured(back), 9);
	assert_int_equal(latency_doubtful(back), 0);
	latency_result_free(back);
	cJSON_Delete(root);
	latency_result_free(r);
}

static void params_and_memory_cap(void **state)
{
	struct latency_params p;
	struct machine_budget b;
	char note[400];
	mt_error e;
	(void)state;
	latency_params_default(&p);
	assert_int_equal(p.nsizes, 127);
	assert_int_equal(p.nstrides, 6);
	assert_int_equal(p.sizes[p.nsizes - 1], 512 * MB);
	MT_BUDGET(b, 0, 0);
	assert_int_equal(latency_params_fit_memory(&p, &b, NULL, note, sizeof note, &e), 0);
	assert_int_equal(p.nsizes, 127);
	MT_BUDGET(b, 300 * MB, 0);
	assert_int_equal(latency_params_fit_memory(&p, &b, "the default", note, sizeof note, &e),
			 0);
	assert_int_equal(p.sizes[p.nsizes - 1], 144 * MB);
	assert_string_equal(note, "300M of memory available: sizes capped at 144M, the default "
				  "would be 512M");
	assert_string_equal(p.note, note);
	/* both page sizes: two buffers; the second chase goes first, then the
	 * sizes if one buffer does not fit either, both said */
	latency_params_default(&p);
	assert_int_equal(latency_pages_both(&p, "madvise"), 1);
	MT_BUDGET(b, 1536 * MB, 0);
	assert_int_equal(latency_params_fit_memory(&p, &b, NULL, note, sizeof note, &e), 0);
	assert_int_equal(p.other, 0);
	assert_int_equal(p.sizes[p.nsizes - 1], 512 * MB);
	assert_string_equal(note, "1536M of memory available: the random chase on huge pages left "
				  "out (two buffers of 512M do not fit in half of the 1536M a run "
				  "may take)");
	/* a job's cgroup of 768M, 720M of it left to a run: the second chase
	 * first, then the sizes, one sentence naming the job */
	latency_params_default(&p);
	latency_pages_both(&p, "always");
	latency_params_set_max(&p, 2048 * MB, &e);
	MT_BUDGET(b, 720 * MB, 768 * MB);
	assert_int_equal(latency_params_fit_memory(&p, &b, "4 x the L3 508M (cpuid)", note,
						   sizeof note, &e), 0);
	assert_int_equal(p.other, 0);
	assert_int_equal(p.sizes[p.nsizes - 1], 352 * MB);
	assert_string_equal(note, "this job may use 768M (its cgroup): the random chase on huge "
				  "pages left out (two buffers of 2G do not fit in half of the "
				  "720M a run may take); sizes capped at 352M, 4 x the L3 508M "
				  "(cpuid) would be 2G");
	assert_string_equal(p.note, note);
	latency_params_default(&p);
	latency_pages_both(&p, "madvise");
	MT_BUDGET(b, 4096 * MB, 0);
	assert_int_equal(latency_params_fit_memory(&p, &b, NULL, note, sizeof note, &e), 0);
	assert_int_equal(p.other, 1); /* 2 x 512M in half of 4G: both kept */
	assert_string_equal(note, "");
	/* a job with less than 8K left: not even a 4K chase, said */
	MT_BUDGET(b, 4096, 256 * MB);
	assert_int_equal(latency_params_fit_memory(&p, &b, NULL, note, sizeof note, &e), -1);
	assert_string_equal(e.msg, "not enough memory for a 4K chase (this job may use 256M (its "
				   "cgroup))");
	assert_int_equal(latency_params_set_max(&p, 100 * KB, &e), 0);
	assert_int_equal(p.sizes[p.nsizes - 1], 96 * KB);
	assert_int_equal(latency_params_set_max(&p, 1000, &e), -1);
	assert_true(latency_params_estimate_s(&p) > 0);
}

/* The estimate prices points beyond 1 MB with the probes when there are
 * some (recorded figures): a slower memory and a dearer link cost more, in
 * proportion; sizes within 1 MB are priced the same either way. */
static void estimate_from_probes(void **state)
{
	struct latency_params p, q, small;
	double guess, probed, slower;
	(void)state;
	latency_params_default(&p);
	p.page_ns = 100;
	guess = latency_params_estimate_s(&p);
	q = p;
	q.probe = (struct latency_probe){ .rand_mid = 20, .rand_far = 110, .fixed_far = { 5, 110 },
				      .link_fixed = { 5, 5 }, .link_random = { 20, 20 } };
	probed = latency_params_estimate_s(&q);
	q.probe.rand_far = 250; /* a busy host's memory: the random points cost more */
	q.probe.rand_mid = 150;
	slower = latency_params_estimate_s(&q);
	assert_true(slower > probed);
	q.probe.link_random[1] = 60; /* linking the random cycle at 64 MB three times dearer */
	assert_true(latency_params_estimate_s(&q) > slower);
	assert_true(probed > 0 && guess > 0);
	/* within 1 MB the probes change nothing */
	small = p;
	latency_params_set_max(&small, 1u << 20, &(mt_error){ "" });
	guess = latency_params_estimate_s(&small);
	small.probe = q.probe;
	assert_true(latency_params_estimate_s(&small) == guess);
	/* chases grown size by size cost less to link than chases linked
	 * afresh at every size (TLB locality links its groups afresh) */
	q = p;
	q.tlb_locality = 256 * KB;
	assert_true(latency_params_estimate_s(&q) > latency_params_estimate_s(&p) + 1);
}

/* The time left is priced from the points measured so far (recorded
 * figures, dyadic so the arithmetic is exact): a column's ratio of real to
 * priced, cost-weighted; the run's while a column has none; the price alone
 * before anything is measured; nonsense ignored. */
static void eta_from_measured_points(void **state)
{
	struct latency_eta t;
	(void)state;
	latency_eta_init(&t, 0);
	assert_true(latency_eta_point_ns(&t, 0, 1000) == 1000); /* nothing measured */
	/* stride column 0: 3 tries priced, 6 taken (the retry rule) on a
	 * small point, then a big point whose linking cost twice its price */
	latency_eta_add(&t, 0, 1e6, 2e6);
	assert_true(latency_eta_point_ns(&t, 0, 4e6) == 8e6);
	latency_eta_add(&t, 0, 3e6, 4e6); /* (2 + 4) / (1 + 3) = 1.5 */
	assert_true(latency_eta_point_ns(&t, 0, 4e6) == 6e6);
	/* the random column as measured, apart from column 0 */
	latency_eta_add(&t, LATENCY_MAX_STRIDES, 4e6, 1e6);
	assert_true(latency_eta_point_ns(&t, LATENCY_MAX_STRIDES, 8e6) == 2e6);
	assert_true(latency_eta_point_ns(&t, 0, 8e6) == 12e6);
	/* a column not measured yet: the run's (2 + 4 + 1) / (1 + 3 + 4) */
	assert_true(latency_eta_point_ns(&t, 3, 8e6) == 7e6);
	/* no column past the last, no price or time of zero, NaN */
	latency_eta_add(&t, LATENCY_ETA_COLS, 1e6, 9e6);
	latency_eta_add(&t, 3, 0, 9e6);
	latency_eta_add(&t, 3, 1e6, NAN);
	assert_true(latency_eta_point_ns(&t, 3, 8e6) == 7e6);
	assert_true(latency_eta_point_ns(&t, LATENCY_ETA_COLS, 8e6) == 7e6);
	/* the column after the random chase: the random chase on the other
	 * page size, its own */
	latency_eta_add(&t, LATENCY_MAX_STRIDES + 1, 2e6, 1e6);
	assert_true(latency_eta_point_ns(&t, LATENCY_MAX_STRIDES + 1, 8e6) == 4e6);
}

/* A column's latest LATENCY_ETA_WINDOW points price its next: the small
 * points' overheads are forgotten once eight larger ones ran. */
static void eta_window(void **state)
{
	struct latency_eta t;
	(void)state;
	latency_eta_init(&t, 0);
	latency_eta_add(&t, 2, 1e6, 9e6); /* small, dear: 9x */
	latency_eta_add(&t, 2, 1e6, 9e6);
	assert_true(latency_eta_point_ns(&t, 2, 4e6) == 36e6);
	for (int k = 0; k < LATENCY_ETA_WINDOW; k++)
		latency_eta_add(&t, 2, 8e6, 12e6); /* then 1.5x, eight of them */
	assert_true(latency_eta_point_ns(&t, 2, 4e6) == 6e6);
	/* the run's ratio, for a column with none, still counts them all */
	assert_true(fabs(latency_eta_point_ns(&t, 0, 66e6) - 114e6) < 1); /* (18 + 96) / (2 + 64) */
}

/* The figure said is revised when the projection departs from it by more
 * than 15 %, once a fifth of the run is done and 15 % of the figure said
 * has passed since it was said; never without a figure. (Both projections
 * alike here: the latest points' and the whole run's.) */
static void eta_revise_rule(void **state)
{
	struct latency_eta t;
	(void)state;
	latency_eta_init(&t, 20);
	assert_true(latency_eta_revise(&t, 1, 29, 29) == 0);  /* 30 s, but 1 s in: too early */
	assert_true(latency_eta_revise(&t, 5, 17.5, 17.5) == 0);  /* 22.5 s: within 15 % of 20 */
	assert_true(latency_eta_revise(&t, 5, 18.5, 18.5) == 23.5); /* 23.5 s: 17.5 % off */
	assert_true(t.said_s == 23.5 && t.revisions == 1 && t.said_at_s == 5);
	assert_true(latency_eta_revise(&t, 8, 28, 28) == 0);    /* 36 s, but 3 s after: too soon */
	assert_true(latency_eta_revise(&t, 8, 17, 17) == 0);    /* 25 s against 23.5 */
	assert_true(latency_eta_revise(&t, 10, 9.5, 9.5) == 19.5); /* faster now: 19.5 s */
	assert_true(t.said_s == 19.5 && t.revisions == 2);
	assert_true(latency_eta_revise(&t, 10, NAN, 9.5) == 0); /* nonsense ignored */
	latency_eta_init(&t, 0);
	assert_true(latency_eta_revise(&t, 10, 90, 90) == 0); /* nothing was said */
}

/* Of the two projections the one closer to the figure said is taken, and
 * none when they lie on either side of it; the share done that settles a
 * projection counts the points only, not the pages done before them. */
static void eta_revise_conservative(void **state)
{
	struct latency_eta t;
	(void)state;
	latency_eta_init(&t, 20);
	/* 30 s by the latest points, 24 s by all: 24 is said */
	assert_true(latency_eta_revise(&t, 6, 24, 18) == 24);
	latency_eta_init(&t, 20);
	/* 30 s by the latest points, 16 s by all: on either side of 20, kept */
	assert_true(latency_eta_revise(&t, 6, 24, 10) == 0);
	assert_true(t.said_s == 20 && t.revisions == 0);
	/* 10 s of pages, then 1 s of points of 15 more: a fifth of the whole
	 * (26 s) is done, not a fifth of the points: too early */
	latency_eta_init(&t, 20);
	t.fixed_s = 10;
	assert_true(latency_eta_revise(&t, 11, 15, 15) == 0);
	assert_true(latency_eta_revise(&t, 14, 12, 12) == 26); /* 4 s of 16: a fourth */
}

/* One recorded run (tests/data/latency-eta-*.txt): the ns before the
 * first point, then the points in order (column, ns priced, ns taken). */
struct eta_trace {
	double before, total;
	size_t n;
	unsigned col[2048];
	double priced[2048], real[2048];
};

static void eta_trace_load(const char *name, struct eta_trace *tr)
{
	char path[512], line[256];
	const char *dir = getenv("TESTDATA");
	FILE *f;
	memset(tr, 0, sizeof *tr);
	snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", name);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof line, f)) {
		double a, b;
		unsigned c;
		if (sscanf(line, "# before the first point (populate): %lf ns", &a) == 1)
			tr->before = a;
		else if (line[0] != '#' && sscanf(line, "%u %lf %lf", &c, &a, &b) == 3 &&
			 tr->n < 2048) {
			tr->col[tr->n] = c;
			tr->priced[tr->n] = a;
			tr->real[tr->n++] = b;
		}
	}
	fclose(f);
	tr->total = tr->before;
	for (size_t i = 0; i < tr->n; i++)
		tr->total += tr->real[i];
}

/* Replay a recorded run through the estimate as the worker uses it (each
 * point added, the rest priced by latency_eta_point_ns and _all, the totals
 * offered to latency_eta_revise). Returns the revisions; *last the last figure
 * said, *high the highest (the announced one included). */
static unsigned eta_replay(const struct eta_trace *tr, double announced, double *last,
			   double *high)
{
	struct latency_eta t;
	double el = tr->before, highest = announced;
	latency_eta_init(&t, announced);
	*last = 0;
	t.fixed_s = tr->before / 1e9;
	for (size_t i = 0; i < tr->n; i++) {
		double left = 0, left_all = 0;
		latency_eta_add(&t, tr->col[i], tr->priced[i], tr->real[i]);
		el += tr->real[i];
		for (size_t j = i + 1; j < tr->n; j++) {
			left += latency_eta_point_ns(&t, tr->col[j], tr->priced[j]);
			left_all += latency_eta_point_ns_all(&t, tr->col[j], tr->priced[j]);
		}
		if (latency_eta_revise(&t, el / 1e9, left / 1e9, left_all / 1e9) > 0 &&
		    t.said_s > *last)
			*last = t.said_s; /* the highest figure said, until the end */
	}
	if (highest > *last)
		*last = highest;
	*high = *last;
	*last = t.said_s;
	return t.revisions;
}

/* Two default runs recorded on the 2-vCPU Xeon guest under load (announced
 * 23 s, took 40.3; announced 22 s, took 26.3): the figure said is revised,
 * a few times at most, and the last one said is within 15 % of the time
 * the run took. The same run on plan (each point taking its price) is
 * never revised. */
static void eta_recorded_runs(void **state)
{
	static struct eta_trace tr;
	static const struct {
		const char *file;
		double announced, took;
	} runs[] = {
		{ "latency-eta-xeon-vm-load10.txt", 23, 40.3 },
		{ "latency-eta-xeon-vm-load9.txt", 22, 26.3 },
	};
	(void)state;
	for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
		double last, high, priced = 0;
		unsigned n;
		eta_trace_load(runs[k].file, &tr);
		assert_int_equal(tr.n, 889); /* 127 sizes x 7 chases */
		assert_true(fabs(tr.total / 1e9 - runs[k].took) < 0.1);
		n = eta_replay(&tr, runs[k].announced, &last, &high);
		assert_true(n >= 1 && n <= 4);
		assert_true(fabs(last - tr.total / 1e9) <= 0.15 * tr.total / 1e9);
		/* on plan: every point takes its price; announced as priced */
		for (size_t i = 0; i < tr.n; i++)
			priced += tr.real[i] = tr.priced[i];
		assert_int_equal(eta_replay(&tr, (tr.before + priced) / 1e9, &last, &high), 0);
	}
}

/* Two default runs on both page sizes recorded on the 2-vCPU Zen 5 guest,
 * quiet: the figure is said once the pages are in (8.2 and 8.5 s of them,
 * where the host had not backed the memory yet), so the pages' time is
 * known; announced as the pages' time and the points priced, it is within
 * 15 % of the time the run took, and no figure said later overshoots that
 * time (the latest points alone revised these runs to 27.3 and 26.1 s). */
static void eta_recorded_runs_priced_after_pages(void **state)
{
	static struct eta_trace tr;
	static const char *const runs[] = { "latency-eta-zen5-vm-both1.txt",
					    "latency-eta-zen5-vm-both2.txt" };
	(void)state;
	for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
		double last, high, priced = 0, took, announced;
		eta_trace_load(runs[k], &tr);
		assert_int_equal(tr.n, 1112); /* 139 sizes x 8 chases */
		for (size_t i = 0; i < tr.n; i++)
			priced += tr.priced[i];
		took = tr.total / 1e9;
		announced = ceil((tr.before + priced) / 1e9);
		assert_true(fabs(announced - took) <= 0.15 * took);
		(void)eta_replay(&tr, announced, &last, &high);
		assert_true(high <= 1.15 * took);
		assert_true(fabs(last - took) <= 0.15 * took);
	}
}

/* A warm-up's chunks between two looks at the job: ~20 ms at the ns a
 * load given, the first at most 65536 loads whatever the estimate (numa's
 * 256M point began from a 2 ns guess: 2M loads at memory's 250 ns, 0.5 s
 * before a stop was seen), and never under 4096. */
static const struct {
	double ns;
	int first;
	uint64_t loads;
} warmup_chunks[] = {
	{ 2.0, 1, 65536 },    { 2.0, 0, 10000000 }, { 250.0, 1, 65536 }, { 250.0, 0, 80000 },
	{ 1000.0, 1, 20000 }, { 1e6, 0, 4096 },     { 0, 1, 65536 },
};

static void warmup_chunks_stay_short(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof warmup_chunks / sizeof *warmup_chunks; i++)
		assert_int_equal(latency_chunk_loads(warmup_chunks[i].ns, warmup_chunks[i].first),
				 warmup_chunks[i].loads);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(eta_from_measured_points),
		cmocka_unit_test(eta_window),
		cmocka_unit_test(eta_revise_rule),
		cmocka_unit_test(eta_recorded_runs),
		cmocka_unit_test(eta_recorded_runs_priced_after_pages),
		cmocka_unit_test(eta_revise_conservative),
		cmocka_unit_test(estimate_from_probes),
		cmocka_unit_test(step_sequence),
		cmocka_unit_test(fixed_chase_visits_its_slots),
		cmocka_unit_test(random_chase_is_one_cycle),
		cmocka_unit_test(local_random_chase_keeps_to_its_groups),
		cmocka_unit_test(grown_chases_share_a_buffer),
		cmocka_unit_test(grown_random_cycle_is_uniform),
		cmocka_unit_test(chases_grow_when_they_can),
		cmocka_unit_test(point_record_marks),
		cmocka_unit_test(point_record_in_json),
		cmocka_unit_test(params_and_memory_cap),
		cmocka_unit_test(warmup_chunks_stay_short),
	};
	return cmocka_run_group_tests_name("latency", tests, NULL, NULL);
}
