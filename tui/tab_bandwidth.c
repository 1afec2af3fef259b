/* tab_bandwidth: tab 7, the bandwidth lab. The kernels x levels table of
 * GB/s filling in live as bars (one thread count at a time, t cycles), the
 * scaling of the cursor's kernel and size over thread counts, and the
 * loaded-latency curve (ns per load against the bandwidth the other cores
 * draw). When the area is too short for all three, v picks the lower panel.
 * A saved run can be put beside (c): each cell then shows its ratio. The
 * measuring is src/bandwidth/; this file starts the job and draws. */
#include "config.h"

#include "bandwidth/bandwidth.h"
#include "info/info.h"
#include "latency/latency.h"
#include "os/sysinfo.h"
#include "tab.h"

#include <math.h>
#include <string.h>

#define NAME_W 12          /* the kernel column */
#define CELL_MAX 26        /* widest size column */
#define DOUBTFUL_SPREAD 0.05
#define DOUBTFUL_CANARY 1.15

enum { VIEW_SCALING, VIEW_LOADED, VIEW_NOTES, NVIEWS };

struct bandwidth_tab {
	struct bandwidth_params p; /* outlives the job */
	char notes[4][BANDWIDTH_NOTE_LEN];
	int nnotes;
	int tsel, tpinned;         /* thread index the table shows; pinned by t */
	int ksel, ssel;            /* cursor: kernel row, size column */
	int view;                  /* lower panel when not all fit */
	struct bandwidth_result r; /* measured here, or opened (memtop view) */
	struct bandwidth_result cmp; /* beside it (c) */
	int have_cmp;
	/* scratch, too big for the stack: the Latency tab's levels being
	 * planned from */
	struct latency_levels levels;
};

static void reset_results(struct bandwidth_tab *s)
{
	bandwidth_result_init(&s->r, &s->p);
	s->tsel = s->ksel = s->ssel = 0;
	s->tpinned = 0;
}

/* The levels to plan the sizes from: the Latency tab's detected levels when
 * it measured this machine in this session, else `memtop info`'s. */
static size_t plan_levels(struct tui *t, struct bandwidth_tab *s, struct bandwidth_level *lv,
			  size_t cap)
{
	const struct latency_result *lr = tui_latency(t);
	struct latency_levels *l = &s->levels;
	size_t n = 0;
	if (lr && !lr->source[0]) {
		latency_detect(lr, l);
		for (size_t i = 0; i < l->n && n < cap; i++) {
			if (l->lv[i].tlb || !l->lv[i].size)
				continue;
			lv[n].level = l->lv[i].level;
			lv[n].size = l->lv[i].size;
			mt_strlcpy(lv[n].source, "latency run", sizeof lv[n].source);
			lv[n].doubt[0] = '\0'; /* measured here */
			n++;
		}
	}
	return n; /* none: the machine's levels */
}

/* Plan the sizes (again: a latency run may have found the levels since). */
static void plan(struct tui *t, struct bandwidth_tab *s)
{
	struct bandwidth_level lv[INFO_MAX_LEVELS];
	size_t nlv = plan_levels(t, s, lv, INFO_MAX_LEVELS);
	mt_error e;
	s->nnotes = bandwidth_plan_sizes(&s->p, tui_machine(t), nlv ? lv : NULL, nlv, s->notes, 4,
					 &e);
	if (s->nnotes < 0) {
		s->nnotes = 0;
		s->p.nsizes = 0; /* nothing fits: r says so */
	}
	if (tui_quick(t))
		bandwidth_params_quick(&s->p, tui_machine(t));
}

static int init(struct tui *t, void *self)
{
	struct bandwidth_tab *s = self;
	bandwidth_params_default(&s->p, tui_machine(t));
	plan(t, s);
	reset_results(s);
	return 0;
}

/* ---- measuring ------------------------------------------------------------ */

static void on_job_event(struct tui *t, void *self, const struct job_event *ev)
{
	struct bandwidth_tab *s = self;
	struct bandwidth_ev_table x;
	if (ev->type == JOB_EV_CELL || ev->type == JOB_EV_UPDATE) {
		if (bandwidth_result_apply(&s->r, ev) == BANDWIDTH_EV_TABLE && !s->tpinned &&
		    JOB_PAYLOAD_GET(ev, struct bandwidth_ev_table, &x) == 0)
			s->tsel = x.thread_index;
		tui_result_changed(t, &tab_bandwidth, 1);
		tui_dirty(t);
		return;
	}
	if (ev->type == JOB_EV_NOTE) {
		bandwidth_result_apply(&s->r, ev); /* the pages and the ports' canary */
		return; /* the frame says it in the status line */
	}
	if (tui_job_ended(t, ev, N_("bandwidth")))
		tui_message(t, "%s", s->r.wrong ? _("done: a kernel's arrays came out WRONG")
					       : _("done: every kernel's arrays checked"));
	tui_dirty(t);
}

/* r: the table, then the loaded latency; b: the table alone; l: the
 * loaded latency alone. */
static int act_start(struct tui *t, void *self, int key)
{
	struct bandwidth_tab *s = self;
	int loaded = key == 'r' ? 1 : key == 'l' ? 2 : 0;
	if (!tui_can_measure(t))
		return 1;
	if (tui_discard_first(t, &tab_bandwidth, self,
			      _("Discard the unsaved bandwidth table and measure again?"), act_start, key))
		return 1;
	plan(t, s);
	if (loaded != 2 && s->p.nsizes == 0) {
		tui_message(t, "%s", _("no size fits in the memory available"));
		return 1;
	}
	s->p.loaded = loaded;
	reset_results(s);
	tui_result_changed(t, &tab_bandwidth, 1);
	if (tui_job_launch(t, &tab_bandwidth, bandwidth_worker, &s->p, &s->r.hdr) < 0)
		return 1;
	s->view = loaded == 2 ? VIEW_LOADED : VIEW_SCALING;
	tui_dirty(t);
	return 1;
}

static int act_threads(struct tui *t, void *self, int key)
{
	struct bandwidth_tab *s = self;
	(void)key;
	if (s->r.nthreads < 2) {
		tui_message(t, "%s", _("one thread count only"));
		return 1;
	}
	s->tsel = (s->tsel + 1) % (int)s->r.nthreads;
	s->tpinned = 1;
	tui_dirty(t);
	return 1;
}

static int act_move(struct tui *t, void *self, int key)
{
	struct bandwidth_tab *s = self;
	int nk = (int)s->r.nkernels, ns = (int)s->r.nsizes;
	if (key == KEY_UP && s->ksel > 0)
		s->ksel--;
	else if (key == KEY_DOWN && s->ksel + 1 < nk)
		s->ksel++;
	else if (key == KEY_LEFT && s->ssel > 0)
		s->ssel--;
	else if (key == KEY_RIGHT && s->ssel + 1 < ns)
		s->ssel++;
	tui_dirty(t);
	return 1;
}

static int act_view(struct tui *t, void *self, int key)
{
	struct bandwidth_tab *s = self;
	static const char *const names[NVIEWS] = { N_("scaling over threads"), N_("loaded latency"),
						   N_("where the sizes came from") };
	(void)key;
	s->view = (s->view + 1) % NVIEWS;
	tui_message(t, _("lower panel: %s (v: the next)"), _(names[s->view]));
	tui_dirty(t);
	return 1;
}

/* The file c asked for, read off the UI thread: beside this run. */
static void compare_opened(struct tui *t, void *self, struct result_file *f)
{
	struct bandwidth_tab *s = self;
	s->cmp = *(const struct bandwidth_result *)f->r;
	s->have_cmp = 1;
	tui_message(t, _("beside it: %s (cells: this run / that)"), f->path);
	tui_dirty(t);
}

static void compare_answer(struct tui *t, void *self, const char *answer)
{
	struct bandwidth_tab *s = self;
	if (!answer)
		return;
	if (!answer[0]) {
		s->have_cmp = 0;
		tui_message(t, "%s", _("nothing beside it"));
		tui_dirty(t);
		return;
	}
	tui_open_file(t, self, answer, &kind_bandwidth, compare_opened);
}

static const struct tab_knob knobs[] = {
	TAB_KNOB_TEXT('c', N_("compare with a saved run (cells show the ratio)"),
		      N_("Compare with a saved bandwidth run (Enter alone: none): "), NULL, NULL,
		      compare_answer),
};

/* ---- files: the frame opens and saves them through .result ---------- */

/* An opened file, copied into the instance's r by the frame (the io's
 * result_size): the cursor and the thread shown start over. */
static void io_opened(void *self)
{
	struct bandwidth_tab *s = self;
	s->tsel = s->ksel = s->ssel = 0;
	s->tpinned = 0;
}

static const struct tab_result_io io = {
	.kind = &kind_bandwidth,
	.busy = N_("a bandwidth run"),
	.result_at = offsetof(struct bandwidth_tab, r),
	.result_size = sizeof(struct bandwidth_result),
	.opened = io_opened,
};

static const struct keybinding keys[] = {
	{ 'r', "r", N_("measure the table, then the loaded latency"), act_start },
	{ 'b', "b", N_("measure the table alone"), act_start },
	{ 'l', "l", N_("measure the loaded latency alone"), act_start },
	{ 't', "t", N_("show the next thread count in the table"), act_threads },
	{ KEY_UP, N_("arrows"), N_("move the cursor (the scaling panel's kernel and size)"),
	  act_move },
	{ KEY_DOWN, NULL, NULL, act_move },
	{ KEY_LEFT, NULL, NULL, act_move },
	{ KEY_RIGHT, NULL, NULL, act_move },
	{ 'v', "v", N_("lower panel: scaling, loaded latency, sizes' sources"), act_view },
	TUI_KEY_KNOB(knobs[0]),
	TUI_KEY_SAVE("bandwidth"),
	{ 0, NULL, NULL, NULL },
};

/* ---- drawing ------------------------------------------------------------- */

static void draw_bar(struct tui *t, WINDOW *w, int y, int x, int width, double frac)
{
	int eighths = (int)lround(fmin(fmax(frac, 0), 1) * width * 8);
	wattrset(w, tui_attr(t, ROLE_BAR));
	for (int i = 0; i < width && eighths - i * 8 > 0; i++) {
		int here = eighths - i * 8;
		mvwaddstr(w, y, x + i, here >= 8 ? tui_glyph(t, GL_BLOCK) : tui_bar_part(t, here));
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

static void size_label(char *buf, size_t len, const struct bandwidth_size *sz, int width)
{
	char a[32];
	mt_fmt_size(a, sizeof a, sz->bytes);
	mt_snprintf(buf, len, "%s%s%s", sz->level, sz->level[0] ? " " : "", a);
	if (mt_text_cols(buf) > width)
		mt_strlcpy(buf, a, len);
}

/* The same cell in the compared run, or NULL. */
static const struct bandwidth_cell *cmp_cell(struct bandwidth_tab *s, size_t si, int k, size_t ti)
{
	int cs = -1, ct;
	if (!s->have_cmp)
		return NULL;
	for (size_t i = 0; i < s->cmp.nsizes; i++)
		if (s->cmp.sizes[i].bytes == s->r.sizes[si].bytes)
			cs = (int)i;
	ct = bandwidth_result_tindex(&s->cmp, s->r.threads[ti].threads);
	if (cs < 0 || ct < 0 || !s->cmp.cell[cs][k][ct].have)
		return NULL;
	return &s->cmp.cell[cs][k][ct];
}

static int draw_title(struct tui *t, struct bandwidth_tab *s, WINDOW *w, int y, int wd)
{
	char line[700];
	int tsel = s->tsel < (int)s->r.nthreads ? s->tsel : 0;
	if (s->r.nthreads)
		mt_snprintf(line, sizeof line,
			    MT_NGETTEXT("GB/s, %s kernels, %u thread (t: next of %zu); bytes as STREAM "
					"counts them",
					"GB/s, %s kernels, %u threads (t: next of %zu); bytes as STREAM "
					"counts them",
					s->r.threads[tsel].threads),
			    bandwidth_isa_name(s->r.isa), s->r.threads[tsel].threads, s->r.nthreads);
	else
		mt_strlcpy(line, _("Loaded latency (no table in this run)"), sizeof line);
	if (s->have_cmp)
		mt_append(line, sizeof line, _("; beside it %s"), s->cmp.source);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	y += tui_wrap(t, w, y, 1, wd - 2, 2, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	return y;
}

/* The table: a row a kernel, a column a size, at thread index s->tsel. */
static int draw_table(struct tui *t, struct bandwidth_tab *s, WINDOW *w, int y, int h, int wd)
{
	size_t ns = s->r.nsizes, ti = s->tsel < (int)s->r.nthreads ? (size_t)s->tsel : 0;
	int cw = ns ? (wd - 2 - NAME_W) / (int)ns : 0, barw;
	double top = bandwidth_result_top(&s->r);
	char buf[64];
	if (!ns || !s->r.nkernels || cw < 8)
		return y;
	cw = cw > CELL_MAX ? CELL_MAX : cw;
	barw = cw - 10;
	wattrset(w, tui_attr(t, ROLE_TITLE));
	/* TRANSLATORS: the bandwidth table's first column: read, copy, triad... */
	mvwaddstr(w, y, 1, mt_text_pad(buf, sizeof buf, C_("tab", "kernel"), -(NAME_W - 1)));
	for (size_t si = 0; si < ns; si++) {
		size_label(buf, sizeof buf, &s->r.sizes[si], cw - 1);
		mvwaddnstr(w, y, 1 + NAME_W + (int)si * cw, buf, (int)mt_text_cut(buf, cw - 1, NULL));
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (size_t ki = 0; ki < s->r.nkernels && ++y < h; ki++) {
		int k = s->r.kernels[ki];
		mvwaddnstr(w, y, 1, bandwidth_kernel_name(k), NAME_W - 1);
		for (size_t si = 0; si < ns; si++) {
			const struct bandwidth_cell *c = &s->r.cell[si][k][ti];
			const struct bandwidth_cell *o = cmp_cell(s, si, k, ti);
			int x = 1 + NAME_W + (int)si * cw;
			int cur = (int)ki == s->ksel && (int)si == s->ssel;
			if (!c->have) {
				wattrset(w, tui_attr(t, cur ? ROLE_CURSOR : ROLE_DIM));
				mvwaddstr(w, y, x, "     -");
				wattrset(w, tui_attr(t, ROLE_NORMAL));
				continue;
			}
			mt_hsnprintf(buf, sizeof buf, "%6.1f%s", c->gbs,
				    !c->checked ? "!"
				    : c->spread > DOUBTFUL_SPREAD || c->canary > DOUBTFUL_CANARY ||
						      c->preempted || c->uneven ? "~"
												  : " ");
			wattrset(w, tui_attr(t, cur ? ROLE_CURSOR : !c->checked ? ROLE_BAD : ROLE_NORMAL));
			mvwaddstr(w, y, x, buf);
			wattrset(w, tui_attr(t, ROLE_NORMAL));
			if (o && o->gbs > 0 && cw >= 14) {
				mt_hsnprintf(buf, sizeof buf, "%5.2fx", c->gbs / o->gbs);
				mvwaddstr(w, y, x + 8, buf);
			} else if (barw >= 2 && top > 0) {
				draw_bar(t, w, y, x + 8, barw, c->gbs / top);
			}
		}
	}
	return y + 1;
}

/* The cursor's cell, one thread, in bytes a cycle and against its
 * ceiling: "24K read_vector, one thread: 83.6 B/cycle at 4.19 GHz
 * (measured around the try), 65 % of Golden Cove's 128 (the L1 ports)":
 * the clock the cell divides by, bandwidth_clock_name's words. Returns 1, or 0
 * when the cell or the clock is missing. */
static int share_line(struct bandwidth_tab *s, int k, size_t si, char *line, size_t len)
{
	struct bandwidth_share sh;
	const struct bandwidth_core *c = bandwidth_core_find(&s->r.cpu);
	char name[48], ceil[400];
	if (bandwidth_cell_share(&s->r, si, k, 0, &sh) < 0)
		return 0;
	size_label(name, sizeof name, &s->r.sizes[si], 40);
	if (sh.ceiling > 0)
		mt_hsnprintf(ceil, sizeof ceil, _("%.0f %% of %s's %.0f (%s)%s"), 100 * sh.fraction,
			     c->name, sh.ceiling, sh.why, bandwidth_ceiling_doubt(sh.fraction));
	else
		mt_snprintf(ceil, sizeof ceil, _("no ceiling: %s"), sh.why);
	/* TRANSLATORS: the cursor's cell: its size, kernel, bytes a cycle,
	 * the clock and where it came from, then how near its ceiling */
	mt_hsnprintf(line, len, _("%s %s, one thread: %.1f B/cycle at %.2f GHz (%s), %s"), name,
		     bandwidth_kernel_name(k), sh.bpc, sh.ghz, bandwidth_clock_name(sh.clock), ceil);
	return 1;
}

/* Scaling of the cursor's kernel and size over the thread counts, and the
 * cursor's cell against its ceiling. Returns the lines it needs when
 * draw is 0. */
static int draw_scaling(struct tui *t, struct bandwidth_tab *s, WINDOW *w, int y, int h, int wd,
			int draw)
{
	size_t si = (size_t)s->ssel, nt = s->r.nthreads;
	int k = s->ksel < (int)s->r.nkernels ? s->r.kernels[s->ksel] : -1, lines = 0, barw, shared;
	const struct bandwidth_cell *one;
	double top = 0;
	char line[700], name[48];
	if (k < 0 || si >= s->r.nsizes)
		return 0;
	if (!draw)
		return (int)nt + 2 + (wd < 100) +
		       (bandwidth_lesson(&s->r, k, line, sizeof line) ? tui_text_height(line, wd - 2) : 0);
	for (size_t ti = 0; ti < nt; ti++)
		top = fmax(top, s->r.cell[si][k][ti].have ? s->r.cell[si][k][ti].gbs : 0);
	size_label(name, sizeof name, &s->r.sizes[si], 40);
	mt_snprintf(line, sizeof line, _("%s at %s over threads (arrows pick the kernel and size)"),
		    bandwidth_kernel_name(k), name);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	lines += tui_wrap(t, w, y, 1, wd - 2, 1, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	one = &s->r.cell[si][k][0];
	barw = wd - 2 - 40 > 30 ? 30 : wd - 2 - 40;
	for (size_t ti = 0; ti < nt && y + lines < h; ti++, lines++) {
		const struct bandwidth_cell *c = &s->r.cell[si][k][ti];
		int x;
		if (!c->have) {
			const struct bandwidth_threads_info *th = &s->r.threads[ti];
			mt_snprintf(line, sizeof line, "%4u%s      -", th->threads,
				    th->over || th->over_quota ? "!" : " ");
			mvwaddnstr(w, y + lines, 1, line, wd - 2);
			continue;
		}
		mt_hsnprintf(line, sizeof line, "%4u%s %7.1f", s->r.threads[ti].threads,
			    s->r.threads[ti].over || s->r.threads[ti].over_quota ? "!" : " ",
			    c->gbs);
		mvwaddnstr(w, y + lines, 1, line, wd - 2);
		x = 15;
		if (barw >= 4 && top > 0) {
			draw_bar(t, w, y + lines, x, barw, c->gbs / top);
			x += barw + 1;
		}
		mt_hsnprintf(line, sizeof line, _("%5.2fx %s"),
			     one->have && one->gbs > 0 ? c->gbs / one->gbs : 0,
			     s->r.threads[ti].placement);
		tui_put(t, w, y + lines, x, wd - 1 - x, line);
	}
	if (y + lines < h && share_line(s, k, si, line, sizeof line)) {
		wattrset(w, tui_attr(t, ROLE_DIM));
		lines += tui_wrap(t, w, y + lines, 1, wd - 2, h - y - lines, line);
		wattrset(w, tui_attr(t, ROLE_NORMAL));
	}
	if (y + lines < h && strcmp(s->r.sizes[si].level, "L1") == 0 &&
	    bandwidth_ports_verdict(&s->r, line, sizeof line, &shared)) {
		wattrset(w, tui_attr(t, shared ? ROLE_WARN : ROLE_DIM));
		lines += tui_wrap(t, w, y + lines, 1, wd - 2, h - y - lines, line);
		wattrset(w, tui_attr(t, ROLE_NORMAL));
	}
	if (y + lines < h && bandwidth_lesson(&s->r, k, line, sizeof line)) {
		wattrset(w, tui_attr(t, ROLE_DIM));
		lines += tui_wrap(t, w, y + lines, 1, wd - 2, h - y - lines, line);
		wattrset(w, tui_attr(t, ROLE_NORMAL));
	}
	return lines;
}

/* The loaded-latency curve: a row a point, idle first, its latency as a
 * bar. Returns the lines it needs when draw is 0. */
static int draw_loaded(struct tui *t, struct bandwidth_tab *s, WINDOW *w, int y, int h, int wd,
		       int draw)
{
	double top = 0;
	int lines = 0, barw = wd - 2 - 34;
	char line[200], d[32], pad[64];
	if (!s->r.loaded)
		return 0;
	if (!draw)
		return (int)s->r.npts + 1;
	for (size_t i = 0; i < s->r.npts; i++)
		if (s->r.pts[i].have)
			top = fmax(top, s->r.pts[i].latency_ns);
	if (s->r.loader_write)
		mt_snprintf(line, sizeof line,
			    MT_NGETTEXT("loaded latency: ns per load on CPU %d while %u loader write",
					"loaded latency: ns per load on CPU %d while %u loaders write",
					s->r.loaders),
			    s->r.chaser_cpu, s->r.loaders);
	else
		mt_snprintf(line, sizeof line,
			    MT_NGETTEXT("loaded latency: ns per load on CPU %d while %u loader read",
					"loaded latency: ns per load on CPU %d while %u loaders read",
					s->r.loaders),
			    s->r.chaser_cpu, s->r.loaders);
	if (s->r.pts[0].have) {
		char idle[64];
		mt_hsnprintf(idle, sizeof idle, _(" (idle %.0f ns)"), s->r.pts[0].latency_ns);
		mt_append(line, sizeof line, "%s", idle);
	}
	wattrset(w, tui_attr(t, ROLE_TITLE));
	lines += tui_wrap(t, w, y, 1, wd - 2, 1, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (size_t i = 0; i < s->r.npts && y + lines < h; i++, lines++) {
		const struct bandwidth_point *pt = &s->r.pts[i];
		if (pt->idle)
			mt_strlcpy(d, _("idle"), sizeof d);
		else
			mt_hsnprintf(d, sizeof d, _("%.0f ns"), pt->delay_ns);
		if (!pt->have) {
			mt_snprintf(line, sizeof line, "%s      -", mt_text_pad(pad, sizeof pad, d, 9));
			mvwaddnstr(w, y + lines, 1, line, wd - 2);
			continue;
		}
		/* TRANSLATORS: a point of the loaded-latency curve: bandwidth, latency */
		mt_hsnprintf(line, sizeof line, _("%s %6.1f GB/s %6.0f ns"), mt_text_pad(pad, sizeof pad, d, 9),
			     pt->gbs, pt->latency_ns);
		mvwaddnstr(w, y + lines, 1, line, (int)mt_text_cut(line, wd - 2, NULL));
		if (barw >= 4 && top > 0)
			draw_bar(t, w, y + lines, 34, barw, pt->latency_ns / top);
	}
	return lines;
}

/* Where each size and thread count came from. */
static int draw_notes(struct tui *t, struct bandwidth_tab *s, WINDOW *w, int y, int h, int wd,
		      int draw)
{
	char line[400], name[48];
	int lines = 0;
	if (!draw)
		return (int)(s->r.nsizes + (size_t)s->nnotes) + 1;
	for (size_t i = 0; i < s->r.nsizes && y + lines < h; i++) {
		size_label(name, sizeof name, &s->r.sizes[i], 40);
		mt_snprintf(line, sizeof line, "%s: %s", name,
			    bandwidth_text((char[BANDWIDTH_TEXT_LEN]){ 0 }, BANDWIDTH_TEXT_LEN, s->r.sizes[i].from));
		lines += tui_wrap(t, w, y + lines, 1, wd - 2, h - y - lines, line);
	}
	wattrset(w, tui_attr(t, ROLE_DIM));
	for (int i = 0; i < s->nnotes && y + lines < h && !s->r.source[0]; i++)
		lines += tui_wrap(t, w, y + lines, 1, wd - 2, h - y - lines,
				  bandwidth_text((char[BANDWIDTH_TEXT_LEN]){ 0 }, BANDWIDTH_TEXT_LEN, s->notes[i]));
	if (y + lines < h)
		lines += tui_wrap(t, w, y + lines, 1, wd - 2, h - y - lines,
			      _("~ tries disagreed over 5 %, a slow canary, the CPU lost to another task "
				"or a thread held up; ! arrays WRONG"));
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	return lines;
}

static void draw(struct tui *t, void *self, WINDOW *w, int full)
{
	struct bandwidth_tab *s = self;
	typedef int (*panel_fn)(struct tui *, struct bandwidth_tab *, WINDOW *, int, int, int, int);
	static const panel_fn panels[NVIEWS] = { draw_scaling, draw_loaded, draw_notes };
	int h, wd, y = 0, need = 0, bottom;
	(void)full;
	getmaxyx(w, h, wd);
	werase(w);
	bottom = h - 1; /* the last line: hints or the file's path */
	y = draw_title(t, s, w, y, wd);
	y = draw_table(t, s, w, y, bottom, wd) + 1;
	/* the chosen panel, then the next ones while they fit whole */
	for (int i = 0; i < NVIEWS; i++) {
		int v = (s->view + i) % NVIEWS, n = panels[v](t, s, w, 0, 0, wd, 0);
		if (n == 0)
			continue;
		if (i > 0 && y + need + n > bottom)
			break;
		n = panels[v](t, s, w, y + need, bottom, wd, 1);
		need += n + 1;
	}
	wattrset(w, tui_attr(t, ROLE_DIM));
	if (s->r.source[0])
		mvwaddnstr(w, h - 1, 1, s->r.source, wd - 2);
	else if (!tui_running(t, &tab_bandwidth) && !bandwidth_result_measured(&s->r))
		tui_wrap(t, w, h - 1, 1, wd - 2, 1,
			 tui_measure_hint(t, _("r measures (b the table alone, l the loaded latency "
						"alone); v: lower panel"), 0));
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

const struct tab tab_bandwidth = {
	.name = N_("Bandwidth"),
	.brief = N_("GB/s"),
	.key = '7',
	TAB_PARTS(bandwidth),
};
