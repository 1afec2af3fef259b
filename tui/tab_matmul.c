/* tab_matmul: tab 3, the matmul race. The seven orders (six loop orders and
 * the blocked ikj, plus the blocked versions of others on b) run interleaved in short slices on the pinned worker so
 * that all advance together; each has a bar with its progress, its running
 * ns per inner iteration and its finish place, and the book's and the
 * simulator's misses per iteration beside it. For the selected order, how
 * its inner loop walks A, B and C (along a row, down a column, held in a
 * register), drawn on three small matrices, with the misses split by
 * matrix. The kernels, the race and the simulation are src/matmul.c and
 * src/matmul_model.c; this file only starts the job and draws. */
#include "config.h"

#include "base/i18n.h"
#include "base/jsonio.h"
#include "matmul/matmul.h"
#include "tab.h"

#include <math.h>
#include <string.h>

struct matmul_tab {
	struct matmul_params p; /* outlives the job */
	struct matmul_l1d l1d;  /* this machine's, from the frame's info */
	int sel;                /* selected order */
	struct matmul_result r; /* the race, measured here or opened (memtop view) */
};

/* s at (y, x), clipped to cols columns (never inside a character). */
static void put_cols(WINDOW *w, int y, int x, const char *s, int cols)
{
	if (cols > 0)
		mvwaddnstr(w, y, x, s, (int)mt_text_cut(s, cols, NULL));
}

static void reset_results(struct matmul_tab *s)
{
	matmul_result_init(&s->r, &s->p, s->l1d.line, s->l1d.from);
}

static int init(struct tui *t, void *self)
{
	struct matmul_tab *s = self;
	matmul_l1d(tui_info(t), &s->l1d);
	matmul_params_default(&s->p);
	s->p.race = 1;
	if (tui_quick(t))
		s->p.n = 256;
	reset_results(s);
	return 0;
}

static void on_job_event(struct tui *t, void *self, const struct job_event *ev)
{
	struct matmul_tab *s = self;
	if (ev->type == JOB_EV_CELL) {
		if (matmul_result_apply(&s->r, ev) == MATMUL_CELL_RESULT)
			tui_result_changed(t, &tab_matmul, 1);
		tui_dirty(t);
		return;
	}
	if (ev->type == JOB_EV_NOTE)
		return;
	if (tui_job_ended(t, ev, _("race")))
		tui_message(t, "%s", s->r.failed_equal ? _("race done: a result DIFFERS from ijk's")
						      : _("race done: every order gave ijk's product"));
	tui_dirty(t);
}

static int act_start(struct tui *t, void *self, int key)
{
	struct matmul_tab *s = self;
	if (!tui_can_measure(t))
		return 1;
	if (tui_discard_first(t, &tab_matmul, self,
			      _("Discard the unsaved loop-order race and measure again?"), act_start,
			      key))
		return 1;
	s->p.sim_s = s->l1d.s;
	s->p.sim_E = s->l1d.E;
	s->p.sim_b = s->l1d.b;
	s->p.sim_sample = 1000000; /* keeps the start quick; a sample, marked so */
	reset_results(s);
	tui_result_changed(t, &tab_matmul, 1);
	if (tui_job_launch(t, &tab_matmul, matmul_worker, &s->p, &s->r.hdr) < 0)
		return 1;
	{
		char say[256];
		int n = __builtin_popcount(s->r.orders);
		mt_hsnprintf(say, sizeof say,
			     MT_NGETTEXT("racing %d order, n = %zu, all in turn in %.0f ms slices",
					 "racing %d orders, n = %zu, all in turn in %.0f ms slices", n),
			     n, s->p.n, s->p.slice_ms);
		tui_message(t, "%s", say);
	}
	tui_dirty(t);
	return 1;
}

static int shown(struct matmul_tab *s, int o)
{
	return (s->r.orders & (1u << o)) != 0;
}

static int act_select(struct tui *t, void *self, int key)
{
	struct matmul_tab *s = self;
	int step = key == KEY_UP || key == 'k' ? MATMUL_NORDERS - 1 : 1;
	do
		s->sel = (s->sel + step) % MATMUL_NORDERS;
	while (!shown(s, s->sel));
	tui_dirty(t);
	return 1;
}

/* b: the blocked versions of other orders to race too (--blocked). */
/* The other orders raced blocked too, as b asks for them ("jki",
 * "none"). */
static const char *blocked_now(const void *self, char *buf, size_t len)
{
	const struct matmul_tab *s = self;
	buf[0] = '\0';
	for (int o = MATMUL_NCLASSIC; o < MATMUL_NORDERS; o++)
		if (s->p.orders & (1u << o))
			mt_append(buf, len, "%s%s", buf[0] ? "," : "",
				  matmul_order_name(matmul_base_order(o)));
	if (!buf[0])
		mt_strlcpy(buf, "none", len);
	return buf;
}

static void blocked_answer(struct tui *t, void *self, const char *answer)
{
	struct matmul_tab *s = self;
	unsigned mask;
	if (!answer)
		return;
	if (matmul_blocked_parse(answer, &mask) < 0) {
		char why[256], kept[64];
		mt_snprintf(why, sizeof why, _("also race blocked: ijk, jik, jki, kji, kij, all or "
					       "none, not '%.30s'"), answer);
		tui_knob_refused(t, why, blocked_now(s, kept, sizeof kept));
		return;
	}
	s->p.orders = MATMUL_CLASSIC_MASK | mask;
	reset_results(s);
	if (!shown(s, s->sel))
		s->sel = 0;
	tui_dirty(t);
}

/* n or the block side took a new value: the race starts over. */
static void knob_set(void *self)
{
	reset_results(self);
}

static const struct tab_knob knobs[] = {
	TAB_KNOB_NUM('n', N_("type the matrix side n (default 512)"), N_("Matrix side n"),
		     N_("stop the race first (x)"), struct matmul_tab, p.n, 8, 2048, "n", knob_set),
	TAB_KNOB_NUM('B', N_("type the block side of the blocked orders (default 32; --block)"),
		     N_("Block side"), N_("stop the race first (x)"), struct matmul_tab, p.block, 1,
		     1024, N_("block"), knob_set),
	TAB_KNOB_TEXT('b', N_("race the blocked versions of other orders too (--blocked)"),
		      N_("Also race blocked (ijk,jik,jki,kji,kij, all, none): "),
		      N_("stop the race first (x)"), blocked_now, blocked_answer),
};

/* ---- files: the frame opens and saves them through .result ---------- */

/* An opened file, copied into the instance's r by the frame (the io's
 * result_size): the knobs take its n and block. */
static void io_opened(void *self)
{
	struct matmul_tab *s = self;
	s->p.n = s->r.n;
	s->p.block = s->r.block;
}

static const struct tab_result_io io = {
	.kind = &kind_matmul,
	.nothing = N_("no finished race to save yet (r races)"),
	.busy = N_("a race"),
	.result_at = offsetof(struct matmul_tab, r),
	.result_size = sizeof(struct matmul_result),
	.opened = io_opened,
};

static const struct keybinding keys[] = {
	{ 'r', "r", N_("start the race (all seven orders advance together)"), act_start },
	{ KEY_DOWN, "Up Down j k", N_("select an order (its inner loop is drawn)"), act_select },
	{ KEY_UP, NULL, NULL, act_select },
	{ 'j', NULL, NULL, act_select },
	{ 'k', NULL, NULL, act_select },
	TUI_KEY_KNOB(knobs[0]),
	TUI_KEY_KNOB(knobs[1]),
	TUI_KEY_KNOB(knobs[2]),
	TUI_KEY_SAVE("matmul"),
	{ 0, NULL, NULL, NULL },
};

/* ---- drawing ------------------------------------------------------------- */

/* A small matrix box (bh x bw) under its title (in tw columns, whole
 * words): the inner loop's walk over it. */
static void draw_walk(struct tui *t, WINDOW *w, int y, int x, int bh, int bw, int tw, char name,
		      enum matmul_walk walk)
{
	char title[48];
	mt_snprintf(title, sizeof title, "%c: %s", name, matmul_walk_name(walk));
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y, x, tw, title);
	for (int r = 0; r < bh; r++)
		for (int c = 0; c < bw; c++) {
			const char *g = ".";
			enum tui_role role = ROLE_DIM;
			if (walk == MATMUL_WALK_ROW && r == bh / 3) {
				g = c == bw - 1 ? tui_glyph(t, GL_RIGHT) : tui_glyph(t, GL_HLINE);
				role = ROLE_BAR;
			} else if (walk == MATMUL_WALK_COL && c == bw / 3) {
				g = r == bh - 1 ? tui_glyph(t, GL_MARK) : tui_glyph(t, GL_VLINE);
				role = ROLE_BAR;
			} else if (walk == MATMUL_WALK_REG && r == bh / 3 && c == bw / 3) {
				g = tui_glyph(t, GL_BLOCK);
				role = ROLE_MARK;
			}
			wattrset(w, tui_attr(t, role));
			mvwaddstr(w, y + 1 + r, x + c, g);
		}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

static void draw_bar(struct tui *t, WINDOW *w, int y, int x, int width, double frac)
{
	int eighths = (int)lround(frac * width * 8);
	wattrset(w, tui_attr(t, ROLE_BAR));
	for (int i = 0; i < width; i++) {
		int here = eighths - i * 8;
		if (here >= 8)
			mvwaddstr(w, y, x + i, tui_glyph(t, GL_BLOCK));
		else if (here > 0)
			mvwaddstr(w, y, x + i, tui_bar_part(t, here));
		else {
			wattrset(w, tui_attr(t, ROLE_DIM));
			mvwaddstr(w, y, x + i, tui_utf8(t) ? " " : ".");
			wattrset(w, tui_attr(t, ROLE_BAR));
		}
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

/* The book's misses per iteration of every order (split by matrix in bm):
 * for this machine's line, or the file's numbers for a file. */
static void book_figures(struct matmul_tab *s, double *book, double bm[][3])
{
	double L = (double)s->l1d.line / sizeof(double);
	for (int o = 0; o < MATMUL_NORDERS; o++)
		book[o] = matmul_book_estimate(o, L, bm[o]);
	if (s->r.source[0]) /* a file: its machine's line and the numbers it recorded */
		for (int o = 0; o < MATMUL_NORDERS; o++) {
			matmul_book_estimate(o, (double)s->r.line_bytes / sizeof(double), bm[o]);
			book[o] = s->r.book[o];
		}
}

/* The two lines above the race. Returns the next line. */
static int draw_title(struct tui *t, struct matmul_tab *s, WINDOW *w, int wd)
{
	char line[512];
	if (s->r.source[0] && !s->r.race) /* a file timed each order alone */
		mt_snprintf(line, sizeof line,
			    MT_NGETTEXT("C += A*B, n = %zu, block %zu: each order timed alone, best "
					"of %d",
					"C += A*B, n = %zu, block %zu: each order timed alone, best "
					"of %d", s->r.tries),
			    s->r.n, s->r.block, s->r.tries);
	else
		mt_hsnprintf(line, sizeof line,
			     _("C += A*B, n = %zu, block %zu: the orders race in %.0f ms slices on "
			       "one core"), s->r.n, s->r.block, s->p.slice_ms);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, 0, 1, wd - 2, line);
	wattrset(w, tui_attr(t, ROLE_DIM));
	if (s->r.source[0] && s->r.have_sim)
		mt_snprintf(line, sizeof line,
			    s->r.sim_sampled
				    ? _("book: misses/iteration for a %d-byte line; sim: its L1d "
					"(%d,%d,%d), a sample")
				    : _("book: misses/iteration for a %d-byte line; sim: its L1d "
					"(%d,%d,%d)"),
			    s->r.line_bytes, s->r.sim_s, s->r.sim_E, s->r.sim_b);
	else if (s->r.source[0])
		mt_snprintf(line, sizeof line, _("book: misses/iteration for a %d-byte line"),
			    s->r.line_bytes);
	else if (s->l1d.s >= 0)
		mt_snprintf(line, sizeof line,
			    s->r.sim_sampled
				    ? _("book: misses/iteration at a %d-byte line; sim: L1d (%d,%d,%d), "
					"first 1M accesses")
				    : _("book: misses/iteration at a %d-byte line; sim: L1d (%d,%d,%d)"),
			    s->l1d.line, s->l1d.s, s->l1d.E, s->l1d.b);
	else
		mt_snprintf(line, sizeof line, _("book: misses/iteration for a %d-byte line"),
			    s->l1d.line);
	tui_put(t, w, 1, 1, wd - 2, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	return 3;
}

/* One order's row of the race: name, class, bar, ns/iter, place, book, sim. */
static void draw_order(struct tui *t, struct matmul_tab *s, WINDOW *w, int y, int wd, int o, int nw,
		       int barw,
		       double book)
{
	const int bx = 1 + nw + 4;
	char line[256], ns[16], fin[8], sim[16], name[64];
	int differs = s->r.res[o].have && !s->r.res[o].equal;
	wattrset(w, tui_attr(t, o == s->sel ? ROLE_CURSOR : ROLE_NORMAL));
	mt_snprintf(line, sizeof line, "%-*s%s", nw, matmul_order_name(o),
		    mt_text_pad(name, sizeof name, matmul_class_name(matmul_order_class(o)), -4));
	mvwaddnstr(w, y, 1, line, wd - 2);
	draw_bar(t, w, y, bx, barw, s->r.frac[o]);
	if (s->r.run_ns[o] > 0)
		mt_hsnprintf(ns, sizeof ns, "%9.2f", s->r.run_ns[o]);
	else
		mt_snprintf(ns, sizeof ns, "%9s", "-");
	if (s->r.run_rank[o])
		mt_snprintf(fin, sizeof fin, "#%d", s->r.run_rank[o]);
	else
		fin[0] = '\0';
	if (s->r.have_sim_o[o])
		mt_hsnprintf(sim, sizeof sim, "%7.3f", s->r.sim[o]);
	else
		mt_snprintf(sim, sizeof sim, "%7s", "-");
	/* TRANSLATORS: an order's product differs from ijk's */
	mt_hsnprintf(line, sizeof line, " %s %4s %7.3f %s%s", ns, fin, book, sim,
		     differs ? _(" DIFFERS") : "");
	wattrset(w, tui_attr(t, differs ? ROLE_BAD
			     : s->r.run_rank[o] == 1 ? ROLE_GOOD : ROLE_NORMAL));
	put_cols(w, y, bx + barw, line, wd - 2 - (bx + barw));
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

/* The race: a head and a row per order shown. Returns the next line. */
static int draw_race(struct tui *t, struct matmul_tab *s, WINDOW *w, int y, int h, int wd,
		     const double *book)
{
	const int nw = s->r.orders >> MATMUL_B_IJK ? 12 : 8; /* "blocked-jki" needs 12 */
	int barw = wd - 2 - nw - 4 - 10 - 5 - 8 - 8 - 6;
	char line[512], c[7][64];
	if (barw > 40)
		barw = 40;
	if (barw < 5)
		barw = 5;
	wattrset(w, tui_attr(t, ROLE_TITLE));
	/* TRANSLATORS: the race's column heads: the order (8 columns), its
	 * class (4), the progress bar, ns an iteration (9), the finish place
	 * (4), the book's and the simulator's misses (7 each) */
	mt_snprintf(line, sizeof line, "%s%s%s %s %s %s %s",
		    mt_text_pad(c[0], sizeof c[0], _("order"), -nw),
		    mt_text_pad(c[1], sizeof c[1], _("cls"), -4),
		    mt_text_pad(c[2], sizeof c[2], _("progress"), -barw),
		    mt_text_pad(c[3], sizeof c[3], _("ns/iter"), 9),
		    mt_text_pad(c[4], sizeof c[4], _("fin"), 4),
		    mt_text_pad(c[5], sizeof c[5], _("book"), 7),
		    mt_text_pad(c[6], sizeof c[6], C_("tab", "sim"), 7));
	put_cols(w, y++, 1, line, wd - 2);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (int o = 0; o < MATMUL_NORDERS && y < h; o++)
		if (shown(s, o))
			draw_order(t, s, w, y++, wd, o, nw, barw, book[o]);
	return y + 1;
}

/* The selected order's inner loop: its walks over A, B and C drawn, the
 * misses per iteration of the book and the simulator split by matrix. */
static void draw_inner(struct tui *t, struct matmul_tab *s, WINDOW *w, int y, int h, int wd,
		       const double *book,
		       double bm[][3])
{
	static const char *const inner[] = { "k", "i", "j" };
	enum matmul_class c = matmul_order_class(s->sel);
	enum matmul_walk walk[3];
	char line[256];
	int bh = h - y - 4, bw;
	matmul_inner_walk(s->sel, walk);
	mt_snprintf(line, sizeof line,
		    matmul_is_blocked(s->sel) ? _("%s, class %s: inner loop over %s (inside a tile)")
					      : _("%s, class %s: inner loop over %s"),
		    matmul_order_name(s->sel), matmul_class_name(c), inner[c]);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y++, 1, wd - 2, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	/* TRANSLATORS: the misses split by matrix: a table, its row names
	 * padded alike (12 columns) so that the figures stand under A, B, C */
	put_cols(w, y++, 1, _("misses/iter   A      B      C      total"), wd - 2);
	mt_hsnprintf(line, sizeof line, _("  book      %6.3f %6.3f %6.3f   %6.3f"), bm[s->sel][0],
		     bm[s->sel][1], bm[s->sel][2], book[s->sel]);
	put_cols(w, y++, 1, line, wd - 2);
	if (s->r.have_sim_o[s->sel])
		mt_hsnprintf(line, sizeof line, _("  sim       %6.3f %6.3f %6.3f   %6.3f"),
			     s->r.sim_m[s->sel][0], s->r.sim_m[s->sel][1], s->r.sim_m[s->sel][2],
			     s->r.sim[s->sel]);
	else
		mt_strlcpy(line,
			   s->r.source[0] ? _("  sim       (not simulated in this file)")
					  : _("  sim       (r to run)"),
			   sizeof line);
	put_cols(w, y++, 1, line, wd - 2);
	if (bh > 6)
		bh = 6;
	bh = h - y - 2 < bh ? h - y - 2 : bh;
	bw = (wd - 4) / 3 - 10;
	if (bw > 14)
		bw = 14;
	if (bh >= 2 && bw >= 4) {
		static const char names[] = "ABC";
		int step = (wd - 2) / 3;
		for (int m = 0; m < 3; m++)
			draw_walk(t, w, y, 1 + m * step, bh, bw, step - 1, names[m], walk[m]);
	}
}

static void draw(struct tui *t, void *self, WINDOW *w, int full)
{
	struct matmul_tab *s = self;
	int h, wd, y;
	double book[MATMUL_NORDERS], bm[MATMUL_NORDERS][3];
	(void)full;
	getmaxyx(w, h, wd);
	werase(w);
	book_figures(s, book, bm);
	y = draw_title(t, s, w, wd);
	y = draw_race(t, s, w, y, h, wd, book);
	if (y + 3 < h)
		draw_inner(t, s, w, y, h, wd, book, bm);
	wattrset(w, tui_attr(t, ROLE_DIM));
	if (s->r.source[0]) /* whose figures: the file's hardware, then its name */
		tui_put_source(t, w, h - 1, 1, wd - 2, s->r.hdr.hardware, s->r.source);
	else if (!tui_running(t, &tab_matmul) && !matmul_result_measured(&s->r))
		tui_put(t, w, h - 1, 1, wd - 2,
			tui_measure_hint(t, _("r starts the race; n and b set the size and the block"),
					 0));
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

const struct tab tab_matmul = {
	.name = N_("Matmul"),
	.key = '3',
	TAB_PARTS(matmul),
};
