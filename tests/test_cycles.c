/* Unit tests of cycles per word (src/mountain/cycles.c) and the book's card
 * (src/mountain/card.c), with the seed's own arithmetic: the book's Haswell,
 * 2100 MHz at 12000 MB/s, 1.4 cycles a word, about three loads in flight
 * against its 4-cycle L1; the M4 Max at 89500 MB/s and at most 4.5 GHz, 0.40
 * cycles a word; its floor, 9304 MB/s, 3.9 cycles a word, under a
 * nanosecond a word. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "mountain/card.h"
#include "mountain/cycles.h"
#include "mountain/mountain_json.h"
#include "os/datadir.h"

static void the_seeds_arithmetic(void **state)
{
	char b[32];
	(void)state;
	assert_string_equal(cpw_fmt(b, sizeof b, cpw_cycles(2.1, 12000)), "1.4");
	assert_string_equal(cpw_fmt(b, sizeof b, cpw_cycles(4.5, 89500)), "0.40");
	assert_string_equal(cpw_fmt(b, sizeof b, cpw_cycles(4.5, 9304)), "3.9");
	assert_true(cpw_ns_per_word(9304) < 1.0); /* under a nanosecond */
	assert_string_equal(cpw_fmt(b, sizeof b, cpw_in_flight(4, cpw_cycles(2.1, 12000))),
			    "2.9");
	assert_string_equal(cpw_fmt(b, sizeof b, cpw_cycles(2.1, 900)), "19");
	assert_true(isnan(cpw_cycles(0, 1000)));
	assert_true(isnan(cpw_cycles(3, NAN)));
	assert_true(isnan(cpw_in_flight(0, 1.4)));
}

static void where_the_clock_comes_from(void **state)
{
	struct run_header h;
	struct cpw_clock c;
	char b[256];
	(void)state;
	memset(&h, 0, sizeof h);
	cpw_clock_of(&h, 1, &c);
	assert_int_equal(c.how, CPW_UNKNOWN);
	assert_string_equal(cpw_phrase(b, sizeof b, 1000, &c), "cycles a word unknown (no core clock)");
	h.ghz_bound = 4.5;
	mt_strlcpy(h.clock_note, "unknown: Apple does not publish it", sizeof h.clock_note);
	cpw_clock_of(&h, 0, &c);
	assert_int_equal(c.how, CPW_BOUND);
	assert_string_equal(cpw_phrase(b, sizeof b, 89500, &c),
			    "at most 0.40 cycles a word (4.5 GHz bound)");
	assert_string_equal(cpw_clock_words(b, sizeof b, &c),
			    "core clock unknown: Apple does not publish it");
	h.clock.core_ghz = 2.1;
	cpw_clock_of(&h, 0, &c);
	assert_int_equal(c.how, CPW_FILE);
	cpw_clock_of(&h, 1, &c);
	assert_int_equal(c.how, CPW_MEASURED);
	assert_string_equal(cpw_phrase(b, sizeof b, 12000, &c), "1.4 cycles a word at 2.10 GHz");
	assert_string_equal(cpw_clock_words(b, sizeof b, &c), "core 2.10 GHz, calibrated with the run");
}

static void the_m4_references_points(void **state)
{
	char path[4096];
	struct mountain *m;
	struct detection d;
	struct cpw_points p;
	struct cpw_clock c;
	mt_error e;
	char b[32];
	(void)state;
	assert_non_null(mt_data_path("m4max.json", path, sizeof path));
	m = mountain_load(path, &e);
	assert_non_null(m);
	assert_int_equal(cliffs_detect(m, 1.5, &d), 0);
	cpw_points_find(m, &d, &p);
	/* the L1 rows 32K..128K (16K is overhead-bound), the best stride-1 rate */
	assert_true(p.have_l1);
	assert_int_equal(m->sizes[p.l1_first], 32768);
	assert_int_equal(m->sizes[p.l1_last], 131072);
	assert_true(p.l1_mbs == 89578);
	/* the floor: 128M at stride 15 */
	assert_true(p.have_floor);
	assert_true(p.floor_mbs == 9304);
	assert_int_equal(m->strides[p.floor_col], 15);
	/* the file carries no clock, only the seed's bound */
	cpw_clock_of(&m->hdr, 0, &c);
	assert_int_equal(c.how, CPW_BOUND);
	assert_true(c.ghz == 4.5);
	assert_non_null(strstr(c.why, "Apple does not publish it"));
	assert_string_equal(cpw_fmt(b, sizeof b, cpw_cycles(c.ghz, p.l1_mbs)), "0.40");
	assert_string_equal(cpw_fmt(b, sizeof b, cpw_cycles(c.ghz, p.floor_mbs)), "3.9");
	mountain_free(m);
}

static void the_books_card(void **state)
{
	struct mountain_card c;
	char lines[CARD_LINES][CARD_WIDTH + 1];
	mt_error e;
	int n, found = 0;
	(void)state;
	assert_int_equal(card_load_bundled(&c, &e), 0);
	assert_int_equal(c.l1d, 32768);
	assert_int_equal(c.l3, 8u << 20);
	assert_true(c.hdr.clock.core_ghz == 2.1);
	n = card_lines(&c, lines, CARD_LINES);
	for (int i = 0; i < n; i++) {
		assert_true(strlen(lines[i]) <= CARD_WIDTH);
		found += strcmp(lines[i], "  L1 12000 MB/s: 1.4 cycles a word") == 0;
		found += strcmp(lines[i], "  L1 hit 4 cycles: 2.9 in flight") == 0;
		found += strcmp(lines[i], "  2.1 GHz, L1d 32K, L2 256K, L3 8M") == 0;
		found += strcmp(lines[i], "  floor about 900 MB/s (1/16 peak)") == 0;
		found += strcmp(lines[i], "  ridge about 12 GB/s (stride 1)") == 0;
	}
	assert_int_equal(n, CARD_LINES);
	assert_int_equal(found, 5);
}

static void a_broken_card_is_refused(void **state)
{
	cJSON *root = cJSON_Parse("{\"experiment\":\"card\",\"mbs\":{\"peak\":1,\"l1_plateau\":1,"
				  "\"ridge\":1,\"floor\":-3}}");
	struct mountain_card c;
	mt_error e;
	(void)state;
	assert_non_null(root);
	assert_int_equal(card_from_json(root, "c.json", &c, &e), -1);
	assert_string_equal(e.msg, "c.json: mbs: field \"floor\" must be a positive MB/s figure");
	cJSON_Delete(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_seeds_arithmetic),
		cmocka_unit_test(where_the_clock_comes_from),
		cmocka_unit_test(the_m4_references_points),
		cmocka_unit_test(the_books_card),
		cmocka_unit_test(a_broken_card_is_refused),
	};
	return cmocka_run_group_tests_name("cycles", tests, NULL, NULL);
}
