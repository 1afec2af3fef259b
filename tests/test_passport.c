/* Unit tests of the mountain passport (seed 000, step 5, and the Haswell
 * against M4 Max table) on the seed's own Apple M4 Max figures: the peak,
 * the floor and their ratio, the stride-1 ridge's share of the peak, the
 * line size row (the 5-stride row, then the full 256 KB row) with its knee
 * and stride 1 / stride 8; and the book's Haswell summary. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "mountain/passport.h"
#include "seed_m4max.h"

#define K 1024ull
#define M (1024ull * 1024ull)

/* The seed's row_256k: strides 1..15 at 256 KB. */
static void add_full_row(struct mountain *m)
{
	static const double row[] = { 79876, 55905, 45076, 36083, 29151, 24520, 21168, 20841,
				      20123, 19748, 21643, 28225, 19346, 19901, 28296 };
	m->full.size = 256 * K;
	m->full.n = 15;
	for (unsigned s = 1; s <= 15; s++) {
		m->full.strides[s - 1] = s;
		m->full.mbs[s - 1] = row[s - 1];
	}
}

static void m4max_passport(void **state)
{
	struct mountain *m = m4max();
	struct passport p;
	(void)state;
	assert_int_equal(passport_compute(m, &p), 0);
	/* peak: stride 1 at 128K (the 16K row's 90549 at stride 15 is left out) */
	assert_true(p.peak == 89578);
	assert_int_equal(p.peak_size, 128 * K);
	/* floor: 128 MB at stride 15; the seed's "около 10" */
	assert_true(p.floor == 9304);
	assert_int_equal(p.floor_size, 128 * M);
	assert_int_equal(p.floor_stride, 15);
	assert_true(fabs((p.ratio) - (89578.0 / 9304.0)) < 1e-12);
	/* the ridge 256K..128M at stride 1: "76 до 82 ГБ/с", about 85 % */
	assert_int_equal(p.ridge_rows, 7);
	assert_true(p.ridge_mid == 78705);
	assert_true(p.ridge_lo == 76032);
	assert_true(p.ridge_hi == 81794);
	/* the line size row: 256K (the first size past the 128K cliff), knee at
	 * stride 8 = 64 bytes, stride 1 / stride 8 = 79876 / 20841 */
	assert_int_equal(p.row_size, 256 * K);
	assert_false(p.row_full);
	assert_int_equal(p.row_n, 5);
	assert_int_equal(p.line_bytes, 64);
	assert_true(fabs((p.s1_s8) - (79876.0 / 20841.0)) < 1e-12);
	mountain_free(m);
}

static void m4max_full_row(void **state)
{
	struct mountain *m = m4max();
	struct passport p;
	(void)state;
	add_full_row(m);
	assert_int_equal(passport_compute(m, &p), 0);
	assert_true(p.row_full);
	assert_int_equal(p.row_n, 15);
	assert_true(p.row_mbs[11] == 28225); /* the outliers at 12 and 15 */
	assert_true(p.row_mbs[14] == 28296);
	assert_int_equal(p.line_bytes, 64);
	assert_true(fabs((p.s1_s8) - (79876.0 / 20841.0)) < 1e-12);
	mountain_free(m);
}

static void haswell_and_edges(void **state)
{
	static const uint64_t sizes[] = { 16 * K, 32 * K };
	static const unsigned strides[] = { 2, 4 };
	struct passport p;
	struct mountain *m = mountain_new(sizes, 2, strides, 2);
	(void)state;
	passport_book_haswell(&p);
	assert_true(fabs((p.ratio) - (14000.0 / 900.0)) < 1e-12); /* the seed's "около 15" */
	assert_true(fabs((p.ridge_mid / p.peak) - (12.0 / 14.0)) < 1e-12);
	assert_int_equal(p.line_bytes, 64);
	assert_true(isnan(p.s1_s8));
	/* nothing measured: no passport */
	assert_non_null(m);
	assert_int_equal(passport_compute(m, &p), -1);
	/* no stride-1 column: no peak, no ridge; the floor is still there */
	m->mbs[0] = 100;
	m->mbs[3] = 40;
	assert_int_equal(passport_compute(m, &p), 0);
	assert_true(isnan(p.peak));
	assert_true(isnan(p.ratio));
	assert_int_equal(p.ridge_rows, 0);
	assert_true(p.floor == 40);
	mountain_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(m4max_passport),
		cmocka_unit_test(m4max_full_row),
		cmocka_unit_test(haswell_and_edges),
	};
	return cmocka_run_group_tests_name("passport", tests, NULL, NULL);
}
