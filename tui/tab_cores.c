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

static struct {
	struct cores_plan plan;   /* outlives the job */
	struct cores_result r;    /* measured here, or opened (memtop view) */
	int running;
	int ci, cj;               /* the cursor: row and column CPU indices */
} S;

static int init(struct tui *t)
{
	(void)t;
	memset(&S, 0, sizeof S);
	S.cj = 1;
	return 0;
}

static void fini(struct tui *t)
{
	(void)t;
	cores_result_free(&S.r);
	cores_plan_free(&S.plan);
}

static void on_job_event(struct tui *t, const struct job_event *ev)
{
	if (ev->type == JOB_EV_CELL) {
		if (cores_result_apply(&S.r, ev))
			tui_result_changed(t, &tab_cores, 1);
		tui_dirty(t);
		return;
	}
	if (ev->type == JOB_EV_NOTE) {
		tui_message(t, "%s", ev->text);
		return;
	}
	S.running = 0;
	tui_set_diag(t, &S.r.hdr.diag);
	if (ev->type == JOB_EV_FAILED)
		tui_message(t, "core-to-core latency failed: %s", ev->text);
	else if (ev->type == JOB_EV_CANCELLED)
		tui_message(t, "core-to-core latency stopped");
	else
		tui_message(t, "done: %zu pair%s measured", cores_result_measured(&S.r),
			    cores_result_measured(&S.r) == 1 ? "" : "s");
	tui_dirty(t);
}

/* The plan for the CPUs this process may run on (sampled above
 * CORES_SAMPLE_ABOVE), with the topology's relations. Returns 0 or -1. */
static int make_plan(struct tui *t)
{
	static int cpus[MT_MAX_CPUS];
	static struct cores_place places[CORES_MAX_CPUS];
	struct cores_params p;
	struct topo *topo = NULL;
	mt_error e;
	int n = mt_allowed_cpus(cpus, MT_MAX_CPUS), rc;
	if (n > CORES_MAX_CPUS)
		n = CORES_MAX_CPUS;
	cores_params_default(&p, tui_quick(t));
	if (topo_load(NULL, &topo, &e) < 0)
		topo = NULL; /* relations "unknown" */
	cores_places(topo, cpus, n, places);
	cores_plan_free(&S.plan);
	rc = cores_plan_make(&S.plan, &p, places, n, n > CORES_SAMPLE_ABOVE, NULL, topo, &e);
	topo_free(topo);
	if (rc == 0 && cores_result_init(&S.r, &S.plan, &e) == 0)
		return 0;
	tui_message(t, "cannot measure: %s", e.msg);
	return -1;
}

static int act_start(struct tui *t, int key)
{
	(void)key;
	if (!tui_can_measure(t))
		return 1;
	cores_result_free(&S.r);
	tui_result_changed(t, &tab_cores, 1);
	if (make_plan(t) < 0)
		return 1;
	S.ci = 0;
	S.cj = 1;
	if (tui_job_launch(t, &tab_cores, cores_worker, &S.plan, &S.r.hdr) < 0)
		return 1;
	S.running = 1;
	tui_dirty(t);
	return 1;
}

static int act_move(struct tui *t, int key)
{
	int n = S.r.plan.n;
	if (n < 2)
		return 1;
	if ((key == KEY_UP || key == 'k') && S.ci > 0)
		S.ci--;
	if ((key == KEY_DOWN || key == 'j') && S.ci + 1 < n)
		S.ci++;
	if ((key == KEY_LEFT || key == 'h') && S.cj > 0)
		S.cj--;
	if ((key == KEY_RIGHT || key == 'l') && S.cj + 1 < n)
		S.cj++;
	if (key == KEY_HOME) {
		S.ci = 0;
		S.cj = 1;
	}
	tui_dirty(t);
	return 1;
}

/* ---- files: the frame opens and saves them through .result ---------- */

static size_t io_measured(struct tui *t, void *self)
{
	(void)t;
	(void)self;
	return cores_result_measured(&S.r);
}

static const void *io_shown(struct tui *t, void *self)
{
	(void)t;
	(void)self;
	return &S.r;
}

static int io_running(struct tui *t, void *self)
{
	(void)t;
	(void)self;
	return S.running;
}

/* An opened file: its arrays become the tab's (kind_cores' load allocated
 * the struct around them, freed here). */
static int io_take(struct tui *t, void *self, struct result_file *f, mt_error *e)
{
	struct cores_result *r = f->r;
	(void)t;
	(void)self;
	(void)e;
	cores_result_free(&S.r);
	S.r = *r;
	free(r);
	f->r = NULL;
	S.ci = 0;
	S.cj = 1;
	return 0;
}

static const struct tab_result_io io = {
	.kind = &kind_cores,
	.nothing = "nothing measured to save yet (r measures)",
	.busy = "a core-to-core run",
	.measured = io_measured,
	.shown = io_shown,
	.running = io_running,
	.take = io_take,
};

static const struct keybinding keys[] = {
	{ 'r', "r", "measure every pair of the CPUs memtop may use (sampled above 32)",
	  act_start },
	{ KEY_UP, "arrows hjkl", "move the cursor to another pair", act_move },
	{ KEY_DOWN, NULL, NULL, act_move },
	{ KEY_LEFT, NULL, NULL, act_move },
	{ KEY_RIGHT, NULL, NULL, act_move },
	{ 'h', NULL, NULL, act_move },
	{ 'j', NULL, NULL, act_move },
	{ 'k', NULL, NULL, act_move },
	{ 'l', NULL, NULL, act_move },
	{ KEY_HOME, "Home", "the first pair", act_move },
	{ 'w', "w", "save as JSON (memtop-cores-HOST-DATE.json)", tui_result_key },
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

static void layout(struct layout *L, int rows, int width)
{
	int n = S.r.plan.n;
	L->label = 5;
	L->cell = (width - L->label) / 7 >= n ? 7 : (width - L->label) / 2 >= n ? 2 : 1;
	L->ncols = (width - L->label) / L->cell;
	L->ncols = L->ncols > n ? n : L->ncols < 0 ? 0 : L->ncols;
	L->nrows = rows > n ? n : rows < 0 ? 0 : rows;
	L->row0 = window_start(S.ci, L->nrows, n);
	L->col0 = window_start(S.cj, L->ncols, n);
	L->lo = L->hi = NAN;
	for (size_t k = 0; k < S.r.plan.npairs; k++) {
		const struct cores_pair *q = &S.r.plan.pairs[k];
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
static int relation_digit(int i, int j)
{
	int k = i == j || !S.r.at ? -1 : S.r.at[(size_t)i * (size_t)S.r.plan.n + (size_t)j];
	if (k < 0 || !S.r.plan.pairs[k].have)
		return 0;
	for (size_t m = 0; m < S.r.nsum; m++)
		if (strcmp(S.r.sum[m].rel, S.r.plan.pairs[k].rel) == 0)
			return (int)m + 1;
	return 0;
}

static void draw_cell(struct tui *t, WINDOW *w, const struct layout *L, int i, int j, int cur)
{
	double v = cores_result_ns(&S.r, i, j), f = heat(L, v);
	int dig = relation_digit(i, j), mine = dig && dig == relation_digit(S.ci, S.cj);
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

static void draw_matrix(struct tui *t, WINDOW *w, int y, const struct layout *L)
{
	const struct cores_plan *pl = &S.r.plan;
	wattrset(w, tui_attr(t, ROLE_DIM));
	mvwaddstr(w, y, 1, L->cell == 7 ? " CPU" : "    ");
	for (int c = L->col0; c < L->col0 + L->ncols && L->cell == 7; c++)
		wprintw(w, " %6d", pl->cpus[c]);
	if (L->cell < 7 && L->ncols > 0)
		wprintw(w, " CPU %d..%d across", pl->cpus[L->col0], pl->cpus[L->col0 + L->ncols - 1]);
	for (int r = L->row0; r < L->row0 + L->nrows; r++) {
		int yy = y + 1 + r - L->row0;
		wattrset(w, tui_attr(t, r == S.ci ? ROLE_TITLE : ROLE_DIM));
		mvwprintw(w, yy, 1, "%4d", pl->cpus[r]);
		wmove(w, yy, 1 + L->label);
		for (int c = L->col0; c < L->col0 + L->ncols; c++)
			draw_cell(t, w, L, r, c, r == S.ci && c == S.cj);
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

static void draw_legend(struct tui *t, WINDOW *w, int y, int wd, const struct layout *L)
{
	char lo[32], hi[32];
	int n = tui_heat_levels(t);
	wattrset(w, tui_attr(t, ROLE_DIM));
	if (isnan(L->lo)) {
		tui_put(t, w, y, 1, wd - 2, S.running ? "the pairs fill in as they are measured"
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
static int draw_reading(struct tui *t, WINDOW *w, int y, int h, int wd)
{
	const struct cores_plan *pl = &S.r.plan;
	int k = S.r.at ? S.r.at[(size_t)S.ci * (size_t)pl->n + (size_t)S.cj] : -1;
	char line[320];
	if (S.ci == S.cj)
		mt_snprintf(line, sizeof line, "CPU %d with itself: no pair", pl->cpus[S.ci]);
	else if (k >= 0 && pl->pairs[k].have) {
		char rel[CORES_REL_LEN + 8];
		mt_snprintf(line, sizeof line, "CPU %d and CPU %d: %.1f ns one-way, %s",
			    pl->cpus[S.ci], pl->cpus[S.cj], pl->pairs[k].ns,
			    tui_text(t, rel, sizeof rel, pl->pairs[k].rel));
		if (pl->pairs[k].kept > 0) /* measured: its tries' spread */
			mt_append(line, sizeof line, " (spread %.1f %%)", 100 * pl->pairs[k].spread);
	}
	else
		mt_snprintf(line, sizeof line, "CPU %d and CPU %d: not measured%s", pl->cpus[S.ci],
			    pl->cpus[S.cj], k >= 0 ? " yet" : " (not in the sample)");
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y++, 1, wd - 2, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (int s = 0; s < 2 && y < h; s++) {
		int i = s ? S.cj : S.ci;
		if (pl->place[i][0] && (s == 0 || S.ci != S.cj))
			tui_put(t, w, y++, 3, wd - 4, tui_text(t, line, sizeof line, pl->place[i]));
	}
	if (S.r.nsum && y < h) {
		wattrset(w, tui_attr(t, ROLE_TITLE));
		tui_put(t, w, y++, 1, wd - 2, "by relation, the median of its pairs (one-way):");
	}
	for (size_t m = 0; m < S.r.nsum && y < h; m++) {
		const struct cores_summary *s = &S.r.sum[m];
		char rel[CORES_REL_LEN + 8];
		wattrset(w, tui_attr(t, (int)m + 1 == relation_digit(S.ci, S.cj) ? ROLE_TITLE
										    : ROLE_NORMAL));
		mt_snprintf(line, sizeof line, "%2zu %-28s %7.1f ns  %zu pair%s", m + 1,
			    tui_text(t, rel, sizeof rel, s->rel), s->ns, s->pairs,
			    s->pairs == 1 ? "" : "s");
		mvwaddnstr(w, y++, 1, line, wd - 2);
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	return y;
}

static void draw(struct tui *t, WINDOW *w, int full)
{
	struct layout L;
	int h, wd, y = 0, rows;
	char line[256];
	(void)full;
	getmaxyx(w, h, wd);
	werase(w);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	if (S.r.plan.n < 2) {
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
		    S.r.plan.n, cores_result_measured(&S.r), S.r.plan.npairs,
		    S.r.plan.sampled ? " (sampled)" : "");
	tui_put(t, w, y++, 1, wd - 2, line);
	/* below: the legend, the reading (and two places), the summary */
	rows = h - 2 - 2 - (S.r.plan.place[0][0] ? 2 : 0) - (int)(S.r.nsum ? S.r.nsum + 1 : 0) -
	       (S.r.source[0] ? 1 : 0);
	if (rows < 2)
		rows = 2;
	layout(&L, rows, wd - 2);
	draw_matrix(t, w, y, &L);
	y += 1 + L.nrows;
	draw_legend(t, w, y++, wd, &L);
	y = draw_reading(t, w, y, h - (S.r.source[0] ? 1 : 0), wd);
	wattrset(w, tui_attr(t, ROLE_DIM));
	if (S.r.source[0])
		tui_put_source(t, w, h - 1, 1, wd - 2,
			       S.r.hdr.hardware[0] ? S.r.hdr.hardware : S.r.origin, S.r.source);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

const struct tab tab_cores = {
	.name = "Cores",
	.brief = "Cores",
	.key = '8',
	.init = init,
	.fini = fini,
	.draw = draw,
	.keys = keys,
	.job_event = on_job_event,
	.result = &io,
};
