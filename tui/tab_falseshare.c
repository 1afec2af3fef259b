/* tab_falseshare: tab 5, false sharing. The table threads x layout (packed
 * 8 bytes apart, padded to separate lines) filling in live with the
 * packed/padded ratio, and the spacing sweep at two threads as a bar chart.
 * The measuring is src/falseshare.c; this file starts the job and draws. */
#include "config.h"

#include "base/i18n.h"
#include "base/jsonio.h"
#include "cores/cores.h"
#include "falseshare/falseshare.h"
#include "tab.h"

#include <math.h>
#include <string.h>

struct falseshare_tab {
	struct falseshare_params p; /* outlives the job */
	struct falseshare_result r; /* measured here, or opened (memtop view) */
	/* The line transfer between the first two CPUs the race's threads
	 * ran on: a short core-to-core ping-pong (src/cores) the tab starts
	 * after a run. */
	struct {
		struct cores_plan plan; /* outlives its job */
		struct cores_result r;
		int running; /* the tab's job is this one, not the race */
	} xfer;
};

/* Start the ping-pong of the race's first two CPUs (nothing when it had
 * fewer). */
static void transfer_start(struct tui *t, struct falseshare_tab *s)
{
	struct cores_place pc[2];
	struct cores_params p;
	mt_error e;
	cores_result_free(&s->xfer.r);
	cores_plan_free(&s->xfer.plan);
	if (s->p.ncpus < 2)
		return;
	cores_params_default(&p, 1);
	cores_places(NULL, s->p.cpus, 2, pc);
	if (cores_plan_make(&s->xfer.plan, &p, pc, 2, 0, NULL, NULL, &e) < 0 ||
	    cores_result_init(&s->xfer.r, &s->xfer.plan, &e) < 0)
		return;
	s->xfer.running =
		tui_job_launch(t, &tab_falseshare, cores_worker, &s->xfer.plan, NULL) == 0;
}

/* The race is in progress (the tab's job, and not the line transfer). */
static int race_running(const struct tui *t, const struct falseshare_tab *s)
{
	return tui_running(t, &tab_falseshare) && !s->xfer.running;
}

/* s at (y, x), clipped to cols columns (never inside a character). */
static void put_cols(WINDOW *w, int y, int x, const char *s, int cols)
{
	if (cols > 0)
		mvwaddnstr(w, y, x, s, (int)mt_text_cut(s, cols, NULL));
}

static void reset_results(struct falseshare_tab *s)
{
	falseshare_result_init(&s->r, &s->p);
}

static int init(struct tui *t, void *self)
{
	struct falseshare_tab *s = self;
	falseshare_params_default(&s->p, tui_machine(t));
	if (tui_quick(t))
		s->p.rounds = 2000000;
	reset_results(s);
	return 0;
}

static void fini(struct tui *t, void *self)
{
	struct falseshare_tab *s = self;
	(void)t;
	cores_result_free(&s->xfer.r);
	cores_plan_free(&s->xfer.plan);
}

static void on_job_event(struct tui *t, void *self, const struct job_event *ev)
{
	struct falseshare_tab *s = self;
	if (s->xfer.running) { /* the line transfer after the race */
		cores_result_apply(&s->xfer.r, ev);
		s->xfer.running = !job_event_is_last(ev);
		tui_dirty(t);
		return;
	}
	if (ev->type == JOB_EV_CELL) {
		if (falseshare_result_apply(&s->r, ev))
			tui_result_changed(t, &tab_falseshare, 1);
		tui_dirty(t);
		return;
	}
	if (ev->type == JOB_EV_NOTE)
		return;
	if (tui_job_ended(t, ev, _("false sharing"))) {
		tui_message(t, "%s", s->r.inexact ? _("done: a sum was WRONG") : _("done: every sum exact"));
		transfer_start(t, s);
	}
	tui_dirty(t);
}

static int act_start(struct tui *t, void *self, int key)
{
	struct falseshare_tab *s = self;
	if (!tui_can_measure(t))
		return 1;
	if (tui_discard_first(t, &tab_falseshare, self,
			      _("Discard the unsaved false-sharing race and measure again?"), act_start,
			      key))
		return 1;
	reset_results(s);
	cores_result_free(&s->xfer.r); /* the last run's line transfer: measured again after */
	tui_result_changed(t, &tab_falseshare, 1);
	if (tui_job_launch(t, &tab_falseshare, falseshare_worker, &s->p, &s->r.hdr) < 0)
		return 1;
	tui_dirty(t);
	return 1;
}

/* A knob took a new value: an empty table is drawn for it. */
static void knob_set(void *self)
{
	struct falseshare_tab *s = self;
	if (!falseshare_result_measured(&s->r))
		reset_results(s);
}

static const struct tab_knob knobs[] = {
	TAB_KNOB_NUM('o', N_("type the atomic adds a thread"), N_("Atomic adds a thread"),
		     N_("stop the run first (x)"), struct falseshare_tab, p.rounds, 1000,
		     1000000000ull, N_("atomic adds a thread"), knob_set),
};

/* ---- files: the frame opens and saves them through .result ---------- */

static const struct tab_result_io io = {
	.kind = &kind_falseshare,
	.busy = N_("a false sharing run"),
	.result_at = offsetof(struct falseshare_tab, r),
	.result_size = sizeof(struct falseshare_result),
};

static const struct keybinding keys[] = {
	{ 'r', "r", N_("measure threads 1, 2, 4, 8 x packed/padded, then the sweep"),
	  act_start },
	TUI_KEY_KNOB(knobs[0]),
	TUI_KEY_SAVE("falseshare"),
	{ 0, NULL, NULL, NULL },
};

/* The table: threads x packed/padded ms and their ratio. Returns the next
 * line. */
static int draw_table(struct tui *t, struct falseshare_tab *s, WINDOW *w, int y, int h, int wd)
{
	char line[256], c[4][64];
	wattrset(w, tui_attr(t, ROLE_TITLE));
	/* TRANSLATORS: the table's heads: threads (16 columns), packed ms (11),
	 * padded ms (11), their ratio (8) */
	mt_snprintf(line, sizeof line, "%s %s %s %s", mt_text_pad(c[0], sizeof c[0], _("threads"), -16),
		    mt_text_pad(c[1], sizeof c[1], C_("tab", "packed ms"), 11),
		    mt_text_pad(c[2], sizeof c[2], C_("tab", "padded ms"), 11),
		    mt_text_pad(c[3], sizeof c[3], C_("tab", "ratio"), 8));
	put_cols(w, y++, 1, line, wd - 2);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (size_t i = 0; i < s->r.nthreads && y < h; i++, y++) {
		const struct falseshare_cell *pk = &s->r.tab[i][0], *pd = &s->r.tab[i][1];
		char a[16], b[16], r[16], over[64];
		if (pk->have)
			mt_hsnprintf(a, sizeof a, "%11.1f", pk->ms);
		else
			mt_snprintf(a, sizeof a, "%11s", "-");
		if (pd->have)
			mt_hsnprintf(b, sizeof b, "%11.1f", pd->ms);
		else
			mt_snprintf(b, sizeof b, "%11s", "-");
		if (pk->have && pd->have && pd->ms > 0)
			mt_hsnprintf(r, sizeof r, "%7.2fx", pk->ms / pd->ms);
		else
			r[0] = '\0';
		/* TRANSLATORS: more threads than CPUs */
		mt_text_pad(over, sizeof over,
			    pk->over || (s->r.ncpus > 0 && s->r.threads[i] > (unsigned)s->r.ncpus)
				    ? _(" (> CPUs)") : "", -11);
		mt_snprintf(line, sizeof line, "%5u%s %s %s %s", s->r.threads[i], over, a, b, r);
		put_cols(w, y, 1, line, wd - 2);
	}
	return y + 1;
}

/* The spacing sweep as bars: where the sharing stops. */
static void draw_sweep(struct tui *t, struct falseshare_tab *s, WINDOW *w, int y, int h, int wd)
{
	char line[256];
	double top = 0;
	for (size_t i = 0; i < s->r.nsweep; i++)
		if (s->r.swp[i].have && s->r.swp[i].ms > top)
			top = s->r.swp[i].ms;
	wattrset(w, tui_attr(t, ROLE_TITLE));
	mt_snprintf(line, sizeof line,
		    MT_NGETTEXT("spacing sweep, %u thread (ms): the sharing stops where the bars drop",
				"spacing sweep, %u threads (ms): the sharing stops where the bars drop",
				s->r.sweep_threads),
		    s->r.sweep_threads);
	tui_put(t, w, y++, 1, wd - 2, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (size_t i = 0; i < s->r.nsweep && y < h; i++, y++) {
		int bw = wd - 2 - 20, cells;
		/* TRANSLATORS: a row of the sweep: the spacing in bytes, its ms
		 * (18 columns before the bar) */
		mt_snprintf(line, sizeof line, _("%5u B %9s"), s->r.sweep[i], "-");
		if (s->r.swp[i].have)
			mt_hsnprintf(line, sizeof line, _("%5u B %9.1f"), s->r.sweep[i], s->r.swp[i].ms);
		put_cols(w, y, 1, line, wd - 2);
		if (!s->r.swp[i].have || top <= 0 || bw < 4)
			continue;
		cells = (int)lround(s->r.swp[i].ms / top * bw);
		wattrset(w, tui_attr(t, ROLE_BAR));
		for (int k = 0; k < cells; k++)
			mvwaddstr(w, y, 19 + k, tui_glyph(t, GL_BLOCK));
		wattrset(w, tui_attr(t, ROLE_NORMAL));
	}
}

static void draw(struct tui *t, void *self, WINDOW *w, int full)
{
	struct falseshare_tab *s = self;
	int h, wd, y = 0;
	char line[512];
	(void)full;
	getmaxyx(w, h, wd);
	werase(w);
	mt_snprintf(line, sizeof line,
		    MT_NGETTEXT("%llu atomic add a thread, best of %d; packed %u B apart, padded %u B",
				"%llu atomic adds a thread, best of %d; packed %u B apart, padded %u B",
				s->r.rounds),
		    (unsigned long long)s->r.rounds, s->r.tries, s->r.packed, s->r.padded);
	if (s->r.ncpus > 0)
		mt_append(line, sizeof line, MT_NGETTEXT("; %d CPU", "; %d CPUs", s->r.ncpus),
			  s->r.ncpus);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	y += tui_wrap(t, w, y, 1, wd - 2, 2, line); /* two lines at 80 columns, never a cut */
	y = draw_table(t, s, w, y, h, wd);
	if (!s->r.source[0] && isfinite(cores_result_ns(&s->xfer.r, 0, 1)) && y + 1 < h) {
		/* the figure first: where the room is short, the clauses after it
		 * go (tui_put says a sentence in its first whole clauses) */
		mt_hsnprintf(line, sizeof line, _("a line moves in %.1f ns one-way between CPUs %d and "
						  "%d; ping-pong after the race, its 2 threads' CPUs"),
			    cores_result_ns(&s->xfer.r, 0, 1), s->xfer.plan.cpus[0],
			    s->xfer.plan.cpus[1]);
		tui_put(t, w, y - 1, 1, wd - 2, line);
	}
	if (s->r.nsweep > 0 && y + 2 < h)
		draw_sweep(t, s, w, y, h, wd);
	wattrset(w, tui_attr(t, ROLE_DIM));
	if (s->r.source[0] && h > 2)
		tui_put_source(t, w, h - 2, 1, wd - 2, s->r.hdr.hardware, s->r.source);
	if (!race_running(t, s) && !s->r.tab[0][0].have && !s->r.source[0])
		tui_put(t, w, h - 1, 1, wd - 2,
			tui_measure_hint(t, _("r measures; o sets the atomic adds a thread"), 0));
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

const struct tab tab_falseshare = {
	.name = N_("False sharing"),
	.brief = N_("Sharing"),
	.key = '5',
	.fini = fini,
	TAB_PARTS(falseshare),
};
