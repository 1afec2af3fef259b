/* tab_cores: tab 8, core-to-core latency. The matrix as a heatmap (the
 * mountain's colour scale, glyph density without colour), filling in pair
 * by pair; a cursor on a pair with both CPUs' places; the summary by
 * relation, whose digits label the small cells and whose cells the cursor's
 * relation underlines. The measuring is src/cores/; this file starts the
 * job and draws. */
#include "config.h"

#include "base/i18n.h"
#include "base/jsonio.h"
#include "cores/cores.h"
#include "os/sysinfo.h"
#include "os/topo.h"
#include "model.h"
#include "tab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cores_tab {
	struct cores_plan plan;   /* outlives the job */
	struct cores_result r;    /* measured here, or opened (memtop view) */
	int ci, cj;               /* the cursor: row and column CPU indices */
	int page_rows, page_cols; /* the rows and columns the last draw showed (PgDn) */
	char list[256];           /* the CPUs the next run pairs (c, the Topology tab's
				   * C): a CPU list of machine_cpus's grammar; "" all */
};

/* A relation as a result records it ("SMT siblings": data, in English),
 * in the user's words where the catalogue has them. */
static const char *rel_words(const char *rel)
{
	return rel[0] ? _(rel) : rel;
}

static int init(struct tui *t, void *self)
{
	struct cores_tab *s = self;
	(void)t;
	s->cj = 1;
	return 0;
}

static void fini(struct tui *t, void *self)
{
	struct cores_tab *s = self;
	(void)t;
	cores_result_free(&s->r);
	cores_plan_free(&s->plan);
}

static void on_job_event(struct tui *t, void *self, const struct job_event *ev)
{
	struct cores_tab *s = self;
	if (ev->type == JOB_EV_CELL) {
		if (cores_result_apply(&s->r, ev))
			tui_result_changed(t, &tab_cores, 1);
		tui_dirty(t);
		return;
	}
	if (ev->type == JOB_EV_NOTE)
		return; /* the frame says it in the status line */
	if (tui_job_ended(t, ev, _("core-to-core latency")))
		tui_message(t,
			    MT_NGETTEXT("done: %zu pair measured", "done: %zu pairs measured",
					cores_result_measured(&s->r)),
			    cores_result_measured(&s->r));
	tui_dirty(t);
}

/* The plan for the CPUs this process may run on (sampled above
 * CORES_SAMPLE_ABOVE), with the topology's relations. Returns 0 or -1. */
static int make_plan(struct tui *t, struct cores_tab *s)
{
	struct cores_params p;
	mt_error e;
	cores_params_default(&p, tui_quick(t));
	cores_plan_free(&s->plan);
	if (cores_plan_for(&s->plan, &p, tui_machine(t), s->list[0] ? s->list : NULL, -1, -1,
			   &e) == 0 &&
	    cores_result_init(&s->r, &s->plan, &e) == 0)
		return 0;
	tui_message(t, _("cannot measure: %s"), e.msg);
	return -1;
}

static int act_start(struct tui *t, void *self, int key)
{
	struct cores_tab *s = self;
	if (!tui_can_measure(t))
		return 1;
	if (tui_discard_first(t, &tab_cores, self,
			      _("Discard the unsaved core-to-core matrix and measure again?"), act_start,
			      key))
		return 1;
	cores_result_free(&s->r);
	tui_result_changed(t, &tab_cores, 1);
	if (make_plan(t, s) < 0)
		return 1;
	s->ci = 0;
	s->cj = 1;
	if (tui_job_launch(t, &tab_cores, cores_worker, &s->plan, &s->r.hdr) < 0)
		return 1;
	tui_dirty(t);
	return 1;
}

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static int act_move(struct tui *t, void *self, int key)
{
	struct cores_tab *s = self;
	int n = s->r.plan.n, rows = s->page_rows > 1 ? s->page_rows : 1,
	    cols = s->page_cols > 1 ? s->page_cols : 1;
	if (n < 2)
		return 1;
	switch (key) {
	case KEY_UP: case 'k': s->ci--; break;
	case KEY_DOWN: case 'j': s->ci++; break;
	case KEY_LEFT: case 'h': s->cj--; break;
	case KEY_RIGHT: case 'l': s->cj++; break;
	case KEY_PPAGE: s->ci -= rows; break;
	case KEY_NPAGE: s->ci += rows; break;
	case KEY_SLEFT: s->cj -= cols; break;
	case KEY_SRIGHT: s->cj += cols; break;
	case KEY_HOME: s->ci = 0; s->cj = 1; break;
	case KEY_END: s->ci = n - 1; s->cj = n - 2; break;
	default: break;
	}
	s->ci = clamp(s->ci, 0, n - 1);
	s->cj = clamp(s->cj, 0, n - 1);
	tui_dirty(t);
	return 1;
}

/* c: the CPUs the next run pairs, a list or domains (machine_cpus),
 * resolved on this machine at once; Enter alone: every CPU again. */
static void list_answer(struct tui *t, void *self, const char *answer)
{
	struct cores_tab *s = self;
	static int cpus[CORES_MAX_CPUS]; /* the UI thread's alone */
	char said[CORES_SAID_LEN];
	mt_error e = { "" };
	int n;
	if (!answer)
		return;
	if (!answer[0]) {
		s->list[0] = '\0';
		tui_message(t, "%s", _("the next run pairs every CPU memtop may use"));
		return;
	}
	n = cores_parse_cpus(answer, tui_machine(t), cpus, CORES_MAX_CPUS, said, sizeof said, &e);
	if (n < 0) {
		tui_message(t, _("CPUs: %s"), e.msg);
		return;
	}
	mt_strlcpy(s->list, answer, sizeof s->list);
	if (said[0])
		tui_message(t, MT_NGETTEXT("the next run pairs %d CPU: %s", "the next run pairs %d CPUs: %s",
					   n), n, said);
	else
		tui_message(t, MT_NGETTEXT("the next run pairs %d CPU", "the next run pairs %d CPUs", n),
			    n);
}

static const struct tab_knob knobs[] = {
	TAB_KNOB_TEXT('c', N_("type the CPUs to pair: a list or domains (0-3,8 S0 N1 L3:2 C P)"),
		      N_("CPUs to pair (0-3,8, S0, N1, L3:2, C, P, S0:0-7; Enter alone: all): "),
		      N_("stop the run first (x)"), NULL, list_answer),
};

/* The Topology tab's C: core to core among the part's CPUs. */
static int measure(struct tui *t, void *self, const struct tab_part *part)
{
	struct cores_tab *s = self;
	struct topo_set set = { part->ncpus, (int *)part->cpus };
	if (part->ncpus < 2) {
		tui_message(t, _("%s has fewer than two CPUs this process may use"), part->what);
		return 0;
	}
	topo_set_text(&set, s->list, sizeof s->list);
	act_start(t, s, 'C');
	return 1;
}

/* ---- files: the frame opens and saves them through .result ---------- */

/* An opened file: its arrays become the tab's (kind_cores' load allocated
 * the struct around them, freed here). */
static int io_take(struct tui *t, void *self, struct result_file *f, mt_error *e)
{
	struct cores_tab *s = self;
	struct cores_result *r = f->r;
	(void)t;
	(void)e;
	cores_result_free(&s->r);
	s->r = *r;
	free(r);
	f->r = NULL;
	s->ci = 0;
	s->cj = 1;
	return 0;
}

static const struct tab_result_io io = {
	.kind = &kind_cores,
	.busy = N_("a core-to-core run"),
	.result_at = offsetof(struct cores_tab, r),
	.take = io_take,
};

static const struct keybinding keys[] = {
	{ 'r', "r", N_("measure every pair of the CPUs memtop may use, or those c chose "
		       "(sampled above 32)"), act_start },
	TUI_KEY_KNOB(knobs[0]),
	TUI_KEYS_ARROWS_HJKL(N_("move the cursor to another pair"), act_move),
	{ KEY_PPAGE, "PgUp", N_("a page of rows up"), act_move },
	{ KEY_NPAGE, "PgDn", N_("a page of rows down"), act_move },
	{ KEY_SLEFT, "Shift-Left", N_("a page of columns left"), act_move },
	{ KEY_SRIGHT, "Shift-Right", N_("a page of columns right"), act_move },
	{ KEY_HOME, "Home", N_("the first pair"), act_move },
	{ KEY_END, "End", N_("the last pair"), act_move },
	TUI_KEY_OPEN("core-to-core matrix"),
	TUI_KEY_SAVE("cores"),
	{ 0, NULL, NULL, NULL },
};

/* ---- drawing ------------------------------------------------------------- */

/* The heatmap's geometry: a cell of 7, 5 or 4 columns holds the figure;
 * of 2, a glyph and the relation's digit (or the glyph twice, when the
 * file knows one relation only); of 1, a glyph. Columns are labelled each
 * one when a figure fits, else every tick columns. */
struct layout {
	int cell, label, digits, tick;
	int row0, nrows, col0, ncols;
	double lo, hi; /* the measured range, NAN when nothing is */
};

static int decimal_digits(int v)
{
	int d = 1;
	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

static void layout(struct cores_tab *s, struct layout *L, int rows, int width)
{
	int n = s->r.plan.n, room, wide;
	L->lo = L->hi = NAN;
	for (size_t k = 0; k < s->r.plan.npairs; k++) {
		const struct cores_pair *q = &s->r.plan.pairs[k];
		if (!q->have)
			continue;
		if (isnan(L->lo) || q->ns < L->lo)
			L->lo = q->ns;
		if (isnan(L->hi) || q->ns > L->hi)
			L->hi = q->ns;
	}
	L->label = 5;
	room = width - L->label;
	wide = isnan(L->hi) ? 0 : decimal_digits((int)lround(L->hi)); /* the figure's digits */
	L->digits = s->r.nsum > 1; /* a digit that says something */
	L->cell = room / 7 >= n ? 7 : room / 5 >= n && wide <= 4 ? 5 : room / 4 >= n && wide <= 3 ? 4
		: room / 2 >= n ? 2 : 1;
	L->ncols = room / L->cell;
	L->ncols = L->ncols > n ? n : L->ncols < 0 ? 0 : L->ncols;
	L->nrows = rows > n ? n : rows < 0 ? 0 : rows;
	L->row0 = (int)hm_window((size_t)s->ci, (size_t)n, (size_t)L->nrows);
	L->col0 = (int)hm_window((size_t)s->cj, (size_t)n, (size_t)L->ncols);
	/* a label every tick columns, room for the widest CPU number and a space */
	L->tick = 1;
	if (L->cell < 4)
		while (L->tick * L->cell < decimal_digits(s->r.plan.cpus[n - 1]) + 1)
			L->tick *= 2;
}

/* Where v sits between the fastest and the slowest pair (log scale). */
static double heat(const struct layout *L, double v)
{
	return hm_log_frac(v, L->lo, L->hi, 0.5);
}

/* The summary line (1-based digit) of the pair of cpus[i] and cpus[j], 0
 * when none. */
static int relation_digit(struct cores_tab *s, int i, int j)
{
	int k = i == j || !s->r.at ? -1 : s->r.at[(size_t)i * (size_t)s->r.plan.n + (size_t)j];
	if (k < 0 || !s->r.plan.pairs[k].have)
		return 0;
	for (size_t m = 0; m < s->r.nsum; m++)
		if (strcmp(s->r.sum[m].rel, s->r.plan.pairs[k].rel) == 0)
			return (int)m + 1;
	return 0;
}

static void draw_cell(struct tui *t, struct cores_tab *s, WINDOW *w, const struct layout *L, int i,
		      int j, int cur)
{
	static const char *const fmt[8] = { [4] = " %3.0f", [5] = " %4.0f", [7] = " %6.1f" };
	double v = cores_result_ns(&s->r, i, j), f = heat(L, v);
	int dig = L->digits ? relation_digit(s, i, j) : 0;
	attr_t a = cur ? tui_attr(t, ROLE_CURSOR) : tui_heat_attr(t, f);
	char txt[16];
	if (dig && !cur && dig == relation_digit(s, s->ci, s->cj))
		a |= A_UNDERLINE; /* the cursor's relation, outlined */
	wattrset(w, a);
	if (i == j) {
		wattrset(w, cur ? a : tui_attr(t, ROLE_DIM));
		mt_snprintf(txt, sizeof txt, "%*s", L->cell, "-");
		waddstr(w, txt);
		return;
	}
	if (L->cell >= 4) {
		if (isfinite(v))
			mt_hsnprintf(txt, sizeof txt, fmt[L->cell], v);
		else
			mt_snprintf(txt, sizeof txt, "%*s", L->cell, "");
		if (!tui_colors(t) && isfinite(v)) { /* monochrome: the density glyph first */
			waddstr(w, tui_heat_glyph(t, f));
			waddstr(w, txt + 1);
		} else {
			waddstr(w, txt);
		}
		return;
	}
	waddstr(w, tui_heat_glyph(t, f));
	if (L->cell == 2 && L->digits) {
		mt_snprintf(txt, sizeof txt, "%c", dig > 0 && dig < 10 ? '0' + dig : ' ');
		waddstr(w, txt);
	} else if (L->cell == 2) {
		waddstr(w, tui_heat_glyph(t, f)); /* twice: a square cell */
	}
}

/* The column labels: each column's CPU when a figure fits, else one every
 * tick columns; the cursor's column labelled over them in the cursor's
 * colour, so that its column is marked as its row is. */
static void draw_columns(struct tui *t, struct cores_tab *s, WINDOW *w, int y,
			 const struct layout *L, int wd)
{
	const struct cores_plan *pl = &s->r.plan;
	int x0 = 1 + L->label, right = wd - 1, cx = -1, clen = 0;
	char num[16], cur[16] = "";
	if (s->cj >= L->col0 && s->cj < L->col0 + L->ncols) { /* the cursor's, first */
		if (L->cell >= 4)
			mt_snprintf(cur, sizeof cur, "%*d", L->cell, pl->cpus[s->cj]);
		else
			mt_snprintf(cur, sizeof cur, "%d", pl->cpus[s->cj]);
		clen = (int)strlen(cur);
		cx = x0 + (s->cj - L->col0) * L->cell;
		if (cx + clen > right)
			cx = right - clen;
	}
	wattrset(w, tui_attr(t, ROLE_DIM));
	/* TRANSLATORS: the matrix's corner above the CPUs' numbers, 4 columns
	 * at most */
	mvwaddstr(w, y, 1, _("CPU"));
	for (int c = L->col0; c < L->col0 + L->ncols; c++) {
		int x = x0 + (c - L->col0) * L->cell, len;
		if (L->cell >= 4)
			mt_snprintf(num, sizeof num, "%*d", L->cell, pl->cpus[c]);
		else if (c % L->tick == 0)
			mt_snprintf(num, sizeof num, "%d", pl->cpus[c]);
		else
			continue;
		len = (int)strlen(num);
		/* a tick the cursor's label would touch gives way to it (numbers in
		 * cells of their own touch nothing) */
		if (x + len > right || c == s->cj ||
		    (cx >= 0 && L->cell < 4 && x < cx + clen + 1 && x + len + 1 > cx))
			continue;
		mvwaddstr(w, y, x, num);
	}
	if (cx >= 0) {
		wattrset(w, tui_attr(t, ROLE_CURSOR));
		mvwaddstr(w, y, cx, cur);
	}
}

static void draw_matrix(struct tui *t, struct cores_tab *s, WINDOW *w, int y,
			const struct layout *L, int wd)
{
	const struct cores_plan *pl = &s->r.plan;
	draw_columns(t, s, w, y, L, wd);
	for (int r = L->row0; r < L->row0 + L->nrows; r++) {
		int yy = y + 1 + r - L->row0;
		wattrset(w, tui_attr(t, r == s->ci ? ROLE_CURSOR : ROLE_DIM));
		mvwprintw(w, yy, 1, "%4d", pl->cpus[r]);
		wmove(w, yy, 1 + L->label);
		for (int c = L->col0; c < L->col0 + L->ncols; c++)
			draw_cell(t, s, w, L, r, c, r == s->ci && c == s->cj);
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

static void draw_legend(struct tui *t, WINDOW *w, int y, int wd, const struct layout *L)
{
	char lo[32], hi[32];
	wattrset(w, tui_attr(t, ROLE_DIM));
	if (isnan(L->lo)) {
		tui_put(t, w, y, 1, wd - 2,
			tui_running(t, &tab_cores) ? _("the pairs fill in as they are measured")
						   : _("nothing measured yet"));
		return;
	}
	mt_hnum(lo, sizeof lo, L->lo, 1);
	mt_hnum(hi, sizeof hi, L->hi, 1);
	/* TRANSLATORS: the legend around the colour ramp: "fast 40.1 [ramp]
	 * 120.3 ns slow" */
	mvwprintw(w, y, 1, _("fast %s "), lo);
	tui_heat_ramp(t, w, 0);
	wattrset(w, tui_attr(t, ROLE_DIM));
	wprintw(w, _(" %s ns slow"), hi);
	if (1 + wd - 2 - getcurx(w) > 30)
		waddstr(w, L->cell == 2 && L->digits ? _("  digits: the relation") : _("  log scale"));
}

/* The cursor's pair, both CPUs' places, then the summary. Returns the next
 * line. */
static int draw_reading(struct tui *t, struct cores_tab *s, WINDOW *w, int y, int h, int wd)
{
	const struct cores_plan *pl = &s->r.plan;
	int k = s->r.at ? s->r.at[(size_t)s->ci * (size_t)pl->n + (size_t)s->cj] : -1;
	char line[512];
	size_t used;
	if (s->ci == s->cj)
		mt_snprintf(line, sizeof line, _("CPU %d with itself: no pair"), pl->cpus[s->ci]);
	else if (k >= 0 && pl->pairs[k].have) {
		char rel[CORES_REL_LEN * 2 + 8];
		/* the relation is the result's (English, data): its words
		 * translated where the catalogue has them */
		mt_hsnprintf(line, sizeof line, _("CPU %d and CPU %d: %.1f ns one-way, %s"),
			     pl->cpus[s->ci], pl->cpus[s->cj], pl->pairs[k].ns,
			     tui_text(t, rel, sizeof rel, rel_words(pl->pairs[k].rel)));
		used = strlen(line);
		if (pl->pairs[k].kept > 0) /* measured: its tries' spread */
			mt_hsnprintf(line + used, sizeof line - used, _(" (spread %.1f %%)"),
				     100 * pl->pairs[k].spread);
	}
	else
		mt_snprintf(line, sizeof line,
			    k >= 0 ? _("CPU %d and CPU %d: not measured yet")
				   : _("CPU %d and CPU %d: not measured (not in the sample)"),
			    pl->cpus[s->ci], pl->cpus[s->cj]);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y++, 1, wd - 2, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (int side = 0; side < 2 && y < h; side++) {
		int i = side ? s->cj : s->ci;
		if (pl->place[i][0] && (side == 0 || s->ci != s->cj))
			tui_put(t, w, y++, 3, wd - 4, tui_text(t, line, sizeof line, pl->place[i]));
	}
	if (s->r.nsum && y < h) {
		wattrset(w, tui_attr(t, ROLE_TITLE));
		tui_put(t, w, y++, 1, wd - 2, _("by relation, the median of its pairs (one-way):"));
	}
	for (size_t m = 0; m < s->r.nsum && y < h; m++) {
		const struct cores_summary *sm = &s->r.sum[m];
		char rel[CORES_REL_LEN * 2 + 8], pad[CORES_REL_LEN * 2 + 40];
		wattrset(w, tui_attr(t, (int)m + 1 == relation_digit(s, s->ci, s->cj) ? ROLE_TITLE
										    : ROLE_NORMAL));
		tui_text(t, rel, sizeof rel, rel_words(sm->rel));
		/* TRANSLATORS: a relation's line: its median one-way ns, its pairs */
		mt_hsnprintf(line, sizeof line,
			     MT_NGETTEXT("%2zu %s %7.1f ns  %zu pair", "%2zu %s %7.1f ns  %zu pairs",
					 sm->pairs),
			     m + 1, mt_text_pad(pad, sizeof pad, rel, -28), sm->ns, sm->pairs);
		used = strlen(line);
		if (sm->pairs > 1) /* the spread behind the median */
			mt_hsnprintf(line + used, sizeof line - used, ", %.1f-%.1f", sm->lo, sm->hi);
		mvwaddnstr(w, y++, 1, line, (int)mt_text_cut(line, wd - 2, NULL));
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	return y;
}

static void draw(struct tui *t, void *self, WINDOW *w, int full)
{
	struct cores_tab *s = self;
	struct layout L;
	int h, wd, y = 0, rows;
	char line[512];
	(void)full;
	getmaxyx(w, h, wd);
	werase(w);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	if (s->r.plan.n < 2) {
		y += tui_wrap(t, w, y, 1, wd - 2, 3, _("Core-to-core latency: the time a cache line "
			      "takes from one CPU to another, one-way (round trip / 2), for every "
			      "pair of CPUs, with a summary by how the two are related (SMT "
			      "siblings, same L3 group, other socket)."));
		wattrset(w, tui_attr(t, ROLE_DIM));
		tui_wrap(t, w, h - 2, 1, wd - 2, 2,
			 tui_measure_hint(t, _("r measures every pair of the CPUs memtop may use; o "
					       "opens a saved or imported matrix."), 1));
		return;
	}
	mt_snprintf(line, sizeof line,
		    s->r.plan.sampled
			    ? MT_NGETTEXT("one-way ns (round trip / 2): %d CPUs, %zu of %zu pair "
					  "(sampled)",
					  "one-way ns (round trip / 2): %d CPUs, %zu of %zu pairs "
					  "(sampled)", s->r.plan.npairs)
			    : MT_NGETTEXT("one-way ns (round trip / 2): %d CPUs, %zu of %zu pair",
					  "one-way ns (round trip / 2): %d CPUs, %zu of %zu pairs",
					  s->r.plan.npairs),
		    s->r.plan.n, cores_result_measured(&s->r), s->r.plan.npairs);
	tui_put(t, w, y++, 1, wd - 2, line);
	/* below: the legend, the reading (and two places), the summary */
	rows = h - 2 - 2 - (s->r.plan.place[0][0] ? 2 : 0) - (int)(s->r.nsum ? s->r.nsum + 1 : 0) -
	       (s->r.source[0] ? 1 : 0);
	if (rows < 2)
		rows = 2;
	layout(s, &L, rows, wd - 2);
	s->page_rows = L.nrows;
	s->page_cols = L.ncols;
	draw_matrix(t, s, w, y, &L, wd);
	y += 1 + L.nrows;
	draw_legend(t, w, y++, wd, &L);
	y = draw_reading(t, s, w, y, h - (s->r.source[0] ? 1 : 0), wd);
	wattrset(w, tui_attr(t, ROLE_DIM));
	if (s->r.source[0])
		tui_put_source(t, w, h - 1, 1, wd - 2,
			       s->r.hdr.hardware[0] ? s->r.hdr.hardware : s->r.origin, s->r.source);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

const struct tab tab_cores = {
	.name = N_("Cores"),
	.brief = N_("Cores"),
	.key = '8',
	.fini = fini,
	.measure = measure,
	TAB_PARTS(cores),
};
