/* tab_transpose_draw: drawing the Transpose tab's area: A and B element
 * by element (the latest access's outcome, or with S each element's cache
 * set), the head line with the counters at the step shown, cachelab's
 * verdict and the block sweep, the real machine's timings, and with a the
 * algae table. */
#include "config.h"

#include "algae/algae.h"
#include "base/i18n.h"
#include "sim/sim.h"
#include "transpose/transpose.h"
#include "tab_transpose.h"

#include <stdlib.h>
#include <string.h>

enum { TLINE = 512 }; /* a line's bytes under the matrices: a Cyrillic letter takes two */

/* s at (y, x), clipped to cols columns (never inside a character). */
static void put_cols(WINDOW *w, int y, int x, const char *s, int cols)
{
	if (cols > 0)
		mvwaddnstr(w, y, x, s, (int)mt_text_cut(s, cols, NULL));
}

/* State of each element after pos accesses: 0 untouched, 1 hit, 2 miss,
 * 3 miss with eviction (the latest access wins). */
static void states(struct transpose_tab *s, uint8_t *a, uint8_t *b)
{
	memset(a, 0, (size_t)s->rows * (size_t)s->cols);
	memset(b, 0, (size_t)s->rows * (size_t)s->cols);
	for (size_t k = 0; k < s->pos; k++) {
		const struct step *st = &s->tape[k];
		uint8_t v = st->flags & SIM_HIT ? 1 : st->flags & SIM_EVICT ? 3 : 2;
		if (st->matrix == 0)
			a[(size_t)st->row * (size_t)s->cols + st->col] = v;
		else
			b[(size_t)st->row * (size_t)s->rows + st->col] = v;
	}
}

/* Set view: each element's cache set (its glyph: 0-9, a-z, A-Z by set
 * modulo 62), so that the rows of A and B that land in the same sets show. */
static void set_states(struct transpose_tab *s, uint8_t *a, uint8_t *b)
{
	for (int i = 0; i < s->rows; i++)
		for (int j = 0; j < s->cols; j++) {
			a[(size_t)i * (size_t)s->cols + (size_t)j] =
				(uint8_t)transpose_set_of(0, i, j, s->rows, s->cols, s->s, s->b);
			b[(size_t)j * (size_t)s->rows + (size_t)i] =
				(uint8_t)transpose_set_of(1, j, i, s->rows, s->cols, s->s, s->b);
		}
}

static char set_glyph(unsigned set)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	return digits[set % (sizeof digits - 1)];
}

/* What one character of a matrix shows: the latest access's state (the
 * worst of the elements it stands for), or in set view the set of its first
 * element; the cursor's element wins. */
struct cell_look {
	const uint8_t *st;
	int rows, cols, cur_r, cur_c, hot; /* hot: the last access's set, -1 none */
};

static void draw_cell(struct tui *t, struct transpose_tab *s, WINDOW *w, int y, int x,
		      const struct cell_look *L, int r,
		      int c, int ky, int kx)
{
	static const char glyph[] = " .ox";
	static const enum tui_role role[] = { ROLE_DIM, ROLE_GOOD, ROLE_WARN, ROLE_BAD };
	int best = 0, here = 0;
	for (int i = r; i < r + ky && i < L->rows; i++)
		for (int j = c; j < c + kx && j < L->cols; j++) {
			int v = L->st[(size_t)i * (size_t)L->cols + (size_t)j];
			if (v > best)
				best = v;
			here |= i == L->cur_r && j == L->cur_c;
		}
	if (s->sets) {
		int set = L->st[(size_t)r * (size_t)L->cols + (size_t)c];
		wattrset(w, tui_attr(t, here ? ROLE_CURSOR : set == L->hot ? ROLE_BAD : ROLE_DIM));
		mvwaddch(w, y, x, (chtype)set_glyph((unsigned)set));
		return;
	}
	wattrset(w, here ? tui_attr(t, ROLE_CURSOR) : tui_attr(t, role[best]));
	mvwaddch(w, y, x, (chtype)glyph[best]);
}

static void draw_matrix(struct tui *t, struct transpose_tab *s, WINDOW *w, int y, int x, int h,
			int wd, const char *title,
			const struct cell_look *L)
{
	int kx = 1, ky = 1; /* elements per character across and down */
	while ((L->cols + kx - 1) / kx > wd)
		kx++;
	while ((L->rows + ky - 1) / ky > h - 1)
		ky++;
	wattrset(w, tui_attr(t, ROLE_TITLE));
	if (kx > 1 || ky > 1) {
		char ttl[160];
		mt_snprintf(ttl, sizeof ttl, _("%s (%dx%d elements a character)"), title, ky, kx);
		tui_put(t, w, y, x, wd, ttl);
	} else {
		tui_put(t, w, y, x, wd, title);
	}
	for (int r = 0; r < L->rows; r += ky)
		for (int c = 0; c < L->cols; c += kx)
			draw_cell(t, s, w, y + 1 + r / ky, x + c / kx, L, r, c, ky, kx);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

/* The title, the counters up to pos with cachelab's verdict, the last
 * access. Returns the next line, or -1 when the simulation failed. */
static int draw_head(struct tui *t, struct transpose_tab *s, WINDOW *w, int wd,
		     const struct step *cur)
{
	uint64_t hits = 0, misses = 0, ev = 0;
	char line[TLINE], vname[32];
	int y = 0, limit = transpose_cachelab_limit(s->rows, s->cols);
	for (size_t k = 0; k < s->pos; k++) {
		hits += (s->tape[k].flags & SIM_HIT) != 0;
		misses += (s->tape[k].flags & SIM_MISS) != 0;
		ev += (s->tape[k].flags & SIM_EVICT) != 0;
	}
	mt_snprintf(line, sizeof line, _("cache (%d,%d,%d)  %dx%d  %s"), s->s, s->E, s->b, s->rows,
		    s->cols, transpose_version_name(&s->v, vname, sizeof vname));
	wattrset(w, tui_attr(t, ROLE_TITLE));
	put_cols(w, y++, 1, line, wd - 2);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	if (s->error[0]) {
		wattrset(w, tui_attr(t, ROLE_BAD));
		tui_wrap(t, w, y + 1, 1, wd - 2, 3, s->error);
		wattrset(w, tui_attr(t, ROLE_NORMAL));
		return -1;
	}
	/* TRANSLATORS: the counters at the step shown, as labels */
	mt_snprintf(line, sizeof line, _("%zu/%zu  hits %llu  misses %llu  evictions %llu"), s->pos,
		    s->n, (unsigned long long)hits, (unsigned long long)misses,
		    (unsigned long long)ev);
	put_cols(w, y, 1, line, wd - 2);
	if (limit && s->s == 5 && s->E == 1 && s->b == 5 && s->pos == s->n) {
		int pass = misses < (uint64_t)limit;
		mt_snprintf(line, sizeof line, pass ? _("  cachelab <%d pass") : _("  cachelab <%d FAIL"),
			    limit);
		wattrset(w, tui_attr(t, pass ? ROLE_GOOD : ROLE_BAD));
		tui_put(t, w, y, getcurx(w), wd - 2 - getcurx(w), line);
		wattrset(w, tui_attr(t, ROLE_NORMAL));
	}
	y++;
	if (cur) {
		/* TRANSLATORS: the last access: "last: load A[0][3] miss, set 12";
		 * its kind (load, store) and outcome (hit, miss, miss eviction)
		 * are the words below */
		mt_snprintf(line, sizeof line, _("last: %s %c[%d][%d] %s, set %llu"),
			    cur->is_store ? _("store") : _("load"), cur->matrix ? 'B' : 'A', cur->row,
			    cur->col,
			    cur->flags & SIM_HIT	 ? _("hit")
			    : cur->flags & SIM_EVICT ? _("miss eviction")
						 : _("miss"),
			    (unsigned long long)transpose_set_of(cur->matrix, cur->row, cur->col, s->rows,
							  s->cols, s->s, s->b));
		put_cols(w, y, 1, line, wd - 2);
	}
	if (!s->correct && s->pos == s->n) {
		wattrset(w, tui_attr(t, ROLE_BAD));
		tui_put(t, w, y, getcurx(w), wd - 2 - getcurx(w), _("  (B is not A transposed!)"));
		wattrset(w, tui_attr(t, ROLE_NORMAL));
	}
	return y + 1;
}

/* The lines under the matrices: the legend, the block sweep (B), the real
 * machine's versions. Returns how many lines they take. */
static int bottom_lines(struct transpose_tab *s, char lines[4][TLINE], int wd)
{
	int n = 0, best = 0;
	if (s->sets)
		mt_strlcpy(lines[n++], _("each element: its cache set (0-9a-z...); the last "
					 "access's set stands out"), TLINE);
	else
		mt_strlcpy(lines[n++], _(". hit   o miss   x miss with eviction   (latest access of "
					 "each element)"), TLINE);
	if (s->have_sweep) {
		/* TRANSLATORS: the block sweep's line: "sweep: block:4 1234 block:8
		 * 567 ...; fewest: block:8" (block:K is the version's name) */
		mt_strlcpy(lines[n], _("sweep:"), TLINE);
		for (int i = 0; i < TRANSPOSE_SWEEP_N; i++) {
			mt_append(lines[n], TLINE, " block:%d %llu", transpose_sweep_sides[i],
				  (unsigned long long)s->sweep[i]);
			if (s->sweep[i] < s->sweep[best])
				best = i;
		}
		mt_append(lines[n++], TLINE, _("; fewest: block:%d"), transpose_sweep_sides[best]);
	}
	(void)wd;
	return n;
}

/* The real machine's versions: ns per element of each, then the speed-up
 * of the fastest over naive against the homework's 2x. */
static int real_lines(const struct tui *t, struct transpose_tab *s, char lines[3][TLINE])
{
	char name[32];
	int n = 0, best = -1, have = 0;
	size_t used;
	mt_snprintf(lines[0], TLINE, _("real N = %zu, ns/element:"), s->plan.real_n);
	lines[1][0] = '\0';
	for (int i = 0; i < s->plan.nreal; i++) {
		int row = i && s->plan.nreal > 7 && i > 6 ? 1 : 0; /* the sweep's buffers: line 2 */
		if (!(s->real.real_ns[i] > 0))
			continue;
		have = 1;
		used = strlen(lines[row]);
		mt_hsnprintf(lines[row] + used, TLINE - used, " %s %.2f",
			     transpose_version_name(&s->plan.real[i], name, sizeof name),
			     s->real.real_ns[i]);
		if (i > 0 && (best < 0 || s->real.real_ns[i] < s->real.real_ns[best]))
			best = i;
	}
	if (!have && !tui_running(t, &tab_transpose)) {
		mt_strlcpy(lines[0],
			   tui_measure_hint(t, _("real machine (N = 4096): r times naive, block:16, "
						 "buffer:16; R a block sweep"), 0), TLINE);
		return 1;
	}
	n = lines[1][0] ? 2 : 1;
	if (tui_running(t, &tab_transpose))
		mt_append(lines[0], TLINE, " ...");
	else if (best > 0 && s->real.real_ns[0] > 0)
		mt_hsnprintf(lines[n++], TLINE,
			     s->real.real_ns[0] / s->real.real_ns[best] >= 2
				     ? _("speed-up %.2fx (%s; >= 2x: pass)")
				     : _("speed-up %.2fx (%s; >= 2x: FAIL)"),
			     s->real.real_ns[0] / s->real.real_ns[best],
			     transpose_version_name(&s->plan.real[best], name, sizeof name));
	return n;
}

/* The algae table on its cache: reads, misses, rate, what each case does. */
static void draw_algae(struct tui *t, struct transpose_tab *s, WINDOW *w, int h, int wd)
{
	char line[TLINE], c[4][64];
	int y = 0;
	mt_snprintf(line, sizeof line,
		    _("algae: 16x16 grid of %d-int structs, cache (%d,%d,%d) = %llu bytes, %d-byte "
		      "blocks"),
		    s->ap.fields, s->ap.s, s->ap.E, s->ap.b,
		    (unsigned long long)(((uint64_t)1 << s->ap.s) * (uint64_t)s->ap.E << s->ap.b),
		    1 << s->ap.b);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y++, 1, wd - 2, line);
	/* TRANSLATORS: the algae table's heads: case (15 columns), reads (5),
	 * misses (6), rate (5), what */
	mt_snprintf(line, sizeof line, "%s %s %s %s  %s", mt_text_pad(c[0], sizeof c[0], _("case"), -15),
		    mt_text_pad(c[1], sizeof c[1], C_("tab", "reads"), 5),
		    mt_text_pad(c[2], sizeof c[2], C_("tab", "misses"), 6),
		    mt_text_pad(c[3], sizeof c[3], _("rate"), 5), _("what"));
	put_cols(w, ++y, 1, line, wd - 2);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (int i = 0; i < ALGAE_CASES && ++y < h; i++) {
		struct algae_result r;
		mt_error e;
		if (algae_run(i, &s->ap, &r, &e) < 0) {
			tui_wrap(t, w, y, 1, wd - 2, h - y, e.msg);
			return;
		}
		/* the case's name and what it does are the lab's (src/algae):
		 * padded in columns, whatever language they come in */
		mt_snprintf(line, sizeof line, "%s %5llu %6llu %4.0f%%  %s",
			    mt_text_pad(c[0], sizeof c[0], r.name, -15), (unsigned long long)r.reads,
			    (unsigned long long)r.misses, 100.0 * (double)r.misses / (double)r.reads,
			    r.what);
		tui_put(t, w, y, 1, wd - 2, line); /* "what" loses whole words at 80 */
	}
	wattrset(w, tui_attr(t, ROLE_DIM));
	if (y + 2 < h)
		tui_wrap(t, w, y + 2, 1, wd - 2, h - y - 2,
			 _("c: its cache (7,1,4 doubles the book's 1 KB); F: fields a struct; a: the "
			   "transpose"));
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

/* Lines lines[0..n) wrapped in whole words in width columns, from line y;
 * count_only: just the lines they take. Returns that count. */
static int wrapped(struct tui *t, WINDOW *w, int y, int width, char lines[][TLINE], int n,
		   int count_only)
{
	int used = 0;
	for (int i = 0; i < n; i++) {
		int k = tui_text_height(lines[i], width);
		if (!count_only)
			tui_wrap(t, w, y + used, 1, width, k, lines[i]);
		used += k;
	}
	return used;
}

/* The whole area (struct tab's draw). */
void ttab_draw(struct tui *t, void *self, WINDOW *w, int full)
{
	struct transpose_tab *s = self;
	int h, wd, y, half, nb, nr;
	char bl[4][TLINE], rl[3][TLINE];
	uint8_t *a, *b;
	const struct step *cur = s->pos ? &s->tape[s->pos - 1] : NULL;
	(void)full;
	getmaxyx(w, h, wd);
	werase(w);
	if (s->algae) {
		draw_algae(t, s, w, h, wd);
		return;
	}
	if ((y = draw_head(t, s, w, wd, cur)) < 0)
		return;
	nb = bottom_lines(s, bl, wd);
	nr = real_lines(t, s, rl);
	nb = wrapped(t, w, 0, wd - 2, bl, nb, 1); /* the lines they take, wrapped */
	nr = wrapped(t, w, 0, wd - 2, rl, nr, 1);
	a = malloc((size_t)s->rows * (size_t)s->cols);
	b = malloc((size_t)s->rows * (size_t)s->cols);
	if (a && b && h - y - nb - nr > 2) {
		int hot = s->sets && cur ? (int)(transpose_set_of(cur->matrix, cur->row, cur->col, s->rows,
							  s->cols, s->s, s->b) & 0xff) : -1;
		struct cell_look la = { a, s->rows, s->cols, cur && !cur->matrix ? cur->row : -1,
					cur && !cur->matrix ? cur->col : -1, hot };
		struct cell_look lb = { b, s->cols, s->rows, cur && cur->matrix ? cur->row : -1,
					cur && cur->matrix ? cur->col : -1, hot };
		if (s->sets)
			set_states(s, a, b);
		else
			states(s, a, b);
		half = (wd - 3) / 2;
		draw_matrix(t, s, w, y, 1, h - y - nb - nr, half, "A", &la);
		draw_matrix(t, s, w, y, 2 + half, h - y - nb - nr, half, "B (= A^T)", &lb);
	}
	free(a);
	free(b);
	wattrset(w, tui_attr(t, ROLE_DIM));
	wrapped(t, w, h - nb - nr, wd - 2, bl, bottom_lines(s, bl, wd), 0);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	wrapped(t, w, h - nr, wd - 2, rl, real_lines(t, s, rl), 0);
}
