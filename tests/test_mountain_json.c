/* Unit tests of mountain files: the seed's shape round-trips, unknown fields
 * are ignored, and every kind of bad input is refused with one line naming
 * the file and the field. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mountain/mountain_json.h"

static struct mountain *parse(const char *text, mt_error *e)
{
	cJSON *root = cJSON_Parse(text);
	struct mountain *m;
	assert_non_null(root);
	m = mountain_from_json(root, "m.json", e);
	cJSON_Delete(root);
	return m;
}

/* The seed's own test file: an extra field, two sizes, two strides. */
static void seed_shape_is_read(void **state)
{
	mt_error e;
	struct mountain *m = parse("{\"sizes\":[16384,32768],\"strides\":[1,2],"
				   "\"throughput\":[[10,9],[5,4]],\"extra\":true}",
				   &e);
	(void)state;
	assert_non_null(m);
	assert_int_equal(m->nsizes, 2);
	assert_int_equal(m->nstrides, 2);
	assert_int_equal(mountain_stride_index(m, 2), 1);
	assert_true(mountain_at(m, 1, 0) == 5);
	assert_true(isnan(m->spread[0])); /* optional tables absent */
	assert_true(isnan(m->typical[0]));
	mountain_free(m);
}

static void expect_error(const char *text, const char *msg)
{
	mt_error e = { "" };
	struct mountain *m = parse(text, &e);
	assert_null(m);
	assert_string_equal(e.msg, msg);
}

static void bad_inputs_name_file_and_field(void **state)
{
	(void)state;
	expect_error("{\"sizes\":[16384],\"strides\":[1],\"throughput\":[[10]],"
		     "\"row_256k\":{\"size\":262144,\"strides\":[1,2],\"throughput\":[5]}}",
		     "m.json: row_256k: throughput has 1 values, expected 2 (one per stride)");
	expect_error("{\"sizes\":[16384],\"strides\":[1],\"throughput\":[[10]],"
		     "\"row_256k\":{\"size\":262144,\"strides\":[2,1],\"throughput\":[5,4]}}",
		     "m.json: row_256k: strides must be increasing (value 2 is not above value 1)");
	expect_error("{\"sizes\":[16384],\"strides\":[1],\"throughput\":[[10]],"
		     "\"row_256k\":{\"size\":262144,\"strides\":[1],\"throughput\":[-5]}}",
		     "m.json: row_256k: throughput value 1 is not a positive number");
	expect_error("{\"sizes\":[16384],\"strides\":[1],\"throughput\":[[10]],"
		     "\"row_256k\":{\"strides\":[1],\"throughput\":[5]}}",
		     "m.json: row_256k: field \"size\" is missing");
	expect_error("{\"sizes\":[16384,32768],\"strides\":[1,2],\"throughput\":[[10,9]]}",
		     "m.json: throughput has 1 rows, expected 2 (one per size)");
	expect_error("{\"sizes\":[16384,32768,65536],\"strides\":[1,2],"
		     "\"throughput\":[[10,9],[5,4],[3,2,1]]}",
		     "m.json: throughput row 3 has 3 values, expected 2");
	expect_error("{\"strides\":[1],\"throughput\":[[1]]}", "m.json: field \"sizes\" is missing");
	expect_error("{\"sizes\":\"16K\",\"strides\":[1],\"throughput\":[[1]]}",
		     "m.json: field \"sizes\" is not an array");
	expect_error("{\"sizes\":[16384,0],\"strides\":[1],\"throughput\":[[1],[1]]}",
		     "m.json: sizes value 2 must be in 1..70368744177664");
	expect_error("{\"sizes\":[32768,16384],\"strides\":[1],\"throughput\":[[1],[1]]}",
		     "m.json: sizes must be increasing (value 2 is not above value 1)");
	expect_error("{\"sizes\":[16384],\"strides\":[2,2],\"throughput\":[[1,1]]}",
		     "m.json: strides must be increasing (value 2 is not above value 1)");
	expect_error("{\"sizes\":[16384.5],\"strides\":[1],\"throughput\":[[1]]}",
		     "m.json: sizes value 1 is not an integer");
	expect_error("{\"sizes\":[16384],\"strides\":[1],\"throughput\":[[\"fast\"]]}",
		     "m.json: throughput row 1 value 1 is not a finite non-negative number");
	expect_error("{\"sizes\":[16384],\"strides\":[1],\"throughput\":[[-5]]}",
		     "m.json: throughput row 1 value 1 is not a finite non-negative number");
	expect_error("{\"sizes\":[16384],\"strides\":[1],\"throughput\":[[0]]}",
		     "m.json: throughput row 1 value 1 must be positive");
	expect_error("{\"sizes\":[],\"strides\":[1],\"throughput\":[]}", "m.json: sizes is empty");
	expect_error("{\"sizes\":[16384],\"strides\":[1],\"throughput\":[5]}",
		     "m.json: throughput row 1 is not an array");
	expect_error("[1,2]", "m.json: not a JSON object");
}

static void round_trip(void **state)
{
	uint64_t sizes[] = { 16384, 32768, 65536 };
	unsigned strides[] = { 1, 8 };
	char dir[] = "/tmp/memtop-mj.XXXXXX", path[128];
	struct mountain *m = mountain_new(sizes, 3, strides, 2), *back;
	mt_error e;
	(void)state;
	assert_non_null(mkdtemp(dir));
	mt_snprintf(path, sizeof path, "%s/m.json", dir);
	for (int i = 0; i < 6; i++) {
		m->mbs[i] = 1000.0 * (i + 1) + 0.25;
		m->spread[i] = 0.01 * i;
		m->typical[i] = 900.0 * (i + 1);
	}
	m->mbs[5] = NAN; /* not measured yet */
	m->full.size = 32768; /* a full stride row beside the grid, as the seed's row_256k */
	m->full.n = 3;
	for (unsigned c = 0; c < 3; c++) {
		m->full.strides[c] = c + 1;
		m->full.mbs[c] = 900.0 - 100 * c;
	}
	m->full.mbs[1] = NAN;
	mt_strlcpy(m->hdr.hardware, "test machine", sizeof m->hdr.hardware);
	mt_strlcpy(m->hdr.date, "2026-12-02 10:00", sizeof m->hdr.date);
	assert_int_equal(mountain_save(m, path, &e), 0);
	back = mountain_load(path, &e);
	assert_non_null(back);
	assert_int_equal(back->nsizes, 3);
	assert_int_equal(back->nstrides, 2);
	assert_int_equal(back->sizes[2], 65536);
	assert_true(fabs(mountain_at(back, 0, 0) - 1000.3) < 1e-9); /* 0.1 MB/s, as the seed */
	assert_true(isnan(mountain_at(back, 2, 1)));
	assert_true(fabs(back->spread[4] - 0.04) < 1e-9);
	assert_true(back->typical[3] == 3600.0); /* the median try, MB/s */
	assert_string_equal(back->hdr.hardware, "test machine");
	assert_string_equal(back->hdr.date, "2026-12-02 10:00");
	assert_int_equal(back->full.size, 32768);
	assert_int_equal(back->full.n, 3);
	assert_int_equal(back->full.strides[2], 3);
	assert_true(back->full.mbs[2] == 700);
	assert_true(isnan(back->full.mbs[1]));
	mountain_free(back);
	mountain_free(m);
	unlink(path);
	rmdir(dir);
}

static void bad_file_errors(void **state)
{
	char dir[] = "/tmp/memtop-mj.XXXXXX", path[128];
	mt_error e;
	FILE *f;
	(void)state;
	assert_non_null(mkdtemp(dir));
	mt_snprintf(path, sizeof path, "%s/broken.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\n  \"sizes\": [16384,\n  oops\n}\n", f);
	fclose(f);
	assert_null(mountain_load(path, &e));
	assert_non_null(strstr(e.msg, "broken.json: not valid JSON near line 3"));
	unlink(path);
	assert_null(mountain_load(path, &e));
	assert_non_null(strstr(e.msg, "No such file"));
	rmdir(dir);
}

static void reference_is_found(void **state)
{
	char buf[4096];
	mt_error e;
	struct mountain *m;
	(void)state;
	assert_non_null(mountain_reference_path(buf, sizeof buf));
	m = mountain_load(buf, &e);
	assert_non_null(m);
	/* the seed's M4 Max table: 11 sizes x strides 1, 2, 4, 8, 15 */
	assert_int_equal(m->nsizes, 11);
	assert_int_equal(m->nstrides, 5);
	assert_int_equal(m->strides[4], 15);
	assert_true(mountain_at(m, 3, 3) == 73807); /* 128K, stride 8 */
	assert_string_equal(m->hdr.date, "2026-09-09");
	/* and its full 256 KB row: strides 1..15, the outliers at 12 and 15 */
	assert_int_equal(m->full.size, 262144);
	assert_int_equal(m->full.n, 15);
	assert_true(m->full.mbs[0] == 79876);
	assert_true(m->full.mbs[7] == 20841);
	assert_true(m->full.mbs[11] == 28225);
	assert_true(m->full.mbs[14] == 28296);
	mountain_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seed_shape_is_read),
		cmocka_unit_test(bad_inputs_name_file_and_field),
		cmocka_unit_test(round_trip),
		cmocka_unit_test(bad_file_errors),
		cmocka_unit_test(reference_is_found),
	};
	return cmocka_run_group_tests_name("mountain_json", tests, NULL, NULL);
}
