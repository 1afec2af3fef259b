/* Unit tests of transpose (the seed's table of misses, exact) and algae (the
 * array-of-structs / struct-of-arrays table, exact). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "algae/algae.h"
#include "sim/sim.h"
#include "transpose/transpose.h"

static uint64_t misses(const char *version, int rows, int cols)
{
	struct transpose_version v;
	struct transpose_counts r;
	mt_error e;
	assert_int_equal(transpose_version_parse(version, &v, &e), 0);
	assert_int_equal(transpose_simulate(&v, rows, cols, 5, 1, 5, NULL, NULL, &r, &e), 0);
	assert_true(r.correct);
	assert_int_equal(r.hits + r.misses, r.accesses);
	return r.misses;
}

/* The seed's table, cell by cell: misses of each version at 32x32, 64x64
 * and 61x67. */
static void seed_table(void **state)
{
	static const struct {
		const char *version;
		int misses[3];
	} seed[] = {
		{ "naive", { 1180, 4720, 4706 } },
		{ "block:8", { 340, 4720, 2222 } },
		{ "block:16", { 1180, 4720, 2005 } },
		{ "diagonal", { 284, 1224, 2005 } },
	};
	static const int rows[3] = { 32, 64, 61 }, cols[3] = { 32, 64, 67 };
	(void)state;
	for (size_t v = 0; v < MT_ARRAY_LEN(seed); v++)
		for (int z = 0; z < 3; z++)
			assert_int_equal(misses(seed[v].version, rows[z], cols[z]), seed[v].misses[z]);
}

static void counts_and_callback(void **state)
{
	struct transpose_version v;
	struct transpose_counts r;
	mt_error e;
	(void)state;
	transpose_version_parse("naive", &v, &e);
	assert_int_equal(transpose_simulate(&v, 32, 32, 5, 1, 5, NULL, NULL, &r, &e), 0);
	assert_int_equal(r.accesses, 2048);
	assert_int_equal(r.hits, 868);
	assert_int_equal(r.misses, 1180);
	/* the 64x64 trick loads the parked values back from B: 4 x 4 per block */
	transpose_version_parse("diagonal", &v, &e);
	assert_int_equal(transpose_simulate(&v, 64, 64, 5, 1, 5, NULL, NULL, &r, &e), 0);
	assert_int_equal(r.accesses, 2 * 64 * 64 + 64 * 32);
	/* odd shapes and blocks that do not divide them */
	transpose_version_parse("block:5", &v, &e);
	assert_int_equal(transpose_simulate(&v, 7, 13, 5, 1, 5, NULL, NULL, &r, &e), 0);
	assert_true(r.correct);
	assert_int_equal(r.accesses, 2 * 7 * 13);
	transpose_version_parse("diagonal", &v, &e);
	assert_int_equal(transpose_simulate(&v, 1, 1, 0, 1, 0, NULL, NULL, &r, &e), 0);
	assert_true(r.correct);
	/* a bigger associative cache: block 8 on 64x64 stops conflicting */
	transpose_version_parse("block:8", &v, &e);
	assert_int_equal(transpose_simulate(&v, 64, 64, 4, 4, 5, NULL, NULL, &r, &e), 0);
	assert_true(r.misses < 4720 / 3);
	assert_int_equal(transpose_simulate(&v, 64, 64, 5, 0, 5, NULL, NULL, &r, &e), -1);
	assert_non_null(strstr(e.msg, "E must be"));
}

struct tally {
	uint64_t loads_a, stores_b, loads_b, misses;
	int first_row, first_col, first_matrix;
};

static void on_access(void *ctx, int matrix, int row, int col, int is_store, unsigned flags)
{
	struct tally *t = ctx;
	if (t->loads_a + t->stores_b + t->loads_b == 0) {
		t->first_matrix = matrix;
		t->first_row = row;
		t->first_col = col;
	}
	if (matrix == 0 && !is_store)
		t->loads_a++;
	else if (matrix == 1 && is_store)
		t->stores_b++;
	else if (matrix == 1)
		t->loads_b++;
	else
		fail_msg("a store to A");
	t->misses += (flags & SIM_MISS) != 0;
}

static void callback_sees_every_access(void **state)
{
	struct transpose_version v;
	struct transpose_counts r;
	struct tally t;
	mt_error e;
	(void)state;
	memset(&t, 0, sizeof t);
	transpose_version_parse("diagonal", &v, &e);
	assert_int_equal(transpose_simulate(&v, 64, 64, 5, 1, 5, on_access, &t, &r, &e), 0);
	assert_int_equal(t.loads_a, 64 * 64);
	assert_int_equal(t.stores_b, 64 * 64 + 64 * 16);
	assert_int_equal(t.loads_b, 64 * 16);
	assert_int_equal(t.misses, 1224);
	assert_int_equal(t.first_matrix, 0);
	assert_int_equal(t.first_row, 0);
	assert_int_equal(t.first_col, 0);
}

static void parsing_and_limits(void **state)
{
	struct transpose_version v;
	char buf[32];
	int rows, cols;
	mt_error e;
	(void)state;
	assert_int_equal(transpose_version_parse("block:12", &v, &e), 0);
	assert_int_equal(v.method, TRANSPOSE_BLOCK);
	assert_int_equal(v.br, 12);
	assert_int_equal(v.bc, 12);
	assert_string_equal(transpose_version_name(&v, buf, sizeof buf), "block:12");
	assert_int_equal(transpose_version_parse("block:0", &v, &e), -1);
	assert_int_equal(transpose_version_parse("block:", &v, &e), -1);
	assert_int_equal(transpose_version_parse("blocked", &v, &e), -1);
	assert_non_null(strstr(e.msg, "expected naive, block:K, block:RxC, buffer:K or diagonal"));
	/* CHK-4's non-square blocks: R rows by C columns */
	assert_int_equal(transpose_version_parse("block:16x4", &v, &e), 0);
	assert_int_equal(v.method, TRANSPOSE_BLOCK);
	assert_int_equal(v.br, 16);
	assert_int_equal(v.bc, 4);
	assert_string_equal(transpose_version_name(&v, buf, sizeof buf), "block:16x4");
	assert_int_equal(transpose_version_parse("buffer:8", &v, &e), 0);
	assert_int_equal(v.method, TRANSPOSE_BUFFER);
	assert_string_equal(transpose_version_name(&v, buf, sizeof buf), "buffer:8");
	assert_int_equal(transpose_version_parse("buffer:4x512", &v, &e), -1);
	assert_int_equal(transpose_version_parse("block:16x", &v, &e), -1);
	assert_int_equal(transpose_version_parse("block:x4", &v, &e), -1);
	assert_int_equal(transpose_size_parse("61x67", &rows, &cols, &e), 0);
	assert_int_equal(rows, 61);
	assert_int_equal(cols, 67);
	assert_int_equal(transpose_size_parse("61", &rows, &cols, &e), -1);
	assert_int_equal(transpose_size_parse("0x5", &rows, &cols, &e), -1);
	assert_int_equal(transpose_size_parse("x5", &rows, &cols, &e), -1);
	assert_int_equal(transpose_size_parse("5x9999", &rows, &cols, &e), -1);
	assert_int_equal(transpose_size_parse("8192x8192", &rows, &cols, &e), -1);
	assert_int_equal(transpose_cachelab_limit(32, 32), 300);
	assert_int_equal(transpose_cachelab_limit(64, 64), 1300);
	assert_int_equal(transpose_cachelab_limit(61, 67), 2000);
	assert_int_equal(transpose_cachelab_limit(67, 61), 0);
	assert_int_equal(transpose_base_b(64, 64), TRANSPOSE_BASE_B);
	assert_int_equal(transpose_base_b(512, 512), TRANSPOSE_BASE_A + 0x100000);
}

static void real_kernels_transpose(void **state)
{
	size_t n = 37;
	int32_t *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b);
	(void)state;
	for (size_t k = 0; k < n * n; k++)
		a[k] = (int32_t)k;
	/* each kernel whole (rows 0..n), then in bands of rows (a multiple of
	 * the block's rows, the last band short), as a timed run does them */
	for (int pass = 0; pass < 6; pass++) {
		size_t band = pass < 3 ? n : pass == 5 ? 15 : 16;
		memset(b, 0xff, n * n * sizeof *b);
		for (size_t i0 = 0; i0 < n; i0 += band) {
			size_t i1 = i0 + band < n ? i0 + band : n;
			if (pass % 3 == 1)
				transpose_real_blocked(a, b, n, i0, i1, 8, 3);
			else if (pass % 3 == 2)
				transpose_real_buffered(a, b, n, i0, i1, 5, 16);
			else
				transpose_real_naive(a, b, n, i0, i1);
		}
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++)
				assert_int_equal(b[j * n + i], a[i * n + j]);
	}
	free(a);
	free(b);
}

/* A timed run's bands: TRANSPOSE_BAND_ROWS rows, rounded up to whole block rows. */
static void real_bands(void **state)
{
	static const struct {
		const char *v;
		size_t band;
	} want[] = { { "naive", 256 }, { "block:16", 256 }, { "block:24", 264 },
		     { "buffer:5x16", 260 }, { "block:8x3", 256 } };
	(void)state;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		struct transpose_version v;
		assert_int_equal(transpose_version_parse(want[i].v, &v, NULL), 0);
		assert_int_equal(transpose_real_band(&v), want[i].band);
	}
}

static void algae_table(void **state)
{
	static const struct {
		const char *name;
		uint64_t reads, misses, doubled; /* on (6,1,4), on the doubled (7,1,4) */
	} want[ALGAE_CASES] = {
		{ "aos-two-passes", 512, 256, 128 }, { "aos-column", 512, 256, 128 },
		{ "aos-row", 512, 128, 128 },	      { "soa-two-passes", 512, 128, 128 },
		{ "soa-one-pass", 512, 512, 128 },   { "aos-one-field", 256, 128, 128 },
		{ "soa-one-field", 256, 64, 64 },
	};
	struct algae_params p;
	struct algae_result r;
	mt_error e;
	(void)state;
	algae_params_default(&p);
	for (int i = 0; i < ALGAE_CASES; i++) {
		assert_int_equal(algae_run(i, &p, &r, &e), 0);
		assert_string_equal(r.name, want[i].name);
		assert_int_equal(r.reads, want[i].reads);
		assert_int_equal(r.misses, want[i].misses);
	}
	/* the lesson on 6.19: double the cache and the grid fits, the column
	 * walk drops to its 128 cold misses */
	p.s = 7;
	for (int i = 0; i < ALGAE_CASES; i++) {
		assert_int_equal(algae_run(i, &p, &r, &e), 0);
		assert_int_equal(r.misses, want[i].doubled);
	}
	/* the homework's five-field struct: one field of the array of structs
	 * misses on every read (20-byte stride, 16-byte blocks), the struct of
	 * arrays still on one read in four */
	p.s = 6;
	p.fields = 5;
	assert_int_equal(algae_run(5, &p, &r, &e), 0);
	assert_int_equal(r.misses, 256);
	assert_int_equal(algae_run(6, &p, &r, &e), 0);
	assert_int_equal(r.misses, 64);
	assert_int_equal(algae_run(ALGAE_CASES, &p, &r, &e), -1);
	p.fields = 1;
	assert_int_equal(algae_run(0, &p, &r, &e), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seed_table),
		cmocka_unit_test(counts_and_callback),
		cmocka_unit_test(callback_sees_every_access),
		cmocka_unit_test(parsing_and_limits),
		cmocka_unit_test(real_kernels_transpose),
		cmocka_unit_test(real_bands),
		cmocka_unit_test(algae_table),
	};
	return cmocka_run_group_tests_name("transpose", tests, NULL, NULL);
}
