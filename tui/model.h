/* model: the curses-free half of the TUI's drawing, so the heatmap, the
 * slices, the guess comparison and the side panel can be unit-tested
 * without a terminal (tests/test_tui_model.c). Each function maps data and
 * a size in character cells to what goes where; tui/ draws it. */
#ifndef MEMTOP_TUI_MODEL_H
#define MEMTOP_TUI_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "latency/latency.h"
#include "mountain/cliffs.h"
#include "mountain/mountain.h"

/* ---- heatmap ------------------------------------------------------------ */

enum hm_text { HM_TEXT_NONE, HM_TEXT_GBS, HM_TEXT_MBS };

struct hm_layout {
	int label_w;        /* row label column ("128M ") */
	int cell_w;         /* columns per cell, including one gap column */
	enum hm_text text;  /* what the cell shows: nothing, GB/s "79.9", MB/s "79876" */
	size_t row0, nrows; /* visible size rows [row0, row0 + nrows) */
	size_t col0, ncols; /* visible stride columns */
	int width, height;  /* columns and lines used: header line + nrows */
	double lo, hi;      /* MB/s ends of the log scale (NAN: nothing measured) */
	int ratio;          /* values are ratios (text "1.23"); set after hm_layout */
};

/* Where v sits between lo and hi on a log scale, 0..1 (clamped): the
 * heatmaps' one scale (the Mountain tab's MB/s, the Cores tab's and the
 * NUMA tab's ns and GB/s). flat when lo and hi are one value (hi within
 * 0.01 % of lo); NAN when v is not a positive number or lo or hi is NAN
 * (nothing measured: the cell takes no colour). */
double hm_log_frac(double v, double lo, double hi, double flat);

/* The first of visible consecutive indices out of n that keeps cur among
 * them, cur in the middle where the ends allow (the heatmaps' cursor
 * window: the Mountain tab's and the Cores tab's); 0 when all n fit. */
size_t hm_window(size_t cur, size_t n, size_t visible);

/* Lay out m in width x height cells (height counts the stride header line)
 * keeping the cursor (cur_row, cur_col) visible; the scale spans the
 * measured cells of m, or of ref too when ref is not NULL (a shared scale
 * for side by side). Returns 0, or -1 when not even one cell fits. */
int hm_layout(const struct mountain *m, const struct mountain *ref, int width, int height,
	      size_t cur_row, size_t cur_col, struct hm_layout *L);

/* Where mbs lies on L's log scale: 0 (lo) .. 1 (hi); NAN when mbs is NAN
 * or the scale is empty; 1 when lo == hi. */
double hm_frac(const struct hm_layout *L, double mbs);

/* frac -> palette level 0..levels-1 (rounded); -1 for NAN. */
int hm_level(double frac, int levels);

/* The text of a cell for L->text, right-aligned in L->cell_w - 1 columns
 * ("" for HM_TEXT_NONE; blanks for an unmeasured cell). */
void hm_cell_text(const struct hm_layout *L, double mbs, char *buf, size_t len);

/* Render the visible heatmap as plain ASCII lines (the model the curses
 * draw follows): header "  size  s1   s2 ...", one line per row with its
 * label and, for each cell, its text or a density glyph (".:+#" from low
 * to high; blank when unmeasured); the cursor cell is bracketed by '['
 * and ']' in the gap columns around it. Lines end with
 * '\n'. Returns 0, or -1 when out is too small (cut). */
int hm_render_ascii(const struct mountain *m, const struct hm_layout *L, size_t cur_row,
		    size_t cur_col, char *out, size_t len);

/* ---- bar charts --------------------------------------------------------- */

/* Length in eighths of a column of a bar for v with max filling width
 * columns: 0..8*width; a measured value > 0 gets at least 1; -1 for NAN. */
int bar_eighths(double v, double max, int width);

/* Largest finite value of v[0..n) (0 when none). */
double bar_max(const double *v, size_t n);

/* Format MB/s for labels: "79876 MB/s" style compact: "79.9G", "912M"
 * in at most 5 characters ("" for NAN), in the user's decimal separator
 * ("79,9G" in ru_RU). */
const char *fmt_mbs_short(char *buf, size_t len, double mbs);

/* ---- guess mode --------------------------------------------------------- */

/* How close a guess (bytes) is to a reference (bytes): steps of the size
 * grid (a factor of 2 each), rounded; -1 when either is 0. */
int guess_steps(uint64_t guess, uint64_t ref);

/* One sentence about guess vs detected and system values for level L1..L3
 * ("L2: you said 2M; the mountain's cliff says 2M (exact); sysfs says 2M
 * (exact)"); sys_name names where sys came from. det/sys 0 = unknown.
 * Returns buf. */
const char *guess_sentence(int level, uint64_t guess, uint64_t det, uint64_t sys,
			   const char *sys_name, char *buf, size_t len);

/* How many bytes of s fit in width columns, broken after a word (at least
 * one character; all of s when it fits). Columns are display columns
 * (text_cols). */
int wrap_at(const char *s, int width);

/* ---- text in whole words ------------------------------------------------- */

/* Columns s (UTF-8) takes on the screen: each character's wcwidth (a
 * Cyrillic letter 1, a combining mark 0, a CJK one 2), 1 for a character
 * wcwidth does not know (a locale without UTF-8). Never its bytes. */
int text_cols(const char *s);

/* The longest start of s that ends between words (before a space or at the
 * end) and takes at most width columns: its length in bytes, 0 when not even
 * the first word fits. *cols (may be NULL) gets its columns. */
int text_fit(const char *s, int width, int *cols);

/* The longest start of s made of whole clauses (ending before a ", ",
 * "; " or ": " outside parentheses, or all of s) that takes at most width columns:
 * its length in bytes, 0 when not even the first clause fits. A sentence
 * too long for its room is said shorter this way, never cut in a clause. */
int text_clauses_fit(const char *s, int width);

/* Lay s out in lines of at most width columns, breaking between words: the
 * byte offset and length of each line into off[]/len[] (at most max lines;
 * the spaces at a break are dropped). A word longer than width is cut at
 * width (the only case that cuts a word). Returns the number of lines s
 * needs (which may be more than max: the caller knows what was left out). */
int text_lines(const char *s, int width, int *off, int *len, int max);

/* ---- side panel --------------------------------------------------------- */

/* The side panel judges every detected level, the mountain's and the
 * latency curve's, with ONE rule: cliffs_detect_verdict() (src/cliffs.h),
 * MATCH when the reference lies in [level, level_hi] of a level, ONE_STEP
 * within a factor of two of that range. */

/* The cache levels the latency curve shows (TLB steps left out), as a
 * detection for cliffs_detect_verdict(): level[i] = the last size on the
 * level's plateau, level_hi[i] = the first size on the next plateau (the
 * step's bounds; the size itself when the step end is unknown), votes[i] =
 * the strides that show it. Returns the number of levels (0 when lv is NULL
 * or shows none). */
int latency_as_detection(const struct latency_levels *lv, struct detection *d);

/* The detected row's columns L1d, L2, L3: idx[l] the level of d that
 * ref[l] (the most trusted source's size of level l + 1; 0 unknown) is
 * judged to (cliffs_detect_verdict: matching or one step off), else d's
 * (l + 1)-th level when no other column holds it (a level the curve shows
 * is shown, whatever the sources say), else -1. */
void side_columns(const struct detection *d, const uint64_t ref[3], int idx[3]);

/* A source's size v of level l (0..2) against d, given side_columns' idx:
 * the panel's marks. SIDE_ELSEWHERE: d has that level at another size;
 * SIDE_NOT_SEEN only where d has none. */
enum side_mark { SIDE_MATCH, SIDE_ONE_STEP, SIDE_NOT_SEEN, SIDE_ELSEWHERE };
enum side_mark side_mark_of(const struct detection *d, const int idx[3], int l, uint64_t v);

#endif
