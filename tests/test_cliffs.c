/* Unit tests of the cliff finder, as the seed tests it: its synthetic
 * mountain and the Apple M4 Max table, with the seed's rule and the merged
 * rule; the line size from the stride slice; verdicts against sysfs sizes. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "mountain/cliffs.h"
#include "seed_m4max.h"

#define K 1024ull
#define M (1024ull * 1024ull)

/* Three plateaus, 100, 40 and 10, cliffs after 64 KB and 1 MB; on stride 1
 * the prefetcher hides the second. */
static struct mountain *synthetic(void)
{
	static const uint64_t sizes[] = { 16 * K, 32 * K, 64 * K, 128 * K, 256 * K,
					  512 * K, 1 * M, 2 * M, 4 * M };
	static const unsigned strides[] = { 1, 8 };
	static const double rows[][2] = { { 100, 100 }, { 100, 100 }, { 100, 100 },
					   { 95, 40 },   { 95, 40 },   { 95, 40 },
					   { 95, 40 },   { 90, 10 },   { 90, 10 } };
	struct mountain *m = mountain_new(sizes, 9, strides, 2);
	assert_non_null(m);
	memcpy(m->mbs, rows, sizeof rows);
	return m;
}

static size_t col(const struct mountain *m, unsigned stride)
{
	int c = mountain_stride_index(m, stride);
	assert_true(c >= 0);
	return (size_t)c;
}

/* c is the cliff from..to whose ratio is ratio (within tol). */
static void check_cliff(const struct cliff *c, uint64_t from, uint64_t to, double ratio,
			double tol)
{
	assert_int_equal(c->from, from);
	assert_int_equal(c->to, to);
	assert_true(fabs(c->ratio - ratio) < tol);
}

static void seed_synthetic_stride_8(void **state)
{
	struct mountain *m = synthetic();
	struct cliff cs[CLIFFS_MAX];
	int n;
	(void)state;
	for (int rule = CLIFF_SEED; rule <= CLIFF_MERGED; rule++) {
		n = cliffs_find(m, col(m, 8), (enum cliff_rule)rule, 1.5, cs, CLIFFS_MAX, NULL);
		assert_int_equal(n, 2);
		check_cliff(&cs[0], 64 * K, 128 * K, 2.5, 1e-9);
		assert_int_equal(cs[0].level, 64 * K);
		check_cliff(&cs[1], 1 * M, 2 * M, 4.0, 1e-9);
		assert_int_equal(cs[1].level, 1 * M);
	}
	mountain_free(m);
}

static void seed_synthetic_stride_1_and_3(void **state)
{
	struct mountain *m = synthetic();
	struct cliff cs[CLIFFS_MAX];
	mt_error e;
	(void)state;
	assert_int_equal(cliffs_find(m, col(m, 1), CLIFF_SEED, 1.5, cs, CLIFFS_MAX, NULL), 0);
	assert_int_equal(cliffs_find(m, col(m, 1), CLIFF_MERGED, 1.5, cs, CLIFFS_MAX, NULL), 0);
	assert_int_equal(mountain_stride_index(m, 3), -1); /* the CLI exits 2 */
	assert_int_equal(cliffs_find(m, 7, CLIFF_SEED, 1.5, cs, CLIFFS_MAX, &e), -1);
	mountain_free(m);
}

static void m4max_seed_rule(void **state)
{
	struct mountain *m = m4max();
	struct cliff cs[CLIFFS_MAX];
	int n;
	(void)state;
	n = cliffs_find(m, col(m, 15), CLIFF_SEED, 1.5, cs, CLIFFS_MAX, NULL);
	assert_int_equal(n, 2);
	check_cliff(&cs[0], 128 * K, 256 * K, 2.97, 0.005);
	check_cliff(&cs[1], 256 * K, 512 * K, 1.66, 0.005); /* the seed's false L2 */
	n = cliffs_find(m, col(m, 8), CLIFF_SEED, 1.5, cs, CLIFFS_MAX, NULL);
	assert_int_equal(n, 1);
	assert_int_equal(cs[0].from, 128 * K);
	assert_true(fabs(cs[0].ratio - 3.54) < 0.005);
	assert_int_equal(cliffs_find(m, col(m, 1), CLIFF_SEED, 1.5, cs, CLIFFS_MAX, NULL), 0);
	mountain_free(m);
}

static void m4max_merged_rule_one_level(void **state)
{
	struct mountain *m = m4max();
	struct cliff cs[CLIFFS_MAX];
	int n;
	(void)state;
	n = cliffs_find(m, col(m, 15), CLIFF_MERGED, 1.5, cs, CLIFFS_MAX, NULL);
	assert_int_equal(n, 1);
	assert_int_equal(cs[0].level, 128 * K);
	assert_int_equal(cs[0].level_next, 256 * K);
	assert_int_equal(cs[0].from, 128 * K);
	/* the slope runs on through 512K, 1M and 4M (each still >= 10 %) */
	assert_int_equal(cs[0].to, 4 * M);
	assert_true(cs[0].ratio > 6.0 && cs[0].ratio < 6.5);
	assert_true(cs[0].confidence == 1.0);
	n = cliffs_find(m, col(m, 8), CLIFF_MERGED, 1.5, cs, CLIFFS_MAX, NULL);
	assert_int_equal(n, 1);
	assert_int_equal(cs[0].level, 128 * K);
	mountain_free(m);
}

static void m4max_detect_and_line(void **state)
{
	struct mountain *m = m4max();
	struct detection d;
	int which;
	(void)state;
	assert_int_equal(cliffs_detect(m, 1.5, &d), 0);
	assert_int_equal(d.nstrides_used, 2); /* 8 and 15 */
	assert_int_equal(d.nlevels, 1);
	assert_int_equal(d.level[0], 128 * K);
	assert_int_equal(d.line_bytes, 64); /* 256K row flattens at stride 8 */
	/* hw.perflevel0.l1dcachesize 131072 matches; L2 16 MB is not visible */
	assert_int_equal(cliffs_detect_verdict(&d, 131072, &which), LV_MATCH);
	assert_int_equal(which, 0);
	assert_int_equal(cliffs_detect_verdict(&d, 16 * M, &which), LV_NOT_VISIBLE);
	assert_int_equal(which, -1);
	/* the efficiency cores' 64 KB is one step off */
	assert_int_equal(cliffs_detect_verdict(&d, 64 * K, &which), LV_ONE_STEP);
	assert_string_equal(cliffs_verdict_name(LV_ONE_STEP), "off by one step");
	mountain_free(m);
}

/* The seed's full 256 KB row over strides 1..15: flat from stride 8. */
static void line_size_from_full_row(void **state)
{
	static const double row[15] = { 79876, 55905, 45076, 36083, 29151, 24520, 21168, 20841,
					20123, 19748, 21643, 28225, 19346, 19901, 28296 };
	uint64_t size = 256 * K;
	unsigned strides[15];
	struct mountain *m;
	(void)state;
	for (unsigned s = 0; s < 15; s++)
		strides[s] = s + 1;
	m = mountain_new(&size, 1, strides, 15);
	assert_non_null(m);
	memcpy(m->mbs, row, sizeof row);
	assert_int_equal(cliffs_line_size(m, 0), 64);
	/* a slice that never flattens: no answer rather than a wrong one */
	for (int i = 0; i < 15; i++)
		m->mbs[i] = 100000.0 / (i + 1);
	assert_int_equal(cliffs_line_size(m, 0), 0);
	mountain_free(m);
}

static void synthetic_detect_and_verdicts(void **state)
{
	struct mountain *m = synthetic();
	struct detection d;
	int which;
	(void)state;
	assert_int_equal(cliffs_detect(m, 1.5, &d), 0);
	assert_int_equal(d.nlevels, 2);
	assert_int_equal(d.level[0], 64 * K);
	assert_int_equal(d.level[1], 1 * M);
	assert_int_equal(cliffs_detect_verdict(&d, 96 * K, &which), LV_MATCH);
	assert_int_equal(which, 0);
	assert_int_equal(cliffs_detect_verdict(&d, 32 * K, &which), LV_ONE_STEP);
	assert_int_equal(cliffs_detect_verdict(&d, 1 * M, &which), LV_MATCH);
	assert_int_equal(which, 1);
	assert_int_equal(cliffs_detect_verdict(&d, 64 * M, &which), LV_NOT_VISIBLE);
	mountain_free(m);
}

/* Columns that agree on three levels; one column passes the last boundary
 * through a point half-way (no level of its own), two fall once more in a
 * cell whose tries disagree by 60 % (not read: else half the columns would
 * show a fourth level). */
static void detect_spread_boundary_and_doubtful_cell(void **state)
{
	uint64_t sizes[14];
	static const unsigned strides[] = { 8, 9, 10, 11 };
	struct mountain *m;
	struct detection d;
	(void)state;
	for (size_t r = 0; r < 14; r++)
		sizes[r] = (16 * K) << r;
	m = mountain_new(sizes, 14, strides, 4);
	assert_non_null(m);
	for (size_t r = 0; r < 14; r++)
		for (size_t c = 0; c < 4; c++) {
			double v = sizes[r] <= 32 * K ? 100 : sizes[r] <= 1 * M ? 40
							 : sizes[r] <= 8 * M ? 20 : 5;
			if (c == 1 && sizes[r] == 8 * M)
				v = 12; /* 20, 12, 5: the L3 boundary in two steps */
			m->mbs[r * 4 + c] = v;
			m->spread[r * 4 + c] = 0.01;
		}
	for (size_t c = 2; c < 4; c++) {
		m->mbs[13 * 4 + c] = 1;      /* 128M on strides 10 and 11: a fall ... */
		m->spread[13 * 4 + c] = 0.6; /* ... the measurement itself doubts */
	}
	assert_int_equal(cliffs_detect(m, CLIFFS_RATIO, &d), 0);
	assert_int_equal(d.nlevels, 3);
	assert_int_equal(d.size[0], 32 * K);
	assert_int_equal(d.size[1], 1 * M);
	assert_int_equal(d.size[2], 8 * M);
	assert_int_equal(d.votes[2], 4);
	assert_int_equal(d.level[2], 8 * M);
	assert_int_equal(d.level_hi[2], 16 * M);
	mountain_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seed_synthetic_stride_8),
		cmocka_unit_test(seed_synthetic_stride_1_and_3),
		cmocka_unit_test(m4max_seed_rule),
		cmocka_unit_test(m4max_merged_rule_one_level),
		cmocka_unit_test(m4max_detect_and_line),
		cmocka_unit_test(line_size_from_full_row),
		cmocka_unit_test(synthetic_detect_and_verdicts),
		cmocka_unit_test(detect_spread_boundary_and_doubtful_cell),
	};
	return cmocka_run_group_tests_name("cliffs", tests, NULL, NULL);
}
