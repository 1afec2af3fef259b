/* Unit tests of the TUI's curses-free models (tui/model.c): the heatmap
 * layout and its ASCII rendering, the log scale, bars, guess sentences and
 * the side panel verdicts. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <math.h>
#include <string.h>

#include "tui/model.h"

/* The seed's M4 Max grid shape: 11 sizes from 16K, strides 1, 2, 4, 8, 15. */
static struct mountain *seedlike(int fill)
{
	uint64_t sizes[11];
	unsigned strides[5] = { 1, 2, 4, 8, 15 };
	struct mountain *m;
	for (int i = 0; i < 11; i++)
		sizes[i] = (16u << 10) << i;
	m = mountain_new(sizes, 11, strides, 5);
	assert_non_null(m);
	if (fill)
		for (size_t r = 0; r < 11; r++)
			for (size_t c = 0; c < 5; c++) /* falls with size and stride */
				m->mbs[r * 5 + c] = 90000.0 / (1 + (double)r) / (1 + (double)c);
	return m;
}

static void layout_widths(void **state)
{
	struct mountain *m = seedlike(1);
	struct hm_layout L;
	(void)state;
	/* wide: MB/s in 7-column cells */
	assert_int_equal(hm_layout(m, NULL, 80, 20, 0, 0, &L), 0);
	assert_int_equal(L.cell_w, 7);
	assert_int_equal(L.text, HM_TEXT_MBS);
	assert_int_equal(L.ncols, 5);
	assert_int_equal(L.nrows, 11);
	assert_int_equal(L.height, 12);
	assert_int_equal(L.width, L.label_w + 35);
	/* narrower: GB/s in 5 columns */
	assert_int_equal(hm_layout(m, NULL, 6 + 25, 20, 0, 0, &L), 0);
	assert_int_equal(L.cell_w, 5);
	assert_int_equal(L.text, HM_TEXT_GBS);
	/* narrower still: glyphs only */
	assert_int_equal(hm_layout(m, NULL, 6 + 15, 20, 0, 0, &L), 0);
	assert_int_equal(L.cell_w, 3);
	assert_int_equal(L.text, HM_TEXT_NONE);
	/* nothing fits */
	assert_int_equal(hm_layout(m, NULL, 5, 20, 0, 0, &L), -1);
	mountain_free(m);
}

static void layout_scrolls_to_cursor(void **state)
{
	struct mountain *m = seedlike(1);
	struct hm_layout L;
	(void)state;
	/* 5 lines: header + 4 rows; the cursor on the last row stays visible */
	assert_int_equal(hm_layout(m, NULL, 80, 5, 10, 4, &L), 0);
	assert_int_equal(L.nrows, 4);
	assert_true(L.row0 <= 10 && 10 < L.row0 + L.nrows);
	assert_int_equal(L.row0, 7);
	assert_int_equal(hm_layout(m, NULL, 80, 5, 0, 0, &L), 0);
	assert_int_equal(L.row0, 0);
	mountain_free(m);
}

static void log_scale(void **state)
{
	struct mountain *m = seedlike(1);
	struct hm_layout L;
	(void)state;
	assert_int_equal(hm_layout(m, NULL, 80, 20, 0, 0, &L), 0);
	assert_float_equal(L.hi, 90000.0, 1e-6);
	assert_float_equal(L.lo, 90000.0 / 11 / 5, 1e-6);
	assert_float_equal(hm_frac(&L, L.hi), 1.0, 1e-9);
	assert_float_equal(hm_frac(&L, L.lo), 0.0, 1e-9);
	/* log: the geometric mean sits in the middle */
	assert_float_equal(hm_frac(&L, sqrt(L.lo * L.hi)), 0.5, 1e-9);
	assert_true(isnan(hm_frac(&L, NAN)));
	assert_int_equal(hm_level(NAN, 6), -1);
	assert_int_equal(hm_level(0.0, 6), 0);
	assert_int_equal(hm_level(1.0, 6), 5);
	assert_int_equal(hm_level(0.5, 5), 2);
	mountain_free(m);
}

static void empty_mountain_scale(void **state)
{
	struct mountain *m = seedlike(0);
	struct hm_layout L;
	char out[4096];
	(void)state;
	assert_int_equal(hm_layout(m, NULL, 80, 20, 0, 0, &L), 0);
	assert_true(isnan(L.lo) && isnan(L.hi));
	assert_true(isnan(hm_frac(&L, 1000.0)));
	/* unmeasured cells render blank: only labels and spaces */
	assert_int_equal(hm_render_ascii(m, &L, 99, 99, out, sizeof out), 0);
	assert_non_null(strstr(out, " 16K  "));
	assert_null(strchr(out, '#'));
	assert_null(strchr(out, '.'));
	mountain_free(m);
}

static void cell_text(void **state)
{
	struct mountain *m = seedlike(1);
	struct hm_layout L;
	char b[32];
	(void)state;
	assert_int_equal(hm_layout(m, NULL, 80, 20, 0, 0, &L), 0);
	hm_cell_text(&L, 79876.4, b, sizeof b);
	assert_string_equal(b, " 79876");
	L.cell_w = 5;
	L.text = HM_TEXT_GBS;
	hm_cell_text(&L, 79876.4, b, sizeof b);
	assert_string_equal(b, "79.9");
	hm_cell_text(&L, 912.0, b, sizeof b);
	assert_string_equal(b, " 0.9");
	hm_cell_text(&L, 123456.0, b, sizeof b);
	assert_string_equal(b, " 123");
	hm_cell_text(&L, NAN, b, sizeof b);
	assert_string_equal(b, "    ");
	L.ratio = 1;
	hm_cell_text(&L, 1.234, b, sizeof b);
	assert_string_equal(b, "1.23");
	L.ratio = 0;
	L.text = HM_TEXT_NONE;
	hm_cell_text(&L, 5.0, b, sizeof b);
	assert_string_equal(b, "");
	mountain_free(m);
}

static void render_rows_and_cursor(void **state)
{
	struct mountain *m = seedlike(1);
	struct hm_layout L;
	char out[8192], *line;
	int n = 0;
	(void)state;
	m->mbs[3 * 5 + 2] = NAN; /* one unmeasured cell */
	assert_int_equal(hm_layout(m, NULL, 6 + 15, 20, 0, 0, &L), 0); /* glyph cells */
	assert_int_equal(hm_render_ascii(m, &L, 2, 1, out, sizeof out), 0);
	for (line = out; (line = strchr(line, '\n')); line++)
		n++;
	assert_int_equal(n, 12); /* header + 11 rows */
	assert_non_null(strstr(out, "    1  2  4  8 15"));
	/* the fastest cell is the densest glyph; the slowest the lightest */
	assert_non_null(strstr(out, " 16K  ## "));
	assert_non_null(strstr(out, " 16M  :: :: .. .. ..\n")); /* slowest: lightest */
	/* row 64K (index 2) holds the cursor at stride 2, brackets in the gaps */
	line = strstr(out, " 64K");
	assert_non_null(line);
	assert_memory_equal(line + 5 + 3, "[++]", 4);
	assert_int_equal(strchr(out, '[') - out, line + 5 + 3 - out); /* only one */
	/* row 128K has a blank cell at stride 4 */
	line = strstr(out, "128K");
	assert_non_null(line);
	assert_memory_equal(line + 4 + 2 + 6, "   ", 3);
	/* too small a buffer is reported */
	assert_int_equal(hm_render_ascii(m, &L, 0, 0, out, 40), -1);
	mountain_free(m);
}

static void shared_scale(void **state)
{
	struct mountain *a = seedlike(1), *b = seedlike(1);
	struct hm_layout L;
	(void)state;
	b->mbs[0] = 200000.0;
	assert_int_equal(hm_layout(a, b, 80, 20, 0, 0, &L), 0);
	assert_float_equal(L.hi, 200000.0, 1e-6);
	assert_true(hm_frac(&L, 90000.0) < 1.0);
	mountain_free(a);
	mountain_free(b);
}

static void bars(void **state)
{
	double v[4] = { 100, 50, NAN, 0.001 };
	char b[16];
	(void)state;
	assert_float_equal(bar_max(v, 4), 100, 0);
	assert_int_equal(bar_eighths(100, 100, 10), 80);
	assert_int_equal(bar_eighths(50, 100, 10), 40);
	assert_int_equal(bar_eighths(NAN, 100, 10), -1);
	assert_int_equal(bar_eighths(0.001, 100, 10), 1); /* measured: visible */
	assert_int_equal(bar_eighths(0, 100, 10), 0);
	assert_string_equal(fmt_mbs_short(b, sizeof b, 79876), "79.9G");
	assert_string_equal(fmt_mbs_short(b, sizeof b, 912), "912M");
	assert_string_equal(fmt_mbs_short(b, sizeof b, 150000), "150G");
	assert_string_equal(fmt_mbs_short(b, sizeof b, NAN), "");
}

static void guess(void **state)
{
	char b[256];
	(void)state;
	assert_int_equal(guess_steps(32768, 32768), 0);
	assert_int_equal(guess_steps(65536, 32768), 1);
	assert_int_equal(guess_steps(8u << 20, 1u << 20), 3);
	assert_int_equal(guess_steps(0, 1), -1);
	guess_sentence(1, 32768, 32768, 49152, "sysfs", b, sizeof b);
	assert_string_equal(b, "L1: you said 32K; the mountain's cliff says 32K (exact); "
			       "sysfs says 48K (1 step below)");
	guess_sentence(3, 64u << 20, 0, 0, "sysfs", b, sizeof b);
	assert_string_equal(b, "L3: you said 64M; the mountain shows no cliff for it; "
			       "sysfs: unknown");
}

static void wrapping(void **state)
{
	(void)state;
	assert_int_equal(wrap_at("short", 10), 5);
	assert_int_equal(wrap_at("one two three", 9), 7); /* "one two" */
	assert_int_equal(wrap_at("abcdefghijkl", 5), 5); /* no space: cut */
	/* columns, not bytes: "…" and "█" are one column each */
	assert_int_equal(wrap_at("ab\xe2\x80\xa6 cd", 3), 5);
	assert_int_equal(wrap_at("\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88", 2), 6);
}

/* Sentences in whole words (tui_put and tui_wrap lay them out with these):
 * a start that ends between words, never inside one. */
static void whole_words(void **state)
{
	int off[8], len[8], cols;
	const char *s = "C: summed in a register";
	(void)state;
	assert_int_equal(text_cols("ab\xe2\x80\xa6"), 3);
	assert_int_equal(text_fit(s, 22, &cols), 14); /* "C: summed in a" */
	assert_int_equal(cols, 14);
	assert_int_equal(text_fit(s, 23, NULL), 23);
	assert_int_equal(text_fit(s, 1, &cols), 0); /* "C:" does not fit */
	assert_int_equal(cols, 0);
	assert_int_equal(text_fit("a  b", 3, NULL), 1); /* the blanks before a cut go */
	/* "the random chase shows the levels they hide" in 20 columns */
	assert_int_equal(text_lines("the random chase shows the levels they hide", 20, off, len, 8),
			 3);
	assert_int_equal(off[0], 0);
	assert_int_equal(len[0], 16); /* "the random chase" */
	assert_int_equal(off[1], 17);
	assert_int_equal(len[1], 16); /* "shows the levels" */
	assert_int_equal(off[2], 34);
	assert_int_equal(len[2], 9); /* "they hide" */
	/* a word longer than the width is the one thing cut */
	assert_int_equal(text_lines("abcdefghij", 4, off, len, 8), 3);
	assert_int_equal(len[0], 4);
	/* more lines than asked for: the count says so */
	assert_int_equal(text_lines("a b c d e f", 1, off, len, 2), 6);
}

/* Widths in display columns, never bytes: a translation's Cyrillic is a
 * column a letter (two bytes each), a CJK character two columns where the
 * locale knows it (wcwidth), a combining mark none. */
static void display_columns(void **state)
{
	/* "Кэш L1 занят" (12 letters, 20 bytes) */
	const char *ru = "\xd0\x9a\xd1\x8d\xd1\x88 L1 \xd0\xb7\xd0\xb0\xd0\xbd\xd1\x8f\xd1\x82";
	int off[4], len[4], cols;
	(void)state;
	assert_int_equal(strlen(ru), 20);
	assert_int_equal(text_cols(ru), 12);
	assert_int_equal(text_fit(ru, 7, &cols), 9); /* "Кэш L1": 6 letters, 9 bytes */
	assert_int_equal(cols, 6);
	assert_int_equal(text_lines(ru, 8, off, len, 4), 2);
	assert_int_equal(len[0], 9);
	assert_int_equal(off[1], 10);
	/* too long: whole clauses, never one cut, parentheses kept whole */
	assert_int_equal(text_clauses_fit("Apple M4 Max (aarch64, macOS), Zig 0.14, -O3", 30), 29);
	assert_int_equal(text_clauses_fit("Apple M4 Max (aarch64, macOS), Zig 0.14, -O3", 45), 44);
	assert_int_equal(text_clauses_fit("Apple M4 Max (aarch64, macOS)", 20), 0);
	if (setlocale(LC_CTYPE, "C.UTF-8") || setlocale(LC_CTYPE, "en_US.UTF-8")) {
		assert_int_equal(text_cols("\xe6\xbc\xa2\xe5\xad\x97"), 4); /* two wide characters */
		assert_int_equal(text_cols("e\xcc\x81"), 1); /* e and a combining acute */
		/* one wide character in one column: taken whole, never half */
		assert_int_equal(wrap_at("\xe6\xbc\xa2\xe5\xad\x97", 1), 3);
		assert_int_equal(wrap_at("\xe6\xbc\xa2\xe5\xad\x97", 3), 3);
		setlocale(LC_CTYPE, "C");
	}
}

/* The side panel's verdicts are cliffs_detect_verdict()'s (one rule for the
 * mountain and the latency columns): MATCH inside [level, level_hi], the
 * bounds the strides intersect to; ONE_STEP within a factor of two. */
/* A size held against a detection: the verdict, and the level it names
 * (ANY_IDX: not checked). */
#define ANY_IDX (-2)
struct verdict_case {
	uint64_t size;
	enum level_verdict verdict;
	int idx;
};

static void verdicts_are(const struct detection *d, const struct verdict_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int idx;
		assert_int_equal(cliffs_detect_verdict(d, c[i].size, &idx), c[i].verdict);
		if (c[i].idx != ANY_IDX)
			assert_int_equal(idx, c[i].idx);
	}
}

static void verdicts(void **state)
{
	struct detection d;
	(void)state;
	memset(&d, 0, sizeof d);
	d.nlevels = 2;
	/* a 48K L1 as strides 8 and 11 bound it (46.5K..64K), an L2 in 2M..4M */
	d.level[0] = 47616;
	d.level_hi[0] = 64u << 10;
	d.level[1] = 2u << 20;
	d.level_hi[1] = 4u << 20;
	verdicts_are(&d, (const struct verdict_case[]){
				 { 48u << 10, LV_MATCH, 0 },
				 /* 32K is below the lower bound: one step, no longer a
				  * match (the old [level, 2 level) rule ignored the
				  * upper stride's bound) */
				 { 32u << 10, LV_ONE_STEP, 0 },
				 /* the upper bound counts (a set the cache's size may or
				  * may not fit): sysfs 4M against 2M..4M is a match (the
				  * old rule said one step) */
				 { 4u << 20, LV_MATCH, 1 },
				 { 1u << 20, LV_ONE_STEP, 1 },
				 { 8u << 20, LV_ONE_STEP, ANY_IDX },
				 { 9u << 20, LV_NOT_VISIBLE, ANY_IDX },
				 { 260u << 20, LV_NOT_VISIBLE, -1 },
			 },
		     7);
	memset(&d, 0, sizeof d); /* nothing detected */
	verdicts_are(&d, (const struct verdict_case[]){ { 1, LV_NOT_VISIBLE, -1 } }, 1);
}

/* The latency column: cache steps become [size, step_end] levels (TLB steps
 * left out) judged by the same rule. */
static void latency_column(void **state)
{
	struct latency_levels lv;
	struct detection d;
	(void)state;
	memset(&lv, 0, sizeof lv);
	lv.n = 4;
	lv.lv[0] = (struct latency_level){ .level = 1, .size = 48u << 10, .step_end = 56u << 10,
					   .nstrides = 3 };
	lv.lv[1] = (struct latency_level){ .level = 1, .tlb = 1, .size = 256u << 10,
					   .step_end = 288u << 10 };
	lv.lv[2] = (struct latency_level){ .level = 2, .size = 1792u << 10, .step_end = 2u << 20,
					   .nstrides = 2 };
	lv.lv[3] = (struct latency_level){ .level = 3, .size = 32u << 20 }; /* end unknown */
	assert_int_equal(latency_as_detection(&lv, &d), 3);
	assert_int_equal(d.nlevels, 3);
	assert_int_equal(d.level[0], 48u << 10);
	assert_int_equal(d.level_hi[0], 56u << 10);
	assert_int_equal(d.votes[0], 3);
	assert_int_equal(d.level[1], 1792u << 10); /* the TLB step is not a cache */
	assert_int_equal(d.level_hi[2], 32u << 20); /* no step end: the size itself */
	/* equal to the size, inside the step, one doubling off, further */
	verdicts_are(&d, (const struct verdict_case[]){
				 { 48u << 10, LV_MATCH, 0 },
				 { 2u << 20, LV_MATCH, 1 },
				 { 32u << 10, LV_ONE_STEP, 0 },
				 { 64u << 20, LV_ONE_STEP, 2 },
				 { 260u << 20, LV_NOT_VISIBLE, ANY_IDX },
			 },
		     5);
	assert_int_equal(latency_as_detection(NULL, &d), 0);
	assert_int_equal(d.nlevels, 0);
}

/* The panel's columns and marks agree with the headline: a level the curve
 * shows is in its column though the sources claim another size (a guest's
 * 480M L3 against a 16M step), and that source is marked '!' (another
 * size), never 'x' (not seen); a mountain whose one cliff is the L2 shows
 * it under L2 alone, and 'x' where it found nothing. */
static void panel_agrees(void **state)
{
	struct detection lat, mtn;
	const uint64_t ref[3] = { 48u << 10, 2u << 20, 480u << 20 };
	int idx[3];
	(void)state;
	memset(&lat, 0, sizeof lat);
	lat.nlevels = 3;
	lat.level[0] = 48u << 10, lat.level_hi[0] = 64u << 10;
	lat.level[1] = 1664u << 10, lat.level_hi[1] = 2u << 20;
	lat.level[2] = 16u << 20, lat.level_hi[2] = 16u << 20;
	side_columns(&lat, ref, idx);
	assert_int_equal(idx[0], 0);
	assert_int_equal(idx[1], 1);
	assert_int_equal(idx[2], 2); /* "L3 16M" in the headline: 16M in the column */
	assert_int_equal(side_mark_of(&lat, idx, 0, 48u << 10), SIDE_MATCH);
	assert_int_equal(side_mark_of(&lat, idx, 2, 480u << 20), SIDE_ELSEWHERE);
	memset(&mtn, 0, sizeof mtn);
	mtn.nlevels = 1;
	mtn.level[0] = 1u << 20, mtn.level_hi[0] = 1u << 20;
	side_columns(&mtn, ref, idx);
	assert_int_equal(idx[0], -1); /* its one level is L2's (one step off 2M) */
	assert_int_equal(idx[1], 0);
	assert_int_equal(idx[2], -1);
	assert_int_equal(side_mark_of(&mtn, idx, 0, 48u << 10), SIDE_NOT_SEEN);
	assert_int_equal(side_mark_of(&mtn, idx, 1, 2u << 20), SIDE_ONE_STEP);
	assert_int_equal(side_mark_of(&mtn, idx, 2, 480u << 20), SIDE_NOT_SEEN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(layout_widths),      cmocka_unit_test(layout_scrolls_to_cursor),
		cmocka_unit_test(log_scale),          cmocka_unit_test(empty_mountain_scale),
		cmocka_unit_test(cell_text),          cmocka_unit_test(render_rows_and_cursor),
		cmocka_unit_test(shared_scale),       cmocka_unit_test(bars),
		cmocka_unit_test(guess),              cmocka_unit_test(verdicts),
		cmocka_unit_test(latency_column),
		cmocka_unit_test(wrapping),
		cmocka_unit_test(whole_words),
		cmocka_unit_test(display_columns),
		cmocka_unit_test(panel_agrees),
	};
	return cmocka_run_group_tests_name("tui_model", tests, NULL, NULL);
}
