/* tab_cores: tab 8, core-to-core latency. The matrix as a heatmap (the
 * mountain's colour scale, glyph density without colour), filling in pair
 * by pair; a cursor on a pair with both CPUs' places; the summary by
 * relation, whose digits label the small cells and whose cells the cursor's
 * relation underlines. The measuring is src/cores/; this file starts the
 * job and draws. */
#include "config.h"

#include "cores/cores.h"
#include "core/jsonio.h"
#include "core/sysinfo.h"
#include "core/topo.h"
#include "tab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cores_tab {
	struct cores_plan plan;   /* outlives the job */
	struct cores_result r;    /* measured here, or opened (memtop view) */
	int running;
	int ci, cj;               /* the cursor: row and column CPU indices */
	/* scratch of make_plan, too big for the stack */
};

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
	s->running = 0;
	if (tui_job_ended(t, ev, "core-to-core latency"))
		tui_message(t, "done: %zu pair%s measured", cores_result_measured(&s->r),
			    cores_result_measured(&s->r) == 1 ? "" : "s");
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
	if (cores_plan_for(&s->plan, &p, tui_machine(t), NULL, -1, &e) == 0 &&
	    cores_result_init(&s->r, &s->plan, &e) == 0)
		return 0;
	tui_message(t, "cannot measure: %s", e.msg);
	return -1;
}

static int act_start(struct tui *t, void *self, int key)
{
	struct cores_tab *s = self;
	(void)key;
	if (!tui_can_measure(t))
		return 1;
	cores_result_free(&s->r);
	tui_result_changed(t, &tab_cores, 1);
	if (make_plan(t, s) < 0)
		return 1;
	s->ci = 0;
	s->cj = 1;
	if (tui_job_launch(t, &tab_cores, cores_worker, &s->plan, &s->r.hdr) < 0)
		return 1;
	s->running = 1;
	tui_dirty(t);
	return 1;
}

static int act_move(struct tui *t, void *self, int key)
{
	struct cores_tab *s = self;
	int n = s->r.plan.n;
	if (n < 2)
		return 1;
	if ((key == KEY_UP || key == 'k') && s->ci > 0)
		s->ci--;
	if ((key == KEY_DOWN || key == 'j') && s->ci + 1 < n)
		s->ci++;
	if ((key == KEY_LEFT || key == 'h') && s->cj > 0)
		s->cj--;
	if ((key == KEY_RIGHT || key == 'l') && s->cj + 1 < n)
		s->cj++;
	if (key == KEY_HOME) {
		s->ci = 0;
		s->cj = 1;
	}
	tui_dirty(t);
	return 1;
}

/* ---- files: the frame opens and saves them through .result ---------- */

static size_t io_measured(const void *r)
{
	return cores_result_measured(r);
}

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
	.busy = "a core-to-core run",
	.result_at = offsetof(struct cores_tab, r),
	.running_at = offsetof(struct cores_tab, running),
	.measured = io_measured,
	.take = io_take,
};

static const struct keybinding keys[] = {
	{ 'r', "r", "measure every pair of the CPUs memtop may use (sampled above 32)",
	  act_start },
	TUI_KEYS_ARROWS_HJKL("move the cursor to another pair", act_move),
	{ KEY_HOME, "Home", "the first pair", act_move },
	TUI_KEY_SAVE("cores"),
	{ 0, NULL, NULL, NULL },
};

/* ---- drawing ------------------------------------------------------------- */

/* The heatmap's geometry: cell width (7: the figure, 2: a glyph and the
 * relation's digit, 1: a glyph) and the window of CPUs shown. */
struct layout {
	int cell, label;
	int row0, nrows, col0, ncols;
	double lo, hi; /* the measured range, NAN when nothing is */
};

/* The first index of a window of len over n that keeps cur inside. */
static int window_start(int cur, int len, int n)
{
	int s = cur - len / 2;
	if (s + len > n)
		s = n - len;
	return s < 0 ? 0 : s;
}

static void layout(struct cores_tab *s, struct layout *L, int rows, int width)
{
	int n = s->r.plan.n;
	L->label = 5;
	L->cell = (width - L->label) / 7 >= n ? 7 : (width - L->label) / 2 >= n ? 2 : 1;
	L->ncols = (width - L->label) / L->cell;
	L->ncols = L->ncols > n ? n : L->ncols < 0 ? 0 : L->ncols;
	L->nrows = rows > n ? n : rows < 0 ? 0 : rows;
	L->row0 = window_start(s->ci, L->nrows, n);
	L->col0 = window_start(s->cj, L->ncols, n);
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
}

/* Where v sits between the fastest and the slowest pair (log scale). */
static double heat(const struct layout *L, double v)
{
	if (!isfinite(v) || isnan(L->lo))
		return NAN;
	if (!(L->hi > L->lo * 1.0001))
		return 0.5;
	return log(v / L->lo) / log(L->hi / L->lo);
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
	double v = cores_result_ns(&s->r, i, j), f = heat(L, v);
	int dig = relation_digit(s, i, j), mine = dig && dig == relation_digit(s, s->ci, s->cj);
	attr_t a = cur ? tui_attr(t, ROLE_CURSOR) : tui_heat_attr(t, f);
	char txt[16];
	if (mine && !cur)
		a |= A_UNDERLINE; /* the cursor's relation, outlined */
	wattrset(w, a);
	if (i == j) {
		wattrset(w, cur ? a : tui_attr(t, ROLE_DIM));
		waddstr(w, L->cell == 7 ? "      -" : L->cell == 2 ? " -" : "-");
		return;
	}
	if (L->cell == 7) {
		if (isfinite(v))
			mt_snprintf(txt, sizeof txt, " %6.1f", v);
		else
			mt_snprintf(txt, sizeof txt, "%7s", "");
		if (!tui_colors(t) && isfinite(v)) { /* monochrome: the density glyph first */
			waddstr(w, tui_heat_glyph(t, f));
			waddstr(w, txt + 1);
		} else {
			waddstr(w, txt);
		}
		return;
	}
	waddstr(w, tui_heat_glyph(t, f));
	if (L->cell == 2) {
		mt_snprintf(txt, sizeof txt, "%c", dig > 0 && dig < 10 ? '0' + dig : ' ');
		waddstr(w, txt);
	}
}

static void draw_matrix(struct tui *t, struct cores_tab *s, WINDOW *w, int y,
			const struct layout *L)
{
	const struct cores_plan *pl = &s->r.plan;
	wattrset(w, tui_attr(t, ROLE_DIM));
	mvwaddstr(w, y, 1, L->cell == 7 ? " CPU" : "    ");
	for (int c = L->col0; c < L->col0 + L->ncols && L->cell == 7; c++)
		wprintw(w, " %6d", pl->cpus[c]);
	if (L->cell < 7 && L->ncols > 0)
		wprintw(w, " CPU %d..%d across", pl->cpus[L->col0], pl->cpus[L->col0 + L->ncols - 1]);
	for (int r = L->row0; r < L->row0 + L->nrows; r++) {
		int yy = y + 1 + r - L->row0;
		wattrset(w, tui_attr(t, r == s->ci ? ROLE_TITLE : ROLE_DIM));
		mvwprintw(w, yy, 1, "%4d", pl->cpus[r]);
		wmove(w, yy, 1 + L->label);
		for (int c = L->col0; c < L->col0 + L->ncols; c++)
			draw_cell(t, s, w, L, r, c, r == s->ci && c == s->cj);
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

static void draw_legend(struct tui *t, struct cores_tab *s, WINDOW *w, int y, int wd,
			const struct layout *L)
{
	char lo[32], hi[32];
	int n = tui_heat_levels(t);
	wattrset(w, tui_attr(t, ROLE_DIM));
	if (isnan(L->lo)) {
		tui_put(t, w, y, 1, wd - 2, s->running ? "the pairs fill in as they are measured"
						      : "nothing measured yet");
		return;
	}
	mt_snprintf(lo, sizeof lo, "%.1f", L->lo);
	mt_snprintf(hi, sizeof hi, "%.1f", L->hi);
	mvwprintw(w, y, 1, "fast %s ", lo);
	for (int i = 0; i < n; i++) {
		double f = n > 1 ? (double)i / (n - 1) : 1;
		wattrset(w, tui_heat_attr(t, f));
		waddstr(w, tui_heat_glyph(t, f));
	}
	wattrset(w, tui_attr(t, ROLE_DIM));
	wprintw(w, " %s ns slow", hi);
	if (1 + wd - 2 - getcurx(w) > 30)
		waddstr(w, L->cell == 2 ? "  digits: the relation" : "  log scale");
}

/* The cursor's pair, both CPUs' places, then the summary. Returns the next
 * line. */
static int draw_reading(struct tui *t, struct cores_tab *s, WINDOW *w, int y, int h, int wd)
{
	const struct cores_plan *pl = &s->r.plan;
	int k = s->r.at ? s->r.at[(size_t)s->ci * (size_t)pl->n + (size_t)s->cj] : -1;
	char line[320];
	if (s->ci == s->cj)
		mt_snprintf(line, sizeof line, "CPU %d with itself: no pair", pl->cpus[s->ci]);
	else if (k >= 0 && pl->pairs[k].have) {
		char rel[CORES_REL_LEN + 8];
		mt_snprintf(line, sizeof line, "CPU %d and CPU %d: %.1f ns one-way, %s",
			    pl->cpus[s->ci], pl->cpus[s->cj], pl->pairs[k].ns,
			    tui_text(t, rel, sizeof rel, pl->pairs[k].rel));
		if (pl->pairs[k].kept > 0) /* measured: its tries' spread */
			mt_append(line, sizeof line, " (spread %.1f %%)", 100 * pl->pairs[k].spread);
	}
	else
		mt_snprintf(line, sizeof line, "CPU %d and CPU %d: not measured%s", pl->cpus[s->ci],
			    pl->cpus[s->cj], k >= 0 ? " yet" : " (not in the sample)");
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
		tui_put(t, w, y++, 1, wd - 2, "by relation, the median of its pairs (one-way):");
	}
	for (size_t m = 0; m < s->r.nsum && y < h; m++) {
		const struct cores_summary *sm = &s->r.sum[m];
		char rel[CORES_REL_LEN + 8];
		wattrset(w, tui_attr(t, (int)m + 1 == relation_digit(s, s->ci, s->cj) ? ROLE_TITLE
										    : ROLE_NORMAL));
		mt_snprintf(line, sizeof line, "%2zu %-28s %7.1f ns  %zu pair%s", m + 1,
			    tui_text(t, rel, sizeof rel, sm->rel), sm->ns, sm->pairs,
			    sm->pairs == 1 ? "" : "s");
		mvwaddnstr(w, y++, 1, line, wd - 2);
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	return y;
}

static void draw(struct tui *t, void *self, WINDOW *w, int full)
{
	struct cores_tab *s = self;
	struct layout L;
	int h, wd, y = 0, rows;
	char line[256];
	(void)full;
	getmaxyx(w, h, wd);
	werase(w);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	if (s->r.plan.n < 2) {
		y += tui_wrap(t, w, y, 1, wd - 2, 3, "Core-to-core latency: the time a cache line "
			      "takes from one CPU to another, one-way (round trip / 2), for every "
			      "pair of CPUs, with a summary by how the two are related (SMT "
			      "siblings, same L3 group, other socket).");
		wattrset(w, tui_attr(t, ROLE_DIM));
		tui_wrap(t, w, h - 2, 1, wd - 2, 2, "r measures every pair of the CPUs memtop may "
			 "use; memtop view FILE opens a saved or imported matrix.");
		return;
	}
	mt_snprintf(line, sizeof line, "one-way ns (round trip / 2): %d CPUs, %zu of %zu pairs%s",
		    s->r.plan.n, cores_result_measured(&s->r), s->r.plan.npairs,
		    s->r.plan.sampled ? " (sampled)" : "");
	tui_put(t, w, y++, 1, wd - 2, line);
	/* below: the legend, the reading (and two places), the summary */
	rows = h - 2 - 2 - (s->r.plan.place[0][0] ? 2 : 0) - (int)(s->r.nsum ? s->r.nsum + 1 : 0) -
	       (s->r.source[0] ? 1 : 0);
	if (rows < 2)
		rows = 2;
	layout(s, &L, rows, wd - 2);
	draw_matrix(t, s, w, y, &L);
	y += 1 + L.nrows;
	draw_legend(t, s, w, y++, wd, &L);
	y = draw_reading(t, s, w, y, h - (s->r.source[0] ? 1 : 0), wd);
	wattrset(w, tui_attr(t, ROLE_DIM));
	if (s->r.source[0])
		tui_put_source(t, w, h - 1, 1, wd - 2,
			       s->r.hdr.hardware[0] ? s->r.hdr.hardware : s->r.origin, s->r.source);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

const struct tab tab_cores = {
	.name = "Cores",
	.brief = "Cores",
	.key = '8',
	.fini = fini,
	TAB_PARTS(cores),
};
