/* tab_lists: tab 6, list layouts. The table lengths x layouts (cycles per
 * cell of the walk) filling in live, and for each layout the new lines per
 * cell at 64- and 128-byte lines and the simulator's misses per cell (the
 * M4 Max's L1d by default) of the latest length measured; with d, the
 * distances between neighbouring cells of the malloc (then the holes) list
 * instead (the lesson's "±64 KB"). The measuring is src/lists/lists.c; this
 * file starts the job and draws. */
#include "config.h"

#include "base/i18n.h"
#include "base/jsonio.h"
#include "lists/lists.h"
#include "machine/machine.h"
#include "tab.h"

#include <math.h>
#include <string.h>

/* Column heads that fit 80 columns beside the side panel. */
/* (the layouts' names, as results and the manual write them: never
 * translated) */
static const char *const short_names[LIST_NLAYOUTS] = {
	"seq", "stride", "shuffled", "malloc", "holes", "cdr"
};

/* s at (y, x), clipped to cols columns (never inside a character). */
static void put_cols(WINDOW *w, int y, int x, const char *s, int cols)
{
	if (cols > 0)
		mvwaddnstr(w, y, x, s, (int)mt_text_cut(s, cols, NULL));
}

struct lists_tab {
	struct lists_params p; /* outlives the job */
	struct lists_result r; /* measured here, or opened (memtop view) */
	char note[160];
	int dist;              /* d: 0 the per-cell rows, 1 malloc's distances, 2 holes' */
};

static void reset_results(struct lists_tab *s)
{
	lists_result_init(&s->r, &s->p);
	s->note[0] = '\0';
}

/* The latest length measured of layout l (-1: none): the per-cell rows show it. */
static int latest_row(struct lists_tab *s, int l)
{
	int row = -1;
	for (size_t i = 0; i < s->r.nlengths; i++)
		if (s->r.c[i][l].have)
			row = (int)i;
	return row;
}

static int init(struct tui *t, void *self)
{
	struct lists_tab *s = self;
	lists_params_default(&s->p);
	if (tui_quick(t))
		s->p.nlengths = 2; /* 4K and 64K cells: a second or two */
	reset_results(s);
	return 0;
}

static void on_job_event(struct tui *t, void *self, const struct job_event *ev)
{
	struct lists_tab *s = self;
	if (ev->type == JOB_EV_NOTE) {
		mt_strlcpy(s->note, ev->text, sizeof s->note);
		tui_dirty(t);
		return;
	}
	if (ev->type == JOB_EV_CELL) {
		if (lists_result_apply(&s->r, ev) == LISTS_CELL_RESULT)
			tui_result_changed(t, &tab_lists, 1);
		tui_dirty(t);
		return;
	}
	if (tui_job_ended(t, ev, _("lists")))
		tui_message(t, "%s", _("lists done: every layout read 1..n"));
	tui_dirty(t);
}

static int act_start(struct tui *t, void *self, int key)
{
	struct lists_tab *s = self;
	struct machine_budget b;
	if (!tui_can_measure(t))
		return 1;
	if (tui_discard_first(t, &tab_lists, self,
			      _("Discard the unsaved list walks and measure again?"), act_start, key))
		return 1;
	s->p.graph = 0;
	machine_mem_budget(tui_machine(t), &b);
	s->p.mem_limit = b.bytes / 2;
	reset_results(s);
	tui_result_changed(t, &tab_lists, 1);
	if (tui_job_launch(t, &tab_lists, lists_worker, &s->p, &s->r.hdr) < 0)
		return 1;
	tui_dirty(t);
	return 1;
}

/* A knob took a new value: an empty table is drawn for it. */
static void knob_set(void *self)
{
	struct lists_tab *s = self;
	if (!lists_result_measured(&s->r))
		reset_results(s);
}

static const struct tab_knob knobs[] = {
	TAB_KNOB_NUM('m', N_("type the multiply-adds a cell (the core hides misses behind them)"),
		     N_("Multiply-adds a cell, dependent"), N_("stop the run first (x)"),
		     struct lists_tab, p.work, 0, 10000, N_("multiply-adds a cell"), knob_set),
};

/* ---- files: the frame opens and saves them through .result ---------- */

/* An opened file: copied into the instance's r (the frame frees f). */
static int io_take(struct tui *t, void *self, struct result_file *f, mt_error *e)
{
	struct lists_tab *s = self;
	(void)t;
	(void)e;
	if (((const struct lists_result *)f->r)->graph)
		return mt_fail(e, _("%s: the graph homework (memtop run lists --graph) has no tab; "
				    "memtop run prints it"), f->path);
	s->r = *(const struct lists_result *)f->r;
	s->note[0] = '\0';
	return 0;
}

static const struct tab_result_io io = {
	.kind = &kind_lists,
	.busy = N_("a lists run"),
	.result_at = offsetof(struct lists_tab, r),
	.take = io_take,
};

static int act_dist(struct tui *t, void *self, int key)
{
	struct lists_tab *s = self;
	(void)key;
	s->dist = (s->dist + 1) % 3;
	tui_message(t, "%s", s->dist == 1 ? _("the malloc list's neighbour distances (d: holes)")
			     : s->dist == 2 ? _("the holes list's neighbour distances (d: per-cell rows)")
					   : _("per cell: new lines and simulated misses"));
	tui_dirty(t);
	return 1;
}

static const struct keybinding keys[] = {
	{ 'r', "r", N_("walk every layout at every length"), act_start },
	{ 'd', "d", N_("distances between neighbouring cells: malloc, holes, off (\"+-64 KB\")"),
	  act_dist },
	TUI_KEY_KNOB(knobs[0]),
	TUI_KEY_SAVE("lists"),
	{ 0, NULL, NULL, NULL },
};

#define RARE_SHARE 0.005 /* distance bins below this share are counted, not drawn */

/* The neighbour distances of the malloc or holes list at its latest
 * length: the most common distance, then a bar per non-empty bin, from the
 * farthest back to the farthest on. Returns the next line. */
static int draw_dist(struct tui *t, struct lists_tab *s, WINDOW *w, int y, int h, int wd)
{
	const int slot = s->dist - 1, lay = slot ? LIST_HOLES : LIST_MALLOC;
	const struct lists_hist *hs = NULL;
	char line[512], a[32], b[32];
	int row = -1, rare = 0;
	for (size_t i = 0; i < s->r.nlengths; i++)
		if (s->r.hist[i][slot].have)
			row = (int)i;
	wattrset(w, tui_attr(t, ROLE_TITLE));
	if (row < 0) {
		mt_snprintf(line, sizeof line,
			    tui_view_mode(t) ? _("%s: no distances yet")
					     : _("%s: no distances yet (r walks the lists)"),
			    list_layout_name(lay));
		tui_put(t, w, y++, 1, wd - 2, line);
		return y;
	}
	hs = &s->r.hist[row][slot];
	mt_hsnprintf(line, sizeof line,
		     MT_NGETTEXT("%s at %zu cell: next cell minus this one, most often %+lld B "
				 "(%.0f %%)",
				 "%s at %zu cells: next cell minus this one, most often %+lld B "
				 "(%.0f %%)", s->r.lengths[row]),
		     list_layout_name(lay), s->r.lengths[row], (long long)hs->mode,
		    hs->sampled ? 100.0 * (double)hs->mode_count / (double)hs->sampled : 0);
	tui_put(t, w, y++, 1, wd - 2, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (int k = 0; k < LISTS_HIST_BINS && y < h - 1 && hs->total; k++) {
		int bin = k < LISTS_HIST_POW ? LISTS_HIST_POW - 1 - k : k;
		int64_t lo, hi;
		double share = (double)hs->count[bin] / (double)hs->total;
		if (!hs->count[bin])
			continue;
		if (share < RARE_SHARE) { /* the few far ones: counted, not drawn */
			rare++;
			continue;
		}
		lists_hist_bounds(bin, &lo, &hi);
		mt_snprintf(line, sizeof line, "%c%s..%s", bin < LISTS_HIST_POW ? '-' : '+',
			    mt_fmt_size(a, sizeof a, (uint64_t)(lo < 0 ? -hi : lo)),
			    mt_fmt_size(b, sizeof b, (uint64_t)(lo < 0 ? -lo : hi)));
		mt_hsnprintf(a, sizeof a, "%14s %5.1f%% ", line, 100 * share);
		put_cols(w, y, 1, a, wd - 2);
		wattrset(w, tui_attr(t, ROLE_BAR));
		for (int c = 0; c < (int)(share * 40 + 0.5) && 1 + 22 + c < wd - 1; c++)
			waddstr(w, tui_glyph(t, GL_BLOCK));
		wattrset(w, tui_attr(t, ROLE_NORMAL));
		y++;
	}
	if (rare && y < h - 1) {
		mt_hsnprintf(line, sizeof line,
			     MT_NGETTEXT("and %d bin under %.1f %% each", "and %d bins under %.1f %% each",
					 rare),
			     rare, 100 * RARE_SHARE);
		wattrset(w, tui_attr(t, ROLE_DIM));
		tui_put(t, w, y++, 1, wd - 2, line);
		wattrset(w, tui_attr(t, ROLE_NORMAL));
	}
	return y;
}

/* Per cell at the latest length of each layout: new lines at 64 and 128
 * bytes, the simulator's misses, and with work the bare walk's cycles.
 * Returns the next line. */
static int draw_percell(struct tui *t, struct lists_tab *s, WINDOW *w, int y, int h, int wd)
{
	/* TRANSLATORS: the per-cell rows' names, 8 columns at most: new lines
	 * of 64 and 128 bytes, the simulator's misses, the bare walk's cycles */
	static const char *const rows[] = { N_("lines64"), N_("lines128"), N_("sim miss"),
					    N_("bare cyc") };
	char line[512], cell[24];
	wattrset(w, tui_attr(t, ROLE_TITLE));
	if (s->r.sim_s >= 0)
		mt_snprintf(line, sizeof line,
			    s->r.sim_s == 7 && s->r.sim_E == 8 && s->r.sim_b == 7
				    ? _("per cell, latest length (sim: (%d,%d,%d) = M4 Max L1d, cold)")
				    : _("per cell, latest length (sim: (%d,%d,%d), cold)"),
			    s->r.sim_s, s->r.sim_E, s->r.sim_b);
	else
		mt_strlcpy(line, _("per cell, latest length (not simulated)"), sizeof line);
	tui_put(t, w, y++, 1, wd - 2, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (int k = 0; k < 4 && y < h; k++, y++) {
		if (k == 3 && !s->r.work)
			break;
		mt_text_pad(line, sizeof line, _(rows[k]), 8);
		for (int l = 0; l < LIST_NLAYOUTS; l++) {
			int row = latest_row(s, l);
			const struct lists_cell_result *c = row >= 0 ? &s->r.c[row][l] : NULL;
			double v = !c ? (double)NAN : k == 0 ? c->l64 : k == 1 ? c->l128
							: k == 2 ? c->sim : c->bare;
			if (c && isfinite(v))
				mt_hsnprintf(cell, sizeof cell, " %8.3f", v);
			else
				mt_snprintf(cell, sizeof cell, " %8s", "-");
			mt_append(line, sizeof line, "%s", cell);
		}
		put_cols(w, y, 1, line, wd - 2);
	}
	return y;
}

static void draw(struct tui *t, void *self, WINDOW *w, int full)
{
	struct lists_tab *s = self;
	int h, wd, y = 0;
	char line[512], cell[48];
	size_t used;
	(void)full;
	getmaxyx(w, h, wd);
	werase(w);
	if (s->r.source[0] && s->r.hdr.clock.core_ghz > 0) /* whose clock the cycles are */
		mt_hsnprintf(line, sizeof line,
			     s->r.work ? _("cycles per cell at %.2f GHz, best of %d")
				       : _("cycles per cell at %.2f GHz, best of %d (bare chain of loads)"),
			     s->r.hdr.clock.core_ghz, s->r.tries);
	else
		mt_snprintf(line, sizeof line,
			    s->r.work ? _("walk of (1 2 ... n), cycles per cell, best of %d")
				      : _("walk of (1 2 ... n), cycles per cell, best of %d (bare chain "
					  "of loads)"),
			    s->r.tries);
	used = strlen(line);
	if (s->r.work)
		mt_hsnprintf(line + used, sizeof line - used,
			     MT_NGETTEXT(", %u multiply-add a cell (alone: %.1f cycles)",
					 ", %u multiply-adds a cell (alone: %.1f cycles)", s->r.work),
			     s->r.work, s->r.work_cyc);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y++, 1, wd - 2, line);
	y++;
	/* TRANSLATORS: the head of the lengths' column, 8 columns at most */
	mt_text_pad(line, sizeof line, _("cells"), 8);
	for (int l = 0; l < LIST_NLAYOUTS; l++)
		mt_append(line, sizeof line, " %s", mt_text_pad(cell, sizeof cell, short_names[l], 8));
	put_cols(w, y++, 1, line, wd - 2);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (size_t i = 0; i < s->r.nlengths && y < h; i++, y++) {
		mt_snprintf(line, sizeof line, "%8zu", s->r.lengths[i]);
		for (int l = 0; l < LIST_NLAYOUTS; l++) {
			if (s->r.c[i][l].have)
				mt_hsnprintf(cell, sizeof cell, " %8.1f", s->r.c[i][l].cyc);
			else
				mt_snprintf(cell, sizeof cell, " %8s", "-");
			mt_append(line, sizeof line, "%s", cell);
		}
		put_cols(w, y, 1, line, wd - 2);
	}
	y++;
	if (y + 4 >= h)
		return;
	y = s->dist ? draw_dist(t, s, w, y, h, wd) : draw_percell(t, s, w, y, h, wd);
	if (s->note[0] && y + 1 < h) {
		wattrset(w, tui_attr(t, ROLE_WARN));
		tui_put(t, w, y + 1, 1, wd - 2, s->note);
	}
	wattrset(w, tui_attr(t, ROLE_DIM));
	if (s->r.source[0]) /* whose figures: the file's hardware, then its name */
		tui_put_source(t, w, h - 1, 1, wd - 2, s->r.hdr.hardware, s->r.source);
	else if (!tui_running(t, &tab_lists) && !lists_result_measured(&s->r))
		tui_put(t, w, h - 1, 1, wd - 2, _("r walks the lists; m sets the work per cell"));
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

const struct tab tab_lists = {
	.name = N_("Lists"),
	.key = '6',
	TAB_PARTS(lists),
};
